"""Every document's JSON Schema is closed: each object whose keys are fixed says `additionalProperties: false`,
and the maps (keyed by ids or names) say what their values are. So a field added to a document and forgotten in
its schema fails here: documents of many seeds, of every system, mid-game and finished, as the GM and as each
seat or a player sees them, at the table too, and the documents of older versions that still load."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dedale
import schemas
from budget import examples
from dedale.core.session import SPECTATOR, Session
from dedale.systems import names, system
from dedale.testing import open_objects

DATA = Path(__file__).parent / "data"
# Parameters worth a document of their own (the others at their defaults): small games, every shape of result,
# as each system declares them (`System.variants`); a system that declares none is played at its defaults.
VARIANTS: dict[str, list[dict[str, Any]]] = {name: [dict(v) for v in system(name).variants] or [{}]
                                             for name in names()}


def test_every_system_of_dedale_declares_its_variants() -> None:
    assert all(system(name).variants for name in names() if system(name).package.startswith("dedale."))


@pytest.mark.parametrize("name", names())
def test_every_object_of_the_schema_is_closed_or_a_typed_map(name: str) -> None:
    assert list(open_objects(dedale.schema(name))) == []


def test_an_object_left_open_is_found() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {}}}},
              "additionalProperties": False}
    assert list(open_objects(schema)) == ["/a"]


def views(session: Session[Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The document as the GM has it and as each reader may see it: the party view (what the party has
    discovered), and each seat's (and a spectator's) while the rules hide something."""
    found = system(session.system)
    document = session.to_json()
    yield "gm", document
    if found.party_view is not None:
        yield "party", found.in_view(document, "party")
    for seat in (0, 1, SPECTATOR) if session.has_secrets() else ():
        yield f"seat {seat}", session.seat_json(seat)


def follows(session: Session[Any], when: str) -> None:
    schema = dedale.schema(session.system)
    for view, document in views(session):
        try:
            schemas.validate(json.loads(json.dumps(document)), schema)
        except schemas.ValidationError as error:
            raise AssertionError(f"{session.system} seed {session.seed} {when}, {view}'s view: {error}") from None


@pytest.mark.parametrize("name", names())
@settings(max_examples=examples(10))
@given(seed=st.one_of(st.integers(0, 2**32 - 1), st.integers(2**64, 2**130 - 1)), variant=st.integers(0, 9),
       steps=st.integers(0, 12), table=st.booleans(), keyed=st.booleans())
def test_documents_have_no_field_their_schema_does_not_declare(name: str, seed: int, variant: int, steps: int,
                                                               table: bool, keyed: bool) -> None:
    """Short seeds and long ones (the web's, written as text); `keyed`: a game with the secret key the web gave
    before seeds were long, whose documents still open."""
    found = system(name)
    variants = VARIANTS[name]
    params = found.params.from_options(variants[variant % len(variants)], strict=True)
    table = table and found.rules.table_mode
    legacy = keyed and seed < 2**64 and (found.rules.table_mode or not table)
    session = Session(found.rules, params, seed, table, bytes(range(32)) if legacy else None)
    pick = random.Random(seed)
    for _ in range(steps):
        if session.is_over:
            break
        session.step(pick.choice(session.choices()))
    follows(session, f"after {len(session.events)} events")  # a duel at the table too, its hole cards entered
    for _ in range(2000):
        if session.is_over:
            break
        session.step(pick.choice(session.choices()))
    assert session.is_over
    follows(session, "finished")


@pytest.mark.parametrize("path", [path for pattern in ("old/*.json", "zombstone/*.json", "hexcrawl/version*.json",
                                                     "crawler/pins/*.json") for path in sorted(DATA.glob(pattern))],
                         ids=lambda path: f"{path.parent.name}/{path.name}")
def test_documents_of_older_versions_follow_the_schema(path: Path) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    schemas.validate(document, dedale.schema(document["generator"]))


@pytest.mark.parametrize("name", names())
def test_a_field_the_schema_does_not_declare_is_refused_wherever_it_is(name: str) -> None:
    """At the top and in each list's objects: one unknown key, and the document no longer follows its schema."""
    schema = dedale.schema(name)
    document = json.loads(json.dumps(dedale.generate(name, seed=2, **VARIANTS[name][0]).to_json()))
    places = [("/", document)] + [(f"/{key}/0", value[0]) for key, value in document.items()
                                  if isinstance(value, list) and value and isinstance(value[0], dict)]
    assert len(places) > 1
    for where, part in places:
        part["no_such_field"] = 1
        try:
            schemas.validate(document, schema)
        except schemas.ValidationError as error:
            assert "no_such_field" in str(error), where
        else:
            pytest.fail(f"{name}: a field at {where} that the schema does not declare passed")
        del part["no_such_field"]
        schemas.validate(document, schema)

"""The contract every system keeps, checked for each one through the library's API: the same seed and choices
give the same JSON; undo is a replay without the last event; a document loads back and replays to itself;
documents follow the system's JSON Schema (generated from the parameters' declarations); table mode asks
for each result and ends as the seeded game would with the same results; unknown parameters are refused."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import dedale
import games
import schemas
from dedale.core.errors import DedaleError
from dedale.core.params import fields_of
from dedale.core.session import Session
from dedale.systems import names, system

SYSTEMS = names()  # Dédale's own and those of installed packages (tests/test_plugins.py)


def small(name: str) -> dict[str, Any]:
    """A quick game's parameters, still played through every phase: the system's own example."""
    return dict(system(name).example)


def played(name: str, seed: int, steps: int, table: bool = False) -> Session[Any]:
    return games.played(name, seed, steps, table, **small(name))


def game(session: Session[Any]) -> dict[str, Any]:
    """The document without its seed: what was played (two documents always differ by their seeds)."""
    return {key: value for key, value in session.to_json().items() if key != "seed"}


@pytest.mark.parametrize("name", SYSTEMS)
def test_same_seed_and_choices_same_json(name: str) -> None:
    one, two = played(name, 5, 6), played(name, 5, 6)
    assert json.dumps(one.to_json()) == json.dumps(two.to_json())
    assert game(one) != game(played(name, 6, 6)), "another seed played the same game"


@pytest.mark.parametrize("name", SYSTEMS)
def test_undo_is_a_replay_without_the_last_event(name: str) -> None:
    session = played(name, 11, 4)
    if not session.events:
        pytest.skip(f"{name}: no choice to make")
    if not session.can_undo():  # a game with secrets: that event (or an AI's after it) drew a result
        document = session.to_json()
        with pytest.raises(DedaleError, match="cannot be undone"):
            session.undo()
        assert session.has_secrets() and session.to_json() == document
        return
    before = Session.replay(type(session.rules), session.params, session.seed, session.events[:-1]).to_json()
    session.undo()
    assert session.to_json() == before


@pytest.mark.parametrize("name", SYSTEMS)
def test_a_document_loads_back_follows_its_schema_and_continues(name: str) -> None:
    session = played(name, 3, 5)
    document = json.loads(json.dumps(session.to_json()))
    schemas.validate(document, dedale.schema(name))
    again = dedale.load(document).play()
    assert again.to_json() == session.to_json()
    again.run_autopilot()
    session.run_autopilot()
    finished = json.loads(json.dumps(session.to_json()))
    assert again.to_json() == session.to_json() and again.is_over
    schemas.validate(finished, dedale.schema(name))


@pytest.mark.parametrize("name", SYSTEMS)
def test_table_mode_asks_for_each_result_and_replays_from_what_was_entered(name: str) -> None:
    """At the table the player rolls: the session asks for each result (only legal values are offered),
    rolls nothing itself, and its document (the entries are events) loads back to the same game. A system
    whose rules draw what no table can says so."""
    if not system(name).rules.table_mode:
        with pytest.raises(DedaleError, match="no table mode"):
            dedale.play(name, 8, table=True, **small(name))
        return
    table = dedale.play(name, 8, table=True, **small(name))
    pick = random.Random(8)
    entered = 0
    for _ in range(300):
        if table.is_over:
            break
        choices = table.choices()
        if table.pending is not None:
            assert choices and all(c.id.startswith("enter:") for c in choices)
            entered += 1
        table.step(pick.choice(choices))
    assert entered > 0
    people = [event for event in table.events if "by" not in event]  # the AI opponent's decisions are its own
    assert all(set(event) <= {"choice", "enter", "seat"} for event in people)
    assert all(table.rules.ai(event.get("seat", 0)) is not None for event in table.events if "by" in event)
    document = json.loads(json.dumps(table.to_json()))
    assert dedale.load(document).play().to_json() == table.to_json()
    if people:
        table.undo()  # the last person's event, and the AI's decisions after it
        last = max(i for i, event in enumerate(document["events"]) if "by" not in event)
        assert table.events == document["events"][:last]


@pytest.mark.parametrize("name", SYSTEMS)
def test_unknown_or_out_of_range_parameters_are_refused_by_name(name: str) -> None:
    with pytest.raises(DedaleError) as unknown:
        dedale.play(name, 1, no_such_parameter=3)
    assert "no_such_parameter" in str(unknown.value)
    numbers = [f for f in fields_of(system(name).params) if f.kind == "int" and f.spec.high is not None]
    for field in numbers:
        with pytest.raises(DedaleError) as too_big:
            dedale.play(name, 1, **{field.option: int(field.spec.high) + 1})
        assert str(too_big.value).startswith(f"{field.option}: ")  # as the library spells it


@pytest.mark.parametrize("name", SYSTEMS)
def test_the_schema_declares_every_parameter_with_its_default(name: str) -> None:
    params = dedale.schema(name)["properties"]["params"]
    declared = fields_of(system(name).params)
    assert list(params["properties"]) == [f.name for f in declared]
    defaults = system(name).params().to_json()
    for field in declared:
        shown = params["properties"][field.name]
        assert shown["description"] and ("default" in shown)
        if field.default is not None:
            assert defaults.get(field.name, field.default) == shown["default"]  # omit_default: left out


@pytest.mark.parametrize("name", SYSTEMS)
def test_the_document_is_the_same_whatever_language_the_game_is_shown_in(name: str) -> None:
    """Documents hold ids and message keys: showing the game in French or in English as it is played (its
    choices, its picture, its text) changes words on the screen, never a byte of the document."""
    shown = {}
    for lang in ("en", "fr"):
        session = dedale.play(name, 9, **small(name))
        pick = random.Random(9)
        for _ in range(5):
            if session.is_over:
                break
            choices = session.choices()
            assert all(choice.label(lang) for choice in choices)
            session.result().svg(lang)
            session.step(pick.choice(choices))
        shown[lang] = (json.dumps(session.to_json(), ensure_ascii=False), session.result().text(lang))
    assert shown["en"][0] == shown["fr"][0]
    assert shown["en"][1] != shown["fr"][1]  # the words do change

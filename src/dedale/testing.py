"""The contract every system keeps, shipped for the authors of systems (Gymnasium's `check_env` is the model):
`check_system("coinflip")` plays a system's own example through the library, as the CLI and the web app will,
and raises `ContractBroken`, naming the check and what broke, at the first promise it does not keep. Dédale's own
tests run it on every system of the registry (tests/test_contract.py); a plugin's tests run it on theirs.

The checks (`CHECKS`, in order):

- **same game:** the same seed and decisions give the same document, byte for byte; another seed another game;
- **undo:** undoing the last event gives the game replayed without it (or, where the event drew something a
  seat must not see again, refuses, changing nothing);
- **load:** a document loads back and replays to itself, then plays on to its end as the original does;
- **schema:** documents, mid-game and finished, follow the system's JSON Schema, which is closed
  (each object with fixed keys says `additionalProperties: false`) and declares every parameter with its
  default (needs the `check` extra: pip install 'dedale[check]');
- **table:** in table mode the session asks for each result, offering only legal values, rolls nothing itself,
  and its document loads back to the same game; a system whose rules draw what no table can says so;
- **words:** a game shown in English and in French as it is played is the same document; only the words differ;
- **party:** the party view (of a system that keeps a key from its players) has no seed, events or log,
  follows the schema, is its own party view, keeps something from the party in games under way, and every
  format draws it;
- **formats:** every format the system declares writes a non-empty file of the finished game (those that need
  an extra not installed, such as render's PNG, are left out);
- **parameters:** an unknown parameter, or a number above its highest, is refused by name."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from dedale import api
from dedale.api import load
from dedale.core.errors import DedaleError
from dedale.core.extras import EXTRAS, need
from dedale.core.params import fields_of
from dedale.core.session import Session
from dedale.i18n import LANGUAGES
from dedale.systems import System, system

COMBINED = ("anyOf", "oneOf", "allOf")
EXTRA_KEYS = {key for key, _ in EXTRAS.values()}  # a format's refusal for want of an extra
# `dedale.play` taking any system's parameters (its typed overloads know only Dédale's own systems')
play: Callable[..., Session[Any]] = api.play
VIEW_KEYS = ("seed", "events", "log", "hidden", "view", "secret")  # what every party view leaves out or adds


class ContractBroken(AssertionError):
    """A promise every system keeps, broken: the message names the system, the check and what differed."""


def check_system(system_or_name: System | str, seed: int = 5) -> list[str]:
    """Check that a system keeps the contract, on its example's games from `seed` on.

    Args:
        system_or_name: a registered system, or its name (`dedale.system_names()`).
        seed: the first seed played; each check plays a few from it.

    Returns:
        The checks made, in order (`CHECKS`' names).

    Raises:
        ContractBroken: at the first check the system fails, naming it and what broke.
    """
    found = system(system_or_name) if isinstance(system_or_name, str) else system_or_name
    for name, check in CHECKS.items():
        try:
            check(found, seed)
        except ContractBroken as broken:
            raise ContractBroken(f"{found.name}, {name}: {broken}") from None
    return list(CHECKS)


def played(name: str, seed: int, steps: int, table: bool = False, **params: Any) -> Session[Any]:
    """A game of the system with `steps` decisions made, each picked at random (seeded) among the legal ones.

    Args:
        name: the system.
        seed: the game's seed, and the picks'.
        steps: how many decisions (fewer if the game ends first).
        table: played at the table, the results entered as decisions.
        **params: its parameters, as for `dedale.play`.

    Returns:
        The session, where the decisions left it.
    """
    session = play(name, seed, table=table, **params)
    pick = random.Random(seed)
    for _ in range(steps):
        if session.is_over:
            break
        session.step(pick.choice(session.choices()))
    return session


def _played(found: System, seed: int, steps: int, table: bool = False) -> Session[Any]:
    """A game of the system's example (`played`)."""
    return played(found.name, seed, steps, table, **found.example)


def _expect(holds: bool, what: str) -> None:
    if not holds:
        raise ContractBroken(what)


def _without_seed(session: Session[Any]) -> dict[str, Any]:
    return {key: value for key, value in session.to_json().items() if key != "seed"}


def check_same_game(found: System, seed: int) -> None:
    one, two = _played(found, seed, 6), _played(found, seed, 6)
    _expect(json.dumps(one.to_json()) == json.dumps(two.to_json()), "the same seed and decisions made two documents")
    _expect(_without_seed(one) != _without_seed(_played(found, seed + 1, 6)), "another seed played the same game")


def check_undo(found: System, seed: int) -> None:
    session = _played(found, seed + 6, 4)
    if not session.events:
        return
    if not session.can_undo():  # its last event drew what a seat must not see again
        document = session.to_json()
        try:
            session.undo()
        except DedaleError:
            _expect(session.to_json() == document, "an undo refused changed the game")
            return
        raise ContractBroken("can_undo() said no, and undo() went ahead")
    before = Session.replay(type(session.rules), session.params, session.seed, session.events[:-1]).to_json()
    session.undo()
    _expect(session.to_json() == before, "undo gave another game than the replay without the last event")


def check_load(found: System, seed: int) -> None:
    session = _played(found, seed - 2, 5)
    again = load(json.loads(json.dumps(session.to_json()))).play()
    _expect(again.to_json() == session.to_json(), "a document loaded back replays to another game")
    again.run_autopilot()
    session.run_autopilot()
    _expect(again.is_over and again.to_json() == session.to_json(), "a game loaded back played on otherwise")


def open_objects(schema: Any, where: str = "", partial: bool = False) -> Iterator[str]:
    """Where `schema` has an object that says nothing of the keys it does not declare. A branch of anyOf,
    oneOf or allOf without a type of its own only adds to its object's rules (required keys): not an object."""
    if isinstance(schema, list):
        for n, sub in enumerate(schema):
            yield from open_objects(sub, f"{where}/{n}")
        return
    if not isinstance(schema, dict):
        return
    kinds = schema.get("type")
    is_object = "object" in (kinds if isinstance(kinds, list) else [kinds]) or ("properties" in schema and not partial)
    if is_object and "additionalProperties" not in schema and "patternProperties" not in schema:
        yield where or "/"
    for key, sub in schema.items():
        if key in ("properties", "$defs", "patternProperties"):
            for name, each in sub.items():
                yield from open_objects(each, f"{where}/{name}")
        elif key in COMBINED:
            for n, branch in enumerate(sub):
                yield from open_objects(branch, f"{where}/{key}/{n}", partial=True)
        elif key in ("items", "additionalProperties", "not", "prefixItems"):
            yield from open_objects(sub, f"{where}/{key}")


@cache
def _validator(schema_text: str) -> Any:
    """The schema's validator, made once (`jsonschema.validate` checks the schema itself at every call)."""
    jsonschema = need("check", "jsonschema")
    schema = json.loads(schema_text)
    return jsonschema.validators.validator_for(schema)(schema)


def _follows(found: System, document: dict[str, Any], what: str) -> None:
    error = next(_validator(found.schema()).iter_errors(json.loads(json.dumps(document))), None)
    if error is not None:
        raise ContractBroken(f"{what} does not follow the schema: {error.message}")


def check_schema(found: System, seed: int) -> None:
    schema = json.loads(found.schema())
    opened = list(open_objects(schema))
    _expect(not opened, f"the schema leaves objects open (additionalProperties unsaid): {', '.join(opened)}")
    params = schema["properties"]["params"]["properties"]
    declared = fields_of(found.params)
    _expect(list(params) == [f.name for f in declared], "the schema's parameters are not the declared ones")
    _expect(all(params[f.name].get("description") and "default" in params[f.name] for f in declared),
            "a parameter of the schema has no description or no default")
    session = _played(found, seed, 5)
    _follows(found, session.to_json(), "a game under way")
    session.run_autopilot()
    _follows(found, session.to_json(), "a finished game")


def check_table(found: System, seed: int) -> None:
    if not found.rules.table_mode:
        try:
            play(found.name, seed, table=True, **found.example)
        except DedaleError as refused:
            _expect("no table mode" in str(refused), f"table mode refused otherwise than by saying so: {refused}")
            return
        raise ContractBroken("a system without table mode started a game at the table")
    table = play(found.name, seed + 3, table=True, **found.example)
    pick = random.Random(seed)
    entered = 0
    for _ in range(300):
        if table.is_over:
            break
        choices = table.choices()
        if table.pending is not None:
            _expect(bool(choices) and all(c.id.startswith("enter:") for c in choices),
                    "a result to enter was asked with other choices than its values")
            entered += 1
        table.step(pick.choice(choices))
    _expect(entered > 0, "table mode asked for no result")
    people = [event for event in table.events if "by" not in event]  # the AI opponent's decisions are its own
    _expect(all(set(event) <= {"choice", "enter", "seat"} for event in people),
            "a person's event at the table holds more than its choice, entry and seat")
    _expect(all(table.rules.ai(event.get("seat", 0)) is not None for event in table.events if "by" in event),
            "an event made by an AI at a seat no AI plays")
    document = json.loads(json.dumps(table.to_json()))
    _expect(load(document).play().to_json() == table.to_json(), "a game at the table loaded back otherwise")
    if people:
        table.undo()  # the last person's event, and the AI's decisions after it
        last = max(i for i, event in enumerate(document["events"]) if "by" not in event)
        _expect(table.events == document["events"][:last], "undo at the table undid otherwise than the last entry")


def check_words(found: System, seed: int) -> None:
    shown: dict[str, tuple[str, str]] = {}
    for lang in LANGUAGES:
        session = play(found.name, seed + 4, **found.example)
        pick = random.Random(seed)
        for _ in range(5):
            if session.is_over:
                break
            choices = session.choices()
            _expect(all(choice.label(lang) for choice in choices), f"a choice has no label in {lang}")
            session.result().svg(lang)
            session.step(pick.choice(choices))
        shown[lang] = (json.dumps(session.to_json(), ensure_ascii=False), session.result().text(lang))
    documents = {document for document, _ in shown.values()}
    _expect(len(documents) == 1, "the game shown in another language made another document")
    _expect(len({text for _, text in shown.values()}) == len(shown),
            "the text view has the same words in every language")


def check_party(found: System, seed: int) -> None:
    if found.party_view is None:
        return
    kept = False
    for game in (_played(found, seed + n, 3) for n in range(4)):
        gm = game.to_json()
        party = found.in_view(gm, "party")
        _expect(party["seed"] is None and party["events"] == [] and party["log"] == [] and party["hidden"],
                "the party view keeps the seed, the events or the log, which give the key away")
        _follows(found, party, "the party view")
        _expect(found.in_view(party, "party") == party, "the party view of the party view is another")
        kept |= any(party[key] != value for key, value in gm.items() if key not in VIEW_KEYS)
    _expect(kept, "the party view kept nothing of the GM's key from the party in four games under way")
    for ext in found.formats:
        _expect(_exported(found, party, ext) != b"", f"the party view draws nothing in {ext}")


def check_formats(found: System, seed: int) -> None:
    session = play(found.name, seed, **found.example).run_autopilot()
    document = session.to_json()
    for ext in found.formats:
        _expect(_exported(found, document, ext) != b"", f"{ext} wrote nothing")


def _exported(found: System, document: dict[str, Any], ext: str) -> bytes | None:
    """The document written as `ext`; None when that format needs an extra not installed here (render's PNG)."""
    try:
        return found.export(document, ext)
    except DedaleError as refused:
        if refused.key in EXTRA_KEYS:
            return None
        raise


def check_parameters(found: System, seed: int) -> None:
    try:
        play(found.name, seed, no_such_parameter=3)
    except DedaleError as refused:
        _expect("no_such_parameter" in str(refused), f"an unknown parameter refused without its name: {refused}")
    else:
        raise ContractBroken("an unknown parameter was taken")
    for field in fields_of(found.params):
        if field.kind != "int" or field.spec.high is None:
            continue
        try:
            play(found.name, seed, **{field.option: int(field.spec.high) + 1})
        except DedaleError as refused:
            _expect(str(refused).startswith(f"{field.option}: "), f"{field.option} too high, refused as: {refused}")
        else:
            raise ContractBroken(f"{field.option} above its highest ({field.spec.high}) was taken")


CHECKS: dict[str, Callable[[System, int], None]] = {
    "same game": check_same_game, "undo": check_undo, "load": check_load, "schema": check_schema,
    "table": check_table, "words": check_words, "party": check_party, "formats": check_formats,
    "parameters": check_parameters}

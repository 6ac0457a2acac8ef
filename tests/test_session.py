"""The session on the crawler: choices, steps, undo by replay, JSON round trip, bad saves; and every system's
rules played by the one session."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schemas
from budget import examples
from dedale.core.errors import DedaleError
from dedale.core.rules import Rules, Secrets, Suspends
from dedale.core.session import Session
from dedale.crawler.autopilot import DefaultPolicy
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerRules, CrawlerSession
from dedale.systems import names, system

SCHEMA = json.loads(system("crawler").schema())


def played(seed: int, steps: int) -> CrawlerSession:
    session = Session(CrawlerRules, CrawlerParams(), seed)
    for _ in range(steps):
        if session.is_over:
            break
        session.auto_step()
    return session


def test_choices_have_stable_ids_and_labels() -> None:
    session = Session(CrawlerRules, CrawlerParams(), 11)
    choices = session.choices()
    assert choices and len({c.id for c in choices}) == len(choices)
    assert all(c.label("en") and c.label("fr") and c.label("en") != c.id for c in choices)
    assert [c.id for c in Session(CrawlerRules, CrawlerParams(), 11).choices()] == [c.id for c in choices]


def test_an_illegal_choice_changes_nothing() -> None:
    session = played(5, 4)
    before = json.dumps(session.to_json())
    with pytest.raises(DedaleError) as err:
        session.step("exit:99:N")
    assert "legal choices" in err.value.message()
    assert json.dumps(session.to_json()) == before


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 30))
def test_undo_is_a_replay_without_the_last_event(seed: int, steps: int) -> None:
    session = played(seed, steps)
    shorter = played(seed, len(session.events) - 1)
    session.undo()
    assert session.to_json() == shorter.to_json()


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40))
def test_json_round_trip_and_continue(seed: int, steps: int) -> None:
    session = played(seed, steps)
    document = json.loads(json.dumps(session.to_json()))
    schemas.validate(document, SCHEMA)
    loaded = Session.from_json(CrawlerRules, document)
    assert loaded.to_json() == session.to_json()
    loaded.run_autopilot()
    session.run_autopilot()
    assert loaded.to_json() == session.to_json()  # continuing a loaded session: the same dungeon


def test_player_choices_and_autopilot_choices_replay_alike() -> None:
    session = Session(CrawlerRules, CrawlerParams(), 21)
    for _ in range(6):
        session.step(session.choices()[-1].id)  # a player who always takes the last choice
    session.run_autopilot()
    assert any("by" in e for e in session.events) and any("by" not in e for e in session.events)
    again = Session.replay(CrawlerRules, session.params, session.seed, session.events)
    assert again.to_json() == session.to_json()


def test_an_autopilots_decision_is_an_event_with_what_it_drew_and_a_replay_never_asks_it() -> None:
    """The autopilot rolls to pick (a d100 to fill, a die among the places): its decision is recorded with its
    dice, which a replay rolls again in their place, so that a policy that has changed since (here: one that
    raises) replays every game it made as it was made."""
    session = Session(CrawlerRules, CrawlerParams(), 21).run_autopilot()
    decided = [event for event in session.events if "by" in event]
    assert decided and all(event["by"] == "default" and "choice" in event for event in decided)
    assert any(entry["for"] == "autopilot.pick" for event in decided for entry in event.get("drew", []))
    document = json.loads(json.dumps(session.to_json()))
    schemas.validate(document, SCHEMA)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(DefaultPolicy, "choose", _raises)
        again = Session.from_json(CrawlerRules, document)
        shorter = Session.replay(CrawlerRules, session.params, session.seed, session.events[:5])
    assert again.to_json() == session.to_json()
    assert shorter.events == session.events[:5]
    tampered = copy.deepcopy(document)
    entry = next(entry for event in tampered["events"] for entry in event.get("drew", []))
    entry["dice"] = [entry["dice"][0] % 2 + 1]  # another die than the stream gives there
    with pytest.raises(DedaleError, match="does not replay"):
        Session.from_json(CrawlerRules, tampered)


def test_a_document_saved_before_decisions_were_events_still_replays_and_is_then_written_as_today() -> None:
    """Its autopilot steps were `{"auto": policy, "choice": id}`, their dice only in the log: its replay asks
    the policy again, once, checks each choice, and records the decisions as events of today."""
    session = Session(CrawlerRules, CrawlerParams(), 21).run_autopilot()
    document = json.loads(json.dumps(session.to_json()))
    document["version"] = 4
    document["events"] = [{"auto": e["by"], "choice": e["choice"]} if "by" in e else e for e in document["events"]]
    again = Session.from_json(CrawlerRules, document)
    assert again.events == session.events and again.to_json() == session.to_json()
    document["events"][-1]["choice"] = "stop"
    with pytest.raises(DedaleError, match="does not replay"):
        Session.from_json(CrawlerRules, document)


def _raises(*args: object) -> str:
    raise AssertionError("a replay asked a policy")


@pytest.mark.parametrize("corrupt", [
    lambda d: d.update(format="dedale/paper"),
    lambda d: d.update(version=99),
    lambda d: d.update(seed="x"),
    lambda d: d.update(events="x"),
    lambda d: d["events"].append({"choice": "exit:99:N"}),
    lambda d: d["events"].insert(0, {"what": 1}),
    lambda d: d["rooms"][0].update(x=d["rooms"][0]["x"] + 1),
    lambda d: d["log"].pop(),
    lambda d: d["params"].update(board_zones=0),
    lambda d: d["params"].update(size_rule="3d0"),
    lambda d: next(e for e in d["log"] if "choice" in e).update(key="crawler.choice.stop"),  # its words
])
def test_a_corrupt_save_is_refused_with_a_clear_message(corrupt) -> None:  # type: ignore[no-untyped-def]
    document = json.loads(json.dumps(played(8, 12).to_json()))
    corrupt(document)
    with pytest.raises(DedaleError):
        Session.from_json(CrawlerRules, document)


def test_table_mode_pending_and_undo() -> None:
    session = Session(CrawlerRules, CrawlerParams(), 0, table=True)
    assert session.pending is not None and session.pending.expr == "3d6"
    assert [c.id for c in session.choices()] == [f"enter:{i}" for i in range(1, 7)]
    session.step("enter:6")
    session.step("enter:6")
    assert session.state.size == 0  # the 3d6 is not complete: nothing applied yet
    session.undo()
    assert session.events == [{"enter": "6"}]
    session.step("enter:1")
    session.step("enter:1")
    assert session.state.size == 8
    snapshot = copy.deepcopy(session.to_json())
    assert Session.from_json(CrawlerRules, snapshot).to_json() == snapshot


def test_autopilot_in_table_mode_asks_for_its_own_dice() -> None:
    session = Session(CrawlerRules, CrawlerParams(), 0, table=True)
    for die in "22241111111":  # 6 rooms; a 3x3; contents
        if session.pending is None:
            break
        session.step(f"enter:{die}")
    session.auto_step()  # more than one place: the autopilot picks with a die, which the table rolls
    assert session.pending is not None and session.pending.purpose == "autopilot.pick"
    asked = session.events[-1]
    assert asked == {"by": "default"}  # a decision waiting for its die: the autopilot has not chosen yet
    session.step(session.choices()[0].id)
    assert session.pending is None and asked["choice"].startswith("place:")
    assert asked["drew"][0]["for"] == "autopilot.pick" and session.events[-1] == {"enter": "1"}
    document = json.loads(json.dumps(session.to_json()))
    with pytest.MonkeyPatch.context() as patched:  # its decision recorded: the replay enters the die again
        patched.setattr(DefaultPolicy, "choose", _raises)
        assert Session.from_json(CrawlerRules, document).to_json() == session.to_json()
    waiting = {**document, "events": [*document["events"][:-2], {"by": "default"}, {"enter": "1"}]}
    assert Session.from_json(CrawlerRules, waiting).to_json() == session.to_json()  # as a store kept it then


@pytest.mark.parametrize("name", names())
def test_a_system_is_rules_which_the_one_session_plays(name: str) -> None:
    """A system's author writes rules only: none of the session's machinery is theirs to override, and only the
    rules that keep secrets from a seat opt into them."""
    rules = system(name).rules
    assert issubclass(rules, Rules) and not issubclass(rules, Session)
    hooks = {*vars(Rules), *Rules.__annotations__, *vars(Secrets), *vars(Suspends)}  # what rules may say
    machinery = {name for name in vars(Session) if not name.startswith("__")} - hooks
    assert not {name for cls in rules.__mro__[:-1] if cls.__module__.startswith("dedale.")
                and not cls.__module__.startswith("dedale.core.") for name in vars(cls)} & machinery
    assert issubclass(rules, Secrets) == (name in ("zombstone", "zombstone-duel"))
    session = Session(rules, None, 3)
    assert isinstance(session.rules, rules) and session.state is session.rules.state

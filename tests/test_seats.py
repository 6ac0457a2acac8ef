"""Two people at one game: the duel and the skirmish with `opponent` "human". Each seat acts in turn (a
choice from the other is refused), sees only what the rules let it know, and the events (with their seats)
replay to the same document."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

import dedale
from dedale.core.errors import DedaleError
from dedale.core.session import SPECTATOR, Session
from dedale.zombstone.skirmish.duel_session import HIDDEN_CARD
from dedale.zombstone.skirmish.showdown import SEATS

VIEWERS = (0, 1, SPECTATOR)
NAMING = ("activate", "charisma", "melee", "shoot", "aim")


def others(seat: int) -> tuple[int, ...]:
    return (0, 1) if seat == SPECTATOR else (1 - seat,)


def refused(session: Session[Any], rng: random.Random) -> None:
    """A choice from the seat not to act (or a spectator) is refused, and the session is unchanged."""
    before = json.dumps(session.to_json(), sort_keys=True)  # a copy, made quicker than copy.deepcopy makes one
    wrong = rng.choice([1 - session.seat_to_act(), SPECTATOR])  # type: ignore[operator]
    with pytest.raises(DedaleError) as error:
        session.step(rng.choice(session.choices()), seat=wrong)
    assert error.value.key == "error.not_your_turn"
    assert json.dumps(session.to_json(), sort_keys=True) == before


def replays(session: Session[Any]) -> None:
    document = session.to_json()
    assert all("seat" in event for event in document["events"])
    assert Session.replay(type(session.rules), session.params, session.seed, session.events).to_json() == document
    assert Session.from_json(type(session.rules), json.loads(json.dumps(document))).to_json() == document


# --- the duel -------------------------------------------------------------------------------------------


def duel_secrets_kept(session: Session[Any]) -> None:
    hole = session.to_json()["duel"]["hole"]
    for seat in VIEWERS:
        assert session.hides(seat) and session.seat_seed(seat) is None
        view = session.seat_json(seat)
        text = json.dumps(view)
        for other in others(seat):
            assert view["duel"]["hole"][other] == [HIDDEN_CARD, HIDDEN_CARD]
            for code in hole[other]:
                assert f'"{code}"' not in text, (seat, code)
        for own in {0, 1} - set(others(seat)):
            assert view["duel"]["hole"][own] == hole[own]  # a seat sees its own cards


@pytest.mark.parametrize("seed", range(8))
def test_duel_between_two_people(seed: int) -> None:
    rng = random.Random(seed)
    session = dedale.play("zombstone-duel", seed=seed, opponent="human", added=rng.randrange(20))
    assert session.params.to_json()["opponent"] == "human"
    while not session.is_over:
        seat = session.seat_to_act()
        assert seat is not None and seat == session.state.duel.to_act
        question = session.question()
        # players are numbered from 1 on the page
        assert question is not None and question["t"] == "duel.seat_turn" and question["args"]["seat"] == seat + 1
        duel_secrets_kept(session)
        refused(session, rng)
        session.step(rng.choice(session.choices()), seat=seat)
    assert session.seat_to_act() is None and not session.hides(1)
    assert session.seat_json(1) == session.seat_json(SPECTATOR) == session.to_json()
    replays(session)
    with pytest.raises(DedaleError) as error:
        session.step("check", seat=0)
    assert error.value.key == "error.session_over"


def test_duel_undo_between_two_people() -> None:
    """A bet that deals nothing is undone; once the flop is dealt, undo cannot go back past it."""
    session = dedale.play("zombstone-duel", seed=3, opponent="human")
    start = copy.deepcopy(session.to_json())
    session.step("check", seat=0)
    assert session.seat_to_act() == 1 and session.events == [{"choice": "check", "seat": 0}]
    document = copy.deepcopy(session.to_json())
    session.undo()
    assert session.to_json() == start
    session.step("check", seat=0)
    session.step("check", seat=1)  # the flop
    flop = copy.deepcopy(session.to_json())
    with pytest.raises(DedaleError, match="cannot be undone"):
        session.undo()
    assert session.to_json() == flop != document


def test_duel_against_the_ai_its_turns_decided_at_once_as_events_of_its_seat() -> None:
    """`opponent` "ai" is left out of the document; the AI bettor decides its turns as soon as they come,
    each an event of seat 1 by its style, so that seat 0 is always the one to act; the player's are seat 0's."""
    session = dedale.play("zombstone-duel", seed=11)
    assert "opponent" not in session.to_json()["params"]
    assert dedale.play("zombstone-duel", seed=11, opponent="ai").to_json() == session.to_json()
    while not session.is_over:
        assert session.seat_to_act() == 0
        session.step(session.choices()[0])
    assert {event["seat"] for event in session.events} == {0, 1}
    assert all(("by" in event) == (event["seat"] == 1) for event in session.events)
    assert all(event["by"] == "cautious" for event in session.events if "by" in event)


def test_a_seat_given_without_two_people() -> None:
    """Any session takes a seat with a choice: seat 0 is the player's, seat 1 is refused; a game of one seat
    does not record it."""
    crawl = dedale.play("crawler", seed=4)
    with pytest.raises(DedaleError) as error:
        crawl.step(crawl.choices()[0], seat=1)
    assert error.value.key == "error.not_your_turn"
    crawl.step(crawl.choices()[0], seat=0)
    assert list(crawl.events[0]) == ["choice"]
    document = crawl.to_json()
    assert Session.from_json(type(crawl.rules), json.loads(json.dumps(document))).to_json() == document


def test_a_bad_seat_in_a_document() -> None:
    session = dedale.play("zombstone-duel", seed=2, opponent="human")
    session.step(session.choices()[0], seat=0)
    document = session.to_json()
    for seat in (1, "0", True):
        document["events"][0]["seat"] = seat
        with pytest.raises(DedaleError):
            Session.from_json(type(session.rules), document)


# --- the skirmish ---------------------------------------------------------------------------------------


def skirmish_secrets_kept(session: Session[Any]) -> None:
    full = session.to_json()
    game = full["game"]
    holes = {entry["args"]["seat"]: entry["draw"] for entry in full["log"] if entry.get("for") == "duel.hole"}
    duel_on = game["duel"] is None and bool(holes)
    for seat in VIEWERS:
        view = session.seat_json(seat)
        hidden_sides = [SEATS[other] for other in others(seat)]
        masked = {f["id"] for f in game["figures"] if f["side"] in hidden_sides and f["hidden"]}
        shown = view["game"]["figures"]
        assert all(f["profile"] is None for f in shown if f["side"] in hidden_sides and f["hidden"])
        assert set(view["profiles"]) <= {f["profile"] for f in shown if f["profile"] is not None}
        for other in others(seat):
            side = SEATS[other]
            assert set(view["game"]["sides"][side]["hand"]) <= {HIDDEN_CARD}
            if duel_on:  # the duel's deck is its own: its cards are in nothing else yet
                codes = [entry["draw"] for entry in full["log"] if entry.get("for") == "duel.hole"
                         and entry["args"]["seat"] == other]
                text = json.dumps(view)
                assert codes and all(f'"{code}"' not in text for code in codes), (seat, codes)
        for entry in view["log"]:
            if entry.get("for") == "skirmish.upkeep_draw" and entry["args"]["side"]["t"] in (
                    f"skirmish.side.{side}" for side in hidden_sides):
                assert entry["draw"] == HIDDEN_CARD
            if entry.get("for") == "duel.hole" and duel_on and entry["args"]["seat"] in others(seat):
                assert entry["draw"] == HIDDEN_CARD
            kind, _, rest = str(entry.get("choice", "")).partition(":")
            if kind in NAMING and rest.isdigit():
                figure = next(f for f in shown if f["id"] == int(rest))
                if figure["profile"] is None:  # a hidden token: named by its number, never by its name
                    assert entry["args"][{"melee": "target", "shoot": "target", "aim": "target"}.get(
                        kind, "figure")]["t"].startswith("skirmish.token")
        if masked:  # the events name a hidden figure by the id its token has in the view
            assert view["events"] != full["events"] or all(
                not str(e.get("choice", "")).partition(":")[2].isdigit() or
                int(str(e["choice"]).partition(":")[2]) not in masked for e in full["events"])
        if session.hides(seat):
            assert view["seed"] is None and view["hidden"]


@pytest.mark.parametrize(("scenario", "seed"), [("ok_corral", 1), ("ok_corral", 2), ("high_noon", 3),
                                                ("high_noon", 4), ("high_noon", 5)])
def test_skirmish_between_two_people(scenario: str, seed: int) -> None:
    rng = random.Random(seed)
    session = dedale.play("zombstone", seed=seed, scenario=scenario, opponent="human")
    steps, bets = 0, {0: 0, 1: 0}
    while not session.is_over:
        seat = session.seat_to_act()
        assert seat is not None and SEATS[seat] == session.rules.ask.side
        if session.rules.ask.kind == "bet":
            bets[seat] += 1
        if steps % 7 == 0 or session.rules.ask.kind == "bet":
            skirmish_secrets_kept(session)
            refused(session, rng)
        session.step(rng.choice(session.choices()), seat=seat)
        steps += 1
    assert session.seat_to_act() is None and not session.hides(0) and not session.hides(SPECTATOR)
    if scenario == "high_noon":
        assert bets[0] and bets[1]  # both duellists' bets were the people's
    replays(session)


def test_skirmish_against_the_ai_is_as_before() -> None:
    session = dedale.play("zombstone", seed=7, scenario="high_noon", side="zombies")
    assert "opponent" not in session.to_json()["params"]
    assert dedale.play("zombstone", seed=7, scenario="high_noon", side="zombies",
                       opponent="ai").to_json() == session.to_json()
    assert session.seat_to_act() == 0 and session.rules.ask.side == "zombies"

"""Every decision is an event (issue 39): whoever decides, a person, the autopilot, an AI opponent, the
look-ahead or the duel's bettor, its decision is recorded with its seat and what it drew, and a replay applies
it without asking anyone: loading or undoing a game with every AI and policy made to raise gives the same
document. An AI may then change without breaking a saved game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import dedale
from dedale.core.session import Session
from dedale.crawler.autopilot import DefaultPolicy as CrawlerPolicy
from dedale.paper.autopilot import DefaultPolicy as PaperPolicy
from dedale.zombstone.skirmish import duel, lookahead
from dedale.zombstone.skirmish.ai import AI
from dedale.zombstone.skirmish.duel_session import AutoBettor, DuelParams, DuelRules
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.session import Autopilot, SkirmishRules


def _asked(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a replay asked an AI or a policy")


@pytest.fixture
def nobody_decides(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every AI and policy raises when asked: the skirmish's AI (standard and look-ahead) and its autopilot, the
    duel's bettor, the maps' autopilots. (Set once the games are played: a test made them first.)"""
    def made_to_raise() -> None:
        for owner, name in ((AI, "choose"), (lookahead.Lookahead, "choose"), (Autopilot, "choose"),
                            (AutoBettor, "choose"), (duel, "ai_action"), (CrawlerPolicy, "choose"),
                            (PaperPolicy, "choose")):
            monkeypatch.setattr(owner, name, _asked)
    yield made_to_raise  # type: ignore[misc]


def loaded(document: dict[str, Any], rules: Any) -> dict[str, Any]:
    """The document loaded from its JSON, and written again."""
    return Session.from_json(rules, json.loads(json.dumps(document))).to_json()


def test_a_finished_game_between_two_ais_replays_without_asking_them(nobody_decides: Any) -> None:
    session = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side=None), 7)
    document = json.loads(json.dumps(session.to_json()))
    assert session.is_over and {event["seat"] for event in document["events"]} == {0, 1}
    assert all(event["by"] == "default" for event in document["events"])  # every one an AI's decision
    kinds = {event["choice"].split(":")[0] for event in document["events"]}
    assert {"initiative", "activate", "keep", "bet"} <= kinds  # the rerolls and the duel's bets too
    nobody_decides()
    assert loaded(document, SkirmishRules) == document
    with pytest.raises(AssertionError, match="asked an AI"):  # and the AI, asked, would have raised
        Session(SkirmishRules, SkirmishParams(scenario="high_noon", side=None), 7)


def test_a_duel_against_the_ai_replays_and_undoes_without_asking_the_bettor(nobody_decides: Any) -> None:
    session = Session(DuelRules, DuelParams(style="bold"), 3)
    while session.state.duel is not None and len(session.state.duel.board) < 3 and not session.is_over:
        session.step("check" if any(c.id == "check" for c in session.choices()) else "call")
    midway = session.to_json()
    session.run_autopilot()
    document = json.loads(json.dumps(session.to_json()))
    bettor = [event for event in document["events"] if event["seat"] == 1]
    assert bettor and all(event["by"] == "bold" for event in bettor)
    nobody_decides()
    assert loaded(document, DuelRules) == document
    again = Session.from_json(DuelRules, json.loads(json.dumps(midway)))  # a game in play, as a server rebuilds it
    assert again.to_json() == midway


def test_an_undo_past_the_bettors_answer_asks_it_nothing(nobody_decides: Any) -> None:
    """A check the bettor answered without anything drawn or shown may be taken back: with its answer."""
    session = Session(DuelRules, DuelParams(style="bold"), 7)
    start = session.to_json()
    session.step("check")
    assert [event.get("by") for event in session.events] == [None, "bold"] and session.can_undo()
    nobody_decides()
    session.undo()
    assert session.to_json() == start


def test_a_game_against_the_look_ahead_replays_without_looking_ahead(nobody_decides: Any,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lookahead, "ROLLOUTS", 8)  # a few playouts a decision: the same choices, faster
    session = dedale.play("zombstone", seed=5, scenario="ok_corral", ai="lookahead")
    for _ in range(12):
        session.auto_step()
    document = json.loads(json.dumps(session.to_json()))
    assert {event["by"] for event in document["events"] if event["seat"] == 1} == {"lookahead:default"}
    nobody_decides()
    assert loaded(document, SkirmishRules) == document


@pytest.mark.parametrize("name", ["crawler", "paper"])
def test_a_map_the_autopilot_made_replays_without_it(name: str, nobody_decides: Any) -> None:
    """The autopilot rolls to choose (`drew`): its decisions replay with their dice, drawn again in place."""
    document = json.loads(json.dumps(dedale.generate(name, seed=21).to_json()))
    decided = [event for event in document["events"] if "by" in event]
    assert decided and (name != "crawler" or any(event.get("drew") for event in decided))
    nobody_decides()
    assert dedale.load(document).play().to_json() == document


def test_a_skirmish_records_the_ais_decisions_as_the_players_count_them() -> None:
    """What a game against the AI records: the player's choices (seat 0) and the AI's (seat 1, by its policy),
    and the choices made as the player counts them leave the AI's out."""
    session = dedale.play("zombstone", seed=4, scenario="ok_corral")
    for _ in range(30):
        session.auto_step()
    mine = [event for event in session.events if event["seat"] == 0]
    ai = [event for event in session.events if event["seat"] == 1]
    assert len(mine) == 30 and ai and all(set(event) <= {"choice", "by", "seat", "drew"} for event in ai)
    assert session.made() == 30

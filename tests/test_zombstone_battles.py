"""Zombstone beyond one game: battle runs (seeds per game, workers, confidence intervals), the command line
(play, simulate), the poker duel as a session, the JSON schemas, and the LOTOW zombie's rules."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from dedale.core import batch
from dedale.core.batch import Where
from dedale.core.errors import DedaleError
from dedale.core.rng import Roller, TableSource
from dedale.core.session import Session
from dedale.i18n import say
from dedale.systems import system
from dedale.zombstone.skirmish import lotow
from dedale.zombstone.skirmish.catalogue import load_catalogue
from dedale.zombstone.skirmish.duel_session import DuelParams, DuelRules
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.session import SkirmishRules
from dedale.zombstone.skirmish.simulate import game_seed, play_game, run, summary, wilson

AIS = SkirmishParams(side=None)


def test_each_game_has_its_own_seed_whatever_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "ALONE_SECONDS", 0.0)  # the two workers play every game
    one, two = run(AIS, 12, seed=5), run(AIS, 12, seed=5, where=Where(workers=2))
    assert one == two
    assert [o.seed for o in one] == [game_seed(5, n) for n in range(12)]
    assert len({o.seed for o in one}) == 12
    assert one[3] == play_game(AIS, game_seed(5, 3))  # any game is replayed alone from its seed


def test_progress_is_reported_as_games_finish() -> None:
    seen: list[int] = []
    run(AIS, 10, seed=1, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 10


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    low, high = wilson(3, 40)
    assert low < 3 / 40 < high


def test_summary_adds_up() -> None:
    outcomes = run(AIS, 16, seed=9)
    result = summary(AIS, 9, outcomes)
    assert result["format"] == "dedale/zombstone-simulation" and result["games"] == 16
    assert sum(w["games"] for w in result["wins"].values()) == 16
    assert sum(result["endings"].values()) == 16
    for name, win in result["wins"].items():
        assert win["low"] <= win["rate"] <= win["high"], name
    assert 1 <= result["turns"] <= load_catalogue().scenario(AIS.scenario).turns
    assert all(result["survivors"][side] >= 0 for side in ("lawmen", "zombies"))


@settings(max_examples=examples(8), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["ok_corral", "high_noon"]))
def test_ai_games_end_within_the_turn_limit(seed: int, scenario: str) -> None:
    outcome = play_game(SkirmishParams(scenario=scenario, side=None), seed)
    assert outcome.ending in ("eliminated", "condition", "turns", "draw")
    assert outcome.turns <= load_catalogue().scenario(scenario).turns
    if outcome.ending == "eliminated":
        assert outcome.survivors[outcome.winner] > 0 and min(outcome.survivors.values()) == 0  # type: ignore[index]


def test_simulate_command(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(batch, "ALONE_SECONDS", 0.0)  # with --workers 2, the two workers play every game
    code, out, _ = cli("zombstone", "simulate", "--games", "8", "--seed", "3")
    assert code == 0 and "8 games" in out and "lawmen" in out and "95%" in out
    code, _, _ = cli("zombstone", "simulate", "--games", "8", "--seed", "3", "--workers", "2",
                     "-o", str(tmp_path / "run.json"))
    document = json.loads((tmp_path / "run.json").read_text())
    code, out, _ = cli("zombstone", "simulate", "--games", "8", "--seed", "3", "--json")
    assert json.loads(out)["outcomes"] == document["outcomes"]  # the workers change nothing
    code, _, _ = cli("zombstone", "simulate", "--games", "4", "--seed", "1", "-o", str(tmp_path / "run.png"))
    assert code == 0 and (tmp_path / "run.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("args, problem", [
    (("--games", "0"), "games"),
    (("--workers", "0"), "workers"),
    (("--scenario", "alamo"), "alamo"),
    (("--policy-a", "reckless"), "reckless"),
    (("-o", "run.gif"), "run.gif"),
])
def test_simulate_refuses_bad_input(cli, args: tuple[str, ...], problem: str) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("zombstone", "simulate", "--seed", "1", *args)
    assert code == 2 and problem in err and "Traceback" not in err


def test_play_command_plays_and_saves(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "game.json"
    code, out, _ = cli("zombstone", "play", "--seed", "4", "--save", str(save), stdin="a\n" * 12 + "q\n")
    assert code == 0 and save.exists() and "Zombstone" in out
    document = json.loads(save.read_text())
    mine = [event for event in document["events"] if event["seat"] == 0]  # the AI's are events too (seat 1)
    assert document["format"] == "dedale/zombstone" and len(mine) == 12 and len(document["events"]) > 12
    code, _, _ = cli("zombstone", "play", "--load", str(save), stdin="1\nq\n")
    assert code == 0 and len([event for event in json.loads(save.read_text())["events"] if event["seat"] == 0]) == 13
    code, _, err = cli("zombstone", "play", "--side", "outlaws", "--seed", "1", stdin="q\n")
    assert code == 2 and "outlaws" in err


def test_documents_follow_their_schemas() -> None:
    game_schema = json.loads(system("zombstone").schema())
    duel_schema = json.loads(system("zombstone-duel").schema())
    for schema in (game_schema, duel_schema):
        jsonschema.Draft202012Validator.check_schema(schema)
    game = Session(SkirmishRules, SkirmishParams(side="zombies"), 3)
    for _ in range(30):
        game.auto_step()
    jsonschema.validate(json.loads(json.dumps(game.to_json())), game_schema)
    duel = Session(DuelRules, DuelParams(added=5), 3).run_autopilot()
    jsonschema.validate(json.loads(json.dumps(duel.to_json())), duel_schema)


def test_the_duel_session_plays_one_deal_against_the_ai() -> None:
    duel = Session(DuelRules, DuelParams(added=10, style="bold"), 21)
    assert duel.state.duel is not None and duel.state.duel.stakes == [25, 15]
    labels = [c.label() for c in duel.choices()]
    assert labels[0] in ("Check", "Fold (and flee)") and any(label.startswith("All in") for label in labels)
    duel.run_autopilot()
    assert duel.is_over
    state = duel.state.duel
    assert sum(state.stacks) == 40 and state.pot == 0  # money is only moved: the pot went to its winner
    again = Session.from_json(DuelRules, json.loads(json.dumps(duel.to_json())))
    assert again.to_json() == duel.to_json()
    document = duel.to_json()
    winnings = sum(state.payout)  # the winner takes the stakes, the whole pot (a split pot: none)
    assert document["fame_points"] == winnings // 7 and document["left"] == winnings % 7


def test_older_duel_documents_load_with_the_winnings_they_counted() -> None:
    """Versions 2 and 3 counted only what was won from the other: they load so (`winnings` "won"); version 1
    counted the whole pot, as the text and version 4 do."""
    for seed in range(40):
        duel = Session(DuelRules, DuelParams(added=20, style="bold"), seed).run_autopilot()
        state = duel.state.duel
        if state is not None and state.winner is not None and state.won >= 7:
            break
    else:
        raise AssertionError("no deal won $7 or more")
    pot = sum(state.payout)
    document = json.loads(json.dumps(duel.to_json()))
    assert document["fame_points"] == pot // 7 and state.won // 7 < pot // 7
    for version in (2, 3):
        old = {**document, "version": version, "fame_points": state.won // 7, "left": state.won % 7}
        loaded = Session.from_json(DuelRules, old)
        assert loaded.rules.params.winnings == "won" and loaded.to_json()["fame_points"] == state.won // 7
    loaded = Session.from_json(DuelRules, {**document, "version": 1, "fame_points": 0}).to_json()
    assert loaded["version"] == DuelRules.version and loaded == duel.to_json()


def test_the_duel_refuses_bad_stakes() -> None:
    with pytest.raises(DedaleError) as raised:
        DuelParams(added=-1)
    assert "added" in raised.value.message("en")
    with pytest.raises(DedaleError):
        DuelParams(style="reckless")


def test_lotow_zombie_profile() -> None:
    zombie = lotow.zombie()
    assert (zombie.shoot, zombie.fight, zombie.strength, zombie.grit, zombie.attacks, zombie.cost, zombie.move) == (
        "6+", 2, 3, 1, 1, 10, 4)
    assert set(zombie.rules) == {"slow", "indestructible"}


def test_lotow_indestructible_only_a_six_wounds() -> None:
    roller = Roller(TableSource(["6", "5", "1", "6"]), [])
    assert lotow.wound_roll(roller, 4) == 2
    assert roller.log[-1]["decided"] == {"key": "lotow.hurt", "wounds": 2}
    assert lotow.wound_roll(roller, 0) == 0


def test_lotow_indecrottable_loses_an_inch_a_wound() -> None:
    zombie = lotow.Indecrottable()
    assert zombie.moves == 4 and not zombie.destroyed
    zombie = zombie.wounded(3)
    assert zombie.moves == 1 and not zombie.destroyed
    assert zombie.wounded(1).destroyed and zombie.wounded(5).moves == 0


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("scenario, side", [("ok_corral", "lawmen"), ("high_noon", "zombies")])
def test_every_question_and_choice_reads_as_words(scenario: str, side: str, lang: str) -> None:
    """What a player sees at each step: the question and every choice, in words (no message key left), over
    games enough to be asked each kind of question (the initiative only when a card is worth playing for it)."""
    kinds: set[str] = set()
    wanted = {"initiative", "first", "activate", "action", "reroll"}
    for seed in range(13, 23):
        session = Session(SkirmishRules, SkirmishParams(scenario=scenario, side=side), seed)
        for _ in range(400):
            if session.is_over:
                break
            question = say(session.question() or "", lang)
            assert question and "skirmish." not in question and "{" not in question
            kinds.add(session.rules.ask.kind)  # type: ignore[union-attr]
            for choice in session.choices():
                label = choice.label(lang)
                assert label and "skirmish." not in label and "dir." not in label, choice.id
            session.auto_step()
        if wanted <= kinds:
            break
    assert wanted <= kinds


def test_the_ais_hole_cards_stay_hidden_until_the_duel_is_over() -> None:
    duel = Session(DuelRules, DuelParams(), 6)
    shown = [duel.rules.log_entry(e) for e in duel.log if e.get("for") == "duel.hole"]
    assert [e["draw"] for e in shown if e["args"]["seat"] == 1] == ["??", "??"]
    assert all(e["draw"] != "??" for e in shown if e["args"]["seat"] == 0)
    duel.run_autopilot()
    assert all(duel.rules.log_entry(e)["draw"] != "??" for e in duel.log if e.get("for") == "duel.hole")
    game = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side="lawmen"), 4)
    bets = 0
    while game.state.duel is None and game.rules.ask is not None and game.rules.ask.kind == "bet":  # type: ignore[union-attr]
        hidden = [game.rules.log_entry(e)["draw"] for e in game.log if e.get("for") == "duel.hole"]
        assert hidden.count("??") == 2
        game.auto_step()
        bets += 1
    assert bets >= 1 and game.state.duel is not None


def test_high_noon_records_the_duel_it_opened_with() -> None:
    game = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side=None), 3).state
    duel = game.duel
    assert duel is not None and duel["pot"] >= 2  # at least both antes
    if duel["winner"] is not None:  # the winner takes the stakes: the whole pot
        assert duel["winnings"] == duel["pot"] and game.initiative is not None


def test_the_autopilot_does_not_roll_the_tables_dice() -> None:
    session = Session(SkirmishRules, SkirmishParams(side="lawmen"), 2, table=True)
    assert session.pending is not None
    with pytest.raises(DedaleError) as raised:
        session.auto_step()
    assert raised.value.key == "error.autopilot_pending" and session.events == []

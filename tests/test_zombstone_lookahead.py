"""The look-ahead AI (`lookahead.py`): its rollouts leave the game as it was (its state, its log, its random
stream), see only what its side may see, replay the same from the same seed, and the level is a parameter."""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from dedale.core.documents import dump
from dedale.core.errors import DedaleError
from dedale.core.rng import Roller, SeededSource, SplitMix64
from dedale.core.session import Session
from dedale.zombstone.skirmish import lookahead
from dedale.zombstone.skirmish.ai import AI
from dedale.zombstone.skirmish.catalogue import load_catalogue
from dedale.zombstone.skirmish.game import play
from dedale.zombstone.skirmish.lookahead import Lookahead, _seen_by, controller
from dedale.zombstone.skirmish.model import Game
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.session import SkirmishRules
from dedale.zombstone.skirmish.setup import setup
from dedale.zombstone.skirmish.table import Ask, Controller, Table
from dedale.zombstone.skirmish.turn import activate

FEW = 16  # rollouts a decision in these tests: enough to weigh, quick to play
NEAR = 3  # activations looked ahead by the tests that play whole games: what they check is not the horizon's


class Probe:
    """The standard AI, which hands the first ask of a kind from turn 2 on to `check` before answering it."""

    def __init__(self, kind: str, check: Callable[[Table, Ask], None]) -> None:
        self.ai, self.kind, self.check, self.done = AI(), kind, check, False

    def choose(self, t: Table, ask: Ask) -> str:
        if not self.done and ask.kind == self.kind and t.game.turn >= 2:
            self.done = True
            self.check(t, ask)
        return self.ai.choose(t, ask)


def played(scenario: str, seed: int, lawmen: Controller, zombies: Controller | None = None) -> Game:
    catalogue = load_catalogue()
    game = Game()
    t = Table(game, catalogue, catalogue.scenario(scenario), Roller(SeededSource(seed), game.log),
              {"lawmen": lawmen, "zombies": zombies or AI()}, activation=activate)
    for _ in play(t):
        raise AssertionError("two AIs never ask")
    return game


@pytest.mark.parametrize("kind", ["action", "activate"])
def test_a_decision_looked_ahead_leaves_the_game_its_log_and_its_random_stream_as_they_were(kind: str) -> None:
    seen: list[str] = []

    def check(t: Table, ask: Ask) -> None:
        source = t.roller.source
        assert isinstance(source, SeededSource)
        before = (dump(t.game.shape()), len(t.game.log), source.gen.mark())
        seen.append(Lookahead(rollouts=FEW).choose(t, ask))
        assert (dump(t.game.shape()), len(t.game.log), source.gen.mark()) == before
        assert seen[-1] in {o.id for o in ask.every()}

    played("ok_corral", 3, Probe(kind, check))
    assert seen


# Every reading of the text other than the default (`SkirmishParams`)
OTHER_READINGS = {"unarmed_malus": "potential", "climb": "per_inch", "difficult": "halve_move", "aim_cost": "any_card",
                  "turned_die": "any", "card_limit": "apart", "winnings": "won", "duel": "simple"}


def test_a_rollout_plays_by_the_games_readings(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game played by other readings than the defaults is looked ahead at by those readings."""
    made: list[Table] = []

    def recorded(*args: object, **kwargs: object) -> Table:
        made.append(Table(*args, **kwargs))  # type: ignore[arg-type]
        return made[-1]

    def check(t: Table, ask: Ask) -> None:
        monkeypatch.setattr(lookahead, "Table", recorded)
        Lookahead(rollouts=FEW).choose(t, ask)
        monkeypatch.undo()

    catalogue = load_catalogue()
    game = Game()
    t = Table(game, catalogue, catalogue.scenario("ok_corral"), Roller(SeededSource(3), game.log),
              {"lawmen": Probe("action", check), "zombies": AI()}, activation=activate,
              **OTHER_READINGS)  # type: ignore[arg-type]
    for _ in play(t):
        raise AssertionError("two AIs never ask")
    assert made and {copied.readings() == OTHER_READINGS for copied in made} == {True}


def test_a_decision_costs_about_its_rollouts_whatever_its_options() -> None:
    """The rollouts are shared out by halving: a decision plays about as many whatever its number of options,
    the standard AI's choice is weighed to the end, and the options dropped early play fewer."""
    spent: list[tuple[int, dict[str, int]]] = []
    budgets: list[int] = []  # the decision's rollouts: 48, fewer on a table of more than FIGURES figures

    class Counted(Lookahead):
        def rollout(self, t: Table, ask: Ask, option: str, seed: int) -> float:
            spent[-1][1][option] = spent[-1][1].get(option, 0) + 1
            return super().rollout(t, ask, option, seed)

    class Weighing:
        def choose(self, t: Table, ask: Ask) -> str:
            chosen = AI().choose(t, ask)
            options = len(lookahead._candidates(ask, chosen))
            if ask.kind == "action" and len(spent) < 12 and options >= 2:
                spent.append((options, {}))
                budgets.append(lookahead.rollouts_for(t, 48))
                Counted(rollouts=48).choose(t, ask)
                assert max(spent[-1][1].values()) == spent[-1][1][chosen]
            return chosen

    played("ok_corral", 3, Weighing())
    assert min(options for options, _ in spent) == 2 and max(options for options, _ in spent) >= 5
    for (options, each), budget in zip(spent, budgets, strict=True):
        # each round shares the budget among the options left, at least LEAST each: a round may overspend by that
        over = lookahead.LEAST * (2 * options + math.ceil(math.log2(options)))
        assert len(each) == options and budget - options <= sum(each.values()) <= budget + over
        # the worse half is dropped, the standard AI's choice kept: of 3, that may be all of them; of 4, never
        assert options < 4 or min(each.values()) < max(each.values())


def test_the_same_seed_plays_the_same_game_with_the_look_ahead() -> None:
    first = played("ok_corral", 11, Lookahead(rollouts=FEW, horizon=NEAR))
    second = played("ok_corral", 11, Lookahead(rollouts=FEW, horizon=NEAR))
    assert first.log == second.log and first.winner == second.winner


def test_the_look_ahead_chooses_otherwise_than_the_standard_ai_at_times() -> None:
    """It is a level of its own: the game it plays is not the standard AI's."""
    assert played("ok_corral", 11, Lookahead(rollouts=FEW, horizon=NEAR)).log != played("ok_corral", 11, AI()).log


def game_at_turn_two(scenario: str = "ok_corral", seed: int = 5) -> Game:
    found: list[Game] = []

    def check(t: Table, ask: Ask) -> None:
        found.append(copy.deepcopy(t.game))

    played(scenario, seed, Probe("action", check))
    return found[0]


def test_a_rollout_does_not_know_the_other_sides_cards() -> None:
    """The zombies' hand is dealt again from the cards the lawmen have not seen: the copy is the same whichever
    of those cards the zombies hold, and it holds none the lawmen hold or saw discarded."""
    game = game_at_turn_two()
    zombies, pile = game.sides["zombies"], game.deck.pile
    assert zombies.hand and len(pile) >= len(zombies.hand)
    other = copy.deepcopy(game)
    held = other.sides["zombies"].hand
    swapped = [c for c in other.deck.pile if c not in held][:len(held)]
    other.deck.pile = sorted([c for c in other.deck.pile if c not in swapped] + held, key=other.deck.cards.index)
    other.sides["zombies"].hand = swapped
    assert other.sides["zombies"].hand != zombies.hand
    copies = [_seen_by(g, "lawmen", SplitMix64(1)) for g in (game, other)]
    assert dump(copies[0].shape()) == dump(copies[1].shape())
    deals = {tuple(_seen_by(game, "lawmen", SplitMix64(seed)).sides["zombies"].hand) for seed in range(20)}
    assert len(deals) > 1  # dealt at random, not the hand they hold
    known = set(game.sides["lawmen"].hand) | set(game.deck.discards)
    assert all(not known & set(hand) and len(hand) == len(zombies.hand) for hand in deals)
    assert copies[0].sides["lawmen"].hand == game.sides["lawmen"].hand


def test_a_rollout_does_not_know_who_the_other_sides_hidden_tokens_are() -> None:
    game = game_at_turn_two()
    zombies = [f for f in game.figures if f.side == "zombies" and f.in_play]
    tokens = [f for f in zombies if f.profile != zombies[0].profile][:1] + zombies[:1]
    assert len({f.profile for f in tokens}) == 2
    for figure in tokens:
        figure.hidden = True
    other = copy.deepcopy(game)
    a, b = (other.figure(f.id) for f in tokens)  # who each is: its profile and what it went through
    a.profile, a.ticked, a.wounded, a.fame, b.profile, b.ticked, b.wounded, b.fame = (
        b.profile, b.ticked, b.wounded, b.fame, a.profile, a.ticked, a.wounded, a.fame)
    copies = [_seen_by(g, "lawmen", SplitMix64(seed)) for seed in range(12) for g in (game, other)]
    assert all(dump(copies[i].shape()) == dump(copies[i + 1].shape()) for i in range(0, len(copies), 2))
    assert len({copies[i].figure(tokens[0].id).profile for i in range(0, len(copies), 2)}) == 2


def test_the_level_is_a_parameter_standard_by_default_and_left_out_of_documents_at_it() -> None:
    assert SkirmishParams().ai == "standard" and "ai" not in SkirmishParams().to_json()
    assert SkirmishParams(ai="lookahead").to_json()["ai"] == "lookahead"
    assert isinstance(controller("lookahead", "cautious"), Lookahead) and isinstance(controller("standard", "default"),
                                                                                     AI)
    with pytest.raises(DedaleError):
        SkirmishParams(ai="deep")


def test_a_session_against_the_look_ahead_replays_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its choices are no events: a saved game is loaded by playing them again, the same."""
    monkeypatch.setattr(lookahead, "ROLLOUTS", FEW)
    session = Session(SkirmishRules, SkirmishParams(side="lawmen", ai="lookahead"), 21)
    for _ in range(12):
        session.step(session.choices()[-1].id)
    saved = session.to_json()
    again = Session.from_json(SkirmishRules, saved)
    assert again.to_json() == saved


def test_the_web_api_plays_against_the_look_ahead_and_refuses_an_unknown_level(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lookahead, "ROLLOUTS", FEW)
    body = {"system": "zombstone", "seed": 4, "params": {"scenario": "ok_corral", "side": "zombies", "ai": "lookahead"}}
    made = client.post("/api/sessions", json=body)
    assert made.status_code == 201, made.text
    state = made.json()
    stepped = client.post(f"/api/sessions/{state['id']}/step", json={"choice": state["choices"][0]["id"]})
    assert stepped.status_code == 200, stepped.text
    assert client.get(f"/api/sessions/{state['id']}/export/json").json()["params"]["ai"] == "lookahead"
    refused = client.post("/api/sessions", json={**body, "params": {**body["params"], "ai": "deep"}})
    assert refused.status_code == 400 and "standard, lookahead" in refused.text


def test_a_decision_plays_fewer_rollouts_on_a_table_of_more_figures() -> None:
    """Past FIGURES figures in play a rollout costs more (each activation weighs them all): the budget shrinks by
    the cube of the ratio, so that a decision stays under a second on every table; at or under it, all of them."""
    catalogue = load_catalogue()
    game = Game()
    t = Table(game, catalogue, catalogue.scenario("ok_corral"), Roller(SeededSource(3), game.log),
              {"lawmen": AI(), "zombies": AI()}, activation=activate)
    setup(t)
    while len(t.standing(None)) > lookahead.FIGURES:
        t.standing(None)[-1].state = "out"
        t.changed()
    assert lookahead.rollouts_for(t, 160) == 160
    for _ in range(6):  # one more figure each time, where another stands
        game.figures.append(dataclasses.replace(game.figures[0], id=len(game.figures)))
        t.changed()
        figures = len(t.standing(None))
        assert figures > lookahead.FIGURES
        assert lookahead.rollouts_for(t, 160) == int(160 * (lookahead.FIGURES / figures) ** 3) < 160

"""Zombstone's skirmish rules (`zombstone.md` and the choices in the skirmish modules' docstrings), checked on
hand-built tables: figures placed by hand, every die and card entered in table mode, every decision scripted.
Then whole games: sessions (replay, undo, table mode) and AI-vs-AI games over many seeds."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dedale
import schemas
from budget import examples
from dedale.core.cards import Card, Deck
from dedale.core.errors import DedaleError
from dedale.core.rng import Request, Roller, SeededSource, TableSource
from dedale.core.session import Session
from dedale.i18n import say, word
from dedale.zombstone.skirmish import fight, skills, turn, victory
from dedale.zombstone.skirmish.ai import AI, POLICIES
from dedale.zombstone.skirmish.battlefield import BASE, CONTACT, Battlefield, Terrain
from dedale.zombstone.skirmish.catalogue import Victory, load_catalogue
from dedale.zombstone.skirmish.game import play
from dedale.zombstone.skirmish.model import Figure, Game, Side
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.session import SkirmishRules, SkirmishSession
from dedale.zombstone.skirmish.simulate import play_game
from dedale.zombstone.skirmish.table import Ask, Flow, Table
from dedale.zombstone.skirmish.view import GameView

T = TypeVar("T")
Answer = str | Callable[[Ask], str]

CATALOGUE = load_catalogue()
CORRAL = CATALOGUE.scenario("ok_corral")
OPEN = Battlefield(36, 36, ())
SIDE_OF = {member: band.side for band in CATALOGUE.bands.values() for member in band.members}
DATA = Path(__file__).parents[1] / "src" / "dedale" / "zombstone" / "skirmish" / "data"


# --- helpers -------------------------------------------------------------------------------------------------
def table(*figures: tuple[str, float, float], field: Battlefield = OPEN, hands: dict[str, str] | None = None,
          ai: tuple[str, ...] = ()) -> Table:
    """A game on `field` with the figures (profile, x, y) given, ids in that order, each on its profile's side;
    the sides' hands as card codes (taken out of the deck); every roll entered by the test (table mode); the
    sides in `ai` played by the default AI, the others answered by the test."""
    game = Game(scenario=CORRAL.id)
    for profile, x, y in figures:
        game.figures.append(Figure(len(game.figures), profile, SIDE_OF[profile], x, y))
    for side, band in (("lawmen", "earp_brothers"), ("zombies", "clanton_clan")):
        cards = [Card.parse(code) for code in (hands or {}).get(side, "").split()]
        stars = any(CATALOGUE.profile(f.profile).status == "star" for f in game.figures if f.side == side)
        game.sides[side] = Side(side, band, cards, had_stars=stars)
        game.deck.pile = [c for c in game.deck.pile if c not in cards]
    roller = Roller(TableSource(), game.log)
    controllers = {side: AI("default") if side in ai else None for side in ("lawmen", "zombies")}
    # won by the dollars (the plain rules: no Star ends the game as it falls)
    return Table(game, CATALOGUE, dataclasses.replace(CORRAL, battlefield=field, victory=Victory()), roller,
                 controllers, activation=turn.activate)


@dataclasses.dataclass
class Played:
    value: Any
    asks: list[Ask]

    def of(self, kind: str) -> list[Ask]:
        return [ask for ask in self.asks if ask.kind == kind]


def run(t: Table, flow: Flow[T], dice: str = "", **answers: Answer | list[Answer]) -> Played:
    """Drive a rule flow. `dice`: the faces and cards it rolls and draws, in order (all must be used). Each Ask
    takes the next answer of its kind (an option id, or a function of the Ask); unscripted rerolls keep every
    die and unscripted card asks play none. Any other unscripted Ask, or a roll not entered, fails the test."""
    source = t.roller.source
    if isinstance(source, TableSource):
        source.entries += dice.split()
    queues = {kind: list(a) if isinstance(a, list) else [a] for kind, a in answers.items()}
    asks: list[Ask] = []
    reply: str | None = None
    while True:
        try:
            step = next(flow) if reply is None else flow.send(reply)
        except StopIteration as stop:
            value = stop.value
            break
        assert not isinstance(step, Request), f"a roll was not entered: {step}"
        asks.append(step)
        queue = queues.get(step.kind)
        if queue:
            answer = queue.pop(0)
            reply = answer(step) if callable(answer) else answer
        elif step.kind == "reroll":
            reply = next(o.id for o in step.options if o.args["count"] == 0)
        elif step.kind == "cards":
            reply = "cards:none"
        else:
            raise AssertionError(f"unscripted ask: {step.kind} {[o.id for o in step.options]}")
        assert reply in ids(step), f"{reply} is not an option of {step.kind}: {ids(step)}"
    if isinstance(source, TableSource):
        assert source.pos == len(source.entries), f"dice left unused: {source.entries[source.pos:]}"
    assert not any(queues.values()), f"answers left unused: {queues}"
    return Played(value, asks)


def ids(ask: Ask) -> list[str]:
    return [o.id for o in ask.every()]


def pick(key: str, **data: Any) -> Callable[[Ask], str]:
    """The first option whose message key ends with `key` (and whose data holds `data`)."""
    return lambda ask: next(o.id for o in ask.options if o.key.endswith(key)
                            and all(o.data.get(k) == v or o.args.get(k) == v for k, v in data.items()))


def notes(t: Table, key: str) -> list[dict[str, Any]]:
    return [entry.get("args", {}) for entry in t.roller.log if entry.get("note") == f"skirmish.{key}"]


def rolls(t: Table, purpose: str = "") -> list[list[str]]:
    return [entry["faces"] for entry in t.roller.log if "faces" in entry and entry["for"].startswith(purpose)]


def why(reason: str) -> dict[str, str]:
    return {"t": f"skirmish.why.{reason}"}


def hand(t: Table, side: str) -> list[str]:
    return [c.code for c in t.game.sides[side].hand]


def discards(t: Table) -> list[str]:
    return [c.code for c in t.game.deck.discards]


NOTHING_A, NOTHING_K = "9 10 J Q A", "9 10 J Q K"  # two losing hands: Nothing, Ace high and King high
TWO_PAIRS, PAIR = "9 9 10 10 J", "9 9 10 J Q"


# --- skills ----------------------------------------------------------------------------------------------------
def test_charismatic_star_sends_an_extra_and_the_extras_within_3_inches() -> None:
    t = table(("wyatt_earp", 10, 18), ("deputy", 12, 10), ("deputy", 14, 11), ("deputy", 20, 30),
              ("deputy", 12, 8), ("virgil_earp", 12, 12), ("zombie", 2, 2))
    t.game.figure(4).activated = True  # an Extra that has acted already is not sent again
    played = run(t, turn.activate(t, t.game.figure(0)), action=["end", "end", "end"], charisma="charisma:1")
    assert ids(played.of("charisma")[0]) == ["charisma:none", "charisma:1", "charisma:2", "charisma:3"]
    assert [f.activated for f in t.game.figures] == [True, True, True, False, True, False, False]
    assert [ask.about["figure"] for ask in played.of("action")] == [0, 1, 2]  # at once, in the star's activation
    assert notes(t, "charisma")[0]["count"] == 2


def test_charismatic_star_declining_sends_no_one() -> None:
    t = table(("wyatt_earp", 10, 18), ("deputy", 12, 10), ("zombie", 2, 2))
    run(t, turn.activate(t, t.game.figure(0)), action="end", charisma="charisma:none")
    assert not t.game.figure(1).activated and not notes(t, "charisma")


def test_no_charisma_offered_without_the_skill() -> None:
    t = table(("virgil_earp", 10, 18), ("deputy", 12, 10), ("zombie", 2, 2))
    played = run(t, turn.activate(t, t.game.figure(0)), action="end")
    assert not played.of("charisma") and not t.game.figure(1).activated


@pytest.mark.parametrize(("shooter", "hand", "hurt", "points"), [
    ("wyatt_earp", "two_pairs", 1, 2),  # a Jack turned into a King: Aces and Kings beat tens and nines
    ("virgil_earp", "pair", 0, 2),  # the same dice without the skill: a pair of Aces, beaten
])
def test_king_of_the_hill_turns_a_die_into_a_king(shooter: str, hand: str, hurt: int, points: int) -> None:
    t = table((shooter, 10, 18), ("the_cajun", 16, 18))
    a, d = t.game.figures
    run(t, fight.confront(t, a, d, False, False, [2]), "A A K Q J " + TWO_PAIRS, reaction="return")
    assert t.game.fire[-1].attacker_hand == hand
    assert t.game.figure(hurt).ticked == points and t.game.figure(1 - hurt).ticked == 0


@pytest.mark.parametrize(("shooter", "target", "hand", "won"), [
    ("curly_bill", "virgil_earp", "two_pairs", "attacker"),  # the ten turned into a Queen: Queens and nines
    ("morgan_earp", "the_cajun", "pair", "defender"),  # no skill: a pair of nines (a King would make no more)
])
def test_a_certain_taste_turns_a_die_into_a_queen(shooter: str, target: str, hand: str, won: str) -> None:
    t = table((shooter, 10, 18), (target, 16, 18))
    a, d = t.game.figures
    run(t, fight.confront(t, a, d, False, False, [1]), "9 9 Q 10 J 10 10 9 9 A", reaction="return")
    fire = t.game.fire[-1]
    assert fire.attacker_hand == hand and fire.defender_hand == "two_pairs" and fire.won == won


@pytest.mark.parametrize("legend", ["wyatt_earp", "preacher"])
def test_living_legend_passes_guts_without_a_roll(legend: str) -> None:
    t = table((legend, 10, 18), ("zombie", 20, 18))
    assert run(t, fight.guts(t, t.game.figure(0), "wounded")).value is True
    assert not rolls(t) and len(notes(t, "guts_legend")) == 1


def test_last_breath_a_heart_card_gives_one_free_activation_then_out() -> None:
    t = table(("wyatt_earp", 10, 18), ("zombie", 20, 18), hands={"lawmen": "3C 2H"})
    wyatt = t.game.figure(0)
    wyatt.ticked = 5
    played = run(t, fight.damage(t, wyatt, 1, t.game.figure(1)), last_breath="last_breath:2H",
                 action=[pick("toward"), "end"])
    assert ids(played.of("last_breath")[0]) == ["last_breath:2H", "last_breath:no"]
    assert [(a.about["figure"], a.about["actions"]) for a in played.of("action")] == [(0, 2), (0, 1)]
    assert wyatt.pos == (14, 18)  # the free activation's move
    assert wyatt.state == "out" and hand(t, "lawmen") == ["3C"] and discards(t) == ["2H"]
    assert t.game.winner == "zombies"


@pytest.mark.parametrize(("cards", "answers"), [
    ("3C 4D", {}),  # no heart: out at once, nothing asked
    ("3C 2H", {"last_breath": "last_breath:no"}),  # declined
])
def test_last_breath_without_a_heart_card_is_out_at_once(cards: str, answers: dict[str, str]) -> None:
    t = table(("wyatt_earp", 10, 18), ("zombie", 20, 18), hands={"lawmen": cards})
    wyatt = t.game.figure(0)
    wyatt.ticked = 5
    played = run(t, fight.damage(t, wyatt, 1, t.game.figure(1)), **answers)
    assert wyatt.state == "out" and not played.of("action") and not discards(t)


def test_last_breath_is_one_activation_even_when_hit_again_during_it() -> None:
    t = table(("wyatt_earp", 10, 18), ("the_cajun", 16, 18), hands={"lawmen": "2H 3H"})
    wyatt, cajun = t.game.figures
    wyatt.ticked = 5
    # the last breath: Wyatt shoots, the Cajun returns fire and wins (three Aces against nothing): no cartridge is
    # left to tick, so no second last breath for the second heart, and Wyatt's activation goes on
    played = run(t, fight.damage(t, wyatt, 1, cajun), NOTHING_K + " A A A 9 10", last_breath="last_breath:2H",
                 action=["shoot:1", "end"], reaction="return")
    assert len(played.of("last_breath")) == 1 and len(played.of("action")) == 2
    assert wyatt.state == "out" and wyatt.ticked == 6 and hand(t, "lawmen") == ["3H"]


def test_precise_aims_without_paying_a_card() -> None:
    t = table(("doc_holliday", 10, 18), ("the_cajun", 16, 18))
    played = run(t, turn.activate(t, t.game.figure(0)), NOTHING_A + " " + NOTHING_K, action="aim:1",
                 reaction="return")
    assert len(played.of("action")) == 1  # an aimed shot takes both actions
    assert notes(t, "confront")[0]["a_rerolls"] == 3 + 1 and not notes(t, "aim_paid") and not discards(t)


@pytest.mark.parametrize(("cards", "paid"), [("KH 9D 5S 3C", "3C"), ("KH 9D", "9D"), ("AH 10C", "10C")])
def test_an_aimed_shot_read_as_paid_by_any_card_pays_the_lowest_2_to_8_first(cards: str, paid: str) -> None:
    """`aim_cost="any_card"` (Dédale's reading before)."""
    t = dataclasses.replace(table(("virgil_earp", 10, 18), ("the_cajun", 16, 18), hands={"lawmen": cards}),
                            aim_cost="any_card")
    played = run(t, turn.activate(t, t.game.figure(0)), NOTHING_A + " " + NOTHING_K, action="aim:1",
                 reaction="return")
    assert notes(t, "aim_paid")[0]["card"] == paid and discards(t) == [paid]
    assert notes(t, "confront")[0]["a_rerolls"] == 2 + 1
    assert len(played.of("action")) == 1 and not played.of("cards")  # the card spent Virgil's Hand of 1


def test_no_aimed_shot_without_a_card_to_pay() -> None:
    t = table(("virgil_earp", 10, 18), ("the_cajun", 16, 18))
    played = run(t, turn.activate(t, t.game.figure(0)), action="end")
    assert "shoot:1" in ids(played.asks[0]) and "aim:1" not in ids(played.asks[0])


@pytest.mark.parametrize(("faces", "counted"), [("A K A", 2), ("9 K Q", 0), ("A A A", 3)])
def test_zombie_counts_a_damage_point_only_on_an_ace(faces: str, counted: int) -> None:
    t = table(("zombie", 10, 18), ("deputy", 20, 18))
    zombie = t.game.figure(0)
    run(t, fight.damage(t, zombie, 3, t.game.figure(1)), faces)
    assert zombie.ticked == counted
    entry = next(e for e in t.roller.log if e.get("for") == "skirmish.zombie_roll")
    assert entry["faces"] == faces.split() and entry["decided"]["points"] == counted


@pytest.mark.parametrize(("profile", "wounded", "moves"), [
    ("zombie", False, 1), ("fresh_zombie", False, 2), ("deputy", True, 1), ("deputy", False, 2)])
def test_slow_and_wounded_characters_move_once_an_activation(profile: str, wounded: bool, moves: int) -> None:
    enemy = "deputy" if SIDE_OF[profile] == "zombies" else "zombie"
    t = table((profile, 4, 18), (enemy, 34, 4))
    t.game.figure(0).wounded = wounded

    def move_if_you_can(ask: Ask) -> str:
        return next((i for i in ids(ask) if i.startswith("move:")), "end")

    played = run(t, turn.activate(t, t.game.figure(0)), action=[move_if_you_can, move_if_you_can])
    assert len(notes(t, "moved")) == moves
    assert [a.about["moves"] for a in played.of("action")] == ([2, 1] if moves == 2 else [1, 0])


@pytest.mark.parametrize(("faces", "state", "pos"), [(TWO_PAIRS, "ready", (13, 18)), (NOTHING_A, "fleeing", (19, 18))])
def test_frightening_charge_makes_the_charged_enemy_test_guts(faces: str, state: str, pos: tuple[float, float]) -> None:
    t = table(("the_cajun", 10, 18), ("deputy", 13, 18))
    cajun, deputy = t.game.figures
    run(t, turn.activate(t, cajun), faces, action=[pick("charge"), "end"])
    assert cajun.pos == pytest.approx((13 - 1.05, 18))
    assert notes(t, "guts_passed" if state == "ready" else "guts_failed")[0]["why"] == why("frightened")
    assert deputy.state == state and deputy.pos == pytest.approx(pos)  # flees 6 inches from the Cajun


def test_a_charge_by_someone_not_frightening_tests_no_guts() -> None:
    t = table(("zombie", 10, 18), ("deputy", 13, 18))
    run(t, turn.activate(t, t.game.figure(0)), action=[pick("charge"), "end"])
    assert not rolls(t) and t.game.figure(1).state == "ready"


def test_starting_an_activation_in_contact_with_a_frightening_enemy_tests_guts() -> None:
    t = table(("deputy", 13, 18), ("the_cajun", 12, 18))
    deputy = t.game.figure(0)
    played = run(t, turn.activate(t, deputy), TWO_PAIRS, action="end")
    assert notes(t, "guts_passed")[0]["why"] == why("frightened")
    assert "melee:1" in ids(played.of("action")[0])  # passed: it acts

    t = table(("deputy", 13, 18), ("the_cajun", 12, 18))
    deputy = t.game.figure(0)
    played = run(t, turn.activate(t, deputy), NOTHING_A)
    assert not played.of("action") and deputy.state == "fleeing" and deputy.pos == pytest.approx((19, 18))


# --- Guts --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("faces", "passed"), [(TWO_PAIRS, True), ("9 9 9 J Q", True), ("K K K K K", True),
                                               (PAIR, False), (NOTHING_A, False)])
def test_guts_passes_on_two_pairs_or_better(faces: str, passed: bool) -> None:
    t = table(("deputy", 10, 18), ("zombie", 20, 18))
    played = run(t, fight.guts(t, t.game.figure(0), "wounded"), faces)
    assert played.value is passed and len(played.of("reroll")) == 1  # a Potential of 1: one reroll die
    assert notes(t, "guts_passed" if passed else "guts_failed")[0]["why"] == why("wounded")


def test_a_card_may_complete_a_guts_roll() -> None:
    """A Guts test is a roll like any: a face card in hand may make the pair two pairs (within the Hand)."""
    t = table(("deputy", 10, 18), ("zombie", 20, 18), hands={"lawmen": "QH 3C"})
    rolled = "9 9 J Q K"  # a pair of nines, and the one reroll die kept
    played = run(t, fight.guts(t, t.game.figure(0), "wounded"), rolled, cards="cards:QH")
    assert played.value is True and hand(t, "lawmen") == ["3C"]
    assert [o.id for o in played.of("cards")[0].options] == ["cards:none", "cards:QH"]  # a Hand of 1, one face card


WALL = Terrain("heavy", 20, 14, 1, 8, "wall")


@pytest.mark.parametrize(("field", "to"), [
    (OPEN, (24, 18)),  # 6 inches straight away from the danger
    (Battlefield(36, 36, (WALL,)), (21.5, 18)),  # stops in base contact behind the heavy cover it crosses
])
def test_failed_guts_flees_6_inches_away_into_heavy_cover(field: Battlefield, to: tuple[float, float]) -> None:
    t = table(("deputy", 18, 18), ("zombie", 12, 18), field=field)
    deputy, zombie = t.game.figures
    deputy.ticked = 3
    run(t, fight.damage(t, deputy, 2, zombie), NOTHING_A)
    assert deputy.state == "fleeing" and deputy.pos == pytest.approx(to)
    if field is not OPEN:
        assert [piece.kind for piece in t.field.covers(zombie.pos, deputy.pos)] == ["heavy"]


@pytest.mark.parametrize(("field", "at", "faces", "state", "acts"), [
    (OPEN, (24, 18), TWO_PAIRS, "ready", True),  # rallies: acts normally
    (Battlefield(36, 36, (WALL,)), (21.5, 18), NOTHING_A, "fleeing", False),  # in cover: stays, loses the activation
    (OPEN, (24, 18), NOTHING_A, "gone", False),  # in the open: flees for good
])
def test_a_fleeing_character_tests_guts_at_its_next_activation(field: Battlefield, at: tuple[float, float],
                                                               faces: str, state: str, acts: bool) -> None:
    t = table(("deputy", *at), ("zombie", 12, 18), ("zombie", 4, 4), field=field)
    deputy = t.game.figure(0)
    deputy.state = "fleeing"
    played = run(t, turn.activate(t, deputy), faces, **({"action": "end"} if acts else {}))
    assert notes(t, "guts_passed" if acts else "guts_failed")[0]["why"] == why("rally")
    assert deputy.state == state and deputy.pos == at and deputy.activated
    assert bool(played.of("action")) is acts
    assert bool(notes(t, "stays_in_cover")) is (state == "fleeing")


def test_a_star_killed_makes_every_character_of_its_band_test_guts() -> None:
    t = table(("wyatt_earp", 10, 18), ("virgil_earp", 12, 24), ("deputy", 14, 18), ("the_cajun", 30, 18),
              ("zombie", 30, 30))
    wyatt, virgil, deputy, cajun, _ = t.game.figures
    wyatt.ticked = 5
    run(t, fight.damage(t, wyatt, 1, cajun), TWO_PAIRS + " " + NOTHING_A)
    assert wyatt.state == "out"
    assert [say(args["figure"]) for args in notes(t, "guts_passed") + notes(t, "guts_failed")] == ["Virgil Earp",
                                                                                                    "Deputy"]
    assert all(args["why"] == why("star_killed") for args in notes(t, "guts_passed") + notes(t, "guts_failed"))
    assert virgil.state == "ready" and deputy.state == "fleeing" and deputy.pos == pytest.approx((8, 18))


@pytest.mark.parametrize("hidden", [False, True])
def test_fleeing_after_a_star_falls_runs_from_the_nearest_enemy_not_from_the_fallen_star(hidden: bool) -> None:
    """Ringo, the duellist, falls between his band and the Earps: fleeing from his body would run at them.
    A hidden token nearer than the Earps is no danger anyone knows of."""
    t = table(("ringo", 16, 18), ("zombie", 12, 18), ("wyatt_earp", 22, 18), ("deputy", 12, 12))
    ringo, zombie, wyatt, deputy = t.game.figures
    deputy.hidden = hidden  # 6 inches from the zombie: nearer than Wyatt, when seen
    ringo.ticked = CATALOGUE.profile("ringo").cartridges - 1
    run(t, fight.damage(t, ringo, 1, wyatt), "A " + NOTHING_A)  # an Ace: the point counts on a zombie
    assert ringo.state == "out" and zombie.state == "fleeing"
    assert zombie.pos == pytest.approx((6, 18) if hidden else (12, 24))


def test_a_supporting_role_killed_makes_no_one_test() -> None:
    t = table(("virgil_earp", 10, 18), ("deputy", 14, 18), ("zombie", 30, 26))
    t.game.figure(0).ticked = 5
    run(t, fight.damage(t, t.game.figure(0), 1, t.game.figure(2)))
    assert t.game.figure(0).state == "out" and not rolls(t)


# --- wounds ------------------------------------------------------------------------------------------------------
def test_a_red_cartridge_wounds_the_second_potential_and_a_guts_test_at_once() -> None:
    t = table(("deputy", 10, 18), ("the_cajun", 16, 18))
    deputy, cajun = t.game.figures
    deputy.ticked = 3
    run(t, fight.damage(t, deputy, 1, cajun))  # the last white cartridge
    assert deputy.ticked == 4 and not deputy.wounded and not rolls(t)
    assert fight.spec_for(t, deputy, 0).budget == 1
    played = run(t, fight.damage(t, deputy, 1, cajun), TWO_PAIRS)  # a red one
    assert deputy.wounded and deputy.state == "ready" and notes(t, "guts_passed")[0]["why"] == why("wounded")
    assert not played.of("reroll")  # the Guts roll already at the second Potential, 0
    assert fight.spec_for(t, deputy, 0).budget == 0 and fight.spec_for(t, deputy, 0).dice == 5
    run(t, fight.confront(t, deputy, cajun, False, False, [1]), NOTHING_A + " " + NOTHING_K, reaction="return")
    assert notes(t, "confront")[0]["a_rerolls"] == 0


def test_ike_clantons_red_cartridges_are_a_count_not_a_wound() -> None:
    ike = CATALOGUE.profile("ike_clanton")
    assert (ike.cartridges, ike.red, ike.potential) == (6, 2, (1, 1))
    assert not Figure(0, "ike_clanton", "zombies", 1, 1).wounded


def test_the_last_cartridge_takes_a_character_out_of_play() -> None:
    t = table(("deputy", 10, 18), ("virgil_earp", 12, 18), ("zombie", 20, 18))
    deputy = t.game.figure(0)
    deputy.ticked = 4
    run(t, fight.damage(t, deputy, 5, t.game.figure(2)))
    assert deputy.ticked == 6 and deputy.state == "out" and not rolls(t)  # never more than it has
    assert not t.over


# --- damage ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("attacker", "faces", "hurt", "points"), [
    ("virgil_earp", "K K K 9 10 A A 10 J Q", 1, 1 + 3 - 1 + 1),  # three against a pair, heavy Colt +1
    ("doc_holliday", "J J Q Q 9 A A 10 K 9", 1, 1 + 2 - 1 + 2),  # two pairs against a pair, shotgun +2
    ("morgan_earp", "A A A A 9 K K K Q J", 1, 1 + 5 - 3 + 0),  # four against three, light Colt +0
    ("virgil_earp", PAIR + " A A A Q K", 0, 1 + 3 - 1 + 0),  # returning fire, the Cajun wins: light Colt
    ("virgil_earp", "A A K K 10 A A K K 9", 1, 1 + 2 - 2 + 1),  # the same kind, the higher kicker wins
])
def test_damage_is_one_plus_the_rank_difference_plus_the_weapon(attacker: str, faces: str, hurt: int,
                                                               points: int) -> None:
    t = table((attacker, 10, 18), ("the_cajun", 16, 18))
    run(t, fight.confront(t, *t.game.figures, False, False, [1]), faces, reaction="return")
    assert t.game.figure(hurt).ticked == points and t.game.figure(1 - hurt).ticked == 0
    assert notes(t, "hit")[0]["damage"] == points


@pytest.mark.parametrize("faces", [NOTHING_A + " " + NOTHING_K, TWO_PAIRS + " " + TWO_PAIRS, "K K Q Q 9 Q Q K K 9"])
def test_a_winner_holding_nothing_and_a_tie_deal_no_damage(faces: str) -> None:
    t = table(("virgil_earp", 10, 18), ("the_cajun", 16, 18))
    run(t, fight.confront(t, *t.game.figures, False, False, [1]), faces, reaction="return")
    assert [f.ticked for f in t.game.figures] == [0, 0] and notes(t, "no_hit") and t.game.fire[-1].won is None


def test_a_dodge_only_the_shooter_deals_damage() -> None:
    t = table(("virgil_earp", 10, 18), ("the_cajun", 16, 18))
    run(t, fight.confront(t, *t.game.figures, False, False, [1]), PAIR + " A A A K Q", reaction="dodge",
        dodge=pick("dodge_away"))
    assert [f.ticked for f in t.game.figures] == [0, 0] and t.game.fire[-1].won is None


@pytest.mark.parametrize(("faces", "ticked"), [("A A A K Q " + PAIR, 1 + 3 - 1 + 1), (PAIR + " A A A K Q", 0)])
def test_a_dodging_target_moves_2_inches_whatever_the_result_never_into_contact(faces: str, ticked: int) -> None:
    t = table(("virgil_earp", 10, 18), ("the_cajun", 16, 18), ("deputy", 16, 15.5))
    virgil, cajun, deputy = t.game.figures
    played = run(t, fight.confront(t, virgil, cajun, False, False, [1]), faces, reaction="dodge",
                 dodge=pick("dodge_to", way="dir.N"))
    assert cajun.ticked == ticked
    for option in played.of("dodge")[0].options:
        to = option.data["to"]
        assert math.dist((16, 18), to) <= 2 + 1e-6
        assert all(math.dist(to, enemy.pos) > CONTACT for enemy in (virgil, deputy))
    away = next(o for o in played.of("dodge")[0].options if o.data.get("away"))
    assert away.data["to"] == (18, 18)  # straight away from the shooter, the full 2 inches
    assert cajun.pos == pytest.approx((16, 15.5 + CONTACT), abs=0.01)  # northward, stopped short of the deputy


COVER_CASES = {  # terrain between a shooter at (10, 18) and a target at (20, 18): the confrontation's dice
    "light, dodge": ((Terrain("light", 13, 16, 0.5, 4),), "dodge", 1, (5, 1), (5, 2)),
    "heavy, dodge": ((Terrain("heavy", 16, 16, 1, 4),), "dodge", 1, (5, 2), (5, 3)),
    "both, dodge": ((Terrain("light", 13, 16, 0.5, 4), Terrain("heavy", 16, 16, 1, 4)), "dodge", 2, (5, 1), (5, 3)),
    "both, return fire": ((Terrain("light", 13, 16, 0.5, 4), Terrain("heavy", 16, 16, 1, 4)), "return", 2,
                          (5, 0), (3, 0)),
    "within 1 inch of the shooter": ((Terrain("light", 10.6, 16, 0.3, 4),), "dodge", 0, (5, 2), (5, 2)),
    "none, return fire": ((), "return", 0, (5, 2), (5, 0)),
}


@pytest.mark.parametrize(("terrain", "reaction", "covers", "attacker", "defender"), COVER_CASES.values(),
                         ids=COVER_CASES.keys())
def test_cover_modifies_the_reroll_dice(terrain: tuple[Terrain, ...], reaction: str, covers: int,
                                        attacker: tuple[int, int], defender: tuple[int, int]) -> None:
    t = table(("virgil_earp", 10, 18), ("the_cajun", 20, 18), field=Battlefield(36, 36, terrain))
    defender_faces = " ".join(NOTHING_K.split()[:defender[0]])
    run(t, fight.confront(t, *t.game.figures, False, False, [1]), NOTHING_A + " " + defender_faces, reaction=reaction,
        dodge=[lambda ask: ask.options[0].id] if reaction == "dodge" else [])
    note = notes(t, "confront")[0]
    assert note["covers"] == covers
    assert (note["a_dice"], note["a_rerolls"]) == attacker and (note["d_dice"], note["d_rerolls"]) == defender


NEAR_FENCE = Terrain("light", 10.6, 16, 0.3, 4, "fence")  # 0.6" from a figure at (10, 18)
NEAR_WALL = Terrain("heavy", 18.8, 16, 0.5, 4, "wall")  # 0.7" from a figure at (20, 18)
RETURN_FIRE_CASES = {  # under return fire: each shooter's reroll dice, from the cover along its own line of fire
    "fence and wall, the one at the fence shoots": ((NEAR_FENCE, NEAR_WALL), (10, 20), (5, 1), (4, 0)),
    "fence and wall, the one at the wall shoots": ((NEAR_FENCE, NEAR_WALL), (20, 10), (5, 1), (4, 0)),
    "the target's own wall, the target returns fire unhindered": ((NEAR_WALL,), (10, 20), (5, 1), (5, 0)),
    "the shooter's own wall, the target returns fire over it": ((NEAR_WALL,), (20, 10), (5, 2), (4, 0)),
    "the shooter's own fence hinders only the return shot": ((NEAR_FENCE,), (10, 20), (5, 2), (4, 0)),
    "the target's own fence, the target returns fire unhindered": ((NEAR_FENCE,), (20, 10), (5, 1), (5, 0)),
}


@pytest.mark.parametrize(("terrain", "xs", "attacker", "defender"), RETURN_FIRE_CASES.values(),
                         ids=RETURN_FIRE_CASES.keys())
def test_return_fire_each_shooter_has_its_own_cover_and_1_inch_rule(terrain: tuple[Terrain, ...],
                                                                    xs: tuple[int, int], attacker: tuple[int, int],
                                                                    defender: tuple[int, int]) -> None:
    """A wall 0.7" from one figure and a fence 0.6" from the other (Virgil Earp, at the first of `xs`, shoots the
    Cajun, at the second, who returns fire): each piece is within 1 inch of one of them, so it hinders only
    the other's shot, whoever shoots first."""
    field = Battlefield(36, 36, terrain)
    t = table(("virgil_earp", xs[0], 18), ("the_cajun", xs[1], 18), field=field)
    defender_faces = " ".join(NOTHING_K.split()[:defender[0]])
    run(t, fight.confront(t, *t.game.figures, False, False, [1]), NOTHING_A + " " + defender_faces,
        reaction="return")
    note = notes(t, "confront")[0]
    assert (note["a_dice"], note["a_rerolls"]) == attacker and (note["d_dice"], note["d_rerolls"]) == defender
    if len(terrain) == 2:  # each line of fire sees the piece far from its shooter, never the one beside it
        at_fence, at_wall = ((10, 18), (20, 18))
        assert [p.name for p in field.covers(at_fence, at_wall)] == ["wall"]
        assert [p.name for p in field.covers(at_wall, at_fence)] == ["fence"]


@pytest.mark.parametrize(("faces", "hurt", "points"), [
    ("K K K 9 A A 10 J Q", 1, 1 + 3 - 1 - 1),  # Virgil's fists: -1
    ("9 10 J Q A A 9 10 J", 0, 1 + 1 - 0 + 1),  # the Cajun's sabre: +1, the defender hurts back
    ("A A 9 10 K K 9 10 J", 1, 0),  # a pair beats a lower pair; fists -1: no damage, never below 0
])
def test_melee_unarmed_loses_a_base_die_by_default_and_fists_deal_minus_one(faces: str, hurt: int, points: int
                                                                             ) -> None:
    """"A malus of one base die" (the text, by default): Virgil's fists throw four dice first, then his two
    rerolls."""
    t = table(("virgil_earp", 10, 18), ("the_cajun", 11, 18))
    run(t, fight.confront(t, *t.game.figures, True, False, [1]), faces)
    note = notes(t, "confront")[0]
    assert (note["a_dice"], note["a_rerolls"], note["d_dice"], note["d_rerolls"]) == (4, 2, 5, 2)
    assert rolls(t, "skirmish.roll_attack")[0] == faces.split()[:4]
    assert t.game.figure(hurt).ticked == points and t.game.figure(1 - hurt).ticked == 0
    assert t.game.fire[-1].won == ("attacker" if hurt else "defender")


def test_melee_unarmed_read_as_a_potential_die() -> None:
    """`unarmed_malus="potential"` (Dédale's reading before): read as the text reads its other maluses, Virgil's
    fists at Potential 2 roll as Potential 1, five dice and one reroll, against the Cajun's five dice and two
    rerolls."""
    t = dataclasses.replace(table(("virgil_earp", 10, 18), ("the_cajun", 11, 18)), unarmed_malus="potential")
    run(t, fight.confront(t, *t.game.figures, True, False, [1]), "K K K 9 A A A 10 J Q")
    note = notes(t, "confront")[0]
    assert (note["a_dice"], note["a_rerolls"], note["d_dice"], note["d_rerolls"]) == (5, 1, 5, 2)
    assert rolls(t, "skirmish.roll_attack")[0] == ["K", "K", "K", "9", "A"]


# --- cards -------------------------------------------------------------------------------------------------------
def test_a_face_card_after_the_roll_joins_the_dice_best_five() -> None:
    t = table(("virgil_earp", 10, 18), ("the_cajun", 16, 18), hands={"lawmen": "3H KS"})
    played = run(t, fight.confront(t, *t.game.figures, False, False, [1]), "K K Q Q 9 A A A J 10",
                 reaction="return", cards="cards:KS")
    assert ids(played.of("cards")[0]) == ["cards:none", "cards:KS"]  # a 2-8 is no face
    assert t.game.fire[-1].attacker_hand == "full"  # K K K Q Q: the nine is left out
    assert t.game.figure(1).ticked == 1 + 4 - 3 + 1
    assert hand(t, "lawmen") == ["3H"] and discards(t) == ["KS"]


@pytest.mark.parametrize(("profile", "pairs"), [("virgil_earp", False), ("wyatt_earp", True)])
def test_cards_are_played_within_the_characters_hand(profile: str, pairs: bool) -> None:
    t = table((profile, 10, 18), ("the_cajun", 16, 18), hands={"lawmen": "QS 10H"})
    budget = [CATALOGUE.profile(profile).hand]
    played = run(t, fight.confront(t, *t.game.figures, False, False, budget), NOTHING_A + " " + NOTHING_K,
                 reaction="return")
    assert ("cards:QS+10H" in ids(played.of("cards")[0])) is pairs


def test_an_activations_hand_budget_is_shared_by_its_shots_and_a_reaction_has_its_own() -> None:
    t = table(("virgil_earp", 10, 18), ("the_cajun", 16, 18), hands={"lawmen": "QS 10H", "zombies": "JS"})
    budget = [1]
    first = run(t, fight.confront(t, *t.game.figures, False, False, budget), NOTHING_A + " " + NOTHING_K,
                reaction="return", cards=["cards:QS", "cards:none"])
    assert budget == [0] and [a.side for a in first.of("cards")] == ["lawmen", "zombies"]
    second = run(t, fight.confront(t, *t.game.figures, False, False, budget), NOTHING_A + " " + NOTHING_K,
                 reaction="return")
    assert [a.side for a in second.of("cards")] == ["zombies"]  # Virgil's Hand is spent, the Cajun's is fresh
    assert hand(t, "lawmen") == ["10H"] and discards(t) == ["QS"]


CARD_CODE = re.compile(r"\b(?:10|[2-9JQKA])[HDSC]\b")  # a card as its code, "KD", not in words


@pytest.mark.parametrize(("cards", "faces", "offered", "labels"), [
    ("KS", NOTHING_A + " " + NOTHING_K, [], []),  # a King next to 9 10 J Q A: still Nothing, which never hurts
    ("KS QH", "K K Q 10 9 " + NOTHING_K, ["cards:none", "cards:KS", "cards:QH"],
     ["No card: a pair", "Add the King of spades: three of a kind", "Add the Queen of hearts: two pairs"]),
    ("AS", "K K 9 10 J " + NOTHING_K, ["cards:none", "cards:AS"],
     ["No card: a pair", "Add the Ace of spades: a pair, with higher cards"]),  # may turn a tie into a win
])
def test_the_attacker_is_offered_only_cards_that_better_its_hand(cards: str, faces: str, offered: list[str],
                                                                 labels: list[str]) -> None:
    t = table(("virgil_earp", 10, 18), ("the_cajun", 16, 18), hands={"lawmen": cards})
    played = run(t, fight.confront(t, *t.game.figures, False, False, [1]), faces, reaction="return")
    asked = [a for a in played.of("cards") if a.side == "lawmen"]
    assert [ids(a) for a in asked] == ([offered] if offered else [])
    assert [say(word(o.key, **o.args)) for a in asked for o in a.options] == labels


@pytest.mark.parametrize(("cards", "reaction", "faces", "offered"), [
    ("KS", "dodge", PAIR + " K K 9 10 J", []),  # already safe from a pair; a dodger cannot hurt back: nothing to gain
    ("KS", "return", PAIR + " K K 9 10 J", ["cards:none", "cards:KS"]),  # returning fire, three Kings hurt more
    ("QS", "dodge", "K K K 9 10 Q Q 9 10 J", ["cards:none", "cards:QS"]),  # still hit, but by less
    ("QS 10H", "dodge", "9 9 10 J K 9 10 J Q A", ["cards:none", "cards:QS", "cards:10H"]),  # either is safe: not both
])
def test_the_defender_is_offered_only_cards_that_change_what_the_fight_does_to_it(
        cards: str, reaction: str, faces: str, offered: list[str]) -> None:
    t = table(("virgil_earp", 10, 18), ("the_cajun", 16, 18), hands={"zombies": cards})
    played = run(t, fight.confront(t, *t.game.figures, False, False, [1]), faces, reaction=reaction,
                 dodge=[lambda ask: ask.options[0].id] if reaction == "dodge" else [])
    asked = [a for a in played.of("cards") if a.side == "zombies"]
    assert [ids(a) for a in asked] == ([offered] if offered else [])


@pytest.mark.parametrize(("cards", "faces", "offered"), [
    ("QS 10H", TWO_PAIRS, []),  # passed already
    ("QS 10H", "9 9 10 J K", ["cards:none", "cards:10H"]),  # the Queen makes no second pair
    ("QS 10H", "10 Q J K A", ["cards:none", "cards:QS+10H"]),  # only both make two pairs
])
def test_a_guts_roll_is_offered_only_cards_that_make_it_pass(cards: str, faces: str, offered: list[str]) -> None:
    t = table(("the_cajun", 10, 18), ("deputy", 30, 18), hands={"zombies": cards})  # the Cajun's Hand: 2
    played = run(t, fight.guts(t, t.game.figure(0), "wounded"), faces)
    assert [ids(a) for a in played.of("cards")] == ([offered] if offered else [])


@pytest.mark.parametrize("scenario", ["ok_corral", "high_noon"])
def test_no_card_option_offered_in_a_game_is_useless_and_every_label_is_in_words(scenario: str) -> None:
    """Both sides played by people (the autopilot choosing), so every card option of every game is seen."""
    asked = {"cards": 0, "initiative": 0}
    for seed in range(8):
        session = Session(SkirmishRules, SkirmishParams(scenario=scenario, side="lawmen", opponent="human"), seed)
        while not session.is_over:
            ask = session.rules.ask
            assert isinstance(ask, Ask)
            if ask.kind in asked:
                asked[ask.kind] += 1
                check_card_options(session, ask)
            for choice in session.choices() if ask.kind in (*asked, "last_breath") else ():
                for lang in ("en", "fr"):
                    label = choice.label(lang)
                    assert "(" not in label and not CARD_CODE.search(label) and "skirmish." not in label, label
            session.auto_step()
    assert asked["cards"] >= 10 and asked["initiative"] >= 10


def check_card_options(session: SkirmishSession, ask: Ask) -> None:
    if ask.kind == "initiative":  # a card beats a 9 and does not lose to the other side's card
        other = [value for value in ask.about["others"].values() if value is not None]
        for option in ask.options[1:]:
            value = turn._card_value(Card.parse(option.id.removeprefix("initiative:")))
            assert value > 0 and all(value >= v for v in other), option.id
        assert len(ask.options) > 1  # only a card to play asks: a roll alone is rolled unasked
        return
    figure = session.rules.table_top.game.figure(ask.about["figure"])
    skill = skills.turned_face(session.rules.table_top.profile(figure).skills)
    key, counts = ask.about["key"], ask.about["dice"]
    assert len(ask.options) > 1 and ask.options[0].id == "cards:none"
    for option in ask.options[1:]:
        played = [Card.parse(code) for code in option.id.removeprefix("cards:").split("+")]
        assert option.data["key"] > key and option.data["key"][0] > 0, option.id  # a better hand, not Nothing
        for card in played if len(played) > 1 else ():  # each card of two adds to what the other makes
            assert option.data["key"] > fight._with(counts, [card], skill), option.id


# --- the turn ----------------------------------------------------------------------------------------------------
def test_initiative_a_card_played_instead_of_rolling_is_its_face() -> None:
    t = table(("deputy", 30, 18), ("zombie", 4, 18), hands={"lawmen": "KH", "zombies": "AS"})
    played = run(t, turn.initiative(t), "Q", initiative=["initiative:KH", "initiative:roll"], first="first:me")
    assert played.value == "lawmen" and t.game.initiative == "lawmen"
    assert played.of("initiative")[1].about["others"] == {"lawmen": 4}  # the zombies know the King is played
    assert rolls(t) == [["Q"]] and discards(t) == ["KH"] and hand(t, "lawmen") == []


@pytest.mark.parametrize(("lawmen", "zombies", "offered"), [
    ("8C 9D 10H KS", "", ["initiative:roll", "initiative:KS", "initiative:10H"]),  # a 9 or a 2-8 never beats a roll
    ("KH", "QS KD AH 9C", ["initiative:roll", "initiative:AH", "initiative:KD"]),  # not below the King played first
])
def test_initiative_only_cards_that_may_beat_a_roll_are_offered(lawmen: str, zombies: str, offered: list[str]) -> None:
    """A card counts its face (2 to 8 below a 9): a 9 or less is never better than a roll, a die's worst face being
    a 9; a card below the one the other side played first loses for sure."""
    t = table(("deputy", 30, 18), ("zombie", 4, 18), hands={"lawmen": lawmen, "zombies": zombies})
    answers = ["initiative:KH", "initiative:roll"] if zombies else ["initiative:roll"]  # no card: rolls unasked
    played = run(t, turn.initiative(t), "9" if zombies else "10 9", initiative=answers, first="first:me")
    asked = played.of("initiative")[-1]
    assert ids(asked) == offered
    assert [say(word(o.key, **o.args)) for o in asked.options][1:] == (
        ["Play the Ace of hearts for the initiative", "Play the King of diamonds for the initiative"] if zombies else
        ["Play the King of spades for the initiative", "Play the 10 of hearts for the initiative"])


def test_initiative_ties_are_rolled_again() -> None:
    t = table(("deputy", 30, 18), ("zombie", 4, 18))
    played = run(t, turn.initiative(t), "K K 10 10 9 A", first="first:me")  # no card to play: both roll unasked
    assert played.value == "zombies"
    assert rolls(t, "skirmish.initiative_again") == [["10"], ["10"], ["9"], ["A"]]


def test_initiative_the_winner_may_let_the_other_side_start() -> None:
    t = table(("deputy", 30, 18), ("zombie", 4, 18))
    played = run(t, turn.initiative(t), "A 9", first="first:other")
    assert played.value == "zombies" and t.game.initiative == "lawmen"


def test_upkeep_draws_each_hand_up_to_5() -> None:
    t = table(("wyatt_earp", 30, 18), ("the_cajun", 4, 18), hands={"lawmen": "2H 3H"})
    run(t, turn.upkeep(t), "AS KS QS 2C 3C 4C 5C 6C")
    assert hand(t, "lawmen") == ["2H", "3H", "AS", "KS", "QS"] and hand(t, "zombies") == ["2C", "3C", "4C", "5C", "6C"]
    assert len(t.game.deck.pile) == 52 - 10


def test_upkeep_3_cards_for_a_band_that_lost_its_stars_5_for_one_that_never_had_one() -> None:
    t = table(("wyatt_earp", 30, 18), ("deputy", 30, 20), ("zombie", 4, 18))
    t.game.figure(0).state = "out"
    assert t.game.sides["lawmen"].had_stars and not t.game.sides["zombies"].had_stars
    run(t, turn.upkeep(t), "AS KS QS 2C 3C 4C 5C 6C")
    assert len(hand(t, "lawmen")) == 3 and len(hand(t, "zombies")) == 5


def test_a_band_that_lost_its_stars_holds_three_cards_at_most_keeping_its_jokers_then_its_highest() -> None:
    """The text: "si le joueur a perdu ses Vedettes, il ne peut avoir que trois cartes maximum en main". A band
    that lost them holding five gives up two (the Joker pays an Aimed shot; the King and the 9 beat a 5 and a 2),
    draws none, and the log says how many (not which: the other side may not see them)."""
    t = table(("wyatt_earp", 30, 18), ("deputy", 30, 20), ("zombie", 4, 18),
              hands={"lawmen": "2H JKS 9S KD 5C", "zombies": "2C 3C 4C 5C 6C"})
    t.game.figure(0).state = "out"
    run(t, turn.upkeep(t))
    assert hand(t, "lawmen") == ["JKS", "9S", "KD"] and len(hand(t, "zombies")) == 5
    # face down into the pile, not onto the discards that every view shows: nothing of the hand is shown
    assert t.game.deck.discards == [] and {"2H", "5C"} <= {c.code for c in t.game.deck.pile}
    assert [args["count"] for args in notes(t, "hand_limit")] == [2]


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=20, deadline=None)
def test_after_every_upkeep_a_band_without_its_stars_holds_three_cards_at_most(seed: int) -> None:
    """Whole games of the Bird Cage (where bands lose their Stars and play on), every upkeep watched."""
    held: list[int] = []
    upkeep = turn.upkeep

    def watched(t: Table) -> Flow[None]:
        yield from upkeep(t)
        for name, side in t.game.sides.items():
            if side.had_stars and not any(t.profile(f).status == "star" for f in t.standing(name)):
                held.append(len(side.hand))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(turn, "upkeep", watched)
        play_game(SkirmishParams(scenario="bird_cage", side=None), seed)
    assert all(count <= 3 for count in held)


def test_upkeep_stops_drawing_when_the_deck_is_used_up() -> None:
    t = table(("deputy", 30, 18), ("zombie", 4, 18))
    deck = Deck()
    t.game.deck = Deck(pile=[Card.parse("AS"), Card.parse("KS")], discards=[c for c in deck.pile if c.rank == "2"])
    run(t, turn.upkeep(t), "KS AS")
    assert hand(t, "lawmen") == ["KS", "AS"] and hand(t, "zombies") == []
    assert len(notes(t, "deck_empty")) == 2 and len(t.game.deck.discards) == 4  # no reshuffle
    assert not any("reshuffle" in entry for entry in t.roller.log)


def test_the_turn_limit_ends_the_game_by_the_dollars_still_in_play() -> None:
    scenario = dataclasses.replace(CORRAL, turns=1)
    game = Game(scenario=scenario.id)
    t = Table(game, CATALOGUE, scenario, Roller(SeededSource(11), game.log), {"lawmen": AI(), "zombies": AI()},
              activation=turn.activate)
    run(t, play(t))
    worth = {side: sum(t.profile(f).cost for f in game.in_play(side)) for side in game.sides}
    assert game.turn == 1 and game.ending in ("turns", "draw")
    assert game.winner == (max(worth, key=worth.__getitem__) if worth["lawmen"] != worth["zombies"] else None)


@pytest.mark.parametrize(("figures", "winner"), [
    (("deputy", "wyatt_earp", "zombie", "zombie", "zombie"), "zombies"),  # $20 against $30: Wyatt, out, counts nothing
    (("deputy", "zombie", "zombie"), None),  # $20 against $20: a draw
    (("deputy", "zombie"), "lawmen"),
])
def test_at_the_turn_limit_the_side_worth_more_wins(figures: tuple[str, ...], winner: str | None) -> None:
    t = table(*((profile, 4 + 2 * i, 18) for i, profile in enumerate(figures)))
    for figure in t.game.figures:
        if figure.profile == "wyatt_earp":
            figure.state = "out"
    victory.time_up(t)
    assert t.game.winner == winner and t.game.ending == ("turns" if winner else "draw")
    assert t.game.decided_by == "dollars"


@pytest.mark.parametrize("how", ["killed", "gone"])
def test_a_side_with_nobody_left_in_play_loses_at_once(how: str) -> None:
    t = table(("deputy", 30, 18), ("deputy", 30, 20), ("zombie", 10, 18))
    zombie = t.game.figure(2)
    if how == "killed":
        zombie.ticked = 5
        played = run(t, turn.activations(t, "lawmen"), "A A 9 10 J " + NOTHING_K + " A 9 9",
                     activate="activate:0", action="shoot:2")
    else:
        zombie.state = "fleeing"
        played = run(t, turn.activations(t, "zombies"), NOTHING_A, activate="activate:2")
    assert zombie.state == ("out" if how == "killed" else "gone")
    assert t.game.winner == "lawmen" and t.game.ending == "eliminated"
    assert t.game.decided_by == ("elimination" if how == "killed" else "flight")
    assert len(played.of("action")) <= 1 and len(played.of("activate")) == 1  # nothing more is played


# --- sessions ------------------------------------------------------------------------------------------------------
def document(session: SkirmishSession) -> dict[str, Any]:
    """The session's JSON document, as saved (a copy: the session's own lists go on changing)."""
    return json.loads(json.dumps(session.to_json()))


def played_session(seed: int, steps: int | None = None) -> SkirmishSession:
    session = Session(SkirmishRules, SkirmishParams(side="lawmen"), seed)
    while not session.is_over and (steps is None or len(session.events) < steps):
        session.auto_step()
    return session


def test_a_session_played_to_the_end_reloads_to_the_same_document() -> None:
    saved = document(played_session(5))
    assert saved["over"] and saved["game"]["ending"] in ("eliminated", "condition", "turns", "draw")
    assert document(Session.from_json(SkirmishRules, saved)) == saved


def test_a_session_undo_goes_back_one_decision_unless_it_did_more() -> None:
    """The game without its last decision is a replay of the others; against the AI, a decision that rolled,
    drew or let the AI move is never undone (`tests/test_secrets.py`)."""
    session = played_session(6, 30)
    before = document(session)
    session.auto_step()
    after = document(session)
    assert after != before and document(session.remade(session.events[:-1])) == before
    with pytest.raises(DedaleError, match="cannot be undone"):
        session.undo()
    assert document(session) == after


def test_an_illegal_choice_is_refused_and_the_session_unchanged() -> None:
    session = played_session(7, 10)
    before = document(session)
    for bad in ("shoot:999", "nonsense", "activate:12"):
        with pytest.raises(DedaleError):
            session.step(bad)
        assert document(session) == before


def test_the_same_seed_plays_the_same_game() -> None:
    for params in (SkirmishParams(side=None), SkirmishParams(scenario="high_noon", side=None)):
        assert document(Session(SkirmishRules, params, 42)) == document(Session(SkirmishRules, params, 42))
    assert document(played_session(3, 40)) == document(played_session(3, 40))


def test_table_mode_asks_for_each_card_and_die() -> None:
    session = Session(SkirmishRules, SkirmishParams(side="lawmen"), 0, table=True)
    entered = []
    for _ in range(10):  # the upkeep: five cards a side
        assert session.pending is not None and session.pending.kind == "card"
        options = [c.id for c in session.choices()]
        assert all(i.startswith("enter:") for i in options) and len(options) == 54 - len(entered)  # two Jokers
        entered.append(options[-1].removeprefix("enter:"))
        session.step(options[-1])
    assert session.pending is None and session.rules.ask.kind == "initiative"
    assert [c.code for c in session.state.sides["lawmen"].hand] == entered[:5]
    session.step("initiative:roll")
    faces = []
    while session.pending is not None:  # each side's initiative die, entered by face
        assert session.pending.kind == "face" and [c.id for c in session.choices()] == [
            f"enter:{face}" for face in ("9", "10", "J", "Q", "K", "A")]
        faces.append("A" if not faces else "9")
        session.step(f"enter:{faces[-1]}")
    assert faces == ["A", "9"] and session.rules.ask.kind == "first" and session.rules.ask.side == "lawmen"
    assert document(Session.from_json(SkirmishRules, document(session))) == document(session)


# --- whole games ---------------------------------------------------------------------------------------------------


class Watched:
    """An AI that checks the table before each of its decisions."""

    def __init__(self, style: str, overlap: float) -> None:
        self.ai, self.overlap = AI(style), overlap

    def choose(self, t: Table, ask: Ask) -> str:
        check_table(t, self.overlap)
        return self.ai.choose(t, ask)


def check_table(t: Table, overlap: float) -> None:
    """Cartridges within the profile's, every figure on the table, no two figures in play overlapping (by more
    than `overlap` inches)."""
    standing = t.game.in_play()
    for figure in t.game.figures:
        assert 0 <= figure.ticked <= t.profile(figure).cartridges, figure
        assert t.field.on_board(figure.pos), figure
    for i, a in enumerate(standing):
        for b in standing[i + 1:]:
            assert math.dist(a.pos, b.pos) >= BASE - 1e-6 - overlap, (a, b)


def watched_game(seed: int, scenario: str, lawmen: str, zombies: str, overlap: float) -> Game:
    """An AI-vs-AI game as a session plays it (side None), the table checked at every decision and at the end."""
    game = Game(scenario=scenario)
    t = Table(game, CATALOGUE, CATALOGUE.scenario(scenario), Roller(SeededSource(seed), game.log),
              {"lawmen": Watched(lawmen, overlap), "zombies": Watched(zombies, overlap)}, activation=turn.activate)
    run(t, play(t))
    check_table(t, overlap)
    return game


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 2**32), scenario=st.sampled_from(["ok_corral", "high_noon"]),
       lawmen=st.sampled_from(POLICIES), zombies=st.sampled_from(POLICIES))
def test_ai_games_finish_within_the_turn_limit_and_keep_the_table_sound(seed: int, scenario: str, lawmen: str,
                                                                       zombies: str) -> None:
    params = SkirmishParams(scenario=scenario, side=None, policy_lawmen=lawmen, policy_zombies=zombies)
    session = Session(SkirmishRules, params, seed)
    game = session.state
    assert session.is_over and 1 <= game.turn <= CATALOGUE.scenario(scenario).turns
    assert game.ending in ("eliminated", "condition", "turns", "draw")  # condition: OK Corral's Stars, at once
    assert (game.winner is None) == (game.ending == "draw")
    if game.ending == "eliminated":
        assert game.in_play(game.winner) and not game.in_play("zombies" if game.winner == "lawmen" else "lawmen")
    assert watched_game(seed, scenario, lawmen, zombies, 0.0).shape() == game.shape()


def test_ai_games_no_two_figures_in_play_overlap() -> None:
    for seed in range(5):
        for scenario in ("ok_corral", "high_noon"):
            watched_game(seed, scenario, "default", "default", 0.0)


# --- data errors ---------------------------------------------------------------------------------------------------
def edited(folder: Path, name: str, old: str, new: str) -> str:
    text = (DATA / name).read_text(encoding="utf-8")
    assert old in text
    (folder / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(folder)


@pytest.mark.parametrize(("old", "new", "words"), [
    ("potential = [3, 3]", "potential = [3, 9]", "potential [3, 9]"),
    ('"living_legend", "last_breath"]', '"living_legend", "bullet_time"]', "no skill 'bullet_time'"),
    ('weapons = ["heavy_colt"]', 'weapons = ["derringer"]', "no weapon 'derringer'"),
    ('weapons = ["heavy_colt"]', 'weapons = ["heavy_colt", "winchester"]', "two weapons of the kind 'gun'"),
])
def test_a_malformed_profile_is_named_in_the_error(tmp_path: Path, old: str, new: str, words: str) -> None:
    folder = edited(tmp_path, "profiles.toml", old, new)
    with pytest.raises(DedaleError) as error:
        load_catalogue(folder)
    message = str(error.value)
    assert str(tmp_path / "profiles.toml") in message and "profile 1 (wyatt_earp)" in message and words in message


def test_a_band_over_the_status_limits_is_refused(tmp_path: Path) -> None:
    stars = '["wyatt_earp", "doc_holliday",'
    folder = edited(tmp_path, "bands.toml", stars, stars + ' "bat_masterson",')
    with pytest.raises(DedaleError) as error:
        load_catalogue(folder)
    message = str(error.value)
    assert str(tmp_path / "bands.toml") in message and "band 1 (earp_brothers)" in message
    assert "3 characters of status star" in message


def test_an_unknown_scenario_is_refused() -> None:
    with pytest.raises(DedaleError) as error:
        CATALOGUE.scenario("tombstone")
    assert "tombstone" in str(error.value) and "ok_corral" in str(error.value)
    with pytest.raises(DedaleError):
        SkirmishParams(scenario="tombstone")


def test_a_scenario_may_ask_one_side_to_survive(tmp_path: Path) -> None:
    """`victory = "survive_zombies"`: at the turn limit the zombies win if anyone of theirs still stands."""
    folder = edited(tmp_path, "scenarios.toml", 'victory = "eliminate_stars"', 'victory = "survive_zombies"')
    params = SkirmishParams(side=None, data=folder)
    endings = set()
    for seed in range(3):
        session = Session(SkirmishRules, params, seed)
        endings.add(session.state.ending)
        if session.state.ending != "eliminated":
            assert session.state.winner == "zombies" and session.state.ending == "turns"
    assert "turns" in endings
    with pytest.raises(DedaleError) as raised:
        load_catalogue(edited(tmp_path, "scenarios.toml", 'victory = "eliminate_stars"', 'victory = "glory"'))
    assert "glory" in raised.value.message("en") and "survive_lawmen" in raised.value.message("en")


def test_high_noon_hidden_tokens_are_revealed_when_an_enemy_sees_them(tmp_path: Path) -> None:
    """The optional High Noon rule: the bands deploy as hidden tokens (the duellists stand in the open); a
    token no enemy has seen cannot be shot, and it turns into its figure once an enemy sees it."""
    folder = edited(tmp_path, "scenarios.toml", "hidden = false", "hidden = true")
    catalogue = load_catalogue(folder)
    game = Game(scenario="high_noon")
    t = Table(game, catalogue, catalogue.scenario("high_noon"), Roller(SeededSource(3), game.log),
              {"lawmen": None, "zombies": None}, activation=turn.activate)
    ask = next(play(t))  # deployed; the duel's first bet waits for a person
    assert isinstance(ask, Ask) and ask.kind == "bet"
    duellists = {"wyatt_earp", "ringo"}
    assert all(f.hidden != (f.profile in duellists) for f in game.figures)
    shooter = next(f for f in game.figures if f.profile == "wyatt_earp")
    assert all(not enemy.hidden for enemy, _ in turn.targets(t, shooter))
    session = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side=None, data=folder), 3)
    assert any(e.get("note") == "skirmish.revealed" for e in session.log)


# --- the duel's opening --------------------------------------------------------------------------------------------
HIGH_NOON = CATALOGUE.scenario("high_noon")


def duel_table(kind: str) -> Table:
    """Wyatt Earp and Ringo 32 inches apart (out of range: no first shot), the scenario's duel of `kind`."""
    t = table(("wyatt_earp", 2, 18), ("ringo", 34, 18))
    assert HIGH_NOON.duel is not None
    t.scenario = dataclasses.replace(HIGH_NOON, battlefield=OPEN, duel=dataclasses.replace(HIGH_NOON.duel, kind=kind))
    return t


@pytest.mark.parametrize(("bets", "fame", "funds"), [
    (["allin", "call"], ["winnings:fame:1", "winnings:fame:2"], 1),  # $15 won from Ringo: 2 Fame points, $1 left
    (["bet:2", "fold"], [], 1),  # Ringo folds: only his $1 ante is won, no Fame point
])
def test_the_duels_winnings_read_as_what_was_won_from_the_other(bets: list[str], fame: list[str], funds: int
                                                               ) -> None:
    """`winnings="won"` (Dédale's reading before): the winner's "$ gagnés" are the other's part of the pot, not
    its own stake back: $7 a Fame point."""
    from dedale.zombstone.skirmish.showdown import showdown

    t = duel_table("holdem")
    t.winnings = "won"
    wyatt, ringo = t.game.figures
    board = "KD 9S 5C 4H JD" if bets[-1] == "call" else ""
    best = fame[-1] if fame else "winnings:bank"
    played = run(t, showdown(t), "AH 7C AS 2D " + board, bet=bets, winnings=best, free_move="free_move:stay")
    asked = played.of("winnings")[0]
    assert [o.id for o in asked.options if o.id.startswith("winnings:fame")] == fame
    assert asked.about["winnings"] == (15 if fame else 1) and t.game.duel is not None
    assert t.game.duel["winnings"] == asked.about["winnings"] and t.game.duel["pot"] == 2 * asked.about["winnings"]
    assert wyatt.fame == len(fame) and t.game.sides["lawmen"].funds == funds
    assert t.game.initiative == "lawmen" and (ringo.state == "fleeing") is (bets[-1] == "fold")


@pytest.mark.parametrize(("faces", "winner", "rolls"), [
    ("K K 9 9 A  Q Q J J 10", "lawmen", 1),  # Wyatt's King of the Hill: a full house beats two pairs
    ("9 10 J Q K  A A 9 10 J", "zombies", 1),  # a pair of Aces beats Wyatt's pair of Kings
    ("A A Q Q J  A A Q Q K  J J J Q 10  J J J 10 Q", "lawmen", 2),  # equal hands (Wyatt's Jack a King): again
])
def test_the_simple_duel_the_better_guts_roll_gains_a_fame_point_and_shoots_first(faces: str, winner: str,
                                                                                  rolls: int) -> None:
    """The seed's first idea: a Guts roll each (the rerolls kept here), the better hand wins a Fame point and
    the first shot, then the High Noon opening; no poker, no winnings."""
    from dedale.zombstone.skirmish.showdown import showdown

    t = duel_table("simple")
    t.game.figure(0).place((9, 18))  # 12 inches apart: in range of both Colts
    t.game.figure(1).place((21, 18))
    shooter, target = t.game.figures if winner == "lawmen" else t.game.figures[::-1]
    shot = NOTHING_A + " " + NOTHING_K  # the first shot: nobody is hurt
    played = run(t, showdown(t), faces + " " + shot, fame="fame:no", reaction="dodge",
                 dodge=lambda ask: ask.options[0].id, free_move="free_move:stay")
    assert not played.of("bet") and not played.of("winnings")
    assert shooter.fame == 1 and target.fame == 0 and t.game.initiative == winner
    assert t.game.duel == {"kind": "simple", "winner": winner, "folded": None, "hands": t.game.duel["hands"],
                           "rolls": rolls}
    assert len(notes(t, "guts_duel.tie")) == rolls - 1
    assert t.game.fire[0].from_ == shooter.id and t.game.fire[0].to == target.id


def test_a_scenarios_duel_kind_is_holdem_unless_it_says_simple(tmp_path: Path) -> None:
    assert HIGH_NOON.duel is not None and HIGH_NOON.duel.kind == "holdem"
    simple = load_catalogue(edited(tmp_path, "scenarios.toml", "hidden = false", 'hidden = false, kind = "simple"'))
    assert simple.scenario("high_noon").duel.kind == "simple"  # type: ignore[union-attr]
    session = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side=None, data=str(tmp_path)), 5)
    assert session.state.duel is not None and session.state.duel["kind"] == "simple"
    assert not any(e.get("for") == "duel.hole" for e in session.log)
    # its outcome follows the document's schema (the hand-kept one refused its kind and rolls)
    schemas.validate(json.loads(json.dumps(session.to_json())), dedale.schema("zombstone"))
    duel = session.state.duel
    assert GameView.from_json(session.to_json()).duel == {"kind": "simple", "winner": duel["winner"], "folded": None,
                                                          "hands": duel["hands"]}
    with pytest.raises(DedaleError) as raised:
        load_catalogue(edited(tmp_path, "scenarios.toml", "hidden = false", 'hidden = false, kind = "stud"'))
    assert "stud" in raised.value.message("en") and "holdem, simple" in raised.value.message("en")


def test_a_long_jump_may_take_both_actions() -> None:
    """The text: a long jump halves the move, and the character may use both its actions for it. Where one
    move stops at a gap's edge and two clear it, a player is offered the jump; it takes the whole activation."""
    arroyo = Battlefield(terrain=(Terrain("gap", 10, 0, 2, 36, "arroyo"),))
    t = table(("wyatt_earp", 9, 5), ("the_cajun", 30, 30), field=arroyo)
    jumps = [o for o in turn.action_ask(t, t.game.figure(0), 2, 2, [1]).options if o.id.startswith("jump:")]
    east = next(o for o in jumps if o.args["way"] == "dir.E")
    assert east.key == "skirmish.option.jump" and math.dist(east.data["to"], (15, 5)) < 1e-6
    assert not any(o.id.startswith("jump:") for o in turn.action_ask(t, t.game.figure(0), 1, 1, [1]).options)
    played = run(t, turn.activate(t, t.game.figure(0)), action=east.id)
    assert len(played.of("action")) == 1  # no action left after the jump
    assert math.dist(t.game.figure(0).pos, (15, 5)) < 1e-6


def test_an_ai_pays_for_the_chances_of_the_shots_it_takes_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shot's chance to hit is worked out as a person is offered it; an AI names its choice, so a game the
    autopilot plays works out the chance of each shot it takes for the player, and of no other: none of the AI
    opponent's, whose decisions are events too (issue 30: they cost a fifth of a game's time)."""
    from dedale.core.session import Session
    from dedale.zombstone.skirmish import session as skirmish_session
    from dedale.zombstone.skirmish.params import SkirmishParams
    from dedale.zombstone.skirmish.session import SkirmishRules

    worked: list[str] = []
    real = skirmish_session.with_chances

    def counted(t: Any, shooter: Any, shot: Any) -> Any:
        worked.append(shot.id)
        return real(t, shooter, shot)

    monkeypatch.setattr(skirmish_session, "with_chances", counted)
    game = Session(SkirmishRules, SkirmishParams(), 3)  # the player's side played by the autopilot
    game.run_autopilot()
    taken = [event["choice"] for event in game.events if event.get("choice", "").startswith(("shoot:", "aim:"))
             and event["seat"] == 0]
    assert taken and worked == taken
    assert any(event["choice"].startswith("shoot:") for event in game.events if event["seat"] == 1)

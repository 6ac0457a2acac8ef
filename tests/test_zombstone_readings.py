"""Zombstone's last departures from the text (issue 32): each rule is played as the text says by default, and
Dédale's earlier reading (or, for difficult ground, the letter) is a parameter. A test a rule: each fails on
the earlier reading. Then the faces that offer them, and the documents made before, which replay as made."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dedale.core.cards import JOKERS, Card
from dedale.core.errors import DedaleError
from dedale.core.session import Session
from dedale.i18n import say
from dedale.systems import system
from dedale.zombstone.combinatorics import multisets
from dedale.zombstone.hands import FACES, best_key, counts_of
from dedale.zombstone.policy import RollSpec, hand_keys
from dedale.zombstone.skirmish import fight, turn
from dedale.zombstone.skirmish.battlefield import Battlefield, Terrain
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.session import SkirmishRules
from dedale.zombstone.skirmish.showdown import showdown
from test_zombstone_skirmish import (
    CATALOGUE,
    NOTHING_A,
    NOTHING_K,
    discards,
    duel_table,
    hand,
    ids,
    notes,
    run,
    table,
)

DOCUMENTS = Path(__file__).parent / "data" / "zombstone"
ADOBE = Terrain("wall", 20, 2, 0.5, 10, "adobe wall", height=2)
MUD = Terrain("difficult", 10, 2, 4, 10, "mud")
FIELD = Battlefield(36, 36, (ADOBE, MUD))


def faces(text: str) -> tuple[int, ...]:
    return counts_of([FACES.index(face) for face in text.split()])


# --- a wall to climb halves the move ---------------------------------------------------------------------------
def test_a_wall_to_climb_halves_the_move() -> None:
    """"Mur à escalader" is difficult ground, which "divise par deux le mouvement": a move that climbs the wall
    covers 2 of its 4 inches; one that cannot climb it in those stops at its foot."""
    assert FIELD.move((19, 4), (26, 4), 4, []) == (21, 4)  # 1 to the wall, over it: 2 in all
    assert FIELD.move((17, 4), (26, 4), 4, []) == (20, 4)  # 3 to the wall: 2 would not climb it, so it stops
    assert FIELD.move((15, 4), (19, 4), 4, []) == (19, 4)  # a move short of the wall is not slowed


def test_a_wall_read_by_the_inch_costs_two_inches_an_inch() -> None:
    """`climb="per_inch"` (Dédale's reading before): only the inches over the wall cost two."""
    per_inch = FIELD.read_as("per_inch", "per_inch")
    assert per_inch.move((19, 4), (26, 4), 4, []) == (22.5, 4)  # 1, then 0.5 over the wall for 1, then 2
    assert per_inch.move((17, 4), (26, 4), 4, []) == (20.5, 4)
    assert FIELD.read_as("halve_move", "per_inch") is FIELD  # its own reading: itself, with what it remembers


def test_difficult_ground_costs_by_the_inch_unless_read_as_halving_the_move() -> None:
    """Difficult ground "divise par deux le mouvement": by default (a reading) only the inches over it cost two;
    `difficult="halve_move"`, the letter: a move that enters it covers half its inches."""
    assert FIELD.move((9, 4), (20, 4), 4, []) == (11.5, 4)  # 1 to the mud, then 3 worth 1.5 in it
    letter = FIELD.read_as("halve_move", "halve_move")
    assert letter.move((9, 4), (20, 4), 4, []) == (11, 4)  # half the move: 2 inches
    assert letter.move((7, 4), (20, 4), 4, []) == (10, 4)  # 3 to the mud: it stops at its edge
    with pytest.raises(DedaleError) as raised:
        Battlefield(36, 36, (MUD,), difficult="thrice")
    assert "halve_move, per_inch" in raised.value.message("en")


def test_the_table_moves_as_its_readings_say() -> None:
    t = table(("deputy", 19, 4), ("zombie", 30, 30), field=FIELD)
    assert t.field.move((19, 4), (26, 4), 4, []) == (21, 4)
    t.climb = "per_inch"
    assert t.field.move((19, 4), (26, 4), 4, []) == (22.5, 4)


# --- an Aimed shot costs a Joker ---------------------------------------------------------------------------------
def test_an_aimed_shot_costs_a_joker() -> None:
    """Precise aims "sans dépenser de carte Joker": the Aimed shot costs a Joker, within the Hand."""
    t = table(("virgil_earp", 10, 18), ("the_cajun", 16, 18), hands={"lawmen": "KH 3C JKS"})
    played = run(t, turn.activate(t, t.game.figure(0)), NOTHING_A + " " + NOTHING_K, action="aim:1",
                 reaction="return")
    assert notes(t, "aim_paid")[0]["card"] == "JKS" and discards(t) == ["JKS"] and hand(t, "lawmen") == ["KH", "3C"]
    assert notes(t, "confront")[0]["a_rerolls"] == 2 + 1 and len(played.of("action")) == 1


def test_no_aimed_shot_without_a_joker() -> None:
    t = table(("virgil_earp", 10, 18), ("the_cajun", 16, 18), hands={"lawmen": "KH 9D 5S 3C"})
    played = run(t, turn.activate(t, t.game.figure(0)), action="end")
    assert "shoot:1" in ids(played.asks[0]) and "aim:1" not in ids(played.asks[0])


def test_the_inspiration_deck_holds_two_jokers_that_are_no_face_and_no_suit() -> None:
    session = Session(SkirmishRules, SkirmishParams(side="lawmen"), 1)
    game = session.state
    cards = [*game.deck.pile, *game.deck.discards, *(c for side in game.sides.values() for c in side.hand)]
    assert len(cards) == 54 and all(joker in cards for joker in JOKERS)
    red = Card.parse("JKH")
    assert red.joker and red.red and Card.parse("jks").code == "JKS" and red.short("fr") == "Joker"
    assert turn._card_value(red) < turn._card_value(Card.parse("2C"))  # never worth playing for the initiative
    wyatt = table(("wyatt_earp", 10, 18), ("zombie", 20, 18), hands={"lawmen": "JKH"})
    wyatt.game.figure(0).ticked = 5
    played = run(wyatt, fight.damage(wyatt, wyatt.game.figure(0), 1, wyatt.game.figure(1)))
    assert not played.asks and wyatt.game.figure(0).state == "out"  # a red Joker is no heart for Last Breath
    old = Session(SkirmishRules, SkirmishParams(side="lawmen", aim_cost="any_card"), 1).state
    assert not any(c.joker for c in [*old.deck.pile, *(c for side in old.sides.values() for c in side.hand)])


# --- a skill turns a die showing a figure --------------------------------------------------------------------------
@pytest.mark.parametrize(("rolled", "reading", "made"), [
    ("Q Q 10 9 A", "face", "pair"),  # A certain taste: no Jack nor King to turn, the 10 is no figure
    ("Q Q 10 9 A", "any", "three"),  # any die (Dédale's reading before): the 10 a Queen
    ("Q Q J 9 A", "face", "three"),  # the Jack a Queen
])
def test_a_certain_taste_turns_only_a_die_showing_a_figure(rolled: str, reading: str, made: str) -> None:
    """"Ike peut transformer un de ses dés indiquant une figure quelconque en Dame": a Jack or a King (a Queen
    already is one), not a 9, a 10 or an Ace."""
    t = table(("ike_clanton", 10, 18), ("deputy", 20, 18))
    t.turned_die = reading
    spec = fight.spec_for(t, t.game.figure(0), 0)
    assert fight.HANDS[best_key(fight.with_skill(faces(rolled), spec.skill))[0]] == made


@pytest.mark.parametrize(("rolled", "card", "reading", "made"), [
    ("Q Q 10 9 A", "JH", "face", "pair"),  # the Jack is a card, not a die: nothing to turn
    ("Q Q 10 9 A", "JH", "any", "three"),  # Dédale's reading before turned any face, a card's too
    ("Q Q J 9 A", "KH", "face", "three"),  # a die's Jack turned, the card beside it
])
def test_a_skill_turns_a_die_never_a_card_played_beside_it(rolled: str, card: str, reading: str, made: str) -> None:
    """"transformer un de ses dés": the inspiration cards join the dice but are not dice."""
    t = table(("ike_clanton", 10, 18), ("deputy", 20, 18))
    t.turned_die = reading
    spec = fight.spec_for(t, t.game.figure(0), 0)
    assert fight.HANDS[fight._with(faces(rolled), [Card.parse(card)], spec.skill)[0]] == made
    odds = RollSpec(5, 0, 0, faces(card[:-1]), spec.skill)
    assert fight.HANDS[hand_keys(odds)[multisets(5).index(faces(rolled))][0]] == made  # the exact odds read so


def test_king_of_the_hill_reads_the_same_words() -> None:
    t = table(("wyatt_earp", 10, 18), ("zombie", 20, 18))
    skill = fight.spec_for(t, t.game.figure(0), 0).skill
    assert fight.HANDS[best_key(fight.with_skill(faces("K K 9 10 A"), skill))[0]] == "pair"
    assert fight.HANDS[best_key(fight.with_skill(faces("K K J 10 A"), skill))[0]] == "three"


# --- the Hand counts every card of an activation or a reaction -------------------------------------------------
@pytest.mark.parametrize(("reading", "cards", "state"), [
    ("activation", ["cards:QH"], "fleeing"),  # the Hand of 1 spent on the defence: the Guts test has no card
    ("apart", ["cards:QH", "cards:KH"], "ready"),  # Dédale's reading before: a second card completes the test
])
def test_a_guts_test_shares_the_hand_of_the_reaction_it_is_part_of(reading: str, cards: list[str],
                                                                   state: str) -> None:
    """"Un joueur ne peut utiliser plus de cartes que précisé par la caractéristique Main d'un personnage, que ce
    soit à son activation, ou alors en réaction": a deputy (Hand 1) hit while dodging plays the Queen on its
    roll, is wounded and tests its Guts within the same reaction."""
    t = table(("the_cajun", 10, 18), ("deputy", 16, 18), hands={"lawmen": "QH KH"})
    t.card_limit = reading
    cajun, deputy = t.game.figures
    deputy.ticked = 3
    shot = "A A A K Q  9 9 10 J Q"  # three Aces; a pair of nines the Queen of hearts makes two pairs
    played = run(t, fight.confront(t, cajun, deputy, False, False, [2]), shot + "  9 9 10 J K", cards=cards,
                 reaction="dodge", dodge=lambda ask: ask.options[0].id)
    assert deputy.wounded and deputy.ticked == 5 and len(played.of("cards")) == len(cards)
    assert deputy.state == state and hand(t, "lawmen") == ([] if reading == "apart" else ["KH"])


# --- the duel's winner takes the stakes ---------------------------------------------------------------------------
@pytest.mark.parametrize(("bets", "fame", "funds"), [
    (["allin", "call"], "winnings:fame:4", 2),  # the whole pot, $30: 4 Fame points, $2 left
    (["bet:2", "fold"], "winnings:bank", 2),  # Ringo folds: both antes, $2 (the uncalled bet went back)
])
def test_the_duels_winner_takes_the_stakes(bets: list[str], fame: str, funds: int) -> None:
    """"Le vainqueur remporte les mises": the winner may spend the whole pot, $7 a Fame point."""
    t = duel_table("holdem")
    wyatt = t.game.figure(0)
    board = "KD 9S 5C 4H JD" if bets[-1] == "call" else ""
    played = run(t, showdown(t), "AH 7C AS 2D " + board, bet=bets, winnings=fame, free_move="free_move:stay")
    asked = played.of("winnings")[0]
    assert t.game.duel is not None and asked.about["winnings"] == t.game.duel["pot"] == t.game.duel["winnings"]
    assert wyatt.fame == (4 if fame.endswith("4") else 0) and t.game.sides["lawmen"].funds == funds


# --- the simple duel, wherever a duel is chosen -------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["simple", "holdem"])
def test_a_duel_scenario_opens_with_the_duel_chosen(kind: str) -> None:
    game = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side=None, duel=kind), 3).state
    assert game.duel is not None and ("kind" in game.duel) is (kind == "simple")  # a poker duel's has no kind
    assert SkirmishParams.from_options({"duel": "simple"}, web=True).duel == "simple"
    corral = Session(SkirmishRules, SkirmishParams(side=None, duel="simple"), 3).state
    assert corral.duel is None  # no duel in the scenario: nothing to choose


# --- the faces ----------------------------------------------------------------------------------------------------
def test_play_side_none_lets_two_ais_play_and_simulate_lists_every_scenario(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("zombstone", "play", "--side", "none", "--seed", "1", "--scenario", "clum_ride")
    assert code == 0 and not err and "The session is over" in out
    code, out, _ = cli("zombstone", "simulate", "--help")
    flat = " ".join(out.replace("│", " ").split())
    assert code == 0 and all(scenario in flat for scenario in CATALOGUE.scenarios)
    code, out, _ = cli("zombstone", "play", "--help")
    assert code == 0 and all(option in out for option in ("--climb", "--aim-cost", "--turned-die", "--card-limit",
                                                          "--winnings", "--duel"))


# --- documents made before -------------------------------------------------------------------------------------
def test_a_version_3_document_opens_as_it_was_saved_and_says_why_it_cannot_go_on() -> None:
    """A High Noon saved by version 3 (made by its code) was played by Dédale's earlier readings and the AI before
    issue 32, none of which is kept to replay it: it opens archived, exactly as saved (shown, drawn, exported),
    and one line says why it cannot be continued."""
    old = json.loads((DOCUMENTS / "version3.json").read_text(encoding="utf-8"))
    assert old["version"] == 3 and not old["over"]
    session = Session.opened(SkirmishRules, old)
    assert session.archived is not None and session.to_json() == old and session.seat_json() == old
    why = say(session.archived, "en")
    assert "version 3" in why and "cannot be continued" in why and "\n" not in why
    assert session.is_over and session.choices() == [] and session.seed == old["seed"]
    with pytest.raises(DedaleError, match="cannot be continued"):
        session.step("end")
    with pytest.raises(DedaleError, match="cannot be continued"):
        session.auto_step()
    assert system("zombstone").export(session.seat_json(), ".svg").startswith(b"<svg")
    with pytest.raises(DedaleError):  # to be continued, a document must replay
        Session.from_json(SkirmishRules, old)
    with pytest.raises(DedaleError):  # this version's must replay: one that does not was changed since
        Session.opened(SkirmishRules, {**old, "version": SkirmishRules.version})

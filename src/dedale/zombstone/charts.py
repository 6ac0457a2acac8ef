"""The odds tables a designer reads: hand distributions for every Potential from -4 to 5 under every
objective (and with no card, or one card of a given face), Guts success, and confrontations for every
pair of Potentials with weapons, cover and both reactions (win, tie, loss, expected damage)."""

from __future__ import annotations

from typing import Any

from dedale.zombstone.chances import GUTS, Odds, odds
from dedale.zombstone.confront import Situation, confront
from dedale.zombstone.hands import FACES, HANDS, POTENTIALS, counts_of, parse_hand
from dedale.zombstone.policy import RollSpec

SHOOTING_WEAPONS = ("light_colt", "heavy_colt", "shotgun")  # damage +0, +1, +2
MELEE_WEAPONS = ("fists", "improvised", "sabre", "spear")  # -1 (and a die fewer), 0, +1, +2


def spec_for(potential: int, card: int | None = None, rounds: int = 1) -> RollSpec:
    cards = counts_of([card]) if card is not None else (0, 0, 0, 0, 0, 0)
    return RollSpec.from_potential(potential, rounds, cards)


def goal_for(objective: str, target: str | None) -> int | None:
    """The hand a roll aims at: the one named, else Guts' pair when aiming at a target, else none (rank)."""
    return parse_hand(target) if target else (GUTS if objective == "target" else None)


def situation_for(attacker: int, defender: int, melee: bool = False, cover: str | None = None,
                  reaction: str = "dodge", attacker_weapon: str | None = None, defender_weapon: str | None = None,
                  objective: str = "win", unarmed_malus: str = "first_roll") -> Situation:
    """A confrontation, each side armed by default as the rules arm a model (a Light Colt, or an improvised
    weapon in melee)."""
    default = "improvised" if melee else "light_colt"
    return Situation(attacker, defender, melee, cover, reaction, attacker_weapon or default,
                     defender_weapon or default, objective, unarmed_malus=unarmed_malus)


def odds_by_potential(objective: str, goal: int | None, card: int | None = None, rounds: int = 1) -> dict[int, Odds]:
    return {p: odds(spec_for(p, card, rounds), objective, goal) for p in POTENTIALS}


def hand_tables(cards: tuple[int | None, ...] = (None, *range(6))) -> list[dict[str, Any]]:
    """Every Potential, every card option, every objective: rank, and target for each hand."""
    rows = []
    for card in cards:
        for potential in POTENTIALS:
            spec = spec_for(potential, card)
            found: list[tuple[str, int | None, Odds]] = [("rank", None, odds(spec, "rank"))]
            found += [("target", t, odds(spec, "target", t)) for t in range(1, len(HANDS))]
            for objective, target, result in found:
                rows.append({"potential": potential, "card": None if card is None else FACES[card],
                             "objective": objective, "target": None if target is None else HANDS[target],
                             "hands": [float(result.probability(i)) for i in range(len(HANDS))],
                             "expected_rank": float(result.expected_rank()),
                             "at_least_target": None if target is None else float(result.at_least(target))})
    return rows


def guts(potential: int, card: int | None = None) -> float:
    """The chance to pass a Guts test (two pairs or better), rerolling for it."""
    return float(odds(spec_for(potential, card), "target", GUTS).at_least(GUTS))


def situations() -> list[Situation]:
    """Every confrontation the tables cover, for every pair of Potentials."""
    found = []
    for attacker in POTENTIALS:
        for defender in POTENTIALS:
            for cover in (None, "light", "heavy"):
                for weapon_a in SHOOTING_WEAPONS:
                    found.append(Situation(attacker, defender, cover=cover, attacker_weapon=weapon_a))
                    found += [Situation(attacker, defender, cover=cover, reaction="return", attacker_weapon=weapon_a,
                                        defender_weapon=weapon_d) for weapon_d in SHOOTING_WEAPONS]
            found += [Situation(attacker, defender, melee=True, attacker_weapon=a, defender_weapon=d)
                      for a in MELEE_WEAPONS for d in MELEE_WEAPONS]
    return found


def confrontation_tables() -> list[dict[str, Any]]:
    """Every confrontation of `situations()`, in that order, computed defence by defence: a defender
    answers the attacker's dice whatever its rerolls, so the attackers rolling the same dice against the same
    defender are worked out together, while the engine still holds what they share."""
    found = situations()
    by_defence: dict[tuple[int, RollSpec, bool], list[Situation]] = {}
    for situation in found:
        attacker, defender, defender_deals = situation.specs()
        by_defence.setdefault((attacker.dice, defender, defender_deals), []).append(situation)
    outcomes = {situation: confront(situation) for group in by_defence.values() for situation in group}
    return [outcomes[situation].to_json() for situation in found]

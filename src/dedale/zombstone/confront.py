"""Confrontations (`zombstone.md`): both sides roll, the better hand wins, and the loser loses cartridges.

Damage is `1 + winner's rank - loser's rank`, plus the winner's weapon, never below 0; a winner holding
Nothing deals none, nor does an exact tie. Shooting: the target dodges (only the shooter can deal damage)
or returns fire at Potential -2 (both can); light cover takes a reroll die off the shooter, heavy cover
gives the target one more, and under return fire every cover is light and hampers both. Melee: both can
deal damage; one without a melee weapon rolls a die fewer on its first roll.

The attacker rolls and rerolls first; the defender sees the attacker's dice. Each plays optimally for the
objective, the defender to minimise what the attacker gains (`win`: the chance of beating it, less the
chance of being beaten when the defender can deal damage; `damage`: the damage dealt, less the damage
taken). The result is exact: integer counts out of 6^(dice x (rounds + 1)) for each side.

The defender answers the attacker's final hand, whatever rerolls made it, so one defence serves every
Potential of the attacker rolling the same dice (`_defence`); both sides' final counts are tallied by pairs
of hand categories and the outcome (`_tally`), from which every weapon's damage follows.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from dedale.core.errors import DedaleError
from dedale.zombstone.chances import compare
from dedale.zombstone.combinatorics import roll_counts
from dedale.zombstone.hands import HANDS
from dedale.zombstone.policy import (
    UNARMED_READINGS,
    Policy,
    RollSpec,
    categories,
    final_counts,
    optimise,
    total_ways,
)
from dedale.zombstone.weapons import weapon

COVERS = (None, "light", "heavy")
HAND_CATEGORIES = np.arange(len(HANDS))
REACTIONS = ("dodge", "return")


@dataclass(frozen=True)
class Situation:
    attacker: int  # Potential
    defender: int
    melee: bool = False
    cover: str | None = None
    reaction: str = "dodge"
    attacker_weapon: str = "light_colt"
    defender_weapon: str = "light_colt"
    objective: str = "win"
    rounds: int = 1
    unarmed_malus: str = "first_roll"  # how a fighter without a melee weapon rolls (`RollSpec.unarmed`)

    def __post_init__(self) -> None:
        if self.unarmed_malus not in UNARMED_READINGS:
            raise DedaleError("error.one_of", param="unarmed_malus", value=self.unarmed_malus,
                              accepted=", ".join(UNARMED_READINGS))
        if self.cover not in COVERS:
            raise DedaleError("error.one_of", param="cover", value=self.cover, accepted="light, heavy")
        if self.reaction not in REACTIONS:
            raise DedaleError("error.one_of", param="reaction", value=self.reaction, accepted=", ".join(REACTIONS))
        if self.objective not in ("win", "damage"):
            raise DedaleError("error.one_of", param="objective", value=self.objective, accepted="win, damage")
        for side in (self.attacker_weapon, self.defender_weapon):
            weapon(side, self.melee)  # a weapon that exists, and suits the fight

    def specs(self) -> tuple[RollSpec, RollSpec, bool]:
        """Each side's roll once cover and reaction are counted, and whether the defender deals damage."""
        attacker, defender = self.attacker, self.defender
        if self.melee:
            return (_spec(attacker, self.rounds, weapon(self.attacker_weapon).unarmed, self.unarmed_malus),
                    _spec(defender, self.rounds, weapon(self.defender_weapon).unarmed, self.unarmed_malus), True)
        if self.reaction == "return":
            defender -= 2
            if self.cover:  # every cover counts as light, and hampers both shooters
                attacker, defender = attacker - 1, defender - 1
        elif self.cover == "light":
            attacker -= 1
        elif self.cover == "heavy":
            defender += 1
        return (_spec(attacker, self.rounds, False, self.unarmed_malus),
                _spec(defender, self.rounds, False, self.unarmed_malus), self.reaction == "return")


def _spec(potential: int, rounds: int, unarmed: bool, reading: str) -> RollSpec:
    return RollSpec.unarmed(potential, rounds, reading) if unarmed else RollSpec.from_potential(potential, rounds)


def damage_table(winner_category: np.ndarray, loser_category: np.ndarray, bonus: int) -> np.ndarray:
    """Damage for every pair (winner's hand, loser's hand), counted when the first wins."""
    base = 1 + winner_category[:, None] - loser_category[None, :] + bonus
    return np.where(winner_category[:, None] > 0, np.maximum(base, 0), 0)


@dataclass
class Outcome:
    situation: Situation
    win: Fraction  # the attacker wins
    tie: Fraction
    loss: Fraction
    damage_to_defender: Fraction  # expected cartridges
    damage_to_attacker: Fraction

    def to_json(self) -> dict[str, Any]:
        s = self.situation
        return {"format": "dedale/zombstone-confrontation", "version": 1, "attacker": s.attacker,
                "defender": s.defender, "melee": s.melee, "cover": s.cover, "reaction": s.reaction,
                "attacker_weapon": s.attacker_weapon, "defender_weapon": s.defender_weapon,
                "objective": s.objective, "rounds": s.rounds,
                **{name: {"p": float(value), "exact": f"{value.numerator}/{value.denominator}"}
                   for name, value in (("win", self.win), ("tie", self.tie), ("loss", self.loss))},
                "damage_to_defender": float(self.damage_to_defender),
                "damage_to_attacker": float(self.damage_to_attacker)}


def confront(situation: Situation) -> Outcome:
    a_spec, d_spec, defender_deals = situation.specs()
    bonus_a = weapon(situation.attacker_weapon).damage
    bonus_d = weapon(situation.defender_weapon).damage if defender_deals else 0
    tally = _tally(a_spec, d_spec, defender_deals, *_stakes(bonus_a, bonus_d, situation.objective))
    wins, ties, losses = tally[:, :, 2], tally[:, :, 1], tally[:, :, 0]
    total = total_ways(a_spec) * total_ways(d_spec)

    def share(counts: np.ndarray, weights: np.ndarray | int = 1) -> Fraction:
        return Fraction(int((counts * weights).sum()), total)

    hurt_back = damage_table(HAND_CATEGORIES, HAND_CATEGORIES, bonus_d).T if defender_deals else 0
    return Outcome(situation, share(wins), share(ties), share(losses),
                   share(wins, damage_table(HAND_CATEGORIES, HAND_CATEGORIES, bonus_a)), share(losses, hurt_back))


def hit_chance(a_spec: RollSpec, d_spec: RollSpec, defender_deals: bool) -> Fraction:
    """The chance that the attacker wins with a hand better than Nothing (a hit, which deals damage), both
    sides playing to win: from the same tally as `confront`."""
    tally = _tally(a_spec, d_spec, defender_deals, 0, 0, "win")
    return Fraction(int(tally[1:, :, 2].sum()), total_ways(a_spec) * total_ways(d_spec))


def net_damage(a_spec: RollSpec, d_spec: RollSpec, defender_deals: bool, bonus_a: int, bonus_d: int) -> Fraction:
    """The damage the attacker deals on average (its weapon's `bonus_a` with it), less what it takes from a
    defender that deals damage (`bonus_d`), both sides playing to win: from the same tally as `confront`."""
    tally = _tally(a_spec, d_spec, defender_deals, 0, 0, "win")
    net = (tally[:, :, 2] * damage_table(HAND_CATEGORIES, HAND_CATEGORIES, bonus_a)).sum()
    if defender_deals:
        net -= (tally[:, :, 0] * damage_table(HAND_CATEGORIES, HAND_CATEGORIES, bonus_d).T).sum()
    return Fraction(int(net), total_ways(a_spec) * total_ways(d_spec))


@dataclass(frozen=True)
class Play:
    """Both sides' optimal policies in a confrontation, and what every pair of final hands means."""

    attacker: Policy
    defender: Policy  # one column per attacker final: the defender sees the attacker's dice
    versus: np.ndarray  # attacker final x defender final: 1 the attacker wins, -1 it loses, 0 a tie
    to_defender: np.ndarray  # the damage each pair deals
    to_attacker: np.ndarray


def play(situation: Situation) -> Play:
    a_spec, d_spec, defender_deals = situation.specs()
    bonus_d = weapon(situation.defender_weapon).damage if defender_deals else 0
    return _play(a_spec, d_spec, defender_deals, weapon(situation.attacker_weapon).damage, bonus_d,
                 situation.objective)


def _play(a_spec: RollSpec, d_spec: RollSpec, defender_deals: bool, bonus_a: int, bonus_d: int,
          objective: str) -> Play:
    versus = compare(a_spec, d_spec)
    cat_a, cat_d = categories(a_spec), categories(d_spec)
    to_defender = np.where(versus > 0, damage_table(cat_a, cat_d, bonus_a), 0)
    to_attacker = np.where(versus < 0, damage_table(cat_d, cat_a, bonus_d).T, 0) if defender_deals else 0 * versus
    attacker, defender, _ = policies(a_spec, d_spec, defender_deals, *_stakes(bonus_a, bonus_d, objective))
    return Play(attacker, defender, versus, to_defender, to_attacker)


def payoff(a_spec: RollSpec, d_spec: RollSpec, defender_deals: bool, bonus_a: int = 0, bonus_d: int = 0,
           objective: str = "win") -> np.ndarray:
    """What the attacker gains for each pair of final hands (attacker x defender): for `win`, 1 when it
    wins, less 1 when it loses to a defender that deals damage; for `damage`, the damage dealt less taken."""
    versus = compare(a_spec, d_spec)
    if objective == "win":
        return (versus > 0).astype(np.int64) - ((versus < 0) if defender_deals else 0)
    cat_a, cat_d = categories(a_spec), categories(d_spec)
    gained = np.where(versus > 0, damage_table(cat_a, cat_d, bonus_a), 0)
    if defender_deals:
        gained = gained - np.where(versus < 0, damage_table(cat_d, cat_a, bonus_d).T, 0)
    return gained


def policies(a_spec: RollSpec, d_spec: RollSpec, defender_deals: bool, bonus_a: int = 0, bonus_d: int = 0,
             objective: str = "win") -> tuple[Policy, Policy, np.ndarray]:
    """Both sides' optimal policies, and the attacker's value of each of its final hands."""
    return _policies(a_spec, d_spec, defender_deals, *_stakes(bonus_a, bonus_d, objective))


@lru_cache(maxsize=64)  # keyed on every argument, however the caller passed them (`_stakes`: weapons for damage only)
def _policies(a_spec: RollSpec, d_spec: RollSpec, defender_deals: bool, bonus_a: int, bonus_d: int,
              objective: str) -> tuple[Policy, Policy, np.ndarray]:
    defender, gain = _defence(_hands_of(a_spec), d_spec, defender_deals, bonus_a, bonus_d, objective)
    return optimise(a_spec, gain), defender, gain


def _hands_of(spec: RollSpec) -> RollSpec:
    """The roll without its rerolls: the same final hands. The defender answers the attacker's final hand,
    whatever rerolls made it, so every Potential rolling the same dice meets the same defence."""
    return replace(spec, budget=0, rounds=0)


def _stakes(bonus_a: int, bonus_d: int, objective: str) -> tuple[int, int, str]:
    """The weapons count for `damage` only: for `win`, every weapon shares the same policies."""
    return (bonus_a, bonus_d, objective) if objective == "damage" else (0, 0, objective)


@lru_cache(maxsize=64)  # about 1 MB each; the tables compute defence by defence (charts.confrontation_tables)
def _defence(a_hands: RollSpec, d_spec: RollSpec, defender_deals: bool, bonus_a: int, bonus_d: int,
             objective: str) -> tuple[Policy, np.ndarray]:
    """The defender's optimal policy against each of the attacker's final hands (a column each), and the
    attacker's value of each of them."""
    defender = optimise(d_spec, -payoff(a_hands, d_spec, defender_deals, bonus_a, bonus_d, objective).T)
    # The attacker's value of each of its finals: the defender's optimal value, summed over its first rolls
    # (scaled by the same 6^(dice x (rounds + 1)) as counting its final hands, without counting them).
    return defender, -(roll_counts(d_spec.dice).astype(np.float64) @ defender.values)


@lru_cache(maxsize=64)
def _answers(a_hands: RollSpec, d_spec: RollSpec, defender_deals: bool, bonus_a: int, bonus_d: int,
             objective: str) -> np.ndarray:
    """Against each of the attacker's final hands, how many of the defender's ways end in each of its hand
    categories and each outcome: A[attacker final, 3 x defender's category + 0 loss / 1 tie / 2 win]."""
    defender, _ = _defence(a_hands, d_spec, defender_deals, bonus_a, bonus_d, objective)
    versus, cat_d = compare(a_hands, d_spec), categories(d_spec)
    cell = cat_d[None, :] * 3 + versus + 1 + 3 * len(HANDS) * np.arange(len(versus))[:, None]
    counts = np.bincount(cell.ravel(), weights=final_counts(defender).T.ravel(), minlength=3 * len(HANDS) * len(versus))
    return counts.reshape(len(versus), 3 * len(HANDS)).astype(np.int64)


@lru_cache(maxsize=1024)
def _tally(a_spec: RollSpec, d_spec: RollSpec, defender_deals: bool, bonus_a: int, bonus_d: int,
           objective: str) -> np.ndarray:
    """How many of the ways both sides can roll, under both optimal policies, end with each pair of hand
    categories and each outcome: T[attacker's category, defender's category, 0 loss / 1 tie / 2 win].
    Weapons only count through the categories (damage), so seven by seven cells say all an outcome needs."""
    attacker = policies(a_spec, d_spec, defender_deals, bonus_a, bonus_d, objective)[0]
    answers = _answers(_hands_of(a_spec), d_spec, defender_deals, bonus_a, bonus_d, objective)
    # Weighted by the attacker's own final counts, summed by its category: in Python integers when the
    # counts of both sides multiplied could pass int64 (more than one round of rerolls).
    exact = np.int64 if total_ways(a_spec) * total_ways(d_spec) < 2**63 else object
    weights = (categories(a_spec)[None, :] == HAND_CATEGORIES[:, None]) * final_counts(attacker)[None, :]
    return (weights.astype(exact) @ answers.astype(exact)).reshape(len(HANDS), len(HANDS), 3)

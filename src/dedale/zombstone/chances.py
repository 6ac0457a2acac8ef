"""One side's exact odds: the hand distribution under an optimal reroll policy for an objective.

Objectives (`zombstone.md`): `target` (reach at least a hand: the Guts test is two pairs), `rank` (the
best expected hand rank), `win` (beat an opponent's known hand, or its distribution of hands) and
`damage` (the most expected damage dealt to that opponent).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from dedale.core.errors import DedaleError
from dedale.zombstone.hands import HANDS
from dedale.zombstone.policy import Policy, RollSpec, categories, final_counts, hand_scores, optimise, total_ways

OBJECTIVES = ("target", "rank", "win", "damage")
GUTS = HANDS.index("two_pairs")


@dataclass
class Odds:
    spec: RollSpec
    objective: str
    target: int | None
    counts: list[int]  # per hand category, out of `total`
    total: int
    policy: Policy

    def probability(self, category: int) -> Fraction:
        return Fraction(self.counts[category], self.total)

    def at_least(self, category: int) -> Fraction:
        return Fraction(sum(self.counts[category:]), self.total)

    def expected_rank(self) -> Fraction:
        return Fraction(sum(c * n for c, n in enumerate(self.counts)), self.total)

    def to_json(self, potential: int) -> dict[str, Any]:
        return {"format": "dedale/zombstone-odds", "version": 1, "potential": potential,
                "objective": self.objective, "target": None if self.target is None else HANDS[self.target],
                "dice": self.spec.dice, "rerolls": self.spec.budget, "rounds": self.spec.rounds,
                "hands": {name: {"p": float(self.probability(i)), "exact": _exact(self.probability(i))}
                          for i, name in enumerate(HANDS)},
                "at_least_target": None if self.target is None else _exact(self.at_least(self.target)),
                "expected_rank": float(self.expected_rank())}


def _exact(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def terminal_values(spec: RollSpec, objective: str, target: int | None = None,
                    opponent: tuple[RollSpec, np.ndarray] | None = None,
                    damage: np.ndarray | None = None) -> np.ndarray:
    """What each final multiset is worth for the objective (integers)."""
    if objective == "target":
        if target is None:
            raise DedaleError("error.no_target")
        return (categories(spec) >= target).astype(np.int64)
    if objective == "rank":
        return categories(spec)
    if opponent is None:
        raise DedaleError("error.no_opponent", objective=objective)
    other, other_counts = opponent
    beats = compare(spec, other) > 0
    gains = beats if objective == "win" else np.where(beats, damage if damage is not None else 0, 0)
    return (gains.astype(np.int64) * other_counts[None, :]).sum(axis=1)


def compare(a: RollSpec, b: RollSpec) -> np.ndarray:
    """M[i, j]: 1 if a's final multiset i beats b's j, -1 if it loses, 0 for a tie."""
    return np.sign(hand_scores(a)[:, None] - hand_scores(b)[None, :])


def odds(spec: RollSpec, objective: str = "rank", target: int | None = None,
         opponent: tuple[RollSpec, np.ndarray] | None = None, damage: np.ndarray | None = None) -> Odds:
    if objective not in OBJECTIVES:
        raise DedaleError("error.one_of", param="objective", value=objective, accepted=", ".join(OBJECTIVES))
    policy = optimise(spec, terminal_values(spec, objective, target, opponent, damage))
    counts, kinds = final_counts(policy), categories(spec)
    per_category = [int(counts[kinds == c].sum()) for c in range(len(HANDS))]
    return Odds(spec, objective, target, per_category, total_ways(spec), policy)


def whole_percent(chance: Fraction | float) -> str:
    """A chance in whole percents, as a player reads it beside a choice ("62"): "<1" or ">99" rather than a
    rounded 0 or 100 that is not so."""
    shown = round(float(chance) * 100)
    if shown == 0 and chance > 0:
        return "<1"
    if shown == 100 and chance < 1:
        return ">99"
    return str(shown)

"""Optimal rerolls, computed exactly.

A side's roll: `dice` on the first roll, then `rounds` reroll rounds of at most `budget` dice, then its
cards (faces added to the dice: the hand is the best five) and perhaps a skill turning a die into a King
or a Queen. Given a value for every final multiset, the best choice of dice to keep is found backwards,
round by round: the value of a keep is the sum of the final values over the ways the rerolled dice can
fall (integer counts, so nothing is rounded), and each multiset keeps what is worth most (ties: keep more
dice). Then the exact distribution of final multisets under that policy follows, forwards.

Matrix products run in float64, which is exact for the integers involved (always below 2^53).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from dedale.zombstone.combinatorics import allowed_keeps, multisets, roll_counts, transitions
from dedale.zombstone.hands import Counts, best_key, plus, with_skill

MAX_ROUNDS = 3  # 6^(5 x 4) ordered outcomes still fit an int64


@dataclass(frozen=True)
class RollSpec:
    """How a side rolls: its dice, its reroll budget and rounds, its cards and its skill."""

    dice: int = 5
    budget: int = 0
    rounds: int = 1
    cards: Counts = (0, 0, 0, 0, 0, 0)
    skill: int | None = None  # a face one die may be turned into (K or Q)

    @classmethod
    def from_potential(cls, potential: int, rounds: int = 1, cards: Counts = (0, 0, 0, 0, 0, 0),
                       skill: int | None = None, first_roll_malus: int = 0) -> RollSpec:
        """A Potential of P: P reroll dice when positive; a negative one takes dice off the first roll.
        At least one die is always rolled."""
        dice = max(1, 5 + min(potential, 0) - first_roll_malus)
        return cls(dice, max(potential, 0), rounds if potential > 0 else 0, cards, skill)


@cache
def hand_keys(spec: RollSpec) -> tuple[tuple[int, ...], ...]:
    """The hand each final multiset of the spec's dice makes, with its cards and skill."""
    keys = []
    for counts in multisets(spec.dice):
        keys.append(best_key(with_skill(plus(counts, spec.cards), spec.skill)))
    return tuple(keys)


def categories(spec: RollSpec) -> np.ndarray:
    return np.array([k[0] for k in hand_keys(spec)], dtype=np.int64)


@dataclass(eq=False)  # compared and hashed by identity: the confrontation caches key on it
class Policy:
    spec: RollSpec
    choices: list[np.ndarray]  # per round, per multiset (and per column of the values): the keep index
    values: np.ndarray  # per first-roll multiset: its value under the policy (scaled by 6^(dice x rounds))


def optimise(spec: RollSpec, terminal: np.ndarray) -> Policy:
    """The best keeps for a vector of final values (one column), or a matrix (one column per situation the
    roller knows of, such as the attacker's final hand a defender sees)."""
    n = spec.dice
    table, allowed = transitions(n).astype(np.float64), allowed_keeps(n, spec.budget)
    values = terminal.astype(np.float64)
    choices: list[np.ndarray] = []
    for _ in range(spec.rounds):
        by_keep = table @ values  # value of every keep (x 6^n)
        options = by_keep[allowed]  # multisets x allowed keeps (x columns)
        best = options.argmax(axis=1)
        choices.insert(0, np.take_along_axis(allowed if values.ndim == 1 else allowed[:, :, None],
                                             best[:, None] if values.ndim == 1 else best[:, None, :],
                                             axis=1).squeeze(1))
        values = options.max(axis=1)
    return Policy(spec, choices, values)


def final_counts(policy: Policy) -> np.ndarray:
    """How many of the 6^(dice x (rounds + 1)) ordered ways end on each final multiset (one column per
    column of the policy's values)."""
    spec = policy.spec
    table = transitions(spec.dice)
    counts = roll_counts(spec.dice)
    columns = policy.values.shape[1] if policy.values.ndim == 2 else None
    current = counts if columns is None else np.repeat(counts[:, None], columns, axis=1)
    for choice in policy.choices:
        following = np.zeros_like(current)
        for start in range(len(current)):
            if columns is None:
                following += current[start] * table[choice[start]]
            else:  # following[final, column] += current[start, column] * table[keep of that column, final]
                following += table[choice[start]].T * current[start]
        current = following
    return current


def total_ways(spec: RollSpec) -> int:
    return 6 ** (spec.dice * (spec.rounds + 1))

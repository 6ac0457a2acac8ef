"""Optimal rerolls, computed exactly.

A side's roll: `dice` on the first roll, then `rounds` reroll rounds of at most `budget` dice, then its
cards (faces added to the dice: the hand is the best five) and perhaps a skill turning a die into a King
or a Queen. Given a value for every final multiset, the best choice of dice to keep is found backwards,
round by round: the value of a keep is the sum of the final values over the ways the rerolled dice can
fall (integer counts, so nothing is rounded), and each multiset keeps what is worth most (ties: keep more
dice). Then the exact distribution of final multisets under that policy follows, forwards.

The sums over rerolled dice (`keep_values`, `spread`) run in float64, which is exact for the integers
involved (always below 2^53).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from dedale.zombstone.combinatorics import allowed_keeps, keep_values, keeps, multisets, roll_counts, spread
from dedale.zombstone.hands import Counts, Turn, best_key, with_skill

MAX_ROUNDS = 3  # 6^(5 x 4) ordered outcomes still fit an int64


UNARMED_READINGS = ("first_roll", "potential")  # the text's "base die" first


@dataclass(frozen=True)
class RollSpec:
    """How a side rolls: its dice, its reroll budget and rounds, its cards and its skill."""

    dice: int = 5
    budget: int = 0
    rounds: int = 1
    cards: Counts = (0, 0, 0, 0, 0, 0)
    skill: Turn | None = None  # a skill turning one die into a King or a Queen

    @classmethod
    def unarmed(cls, potential: int, rounds: int = 1, reading: str = "first_roll", skill: Turn | None = None
                ) -> RollSpec:
        """The roll of a fighter in contact without a melee weapon: "a malus of one base die". Read as the
        text says it, one die off the first roll, a base die (`first_roll`, the default), or as the text reads
        its other maluses, one Potential die off (`potential`, Dédale's reading before)."""
        if reading == "first_roll":
            return cls.from_potential(potential, rounds, skill=skill, first_roll_malus=1)
        return cls.from_potential(potential - 1, rounds, skill=skill)

    @classmethod
    def from_potential(cls, potential: int, rounds: int = 1, cards: Counts = (0, 0, 0, 0, 0, 0),
                       skill: Turn | None = None, first_roll_malus: int = 0) -> RollSpec:
        """A Potential of P: P reroll dice when positive; a negative one takes dice off the first roll.
        At least one die is always rolled."""
        dice = max(1, 5 + min(potential, 0) - first_roll_malus)
        return cls(dice, max(potential, 0), rounds if potential > 0 else 0, cards, skill)


@cache
def hand_keys(spec: RollSpec) -> tuple[tuple[int, ...], ...]:
    """The hand each final multiset of the spec's dice makes, with its cards and skill."""
    keys = []
    for counts in multisets(spec.dice):
        keys.append(best_key(with_skill(counts, spec.skill, spec.cards)))
    return tuple(keys)


@cache
def hand_scores(spec: RollSpec) -> np.ndarray:
    """Each final multiset's hand as one integer, ordered as the hands are: its key's numbers as digits in
    base 8 (the category, then faces 1 to 6), a key too short for five faces ending in zeros (as a shorter
    key comes first)."""
    scores = np.zeros(len(multisets(spec.dice)), dtype=np.int64)
    for i, hand in enumerate(hand_keys(spec)):
        digits = [hand[0], *(face + 1 for face in hand[1:])]
        scores[i] = sum(digit * 8 ** (5 - place) for place, digit in enumerate(digits))
    scores.flags.writeable = False  # cached and shared
    return scores


def categories(spec: RollSpec) -> np.ndarray:
    return np.array([k[0] for k in hand_keys(spec)], dtype=np.int64)


@dataclass(eq=False)  # compared and hashed by identity: arrays have no == to compare by
class Policy:
    spec: RollSpec
    choices: list[np.ndarray]  # per round, per multiset (and per column of the values): the keep index
    values: np.ndarray  # per first-roll multiset: its value under the policy (scaled by 6^(dice x rounds))


def optimise(spec: RollSpec, terminal: np.ndarray) -> Policy:
    """The best keeps for a vector of final values (one column), or a matrix (one column per situation the
    roller knows of, such as the attacker's final hand a defender sees)."""
    values = terminal.astype(np.float64)
    choices: list[np.ndarray] = []
    for _ in range(spec.rounds):
        choice, values = _best_keeps(spec.dice, spec.budget, keep_values(spec.dice, values))  # x 6^dice
        choices.insert(0, choice)
    return Policy(spec, choices, values)


@cache
def _most_options_first(n: int, budget: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The multisets of n dice ordered by how many keeps they allow, most first; their allowed keeps in
    that order; and for each place in a row of allowed keeps, how many multisets have an option there."""
    allowed = allowed_keeps(n, budget)
    options = 1 + (allowed[:, 1:] != allowed[:, :1]).sum(axis=1)  # the padding repeats the first
    order = np.argsort(-options, kind="stable")
    return order, allowed[order], [int((options > place).sum()) for place in range(allowed.shape[1])]


def _best_keeps(n: int, budget: int, by_keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each multiset (and column), the first of its allowed keeps worth the most, and its value: one
    allowed keep after the other, a later one chosen only when worth strictly more (so more dice kept wins
    a tie, as the allowed keeps come in that order). The multisets with most options come first, so each
    step works on those that have one more; in place, as the arrays are large and allocating them dear."""
    order, allowed, having = _most_options_first(n, budget)
    column = (slice(None), None) if by_keep.ndim == 2 else (slice(None),)
    value = by_keep[allowed[:, 0]]
    best = np.empty(value.shape, dtype=np.int64)
    best[...] = allowed[:, 0][column]
    worth, better = np.empty_like(value), np.empty(value.shape, dtype=bool)
    for place in range(1, allowed.shape[1]):
        rows, option = having[place], allowed[:having[place], place]
        np.take(by_keep, option, axis=0, out=worth[:rows])
        np.greater(worth[:rows], value[:rows], out=better[:rows])
        np.copyto(value[:rows], worth[:rows], where=better[:rows])
        np.copyto(best[:rows], option[column], where=better[:rows])
    back = np.argsort(order)
    return best[back], value[back]


def final_counts(policy: Policy) -> np.ndarray:
    """How many of the 6^(dice x (rounds + 1)) ordered ways end on each final multiset (one column per
    column of the policy's values)."""
    n = policy.spec.dice
    current = roll_counts(n).astype(np.float64)
    if policy.values.ndim == 2:
        current = np.repeat(current[:, None], policy.values.shape[1], axis=1)
    for choice in policy.choices:  # every multiset's count goes to the keep it chooses, then the dice fall
        current = spread(n, _gathered(choice, current, len(keeps(n))))
    return current.astype(np.int64)


def _gathered(choice: np.ndarray, counts: np.ndarray, kept: int) -> np.ndarray:
    """The counts summed by the keep each multiset (in each column) chooses: one row per keep."""
    if counts.ndim == 1:
        return np.bincount(choice, weights=counts, minlength=kept)
    columns = counts.shape[1]
    where = (choice * columns + np.arange(columns)[None, :]).ravel()
    return np.bincount(where, weights=counts.ravel(), minlength=kept * columns).reshape(kept, columns)


def total_ways(spec: RollSpec) -> int:
    return 6 ** (spec.dice * (spec.rounds + 1))

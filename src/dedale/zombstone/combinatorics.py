"""Counting poker-dice rolls exactly, as multisets of faces.

Five dice make 7,776 ordered rolls but only 252 multisets; a kept sub-multiset and the rerolled dice make
the final multiset. Everything here is integer counts, so probabilities stay exact (a count out of 6^n).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from math import factorial
from typing import cast

import numpy as np

from dedale.zombstone.hands import Counts, counts_of, minus

SIDES = 6


@cache
def multisets(n: int) -> tuple[Counts, ...]:
    """Every multiset of n dice, as counts per face, in a fixed order."""
    return tuple(counts_of(combo) for combo in combinations_with_replacement(range(SIDES), n))


@cache
def index_of(n: int) -> dict[Counts, int]:
    return {counts: i for i, counts in enumerate(multisets(n))}


def ways(counts: Counts) -> int:
    """How many ordered rolls show this multiset (the multinomial coefficient)."""
    total = factorial(sum(counts))
    for n in counts:
        total //= factorial(n)
    return total


@cache
def roll_counts(n: int) -> np.ndarray:
    """For each multiset of n dice, how many of the 6^n ordered rolls show it."""
    return np.array([ways(c) for c in multisets(n)], dtype=np.int64)


@cache
def keeps(n: int) -> tuple[Counts, ...]:
    """Every multiset of 0 to n dice one may keep."""
    return tuple(c for m in range(n + 1) for c in multisets(m))


@cache
def transitions(n: int) -> np.ndarray:
    """T[k, f]: of the 6^n equally likely ways to reroll what keep k leaves (scaled so every keep counts
    out of 6^n), how many end on final multiset f of n dice."""
    finals = index_of(n)
    table: np.ndarray = np.zeros((len(keeps(n)), len(multisets(n))), dtype=np.int64)
    for k, kept in enumerate(keeps(n)):
        rerolled = n - sum(kept)
        scale = SIDES ** (n - rerolled)
        for outcome in multisets(rerolled):
            final = cast(Counts, tuple(a + b for a, b in zip(kept, outcome, strict=True)))
            table[k, finals[final]] += ways(outcome) * scale
    return table


@cache
def allowed_keeps(n: int, budget: int) -> np.ndarray:
    """For each multiset of n dice, the keeps one may choose rerolling at most `budget` dice, as keep
    indices padded by repeating the first (keeping everything, always allowed) to a common width."""
    keep_index = {c: i for i, c in enumerate(keeps(n))}
    rows = []
    for counts in multisets(n):
        options = sorted({minus(counts, dropped) for dropped in _sub_multisets(counts, budget)},
                         key=lambda c: (-sum(c), c))
        rows.append([keep_index[c] for c in options])
    width = max(len(r) for r in rows)
    return np.array([r + [r[0]] * (width - len(r)) for r in rows], dtype=np.int64)


def _sub_multisets(counts: Counts, most: int) -> list[Counts]:
    """Every sub-multiset of `counts` with at most `most` dice (the dice to reroll)."""
    found: list[Counts] = [cast(Counts, (0,) * SIDES)]
    for face, n in enumerate(counts):
        found = [cast(Counts, (*c[:face], take, *c[face + 1:])) for c in found for take in range(n + 1)
                 if sum(c) + take <= most]
    return found

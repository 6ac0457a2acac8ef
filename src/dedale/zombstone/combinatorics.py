"""Counting poker-dice rolls exactly, as multisets of faces.

Five dice make 7,776 ordered rolls but only 252 multisets; a kept sub-multiset and the rerolled dice make
the final multiset. Everything here is integer counts, so probabilities stay exact (a count out of 6^n).

Rerolling is worked out one die at a time over the lattice of multisets (`_grown`: a multiset with one
more die of each face, `_shrunk`: with one fewer). Rerolled dice fall one after the other, so summing a
value over the six faces of one more die, level by level, sums it over every ordered way they can fall:
`keep_values` is the product with the transition counts without building them (4,368 non-zero entries of
116,424 for five dice), `spread` the product with their transpose; both in float64 on integers, exact
below 2^53.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from math import factorial
from typing import cast

import numpy as np

from dedale.zombstone.hands import Counts, counts_of

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
    """Every multiset of 0 to n dice one may keep: those of 0 dice, then of 1, ..., then of n."""
    return tuple(c for m in range(n + 1) for c in multisets(m))


def _start(m: int) -> int:
    """Where the keeps of m dice begin among `keeps(n)`, for any n >= m."""
    return sum(len(multisets(j)) for j in range(m))


@cache
def _grown(m: int) -> np.ndarray:
    """G[k, face]: the keep (its index among `keeps`) that the multiset of m dice keep k is with a die of
    that face added."""
    following = index_of(m + 1)
    return _start(m + 1) + np.array(
        [[following[cast(Counts, (*c[:face], c[face] + 1, *c[face + 1:]))] for face in range(SIDES)]
         for c in multisets(m)], dtype=np.int64)


@cache
def _shrunk(m: int) -> np.ndarray:
    """S[k, face]: the keep (its index among `keeps`) that the multiset of m dice k is with a die of that
    face taken off, or -1 (the caller's row of zeros, after every keep) when k shows no such face."""
    table = np.full((len(multisets(m)), SIDES), -1, dtype=np.int64)
    for k, grown in enumerate(_grown(m - 1)):
        table[grown - _start(m), np.arange(SIDES)] = _start(m - 1) + k
    return table


def _sum_faces(rows: np.ndarray, table: np.ndarray, out: np.ndarray) -> None:
    """out += the rows `table` names, summed over its six faces (one gather at a time: no temporaries
    six times as large, which would cost more in fresh memory than in arithmetic)."""
    step = np.empty_like(out)
    for face in range(SIDES):
        np.take(rows, table[:, face], axis=0, out=step)
        out += step


def keep_values(n: int, values: np.ndarray) -> np.ndarray:
    """transitions(n) @ values, exactly, without the dense product: for every keep, the sum of the final
    values over the 6^n ways (scaled) the rerolled dice can fall. `values`: one row per multiset of n dice
    (a vector, or one column per situation), integers in float64."""
    summed = np.zeros((len(keeps(n)), *values.shape[1:]))  # first summed over the dice rerolled, then scaled
    summed[_start(n):] = values
    for m in range(n - 1, -1, -1):
        _sum_faces(summed, _grown(m), summed[_start(m):_start(m + 1)])
    for m in range(n + 1):
        summed[_start(m):_start(m + 1)] *= float(SIDES**m)
    return summed


def spread(n: int, kept: np.ndarray) -> np.ndarray:
    """transitions(n).T @ kept, exactly: how many ways end on each final multiset of n dice, from a count
    for every keep (a vector, or one column per situation), integers in float64."""
    reached = np.zeros((len(keeps(n)) + 1, *kept.shape[1:]))  # a keep's count and what reaches it; then 0
    reached[:-1] = kept
    for m in range(1, n + 1):
        level = reached[_start(m):_start(m + 1)]
        level *= float(SIDES**m)
        _sum_faces(reached, _shrunk(m), level)
    return reached[_start(n):-1]


@cache
def transitions(n: int) -> np.ndarray:
    """T[k, f]: of the 6^n equally likely ways to reroll what keep k leaves (scaled so every keep counts
    out of 6^n), how many end on final multiset f of n dice."""
    table = keep_values(n, np.eye(len(multisets(n)))).astype(np.int64)
    table.flags.writeable = False  # cached and shared
    return table


@cache
def _inside(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every keep in the order a tie between keeps is settled (most dice kept first, then by counts), and
    F[multiset of n dice, keep in that order]: whether the multiset holds that keep."""
    options = keeps(n)
    preferred = np.array(sorted(range(len(options)), key=lambda k: (-sum(options[k]), options[k])), dtype=np.int64)
    kept = np.array(options, dtype=np.int64)[preferred]
    return preferred, np.all(kept[None, :, :] <= np.array(multisets(n), dtype=np.int64)[:, None, :], axis=2)


@cache
def allowed_keeps(n: int, budget: int) -> np.ndarray:
    """For each multiset of n dice, the keeps one may choose rerolling at most `budget` dice, most dice
    kept first (then by counts), as keep indices padded by repeating the first (keeping everything, always
    allowed) to a common width."""
    preferred, inside = _inside(n)
    fits = inside & (np.array([sum(keeps(n)[k]) for k in preferred]) >= n - budget)[None, :]
    row, column = np.nonzero(fits)  # row by row, each row's allowed keeps in preferred order
    count = fits.sum(axis=1)
    first = np.cumsum(count) - count
    table = np.empty((len(count), int(count.max())), dtype=np.int64)
    table[:] = preferred[column[first]][:, None]  # the padding: the first, keeping everything
    table[row, np.arange(len(row)) - np.repeat(first, count)] = preferred[column]
    table.flags.writeable = False  # cached and shared
    return table

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


@cache
def _grown(m: int) -> np.ndarray:
    """G[k, face]: the index among multisets of m + 1 dice of multiset k of m dice with a die of that face
    added."""
    following = index_of(m + 1)
    return np.array([[following[cast(Counts, (*c[:face], c[face] + 1, *c[face + 1:]))] for face in range(SIDES)]
                     for c in multisets(m)], dtype=np.int64)


@cache
def _shrunk(m: int) -> np.ndarray:
    """S[k, face]: the index among multisets of m - 1 dice of multiset k of m dice with a die of that face
    taken off, or len(multisets(m - 1)) (a row of zeros the caller adds) when k shows no such face."""
    missing = len(multisets(m - 1))
    table = np.full((len(multisets(m)), SIDES), missing, dtype=np.int64)
    for k, grown in enumerate(_grown(m - 1)):
        for face, reached in enumerate(grown):
            table[reached, face] = k
    return table


def keep_values(n: int, values: np.ndarray) -> np.ndarray:
    """transitions(n) @ values, exactly, without the dense product: for every keep, the sum of the final
    values over the 6^n ways (scaled) the rerolled dice can fall. `values`: one row per multiset of n dice
    (a vector, or one column per situation), integers in float64."""
    sums = [values.astype(np.float64)]  # sums[j]: keeps of n - j dice, summed over the dice rerolled
    for m in range(n - 1, -1, -1):
        sums.append(sums[-1][_grown(m)].sum(axis=1))
    return np.concatenate([sums[n - m] * float(SIDES**m) for m in range(n + 1)])


def spread(n: int, kept: np.ndarray) -> np.ndarray:
    """transitions(n).T @ kept, exactly: how many ways end on each final multiset of n dice, from a count
    for every keep (a vector, or one column per situation), integers in float64."""
    starts = np.cumsum([0, *(len(multisets(m)) for m in range(n + 1))])
    reached = kept[:1].astype(np.float64)  # keeping no die
    for m in range(1, n + 1):
        padded = np.concatenate([reached, np.zeros_like(reached[:1])])
        reached = kept[starts[m]:starts[m + 1]] * float(SIDES**m) + padded[_shrunk(m)].sum(axis=1)
    return reached


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

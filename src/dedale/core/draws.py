"""SplitMix64's outputs in bulk, with numpy: the same numbers `SplitMix64.next64` gives one by one.

SplitMix64 is counter-based: its k-th next output mixes `seed + k * GAMMA`, so the next million outputs are
one vectorised computation, and skipping them is one addition. A caller reads a block (`peek`), works out how
many outputs its rules took (`below` rejects an output at or over `limit(n)` and draws the next, so a caller
checks for those), and then `skip`s that many. numpy is imported here only: a small map never loads it.
"""

from __future__ import annotations

import numpy as np

from dedale.core.rng import SplitMix64

GAMMA = 0x9E3779B97F4A7C15
MASK = (1 << 64) - 1
_MIX1, _MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def peek(gen: SplitMix64, count: int) -> np.ndarray:
    """The next `count` outputs of `gen` (uint64), without drawing them."""
    z = np.arange(1, count + 1, dtype=np.uint64)
    z *= np.uint64(GAMMA)  # wraps modulo 2**64, as the state does
    z += np.uint64(gen.state)
    z ^= z >> np.uint64(30)
    z *= _MIX1
    z ^= z >> np.uint64(27)
    z *= _MIX2
    z ^= z >> np.uint64(31)
    return z


def skip(gen: SplitMix64, count: int) -> None:
    """Draw `count` outputs without computing them."""
    gen.state = (gen.state + count * GAMMA) & MASK


def limit(sides: int) -> int:
    """`SplitMix64.below(sides)` keeps an output under this (it rejects the top partial range)."""
    return (1 << 64) - (1 << 64) % sides


def faces(values: np.ndarray, sides: int | np.ndarray) -> np.ndarray:
    """The die faces (1 to `sides`) these outputs give when none is rejected."""
    return (values % np.asarray(sides, dtype=np.uint64)).astype(np.int64) + 1

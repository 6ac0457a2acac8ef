"""Hex-grid geometry for flat-topped hexes in axial coordinates (after Red Blob Games' guide).

A hex is `(q, r)`; the third cube coordinate is `s = -q - r`. Flat-topped hexes have a north and a south
neighbour. A map of radius R holds the hexes with |q|, |r|, |q + r| <= R. And the reliefs a hex may have.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from functools import cache
from typing import Literal, get_args

Hex = tuple[int, int]
Direction = Literal["N", "NE", "SE", "S", "SW", "NW"]
# A hex's relief, lowest first (its index is what the map keeps; the tables' `clashes` name them).
Relief = Literal["waters", "shores", "plains", "river_valley", "hills", "plateaus", "low_mountains", "high_mountains"]

# The neighbour die's order: 1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW.
DIRECTIONS: tuple[tuple[Direction, int, int], ...] = (
    ("N", 0, -1), ("NE", 1, -1), ("SE", 1, 0), ("S", 0, 1), ("SW", -1, 1), ("NW", -1, 0))
DIRECTION_NAMES = tuple(name for name, _, _ in DIRECTIONS)
STEP: dict[str, tuple[int, int]] = {name: (dq, dr) for name, dq, dr in DIRECTIONS}
RELIEFS: tuple[Relief, ...] = get_args(Relief)


def neighbour(h: Hex, direction: str) -> Hex:
    dq, dr = STEP[direction]
    return h[0] + dq, h[1] + dr


def neighbours(h: Hex) -> list[Hex]:
    """The six neighbours, in the neighbour die's order."""
    q, r = h
    return [(q + dq, r + dr) for _, dq, dr in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def on_map(h: Hex, radius: int) -> bool:
    q, r = h
    return -radius <= q <= radius and -radius <= r <= radius and -radius <= q + r <= radius


def hex_count(radius: int) -> int:
    return 1 + 3 * radius * (radius + 1)


def ring(k: int) -> list[Hex]:
    """The hexes at distance k from the centre, from the north one, clockwise."""
    if k == 0:
        return [(0, 0)]
    hexes = []
    q, r = 0, -k
    for name in ("SE", "S", "SW", "NW", "N", "NE"):  # along each side of the ring
        dq, dr = STEP[name]
        for _ in range(k):
            hexes.append((q, r))
            q, r = q + dq, r + dr
    return hexes


def spiral(radius: int) -> Iterator[Hex]:
    """The centre, then each ring from its north hex, clockwise."""
    for k in range(radius + 1):
        yield from ring(k)


def map_hexes(radius: int) -> Iterator[Hex]:
    """Every hex of the map, column by column from the west."""
    for q in range(-radius, radius + 1):
        for r in range(max(-radius, -radius - q), min(radius, radius - q) + 1):
            yield q, r


def offset(h: Hex, radius: int) -> tuple[int, int]:
    """Column and row counted from 1 at the map's west column and north row (odd columns shifted down)."""
    q, r = h
    return q + radius + 1, r + (q - (q & 1)) // 2 + radius + 1


def label(h: Hex, radius: int) -> str:
    """The printed label, column then row, each zero-padded to the width of the largest (two digits at
    least): 0101 up to radius 49, 001001 beyond."""
    return labeller(radius)(h)


@cache
def labeller(radius: int) -> Callable[[Hex], str]:
    """`label` on a map of `radius`, its format made once: every hex explored is labelled."""
    width = max(2, len(str(2 * radius + 1)))
    form = f"%0{width}d%0{width}d"  # printf-style: twice as fast as str.format here
    return lambda h: form % offset(h, radius)


SQRT3 = math.sqrt(3)


def to_pixel(h: Hex, size: float) -> tuple[float, float]:
    """The centre of a flat-topped hex of circumradius `size`, the map's centre at the origin."""
    q, r = h
    return size * 1.5 * q, size * SQRT3 * (r + q / 2)


def corners(x: float, y: float, size: float) -> list[tuple[float, float]]:
    return [(x + size * math.cos(math.pi / 3 * i), y + size * math.sin(math.pi / 3 * i)) for i in range(6)]


# A position inside a hex (1D7): 1 centre, 2 N, 3 NE, 4 SE, 5 S, 6 SW, 7 NW, as a unit offset from the centre.
POSITION_NAMES = ("centre", "N", "NE", "SE", "S", "SW", "NW")


def position_offset(position: int) -> tuple[float, float]:
    if position == 1:
        return 0.0, 0.0
    angle = math.pi / 3 * (position - 2) - math.pi / 2  # 2 points north, then clockwise
    return math.cos(angle), math.sin(angle)

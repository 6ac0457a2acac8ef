"""Where the skirmish picture puts what could cover something else: the clickable marks (destinations, and
the badges of shots and melees beside their targets) and each figure's strip of cartridges, so that none
hides a figure or lies on another clickable mark.

Everything is in pixels. Every clickable mark is a disc `TARGET` in radius: 25 pixels across, which a phone
shows at least as large (the table is never drawn smaller than 1:1 there). A destination whose own spot is
taken (by a figure, a badge or another destination: four moves toward four enemies often end within an inch
of each other) is drawn a little way off, joined to its spot by a thin line; a badge goes beside its target;
a cartridge strip goes below its figure, else above, right or left, wherever it covers nobody."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Point = tuple[float, float]

TARGET = 12.5  # a clickable mark's radius
SLACK = 0.5  # how much two marks may touch (rounding)
DOT = 2.0  # the dot marking a destination's spot when its disc is drawn off it
ANGLES = 12  # directions tried around a destination's spot, at each distance
RINGS = 12  # distances tried: far enough that a free place is always found on a table of figures


@dataclass(frozen=True)
class Disc:
    x: float
    y: float
    r: float

    def overlaps(self, other: Disc) -> bool:
        return math.hypot(self.x - other.x, self.y - other.y) < self.r + other.r - SLACK


@dataclass(frozen=True)
class Box:
    """A rectangle by its centre and half sizes (a cartridge strip)."""

    x: float
    y: float
    half_w: float
    half_h: float

    def hits(self, disc: Disc) -> bool:
        dx = max(abs(disc.x - self.x) - self.half_w, 0.0)
        dy = max(abs(disc.y - self.y) - self.half_h, 0.0)
        return math.hypot(dx, dy) < disc.r - SLACK

    def meets(self, other: Box) -> bool:
        return (abs(self.x - other.x) < self.half_w + other.half_w - SLACK
                and abs(self.y - other.y) < self.half_h + other.half_h - SLACK)


def place_marks(spots: Sequence[Point], radius: float, taken: list[Disc], strips: Sequence[Box],
                bounds: tuple[float, float, float, float], away_from: Point | None = None,
                near: float = 0.0) -> list[Point]:
    """Where to draw each mark's disc of `radius`: on its spot when free, else the nearest free place around it
    (a ring at a time, the first `near` away when given, first away from `away_from`, the acting figure),
    inside `bounds` (x0, y0, x1, y1), on no disc `taken`, no cartridge strip and no other destination's spot
    (its dot stays in sight). Each disc placed is added to `taken`; a spot with no free place near keeps its
    own."""
    placed = []
    dots = [] if near else [Disc(*spot, DOT) for spot in spots]  # a badge's spot is its target, taken already
    for index, spot in enumerate(spots):
        others = [dot for i, dot in enumerate(dots) if i != index]
        found = next((p for p in _around(spot, radius, away_from, near) if _inside(p, radius, bounds)
                      and not any(Disc(*p, radius).overlaps(d) for d in (*taken, *others))
                      and not any(b.hits(Disc(*p, radius)) for b in strips)), spot)
        taken.append(Disc(*found, radius))
        placed.append(found)
    return placed


def _around(spot: Point, radius: float, away_from: Point | None, near: float) -> list[Point]:
    start = 0.0 if away_from is None or away_from == spot else math.atan2(spot[1] - away_from[1],
                                                                         spot[0] - away_from[0])
    found = [] if near else [spot]
    for ring in range(1, RINGS + 1):
        step = (near or 2 * radius + 1) + (ring - 1) * (radius + 1)
        for i in range(ANGLES):  # alternately either side of the way out, nearest to it first
            turn = (i + 1) // 2 * (1 if i % 2 else -1) * 2 * math.pi / ANGLES
            found.append((spot[0] + step * math.cos(start + turn), spot[1] + step * math.sin(start + turn)))
    return found


def _inside(p: Point, radius: float, bounds: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = bounds
    return x0 + radius <= p[0] <= x1 - radius and y0 + radius <= p[1] <= y1 - radius


def place_strip(centre: Point, extent: float, half_w: float, half_h: float, others: Sequence[Disc],
                strips: list[Box]) -> Box:
    """A cartridge strip for the figure at `centre` (its rings reach `extent`): below it, else above, right or
    left, the first that covers no other figure and no strip placed before; below when none is free. The strip
    is added to `strips`."""
    cx, cy = centre
    gap = extent + 1.5
    tries = (Box(cx, cy + gap + half_h, half_w, half_h), Box(cx, cy - gap - half_h, half_w, half_h),
             Box(cx + gap + half_w, cy, half_w, half_h), Box(cx - gap - half_w, cy, half_w, half_h))
    found = next((b for b in tries if not any(b.hits(d) for d in others) and not any(b.meets(s) for s in strips)),
                 tries[0])
    strips.append(found)
    return found

"""Where the skirmish picture puts what could cover something else: the clickable destinations, the rings
around targets and each figure's strip of cartridges, so that none hides a figure's letter or lies on
another clickable mark.

Everything is in pixels. A destination whose own spot is taken (by a figure, a target's rings or another
destination: four moves toward four enemies often end within an inch of each other) is drawn a little way
off, joined to its spot by a thin line; a ring runs around a target with gaps where another figure's letter
stands; a cartridge strip goes below its figure, else above, right or left, wherever it covers nobody."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Point = tuple[float, float]

LETTER = 6.5  # a figure's letter, as a disc around its base's centre
STROKE = 2.5  # half the width of a ring's clickable band
SLACK = 0.5  # how much two marks may touch (rounding)
DOT = 2.0  # the dot marking a destination's spot when its disc is drawn off it
ANGLES = 12  # directions tried around a destination's spot, at each distance


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
                bounds: tuple[float, float, float, float], away_from: Point | None = None) -> list[Point]:
    """Where to draw each destination's disc of `radius`: on its spot when free, else the nearest free place
    around it (a ring at a time, first away from `away_from`, the acting figure), inside `bounds` (x0, y0, x1,
    y1), on no disc `taken`, no cartridge strip and no other destination's spot (its dot stays in sight). Each
    disc placed is added to `taken`; a spot with no free place near keeps its own."""
    placed = []
    dots = [Disc(*spot, DOT) for spot in spots]
    for index, spot in enumerate(spots):
        others = [dot for i, dot in enumerate(dots) if i != index]
        found = next((p for p in _around(spot, radius, away_from) if _inside(p, radius, bounds)
                      and not any(Disc(*p, radius).overlaps(d) for d in (*taken, *others))
                      and not any(b.hits(Disc(*p, radius)) for b in strips)), spot)
        taken.append(Disc(*found, radius))
        placed.append(found)
    return placed


def _around(spot: Point, radius: float, away_from: Point | None) -> list[Point]:
    start = 0.0 if away_from is None else math.atan2(spot[1] - away_from[1], spot[0] - away_from[0])
    found = [spot]
    for ring in range(1, 6):
        step = ring * (2 * radius + 1)
        for i in range(ANGLES):  # alternately either side of the way out, nearest to it first
            turn = (i + 1) // 2 * (1 if i % 2 else -1) * 2 * math.pi / ANGLES
            found.append((spot[0] + step * math.cos(start + turn), spot[1] + step * math.sin(start + turn)))
    return found


def _inside(p: Point, radius: float, bounds: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = bounds
    return x0 + radius <= p[0] <= x1 - radius and y0 + radius <= p[1] <= y1 - radius


def ring_gaps(centre: Point, r: float, keep_clear: Sequence[Disc]) -> list[tuple[float, float]]:
    """The arcs (start and end angles, radians, clockwise on screen) of a ring of radius `r` around `centre`
    whose clickable band keeps clear of the discs (the other figures' letters, the other targets' rings);
    [(0, 2π)] when nothing is in the way."""
    blocked = []
    for disc in keep_clear:
        x, y, clear = disc.x, disc.y, disc.r + STROKE
        d = math.hypot(x - centre[0], y - centre[1])
        if d < 1e-9 or abs(d - r) >= clear:
            continue
        half = math.acos(max(-1.0, min(1.0, (d * d + r * r - clear * clear) / (2 * d * r))))
        mid = math.atan2(y - centre[1], x - centre[0])
        blocked.append((mid - half, mid + half))
    if not blocked:
        return [(0.0, 2 * math.pi)]
    # angles from the start of the first blocked arc, so that the free arcs never wrap past it
    base, turn = blocked[0][0], 2 * math.pi
    spans = sorted(((a - base) % turn, (a - base) % turn + (b - a)) for a, b in blocked)
    at = max(spans[0][1], *(b - turn for _, b in spans))  # an arc that wraps blocks the start too
    free = []
    for a, b in spans[1:]:
        if a > at:
            free.append((base + at, base + a))
        at = max(at, b)
    if at < turn:
        free.append((base + at, base + turn))
    return free or [(0.0, turn)]  # hemmed in all round: the whole ring, rather than none to click


def arc_path(centre: Point, r: float, arcs: Sequence[tuple[float, float]]) -> str:
    """An SVG path drawing the arcs (a whole circle as two halves)."""
    cx, cy = centre
    parts = []
    for a, b in arcs:
        if b - a >= 2 * math.pi - 1e-9:
            parts.append(f"M{cx + r:.1f} {cy:.1f}A{r:g} {r:g} 0 1 1 {cx - r:.1f} {cy:.1f}"
                         f"A{r:g} {r:g} 0 1 1 {cx + r:.1f} {cy:.1f}")
            continue
        large = 1 if b - a > math.pi else 0
        parts.append(f"M{cx + r * math.cos(a):.1f} {cy + r * math.sin(a):.1f}A{r:g} {r:g} 0 {large} 1 "
                     f"{cx + r * math.cos(b):.1f} {cy + r * math.sin(b):.1f}")
    return "".join(parts)


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

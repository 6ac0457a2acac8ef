"""The skirmish's battlefield: a table in inches with rectangular terrain, line of sight, cover and moves.

A point is `(x, y)` in inches, x to the right and y downwards (as in SVG), from the board's top-left corner; a
figure is a disc of diameter `BASE` centred on its point. Terrain pieces are axis-aligned rectangles of four kinds:
light cover (hides less than half a figure: fences, barrels, low walls), heavy cover (more than half: walls,
wagons, troughs), buildings (block sight and movement), difficult ground, stairs and ladders (each inch over them
slow a move; no cover), walls (heavy cover, climbed at half the move; one higher than
`CLIMB_HEIGHT` stops a move as a building does, and is no place to stand) and gaps to jump (an inch over one
costs two, and a move must clear it: one that would end over it stops at its near edge; `turn.py` lets a figure
spend both its actions on one jump). Only buildings, such high walls, other
figures' bases and the board's edge stop a move: a figure climbs over a fence or a wagon.

The project's choices, where the rules leave the geometry open:

- Sight: the figure at `a` sees the one at `b` when one of three lines from a's centre, to b's centre and to the
  two points of b's base `SIGHT_OFFSET` inch either side of it, crosses no building. Other figures never block
  sight. Sight is not always symmetric (each end aims at the other's base); the centre line is.
- Cover is read on the centre-to-centre line: the light and heavy pieces it crosses or the target stands in, and
  a building it crosses while the target is still seen (the building hides part of the target: heavy cover).
  `covers` returns the pieces themselves; `is_heavy` reads a building as heavy. Cover within `COVER_REACH` of the
  shooter does not count, buildings included. `covers` assumes the target is seen: call `sight` first.
- "Tout terrain difficile divise par deux le mouvement : terrain encombré, escalier, échelle, mur à escalader":
  two readings, `MOVE_READINGS`, chosen apart for walls (`climb`) and for difficult ground, stairs and ladders
  (`difficult`). `halve_move`, the letter: a move that enters such a piece covers half its inches (it may still
  go its full length up to the piece's edge, and stop there). `per_inch`: only the part of the move over the
  piece is halved, each inch the centre crosses inside it costing two. By default a wall halves the move (the
  text) and difficult ground costs by the inch (a reading kept); a gap always costs by the inch. Flights and
  dodges are moves: the same.
- A dodge goes `DODGE` inches along the chosen direction, stopping short where needed to end out of base contact
  with every enemy.
- A flight goes straight away from the danger; when its path crosses heavy cover, the figure stops in base contact
  with the far side of the first heavy piece.

Every function takes `others`, the centres of the other figures on the table (never the moving figure's own).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final

from dedale.core.documents import UNSET, dump
from dedale.core.errors import DedaleError
from dedale.zombstone.skirmish.document import TerrainShape

Point = tuple[float, float]

BASE: Final = 1.0
RADIUS: Final = BASE / 2
CONTACT: Final = 1.1
COVER_REACH: Final = 1.0
TERRAIN_KINDS = ("light", "heavy", "building", "difficult", "stairs", "ladder", "wall", "gap")
HEAVY_KINDS = frozenset({"heavy", "building", "wall"})
ROUGH_KINDS = frozenset({"difficult", "stairs", "ladder", "wall", "gap"})  # they slow a move
DIFFICULT_KINDS = frozenset({"difficult", "stairs", "ladder"})  # read as `difficult` says; climbable walls, `climb`
MOVE_READINGS = ("halve_move", "per_inch")  # a move entering the piece is halved, or each inch over it costs two
NO_COVER_KINDS = frozenset({"difficult", "stairs", "ladder", "gap"})
CLIMB_HEIGHT: Final = 4.0  # a wall higher than this cannot be climbed: it stops a move as a building does
SIDES = ("x", "y", "w", "h")
DEFAULT_SIZE: Final = 36.0
SIGHT_OFFSET: Final = 0.45
DODGE: Final = 2.0
PUSH: Final = 0.6  # a cover spot lies this far out from a piece's side: a base's radius and a little room
MAX_SPOTS: Final = 8
STEP: Final = 0.05
EPS: Final = 1e-6  # contacts: bases may touch, not overlap, give or take rounding
GRAZE: Final = 1e-9  # a line running along a rectangle's side or through its corner does not cross it
REMEMBERED: Final = 50_000  # pairs of points whose cover and sight a battlefield remembers (then it starts again)


distance = math.dist  # between two points, in inches (the builtin itself: called in every inner loop)


def in_contact(a: Point, b: Point) -> bool:
    """The figures at `a` and `b` are in base contact (melee)."""
    return math.dist(a, b) <= CONTACT


def is_heavy(piece: Terrain) -> bool:
    """Heavy cover as `covers` reports it: a heavy piece, or a building hiding part of the target."""
    return piece.kind in HEAVY_KINDS


@dataclass(frozen=True)
class Terrain:
    kind: str
    x: float
    y: float
    w: float
    h: float
    name: str = ""
    height: float = 1.0  # a wall's, in inches (other pieces' heights play no part)

    @cached_property
    def right(self) -> float:
        return self.x + self.w

    @cached_property
    def bottom(self) -> float:
        return self.y + self.h

    def contains(self, p: Point) -> bool:
        return self.x <= p[0] <= self.right and self.y <= p[1] <= self.bottom

    def over(self, p: Point) -> bool:
        """`p` lies inside the piece, not on its edge (where a figure may stand at a gap)."""
        return self.x < p[0] < self.right and self.y < p[1] < self.bottom

    def distance(self, p: Point) -> float:
        px, py = p
        dx = self.x - px if px < self.x else (px - self.x - self.w if px > self.right else 0.0)
        dy = self.y - py if py < self.y else (py - self.y - self.h if py > self.bottom else 0.0)
        return math.hypot(dx, dy)

    def crosses(self, a: Point, b: Point) -> bool:
        """The segment a-b passes through the interior, not merely along a side or through a corner."""
        if b < a:
            a, b = b, a  # the same arithmetic both ways, so the answer is symmetric to the last bit
        return self._clip(a, b, -GRAZE) is not None

    def _clip(self, a: Point, b: Point, margin: float) -> tuple[float, float] | None:
        """The part t0..t1 of the segment a + t(b - a), 0 <= t <= 1, inside the rectangle grown by `margin` (shrunk
        when negative), by Liang-Barsky clipping; None when they do not meet."""
        ax, ay = a
        bx, by = b
        left, top, right, bottom = self.x - margin, self.y - margin, self.right + margin, self.bottom + margin
        if (ax < left and bx < left) or (ax > right and bx > right) or (ay < top and by < top) or (
                ay > bottom and by > bottom):
            return None
        dx, dy = bx - ax, by - ay
        t0, t1 = 0.0, 1.0
        for p, q in ((-dx, ax - left), (dx, right - ax), (-dy, ay - top), (dy, bottom - ay)):
            if p == 0.0:
                if q < 0.0:
                    return None
                continue
            t = q / p
            if p < 0.0:
                if t > t0:  # max(t0, t) and min(t1, t) without the calls: a hot loop
                    t0 = t
            elif t < t1:
                t1 = t
        return (t0, t1) if t0 <= t1 else None

    def _disc_span(self, start: Point, ux: float, uy: float, r: float) -> tuple[float, float] | None:
        """Where along the line start + s(ux, uy) (a unit direction, s any real) a disc of radius r overlaps the
        rectangle. The rectangle rounded by r is convex, so the hull of its six parts' spans is the answer."""
        sx, sy = start
        x0, y0, x1, y1 = self.x, self.y, self.x + self.w, self.y + self.h
        low = high = None
        for span in (_slab(sx, sy, ux, uy, x0 - r, y0, x1 + r, y1), _slab(sx, sy, ux, uy, x0, y0 - r, x1, y1 + r),
                     _circle(sx, sy, ux, uy, x0, y0, r), _circle(sx, sy, ux, uy, x0, y1, r),
                     _circle(sx, sy, ux, uy, x1, y0, r), _circle(sx, sy, ux, uy, x1, y1, r)):
            if span is None:
                continue
            if low is None or span[0] < low:  # the first of equal ones kept, as min and max keep it
                low = span[0]
            if high is None or span[1] > high:
                high = span[1]
        return None if low is None or high is None else (low, high)

    def _behind(self, danger: Point) -> list[tuple[Point, Point]]:
        """Spots just outside each side the danger does not face, with their keys (`_sides`)."""
        right, left, below, above = self._sides
        spots: list[tuple[Point, Point]] = []
        if danger[0] <= self.right:
            spots += right
        if danger[0] >= self.x:
            spots += left
        if danger[1] <= self.bottom:
            spots += below
        if danger[1] >= self.y:
            spots += above
        return spots

    @cached_property
    def _sides(self) -> tuple[tuple[tuple[Point, Point], ...], ...]:
        """The spots outside the right, left, bottom and top sides, pushed `PUSH` out: each side's middle and its
        two ends, drawn in from the corners by a base's radius so a figure there stays in line with the piece; each
        with its key, rounded to a millionth (worked out once a piece: cover is sought all game long)."""
        x0, y0, x1, y1 = self.x, self.y, self.right, self.bottom
        across = min(RADIUS, self.w / 2), min(RADIUS, self.h / 2)
        xs = (x0 + across[0], (x0 + x1) / 2, x1 - across[0])
        ys = (y0 + across[1], (y0 + y1) / 2, y1 - across[1])
        sides = ([(x1 + PUSH, y) for y in ys], [(x0 - PUSH, y) for y in ys], [(x, y1 + PUSH) for x in xs],
                 [(x, y0 - PUSH) for x in xs])
        return tuple(tuple(((round(x, 6), round(y, 6)), (x, y)) for x, y in side) for side in sides)

    def checked(self, index: int) -> Terrain:
        """This piece with its numbers as floats, or the error naming what is wrong with piece `index` (from 1)."""
        return _piece(self.kind, self.x, self.y, self.w, self.h, self.name, self.height, index)

    @property
    def climbable(self) -> bool:
        """A wall low enough to climb (the text: not over 4 inches)."""
        return self.kind == "wall" and self.height <= CLIMB_HEIGHT

    def shape(self) -> TerrainShape:
        """The piece in a document (and a player's file): its name if it has one, its height if a wall."""
        return TerrainShape(self.kind, self.x, self.y, self.w, self.h, self.name or UNSET,  # type: ignore[arg-type]
                            self.height if self.kind == "wall" else UNSET)

    @classmethod
    def from_json(cls, data: Any, index: int = 1) -> Terrain:
        """A piece from its JSON object; `index` (from 1) names it in errors."""
        if not isinstance(data, dict):
            raise DedaleError("error.battlefield.piece", piece=str(index), value=_shown(data))
        name = data.get("name", "")
        piece = _label(index, name if isinstance(name, str) else "")
        fields = ("kind", *SIDES, "name", "height")
        for key in data:
            if key not in fields:
                raise DedaleError("error.battlefield.piece_field", piece=piece, value=key, accepted=", ".join(fields))
        for key in fields[:-2]:
            if key not in data:
                raise DedaleError("error.battlefield.missing", piece=piece, param=key,
                                  accepted=", ".join(fields[:-2]))
        return _piece(data["kind"], data["x"], data["y"], data["w"], data["h"], name, data.get("height", 1.0), index)


@dataclass(frozen=True)
class Battlefield:
    width: float = DEFAULT_SIZE
    height: float = DEFAULT_SIZE
    terrain: tuple[Terrain, ...] = ()
    climb: str = "halve_move"  # how a wall to climb slows a move (MOVE_READINGS)
    difficult: str = "per_inch"  # how difficult ground, stairs and ladders do
    # the terrain sorted by what each question needs, so the hot paths loop over few pieces
    _buildings: tuple[Terrain, ...] = field(default=(), init=False, repr=False, compare=False)
    _barriers: tuple[Terrain, ...] = field(default=(), init=False, repr=False, compare=False)  # stop moves
    _heavy: tuple[Terrain, ...] = field(default=(), init=False, repr=False, compare=False)
    _screens: tuple[Terrain, ...] = field(default=(), init=False, repr=False, compare=False)
    _rough: tuple[Terrain, ...] = field(default=(), init=False, repr=False, compare=False)  # each inch costs two
    _halving: tuple[Terrain, ...] = field(default=(), init=False, repr=False, compare=False)  # a move entering: half
    _read_as: dict[tuple[str, str], Battlefield] = field(default_factory=dict, init=False, repr=False, compare=False)
    _gaps: tuple[Terrain, ...] = field(default=(), init=False, repr=False, compare=False)  # no place to stand
    # answers remembered (`cover_kinds`, `seen`): figures ask again and again of the same places, and games on
    # one battlefield start from the same ones
    _kinds: dict[tuple[Point, Point], tuple[str, ...]] = field(default_factory=dict, init=False, repr=False,
                                                               compare=False)
    _seen: dict[tuple[Point, Point], bool] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for param in ("width", "height"):
            object.__setattr__(self, param, _size(param, getattr(self, param)))
        if isinstance(self.terrain, str | bytes | dict) or not hasattr(self.terrain, "__iter__"):
            raise DedaleError("error.battlefield.terrain_list", value=_shown(self.terrain))
        pieces = []
        for index, given in enumerate(self.terrain, 1):
            if not isinstance(given, Terrain):
                raise DedaleError("error.battlefield.piece", piece=str(index), value=_shown(given))
            piece = given.checked(index)
            right, bottom = piece.x + piece.w, piece.y + piece.h
            if piece.x < 0 or piece.y < 0 or right > self.width + GRAZE or bottom > self.height + GRAZE:
                raise DedaleError("error.battlefield.off_board", piece=_label(index, piece.name), x=_shown(piece.x),
                                  y=_shown(piece.y), right=_shown(right), bottom=_shown(bottom),
                                  width=_shown(self.width), height=_shown(self.height))
            pieces.append(piece)
        object.__setattr__(self, "terrain", tuple(pieces))
        object.__setattr__(self, "_buildings", tuple(p for p in pieces if p.kind == "building"))
        object.__setattr__(self, "_barriers", tuple(p for p in pieces if p.kind == "building" or (
            p.kind == "wall" and not p.climbable)))
        object.__setattr__(self, "_heavy", tuple(p for p in pieces if p.kind in ("heavy", "wall")))
        object.__setattr__(self, "_screens", tuple(p for p in pieces if p.kind not in NO_COVER_KINDS))
        for reading in (self.climb, self.difficult):
            if reading not in MOVE_READINGS:
                raise DedaleError("error.one_of", param="climb" if reading == self.climb else "difficult",
                                  value=reading, accepted=", ".join(MOVE_READINGS))
        slowing = [p for p in pieces if p.kind in ROUGH_KINDS and (p.kind != "wall" or p.climbable)]
        halving = [p for p in slowing if self._reading(p) == "halve_move"]
        object.__setattr__(self, "_rough", tuple(p for p in slowing if p not in halving))
        object.__setattr__(self, "_halving", tuple(halving))
        object.__setattr__(self, "_gaps", tuple(p for p in pieces if p.kind == "gap"))

    def __hash__(self) -> int:
        """Equal battlefields hash alike, without hashing every piece: the AI's walks are remembered by
        battlefield (`ai._walk_field`), asked for all game."""
        return hash((self.width, self.height, len(self.terrain), self.climb, self.difficult))

    def _reading(self, piece: Terrain) -> str:
        """How the piece slows a move (a gap: by the inch)."""
        return self.climb if piece.kind == "wall" else self.difficult if piece.kind in DIFFICULT_KINDS else "per_inch"

    def read_as(self, climb: str, difficult: str) -> Battlefield:
        """This battlefield, its moves read so (itself when they are its own; else made once, as it remembers
        what it has worked out)."""
        if (climb, difficult) == (self.climb, self.difficult):
            return self
        if (climb, difficult) not in self._read_as:
            self._read_as[climb, difficult] = Battlefield(self.width, self.height, self.terrain, climb, difficult)
        return self._read_as[climb, difficult]

    def to_json(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "terrain": dump([piece.shape() for piece in self.terrain])}

    @classmethod
    def from_json(cls, data: Any) -> Battlefield:
        if not isinstance(data, dict):
            raise DedaleError("error.battlefield.malformed", value=_shown(data))
        fields = ("width", "height", "terrain")
        for key in data:
            if key not in fields:
                raise DedaleError("error.battlefield.field", value=key, accepted=", ".join(fields))
        terrain = data.get("terrain", [])
        if not isinstance(terrain, list):
            raise DedaleError("error.battlefield.terrain_list", value=_shown(terrain))
        pieces = tuple(Terrain.from_json(piece, index) for index, piece in enumerate(terrain, 1))
        return cls(_size("width", data.get("width", DEFAULT_SIZE)), _size("height", data.get("height", DEFAULT_SIZE)),
                   pieces)

    def on_board(self, p: Point) -> bool:
        """The whole base of a figure at `p` is on the board."""
        x, y = p
        low = RADIUS - EPS
        return low <= x <= self.width - low and low <= y <= self.height - low

    def free(self, p: Point, others: Sequence[Point]) -> bool:
        """A figure may stand at `p`: on the board, its base overlapping no building (nor a wall too high to climb)
        and no other figure's base."""
        x, y = p
        low = RADIUS - EPS
        if not (low <= x <= self.width - low and low <= y <= self.height - low):
            return False
        left, right, top, bottom = x - RADIUS, x + RADIUS, y - RADIUS, y + RADIUS
        for building in self._barriers:  # those farther than a radius along x or y cannot overlap: skipped
            if (right >= building.x and left <= building.right and bottom >= building.y and top <= building.bottom
                    and building.distance(p) < RADIUS - EPS):
                return False
        for gap in self._gaps:  # a figure may stand on a gap's edge, not over it
            if gap.over(p):
                return False
        left, right, top, bottom = x - BASE, x + BASE, y - BASE, y + BASE
        for other in others:
            ox, oy = other
            if left <= ox <= right and top <= oy <= bottom and math.dist(p, other) < BASE - EPS:
                return False
        return True

    def sight(self, a: Point, b: Point) -> bool:
        """The figure at `a` sees some part of the figure at `b`."""
        if not self._buildings or self._clear(a, b):
            return True
        length = math.dist(a, b)
        if length == 0.0:
            return True
        nx, ny = (a[1] - b[1]) / length * SIGHT_OFFSET, (b[0] - a[0]) / length * SIGHT_OFFSET
        return self._clear(a, (b[0] + nx, b[1] + ny)) or self._clear(a, (b[0] - nx, b[1] - ny))

    def _clear(self, a: Point, b: Point) -> bool:
        ax, ay = a
        bx, by = b
        low_x, high_x = (ax, bx) if ax < bx else (bx, ax)
        low_y, high_y = (ay, by) if ay < by else (by, ay)
        for building in self._buildings:  # the far ones skipped quickly
            if (building.x <= high_x and building.right >= low_x and building.y <= high_y
                    and building.bottom >= low_y and building.crosses(a, b)):
                return False
        return True

    def covers(self, shooter: Point, target: Point) -> list[Terrain]:
        """The cover between them, each piece once, nearest the shooter first; a building is heavy cover."""
        found: list[tuple[float, int, Terrain]] = []
        seen: bool | None = None
        sx, sy = shooter
        tx, ty = target
        low_x, high_x = (sx, tx) if sx < tx else (tx, sx)
        low_y, high_y = (sy, ty) if sy < ty else (ty, sy)
        for index, piece in enumerate(self._screens):
            if piece.x > high_x or piece.right < low_x or piece.y > high_y or piece.bottom < low_y:
                continue  # away from the line and from the target (an end of it): most pieces, found quickly
            span = piece._clip(shooter, target, -GRAZE)
            if span is None and (piece.kind == "building" or not piece.contains(target)):
                continue
            if piece.distance(shooter) <= COVER_REACH:
                continue
            if piece.kind == "building":
                if seen is None:
                    seen = self.seen(shooter, target)
                if not seen:
                    continue
            found.append((span[0] if span else 1.0, index, piece))
        if len(found) > 1:
            found.sort(key=lambda entry: entry[:2])
        return [piece for _, _, piece in found]

    def in_cover(self, p: Point, danger: Point) -> bool:
        return bool(self.cover_kinds(danger, p))

    def cover_kinds(self, shooter: Point, target: Point) -> tuple[str, ...]:
        """The kinds of the pieces `covers` finds, remembered (up to `REMEMBERED` pairs of points)."""
        key = (shooter, target)
        found = self._kinds.get(key)
        if found is None:
            if len(self._kinds) >= REMEMBERED:
                self._kinds.clear()
            found = self._kinds[key] = tuple(piece.kind for piece in self.covers(shooter, target))
        return found

    def seen(self, a: Point, b: Point) -> bool:
        """`sight`, remembered (up to `REMEMBERED` pairs of points)."""
        key = (a, b)
        found = self._seen.get(key)
        if found is None:
            if len(self._seen) >= REMEMBERED:
                self._seen.clear()
            found = self._seen[key] = self.sight(a, b)
        return found

    def move(self, start: Point, toward: Point, distance: float, others: Sequence[Point],
             stop_at: float = 0.0) -> Point:
        """Where a straight move of at most `distance` inches from `start` toward `toward` ends: never past it, and
        as soon as the centre is within `stop_at` of it (`CONTACT - 0.05` stops in base contact with a figure
        there); at the last free point before a building, a figure or the edge; each inch over difficult ground
        costing two. `start` when the figure cannot move."""
        sx, sy = start
        dx, dy = toward[0] - sx, toward[1] - sy
        length = math.hypot(dx, dy)
        limit = min(distance, length - stop_at)
        if limit <= GRAZE:
            return start
        ux, uy = dx / length, dy / length
        reach = self._room(start, ux, uy, limit, others)
        if reach <= GRAZE:
            return start
        if self._rough or self._halving:
            reach = self._afforded(start, ux, uy, reach, distance)
        if self._gaps:
            reach = self._short_of_gaps(start, ux, uy, reach)
        end = (toward[0], toward[1]) if reach >= length else (sx + ux * reach, sy + uy * reach)
        return end if self.free(end, others) else start

    def _afforded(self, start: Point, ux: float, uy: float, room: float, distance: float) -> float:
        """How far the centre goes along the unit direction, up to `room`, on a move of `distance` inches: each inch
        it crosses over a piece read by the inch costs two; a move entering a piece that halves it covers half its
        inches, but may always go on up to that piece's edge."""
        reach = self._by_the_inch(start, ux, uy, room, distance)
        end = (start[0] + ux * reach, start[1] + uy * reach)
        entered = [span[0] for piece in self._halving if (span := piece._clip(start, end, 0.0)) is not None]
        if not entered or min(entered) * reach >= reach - GRAZE:  # it stops at the edge, or enters none
            return reach
        return max(min(entered) * reach, self._by_the_inch(start, ux, uy, room, distance / 2))

    def _by_the_inch(self, start: Point, ux: float, uy: float, room: float, distance: float) -> float:
        """How far the centre goes along the unit direction, up to `room`, on a move of `distance` inches when
        each inch it crosses over the pieces read by the inch costs two."""
        if not self._rough:
            return min(room, distance)
        sx, sy = start
        ex, ey = end = (sx + ux * room, sy + uy * room)
        low_x, high_x = (sx, ex) if sx < ex else (ex, sx)
        low_y, high_y = (sy, ey) if sy < ey else (ey, sy)
        spans = []
        for piece in self._rough:  # most moves cross none: those off the path's box skipped quickly
            if piece.x > high_x or piece.right < low_x or piece.y > high_y or piece.bottom < low_y:
                continue
            if (span := piece._clip(start, end, 0.0)) is not None:
                spans.append(span)
        spans.sort()
        at, left = 0.0, distance
        for t0, t1 in spans:
            rough_from, rough_to = max(t0 * room, at), t1 * room
            if rough_to <= at:  # within ground already crossed (pieces may overlap)
                continue
            if rough_from - at >= left:
                return at + left
            left -= rough_from - at
            if 2 * (rough_to - rough_from) >= left:
                return rough_from + left / 2
            left -= 2 * (rough_to - rough_from)
            at = rough_to
        return min(room, at + left)

    @property
    def gaps(self) -> tuple[Terrain, ...]:
        return self._gaps

    def leaps(self, a: Point, b: Point) -> bool:
        """The straight move a-b goes over a gap."""
        return any(gap._clip(a, b, 0.0) is not None for gap in self._gaps)

    def _short_of_gaps(self, start: Point, ux: float, uy: float, reach: float) -> float:
        """A jump must clear a gap: a move that would end over one stops at its near edge instead."""
        end = (start[0] + ux * reach, start[1] + uy * reach)
        for gap in self._gaps:
            span = gap._clip(start, end, 0.0) if gap.over(end) else None
            if span is not None:
                reach = max(0.0, span[0] * reach - STEP)
                end = (start[0] + ux * reach, start[1] + uy * reach)
        return reach

    def _room(self, start: Point, ux: float, uy: float, limit: float, others: Sequence[Point]) -> float:
        """How far the centre can go from `start` along the unit direction (ux, uy), up to `limit`. An obstacle the
        base already overlaps does not stop it (it may be leaving it): `move` checks where it ends."""
        sx, sy = start
        room = limit
        if ux != 0.0:  # the board's edges, across and down (written out: every move asks)
            edge = (self.width - RADIUS - sx) / ux if ux > 0.0 else (RADIUS - sx) / ux
            if edge < room:
                room = edge
        if uy != 0.0:
            edge = (self.height - RADIUS - sy) / uy if uy > 0.0 else (RADIUS - sy) / uy
            if edge < room:
                room = edge
        if room < 0.0:
            room = 0.0
        ex, ey = sx + ux * room, sy + uy * room
        low_x, high_x = (sx, ex) if sx < ex else (ex, sx)
        low_y, high_y = (sy, ey) if sy < ey else (ey, sy)
        left, right, top, bottom = low_x - RADIUS, high_x + RADIUS, low_y - RADIUS, high_y + RADIUS
        for building in self._barriers:  # the path's box grown by what can touch it: the rest skipped quickly
            if building.x > right or building.right < left or building.y > bottom or building.bottom < top:
                continue
            room = _ahead(room, building._disc_span(start, ux, uy, RADIUS))
        left, right, top, bottom = low_x - BASE, high_x + BASE, low_y - BASE, high_y + BASE
        for ox, oy in others:
            if ox > right or ox < left or oy > bottom or oy < top:
                continue
            room = _ahead(room, _circle(sx, sy, ux, uy, ox, oy, BASE))
        return room

    def flee(self, start: Point, danger: Point, distance: float, others: Sequence[Point]) -> Point:
        """The flight after a failed Guts test: `distance` inches straight away from `danger` (toward the nearest
        edge if they coincide), stopping just behind the first heavy cover the path crosses."""
        ux, uy = self._away(start, danger)
        end = self.move(start, (start[0] + ux * distance, start[1] + uy * distance), distance, others)
        if end == start or not self._heavy:
            return end
        first: tuple[float, Terrain] | None = None
        for piece in self._heavy:
            span = piece._clip(start, end, -GRAZE)
            if span is not None and (first is None or span[0] < first[0]):
                first = (span[0], piece)
        if first is None:
            return end
        span = first[1]._disc_span(start, ux, uy, RADIUS)
        if span is None or span[1] >= math.dist(start, end):
            return end
        behind = (start[0] + ux * span[1], start[1] + uy * span[1])
        return behind if self.free(behind, others) else end

    def _away(self, start: Point, danger: Point) -> Point:
        dx, dy = start[0] - danger[0], start[1] - danger[1]
        length = math.hypot(dx, dy)
        if length > GRAZE:
            return dx / length, dy / length
        edges = ((start[0], (-1.0, 0.0)), (self.width - start[0], (1.0, 0.0)),
                 (start[1], (0.0, -1.0)), (self.height - start[1], (0.0, 1.0)))
        return min(edges, key=lambda edge: edge[0])[1]

    def dodge(self, start: Point, direction: Point, others: Sequence[Point], enemies: Sequence[Point]) -> Point:
        """The dodge: `DODGE` inches from `start` in the direction of the point `direction`, as far as it can go
        and ends out of base contact with every enemy (`others` holds the enemies too); `start` if nowhere."""
        dx, dy = direction[0] - start[0], direction[1] - start[1]
        length = math.hypot(dx, dy)
        if length <= GRAZE:
            return start
        ux, uy = dx / length, dy / length
        reach = math.dist(start, self.move(start, (start[0] + ux * DODGE, start[1] + uy * DODGE), DODGE, others))
        # the full dodge, or just short of where the path first comes within contact of an enemy
        stops = {reach}
        for ex, ey in enemies:
            span = _circle(start[0], start[1], ux, uy, ex, ey, CONTACT)
            if span is not None and GRAZE < span[0] - EPS < reach:
                stops.add(span[0] - EPS)
        for stop in sorted(stops, reverse=True):
            spot = (start[0] + ux * stop, start[1] + uy * stop)
            if stop > GRAZE and not _touching(spot, enemies) and self.free(spot, others):
                return spot
        return start

    def cover_spots(self, start: Point, reach: float, dangers: Sequence[Point], others: Sequence[Point],
                    most: int = MAX_SPOTS) -> list[Point]:
        """Up to `most` points one straight move of `reach` inches takes the figure at `start` to, in cover from
        the nearest danger: just behind the pieces near enough, heavy cover first, then the nearest. The spots
        are tried in that order (by the piece they stand behind) and the search stops at `most`: checking a
        spot (the move there, the cover from there) is the costly part."""
        if not dangers:
            return []
        danger = min(dangers, key=lambda point: (math.dist(start, point), point))
        candidates: dict[Point, tuple[bool, float, Point]] = {}
        near, sx, sy, within = reach + PUSH + BASE, start[0], start[1], reach + STEP
        far = near + EPS  # farther than this along x or y, a piece is farther than `near`: skipped at once
        low = RADIUS - EPS  # on the board: as `on_board`
        high_x, high_y = self.width - low, self.height - low
        for piece in self._screens:
            if (sx < piece.x - far or sx > piece.right + far or sy < piece.y - far or sy > piece.bottom + far
                    or piece.distance(start) > near):
                continue
            light = piece.kind not in HEAVY_KINDS
            for key, spot in piece._behind(danger):
                if ((away := math.dist(start, spot)) <= within and key not in candidates
                        and low <= spot[0] <= high_x and low <= spot[1] <= high_y):
                    candidates[key] = (light, away, spot)
        found: list[tuple[bool, float, Point]] = []
        for _, _, spot in sorted(candidates.values()):
            end = self.move(start, spot, reach, others)
            if math.dist(end, spot) > STEP:
                continue
            kinds = self.cover_kinds(danger, end)
            if kinds:
                found.append((not any(kind in HEAVY_KINDS for kind in kinds), math.dist(start, end), end))
                if len(found) == most:
                    break
        return [end for _, _, end in sorted(found)]


def _touching(p: Point, points: Sequence[Point]) -> bool:
    """A figure at `p` is in base contact with one at any of `points` (`in_contact`; those farther along x or y
    skipped, with a margin so rounding never skips one in contact)."""
    x, y = p
    reach = CONTACT + EPS
    left, right, top, bottom = x - reach, x + reach, y - reach, y + reach
    for other in points:
        if left <= other[0] <= right and top <= other[1] <= bottom and math.dist(p, other) <= CONTACT:
            return True
    return False


def _slab(sx: float, sy: float, ux: float, uy: float, x0: float, y0: float, x1: float,
          y1: float) -> tuple[float, float] | None:
    """Where the line (sx, sy) + s(ux, uy), s any real, runs inside the open rectangle x0..x1 by y0..y1."""
    low, high = -math.inf, math.inf
    for position, u, near, far in ((sx, ux, x0, x1), (sy, uy, y0, y1)):
        if u == 0.0:
            if not near < position < far:
                return None
        else:
            a, b = (near - position) / u, (far - position) / u
            low, high = max(low, min(a, b)), min(high, max(a, b))
    return (low, high) if low < high else None


def _circle(sx: float, sy: float, ux: float, uy: float, cx: float, cy: float, r: float) -> tuple[float, float] | None:
    """Where the line (sx, sy) + s(ux, uy), a unit direction, runs inside the circle of centre (cx, cy), radius r."""
    wx, wy = sx - cx, sy - cy
    b = ux * wx + uy * wy
    disc = b * b - (wx * wx + wy * wy - r * r)
    if disc <= 0.0:
        return None
    root = math.sqrt(disc)
    return -b - root, -b + root


def _ahead(room: float, span: tuple[float, float] | None) -> float:
    """`room` cut where an obstacle ahead begins; one merely grazed, behind, or already overlapped does not cut it."""
    if span is None or span[1] - span[0] < GRAZE or span[1] <= GRAZE or span[0] < -EPS:
        return room
    return min(room, max(span[0], 0.0))


def _piece(kind: Any, x: Any, y: Any, w: Any, h: Any, name: Any, height_given: Any, index: int) -> Terrain:
    """A piece from values as given (a document's: any type), with its numbers as floats, or the error naming what is
    wrong with piece `index` (from 1). Checked before the piece is made, so that a `Terrain` only ever holds values of
    its fields' types."""
    if not isinstance(name, str):
        raise DedaleError("error.battlefield.name", piece=str(index), value=_shown(name))
    piece = _label(index, name)
    if not isinstance(kind, str) or kind not in TERRAIN_KINDS:
        raise DedaleError("error.battlefield.kind", piece=piece, value=kind if isinstance(kind, str)
                          else _shown(kind), accepted=", ".join(TERRAIN_KINDS))
    numbers = []
    for param, value in zip(SIDES, (x, y, w, h), strict=True):
        number = _number(value)
        if number is None:
            raise DedaleError("error.battlefield.number", piece=piece, param=param, value=_shown(value))
        if param in ("w", "h") and number <= 0:
            raise DedaleError("error.battlefield.extent", piece=piece, param=param, value=_shown(value))
        numbers.append(number)
    height = _number(height_given)
    if height is None or height <= 0 or (height != 1.0 and kind != "wall"):
        raise DedaleError("error.battlefield.height", piece=piece, value=_shown(height_given))
    x, y, w, h = numbers
    return Terrain(kind, x, y, w, h, name=name, height=height)


def _size(param: str, value: Any) -> float:
    """The board's width or height as a float, or the error naming it."""
    number = _number(value)
    if number is None or number <= 0:
        raise DedaleError("error.battlefield.size", param=param, value=_shown(value))
    return number


def _number(value: Any) -> float | None:
    """A finite number of inches, or None (booleans and text are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an int too large for a float
        return None
    return number if math.isfinite(number) else None


def _label(index: int, name: str) -> str:
    return f"{index} ({name})" if name else str(index)


def _shown(value: Any) -> str:
    """A value as an error shows it: numbers plainly, the rest as JSON, cut short."""
    if isinstance(value, float) and math.isfinite(value) and abs(value) < 1e9:
        text = f"{value:.6f}".rstrip("0").rstrip(".")  # 36.099999999999994 reads 36.1
    elif isinstance(value, int | float) and not isinstance(value, bool):
        text = str(value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."

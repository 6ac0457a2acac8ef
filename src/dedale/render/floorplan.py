"""A floor plan: what a virtual tabletop needs of a dungeon on squares, read once from each system's model.

Cells are grid squares labelled with the region they belong to (a room, a corridor, a passage); doors are
edges between two adjacent cells. Walls follow from that alone: every edge between a floor cell and a
non-floor cell, or between two regions, except a door (a portal) or an opening (a corridor running on).
They are written as outlines (`polylines`): an importer makes a wall of each pair of points in a row, so an
outline has no point twice in a row and no bend that is not a corner.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

import msgspec

from dedale.core.grid import Cell
from dedale.crawler.model import Dungeon, Room
from dedale.paper.model import PaperMap
from dedale.render.crawler_legend import room_details, room_title
from dedale.render.paper_svg import room_line

Point = tuple[int, int]
Segment = tuple[Point, Point]  # grid corners, from the smaller to the larger
SIDES = ((0, -1), (0, 1), (-1, 0), (1, 0))


@dataclass(frozen=True)
class DoorEdge:
    cells: tuple[Cell, Cell]
    kind: str = "door"  # "door", "secret" or "locked"
    way: str = "both"  # a one-way door: "forward" (from the first cell to the second) or "backward"

    @property
    def segment(self) -> Segment:
        return edge(*self.cells)


@dataclass(frozen=True)
class Label:
    """A room's number at its centre (grid units) and the room in words, for notes and lights: `text` what
    the party may read (its number, its size), `key` the GM's words on it ("" in the party view)."""

    number: str
    centre: tuple[float, float]
    text: str
    size: tuple[int, int]  # the room's width and height, for its light
    corner: Cell  # its top-left square
    key: str = ""


@dataclass
class FloorPlan:
    width: int  # the board or page, in cells
    height: int
    cells: dict[Cell, str] = field(default_factory=dict)  # floor cell -> its region
    styles: dict[str, str] = field(default_factory=dict)  # region -> how it is drawn: room, boss, corridor, passage
    marks: dict[Cell, str] = field(default_factory=dict)  # a special square's symbol (stairs, trap, exit...)
    doors: list[DoorEdge] = field(default_factory=list)
    openings: set[frozenset[Cell]] = field(default_factory=set)  # open ways between two regions
    labels: list[Label] = field(default_factory=list)
    ends: list[Cell] = field(default_factory=list)  # where the map goes on, not yet explored

    def for_party(self) -> FloorPlan:
        """What the party's files show: no GM's key, and every secret door an ordinary door. A document holds
        only the secret doors the party found (the rules put one on the map when a search finds it; a wall
        searched in vain stays a wall), and a door found is a door the players open; one-way, it keeps its
        way (they found it from one side)."""
        doors = [replace(d, kind="door") if d.kind == "secret" else d for d in self.doors]
        return replace(self, doors=doors, labels=[replace(label, key="") for label in self.labels])
    def wall_edges(self) -> set[Segment]:
        shut = {frozenset(d.cells) for d in self.doors} | self.openings
        walls = set()
        for cell, region in self.cells.items():
            x, y = cell
            for dx, dy in SIDES:
                other = (x + dx, y + dy)
                if self.cells.get(other) == region or frozenset((cell, other)) in shut:
                    continue
                walls.add(edge(cell, other))
        return walls

    def runs(self) -> list[Segment]:
        """The wall edges merged into straight runs (a run stops at a door or where the wall does)."""
        rows: dict[tuple[str, int], list[int]] = defaultdict(list)
        for (ax, ay), (_, by) in self.wall_edges():
            if ay == by:
                rows["h", ay].append(ax)
            else:
                rows["v", ax].append(ay)
        runs: list[Segment] = []
        for (way, line), starts in sorted(rows.items()):
            starts.sort()
            first = previous = starts[0]
            for start in [*starts[1:], None]:
                if start is not None and start == previous + 1:
                    previous = start
                    continue
                runs.append(((first, line), (previous + 1, line)) if way == "h" else
                            ((line, first), (line, previous + 1)))
                if start is not None:
                    first = previous = start
        return runs

    def polylines(self) -> list[list[Point]]:
        """The walls as outlines: straight runs joined end to end where exactly two of them meet (a corner),
        each outline from a point where the wall stops or branches to the next; a closed one (a room with no
        door) starts and ends on one corner. No point twice in a row, no two runs in line."""
        runs = self.runs()
        ends = Counter(p for run in runs for p in run)
        at: dict[Point, list[int]] = defaultdict(list)
        for i, run in enumerate(runs):
            for p in run:
                at[p].append(i)
        used = [False] * len(runs)

        def follow(i: int, start: Point) -> list[Point]:
            line, p = [start], start
            while True:
                used[i] = True
                a, b = runs[i]
                p = b if p == a else a
                line.append(p)
                if ends[p] != 2:
                    return line
                i = next(j for j in at[p] if j != i)
                if used[i]:  # round a closed outline
                    return line

        lines = []
        for i, run in enumerate(runs):  # outlines from where a wall stops or branches
            for p in run:
                if not used[i] and ends[p] != 2:
                    lines.append(follow(i, p))
        lines += [follow(i, runs[i][0]) for i in range(len(runs)) if not used[i]]  # the closed ones
        return lines

    def bounds(self, margin: int) -> tuple[int, int, int, int]:
        """The cells drawn, the doors' far sides and the open ends, `margin` cells around: x0, y0, x1, y1 (x1, y1
        excluded)."""
        cells = [*self.cells, *(c for d in self.doors for c in d.cells), *self.ends]
        if not cells:
            return 0, 0, self.width, self.height
        xs, ys = [x for x, _ in cells], [y for _, y in cells]
        return min(xs) - margin, min(ys) - margin, max(xs) + 1 + margin, max(ys) + 1 + margin


def edge(a: Cell, b: Cell) -> Segment:
    """The side two edge-adjacent cells share, as its two grid corners."""
    (xa, ya), (xb, yb) = a, b
    if ya == yb:
        x = max(xa, xb)
        return (x, ya), (x, ya + 1)
    y = max(ya, yb)
    return (xa, y), (xa + 1, y)


def crawler_plan(dungeon: Dungeon, lang: str) -> FloorPlan:
    """Rooms and secret passages; every door, the passages' secret ones, the boss room's locked."""
    n = dungeon.board_zones * dungeon.zone_cells
    plan = FloorPlan(n, n)
    boss = {room.id for room in dungeon.rooms if room.boss}
    for room in dungeon.rooms:
        r = room.rect
        region = f"room {room.id}"
        plan.styles[region] = "boss" if room.boss else "room"
        plan.cells.update(((x, y), region) for x in range(r.x, r.x + r.w) for y in range(r.y, r.y + r.h))
        plan.labels.append(Label(str(room.number), (r.x + r.w / 2, r.y + r.h / 2),
                                 f"{room.number}. {room_title(replace(room, contents=None), lang)}", (r.w, r.h),
                                 (r.x, r.y), _key(room, lang)))
    for i, passage in enumerate(dungeon.passages):
        region = f"passage {i}"
        plan.styles[region] = "passage"
        plan.cells.update((cell, region) for cell in passage.cells)
        first = passage.cells[0]
        plan.doors.append(DoorEdge(((first[0] - passage.face.dx, first[1] - passage.face.dy), first), "secret"))
    for door in dungeon.doors:
        plan.doors.append(DoorEdge(door.cells, "locked" if boss & set(door.rooms) else "door"))
    return plan


PAPER_MARKS = {"trap": "T", "stairs_up": "▲", "stairs_down": "▼", "exit": "E", "dead_end": "×"}


def paper_plan(paper: PaperMap, lang: str) -> FloorPlan:
    """Each feature a region; doors and the entrance are doors, secret doors secret (one-way ones keeping their
    way), openings open (as the picture draws them: paper_svg's walls); the open ends marked."""
    plan = FloorPlan(paper.width, paper.height)
    rooms = {room.feature for room in paper.rooms}
    for cell, (kind, feature) in paper.cells.items():
        region = f"feature {feature}"
        plan.cells[cell] = region
        plan.styles[region] = "room" if feature in rooms else "corridor"
        if kind in PAPER_MARKS:
            plan.marks[cell] = PAPER_MARKS[kind]
    for door in paper.doors:
        if door.kind == "opening":
            plan.openings.add(frozenset(door.squares))
        else:
            plan.doors.append(DoorEdge(door.squares, "secret" if door.kind == "secret" else "door", door.way))
    for room in paper.rooms:
        r = room.rect
        shown = room_line(msgspec.structs.replace(room, contents=None), lang)
        plan.labels.append(Label(str(room.id), (r.x + r.w / 2, r.y + r.h / 2), f"{room.id}. {shown}", (r.w, r.h),
                                 (r.x, r.y), "" if room.contents is None else f"{room.id}. {room_line(room, lang)}"))
    plan.ends = [end.cell for end in paper.open_ends]
    return plan


def _key(room: Room, lang: str) -> str:
    """"1. Cellar (2x5) — Giant spiders ×3": the GM's words on a room ("" in the party view)."""
    if room.contents is None:
        return ""
    details = room_details(room, lang)
    return f"{room.number}. {room_title(room, lang)}" + (f" — {details}" if details else "")

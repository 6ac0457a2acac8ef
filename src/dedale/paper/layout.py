"""Laying features on squared paper, as the spec settles what the seed leaves to the drawer.

- Corridors are one square wide; one that would run into the map stops there and joins it, one that would
  leave the page stops at the edge as a dead end.
- A room lies beyond its door, centred on the door's axis, slid sideways if that makes it fit; if it does
  not fit it shrinks, its larger side first, one square at a time (at least 1 x 1).
- A room's walls are named from the entry door: left, facing, right. Squares along a wall are counted
  from the entry side (side walls) or from the left (the facing wall), corners left out.
"""

from __future__ import annotations

from dedale.core.grid import Cell, Dir, Rect
from dedale.paper.model import Outcome, SquareKind, Wall

WALLS: tuple[Wall, ...] = ("left", "facing", "right")


class Page:
    """The squares in use: each with its kind and the feature it belongs to."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.cells: dict[Cell, tuple[SquareKind, int]] = {}

    def on_page(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def free(self, cell: Cell) -> bool:
        return self.on_page(cell) and cell not in self.cells

    def fits(self, rect: Rect) -> bool:
        if rect.x < 0 or rect.y < 0 or rect.x + rect.w > self.width or rect.y + rect.h > self.height:
            return False
        return not any(cell in self.cells for cell in rect.cells())

    def put(self, cell: Cell, kind: SquareKind, feature: int) -> None:
        self.cells[cell] = (kind, feature)

    def owner(self, cell: Cell) -> int | None:
        found = self.cells.get(cell)
        return None if found is None else found[1]

    def run(self, start: Cell, d: Dir, length: int) -> tuple[list[Cell], Outcome]:
        """The squares a corridor of `length` from `start` can take, and how it ends: "complete",
        "joined" (the next square is in use) or "edge" (the next square is off the page)."""
        cells: list[Cell] = []
        cell = start
        for _ in range(length):
            if not self.on_page(cell):
                return cells, "edge"
            if cell in self.cells:
                return cells, "joined"
            cells.append(cell)
            cell = d.step(cell)
        return cells, "complete"


def room_rect(entry: Cell, d: Dir, width: int, depth: int, index: int) -> Rect:
    """The room `width` wide along its entry wall and `depth` deep, entered going `d` through `entry`,
    which is square `index` of the entry wall counted from the traveller's left."""
    r = d.right
    left = (entry[0] - index * r.dx, entry[1] - index * r.dy)
    far = (left[0] + (width - 1) * r.dx + (depth - 1) * d.dx, left[1] + (width - 1) * r.dy + (depth - 1) * d.dy)
    x0, x1 = sorted((left[0], far[0]))
    y0, y1 = sorted((left[1], far[1]))
    return Rect(x0, y0, x1 - x0 + 1, y1 - y0 + 1)


def fit_room(page: Page, entry: Cell, d: Dir, width: int, depth: int) -> tuple[Rect, int, int] | None:
    """Where the room goes: centred on the door, else slid sideways, else shrunk (larger side first) and
    tried again. Returns the rectangle and the width and depth it was laid at."""
    while True:
        centre = (width - 1) // 2
        for shift in sorted(range(width), key=lambda i: (abs(i - centre), i)):
            rect = room_rect(entry, d, width, depth, shift)
            if page.fits(rect):
                return rect, width, depth
        if width == depth == 1:
            return None
        if width >= depth:
            width -= 1
        else:
            depth -= 1


def wall_side(d: Dir, wall: str) -> Dir:
    """Which way a wall faces, for a room entered going `d`."""
    return {"left": d.left, "facing": d, "right": d.right}[wall]


def wall_squares(rect: Rect, d: Dir, wall: str) -> list[Cell]:
    """The squares of a wall that may take an exit, in order (corners left out when the wall is longer
    than 2 squares)."""
    side = wall_side(d, wall)
    along = d if wall != "facing" else d.right
    cells = sorted(rect.side(side), key=lambda c: c[0] * along.dx + c[1] * along.dy)
    return cells if len(cells) <= 2 else cells[1:-1]

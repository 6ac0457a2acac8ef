"""Square-grid geometry shared by the systems: cells, the four directions, rectangles and their sides.

Coordinates: x grows east, y grows south, origin at the north-west corner.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

Cell = tuple[int, int]


class Dir(Enum):
    N = (0, -1)
    E = (1, 0)
    S = (0, 1)
    W = (-1, 0)

    # Each member is one object, equal only to itself: hashed by identity in C rather than by name in Python
    # (directions key the dicts and sets of the innermost loops).
    __hash__ = object.__hash__
    opposite: Dir  # set below, once all four exist

    def __init__(self, dx: int, dy: int) -> None:
        self.dx = dx  # plain attributes, like `opposite`: read in the innermost loops
        self.dy = dy

    @property
    def left(self) -> Dir:
        """The direction to the left of someone going this way."""
        return _LEFT[self]

    @property
    def right(self) -> Dir:
        return _LEFT[_OPPOSITE[self]]

    def step(self, cell: Cell, n: int = 1) -> Cell:
        return cell[0] + self.dx * n, cell[1] + self.dy * n


_OPPOSITE = {Dir.N: Dir.S, Dir.S: Dir.N, Dir.E: Dir.W, Dir.W: Dir.E}
for _d, _o in _OPPOSITE.items():
    _d.opposite = _o
_LEFT = {Dir.N: Dir.W, Dir.W: Dir.S, Dir.S: Dir.E, Dir.E: Dir.N}
DIRS = (Dir.N, Dir.E, Dir.S, Dir.W)
BY_NAME = {d.name: d for d in DIRS}  # `Dir[name]` without the enum's lookup (a Python call)


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    w: int
    h: int

    def contains(self, cell: Cell) -> bool:
        return self.x <= cell[0] < self.x + self.w and self.y <= cell[1] < self.y + self.h

    def cells(self) -> list[Cell]:
        return [(x, y) for y in range(self.y, self.y + self.h) for x in range(self.x, self.x + self.w)]

    def side(self, d: Dir) -> list[Cell]:
        """The cells along the side facing `d`, west to east or north to south."""
        if d is Dir.N:
            return [(x, self.y) for x in range(self.x, self.x + self.w)]
        if d is Dir.S:
            return [(x, self.y + self.h - 1) for x in range(self.x, self.x + self.w)]
        if d is Dir.W:
            return [(self.x, y) for y in range(self.y, self.y + self.h)]
        return [(self.x + self.w - 1, y) for y in range(self.y, self.y + self.h)]

    def door_cells(self, d: Dir) -> list[Cell]:
        """Cells of side `d` that may hold a door when a room's corner cells may not (the crawler's
        `door_corners` room): not one of the 4 corner cells, unless that side is only 2 cells long or less (its
        waiver, or a 2x2 room could never get a door)."""
        cells = self.side(d)
        return cells if len(cells) <= 2 else cells[1:-1]

    def edge(self, d: Dir) -> int:
        """The coordinate of the boundary line on side `d` (cell units)."""
        if d is Dir.N:
            return self.y
        if d is Dir.S:
            return self.y + self.h
        if d is Dir.W:
            return self.x
        return self.x + self.w

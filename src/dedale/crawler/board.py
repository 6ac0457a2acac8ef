"""The crawler's board: Z x Z zones of C x C cells.

Zone (zx, zy) covers cells x in [C*zx, C*zx + C), y in [C*zy, C*zy + C).
"""

from __future__ import annotations

from dataclasses import dataclass

from dedale.core.grid import Cell, Dir, Rect

Zone = tuple[int, int]


@dataclass(frozen=True)
class Board:
    zones: int  # Z: the board is Z x Z zones
    cells: int  # C: a zone is C x C cells

    @property
    def size(self) -> int:
        return self.zones * self.cells

    def on_board(self, zone: Zone) -> bool:
        return 0 <= zone[0] < self.zones and 0 <= zone[1] < self.zones

    def zone_rect(self, zone: Zone) -> Rect:
        return Rect(zone[0] * self.cells, zone[1] * self.cells, self.cells, self.cells)

    def zone_of(self, cell: Cell) -> Zone:
        return cell[0] // self.cells, cell[1] // self.cells

    def neighbour(self, zone: Zone, d: Dir) -> Zone:
        return zone[0] + d.dx, zone[1] + d.dy

    def leads(self, zone: Zone, d: Dir) -> bool:
        """Zone edge `d` leads to a zone on the board."""
        return self.on_board(self.neighbour(zone, d))

    def touched_edges(self, zone: Zone, rect: Rect) -> list[Dir]:
        """The edges of `zone` that `rect` (inside it) lies against, in the order N, E, S, W."""
        c = self.cells
        x0, y0 = zone[0] * c, zone[1] * c
        touched = []
        if rect.y == y0:
            touched.append(Dir.N)
        if rect.x + rect.w == x0 + c:
            touched.append(Dir.E)
        if rect.y + rect.h == y0 + c:
            touched.append(Dir.S)
        if rect.x == x0:
            touched.append(Dir.W)
        return touched

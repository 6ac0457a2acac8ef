"""Where the party may go on: the open exits and the walls worth searching, kept up to date as the dungeon grows.

The explore phase lists them at every step and the stuck ending asks whether any is left, so they are not
worked out again from every room each time. A room's exits are set when it is laid and only leave (a door
goes through, the exit is closed). A wall's passage runs (where a found passage could go) depend on the
cells of its room's zone, on the zone beyond (some room must fit there) and on the tiles left; they can only
shrink, so a wall is worked out again only when one of its two zones has changed or a pile of tiles has
run out, and only when asked (while an exit is open, the autopilot never asks); it leaves once it has no run,
once searched, or once its room has been searched twice.

Both are kept in the order the choices list them: by room, then by direction (N, E, S, W).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dedale.core.grid import Cell, Dir
from dedale.crawler.board import Zone
from dedale.crawler.layout import Layout
from dedale.crawler.model import Room
from dedale.crawler.tiles import TILE_NAMES, Stock, tile_size

Run = tuple[Cell, ...]
Wall = tuple[int, Dir]  # (room id, the side of it): an exit or a face to search
SEARCHES_PER_ROOM = 2


def passage_options(layout: Layout, stock: Stock, boss: tuple[int, int], room: Room, face: Dir) -> list[Run]:
    """Runs a found passage could take from `face` of `room`: its tile in stock, and some room fitting beyond."""
    sizes = tuple(tile_size(tile, boss) for tile in TILE_NAMES[:7] if stock.has(tile))
    return [run for run in layout.passage_runs(room, face)
            if stock.has(f"p{len(run)}") and layout.fits_any(layout.passage_approach(room, face, run), sizes)]


@dataclass
class Frontier:
    exits: dict[Wall, None] = field(default_factory=dict)  # the open exits, in choice order
    # The walls that may be worth searching, with their runs (None: to work out again when asked)
    faces: dict[Wall, list[Run] | None] = field(default_factory=dict)
    watching: dict[Zone, list[Wall]] = field(default_factory=dict)  # zone -> walls whose runs depend on it

    def room_laid(self, layout: Layout, room: Room) -> None:
        """After `layout.add_room(room, ...)`: its exits and walls, and the exit its door went through."""
        entered_from = room.entered_from
        if entered_from is not None:  # the exit its door goes through is no longer open
            for d in layout.door_dirs[entered_from]:
                self.exits.pop((entered_from, d), None)
        for d in layout.open_exits(room):
            self.exits[room.id, d] = None
        self.zone_changed(room.zone)
        if not room.boss:
            watching, (x, y) = self.watching, room.zone
            for face in layout.free_faces(room):
                wall = (room.id, face)
                self.faces[wall] = None
                watching.setdefault(room.zone, []).append(wall)
                watching.setdefault((x + face.dx, y + face.dy), []).append(wall)  # the zone beyond

    def zone_changed(self, zone: Zone) -> None:
        """After a room or a passage is laid in `zone`."""
        faces = self.faces
        for wall in self.watching.get(zone, ()):
            if wall in faces:
                faces[wall] = None

    def pile_ran_out(self) -> None:
        """After the last tile of a pile is taken: every wall may have lost runs."""
        self.faces = dict.fromkeys(self.faces)

    def walls(self, layout: Layout, stock: Stock, boss: tuple[int, int]) -> dict[Wall, list[Run]]:
        """The walls worth searching now, with the runs a passage found there could take."""
        for wall in [wall for wall, runs in self.faces.items() if runs is None]:
            self._work_out(layout, stock, boss, wall)
        return {wall: runs for wall, runs in self.faces.items() if runs is not None}  # all of them, now

    def _work_out(self, layout: Layout, stock: Stock, boss: tuple[int, int], wall: Wall) -> bool:
        """Whether the wall is still worth searching (its runs worked out again)."""
        runs = passage_options(layout, stock, boss, layout.room(wall[0]), wall[1])
        if runs:
            self.faces[wall] = runs
        else:
            del self.faces[wall]
        return bool(runs)

    def searched(self, wall: Wall, searches_of_room: int) -> None:
        self.faces.pop(wall, None)
        if searches_of_room >= SEARCHES_PER_ROOM:
            for other in [w for w in self.faces if w[0] == wall[0]]:
                del self.faces[other]

    def close(self, wall: Wall) -> None:
        self.exits.pop(wall, None)

    def way_on(self, layout: Layout, stock: Stock, boss: tuple[int, int]) -> bool:
        """Some open exit or some wall to search is left (worked out only as far as needed)."""
        if self.exits:
            return True
        for wall, runs in list(self.faces.items()):
            if runs is not None or self._work_out(layout, stock, boss, wall):
                return True
        return False

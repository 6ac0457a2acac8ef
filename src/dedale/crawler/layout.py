"""Where a room may go: the laying rules of the spec as pure geometry over the rooms laid so far.

- Beyond an exit (or the entrance, or a secret passage) the new room lies wholly in the zone beyond, touches
  the shared edge where a legal door joins it to what it is entered from, obeys the entry-and-exit rule
  (another edge of its zone leading to a zone on the board; not for the boss), and overlaps nothing.
- Filling lays it in the zone of the room the party is in, sharing a wall where a legal door fits; dead
  ends allowed.
- A zone never holds more than 3 rooms; no door cell is one of the 4 corner cells of its zone (`door_corners`
  "zone", the text's reading; zones of 2 cells a side excepted) or of its room ("room": 2-cell sides excepted).
Occupancy is one bitmask per zone, so a fit test is one AND.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from dedale.core.grid import DIRS, Cell, Dir, Rect
from dedale.crawler.board import Board, Zone
from dedale.crawler.model import Door, Passage, Room
from dedale.crawler.tiles import orientations

MAX_ROOMS_PER_ZONE = 3
MAX_PASSAGE = 3

DoorOption = tuple[int | None, Cell, Cell]  # (room entered from, its cell, the new room's cell)
Place = tuple[Rect, int, frozenset[Cell]]  # a rectangle in a zone, its occupancy mask, where a door may enter it
WallPlace = tuple[tuple[int, int, int, int], int, tuple[tuple[Cell, Cell], ...]]  # x, y, w, h, mask, door places


class Approach(NamedTuple):  # a named tuple: quick to make, and made for every room
    """How the next room is reached: through `entry`, the edge of `zone` it comes in by.

    `pairs` are the door places: (outside cell, inside cell) with the outside cell in the room left
    (a legal door cell of it), off the board (the entrance) or at a secret passage's end.
    """

    kind: str  # "entrance", "exit" or "passage"
    room: int | None
    zone: Zone
    entry: Dir
    pairs: tuple[tuple[Cell, Cell], ...]


class Candidate(NamedTuple):  # made for every place a room may take
    rect: Rect
    doors: tuple[DoorOption, ...]


@lru_cache(maxsize=4096)
def _mask(cells: int, lx: int, ly: int, w: int, h: int) -> int:
    row = (1 << w) - 1
    mask = 0
    for dy in range(h):
        mask |= row << (lx + (ly + dy) * cells)
    return mask


def zone_corner(cells: int, cell: Cell) -> bool:
    """`cell` is one of the 4 corner cells of its zone (of `cells` x `cells`), where no door goes (the zone
    reading of the corner ban). A zone of 2 cells a side has no other cells: there the ban is lifted."""
    return cells > 2 and cell[0] % cells in (0, cells - 1) and cell[1] % cells in (0, cells - 1)


def door_cells(cells: int, zone_corners: bool, rect: Rect, d: Dir) -> list[Cell]:
    """The cells of side `d` of a room `rect` that may hold a door: not a corner cell of its zone (with
    `zone_corners`), or of the room (`Rect.door_cells`, 2-cell sides excepted)."""
    if zone_corners:
        return [cell for cell in rect.side(d) if not zone_corner(cells, cell)]
    return rect.door_cells(d)


class Layout:
    """The rooms, doors and passages laid so far, with the occupancy they imply. `zone_corners`: no door
    on a zone's corner cells (the text's reading); otherwise none on a room's (`door_corners` "room")."""

    def __init__(self, board: Board, zone_corners: bool = True) -> None:
        self.board = board
        self.zone_corners = zone_corners
        self.rooms: list[Room] = []
        self.doors: list[Door] = []
        self.passages: list[Passage] = []
        self.occupied: dict[Zone, int] = {}
        self.room_count: dict[Zone, int] = {}
        self.door_dirs: dict[int, set[Dir]] = {}
        self.sides: dict[int, tuple[tuple[Dir, ...], tuple[Dir, ...]]] = {}  # room -> its exit sides, its free faces
        self._fits: dict[tuple[object, ...], bool] = {}  # fits_any() answers, by zone occupancy

    # --- occupancy ------------------------------------------------------------------------------
    def _rect_mask(self, zone: Zone, rect: Rect) -> int:
        c = self.board.cells
        return _mask(c, rect.x - zone[0] * c, rect.y - zone[1] * c, rect.w, rect.h)

    def cell_free(self, cell: Cell) -> bool:
        c = self.board.cells
        (zx, lx), (zy, ly) = divmod(cell[0], c), divmod(cell[1], c)
        return not self.occupied.get((zx, zy), 0) >> (lx + ly * c) & 1  # the cell's bit in its zone's mask

    def _occupy(self, zone: Zone, rect: Rect) -> None:
        self.occupied[zone] = self.occupied.get(zone, 0) | self._rect_mask(zone, rect)

    def has_room_space(self, zone: Zone) -> bool:
        return self.room_count.get(zone, 0) < MAX_ROOMS_PER_ZONE

    def room(self, room_id: int) -> Room:
        return self.rooms[room_id - 1]

    # --- laying ----------------------------------------------------------------------------------
    def add_room(self, room: Room, door: Door) -> None:
        self.rooms.append(room)
        r, c, zone = room.rect, self.board.cells, room.zone
        touched, free = _touched(c, r.x - zone[0] * c, r.y - zone[1] * c, r.w, r.h)
        self.sides[room.id] = (_exit_sides(touched, _leading(self.board.zones, zone)), free)
        self._occupy(room.zone, room.rect)
        self.room_count[room.zone] = self.room_count.get(room.zone, 0) + 1
        self.doors.append(door)
        self.door_dirs[room.id] = {door.direction.opposite}
        entered_from = door.rooms[0]
        if entered_from is not None and self.room(entered_from).rect.contains(door.cells[0]):
            self.door_dirs[entered_from].add(door.direction)  # not for a door at a passage's end

    def add_passage(self, passage: Passage) -> None:
        self.passages.append(passage)
        for cell in passage.cells:
            self._occupy(self.board.zone_of(cell), Rect(cell[0], cell[1], 1, 1))

    # --- exits -------------------------------------------------------------------------------------
    def open_exits(self, room: Room) -> list[Dir]:
        """Edges of the room's zone that the room touches, that lead to a zone on the board, and that
        no door of the room already goes through."""
        doors, found = self.door_dirs[room.id], []
        for d in self.sides[room.id][0]:
            if d not in doors:
                found.append(d)
        return found

    def exit_approach(self, room: Room, d: Dir) -> Approach:
        pairs, dx, dy = [], d.dx, d.dy
        for x, y in door_cells(self.board.cells, self.zone_corners, room.rect, d):
            pairs.append(((x, y), (x + dx, y + dy)))
        zx, zy = room.zone
        return Approach("exit", room.id, (zx + dx, zy + dy), d.opposite, tuple(pairs))

    def entrance_approach(self, zone: Zone, side: Dir) -> Approach:
        inside = self.board.zone_rect(zone).side(side)
        return Approach("entrance", None, zone, side, tuple((side.step(cell), cell) for cell in inside))

    # --- where a room fits -------------------------------------------------------------------------
    def beyond(self, approach: Approach, size: tuple[int, int], boss: bool) -> list[Candidate]:
        """Positions and rotations of a `size` room laid through `approach`."""
        zone, board = approach.zone, self.board
        if not board.on_board(zone) or self.room_count.get(zone, 0) >= MAX_ROOMS_PER_ZONE:
            return []
        occupied, room, pairs = self.occupied.get(zone, 0), approach.room, approach.pairs
        found = []
        # Plain loops: in Python 3.11 a comprehension is a function made and called each time.
        for rect, mask, inside in _edge_places(board.zones, board.cells, zone, approach.entry, size, boss,
                                                          self.zone_corners):
            if occupied & mask:
                continue
            doors: list[DoorOption] = []
            for a, b in pairs:
                if b in inside:
                    doors.append((room, a, b))
            if doors:
                found.append(Candidate(rect, tuple(doors)))
        return found

    def why_not_beyond(self, approach: Approach, size: tuple[int, int]) -> str:
        """Why no `size` room can be laid through `approach` (which `beyond` found) when a room of another size
        can (so the zone is not full): "no_way_on", it would fit but open onto no other zone (the entry-and-exit
        rule), or "no_space"."""
        zone = approach.zone
        occupied = self.occupied.get(zone, 0)
        for _, mask, inside in _edge_places(self.board.zones, self.board.cells, zone, approach.entry, size,
                                            True, self.zone_corners):  # as for the boss: any edge will do
            if not occupied & mask and any(b in inside for _, b in approach.pairs):
                return "no_way_on"
        return "no_space"

    def fits_any(self, approach: Approach, sizes: tuple[tuple[int, int], ...]) -> bool:
        """Some room of one of `sizes` can be laid through `approach` (asked for every wall a party might
        search, so answers are kept while the zone beyond is unchanged)."""
        zone = approach.zone
        key = (zone, approach.entry, approach.pairs, sizes, self.occupied.get(zone, 0),
               self.room_count.get(zone, 0))
        fits = self._fits.get(key)
        if fits is None:
            fits = self._fits[key] = any(self.beyond(approach, size, False) for size in sizes)
        return fits

    def filling(self, rooms: list[Room], size: tuple[int, int]) -> list[Candidate]:
        """Positions and rotations of a `size` room laid by filling the zone of one of `rooms`,
        sharing a wall with it where a legal door fits."""
        by_rect: dict[tuple[int, int, int, int], tuple[Rect, list[DoorOption]]] = {}
        c = self.board.cells
        for room in rooms:
            zone = room.zone
            if not self.has_room_space(zone):
                continue
            occupied = self.occupied.get(zone, 0)
            x0, y0, r = zone[0] * c, zone[1] * c, room.rect
            for (x, y, w, h), mask, doors in _wall_places(c, (r.x - x0, r.y - y0, r.w, r.h), size,
                                                          self.zone_corners):
                if occupied & mask:
                    continue
                place = (x0 + x, y0 + y, w, h)
                found = by_rect.get(place)
                if found is None:
                    found = by_rect[place] = (Rect(*place), [])
                for (ax, ay), (bx, by) in doors:
                    found[1].append((room.id, (x0 + ax, y0 + ay), (x0 + bx, y0 + by)))
        return [Candidate(rect, tuple(doors)) for rect, doors in by_rect.values()]

    # --- secret passages ---------------------------------------------------------------------------
    def free_faces(self, room: Room) -> tuple[Dir, ...]:
        """Sides of the room that do not lie on its zone's edge."""
        return self.sides[room.id][1]

    def passage_runs(self, room: Room, face: Dir) -> list[tuple[Cell, ...]]:
        """Straight runs from a cell of `face` to the zone edge over empty cells, 1 to 3 long, leading to a
        zone on the board, ending where a door may go: by analogy with doors, a run neither starts on a corner
        cell of its room (the room reading) nor ends on one of its zone (the zone reading; its start, on a
        free face, never is one)."""
        if not self.board.leads(room.zone, face):
            return []
        zone_edge = self.board.zone_rect(room.zone).edge(face)
        length = abs(zone_edge - room.rect.edge(face))
        if not 1 <= length <= MAX_PASSAGE:
            return []
        runs = []
        cells, zone_corners = self.board.cells, self.zone_corners
        for start in room.rect.side(face) if zone_corners else room.rect.door_cells(face):
            run = tuple(face.step(start, i) for i in range(1, length + 1))
            if zone_corners and zone_corner(cells, run[-1]):
                continue
            if all(self.cell_free(cell) for cell in run):
                runs.append(run)
        return runs

    def passage_approach(self, room: Room, face: Dir, run: tuple[Cell, ...]) -> Approach:
        end = run[-1]
        return Approach("passage", room.id, self.board.neighbour(room.zone, face), face.opposite,
                        ((end, face.step(end)),))


# Where a room of a size may lie in a zone is the same in every dungeon on the board: worked out once.
@lru_cache(maxsize=4096)
def _edge_places(zones: int, cells: int, zone: Zone, entry: Dir, size: tuple[int, int],
                 boss: bool, zone_corners: bool) -> tuple[Place, ...]:
    """Rectangles of `size` (rotated or not) inside `zone` against its `entry` edge, that obey the entry-and-exit
    rule (another edge they touch leads to a zone on the board; not for the boss), with their occupancy masks and
    their cells a door through `entry` may lead to (`door_cells`). Keyed by numbers, quick to hash."""
    board = Board(zones, cells)
    z = board.zone_rect(zone)
    places = []
    for w, h in orientations(size):
        if w > z.w or h > z.h:
            continue
        for rect in _along_edge(z, entry, w, h):
            if boss or any(d is not entry and board.leads(zone, d) for d in board.touched_edges(zone, rect)):
                inside = frozenset(door_cells(cells, zone_corners, rect, entry))
                places.append((rect, _mask(board.cells, rect.x - z.x, rect.y - z.y, w, h), inside))
    return tuple(places)


@lru_cache(maxsize=4096)
def _wall_places(cells: int, room: tuple[int, int, int, int], size: tuple[int, int],
                 zone_corners: bool) -> tuple[WallPlace, ...]:
    """Rectangles of `size` (rotated or not) inside a zone of `cells` x `cells` sharing a wall with `room` where a
    legal door fits, with their occupancy masks and the door places (the room's cell, the new room's cell); in
    the zone's own coordinates, the same in every zone."""
    places = []
    for w, h in orientations(size):
        for y in range(cells - h + 1):
            for x in range(cells - w + 1):
                doors = _shared_doors(cells, zone_corners, Rect(*room), Rect(x, y, w, h))
                if doors:
                    places.append(((x, y, w, h), _mask(cells, x, y, w, h), doors))
    return tuple(places)


# A room's sides, from three small caches (a room's place in its zone; its zone's place on the board).
@lru_cache(maxsize=4096)
def _touched(cells: int, x: int, y: int, w: int, h: int) -> tuple[tuple[Dir, ...], tuple[Dir, ...]]:
    """The edges of a zone of `cells` x `cells` that a room at x, y (in the zone's coordinates) touches, and the
    room's other sides (its free faces), each in the order N, E, S, W."""
    touched = tuple(Board(1, cells).touched_edges((0, 0), Rect(x, y, w, h)))
    return touched, tuple(d for d in DIRS if d not in touched)


@lru_cache(maxsize=1024)
def _leading(zones: int, zone: Zone) -> frozenset[Dir]:
    """The edges of `zone` that lead to a zone on the board."""
    board = Board(zones, 1)
    return frozenset(d for d in DIRS if board.leads(zone, d))


@lru_cache(maxsize=256)
def _exit_sides(touched: tuple[Dir, ...], leading: frozenset[Dir]) -> tuple[Dir, ...]:
    return tuple(d for d in touched if d in leading)


def _along_edge(z: Rect, entry: Dir, w: int, h: int) -> list[Rect]:
    """Rectangles of w x h inside zone `z` lying against its `entry` edge."""
    if entry in (Dir.N, Dir.S):
        y = z.y if entry is Dir.N else z.y + z.h - h
        return [Rect(x, y, w, h) for x in range(z.x, z.x + z.w - w + 1)]
    x = z.x if entry is Dir.W else z.x + z.w - w
    return [Rect(x, y, w, h) for y in range(z.y, z.y + z.h - h + 1)]


def _shared_doors(cells: int, zone_corners: bool, room: Rect, rect: Rect) -> tuple[tuple[Cell, Cell], ...]:
    doors: list[tuple[Cell, Cell]] = []
    for d in DIRS:
        if room.edge(d) != rect.edge(d.opposite):
            continue
        for cell in door_cells(cells, zone_corners, room, d):
            other = d.step(cell)
            if rect.contains(other) and other in door_cells(cells, zone_corners, rect, d.opposite):
                doors.append((cell, other))
    return tuple(doors)

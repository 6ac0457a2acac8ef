"""What a crawler dungeon is made of: rooms, doors, secret passages. Plain data that the session builds and
the renderers draw; the document's shapes (`core.documents`), declared once below, are its codec and its JSON
Schema, and each model class converts to and from its shape in one place (`shape`, `of`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeGuard, cast

from dedale.core.documents import (
    DECISIONS_ARE_EVENTS,
    UNSET,
    DocumentKind,
    Meta,
    Shape,
    UnsetType,
    dump,
    load,
    load_result,
)
from dedale.core.errors import DedaleError
from dedale.core.grid import BY_NAME, Cell, Dir, Rect
from dedale.core.session import check_format
from dedale.crawler.board import Zone

# Where the generation stands (`session.py` draws the phases); a document's "phase"
Phase = Literal["explore", "boss_failed", "fill_or_beyond", "place", "door", "passage", "over"]
Outcome = Literal["boss", "stuck"]  # the boss room laid, or no way on
Tile = Literal["5x5", "4x4", "5x3", "3x3", "3x2", "2x2", "5x2", "boss"]  # `tiles.TILE_NAMES`, D8 faces 1 to 8
Side = Literal["N", "E", "S", "W"]  # a `Dir` by name
SIDES: dict[Dir, Side] = {Dir.N: "N", Dir.E: "E", Dir.S: "S", Dir.W: "W"}
Id = Annotated[int, Meta(ge=1)]  # rooms are numbered from 1
Pair = Annotated[list[int], Meta(min_length=2, max_length=2)]  # a cell (x, y) or a zone (zx, zy)
Label = Annotated[str | dict[str, str], Meta(description=(
    "Only for a row of the player's own tables: its label as their file gives it (one text, or a text by "
    "language). A shipped row has none: its label is looked up by id, in the reader's language."))]


# --- the document's shapes ----------------------------------------------------------------------------------
class Kind(Shape):
    """What a room is: a row of the room kinds' table, kept by its id (`Row.item`)."""

    id: str
    label: Label | UnsetType = UNSET


class Item(Shape, kw_only=True):
    """Creatures or treasure in a room: a row of their table, kept by its id (`Row.item`), and how many."""

    id: str
    label: Label | UnsetType = UNSET
    number: Annotated[int, Meta(ge=0)]


class Contents(Shape):
    """What is in a room (`contents.py`); empty while its rolls wait for dice rolled at the table."""

    kind: Kind | UnsetType = UNSET
    creatures: list[Item] | UnsetType = UNSET
    treasure: list[Item] | UnsetType = UNSET
    dungeon_dice: Annotated[list[str], Meta(
        description="The Dungeon Roll variant: the faces of the dice thrown, by id")] | UnsetType = UNSET


class RoomShape(Shape):
    """A room laid, as a document writes it (`Room`: its rectangle flattened to x, y, w, h)."""

    id: Id
    number: Annotated[int, Meta(ge=1, description="The room counter when it was laid")]
    tile: Annotated[Tile, Meta(description="The tile laid, after any fallback or stock substitution")]
    rolled: Annotated[Tile | None, Meta(
        description="The tile the D8 showed (null: the boss forced as room N, or laid to end)")]
    x: Annotated[int, Meta(ge=0)]
    y: Annotated[int, Meta(ge=0)]
    w: Annotated[int, Meta(ge=1)]
    h: Annotated[int, Meta(ge=1)]
    zone: Annotated[Pair, Meta(description="The zone it lies in (zx, zy)")]
    filling: Annotated[bool, Meta(description="Laid by filling beside the rooms, not beyond an exit")]
    boss: bool
    entered_from: Annotated[Id | None, Meta(description="The room its door opens from (null: the entrance)")]
    contents: Annotated[Contents | None, Meta(description="null in a party's view (the GM's key)")]


class DoorRooms(Shape, array_like=True):
    """The two rooms a door joins: (null, the first room) for the dungeon entrance."""

    before: Id | None
    after: Id


class DoorShape(Shape):
    """A door, as a document writes it (`Door`)."""

    rooms: DoorRooms
    cells: Annotated[list[Pair], Meta(min_length=2, max_length=2, description=(
        "The two edge-adjacent cells it separates; the first off the board for the entrance"))]


class PassageShape(Shape):
    """A secret passage, as a document writes it (`Passage`: with its length, and its face by name)."""

    room: Annotated[Id, Meta(description="The room it starts from")]
    to_room: Annotated[Id, Meta(description="The room laid at its end")]
    cells: Annotated[list[Pair], Meta(min_length=1, max_length=3, description="From the room's face outwards")]
    length: Annotated[int, Meta(ge=1, le=3)]
    face: Annotated[Side, Meta(description="The room's face it leaves by")]


class ClosedExit(Shape, array_like=True):
    """An exit closed: no room fitted beyond it (room, side)."""

    room: Id
    side: Side


class Search(Shape):
    """A wall searched for a secret passage."""

    room: Id
    face: Side
    found: bool


class CrawlerResult(Shape):
    """A crawler document's own fields."""

    size: Annotated[int, Meta(ge=0, description="N, the number of rooms rolled (0 before it is rolled in table mode)")]
    outcome: Annotated[Outcome | None, Meta(description="The boss room laid, or no way on (null: being explored)")]
    phase: Annotated[Phase, Meta(description="Where the generation stands")]
    rooms: list[RoomShape]
    doors: list[DoorShape]
    passages: list[PassageShape]
    closed_exits: list[ClosedExit]
    searches: list[Search]
    stock_left: Annotated[dict[str, int] | None, Meta(
        description="The tiles left in each limited pile, by tile (null: no pile is limited)")]


# --- the model ------------------------------------------------------------------------------------------------
@dataclass
class Room:
    id: int
    number: int  # the room counter when it was laid
    tile: str  # the tile laid, after any fallback or stock substitution ("boss" for the boss room)
    rolled: str | None  # the tile the D8 showed (None: the boss forced as room N, or laid to end)
    rect: Rect
    zone: Zone
    filling: bool
    boss: bool
    entered_from: int | None
    contents: dict[str, Any] | None = field(default_factory=dict)  # None: not shown (the party view)

    def shape(self) -> RoomShape:
        r = self.rect
        contents = None if self.contents is None else load(Contents, self.contents)
        return RoomShape(self.id, self.number, cast("Tile", self.tile), cast("Tile | None", self.rolled), r.x, r.y, r.w,
                         r.h, list(self.zone), self.filling, self.boss, self.entered_from, contents)

    @classmethod
    def of(cls, s: RoomShape) -> Room:
        return cls(s.id, s.number, s.tile, s.rolled, Rect(s.x, s.y, s.w, s.h), (s.zone[0], s.zone[1]), s.filling,
                   s.boss, s.entered_from, None if s.contents is None else dump(s.contents))


@dataclass(frozen=True)
class Door:
    rooms: tuple[int | None, int]  # (None, first room) for the dungeon entrance
    cells: tuple[Cell, Cell]  # the two edge-adjacent cells it separates; the first off-board for the entrance

    @property
    def direction(self) -> Dir:
        """The way through, from the first cell to the second."""
        (xa, ya), (xb, yb) = self.cells
        return _BY_STEP[xb - xa, yb - ya]

    def shape(self) -> DoorShape:
        return DoorShape(DoorRooms(*self.rooms), [list(self.cells[0]), list(self.cells[1])])

    @classmethod
    def of(cls, s: DoorShape) -> Door:
        (xa, ya), (xb, yb) = s.cells
        return cls((s.rooms.before, s.rooms.after), ((xa, ya), (xb, yb)))


@dataclass(frozen=True)
class Passage:
    room: int  # where it starts
    to_room: int
    cells: tuple[Cell, ...]  # from the room's face outwards
    face: Dir

    @property
    def length(self) -> int:
        return len(self.cells)

    def shape(self) -> PassageShape:
        return PassageShape(self.room, self.to_room, [list(c) for c in self.cells], self.length, SIDES[self.face])

    @classmethod
    def of(cls, s: PassageShape) -> Passage:
        return cls(s.room, s.to_room, tuple((c[0], c[1]) for c in s.cells), BY_NAME[s.face])


_BY_STEP = {(d.dx, d.dy): d for d in Dir}


@dataclass
class Dungeon:
    """The result, as renderers see it (a session's state or a loaded JSON document)."""

    board_zones: int
    zone_cells: int
    size: int | None
    outcome: str | None  # "boss", "stuck", or None while being explored
    rooms: list[Room]
    doors: list[Door]
    passages: list[Passage]
    seed: int | str | None = None  # a document writes a long seed as its text (`core.seeds`)

    @classmethod
    def from_json(cls, data: Any) -> Dungeon:
        """Load a crawler document for rendering (no replay, so no tables needed): its result read as its
        shape, refused with the path of the first field that is wrong."""
        check_format(data, "crawler")
        params = data.get("params")
        zones, cells = (params.get("board_zones"), params.get("zone_cells")) if isinstance(params, dict) else (0, 0)
        if not (_count(zones) and _count(cells)):
            raise DedaleError("error.bad_document", field="params")
        result = load_result(CrawlerResult, data)
        return cls(zones, cells, result.size, result.outcome, [Room.of(r) for r in result.rooms],
                   [Door.of(d) for d in result.doors], [Passage.of(p) for p in result.passages], data.get("seed"))


def _count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def party_view(document: dict[str, Any]) -> dict[str, Any]:
    """The party view of a dungeon: every room laid (it went in), each without its contents (the GM's
    key), and the doors and secret passages found."""
    return {"rooms": [{**room, "contents": None} for room in document["rooms"]]}


DOCUMENT = DocumentKind(
    CrawlerResult, title="Dédale crawler dungeon",
    description="A crawler dungeon or a session in progress: seed, parameters, events (to replay), the rooms, "
                "doors and secret passages laid, and the log of every roll and choice.",
    versions={1: "the log did not say why a room could not go beyond an exit, and a passed boss check's room "
                 "that found no place was given up (it loads, replayed with passed_boss reroll)",
              2: "the log says why a rolled room cannot go beyond an exit, and a passed boss check's room that "
                 "found no place goes to the next exit taken (passed_boss stays)",
              3: "doors, exits and searches are worded by what the picture shows (the wall, the square, the "
                 "number), not by coordinates (a version-2 document loads, checked without its log's words)",
              4: "params record door_corners, zone by default: no door on a zone's 4 corner cells (the text's "
                 "reading); a document before it, made with no door on a room's corner cells, loads as room",
              5: DECISIONS_ARE_EVENTS},
    envelope={"seed": {"description": "null in a party view, which it would give away"}})

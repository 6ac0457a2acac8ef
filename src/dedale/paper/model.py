"""What a paper dungeon is made of: squares, doors, rooms, open ends. Plain data that the session builds,
the renderers draw and the JSON carries. The features, rooms, doors and open ends are the document's own shapes
(`core.documents`): declared once, they are its codec and its JSON Schema."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, cast

import msgspec

from dedale.core.cards import Card, Rank, Suit
from dedale.core.documents import DECISIONS_ARE_EVENTS, UNSET, DocumentKind, Meta, Shape, UnsetType, load_result
from dedale.core.errors import DedaleError
from dedale.core.grid import Cell, Dir, Rect
from dedale.core.session import check_format

# What the player is asked (the session's docstring draws the phases); a document's "phase"
Phase = Literal["explore", "stairs_or_exit", "queen", "room_exit", "over"]
Ending = Literal["budget", "stopped", "complete"]  # the cards ran out, the player stopped, nothing left open
DirName = Literal["N", "E", "S", "W"]
Wall = Literal["left", "facing", "right"]  # a room's wall, seen from its entry door
FeatureKind = Literal["start", "corridor", "trap_corridor", "crossroads", "bend_right", "bend_left", "t_junction",
                      "stairs_up", "stairs_down", "exit", "dead_end", "room", "queen", "draw_again", "reshuffle",
                      "set_aside"]
ExitResult = Literal["open", "joined", "off_page", "taken", "lost"]
DoorKind = Literal["entrance", "door", "opening", "secret"]
DoorWay = Literal["both", "forward", "backward"]
Outcome = Literal["complete", "joined", "edge"]  # how a corridor's run ended
SquareKind = Literal["room", "corridor", "trap", "stairs_up", "stairs_down", "exit", "dead_end"]
Pair = Annotated[list[int], Meta(min_length=2, max_length=2)]  # a square, [x, y]
Natural = Annotated[int, Meta(ge=0)]
Position = Annotated[int, Meta(ge=1)]  # a square along a wall, from 1


def named(d: Dir) -> DirName:
    """A direction as a document writes it."""
    return cast(DirName, d.name)


class Drawn(Shape, omit_defaults=True):
    """A card drawn (its rank and suit), or the pile reshuffled by a King."""

    rank: Rank | UnsetType = UNSET
    suit: Suit | UnsetType = UNSET
    reshuffle: Literal[True] | UnsetType = UNSET

    def __post_init__(self) -> None:  # on loading too: a rank goes with a suit, and a card is no reshuffle
        if (self.rank is UNSET) != (self.suit is UNSET) or (self.rank is UNSET) == (self.reshuffle is UNSET):
            raise ValueError("a card drawn (rank and suit) or a reshuffle")


DRAWN = {"oneOf": [{"required": ["rank", "suit"]}, {"required": ["reshuffle"]}]}


class Dice(Shape, omit_defaults=True):
    """The rolls that placed and made a feature, by what they decided."""

    x: int | UnsetType = UNSET  # its squares (the card's suit die)
    trap: int | UnsetType = UNSET  # a trap corridor's 1D6
    t: int | UnsetType = UNSET  # a T junction's 1D6
    size: Pair | UnsetType = UNSET  # a room's two suit dice


class Feature(Shape, omit_defaults=True):
    """What a card (or the start) made: a room, a run of corridor, or nothing drawn (a Queen, a King)."""

    id: Natural
    card: Card | None  # None: the starting room
    kind: FeatureKind
    dice: Dice
    end: int | None  # the open end it was drawn for (None: the starting room)
    cells: list[Pair]
    dir: DirName | UnsetType = UNSET  # a corridor's way
    outcome: Outcome | UnsetType = UNSET
    trap: Literal["pit", "other"] | UnsetType = UNSET
    room: int | UnsetType = UNSET  # the room it is


class Rolled(Shape):
    """Where an exit was rolled, when it could not go there and was moved (exit_collisions move)."""

    wall: Wall
    position: Position


class Exit(Shape, kw_only=True, omit_defaults=True):
    """A room's exit (step C): on which wall and square, and what came of it."""

    wall: Wall
    side: DirName
    position: Position
    cell: Pair  # the room's square
    outside: Pair  # the square beyond the wall
    wall_roll: int | None  # the 1D6 for the wall (None: placed by the player, or the starting room's)
    rolled: Rolled | UnsetType = UNSET
    result: Annotated[ExitResult, Meta(description=(
        "open or joined: drawn; lost: no square of the room's walls could take it; off_page and taken: dropped "
        "(exit_collisions drop, and version 1)"))]


Label = Annotated[str | dict[str, str], Meta(description=(
    "Only for a row of the player's own tables: its label as their file gives it (one text, or a text by "
    "language). A shipped row has none: its label is looked up by id, in the reader's language."))]


class ContentsRow(Shape, omit_defaults=True):
    """A row of a table nested under the contents' row (`then`)."""

    id: str
    label: Label | UnsetType = UNSET


class Contents(Shape, omit_defaults=True):
    """The contents table's row, and in `detail` the rows of the tables nested under it (`then`), each by id."""

    # none for the starting room, and while a room's exits are placed

    id: str | UnsetType = UNSET
    label: Label | UnsetType = UNSET
    detail: list[ContentsRow] | UnsetType = UNSET


class Room(Shape):
    """A room: its rectangle, the way in, its rolls, its exits and its contents (the GM's key)."""

    id: Annotated[int, Meta(ge=1)]
    feature: Natural
    x: Natural
    y: Natural
    w: Annotated[int, Meta(ge=1)]
    h: Annotated[int, Meta(ge=1)]
    entry: DirName  # the way the party goes in
    door: Annotated[list[Pair], Meta(min_length=2, max_length=2)]  # [outside square, the room's square]
    # the two suit-die rolls (None: the starting room)
    size_dice: Annotated[list[Annotated[int, Meta(ge=1, le=10)]], Meta(min_length=2, max_length=2)] | None
    size: Annotated[list[Annotated[int, Meta(ge=1)]], Meta(min_length=2, max_length=2)]  # after rule B
    exits_roll: Annotated[int, Meta(ge=1, le=4)] | None  # the 1D4 (exits = roll - 1)
    exits: list[Exit]
    contents_roll: int | None
    contents: Annotated[Contents | None, Meta(description="null in a party's view (the GM's key)")]

    @property
    def rect(self) -> Rect:
        return Rect(self.x, self.y, self.w, self.h)

    @property
    def heading(self) -> Dir:
        """The way the party goes in."""
        return Dir[self.entry]


class Door(Shape):
    """A way between two edge-adjacent squares: a door, an opening, a secret door, or the entrance."""

    # an opening: where a corridor joins the map; a secret door opens both ways, or one way (`way`: forward
    # from the first square to the second, or backward); the entrance comes from off the page

    cells: Annotated[list[Pair], Meta(min_length=2, max_length=2)]
    kind: DoorKind
    way: DoorWay = "both"

    @property
    def squares(self) -> tuple[Cell, Cell]:
        (xa, ya), (xb, yb) = self.cells
        return (xa, ya), (xb, yb)


class OpenEnd(Shape):
    """Where the map goes on: the free square the next feature starts on, and the way it goes."""

    id: int
    x: int
    y: int
    dir: DirName
    behind: Pair  # the square it comes from
    source: int = msgspec.field(name="from")  # the feature it comes from

    @property
    def cell(self) -> Cell:
        return self.x, self.y

    @property
    def heading(self) -> Dir:
        return Dir[self.dir]

    @property
    def back(self) -> Cell:
        """The square it comes from."""
        return self.behind[0], self.behind[1]


class Square(Shape):
    """A square in use: what is on it, and the feature it belongs to."""

    x: Natural
    y: Natural
    kind: SquareKind
    feature: int


class PaperResult(Shape):
    """A paper document's own fields."""

    phase: Phase
    ended: Ending | None
    cards_used: Natural
    draws: list[Annotated[Drawn, Meta(extra_json_schema=DRAWN)]]
    features: list[Feature]
    rooms: list[Room]
    cells: list[Square]  # row by row
    doors: list[Door]
    open_ends: list[OpenEnd]
    searched: Annotated[list[Annotated[list[int | DirName], Meta(
        min_length=2, max_length=2, extra_json_schema={"prefixItems": [{"type": "integer", "minimum": 0},
                                                                       {"enum": ["N", "E", "S", "W"]}]})]],
        Meta(description="The walls searched for a secret door: [feature, side]")]


@dataclass
class PaperMap:
    """The result, as renderers see it (a session's state or a loaded JSON document)."""

    width: int
    height: int
    cells: dict[Cell, tuple[SquareKind, int]]  # square -> (kind, feature), row by row (as in the JSON)
    doors: list[Door]
    rooms: list[Room]
    features: list[Feature]
    open_ends: list[OpenEnd]
    ended: str | None = None
    seed: int | str | None = None  # a document writes a long seed as its text (`core.seeds`)
    cards_used: int = 0

    @classmethod
    def from_json(cls, data: Any) -> PaperMap:
        """Load a paper document for rendering (no replay)."""
        check_format(data, "paper")
        try:
            width, height = data["params"]["width"], data["params"]["height"]
        except (KeyError, TypeError):
            raise DedaleError("error.bad_document", field="params") from None
        result = load_result(PaperResult, data)
        cells = {(c.x, c.y): (c.kind, c.feature) for c in result.cells}
        return cls(width, height, cells, result.doors, result.rooms, result.features, result.open_ends, result.ended,
                   data.get("seed"), result.cards_used)


def party_view(document: dict[str, Any]) -> dict[str, Any]:
    """The party view of a paper dungeon: every corridor and room drawn, the rooms without their
    contents (the GM's key)."""
    return {"rooms": [{**room, "contents": None, "contents_roll": None} for room in document["rooms"]]}


DOCUMENT = DocumentKind(
    PaperResult, title="Dédale paper dungeon",
    description="A paper dungeon or a session in progress: seed, parameters, events (to replay), the cards drawn, "
                "the features they made, the rooms, every square in use, the doors, the open ends left, and the "
                "log of every card, roll and choice.",
    versions={1: "an exit that could not go on its square was not drawn (it loads, and replays as it was made)",
              2: "an exit that cannot go on its square goes on the nearest free one",
              3: "open ends, exits and searches are worded by what the picture shows, not by coordinates (a "
                 "version-2 document loads, checked without its log's words)",
              4: "the log names a feature as the picture shows it, a room by its number, anything else by its "
                 "card, not by a feature number the picture never shows (a version-3 document loads, checked "
                 "without its log's words)",
              5: DECISIONS_ARE_EVENTS},
    envelope={"seed": {"description": "null in a party's view, which it would give away"}})

"""What a crawler dungeon is made of: rooms, doors, secret passages. Plain data that the session builds,
the renderers draw, and the JSON carries (field names fixed by the JSON contract)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dedale.core.errors import DedaleError
from dedale.core.grid import Cell, Dir, Rect
from dedale.core.session import check_format
from dedale.crawler.board import Zone


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

    def to_json(self) -> dict[str, Any]:
        r = self.rect
        return {"id": self.id, "number": self.number, "tile": self.tile, "rolled": self.rolled,
                "x": r.x, "y": r.y, "w": r.w, "h": r.h, "zone": list(self.zone), "filling": self.filling,
                "boss": self.boss, "entered_from": self.entered_from, "contents": self.contents}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Room:
        return cls(d["id"], d["number"], d["tile"], d.get("rolled"), Rect(d["x"], d["y"], d["w"], d["h"]),
                   (d["zone"][0], d["zone"][1]), bool(d["filling"]), bool(d["boss"]), d["entered_from"],
                   None if d.get("contents", {}) is None else dict(d.get("contents") or {}))


@dataclass(frozen=True)
class Door:
    rooms: tuple[int | None, int]  # (None, first room) for the dungeon entrance
    cells: tuple[Cell, Cell]  # the two edge-adjacent cells it separates; the first off-board for the entrance

    @property
    def direction(self) -> Dir:
        """The way through, from the first cell to the second."""
        (xa, ya), (xb, yb) = self.cells
        return _BY_STEP[xb - xa, yb - ya]

    def to_json(self) -> dict[str, Any]:
        return {"rooms": list(self.rooms), "cells": [list(self.cells[0]), list(self.cells[1])]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Door:
        (xa, ya), (xb, yb) = d["cells"]
        return cls((d["rooms"][0], d["rooms"][1]), ((xa, ya), (xb, yb)))


@dataclass(frozen=True)
class Passage:
    room: int  # where it starts
    to_room: int
    cells: tuple[Cell, ...]  # from the room's face outwards
    face: Dir

    @property
    def length(self) -> int:
        return len(self.cells)

    def to_json(self) -> dict[str, Any]:
        return {"room": self.room, "to_room": self.to_room, "cells": [list(c) for c in self.cells],
                "length": self.length, "face": self.face.name}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Passage:
        return cls(d["room"], d["to_room"], tuple((c[0], c[1]) for c in d["cells"]), Dir[d["face"]])


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
    seed: int | None = None

    @classmethod
    def from_json(cls, data: Any) -> Dungeon:
        """Load a crawler document for rendering (no replay, so no tables needed)."""
        check_format(data, "crawler")
        try:
            params = data["params"]
            return cls(params["board_zones"], params["zone_cells"], data["size"], data["outcome"],
                       [Room.from_json(r) for r in data["rooms"]], [Door.from_json(d) for d in data["doors"]],
                       [Passage.from_json(p) for p in data["passages"]], data.get("seed"))
        except (KeyError, TypeError, ValueError, IndexError, StopIteration):
            raise DedaleError("error.bad_document", field="rooms/doors/passages") from None


def party_view(document: dict[str, Any]) -> dict[str, Any]:
    """The party view of a dungeon: every room laid (it went in), each without its contents (the GM's
    key), and the doors and secret passages found."""
    return {"rooms": [{**room, "contents": None} for room in document["rooms"]]}

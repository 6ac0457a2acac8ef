"""What a paper dungeon is made of: squares, doors, rooms, open ends. Plain data that the session builds,
the renderers draw and the JSON carries (field names fixed by the JSON contract)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dedale.core.errors import DedaleError
from dedale.core.grid import Cell, Dir, Rect
from dedale.core.session import check_format


@dataclass(frozen=True)
class OpenEnd:
    """Where the map goes on: the free square the next feature starts on, and the way it goes."""

    id: int
    cell: Cell
    dir: Dir
    behind: Cell  # the square it comes from
    source: int  # the feature it comes from

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "x": self.cell[0], "y": self.cell[1], "dir": self.dir.name,
                "behind": list(self.behind), "from": self.source}


@dataclass(frozen=True)
class Door:
    """A way between two edge-adjacent squares: a door, an opening where a corridor joins the map, a secret
    door (`way`: both, or one way, forward from the first square to the second or backward), or the
    entrance from off the page."""

    cells: tuple[Cell, Cell]
    kind: str  # "entrance", "door", "opening" or "secret"
    way: str = "both"

    def to_json(self) -> dict[str, Any]:
        return {"cells": [list(self.cells[0]), list(self.cells[1])], "kind": self.kind, "way": self.way}


@dataclass
class Room:
    id: int
    feature: int
    rect: Rect
    entry: Dir  # the way the party goes in
    door: tuple[Cell, Cell]  # (outside square, the room's square)
    size_dice: tuple[int, int] | None  # the two suit-die rolls (None: the starting room)
    size: tuple[int, int]  # after rule B, before any shrinking: (along the entry wall, depth)
    exits_roll: int | None = None  # the 1D4 (exits = roll - 1)
    exits: list[dict[str, Any]] = field(default_factory=list)
    contents_roll: int | None = None
    contents: dict[str, Any] | None = field(default_factory=dict)  # {}: the starting room; None: not shown

    def to_json(self) -> dict[str, Any]:
        r = self.rect
        return {"id": self.id, "feature": self.feature, "x": r.x, "y": r.y, "w": r.w, "h": r.h,
                "entry": self.entry.name, "door": [list(self.door[0]), list(self.door[1])],
                "size_dice": None if self.size_dice is None else list(self.size_dice), "size": list(self.size),
                "exits_roll": self.exits_roll, "exits": self.exits, "contents_roll": self.contents_roll,
                "contents": self.contents}


@dataclass
class PaperMap:
    """The result, as renderers see it (a session's state or a loaded JSON document)."""

    width: int
    height: int
    cells: dict[Cell, tuple[str, int]]  # square -> (kind, feature), row by row (as in the JSON)
    doors: list[Door]
    rooms: list[Room]
    features: list[dict[str, Any]]
    open_ends: list[OpenEnd]
    ended: str | None = None
    seed: int | None = None
    cards_used: int = 0

    @classmethod
    def from_json(cls, data: Any) -> PaperMap:
        """Load a paper document for rendering (no replay)."""
        check_format(data, "paper")
        try:
            params = data["params"]
            cells = {(c["x"], c["y"]): (c["kind"], c["feature"]) for c in data["cells"]}
            doors = [Door(((d["cells"][0][0], d["cells"][0][1]), (d["cells"][1][0], d["cells"][1][1])), d["kind"],
                          d.get("way", "both")) for d in data["doors"]]
            rooms = [_room(r) for r in data["rooms"]]
            ends = [OpenEnd(e["id"], (e["x"], e["y"]), Dir[e["dir"]], (e["behind"][0], e["behind"][1]), e["from"])
                    for e in data["open_ends"]]
            return cls(params["width"], params["height"], cells, doors, rooms, list(data["features"]), ends,
                       data.get("ended"), data.get("seed"), int(data.get("cards_used", 0)))
        except (KeyError, TypeError, ValueError, IndexError):
            raise DedaleError("error.bad_document", field="cells/doors/rooms/open_ends") from None


def _room(r: dict[str, Any]) -> Room:
    (ax, ay), (bx, by) = r["door"]
    dice = r.get("size_dice")
    return Room(r["id"], r["feature"], Rect(r["x"], r["y"], r["w"], r["h"]), Dir[r["entry"]], ((ax, ay), (bx, by)),
                None if dice is None else (dice[0], dice[1]), (r["size"][0], r["size"][1]), r.get("exits_roll"),
                list(r.get("exits") or []), r.get("contents_roll"),
                None if r.get("contents", {}) is None else dict(r.get("contents") or {}))


def party_view(document: dict[str, Any]) -> dict[str, Any]:
    """The party view of a paper dungeon: every corridor and room drawn, the rooms without their
    contents (the GM's key)."""
    return {"rooms": [{**room, "contents": None, "contents_roll": None} for room in document["rooms"]]}

"""The crawler's parameters: every rule variant of the spec, validated, with the spec's defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dedale.core.dice import DiceExpr
from dedale.core.errors import DedaleError
from dedale.core.grid import Dir
from dedale.core.numbers import whole
from dedale.crawler.board import Board, Zone
from dedale.crawler.tiles import parse_stock

MAX_ZONES = 20
MAX_CELLS = 12
MAX_ROOMS = 99
CONTENTS = ("tables", "dungeon-roll")


@dataclass(frozen=True)
class CrawlerParams:
    board_zones: int = 5
    zone_cells: int = 5
    size_rule: str = "3d6"  # a dice expression or a fixed number of rooms
    boss_size: tuple[int, int] = (0, 0)  # (0, 0): 5x5, or the whole zone when zones are smaller
    start_zone: Zone | None = None  # default: the middle zone of the south edge
    start_side: str | None = None  # default: the board edge of the start zone (south first)
    fill_chance: float = 0.3
    stock: dict[str, int] | None = None  # None: unlimited tiles
    early_boss: bool = True  # False: skip the early-boss check, the boss comes only as room N
    contents: str = "tables"  # or "dungeon-roll": the tables give a number of Dungeon Roll dice
    tables: str | None = None  # the player's own table folder

    def __post_init__(self) -> None:
        if self.boss_size == (0, 0) and isinstance(self.zone_cells, int):
            side = min(5, self.zone_cells)
            object.__setattr__(self, "boss_size", (side, side))
        self._check()

    @property
    def board(self) -> Board:
        return Board(self.board_zones, self.zone_cells)

    @property
    def size_dice(self) -> DiceExpr | None:
        return None if whole(self.size_rule) is not None else DiceExpr.parse(self.size_rule, "size")

    @property
    def start(self) -> tuple[Zone, Dir]:
        z = self.board_zones
        zone = self.start_zone if self.start_zone is not None else (z // 2, z - 1)
        if self.start_side is not None:
            return zone, Dir[self.start_side]
        rim = [d for d in (Dir.S, Dir.W, Dir.E, Dir.N) if not self.board.leads(zone, d)]
        return zone, rim[0] if rim else Dir.S

    def _check(self) -> None:
        for name, value, top in (("board", self.board_zones, MAX_ZONES), ("zone", self.zone_cells, MAX_CELLS)):
            if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= top:
                raise DedaleError("error.range", param=name, value=value, low=2, high=top)
        self._check_size()
        w, h = self.boss_size
        if not (2 <= w <= self.zone_cells and 2 <= h <= self.zone_cells):
            raise DedaleError("error.boss_size", value=f"{w}x{h}", cells=self.zone_cells)
        if isinstance(self.fill_chance, bool) or not 0 <= self.fill_chance <= 1:
            raise DedaleError("error.chance", param="fill-chance", value=self.fill_chance)
        zone, side = self.start_zone, self.start_side
        if zone is not None and not self.board.on_board(zone):
            raise DedaleError("error.start_zone", value=f"{zone[0]},{zone[1]}", high=self.board_zones - 1)
        if side is not None and side not in Dir.__members__:
            raise DedaleError("error.start_side", value=side)
        start_zone, start_side = self.start
        if self.board.leads(start_zone, start_side):
            raise DedaleError("error.start_rim", zone=f"{start_zone[0]},{start_zone[1]}", side=start_side.name)
        if self.contents not in CONTENTS:
            raise DedaleError("error.one_of", param="contents", value=self.contents, accepted=", ".join(CONTENTS))

    def _check_size(self) -> None:
        rooms = whole(self.size_rule)
        if rooms is not None:
            if not 1 <= rooms <= MAX_ROOMS:
                raise DedaleError("error.size", value=self.size_rule, high=MAX_ROOMS)
            return
        try:
            dice = DiceExpr.parse(self.size_rule, "size")
        except DedaleError:
            raise DedaleError("error.size", value=self.size_rule, high=MAX_ROOMS) from None
        if dice.minimum < 1 or dice.maximum > MAX_ROOMS:
            raise DedaleError("error.size", value=self.size_rule, high=MAX_ROOMS)

    @classmethod
    def parse(cls, *, board: int = 5, zone: int = 5, size: str = "3d6", boss_size: str | None = None,
              start: str | None = None, fill_chance: float = 0.3, stock: str | None = None,
              early_boss: bool = True, contents: str = "tables", tables: str | None = None) -> CrawlerParams:
        """Build from the text a user typed (CLI options, web form fields)."""
        return cls(board_zones=board, zone_cells=zone, size_rule=size.strip().lower(),
                   boss_size=_parse_size(boss_size) if boss_size else (0, 0), **_parse_start(start),
                   fill_chance=fill_chance,
                   stock=parse_stock(stock) if stock else None, early_boss=early_boss,
                   contents=contents, tables=tables)

    def to_json(self) -> dict[str, Any]:
        zone, side = self.start
        return {
            "board_zones": self.board_zones,
            "zone_cells": self.zone_cells,
            "size_rule": self.size_rule,
            "boss_size": list(self.boss_size),
            "start_zone": list(zone),
            "start_side": side.name,
            "fill_chance": self.fill_chance,
            "stock": self.stock,
            "early_boss": self.early_boss,
            "contents": self.contents,
            "tables": self.tables,
        }

    @classmethod
    def from_json(cls, data: Any) -> CrawlerParams:
        if not isinstance(data, dict):
            raise DedaleError("error.bad_document", field="params")
        try:
            zone = data.get("start_zone")
            stock = data.get("stock")
            return cls(
                board_zones=data.get("board_zones", 5),
                zone_cells=data.get("zone_cells", 5),
                size_rule=str(data.get("size_rule", "3d6")),
                boss_size=_pair(data.get("boss_size", [0, 0])),
                start_zone=None if zone is None else _pair(zone),
                start_side=data.get("start_side"),
                fill_chance=float(data.get("fill_chance", 0.3)),
                stock=None if stock is None else {str(k): int(v) for k, v in dict(stock).items()},
                early_boss=bool(data.get("early_boss", True)),
                contents=str(data.get("contents", "tables")),
                tables=data.get("tables"),
            )
        except (TypeError, ValueError):
            raise DedaleError("error.bad_document", field="params") from None


def _pair(value: Any) -> tuple[int, int]:
    a, b = value
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (a, b)):
        raise TypeError(value)
    return a, b


def _parse_size(text: str) -> tuple[int, int]:
    w, sep, h = text.strip().lower().partition("x")
    width, height = whole(w), whole(h)
    if not sep or width is None or height is None:
        raise DedaleError("error.boss_size_syntax", value=text)
    return width, height


def _parse_start(text: str | None) -> dict[str, Any]:
    """`ZX,ZY` or `ZX,ZY,SIDE` (side N, E, S or W)."""
    if text is None:
        return {}
    parts = [p.strip() for p in text.split(",")]
    zone = [whole(p, signed=True) for p in parts[:2]]
    if len(parts) not in (2, 3) or None in zone:
        raise DedaleError("error.start_syntax", value=text)
    side = parts[2].upper() if len(parts) == 3 else None
    return {"start_zone": (zone[0], zone[1]), "start_side": side}

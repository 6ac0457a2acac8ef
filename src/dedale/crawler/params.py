"""The crawler's parameters: every rule variant of the spec, validated, with the spec's defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from dedale.core.dice import DiceExpr
from dedale.core.errors import DedaleError
from dedale.core.grid import Dir
from dedale.core.numbers import whole
from dedale.core.params import Declared, param, tables_folder
from dedale.crawler.board import Board, Zone
from dedale.crawler.tiles import parse_stock

# The largest board that still draws legibly: 12 zones of 5 cells (60 cells a side) fitted on a 1920 x 1080
# screen set the room numbers 7 pixels high and a door 9 pixels long (at 15 zones: 6 and 8; at 20: 4.5 and 6,
# unreadable). Larger zones on fewer zones a side draw the same way: the cells a side are what is bounded.
MAX_ZONES = 12
MAX_CELLS = 12
MAX_SIDE = 60
MAX_ROOMS = 99
PASSED_BOSS = ("stays", "reroll")
CONTENTS = ("tables", "dungeon-roll")
DOOR_CORNERS = ("zone", "room")


def _size_rule(text: str) -> str:
    return text.strip().lower()


def _show_pair(pair: tuple[int, int]) -> str:
    return f"{pair[0]},{pair[1]}"


def _show_stock(stock: dict[str, int]) -> str:
    return ",".join(f"{tile}={count}" for tile, count in stock.items())


@dataclass(frozen=True)
class CrawlerParams(Declared):
    system: ClassVar[str] = "crawler"

    board_zones: int = param(5, option="board", low=2, high=MAX_ZONES, web_high=10,
                             label=("Board", "Plateau"), first=True,
                             en="The board is Z x Z zones.", fr="Le plateau fait Z x Z zones.")
    zone_cells: int = param(5, option="zone", low=2, high=MAX_CELLS,
                            label=("Zone", "Zone"),
                            en="A zone is C x C cells.", fr="Une zone fait C x C cases.")
    size_rule: str = param("3d6", option="size", parse=_size_rule,
                           label=("Rooms", "Salles"), first=True,
                           en="Dungeon size: 3d6, 2d6 (any dice) or a fixed number of rooms.",
                           fr="Taille du donjon : 3d6, 2d6 (tous dés) ou un nombre fixe de salles.")
    boss_size: tuple[int, int] | None = param(None, parse=lambda text: _parse_size(text),
                                              show=lambda pair: f"{pair[0]}x{pair[1]}",
                                              label=("Boss room", "Salle du boss"),
                                              en="The boss room's size, WxH (default 5x5, or the zone if smaller).",
                                              fr="Taille de la salle du boss, LxH (5x5, ou la zone si plus petite).")
    start_zone: tuple[int, int] | None = param(None, parse=lambda text: _parse_zone(text), show=_show_pair,
                                               label=("Start zone", "Zone de départ"),
                                               en="The start zone, ZX,ZY (default: the middle of the south edge).",
                                               fr="La zone de départ, ZX,ZY (le milieu du bord sud par défaut).")
    start_side: str | None = param(None, choices=tuple(Dir.__members__),
                                   label=("Entry side", "Côté d'entrée"),
                                   en="The board edge the party enters by: N, E, S or W (default: the zone's edge).",
                                   fr="Le bord du plateau par lequel on entre : N, E, S ou W (celui de la zone).")
    fill_chance: float = param(0.3, low=0, high=1,
                               label=("Fill chance", "Chance de remplir"),
                               en="Autopilot: the chance to fill when filling is legal.",
                               fr="Pilote automatique : la chance de remplir quand c'est permis.")
    stock: dict[str, int] | None = param(None, parse=lambda text: parse_stock(text), show=_show_stock,
                                         label=("Tile stock", "Tuiles limitées"),
                                         en="Limited tiles, e.g. 5x5=2,3x3=4,p1=3 (others unlimited).",
                                         fr="Tuiles limitées, par ex. 5x5=2,3x3=4,p1=3 (les autres à volonté).")
    early_boss: bool = param(True,
                             label=("Early boss", "Boss précoce"),
                             en="The early-boss check (off: the boss comes as room N).",
                             fr="Le test du boss précoce (sans : le boss vient en salle N).")
    passed_boss: str = param("stays", choices=PASSED_BOSS, omit_default=True,
                             label=("Passed boss", "Boss passé"),
                             en="A passed boss check whose boss room cannot go beyond the exit: stays (the boss room "
                             "is laid at the next exit the party takes, as the text says) or reroll (the exit "
                             "closes and the next room rolls its D8 again).",
                             fr="Un test de boss réussi dont la salle ne peut pas aller derrière la sortie : stays "
                             "(la salle du boss est posée à la prochaine sortie prise, comme le dit le texte) ou "
                             "reroll (la sortie se ferme et la salle suivante relance son D8).")
    door_corners: str = param("zone", choices=DOOR_CORNERS,
                              label=("Door corners", "Coins des portes"),
                              en="The 4 corner cells no door may take: zone (each zone's, as the text reads) or "
                              "room (each room's, sides of 2 cells excepted; dungeons made before this choice).",
                              fr="Les 4 cases de coin interdites aux portes : zone (celles de chaque zone, "
                              "comme le lit le texte) ou room (celles de chaque salle, côtés de 2 cases exceptés ; "
                              "les donjons faits avant ce choix).")
    contents: str = param("tables", choices=CONTENTS,
                          label=("Contents", "Contenu"), first=True,
                          en="Room contents: tables, or dungeon-roll (Dungeon Roll dice).",
                          fr="Contenu des salles : tables, ou dungeon-roll (dés de Dungeon Roll).")
    tables: str | None = param(None, web=False, parse=lambda text: tables_folder(text, "crawler"),
                               en="A folder of your own table files.", fr="Un dossier de vos propres tables.")

    def __post_init__(self) -> None:
        # The defaults that depend on other parameters are settled first, so that documents carry them.
        zone_cells = self.zone_cells if isinstance(self.zone_cells, int) else 5
        if self.boss_size is None:
            object.__setattr__(self, "boss_size", (min(5, zone_cells),) * 2)
        super().__post_init__()
        zone, side = self.start
        object.__setattr__(self, "start_zone", zone)
        object.__setattr__(self, "start_side", side.name)

    @property
    def board(self) -> Board:
        return Board(self.board_zones, self.zone_cells)

    @property
    def size_dice(self) -> DiceExpr | None:
        return None if whole(self.size_rule) is not None else DiceExpr.parse(self.size_rule, "size")

    @property
    def boss(self) -> tuple[int, int]:
        assert self.boss_size is not None  # settled when made
        return self.boss_size

    @property
    def start(self) -> tuple[Zone, Dir]:
        z = self.board_zones
        zone = self.start_zone if self.start_zone is not None else (z // 2, z - 1)
        if self.start_side is not None:
            return zone, Dir[self.start_side]
        rim = [d for d in (Dir.S, Dir.W, Dir.E, Dir.N) if not self.board.leads(zone, d)]
        return zone, rim[0] if rim else Dir.S

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        """Documents before version 4 do not record `door_corners` (they load with the room reading): not required."""
        schema = super().json_schema()
        schema["required"].remove("door_corners")
        return schema

    def check(self) -> None:
        self._check_size()
        cells = self.board_zones * self.zone_cells
        if cells > MAX_SIDE:
            raise DedaleError("error.board_cells", board=self.board_zones, zone=self.zone_cells, cells=cells,
                              high=MAX_SIDE)
        w, h = self.boss
        if not (2 <= w <= self.zone_cells and 2 <= h <= self.zone_cells):
            raise DedaleError("error.boss_size", param="boss_size", value=f"{w}x{h}", cells=self.zone_cells)
        zone = self.start_zone
        if zone is not None and not self.board.on_board(zone):
            raise DedaleError("error.start_zone", param="start_zone", value=f"{zone[0]},{zone[1]}",
                              high=self.board_zones - 1)
        start_zone, start_side = self.start
        if self.board.leads(start_zone, start_side):
            raise DedaleError("error.start_rim", param="start_zone", zone=f"{start_zone[0]},{start_zone[1]}",
                              side=start_side.name)
        if self.tables is not None:
            from dedale.crawler.contents import load_tables

            load_tables(self.tables)  # a broken table file is bad input too: say so before anything else

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


def _parse_size(text: str) -> tuple[int, int]:
    w, sep, h = text.strip().lower().partition("x")
    width, height = whole(w), whole(h)
    if not sep or width is None or height is None:
        raise DedaleError("error.boss_size_syntax", param="boss_size", value=text)
    return width, height


def _parse_zone(text: str) -> tuple[int, int]:
    """`ZX,ZY`."""
    parts = [whole(p.strip(), signed=True) for p in text.split(",")]
    if len(parts) != 2 or parts[0] is None or parts[1] is None:
        raise DedaleError("error.start_syntax", param="start_zone", value=text)
    return parts[0], parts[1]

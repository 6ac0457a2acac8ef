"""The hexcrawl's parameters, with the spec's defaults."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from dedale.core.errors import DedaleError
from dedale.core.numbers import whole
from dedale.core.params import Declared, param, tables_folder
from dedale.hexcrawl.hexes import Hex, on_map

MAX_RADIUS = 300  # 270,901 hexes, a document of at most about 360 MB: more than any table or designer uses
ORDERS = ("spiral", "bfs", "walk", "random-walk")
VARIANTS = ("rule", "weighted")
# The rules' random walk takes about 30 steps a hex at radius 40, more on larger maps, and logs each: a million
# steps (a document of about 250 MB) at radius 100; on the web, 0.2 s at radius 20.
MAX_RANDOM_WALK_RADIUS, MAX_RANDOM_WALK_RADIUS_WEB = 100, 20


@dataclass(frozen=True)
class HexParams(Declared):
    system: ClassVar[str] = "hexcrawl"

    radius: int = param(12, low=0, high=MAX_RADIUS, web_high=40,
                        label=("Radius", "Rayon"), first=True, en="The map's radius in hexes (1 + 3R(R+1) hexes).",
                        fr="Le rayon de la carte en hexagones (1 + 3R(R+1) hexagones).")
    order: str = param("spiral", choices=ORDERS,
                       label=("Autopilot order", "Ordre du pilote"),
                       en="How the autopilot explores the map: spiral, bfs (breadth-first), walk (the party, "
                       "depth-first) or random-walk (the rules' own, slow on big maps).",
                       fr="Comment le pilote automatique explore la carte : spiral, bfs (en largeur), walk (le "
                       "groupe, en profondeur) ou random-walk (celle de la règle, lente sur les grandes cartes).")
    obstacle_chance: float = param(0.25, low=0, high=1,
                                   label=("Obstacles", "Obstacles"), first=True,
                                   en="The chance of a natural obstacle in a hex (up to 4 decimals: 0.25 is rolled "
                                   "on a d100, 0.255 on a d1000).",
                                   fr="La chance d'un obstacle naturel dans un hexagone (jusqu'à 4 décimales : 0,25 "
                                   "se tire sur un d100, 0,255 sur un d1000).")
    variant: str = param("rule", choices=VARIANTS,
                         label=("Variant", "Variante"),
                         en="rule (the neighbour and relief dice), or weighted (the seed author's simulator).",
                         fr="rule (les dés de voisin et de relief), ou weighted (le simulateur de l'auteur).")
    start: Hex = param((0, 0), parse=lambda text: parse_hex(text, "start"), show=lambda h: f"{h[0]},{h[1]}",
                       label=("Start hex", "Hexagone de départ"),
                       en="The party's starting hex, Q,R (axial).", fr="L'hexagone de départ du groupe, Q,R (axial).")
    sites: bool = param(True,
                        label=("Sites", "Sites"), first=True,
                        en="The city's satellites and the ruins (beyond the rules).",
                        fr="Les satellites de la cité et les ruines (au-delà de la règle).")
    tables: str | None = param(None, web=False, parse=lambda text: tables_folder(text, "hexcrawl"),
                               en="A folder of your own table files.", fr="Un dossier de vos propres tables.")

    @cached_property  # read at every hex explored
    def obstacle_die(self) -> tuple[int, int]:
        """The die the obstacle chance is rolled on and the highest face that gives one: a d100 for whole
        percents, else a d1000 or a d10000, so that the chance is exact."""
        for sides in (100, 1000, 10_000):
            hits = round(self.obstacle_chance * sides)
            if abs(hits - self.obstacle_chance * sides) < 1e-6:
                return sides, hits
        raise DedaleError("error.chance_decimals", param="obstacle_chance", value=self.obstacle_chance)

    def check(self) -> None:
        self.obstacle_die  # noqa: B018 (a chance no die rolls exactly is refused here)
        if self.order == "random-walk" and self.radius > MAX_RANDOM_WALK_RADIUS:
            raise DedaleError("error.random_walk_radius", value=self.radius, high=MAX_RANDOM_WALK_RADIUS)
        if not on_map(self.start, self.radius):
            raise DedaleError("error.hex_off_map", param="start", value="{},{}".format(*self.start),
                              radius=self.radius)
        if self.tables is not None:
            from dedale.hexcrawl.tables import load_tables

            load_tables(self.tables)  # a broken table file is bad input too: say so before anything else

    def check_web(self) -> None:
        super().check_web()
        if self.order == "random-walk" and self.radius > MAX_RANDOM_WALK_RADIUS_WEB:
            raise DedaleError("error.random_walk_radius", value=self.radius, high=MAX_RANDOM_WALK_RADIUS_WEB)


def parse_hex(text: str, param: str) -> Hex:
    """`Q,R` (axial coordinates)."""
    parts = [whole(p, signed=True) for p in text.split(",")]
    if len(parts) != 2 or parts[0] is None or parts[1] is None:
        raise DedaleError("error.hex_syntax", param=param, value=text)
    return parts[0], parts[1]

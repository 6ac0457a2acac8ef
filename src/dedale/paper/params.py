"""The paper dungeon's parameters: the spec's choices for laying it on a grid, with their defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from dedale.core.errors import DedaleError
from dedale.core.params import Declared, param, tables_folder

MAX_SIDE = 400
MAX_CARDS = 5000
ORDERS = ("oldest", "newest", "random")
EXIT_COLLISIONS = ("move", "drop")
KINGS = ("reshuffle", "set-aside")


@dataclass(frozen=True)
class PaperParams(Declared):
    system: ClassVar[str] = "paper"

    width: int = param(60, low=3, high=MAX_SIDE, web_high=150,
                       label=("Width", "Largeur"), first=True, en="The page's width in squares.",
                       fr="La largeur de la page, en cases.")
    height: int = param(60, low=3, high=MAX_SIDE, web_high=150,
                        label=("Height", "Hauteur"), first=True, en="The page's height in squares.",
                        fr="La hauteur de la page, en cases.")
    max_cards: int = param(80, low=1, high=MAX_CARDS, web_high=500,
                           label=("Cards", "Cartes"), first=True,
                           en="The card budget (Kings, which only reshuffle, do not count).",
                           fr="Le budget de cartes (les Rois, qui ne font que remélanger, ne comptent pas).")
    order: str = param("oldest", choices=ORDERS,
                       label=("Autopilot order", "Ordre du pilote"),
                       en="Which open end the autopilot takes: oldest, newest or random.",
                       fr="L'issue que prend le pilote automatique : la plus ancienne, la plus récente, au hasard.")
    kings: str = param("reshuffle", choices=KINGS,
                       label=("Kings", "Rois"),
                       en="Kings: reshuffle, or set-aside (the fourth King reshuffles everything).",
                       fr="Les Rois : remélanger, ou set-aside (mis de côté, le quatrième remélange tout).")
    exit_collisions: str = param("move", choices=EXIT_COLLISIONS, omit_default=True,
                                 label=("Exit collisions", "Sorties en collision"),
                                 en="A room exit rolled onto a square that has an exit already, or whose outside "
                                 "is off the page: move (to the nearest free square of the wall, else of the "
                                 "nearest wall) or drop (it is not drawn).",
                                 fr="Une sortie de salle tirée sur une case qui en a déjà une, ou dont l'extérieur "
                                 "sort de la page : move (vers la case libre la plus proche du mur, sinon du mur "
                                 "le plus proche) ou drop (elle n'est pas dessinée).")
    start_size: int = param(4, low=3, high=20,
                            label=("Start room", "Salle de départ"),
                            en="The starting room's side, at the middle of the south edge.",
                            fr="Le côté de la salle de départ, au milieu du bord sud.")
    tables: str | None = param(None, web=False, parse=lambda text: tables_folder(text, "paper"),
                               en="A folder of your own table files.", fr="Un dossier de vos propres tables.")

    def check(self) -> None:
        for name, value in (("width", self.width), ("height", self.height)):
            if value < self.start_size:
                raise DedaleError("error.page", param=name, value=value, start=self.start_size, high=MAX_SIDE)
        if self.tables is not None:
            from dedale.paper.contents import load_tables

            load_tables(self.tables)  # a broken table file is bad input too: say so before anything else

"""The key-lock generator's parameters: the spec's table, with its defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from dedale.core.errors import DedaleError
from dedale.core.params import Declared, param

if TYPE_CHECKING:
    from dedale.keylock.model import Diagram

MAX_OBJECTS = 20_000  # keys and locks made: beyond this a diagram is no longer something a designer can read
MAX_WEB_OBJECTS = 2000  # the most a web request's counts could make
MULTI_DRAWS = ("capped", "seed")
MAX_PDF_OBJECTS = 10_000  # cairo takes some 15 s and 300 MB to set a PDF of this many (SVG and DOT go further)


@dataclass(frozen=True)
class KeylockParams(Declared):
    system: ClassVar[str] = "keylock"

    # Each count's `high` is what it alone could make within MAX_OBJECTS (`check` bounds them together).
    unique: int = param(3, low=0, high=MAX_OBJECTS // 2, web_high=200,
                        label=("Unique pairs", "Paires uniques"), first=True, en="Unique key-lock pairs.",
                        fr="Paires clé-serrure uniques.")
    multi: int = param(1, low=0, high=MAX_OBJECTS // 2, web_high=50,
                       label=("Multi-key sets", "Jeux multi-clés"), first=True, en="Multi-key sets.",
                       fr="Ensembles multi-clés.")
    multi_max_locks: int = param(2, low=1, high=MAX_OBJECTS, web_high=10,
                                 label=("Locks per set", "Serrures par jeu"), en="The most locks a multi-key set has.",
                                 fr="Le plus de serrures d'un ensemble multi-clés.")
    multi_max_keys: int = param(4, low=1, high=MAX_OBJECTS, web_high=20,
                                label=("Keys per set", "Clés par jeu"), en="The most keys a multi-key set has.",
                                fr="Le plus de clés d'un ensemble multi-clés.")
    permanent: int = param(1, low=0, high=MAX_OBJECTS // 2, web_high=50,
                           label=("Permanent keys", "Clés permanentes"), first=True, en="Permanent keys.",
                           fr="Clés permanentes.")
    permanent_max_locks: int = param(2, low=1, high=MAX_OBJECTS, web_high=10,
                                     label=("Locks per key", "Serrures par clé"),
                                     en="The most locks a permanent key opens.",
                                     fr="Le plus de serrures qu'ouvre une clé permanente.")
    multi_draw: str = param("capped", choices=MULTI_DRAWS, omit_default=True,
                            label=("Multi draw", "Tirage multi"),
                            en="How a multi-key set is drawn: capped (its locks at most its keys, each lock's extra "
                            "keys taken off what is left, so every lock can open) or seed (the original text's draw: "
                            "locks and keys apart, each extra from the whole surplus; some locks may never open).",
                            fr="Comment un ensemble multi-clés est tiré : capped (pas plus de serrures que de clés, "
                            "les clés en plus de chaque serrure prises sur ce qui reste, toute serrure peut s'ouvrir) "
                            "ou seed (le tirage du texte d'origine : serrures et clés à part, chaque surplus sur "
                            "tout l'excédent ; des serrures peuvent ne jamais s'ouvrir).")
    spread: float = param(0.01, low=0.0001, high=1e6, web_high=100,
                          label=("Spread", "Étalement"),
                          en="How horizontal the diagram is (> 0; 0.01 is good).",
                          fr="À quel point le diagramme est horizontal (> 0 ; 0,01 convient).")

    def check(self) -> None:
        """The cap applies to the keys and locks made (`generator.make_sets` counts them as the sets are
        drawn): here, only to the fewest these counts make."""
        if self.least_objects == 0:
            raise DedaleError("error.no_objects")
        if self.least_objects > MAX_OBJECTS:
            raise DedaleError("error.too_many_least", value=self.least_objects, high=MAX_OBJECTS)

    def check_web(self) -> None:
        super().check_web()
        if self.most_objects > MAX_WEB_OBJECTS:
            raise DedaleError("error.too_many_objects", value=self.most_objects, high=MAX_WEB_OBJECTS)

    @property
    def least_objects(self) -> int:
        """The fewest keys and locks these parameters can make."""
        return 2 * (self.unique + self.multi + self.permanent)

    @property
    def most_objects(self) -> int:
        """The most keys and locks these parameters can make."""
        return (2 * self.unique + self.multi * (self.multi_max_keys + self.multi_max_locks)
                + self.permanent * (1 + self.permanent_max_locks))


def check_pdf_size(diagram: Diagram) -> Diagram:
    """The diagram, if not too large to set as a PDF."""
    objects = len(diagram.nodes) - 1
    if objects > MAX_PDF_OBJECTS:
        raise DedaleError("error.keylock_pdf_too_big", objects=objects, high=MAX_PDF_OBJECTS)
    return diagram

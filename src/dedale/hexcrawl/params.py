"""The hexcrawl's parameters, with the spec's defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dedale.core.errors import DedaleError
from dedale.core.numbers import whole
from dedale.hexcrawl.hexes import Hex, on_map

MAX_RADIUS = 1000  # 3,003,001 hexes: about the most a map kept in memory should hold
ORDERS = ("spiral", "bfs", "walk", "random-walk")
VARIANTS = ("rule", "weighted")


@dataclass(frozen=True)
class HexParams:
    radius: int = 12
    # how the autopilot explores the whole map: spiral, bfs (breadth-first), walk (depth-first, linear) or
    # random-walk (the spec's: a uniformly chosen neighbour each step; slow on big maps)
    order: str = "spiral"
    obstacle_chance: float = 0.25
    variant: str = "rule"  # or "weighted": the seed author's simulator
    start: Hex = (0, 0)  # where the party starts (and breadth-first exploration)
    sites: bool = True  # the city's satellites and ruins (beyond the seed)
    tables: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.radius, bool) or not isinstance(self.radius, int) or not 0 <= self.radius <= MAX_RADIUS:
            raise DedaleError("error.radius", value=self.radius, high=MAX_RADIUS)
        if self.order not in ORDERS:
            raise DedaleError("error.one_of", param="order", value=self.order, accepted=", ".join(ORDERS))
        if self.variant not in VARIANTS:
            raise DedaleError("error.one_of", param="variant", value=self.variant, accepted=", ".join(VARIANTS))
        chance = self.obstacle_chance
        if isinstance(chance, bool) or not isinstance(chance, int | float) or not 0 <= chance <= 1:
            raise DedaleError("error.chance", param="obstacle-chance", value=chance)
        if not on_map(self.start, self.radius):
            raise DedaleError("error.hex_off_map", param="start", value="{},{}".format(*self.start),
                              radius=self.radius)

    def to_json(self) -> dict[str, Any]:
        return {"radius": self.radius, "order": self.order, "obstacle_chance": self.obstacle_chance,
                "variant": self.variant, "start": list(self.start), "sites": self.sites, "tables": self.tables}

    @classmethod
    def from_json(cls, data: Any) -> HexParams:
        if not isinstance(data, dict):
            raise DedaleError("error.bad_document", field="params")
        try:
            start = data.get("start", [0, 0])
            return cls(radius=data.get("radius", 12), order=data.get("order", "spiral"),
                       obstacle_chance=data.get("obstacle_chance", 0.25), variant=data.get("variant", "rule"),
                       start=(int(start[0]), int(start[1])), sites=bool(data.get("sites", True)),
                       tables=data.get("tables"))
        except (TypeError, ValueError, IndexError):
            raise DedaleError("error.bad_document", field="params") from None


def parse_hex(text: str, param: str) -> Hex:
    """`Q,R` (axial coordinates)."""
    parts = [whole(p, signed=True) for p in text.split(",")]
    if len(parts) != 2 or parts[0] is None or parts[1] is None:
        raise DedaleError("error.hex_syntax", param=param, value=text)
    return parts[0], parts[1]

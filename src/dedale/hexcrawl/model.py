"""What a hexcrawl map is made of: explored hexes and communities. Plain data that the session builds, the
renderers draw and the JSON carries (field names fixed by the JSON contract).

A map of radius 500 has 751,501 hexes, so a hex is one small record (slots), and it is also the log's
entry for its exploration: the dice that decided it are kept once, in the record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dedale.core.errors import DedaleError
from dedale.core.session import check_format
from dedale.hexcrawl.hexes import Hex, label
from dedale.i18n import word

RELIEFS = ("waters", "shores", "plains", "river_valley", "hills", "plateaus", "low_mountains", "high_mountains")


@dataclass(slots=True)
class HexRecord:
    q: int
    r: int
    order: int  # its place in the exploration order, from 0
    neighbour_die: int | None  # None in the weighted variant
    relief_die: int | None
    relief: int  # 0-7
    inherited_from: str | None  # the neighbour it took its relief from ("N", "NE", ...), or None
    vegetation_die: int
    vegetation: str  # the vegetation table's row id
    obstacle_roll: int  # the percentile die for the obstacle chance
    obstacle: str | None  # the obstacle table's row id
    obstacle_die: int | None
    position: int | None  # the obstacle's place in the hex, 1D7
    weights_die: int | None = None  # the weighted variant's roll

    @property
    def hex(self) -> Hex:
        return self.q, self.r

    def to_json(self, radius: int, labels: dict[str, str]) -> dict[str, Any]:
        obstacle = None if self.obstacle is None else {"kind": self.obstacle, "label": labels.get(self.obstacle),
                                                       "position": self.position, "die": self.obstacle_die}
        return {"q": self.q, "r": self.r, "label": label(self.hex, radius), "order": self.order,
                "neighbour_die": self.neighbour_die, "relief_die": self.relief_die, "weights_die": self.weights_die,
                "relief": self.relief, "relief_name": RELIEFS[self.relief], "inherited_from": self.inherited_from,
                "vegetation": self.vegetation, "vegetation_label": labels.get(self.vegetation),
                "vegetation_die": self.vegetation_die, "obstacle_roll": self.obstacle_roll, "obstacle": obstacle}

    def log_entry(self, radius: int, labels: dict[str, str]) -> dict[str, Any]:
        """The log's line for this hex's exploration: every die, and what each decided."""
        source = "rolled" if self.inherited_from is None else self.inherited_from
        if self.weights_die is not None:
            source = "weighted"
        obstacle = word("hexcrawl.no_obstacle") if self.obstacle is None else labels.get(self.obstacle, self.obstacle)
        args: dict[str, Any] = {
            "label": label(self.hex, radius), "neighbour_die": self.neighbour_die, "relief_die": self.relief_die,
            "weights_die": self.weights_die, "relief": word(f"hexcrawl.relief.{RELIEFS[self.relief]}"),
            "source": word(f"hexcrawl.source.{source}"), "vegetation_die": self.vegetation_die,
            "vegetation": labels.get(self.vegetation, self.vegetation), "obstacle_roll": self.obstacle_roll,
            "obstacle": obstacle,
            "obstacle_die": self.obstacle_die, "position": self.position}
        return {"note": "hexcrawl.explored", "args": args, "hex": [self.q, self.r]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HexRecord:
        obstacle = d.get("obstacle")
        return cls(d["q"], d["r"], d["order"], d.get("neighbour_die"), d.get("relief_die"), d["relief"],
                   d.get("inherited_from"), d.get("vegetation_die", 0), d["vegetation"], d.get("obstacle_roll", 0),
                   None if obstacle is None else obstacle["kind"], None if obstacle is None else obstacle.get("die"),
                   None if obstacle is None else obstacle["position"], d.get("weights_die"))


@dataclass
class HexMap:
    """The result, as renderers see it (a session's state or a loaded JSON document)."""

    radius: int
    hexes: dict[Hex, HexRecord]
    communities: list[dict[str, Any]]
    sites: list[dict[str, Any]]
    party: Hex | None = None
    labels: dict[str, str] = field(default_factory=dict)  # table row id -> its label
    seed: int | None = None
    lang: str = "en"

    @classmethod
    def from_json(cls, data: Any) -> HexMap:
        check_format(data, "hexcrawl")
        try:
            hexes = {(h["q"], h["r"]): HexRecord.from_json(h) for h in data["hexes"]}
            labels = {h["vegetation"]: h.get("vegetation_label") or h["vegetation"] for h in data["hexes"]}
            labels.update({h["obstacle"]["kind"]: h["obstacle"].get("label") or h["obstacle"]["kind"]
                           for h in data["hexes"] if h.get("obstacle")})
            party = data.get("party")
            return cls(data["params"]["radius"], hexes, list(data["communities"]), list(data.get("sites", [])),
                       None if party is None else (party[0], party[1]), labels, data.get("seed"),
                       str(data.get("lang", "en")))
        except (KeyError, TypeError, ValueError, IndexError):
            raise DedaleError("error.bad_document", field="hexes/communities") from None

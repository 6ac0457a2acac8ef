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
from dedale.i18n import Word, data_word, given, say, word

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

    def to_json(self, radius: int, own: dict[tuple[str, str], Any]) -> dict[str, Any]:
        """The hex as its document keeps it: table rows by id, with a player's own rows' labels (`own`, by table
        and row id) as their files give them."""
        obstacle = None
        if self.obstacle is not None:
            obstacle = {"kind": self.obstacle, **_own(own, "obstacles", self.obstacle, "label"),
                        "position": self.position, "die": self.obstacle_die}
        return {"q": self.q, "r": self.r, "label": label(self.hex, radius), "order": self.order,
                "neighbour_die": self.neighbour_die, "relief_die": self.relief_die, "weights_die": self.weights_die,
                "relief": self.relief, "relief_name": RELIEFS[self.relief], "inherited_from": self.inherited_from,
                "vegetation": self.vegetation, **_own(own, "vegetation", self.vegetation, "vegetation_label"),
                "vegetation_die": self.vegetation_die, "obstacle_roll": self.obstacle_roll, "obstacle": obstacle}

    def log_entry(self, radius: int, words: dict[tuple[str, str], Word]) -> dict[str, Any]:
        """The log's line for this hex's exploration: every die, and what each decided (`words`: the rows'
        labels, by table and row id)."""
        source = "rolled" if self.inherited_from is None else self.inherited_from
        if self.weights_die is not None:
            source = "weighted"
        obstacle = (word("hexcrawl.no_obstacle") if self.obstacle is None
                    else words.get(("obstacles", self.obstacle), self.obstacle))
        args: dict[str, Any] = {
            "label": label(self.hex, radius), "neighbour_die": self.neighbour_die, "relief_die": self.relief_die,
            "weights_die": self.weights_die, "relief": word(f"hexcrawl.relief.{RELIEFS[self.relief]}"),
            "source": word(f"hexcrawl.source.{source}"), "vegetation_die": self.vegetation_die,
            "vegetation": words.get(("vegetation", self.vegetation), self.vegetation),
            "obstacle_roll": self.obstacle_roll,
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
    own: dict[tuple[str, str], Any] = field(default_factory=dict)  # a player's own rows' labels, as given
    seed: int | None = None

    def row_label(self, table: str, row_id: str, lang: str) -> str:
        """A vegetation's or an obstacle's label in `lang`."""
        own = self.own.get((table, row_id))
        return say(data_word("hexcrawl", table, row_id) if own is None else given(own), lang)

    @classmethod
    def from_json(cls, data: Any) -> HexMap:
        check_format(data, "hexcrawl")
        try:
            hexes = {(h["q"], h["r"]): HexRecord.from_json(h) for h in data["hexes"]}
            own = {("vegetation", h["vegetation"]): h["vegetation_label"] for h in data["hexes"]
                   if h.get("vegetation_label")}
            own.update({("obstacles", h["obstacle"]["kind"]): h["obstacle"]["label"]
                        for h in data["hexes"] if h.get("obstacle") and h["obstacle"].get("label")})
            party = data.get("party")
            return cls(data["params"]["radius"], hexes, list(data["communities"]), list(data.get("sites", [])),
                       None if party is None else (party[0], party[1]), own, data.get("seed"))
        except (KeyError, TypeError, ValueError, IndexError):
            raise DedaleError("error.bad_document", field="hexes/communities") from None


def _own(own: dict[tuple[str, str], Any], table: str, row_id: str, field: str) -> dict[str, Any]:
    """`{field: label}` for a player's own row, nothing for a shipped one (looked up by id when shown)."""
    return {field: own[(table, row_id)]} if (table, row_id) in own else {}


def discovered(document: dict[str, Any]) -> dict[str, Any]:
    """What the party knows of the land: the hexes explored, and only the communities and sites on them
    (the others were placed before play, for the GM)."""
    seen = {(h["q"], h["r"]) for h in document["hexes"]}
    return {"communities": [c for c in document["communities"] if (c["q"], c["r"]) in seen],
            "sites": [s for s in document.get("sites", []) if (s["q"], s["r"]) in seen]}

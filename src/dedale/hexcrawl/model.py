"""What a hexcrawl map is made of: explored hexes and communities. Plain data that the session builds, the
renderers draw and the JSON carries (field names fixed by the JSON contract).

A hex's record is also the log's entry for its exploration: the dice that decided it are kept once, in the
record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dedale.core.errors import DedaleError
from dedale.core.session import check_format
from dedale.hexcrawl.hexes import DIRECTION_NAMES, RELIEFS, Hex, label, on_map
from dedale.hexcrawl.params import MAX_RADIUS
from dedale.i18n import Word, data_word, given, say, word


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
        """The hex as its document keeps it: table rows by id, a player's own rows' labels (`own`, by table and
        row id) as their files give them (none for a shipped row, looked up by id when shown)."""
        obstacle = None
        if self.obstacle is not None:
            kept = own.get(("obstacles", self.obstacle))
            obstacle = {"kind": self.obstacle, **({} if kept is None else {"label": kept}),
                        "position": self.position, "die": self.obstacle_die}
        plant = own.get(("vegetation", self.vegetation))
        return {"q": self.q, "r": self.r, "label": label(self.hex, radius), "order": self.order,
                "neighbour_die": self.neighbour_die, "relief_die": self.relief_die, "weights_die": self.weights_die,
                "relief": self.relief, "relief_name": RELIEFS[self.relief], "inherited_from": self.inherited_from,
                "vegetation": self.vegetation, **({} if plant is None else {"vegetation_label": plant}),
                "vegetation_die": self.vegetation_die, "obstacle_roll": self.obstacle_roll, "obstacle": obstacle}

    def log_entry(self, radius: int, words: dict[tuple[str, str], Word]) -> dict[str, Any]:
        """The log's line for this hex's exploration: every die, and what each decided (`words`: the rows'
        labels, by table and row id)."""
        source = "weighted" if self.weights_die is not None else self.inherited_from or "rolled"
        obstacle = (word("hexcrawl.no_obstacle") if self.obstacle is None
                    else words.get(("obstacles", self.obstacle), self.obstacle))
        args = {"label": label(self.hex, radius), "neighbour_die": self.neighbour_die, "relief_die": self.relief_die,
                "weights_die": self.weights_die, "relief": word(f"hexcrawl.relief.{RELIEFS[self.relief]}"),
                "source": word(f"hexcrawl.source.{source}"), "vegetation_die": self.vegetation_die,
                "vegetation": words.get(("vegetation", self.vegetation), self.vegetation),
                "obstacle_roll": self.obstacle_roll, "obstacle": obstacle, "obstacle_die": self.obstacle_die,
                "position": self.position}
        return {"note": "hexcrawl.explored", "args": args, "hex": [self.q, self.r]}

    @classmethod
    def from_json(cls, h: Any, radius: int, order: int) -> HexRecord:
        """A hex of a document (the `order`-th), checked: on the map, its dice whole numbers in their ranges, its
        rows by id."""
        obstacle = h.get("obstacle")
        inherited = h.get("inherited_from")
        if inherited is not None and inherited not in DIRECTION_NAMES:
            raise ValueError(inherited)
        record = cls(_int(h["q"], -radius, radius), _int(h["r"], -radius, radius), order,
                     _die(h.get("neighbour_die"), 255), _die(h.get("relief_die"), 255),
                     _int(h["relief"], 0, len(RELIEFS) - 1), inherited, _int(h.get("vegetation_die", 0), 0, 65535),
                     _id(h["vegetation"]), _int(h.get("obstacle_roll", 0), 0, 10_000),
                     None if obstacle is None else _id(obstacle["kind"]),
                     None if obstacle is None else _die(obstacle.get("die"), 65535),
                     None if obstacle is None else _int(obstacle["position"], 1, 7), _die(h.get("weights_die"), 255))
        if not on_map(record.hex, radius):
            raise ValueError(record.hex)
        return record


def _int(value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(value)
    return value


def _die(value: Any, high: int) -> int | None:
    """A die that may not have been rolled (None)."""
    return None if value is None else _int(value, 1, high)


def _id(row_id: Any) -> str:
    if not isinstance(row_id, str):
        raise ValueError(row_id)
    return row_id


@dataclass
class HexMap:
    """The result, as renderers see it (a session's state or a loaded JSON document)."""

    radius: int
    hexes: dict[Hex, HexRecord]  # in exploration order
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
            radius = _int(data["params"]["radius"], 0, MAX_RADIUS)
            hexes: dict[Hex, HexRecord] = {}
            own: dict[tuple[str, str], Any] = {}
            for order, h in enumerate(data["hexes"]):
                record = HexRecord.from_json(h, radius, order)
                if hexes.setdefault(record.hex, record) is not record:
                    raise ValueError("a hex twice")
                if record.obstacle is not None and h["obstacle"].get("label"):
                    own[("obstacles", record.obstacle)] = h["obstacle"]["label"]
                if h.get("vegetation_label"):
                    own[("vegetation", record.vegetation)] = h["vegetation_label"]
            party = data.get("party")
            return cls(radius, hexes, list(data["communities"]), list(data.get("sites", [])),
                       None if party is None else (party[0], party[1]), own, data.get("seed"))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            raise DedaleError("error.bad_document", field="hexes/communities") from None


def party_view(document: dict[str, Any]) -> dict[str, Any]:
    """The party view of the land: the hexes explored, and only the communities and sites on them
    (the others were placed before play, for the GM)."""
    seen = {(h["q"], h["r"]) for h in document["hexes"]}
    return {"communities": [c for c in document["communities"] if (c["q"], c["r"]) in seen],
            "sites": [s for s in document.get("sites", []) if (s["q"], s["r"]) in seen]}

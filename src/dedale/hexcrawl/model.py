"""What a hexcrawl map is made of: explored hexes and communities. Plain data that the session builds, the
renderers draw and the JSON carries (field names fixed by the JSON contract).

A map of radius 1000 has 3,003,001 hexes, so the explored hexes are kept as a table of small numbers
(`HexTable`: a row of about 20 bytes a hex, in exploration order, table rows by interned id), and a hex's
`HexRecord` is made when asked for. A hex's record is also the log's entry for its exploration: the dice that
decided it are kept once, in the table, and the log (`HexLog`) keeps only its number."""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from dedale.core.errors import DedaleError
from dedale.core.jsonstream import Streamed
from dedale.core.session import check_format
from dedale.hexcrawl.hexes import DIRECTION_NAMES, Hex, label, on_map
from dedale.hexcrawl.params import MAX_RADIUS
from dedale.i18n import Word, data_word, given, say, word

RELIEFS = ("waters", "shores", "plains", "river_valley", "hills", "plateaus", "low_mountains", "high_mountains")


def hex_json(q: Any, r: Any, label: Any, order: Any, neighbour_die: Any, relief_die: Any, weights_die: Any,
             relief: Any, relief_name: Any, inherited_from: Any, vegetation: str, vegetation_label: Any,
             vegetation_die: Any, obstacle_roll: Any, obstacle: str | None, obstacle_label: Any, position: Any,
             obstacle_die: Any) -> dict[str, Any]:
    """A hex as its document keeps it: table rows by id, a player's own rows' labels as their files give them
    (None for a shipped row, looked up by id when shown). The fields may be stand-ins (`hexcrawl.stream`)."""
    kept = None
    if obstacle is not None:
        kept = {"kind": obstacle, **({} if obstacle_label is None else {"label": obstacle_label}),
                "position": position, "die": obstacle_die}
    return {"q": q, "r": r, "label": label, "order": order, "neighbour_die": neighbour_die, "relief_die": relief_die,
            "weights_die": weights_die, "relief": relief, "relief_name": relief_name, "inherited_from": inherited_from,
            "vegetation": vegetation, **({} if vegetation_label is None else {"vegetation_label": vegetation_label}),
            "vegetation_die": vegetation_die, "obstacle_roll": obstacle_roll, "obstacle": kept}


def explored_entry(label: Any, neighbour_die: Any, relief_die: Any, weights_die: Any, relief: Any, source: Any,
                   vegetation_die: Any, vegetation: Any, obstacle_roll: Any, obstacle: Any, obstacle_die: Any,
                   position: Any, q: Any, r: Any) -> dict[str, Any]:
    """The log's line for a hex's exploration: every die, and what each decided (words)."""
    args = {"label": label, "neighbour_die": neighbour_die, "relief_die": relief_die, "weights_die": weights_die,
            "relief": relief, "source": source, "vegetation_die": vegetation_die, "vegetation": vegetation,
            "obstacle_roll": obstacle_roll, "obstacle": obstacle, "obstacle_die": obstacle_die, "position": position}
    return {"note": "hexcrawl.explored", "args": args, "hex": [q, r]}


def pick_entry(among: Any, die: Any) -> dict[str, Any]:
    """A walk's pick among the party's neighbours, as `Roller.pick` logs it (a 1dN)."""
    return {"roll": f"1d{among}", "dice": [die], "total": die, "for": "autopilot.walk", "args": {"among": among}}


def relief_word(relief: int) -> Word:
    return word(f"hexcrawl.relief.{RELIEFS[relief]}")


def source_word(inherited: int, weighted: bool) -> Word:
    """Where a hex's relief came from: the weighted die, the relief die, or the neighbour (1-6, N to NW)."""
    source = "weighted" if weighted else "rolled" if inherited == 0 else DIRECTION_NAMES[inherited - 1]
    return word(f"hexcrawl.source.{source}")


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
        """The hex as its document keeps it (`own`: a player's own rows' labels, by table and row id)."""
        return hex_json(self.q, self.r, label(self.hex, radius), self.order, self.neighbour_die, self.relief_die,
                        self.weights_die, self.relief, RELIEFS[self.relief], self.inherited_from, self.vegetation,
                        own.get(("vegetation", self.vegetation)), self.vegetation_die, self.obstacle_roll,
                        self.obstacle, None if self.obstacle is None else own.get(("obstacles", self.obstacle)),
                        self.position, self.obstacle_die)

    def log_entry(self, radius: int, words: dict[tuple[str, str], Word]) -> dict[str, Any]:
        """The log's line for this hex's exploration (`words`: the rows' labels, by table and row id)."""
        inherited = 0 if self.inherited_from is None else DIRECTION_NAMES.index(self.inherited_from) + 1
        obstacle = (word("hexcrawl.no_obstacle") if self.obstacle is None
                    else words.get(("obstacles", self.obstacle), self.obstacle))
        return explored_entry(label(self.hex, radius), self.neighbour_die, self.relief_die, self.weights_die,
                              relief_word(self.relief), source_word(inherited, self.weights_die is not None),
                              self.vegetation_die, words.get(("vegetation", self.vegetation), self.vegetation),
                              self.obstacle_roll, obstacle, self.obstacle_die, self.position, self.q, self.r)


class HexTable:
    """The explored hexes: a mapping from hex to `HexRecord` (in exploration order, as the dict it replaces),
    kept as typed arrays, one row a hex. A die that was not rolled is 0; table rows are indices into
    `vegetation_ids` and `obstacle_ids` (an obstacle's index + 1, 0 for none)."""

    def __init__(self, radius: int, vegetation_ids: Sequence[str] = (), obstacle_ids: Sequence[str] = ()) -> None:
        self.radius = radius
        self.side = 2 * radius + 1
        self.vegetation_ids, self.obstacle_ids = list(vegetation_ids), list(obstacle_ids)
        self.cell_order = array("i", [-1]) * (self.side * self.side)  # each cell of the map's square: its order
        self.q, self.r = array("h"), array("h")
        self.neighbour_die, self.relief_die, self.weights_die = array("B"), array("B"), array("B")
        self.relief, self.inherited = array("B"), array("B")  # inherited: the direction (1-6, N to NW), or 0
        self.vegetation_die, self.vegetation = array("H"), array("H")
        self.obstacle_roll, self.obstacle_die, self.obstacle = array("H"), array("H"), array("H")  # a d10000 at most
        self.position = array("B")

    def columns(self) -> tuple[array[int], ...]:
        """The arrays of a hex's row, in `add`'s order (after q and r)."""
        return (self.neighbour_die, self.relief_die, self.weights_die, self.relief, self.inherited,
                self.vegetation_die, self.vegetation, self.obstacle_roll, self.obstacle_die, self.obstacle,
                self.position)

    def cell(self, h: Hex) -> int:
        """The hex's cell in the map's square, or -1 off it."""
        q, r = h[0] + self.radius, h[1] + self.radius
        return q * self.side + r if 0 <= q < self.side and 0 <= r < self.side else -1

    def order_of(self, h: Hex) -> int:
        """The hex's place in the exploration order, -1 if it is not explored."""
        cell = self.cell(h)
        return -1 if cell < 0 else self.cell_order[cell]

    def add(self, h: Hex, neighbour_die: int, relief_die: int, weights_die: int, relief: int, inherited: int,
            vegetation_die: int, vegetation: int, obstacle_roll: int, obstacle_die: int, obstacle: int,
            position: int) -> int:
        """Explore a hex (on the map): its row as `columns` lists them. Returns its order."""
        order = len(self.q)
        self.cell_order[(h[0] + self.radius) * self.side + h[1] + self.radius] = order
        self.q.append(h[0])
        self.r.append(h[1])
        self.neighbour_die.append(neighbour_die)
        self.relief_die.append(relief_die)
        self.weights_die.append(weights_die)
        self.relief.append(relief)
        self.inherited.append(inherited)
        self.vegetation_die.append(vegetation_die)
        self.vegetation.append(vegetation)
        self.obstacle_roll.append(obstacle_roll)
        self.obstacle_die.append(obstacle_die)
        self.obstacle.append(obstacle)
        self.position.append(position)
        return order

    def first(self, count: int) -> HexTable:
        """A copy of the table with its first `count` hexes."""
        kept = HexTable(self.radius, self.vegetation_ids, self.obstacle_ids)
        kept.cell_order = array("i", self.cell_order)
        for q, r in zip(self.q[count:], self.r[count:], strict=True):
            kept.cell_order[kept.cell((q, r))] = -1
        for mine, theirs in zip((kept.q, kept.r, *kept.columns()), (self.q, self.r, *self.columns()), strict=True):
            mine.extend(theirs[:count])
        return kept

    def relief_at(self, h: Hex) -> int | None:
        q, r = h[0] + self.radius, h[1] + self.radius
        order = self.cell_order[q * self.side + r] if 0 <= q < self.side and 0 <= r < self.side else -1
        return None if order < 0 else self.relief[order]

    def record(self, order: int) -> HexRecord:
        obstacle = self.obstacle[order]
        inherited = self.inherited[order]
        return HexRecord(
            self.q[order], self.r[order], order, self.neighbour_die[order] or None, self.relief_die[order] or None,
            self.relief[order], DIRECTION_NAMES[inherited - 1] if inherited else None, self.vegetation_die[order],
            self.vegetation_ids[self.vegetation[order]], self.obstacle_roll[order],
            self.obstacle_ids[obstacle - 1] if obstacle else None, self.obstacle_die[order] or None,
            self.position[order] or None, self.weights_die[order] or None)

    # --- the mapping it stands in for ---------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.q)

    def __contains__(self, h: object) -> bool:
        return isinstance(h, tuple) and len(h) == 2 and self.order_of(h) >= 0

    def __getitem__(self, h: Hex) -> HexRecord:
        order = self.order_of(h)
        if order < 0:
            raise KeyError(h)
        return self.record(order)

    def get(self, h: Hex) -> HexRecord | None:
        order = self.order_of(h)
        return None if order < 0 else self.record(order)

    def __iter__(self) -> Iterator[Hex]:
        return zip(self.q, self.r, strict=True)

    def keys(self) -> Iterator[Hex]:
        return iter(self)

    def values(self) -> Iterator[HexRecord]:
        return map(self.record, range(len(self)))

    def items(self) -> Iterator[tuple[Hex, HexRecord]]:
        return zip(self, self.values(), strict=True)

    @classmethod
    def from_json(cls, radius: int, hexes: Iterable[Any]) -> tuple[HexTable, dict[tuple[str, str], Any]]:
        """The hexes of a document (a list of hex objects), and the labels of a player's own rows they carry."""
        table = cls(radius)
        vegetation: dict[str, int] = {}
        obstacles: dict[str, int] = {}
        own: dict[tuple[str, str], Any] = {}
        for h in hexes:
            where = (_int(h["q"], -radius, radius), _int(h["r"], -radius, radius))
            if not on_map(where, radius) or table.order_of(where) >= 0:
                raise ValueError("a hex off the map, or twice")
            obstacle = h.get("obstacle")
            kind = None if obstacle is None else obstacle["kind"]
            if kind is not None and obstacle.get("label"):
                own[("obstacles", kind)] = obstacle["label"]
            if h.get("vegetation_label"):
                own[("vegetation", h["vegetation"])] = h["vegetation_label"]
            table.add(where, _die(h.get("neighbour_die"), 255), _die(h.get("relief_die"), 255),
                      _die(h.get("weights_die"), 255), _int(h["relief"], 0, len(RELIEFS) - 1),
                      0 if h.get("inherited_from") is None else DIRECTION_NAMES.index(h["inherited_from"]) + 1,
                      _int(h.get("vegetation_die", 0), 0, 65535), _intern(h["vegetation"], vegetation),
                      _int(h.get("obstacle_roll", 0), 0, 255), _die(None if obstacle is None else obstacle.get("die"),
                                                                    65535),
                      0 if kind is None else _intern(kind, obstacles) + 1,
                      0 if obstacle is None else _int(obstacle["position"], 1, 7))
        table.vegetation_ids, table.obstacle_ids = list(vegetation), list(obstacles)
        return table, own


def _int(value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(value)
    return value


def _die(value: Any, high: int) -> int:
    """A die that may not have been rolled (None), kept as 0."""
    return 0 if value is None else _int(value, 1, high)


def _intern(row_id: Any, ids: dict[str, int]) -> int:
    if not isinstance(row_id, str):
        raise ValueError(row_id)
    return ids.setdefault(row_id, len(ids))


class HexLog:
    """The session's log: entries as the roller writes them, and between them runs of compact entries kept as
    numbers (a hex's order for its exploration, `-(among << 16 | die)` for a walk's pick among neighbours),
    made into entries when read. It reads as the list of entries it stands for."""

    def __init__(self, hexes: HexTable) -> None:
        self.hexes = hexes
        self._items: list[Any] = []  # entries; arrays of compact codes; ranges of hexes explored one after another
        self._ends: list[int] = []  # after each item, how many entries there are

    def append(self, entry: Any, /) -> None:
        self._items.append(entry)
        self._ends.append(len(self) + 1)

    def _codes(self) -> array[int]:
        if not self._items or not isinstance(self._items[-1], array):
            self._items.append(array("i"))
            self._ends.append(len(self))
        codes: array[int] = self._items[-1]
        return codes

    def add_hex(self, order: int) -> None:
        codes = self._items[-1] if self._items else None
        if not isinstance(codes, array):
            codes = self._codes()
        codes.append(order)
        self._ends[-1] += 1

    def add_hexes(self, start: int, stop: int) -> None:
        """The hexes of orders `start` to `stop - 1`, explored one after the other (kept as a range)."""
        if start < stop:
            self._items.append(range(start, stop))
            self._ends.append(len(self) + stop - start)

    def add_pick(self, among: int, die: int) -> None:
        self._codes().append(-(among << 16 | die))
        self._ends[-1] += 1

    def _entry(self, code: int) -> Any:
        return self.hexes.record(code) if code >= 0 else pick_entry(-code >> 16, -code & 0xFFFF)

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    @overload
    def __getitem__(self, index: int, /) -> Any: ...

    @overload
    def __getitem__(self, index: slice, /) -> list[Any]: ...

    def __getitem__(self, index: int | slice, /) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        at = bisect_right(self._ends, index)
        item = self._items[at]
        return item if isinstance(item, dict) else self._entry(item[index - self._ends[at] + len(item)])

    def __delitem__(self, index: slice, /) -> None:
        """Only the end of a log is ever cut (a result entered again in table mode)."""
        start, stop, step = index.indices(len(self))
        if stop != len(self) or step != 1:
            raise IndexError("only the end of a log is cut")
        while self._items and self._ends[-1] > start:
            item = self._items.pop()
            end = self._ends.pop()
            if not isinstance(item, dict) and end - len(item) < start:
                self._items.append(item[:start - end + len(item)])
                self._ends.append(start)

    def __iter__(self) -> Iterator[Any]:
        for item in self._items:
            if isinstance(item, dict):
                yield item
            else:
                yield from map(self._entry, item)

    def runs(self, count: int) -> Iterator[Any]:
        """The first `count` entries as they are kept: entries, and runs of compact codes (arrays, ranges) to
        write fast."""
        for item, end in zip(self._items, self._ends, strict=True):
            start = end - (1 if isinstance(item, dict) else len(item))
            if start >= count:
                return
            yield item if end <= count else item[:count - start]


@dataclass
class HexMap:
    """The result, as renderers see it (a session's state or a loaded JSON document)."""

    radius: int
    hexes: HexTable
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
            hexes = data["hexes"]
            if isinstance(hexes, HexArray):  # a session's own document: its table as it is
                table, own = hexes.rows(), hexes.own
            else:  # a list, or a large file's array read item by item
                table, own = HexTable.from_json(radius, hexes.values() if isinstance(hexes, Streamed) else hexes)
            party = data.get("party")
            return cls(radius, table, list(data["communities"]), list(data.get("sites", [])),
                       None if party is None else (party[0], party[1]), own, data.get("seed"))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            raise DedaleError("error.bad_document", field="hexes/communities") from None


class HexArray(Streamed):
    """A session's hexes in its document: written from its table (`hexcrawl.stream`), never held as objects;
    the hexes explored when the document was made (a session may go on)."""

    def __init__(self, table: HexTable, own: dict[tuple[str, str], Any]) -> None:
        self.table, self.own, self.count = table, own, len(table)

    def rows(self) -> HexTable:
        """The table as it was when the document was made."""
        return self.table if len(self.table) == self.count else self.table.first(self.count)

    def values(self) -> Iterator[dict[str, Any]]:
        radius, own = self.table.radius, self.own
        return (self.table.record(order).to_json(radius, own) for order in range(self.count))

    def texts(self, depth: int, indent: int | None) -> Iterator[str]:
        from dedale.hexcrawl.stream import hex_texts

        return hex_texts(self.rows(), self.own, depth + 1, indent)


def explored(document: dict[str, Any]) -> Container[Hex]:
    """The hexes a document's party has explored."""
    hexes = document["hexes"]
    if isinstance(hexes, HexArray):
        return hexes.rows()
    if isinstance(hexes, Streamed):  # a large file's: a byte a cell of the map's square, not a set of millions
        return _Cells(_int(document["params"]["radius"], 0, MAX_RADIUS), ((h["q"], h["r"]) for h in hexes.values()))
    return {(h["q"], h["r"]) for h in hexes}


class _Cells:
    """Hexes of a map, as a byte a cell of its square."""

    def __init__(self, radius: int, hexes: Iterable[Hex]) -> None:
        self.radius, self.side = radius, 2 * radius + 1
        self.marked = bytearray(self.side * self.side)
        for h in hexes:
            if self.cell(h) >= 0:
                self.marked[self.cell(h)] = 1

    def cell(self, h: Hex) -> int:
        q, r = h[0] + self.radius, h[1] + self.radius
        return q * self.side + r if 0 <= q < self.side and 0 <= r < self.side else -1

    def __contains__(self, h: object) -> bool:
        return isinstance(h, tuple) and len(h) == 2 and self.cell(h) >= 0 and self.marked[self.cell(h)] == 1


def discovered(document: dict[str, Any]) -> dict[str, Any]:
    """What the party knows of the land: the hexes explored, and only the communities and sites on them
    (the others were placed before play, for the GM)."""
    seen = explored(document)
    return {"communities": [c for c in document["communities"] if (c["q"], c["r"]) in seen],
            "sites": [s for s in document.get("sites", []) if (s["q"], s["r"]) in seen]}

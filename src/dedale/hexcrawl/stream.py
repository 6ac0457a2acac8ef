"""A session's hexes and log as JSON text, fast enough for 3 million hexes (`core.jsonstream` writes them).

`json` with an indent encodes in Python, a few microseconds an object. Here each hex and each exploration's log
entry is one %-template filled from the table's numbers. A template is the JSON text of the very dict
`hex_json` or `explored_entry` makes, with stand-ins for the numbers, encoded by `json` itself: the text is
the same as `json` would give, by construction. There is one template for each vegetation and obstacle row
met (their ids and a player's own labels are written into it), and the words a hex's numbers name (its
relief, where it came from) are pieces encoded once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from dedale.core.jsonstream import encode, separator
from dedale.hexcrawl.hexes import DIRECTION_NAMES, label
from dedale.hexcrawl.model import (
    RELIEFS,
    HexLog,
    HexTable,
    explored_entry,
    hex_json,
    pick_entry,
    relief_word,
    source_word,
)
from dedale.i18n import Word, word

CHUNK = 8192  # hexes a piece of text: a few MB
_MARK = re.compile("\ue000([a-z_]+)\ue001")


def _mark(name: str) -> str:
    """A stand-in for a value in a template (characters of the private use area: no id or label has them)."""
    return f"\ue000{name}\ue001"


class Template:
    """A sample's JSON text at `depth` with each stand-in made a %-conversion (`conversions`, by name); `names`
    says whose value each conversion takes, in order; `indents` the indentation of each stand-in's line."""

    def __init__(self, sample: Any, depth: int, indent: int | None, conversions: dict[str, str]) -> None:
        text = encode(sample, depth, indent)
        self.names = [found.group(1) for found in _MARK.finditer(text)]
        self.indents = {}
        for found in _MARK.finditer(text):
            line = text[text.rfind("\n", 0, found.start()) + 1:found.start()]
            self.indents[found.group(1)] = line[:len(line) - len(line.lstrip(" "))]
        text = text.replace("%", "%%")
        for name, conversion in conversions.items():
            text = text.replace(f'"{_mark(name)}"', conversion).replace(_mark(name), conversion)
        self.text = text

    def piece(self, name: str, value: Any, indent: int | None) -> str:
        """A value's text where the stand-in `name` stands."""
        return encode(value, 0, indent).replace("\n", "\n" + self.indents.get(name, ""))


@cache
def _dice() -> list[str]:
    """A die's text by its value as a table keeps it (0: not rolled)."""
    return ["null", *map(str, range(1, 65536))]


HEX_NAMES = ["q", "r", "col", "row", "order", "neighbour_die", "relief_die", "weights_die", "relief", "relief_name",
             "inherited_from", "vegetation_die", "obstacle_roll", "position", "obstacle_die"]
LOG_NAMES = ["col", "row", "neighbour_die", "relief_die", "weights_die", "relief", "source", "vegetation_die",
             "obstacle_roll", "obstacle_die", "position", "q", "r"]


def _label_conversion(radius: int) -> str:
    width = len(label((0, 0), radius)) // 2
    return f'"%0{width}d%0{width}d"'


class _Shapes(dict[int, str]):
    """Templates by vegetation and obstacle row (`vegetation * width + obstacle`), made when first met."""

    def __init__(self, make: Callable[[int, int], str], width: int) -> None:
        super().__init__()
        self.make, self.width = make, width

    def __missing__(self, key: int) -> str:
        self[key] = made = self.make(*divmod(key, self.width))
        return made


def hex_texts(table: HexTable, own: dict[tuple[str, str], Any], depth: int, indent: int | None) -> Iterator[str]:
    """The table's hexes as their document's items at `depth`, as `HexRecord.to_json` gives them."""
    radius = table.radius
    conversions = {name: "%d" for name in ("q", "r", "order", "relief", "vegetation_die", "obstacle_roll")}
    conversions |= {"label": _label_conversion(radius)}
    conversions |= {name: "%s" for name in ("neighbour_die", "relief_die", "weights_die", "relief_name",
                                            "inherited_from", "position", "obstacle_die")}
    names = {name: _mark(name) for name in conversions}

    def make(vegetation: int, obstacle: int) -> str:
        plant = table.vegetation_ids[vegetation]
        kind = table.obstacle_ids[obstacle - 1] if obstacle else None
        sample = hex_json(names["q"], names["r"], names["label"], names["order"], names["neighbour_die"],
                          names["relief_die"], names["weights_die"], names["relief"], names["relief_name"],
                          names["inherited_from"], plant, own.get(("vegetation", plant)), names["vegetation_die"],
                          names["obstacle_roll"], kind, None if kind is None else own.get(("obstacles", kind)),
                          names["position"], names["obstacle_die"])
        made = Template(sample, depth, indent, conversions)
        found = [("col" if name == "label" else name) for name in made.names]
        if kind is None:  # no obstacle: its position and die are swallowed
            made.text += "%.0s%.0s"
            found += ["position", "obstacle_die"]
        if found != [n for n in HEX_NAMES if n != "row"]:
            raise AssertionError(f"the hex's fields moved: {found}")
        return made.text

    shapes = _Shapes(make, len(table.obstacle_ids) + 1)
    width, between = shapes.width, separator(depth, indent)
    names_json = [encode(name, 0, None) for name in RELIEFS]
    inherited = ["null", *(encode(name, 0, None) for name in DIRECTION_NAMES)]
    centre, dice = radius + 1, _dice()
    for start in range(0, len(table), CHUNK):
        part = slice(start, start + CHUNK)
        rows = zip(table.q[part], table.r[part], range(start, start + CHUNK), *(column[part] for column in
                                                                                 table.columns()), strict=False)
        yield between.join([
            shapes[v * width + o] % (q, r, q + centre, r + ((q - (q & 1)) >> 1) + centre, k, dice[nd], dice[rd],
                                     dice[wd], relief, names_json[relief], inherited[i], vd, roll, dice[pos], dice[od])
            for q, r, k, nd, rd, wd, relief, i, vd, v, roll, od, o, pos in rows])


def log_texts(log: HexLog, words: dict[tuple[str, str], Word], depth: int, indent: int | None,
              count: int) -> Iterator[str]:
    """The log's first `count` entries as the document's items at `depth`: entries as they are, compact runs
    from templates."""
    explored = _Explorations(log.hexes, words, depth, indent)
    pick = Template(pick_entry(_mark("among"), _mark("die")), depth, indent, {"among": "%d", "die": "%d"}).text
    between = separator(depth, indent)
    for item in log.runs(count):
        if isinstance(item, dict):
            yield encode(item, depth, indent)
        elif isinstance(item, range):  # hexes explored one after the other: the common case, made fastest
            for start in range(item.start, item.stop, CHUNK):
                yield between.join(explored.texts(start, min(start + CHUNK, item.stop)))
        else:
            for start in range(0, len(item), CHUNK):
                yield between.join([explored.texts(code, code + 1)[0] if code >= 0 else
                                    pick % (-code >> 16, -code & 0xFFFF, -code & 0xFFFF, -code >> 16)
                                    for code in item[start:start + CHUNK]])


class _Explorations:
    """The log entries of hexes' explorations, as `HexRecord.log_entry` gives them."""

    def __init__(self, table: HexTable, words: dict[tuple[str, str], Word], depth: int, indent: int | None) -> None:
        self.table, self.words, self.depth, self.indent = table, words, depth, indent
        conversions = {name: "%d" for name in ("vegetation_die", "obstacle_roll", "q", "r")}
        conversions |= {"label": _label_conversion(table.radius)}
        conversions |= {name: "%s" for name in ("neighbour_die", "relief_die", "weights_die", "relief", "source",
                                                "obstacle_die", "position")}
        self.conversions = conversions
        self.shapes = _Shapes(self.make, len(table.obstacle_ids) + 1)
        sample = self.template(0, 0)  # where the words of a relief and of where it came from go
        self.reliefs = [sample.piece("relief", relief_word(relief), indent) for relief in range(len(RELIEFS))]
        self.sources = [sample.piece("source", source_word(inherited, weighted), indent)
                        for weighted in (False, True) for inherited in range(len(DIRECTION_NAMES) + 1)]

    def template(self, vegetation: int, obstacle: int) -> Template:
        table, words, names = self.table, self.words, {name: _mark(name) for name in self.conversions}
        plant = table.vegetation_ids[vegetation] if table.vegetation_ids else ""
        kind = table.obstacle_ids[obstacle - 1] if obstacle else None
        obstacle_word = word("hexcrawl.no_obstacle") if kind is None else words.get(("obstacles", kind), kind)
        sample = explored_entry(names["label"], names["neighbour_die"], names["relief_die"], names["weights_die"],
                                names["relief"], names["source"], names["vegetation_die"],
                                words.get(("vegetation", plant), plant), names["obstacle_roll"], obstacle_word,
                                names["obstacle_die"], names["position"], names["q"], names["r"])
        made = Template(sample, self.depth, self.indent, self.conversions)
        found = [("col" if name == "label" else name) for name in made.names]
        if found != [n for n in LOG_NAMES if n != "row"]:
            raise AssertionError(f"the log entry's fields moved: {found}")
        return made

    def make(self, vegetation: int, obstacle: int) -> str:
        return self.template(vegetation, obstacle).text

    def texts(self, start: int, stop: int) -> list[str]:
        """The entries of the hexes of orders `start` to `stop - 1`."""
        table, shapes, width, centre = self.table, self.shapes, self.shapes.width, self.table.radius + 1
        reliefs, sources, dice, weighted = self.reliefs, self.sources, _dice(), len(DIRECTION_NAMES) + 1
        part = slice(start, stop)
        rows = zip(table.q[part], table.r[part], *(column[part] for column in table.columns()), strict=True)
        return [shapes[v * width + o] % (q + centre, r + ((q - (q & 1)) >> 1) + centre, dice[nd], dice[rd], dice[wd],
                                         reliefs[relief], sources[weighted if wd else i], vd, roll, dice[od],
                                         dice[pos], q, r)
                for q, r, nd, rd, wd, relief, i, vd, v, roll, od, o, pos in rows]

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
from collections.abc import Callable, Iterator, Sequence
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


def log_texts(log: HexLog, words: dict[tuple[str, str], Word], depth: int, indent: int | None) -> Iterator[str]:
    """The log's entries as the document's items at `depth`: entries as they are, compact runs from templates."""
    table = log.hexes
    explored = _explored_template(table, words, depth, indent)
    pick = Template(pick_entry(_mark("among"), _mark("die")), depth, indent, {"among": "%d", "die": "%d"}).text
    between = separator(depth, indent)
    for item in log.runs():
        if isinstance(item, dict):
            yield encode(item, depth, indent)
            continue
        for start in range(0, len(item), CHUNK):
            codes = item[start:start + CHUNK]
            yield between.join([explored(code) if code >= 0 else pick % (-code >> 16, -code & 0xFFFF, -code & 0xFFFF,
                                                                         -code >> 16) for code in codes])


def _explored_template(table: HexTable, words: dict[tuple[str, str], Word], depth: int,
                       indent: int | None) -> Callable[[int], str]:
    """The text of hex `order`'s exploration entry, as `HexRecord.log_entry` gives it."""
    radius = table.radius
    conversions = {name: "%d" for name in ("vegetation_die", "obstacle_roll", "q", "r")}
    conversions |= {"label": _label_conversion(radius)}
    conversions |= {name: "%s" for name in ("neighbour_die", "relief_die", "weights_die", "relief", "source",
                                            "obstacle_die", "position")}
    names = {name: _mark(name) for name in conversions}
    pieces: dict[str, Sequence[str]] = {}

    def make(vegetation: int, obstacle: int) -> str:
        plant = table.vegetation_ids[vegetation]
        kind = table.obstacle_ids[obstacle - 1] if obstacle else None
        obstacle_word = word("hexcrawl.no_obstacle") if kind is None else words.get(("obstacles", kind), kind)
        sample = explored_entry(names["label"], names["neighbour_die"], names["relief_die"], names["weights_die"],
                                names["relief"], names["source"], names["vegetation_die"],
                                words.get(("vegetation", plant), plant), names["obstacle_roll"], obstacle_word,
                                names["obstacle_die"], names["position"], names["q"], names["r"])
        made = Template(sample, depth, indent, conversions)
        found = [("col" if name == "label" else name) for name in made.names]
        if found != [n for n in LOG_NAMES if n != "row"]:
            raise AssertionError(f"the log entry's fields moved: {found}")
        if not pieces:  # the words of a relief and of where it came from, where the template puts them
            pieces["relief"] = [made.piece("relief", relief_word(relief), indent) for relief in range(len(RELIEFS))]
            pieces["source"] = [made.piece("source", source_word(inherited, weighted), indent)
                                for weighted in (False, True) for inherited in range(len(DIRECTION_NAMES) + 1)]
        return made.text

    shapes = _Shapes(make, len(table.obstacle_ids) + 1)
    width, centre = shapes.width, radius + 1
    q, r, columns = table.q, table.r, table.columns()
    nd, rd, wd, relief, inherited, vd, plant, roll, od, obstacle, pos = columns
    weighted, dice = len(DIRECTION_NAMES) + 1, _dice()

    def text(k: int) -> str:
        template = shapes[plant[k] * width + obstacle[k]]
        hq, hr, w = q[k], r[k], wd[k]
        return template % (hq + centre, hr + ((hq - (hq & 1)) >> 1) + centre, dice[nd[k]], dice[rd[k]], dice[w],
                           pieces["relief"][relief[k]], pieces["source"][weighted if w else inherited[k]], vd[k],
                           roll[k], dice[od[k]], dice[pos[k]], hq, hr)

    return text

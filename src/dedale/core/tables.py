"""Data tables in TOML: dice-indexed or weighted rows, nested tables, labels in English and French.

A file holds one or more tables, each a top-level TOML table:

    [creatures]
    dice = "1d12"                      # dice-indexed; leave it out and give each row a `weight`
    title = { en = "Creatures", fr = "Créatures" }

    [[creatures.rows]]
    roll = [1, 2]                      # a total or an inclusive range of totals
    id = "rats"
    label = { en = "Giant rats", fr = "Rats géants" }
    then = "vermin"                    # optional: roll on that table too (nested tables)
    number = [2, 3, 3, 4, 5, 6]        # any other field is data for the rules

A system's shipped tables live in its package (`dedale/SYSTEM/data/tables`); a player's folder replaces
files of the same name and adds new ones. Every error names the file, the entry and what is wrong.

Documents keep a row by its id (`Row.item`, `Row.word`) and its label is looked up in the shipped tables when
shown, in the language asked; a player's own row keeps its label as their file gives it.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from dedale.core.dice import DiceExpr
from dedale.core.errors import DedaleError
from dedale.core.files import read_data
from dedale.core.rng import Roller
from dedale.i18n import Word, data_word, given, pick, say

_ROW_KEYS = {"roll", "weight", "id", "label", "then"}


@dataclass(frozen=True)
class Row:
    id: str
    labels: dict[str, str]
    low: int = 0
    high: int = 0
    weight: float = 0.0
    then: str | None = None
    data: dict[str, Any] | None = None
    table: str = ""
    source: str = ""  # the system whose shipped files hold the row; "" for a player's own row

    def label(self, lang: str = "en") -> str:
        return pick(self.labels, lang) or self.id

    @property
    def own_label(self) -> str | dict[str, str] | None:
        """A player's own row's label as their file gives it (one text, or a text by language), which documents
        keep as it is: it does not depend on the language shown, and only the player's file knows its
        translations. None for a shipped row, whose label documents look up by id."""
        return None if self.source else self._given_label()

    def _given_label(self) -> str | dict[str, str]:
        return next(iter(self.labels.values())) if len(self.labels) == 1 else dict(self.labels)

    @property
    def word(self) -> Word:
        """The row's label as a log keeps it (see `i18n`)."""
        if self.source:  # a shipped row (asked at every roll on a table: `own_label` only when needed)
            return data_word(self.source, self.table, self.id)
        return given(self._given_label())

    def item(self, **fields: Any) -> dict[str, Any]:
        """The row as a result keeps it: its id (and a player's own label), with `fields`."""
        if self.source:
            return {"id": self.id, **fields}
        return {"id": self.id, "label": self._given_label(), **fields}

    def get(self, key: str, default: Any = None) -> Any:
        return (self.data or {}).get(key, default)


@dataclass(frozen=True)
class Table:
    name: str
    file: str
    titles: dict[str, str]
    dice: DiceExpr | None
    rows: tuple[Row, ...]

    def row_for(self, total: int) -> Row:
        row = self._by_total.get(total)
        if row is None:
            raise AssertionError(f"{self.file}: {self.name}: no row for {total}")  # load() checks coverage
        return row

    @cached_property
    def _by_total(self) -> dict[int, Row]:
        """The row of each total (the first row whose range holds it), for `row_for`: a table is rolled often."""
        by_total: dict[int, Row] = {}
        for row in self.rows:
            for total in range(row.low, row.high + 1):
                by_total.setdefault(total, row)
        return by_total

    def title(self, lang: str = "en") -> str:
        return pick(self.titles, lang) or self.name

    def row(self, row_id: str) -> Row | None:
        return next((row for row in self.rows if row.id == row_id), None)

    def fail(self, entry: str, key: str, **args: Any) -> DedaleError:
        return DedaleError(key, file=self.file, entry=f"{self.name}.{entry}" if entry else self.name, **args)


def shipped_files(package: str) -> list[tuple[str, str]]:
    """The table files a system ships: (file name, text)."""
    folder = resources.files(package).joinpath("data/tables")
    return sorted((item.name, item.read_text(encoding="utf-8")) for item in folder.iterdir()
                  if item.name.endswith(".toml"))


class TableSet:
    """All the tables a system uses, by name."""

    def __init__(self, tables: dict[str, Table]) -> None:
        self.tables = tables

    def __getitem__(self, name: str) -> Table:
        return self.tables[name]

    @classmethod
    def load(cls, package: str, user_dir: Path | None = None) -> TableSet:
        """The shipped tables of `package`, with the files of `user_dir` replacing or adding to them."""
        source = package.removeprefix("dedale.")
        files = {name: (f"{package}:{name}", text, source) for name, text in shipped_files(package)}
        if user_dir is not None:
            if not os.path.isdir(user_dir):
                raise DedaleError("error.tables_dir", path=str(user_dir))
            for path in sorted(user_dir.glob("*.toml")):
                try:
                    files[path.name] = (str(path), read_data(path).decode("utf-8"), "")
                except UnicodeDecodeError as exc:
                    raise DedaleError("table.unreadable", file=str(path), problem=str(exc)) from None
        tables: dict[str, Table] = {}
        for file, text, shipped in sorted(files.values()):
            for table in parse_tables(file, text, shipped):
                if table.name in tables:
                    raise table.fail("", "table.duplicate", other=tables[table.name].file)
                tables[table.name] = table
        for table in tables.values():
            for row in table.rows:
                if row.then is not None and row.then not in tables:
                    raise table.fail(row.id, "table.unknown_then", then=row.then)
        _check_cycles(tables)
        return cls(tables)

    def roll(self, name: str, roller: Roller, purpose: str, **args: Any) -> Row:
        """Roll on table `name`, following `then` into nested tables; returns the last row."""
        row = self._roll_one(name, roller, purpose, args)
        while row.then:
            row = self._roll_one(row.then, roller, purpose, args)
        return row

    def roll_chain(self, name: str, roller: Roller, purpose: str, **args: Any) -> list[Row]:
        """Roll on table `name` and on each nested table its row names with `then`: every row, in order."""
        rows = [self._roll_one(name, roller, purpose, args)]
        while rows[-1].then:
            rows.append(self._roll_one(rows[-1].then, roller, purpose, args))
        return rows

    def _roll_one(self, name: str, roller: Roller, purpose: str, args: dict[str, Any]) -> Row:
        table = self.tables[name]
        if table.dice is None:
            index = roller.weighted([row.id for row in table.rows], [row.weight for row in table.rows],
                                    purpose, table=name, **args)
            return table.rows[index]
        roll = roller.roll(table.dice, purpose, table=name, **args)
        row = table.row_for(roll.total)
        roll.decide("table.row", id=row.id, label=row.word)
        return row

    def roll_each(self, name: str, times: int, roller: Roller, purpose: str, **args: Any) -> list[Row]:
        """Roll `times` dice at once on a one-die table (`3d6` read die by die), as one log entry."""
        table = self.tables[name]
        assert table.dice is not None and table.dice.count == 1 and table.dice.modifier == 0
        if times == 0:
            return []
        roll = roller.roll(DiceExpr(times, table.dice.sides), purpose, table=name, **args)
        rows = [table.row_for(face) for face in roll.dice]
        roll.decide("table.rows", labels=[row.word for row in rows])
        return rows


def load_system_tables(package: str, user_dir: str | None, check: Callable[[TableSet], TableSet]) -> TableSet:
    """A system's tables, checked by `check`: the shipped ones, or with the player's folder replacing files
    of the same name. Loaded once while the folder's files are unchanged (a batch reads them once)."""
    stamp: tuple[tuple[str, int, int], ...] = ()
    if user_dir is not None:
        with suppress(OSError):  # an unreadable folder: TableSet.load says what is wrong with it
            stamp = tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size)
                          for p in sorted(Path(user_dir).glob("*.toml")))
    return _load_cached(package, user_dir, stamp, check)


@lru_cache(maxsize=32)
def _load_cached(package: str, user_dir: str | None, stamp: tuple[tuple[str, int, int], ...],
                 check: Callable[[TableSet], TableSet]) -> TableSet:
    return check(TableSet.load(package, None if user_dir is None else Path(user_dir)))


@lru_cache(maxsize=8)
def shipped_tables(source: str) -> TableSet:
    """The tables a system ships (`source` "crawler" for `dedale.crawler`), unchecked: for their labels."""
    return TableSet.load(f"dedale.{source}")


@lru_cache(maxsize=4096)
def shipped_label(source: str, table: str, row_id: str) -> dict[str, str] | None:
    """A shipped row's labels by language (None when the shipped tables have no such row); looked up once."""
    found = shipped_tables(source).tables.get(table)
    row = None if found is None else found.row(row_id)
    return None if row is None else row.labels


def item_label(source: str, table: str, item: dict[str, Any], lang: str) -> str:
    """A row kept in a result (`Row.item`) in words: a player's own label, else the shipped one, else its id."""
    if "label" in item:
        return pick(item["label"], lang)
    return say(data_word(source, table, str(item.get("id", ""))), lang)


def parse_tables(file: str, text: str, source: str = "") -> Iterable[Table]:
    """The tables of a file; `source` names the system that ships it ("" for a player's file)."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DedaleError("table.syntax", file=file, problem=str(exc)) from None
    for name, body in document.items():
        if not isinstance(body, dict):
            raise DedaleError("table.not_a_table", file=file, entry=name)
        yield _parse_table(file, name, body, source)


def _labels(table_file: str, entry: str, value: Any) -> dict[str, str]:
    if isinstance(value, str):
        return {"en": value}
    if isinstance(value, dict) and value and all(isinstance(v, str) for v in value.values()):
        return dict(value)
    raise DedaleError("table.bad_label", file=table_file, entry=entry)


def _parse_table(file: str, name: str, body: dict[str, Any], source: str) -> Table:
    dice = None
    if "dice" in body:
        try:
            dice = DiceExpr.parse(str(body["dice"]), param=f"{name}.dice")
        except DedaleError:
            raise DedaleError("table.bad_dice", file=file, entry=name, value=body["dice"]) from None
    raw_rows = body.get("rows")
    if not isinstance(raw_rows, list) or not raw_rows:
        raise DedaleError("table.no_rows", file=file, entry=name)
    titles = _labels(file, name, body.get("title", name))
    rows = tuple(_parse_row(file, name, i, raw, dice, source) for i, raw in enumerate(raw_rows, 1))
    table = Table(name, file, titles, dice, rows)
    ids = [row.id for row in rows]
    duplicate = next((i for i in ids if ids.count(i) > 1), None)
    if duplicate is not None:
        raise table.fail(duplicate, "table.duplicate_id")
    if dice is not None:
        _check_coverage(table, dice)
    return table


def _parse_row(file: str, table: str, index: int, raw: Any, dice: DiceExpr | None, source: str) -> Row:
    entry = f"{table}.rows[{index}]"
    if not isinstance(raw, dict):
        raise DedaleError("table.not_a_table", file=file, entry=entry)
    row_id = raw.get("id")
    if not isinstance(row_id, str) or not row_id:
        raise DedaleError("table.missing_field", file=file, entry=entry, field="id")
    entry = f"{table}.{row_id}"
    labels = _labels(file, entry, raw.get("label", row_id))
    then = raw.get("then")
    if then is not None and not isinstance(then, str):
        raise DedaleError("table.bad_field", file=file, entry=entry, field="then", expected="a table name")
    data = {k: v for k, v in raw.items() if k not in _ROW_KEYS} or None
    if dice is None:
        weight = raw.get("weight")
        if isinstance(weight, bool) or not isinstance(weight, int | float) or weight <= 0:
            raise DedaleError("table.bad_weight", file=file, entry=entry)
        return Row(row_id, labels, weight=float(weight), then=then, data=data, table=table, source=source)
    low, high = _range(file, entry, raw.get("roll"))
    return Row(row_id, labels, low, high, then=then, data=data, table=table, source=source)


def _range(file: str, entry: str, value: Any) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return value, value
    if (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)
            and value[0] <= value[1]):
        return value[0], value[1]
    raise DedaleError("table.bad_roll", file=file, entry=entry)


def _check_coverage(table: Table, dice: DiceExpr) -> None:
    """Every total the dice can make falls in exactly one row."""
    for total in range(dice.minimum, dice.maximum + 1):
        rows = [row for row in table.rows if row.low <= total <= row.high]
        if len(rows) != 1:
            key = "table.gap" if not rows else "table.overlap"
            raise table.fail("", key, total=total, dice=str(dice))
    for row in table.rows:
        if row.low < dice.minimum or row.high > dice.maximum:
            raise table.fail(row.id, "table.out_of_range", dice=str(dice))


def _check_cycles(tables: dict[str, Table]) -> None:
    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in path:
            raise tables[name].fail("", "table.cycle", path=" -> ".join((*path, name)))
        for row in tables[name].rows:
            if row.then:
                visit(row.then, (*path, name))

    for name in tables:
        visit(name, ())

"""TOML data tables: dice-indexed and weighted rows, nested tables, and errors naming file and entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from dedale.core.errors import DedaleError
from dedale.core.rng import Roller, SeededSource, TableSource
from dedale.core.tables import TableSet, parse_tables

GOOD = """
[monsters]
dice = "1d6"
title = { en = "Monsters", fr = "Monstres" }

[[monsters.rows]]
roll = [1, 3]
id = "rats"
label = { en = "Rats", fr = "Rats" }
number = 4

[[monsters.rows]]
roll = [4, 6]
id = "undead"
label = "Undead"
then = "undead"

[undead]

[[undead.rows]]
id = "skeleton"
weight = 3

[[undead.rows]]
id = "lich"
label = { en = "Lich", fr = "Liche" }
weight = 1
"""


def load(tmp_path: Path, text: str) -> TableSet:
    (tmp_path / "extra.toml").write_text(text, encoding="utf-8")
    return TableSet.load("dedale.crawler", tmp_path)


def test_dice_indexed_and_nested(tmp_path: Path) -> None:
    tables = load(tmp_path, GOOD)
    row = tables.roll("monsters", Roller(TableSource(["2"]), []), "x")
    assert (row.id, row.get("number"), row.label("fr")) == ("rats", 4, "Rats")
    log: list[dict] = []
    row = tables.roll("monsters", Roller(TableSource(["5", "lich"]), log), "x")
    assert row.id == "lich" and row.label("fr") == "Liche"
    assert log[1]["pick"] == "lich" and log[1]["weights"] == {"skeleton": 3.0, "lich": 1.0}
    assert log[0]["decided"]["label"] == {"l": "Undead"}  # a player's own row: its label as the file gives it


def test_roll_each_reads_one_die_per_row(tmp_path: Path) -> None:
    tables = load(tmp_path, GOOD)
    log: list[dict] = []
    rows = tables.roll_each("monsters", 3, Roller(SeededSource(5), log), "x")
    assert len(rows) == 3 and log[0]["roll"] == "3d6"


@pytest.mark.parametrize(("text", "key", "entry"), [
    ('[t]\ndice = "1d6"\n[[t.rows]]\nroll = [1, 5]\nid = "a"\n', "table.gap", "t"),
    ('[t]\ndice = "1d6"\n[[t.rows]]\nroll = [1, 6]\nid = "a"\n[[t.rows]]\nroll = 2\nid = "b"\n', "table.overlap", "t"),
    ('[t]\ndice = "1d6"\n[[t.rows]]\nroll = [1, 7]\nid = "a"\n', "table.out_of_range", "t.a"),
    ('[t]\ndice = "1d0"\n[[t.rows]]\nroll = 1\nid = "a"\n', "table.bad_dice", "t"),
    ('[t]\n[[t.rows]]\nid = "a"\n', "table.bad_weight", "t.a"),
    ('[t]\ndice = "1d2"\n[[t.rows]]\nroll = [1, 2]\n', "table.missing_field", "t.rows[1]"),
    ('[t]\ndice = "1d2"\n[[t.rows]]\nroll = [1, 2]\nid = "a"\nthen = "nowhere"\n', "table.unknown_then", "t.a"),
    ('[t]\ndice = "1d2"\n[[t.rows]]\nroll = "one"\nid = "a"\n', "table.bad_roll", "t.a"),
    ('[t]\ndice = "1d2"\n', "table.no_rows", "t"),
    ('[t\n', "table.syntax", None),
    ('[t]\n[[t.rows]]\nid = "a"\nweight = 1\nthen = "t"\n', "table.cycle", "t"),
    ('[room_kinds]\ndice = "1d2"\n[[room_kinds.rows]]\nroll = [1, 2]\nid = "a"\n', "table.duplicate", "room_kinds"),
])
def test_errors_name_the_file_the_entry_and_the_problem(tmp_path: Path, text: str, key: str,
                                                        entry: str | None) -> None:
    with pytest.raises(DedaleError) as err:
        load(tmp_path, text)
    assert err.value.key == key
    message = err.value.message()
    assert "extra.toml" in message or "dedale.crawler" in message
    if entry:
        assert err.value.args_["entry"] == entry and entry in message


def test_a_player_file_replaces_the_shipped_file_of_the_same_name(tmp_path: Path) -> None:
    shipped = TableSet.load("dedale.crawler")
    text = (Path(__file__).parents[1] / "src/dedale/crawler/data/tables/contents.toml").read_text(encoding="utf-8")
    (tmp_path / "contents.toml").write_text(text.replace("Guard room", "Hall of guards"), encoding="utf-8")
    mine = TableSet.load("dedale.crawler", tmp_path)
    assert mine["room_kinds"].rows[1].label() == "Hall of guards"
    assert shipped["room_kinds"].rows[1].label() == "Guard room"


def test_every_shipped_table_parses() -> None:
    text = (Path(__file__).parents[1] / "src/dedale/crawler/data/tables/contents.toml").read_text(encoding="utf-8")
    assert len(list(parse_tables("contents.toml", text))) >= 9

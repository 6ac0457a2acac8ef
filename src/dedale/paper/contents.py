"""The paper dungeon's room contents (step D): the `contents` table and the tables nested under it."""

from __future__ import annotations

from dedale.core.documents import dump, load
from dedale.core.errors import DedaleError
from dedale.core.rng import Roller
from dedale.core.tables import TableSet, item_label, load_system_tables, shipped_tables
from dedale.paper.model import Contents


def check(tables: TableSet) -> TableSet:
    """The `contents` table exists and is rolled with dice (its total is the room's `contents_roll`)."""
    if "contents" not in tables.tables:
        raise DedaleError("table.missing_table", table="contents")
    if tables["contents"].dice is None:
        raise tables["contents"].fail("", "table.needs_dice")
    return tables


def load_tables(user_dir: str | None) -> TableSet:
    return load_system_tables("dedale.paper", user_dir, check)


def roll_contents(tables: TableSet, roller: Roller, room: int) -> tuple[int, Contents]:
    """The contents roll's total and what it gives: the row, and the rows of the tables nested under it (each
    kept by its id, `Row.item`)."""
    start = len(roller.log)
    rows = tables.roll_chain("contents", roller, "paper.contents", room=room)
    total = roller.log[start]["total"]
    contents = rows[0].item()
    if len(rows) > 1:
        contents["detail"] = [row.item() for row in rows[1:]]
    return total, load(Contents, contents)


def contents_labels(contents: Contents, lang: str) -> list[str]:
    """A room's contents in words: its row, then the nested rows, each looked up in the table the row before
    names (`then`) in the shipped tables, unless it is a player's own row (which keeps its label)."""
    labels, table = [], "contents"
    for item in [dump(contents), *map(dump, contents.detail or [])]:
        labels.append(item_label("paper", table, item, lang))
        found = shipped_tables("paper").tables.get(table)
        row = None if found is None else found.row(str(item.get("id", "")))
        table = "" if row is None or row.then is None else row.then
    return labels

"""The paper dungeon's room contents (step D): the `contents` table and the tables nested under it."""

from __future__ import annotations

from typing import Any

from dedale.core.errors import DedaleError
from dedale.core.rng import Roller
from dedale.core.tables import TableSet, load_system_tables


def check(tables: TableSet) -> TableSet:
    """The `contents` table exists and is rolled with dice (its total is the room's `contents_roll`)."""
    if "contents" not in tables.tables:
        raise DedaleError("table.missing_table", table="contents")
    if tables["contents"].dice is None:
        raise tables["contents"].fail("", "table.needs_dice")
    return tables


def load_tables(user_dir: str | None) -> TableSet:
    return load_system_tables("dedale.paper", user_dir, check)


def roll_contents(tables: TableSet, roller: Roller, room: int, lang: str) -> tuple[int, dict[str, Any]]:
    """The contents roll's total and what it gives: the row, and the rows of the tables nested under it."""
    start = len(roller.log)
    rows = tables.roll_chain("contents", roller, "paper.contents", lang, room=room)
    total = roller.log[start]["total"]
    contents: dict[str, Any] = {"id": rows[0].id, "label": rows[0].label(lang)}
    if len(rows) > 1:
        contents["detail"] = [{"id": row.id, "label": row.label(lang)} for row in rows[1:]]
    return total, contents

"""The hexcrawl's tables: vegetation and obstacles (rolled for every hex), communities, satellites, ruins.

A community's nature, function or people may name the reliefs it clashes with (`clashes = ["waters"]`: a
horsemen's camp on the waters): the log then asks the table to invent why (`session._note_clashes`)."""

from __future__ import annotations

from dedale.core.errors import DedaleError
from dedale.core.tables import TableSet, load_system_tables
from dedale.hexcrawl.hexes import RELIEFS

# Rolled for every hex, as one die each (their dice are kept in the hex's record, not logged again).
ONE_DIE = ("vegetation", "obstacles")
COMMUNITY_TABLES = {"city": "city_nature", "community": "community_nature", "fae": "fae_nature"}  # their nature
NEEDED = (*ONE_DIE, "city_nature", "community_nature", "fae_nature", "themes", "function", "people", "name_start",
          "name_end", "satellites", "ruins")


CLASHING = (*COMMUNITY_TABLES.values(), "function", "people")  # the rows whose `clashes` are read


def check(tables: TableSet) -> TableSet:
    for name in CLASHING:
        for row in tables[name].rows if name in tables.tables else ():
            clashes = row.get("clashes", [])
            if not isinstance(clashes, list) or not all(relief in RELIEFS for relief in clashes):
                raise tables[name].fail(row.id, "table.bad_field", field="clashes",
                                        expected="a list of reliefs among " + ", ".join(RELIEFS))
    for name in NEEDED:
        if name not in tables.tables:
            raise DedaleError("table.missing_table", table=name)
        table = tables[name]
        if table.dice is None:
            raise table.fail("", "table.needs_dice")
        if name in ONE_DIE and (table.dice.count != 1 or table.dice.modifier or any(row.then for row in table.rows)):
            raise table.fail("", "table.one_die")
    return tables


def load_tables(user_dir: str | None) -> TableSet:
    return load_system_tables("dedale.hexcrawl", user_dir, check)

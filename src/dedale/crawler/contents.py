"""Room contents from the crawler's tables: what the room is, which creatures and how many, treasure.

The seed throws three dice per room (kind, creatures, number); the project adds a treasure die, since the
seed mentions treasure without a roll for it. The Dungeon Roll variant replaces creatures, number and
treasure by a number of Dungeon Roll dice (goblin, skeleton, ooze, dragon, chest, potion) to throw.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from dedale.core.errors import DedaleError
from dedale.core.rng import Roller
from dedale.core.tables import Row, Table, TableSet, load_system_tables

NUMBER_DIE = "1d6"  # the third die: indexes the creature row's `number` list
# table name -> fields its rows must carry (besides id and label)
REQUIRED: dict[str, tuple[str, ...]] = {
    "room_kinds": (),
    "boss_rooms": (),
    "creatures": ("number",),
    "boss_creatures": ("number",),
    "treasure": (),
    "boss_treasure": (),
    "dungeon_roll_dice": ("dice",),
    "boss_dungeon_roll_dice": ("dice",),
    "dungeon_die": ("kind",),
}


def load_tables(user_dir: str | None) -> TableSet:
    """The crawler's tables, or with the player's folder replacing files of the same name."""
    return load_system_tables("dedale.crawler", user_dir, check)


def check(tables: TableSet) -> TableSet:
    """The tables the crawler needs exist, are dice-indexed, and their rows carry the fields it reads."""
    for name, fields in REQUIRED.items():
        if name not in tables.tables:
            raise DedaleError("table.missing_table", table=name)
        table = tables[name]
        if table.dice is None:
            raise table.fail("", "table.needs_dice")
        for row in table.rows:
            for field in fields:
                _check_field(table, row, field)
    return tables


def _check_field(table: Table, row: Row, field: str) -> None:
    value = row.get(field)
    if field == "number":
        ok = isinstance(value, list) and len(value) == 6 and all(_count(v) for v in value)
        expected = "a list of 6 whole numbers (one per face of the number die)"
    elif field == "dice":
        ok, expected = _count(value) and value <= 12, "a whole number of dice from 0 to 12"
    else:
        ok, expected = value in ("creature", "treasure"), "'creature' or 'treasure'"
    if not ok:
        raise table.fail(row.id, "table.bad_field", field=field, expected=expected)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def roll_contents(tables: TableSet, roller: Roller, room: int, boss: bool, mode: str) -> dict[str, Any]:
    """The room's contents, each row kept by its id (`Row.item`; `contents_tables` says where to look it up)."""
    prefix = "boss_" if boss else ""
    kind = tables.roll("boss_rooms" if boss else "room_kinds", roller, "crawler.contents.kind", room=room)
    contents: dict[str, Any] = {"kind": kind.item()}
    if mode == "dungeon-roll":
        return _dungeon_roll(tables, roller, room, prefix, contents)
    creatures = tables.roll("boss_creatures" if boss else "creatures", roller, "crawler.contents.creatures",
                            room=room)
    number_roll = roller.roll(NUMBER_DIE, "crawler.contents.number", room=room)
    number = creatures.get("number")[number_roll.total - 1]
    number_roll.decide("crawler.contents.how_many", number=number)
    contents["creatures"] = [creatures.item(number=number)] if number else []
    treasure = tables.roll("boss_treasure" if boss else "treasure", roller, "crawler.contents.treasure", room=room)
    contents["treasure"] = [] if treasure.get("none") else [treasure.item(number=1)]
    return contents


def _dungeon_roll(tables: TableSet, roller: Roller, room: int, prefix: str, contents: dict[str, Any]) -> dict[str, Any]:
    """The Dungeon Roll variant: a number of Dungeon Roll dice, thrown."""
    count = tables.roll(f"{prefix}dungeon_roll_dice", roller, "crawler.contents.dice", room=room)
    faces = tables.roll_each("dungeon_die", count.get("dice"), roller, "crawler.contents.dungeon_dice", room=room)
    for kind_name, key in (("creature", "creatures"), ("treasure", "treasure")):
        rows = [row for row in faces if row.get("kind") == kind_name]
        unique = list(dict.fromkeys(row.id for row in rows))
        contents[key] = [next(r for r in rows if r.id == i).item(number=sum(r.id == i for r in rows))
                         for i in unique]
    contents["dungeon_dice"] = [row.id for row in faces]
    return contents


def contents_tables(contents: dict[str, Any], boss: bool) -> Mapping[str, str]:
    """The table each field of a room's contents was rolled on (to look a row's label up by its id)."""
    return _TABLES["dungeon_dice" in contents, boss]


def _tables(dungeon_roll: bool, boss: bool) -> Mapping[str, str]:
    prefix = "boss_" if boss else ""
    rolled = ("dungeon_die",) * 2 if dungeon_roll else (f"{prefix}creatures", f"{prefix}treasure")
    return MappingProxyType({"kind": "boss_rooms" if boss else "room_kinds", "creatures": rolled[0],
                             "treasure": rolled[1]})


_TABLES = {(roll, boss): _tables(roll, boss) for roll in (False, True) for boss in (False, True)}  # legends ask often

"""Words for a crawler dungeon, shared by the text view and the pictures."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from dedale.core.seeds import readable
from dedale.core.tables import item_label
from dedale.crawler.contents import contents_tables
from dedale.crawler.model import Dungeon, Room
from dedale.i18n import t


def _items(table: str, items: list[dict[str, Any]], lang: str) -> str:
    words = []
    for item in items:
        words.append(_item_words(table, item, lang))
    return ", ".join(words)


def _item_words(table: str, item: dict[str, Any], lang: str) -> str:
    """An item in words: its label, and how many when more than one."""
    number = item.get("number", 1)
    if "label" not in item and type(number) is int:  # a shipped row: the same words every time
        return _shipped_words(table, str(item.get("id", "")), number, lang)
    label = item_label("crawler", table, item, lang)
    return label if number == 1 else f"{label} ×{item['number']}"


def _label(table: str, item: dict[str, Any], lang: str) -> str:
    if "label" in item:
        return item_label("crawler", table, item, lang)
    return _shipped_words(table, str(item.get("id", "")), 1, lang)


# A legend words every room of every dungeon drawn: the words of a shipped row or a title are worked out once.
@lru_cache(maxsize=4096)
def _shipped_words(table: str, row_id: str, number: int, lang: str) -> str:
    label = item_label("crawler", table, {"id": row_id}, lang)
    return label if number == 1 else f"{label} ×{number}"


def room_title(room: Room, lang: str) -> str:
    contents = room.contents or {}
    kind = contents.get("kind")
    kind = "" if kind is None else _label(contents_tables(contents, room.boss)["kind"], kind, lang)
    return _title(kind, room.rect.w, room.rect.h, room.contents is None, room.boss, room.filling, lang)


@lru_cache(maxsize=4096)
def _title(kind: str, w: int, h: int, unknown: bool, boss: bool, filling: bool, lang: str) -> str:
    size = f"{w}x{h}"
    if unknown:  # the party view: its kind is the GM's to say
        return t("render.boss_unknown" if boss else "render.room_unknown", lang, size=size)
    if boss:
        return t("render.boss_title", lang, kind=kind, size=size)
    return t("render.room_title", lang, kind=kind, size=size) + (t("render.by_filling", lang) if filling else "")


def room_details(room: Room, lang: str) -> str:
    """Who and what is in the room ("" when its contents are not shown: the party view)."""
    if room.contents is None:
        return ""
    tables = contents_tables(room.contents, room.boss)
    creatures = _items(tables["creatures"], room.contents.get("creatures", []), lang)
    treasure = _items(tables["treasure"], room.contents.get("treasure", []), lang)
    parts = [creatures or _nobody(lang)]
    if treasure:
        parts.append(treasure)
    return " · ".join(parts)  # two lists, each its own capital: no sentence to punctuate in either language


@lru_cache(maxsize=16)
def _nobody(lang: str) -> str:
    return t("render.nobody", lang)


def summary(dungeon: Dungeon, lang: str) -> str:
    rooms = len(dungeon.rooms)
    if dungeon.outcome == "boss":
        state = t("render.outcome_boss", lang)
    elif dungeon.outcome == "stuck":
        state = t("render.outcome_stuck", lang)
    else:
        state = t("render.outcome_open", lang)
    seed = "" if dungeon.seed is None else t("render.seed", lang, seed=readable(dungeon.seed)) + " · "
    return f"{seed}{t('render.rooms', lang, rooms=rooms, size=dungeon.size)} · {state}"

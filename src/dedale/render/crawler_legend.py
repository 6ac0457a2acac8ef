"""Words for a crawler dungeon, shared by the text view and the pictures."""

from __future__ import annotations

from typing import Any

from dedale.core.tables import item_label
from dedale.crawler.contents import contents_tables
from dedale.crawler.model import Dungeon, Room
from dedale.i18n import t


def _items(room: Room, contents: dict[str, Any], field: str, lang: str) -> str:
    table = contents_tables(contents, room.boss)[field]
    words = []
    for item in contents.get(field, []):
        label = item_label("crawler", table, item, lang)
        words.append(label if item.get("number", 1) == 1 else f"{label} ×{item['number']}")
    return ", ".join(words)


def room_title(room: Room, lang: str) -> str:
    contents = room.contents or {}
    kind = contents.get("kind")
    kind = "" if kind is None else item_label("crawler", contents_tables(contents, room.boss)["kind"], kind, lang)
    size = f"{room.rect.w}x{room.rect.h}"
    if room.contents is None:  # a player's view: its kind is the GM's to say
        return t("render.boss_unknown" if room.boss else "render.room_unknown", lang, size=size)
    if room.boss:
        return t("render.boss_title", lang, kind=kind, size=size)
    return t("render.room_title", lang, kind=kind, size=size) + (t("render.by_filling", lang) if room.filling else "")


def room_details(room: Room, lang: str) -> str:
    """Who and what is in the room ("" when its contents are not shown: a player's view)."""
    if room.contents is None:
        return ""
    creatures = _items(room, room.contents, "creatures", lang)
    treasure = _items(room, room.contents, "treasure", lang)
    parts = [creatures or t("render.nobody", lang)]
    if treasure:
        parts.append(treasure)
    return "; ".join(parts)


def summary(dungeon: Dungeon, lang: str) -> str:
    rooms = len(dungeon.rooms)
    if dungeon.outcome == "boss":
        state = t("render.outcome_boss", lang)
    elif dungeon.outcome == "stuck":
        state = t("render.outcome_stuck", lang)
    else:
        state = t("render.outcome_open", lang)
    seed = "" if dungeon.seed is None else t("render.seed", lang, seed=dungeon.seed) + " · "
    return f"{seed}{t('render.rooms', lang, rooms=rooms, size=dungeon.size)} · {state}"

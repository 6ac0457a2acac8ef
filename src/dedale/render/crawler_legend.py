"""Words for a crawler dungeon, shared by the text view and the pictures."""

from __future__ import annotations

from typing import Any

from dedale.crawler.model import Dungeon, Room
from dedale.i18n import t


def _items(items: list[dict[str, Any]]) -> str:
    return ", ".join(item["label"] if item.get("number", 1) == 1 else f"{item['label']} ×{item['number']}"
                     for item in items)


def room_title(room: Room, lang: str) -> str:
    kind = room.contents.get("kind", {}).get("label", "")
    size = f"{room.rect.w}x{room.rect.h}"
    if room.boss:
        return t("render.boss_title", lang, kind=kind, size=size)
    return t("render.room_title", lang, kind=kind, size=size) + (t("render.by_filling", lang) if room.filling else "")


def room_details(room: Room, lang: str) -> str:
    creatures = _items(room.contents.get("creatures", []))
    treasure = _items(room.contents.get("treasure", []))
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

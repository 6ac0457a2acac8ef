"""One line of text for each log entry, in the player's language (the terminal and the web show these): a
log keeps message keys and words (`i18n.word`), never text, so the same log reads in every language."""

from __future__ import annotations

from typing import Any

from dedale.core.cards import HIDDEN_CARD, Card
from dedale.core.rng import LogEntry, Request
from dedale.i18n import catalogue, t


def describe(entry: LogEntry, lang: str = "en") -> str:
    args: dict[str, Any] = entry.get("args", {})
    if "faces" in entry:  # named dice (poker dice, the only ones): said so, their faces, no total
        dice = t("log.poker_dice", lang, count=len(entry["faces"]))
        what = t(entry["for"], lang, **args)
        return t("log.rolled", lang, what=what, roll=dice, result=" ".join(entry["faces"])) + _decided(entry, lang)
    if "roll" in entry:
        what = t(entry["for"], lang, **args)
        dice = entry["dice"]
        shown = "+".join(map(str, dice)) if len(dice) > 1 else str(dice[0])
        total = f" = {entry['total']}" if len(dice) > 1 or entry["total"] != dice[0] else ""
        return t("log.rolled", lang, what=what, roll=entry["roll"], result=shown + total) + _decided(entry, lang)
    if "choice" in entry:
        by = "" if entry.get("by", "player") == "player" else t("log.by_autopilot", lang)
        if "key" not in entry:  # saved before documents held no words: the words it kept
            return f"▶ {entry.get('label', entry['choice'])}{by}"
        return f"▶ {t(entry['key'], lang, **entry.get('args', {}))}{by}"
    if "note" in entry:
        return "· " + t(entry["note"], lang, **args)
    if "pick" in entry:
        if "{pick}" in catalogue("en").get(entry["for"], ""):  # a message that says the pick in its own words
            return t(entry["for"], lang, **args, pick=entry["pick"])
        return t("log.pick", lang, what=t(entry["for"], lang, **args), pick=entry["pick"])
    if "draw" in entry:
        return t("log.draw", lang, what=t(entry["for"], lang, **args), card=_card(entry["draw"], lang))
    if "reshuffle" in entry:
        return t("log.reshuffle", lang, cards=entry.get("cards", ""))
    return str(entry)


def _card(code: str, lang: str) -> str:
    """A card drawn as its reader names it ("Q♥", French "D♥"); one hidden from the reader stays "??"."""
    return code if code == HIDDEN_CARD else Card.parse(code).short(lang)


def _decided(entry: LogEntry, lang: str) -> str:
    decided = entry.get("decided")
    if not decided:
        return ""
    return " — " + t(decided["key"], lang, **{k: v for k, v in decided.items() if k != "key"})


def describe_request(request: Request, lang: str = "en") -> str:
    """What table mode asks for: 'Roll 3d6 for the dungeon size: die 2 of 3'."""
    what = t(request.purpose, lang, **request.args)
    if request.kind in ("die", "face"):
        which = t("log.die_of", lang, index=request.index + 1, count=request.count) if request.count > 1 else ""
        roll = t("log.poker_dice", lang, count=request.count) if request.kind == "face" else request.expr
        return t("log.ask_die", lang, roll=roll, what=what, which=which)
    if request.kind == "card":
        return t("log.ask_card", lang, what=what)
    return t("log.ask_option", lang, what=what)

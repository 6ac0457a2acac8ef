"""What a page shows of a session: its picture (with the choices one can click on it), its summary, its
log in words, and the result the table is asked for, all in the page's language (the session has none).
Presentation only: the rules are the library's."""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from dedale.core.cards import Card
from dedale.core.logtext import describe, describe_request
from dedale.core.session import SPECTATOR, Choice, Session
from dedale.i18n import say, t
from dedale.systems import system
from dedale.web import forms, legend, logview
from dedale.web.store import Record

LOG_LINES = 80


def picture(session: Session, listed: list[Choice], lang: str) -> str:
    """The session's SVG in `lang`, with what the `listed` choices point at marked on it."""
    return system(session.system).picture(session, listed, lang)


def log_lines(session: Session, lang: str, seat: int = 0) -> tuple[list[str], int]:
    """The newest lines of the log as `seat` may see it, newest first, and how many entries that log has (the
    newest line's number, as the whole log numbers it)."""
    if session.hides(seat):  # what a seat may see of an entry changes as the game goes (a card shown at the end)
        entries = session.seat_log(0, seat)  # some are left out: only the whole log says how many are left
        return [describe(entry, lang) for entry in reversed(entries[-LOG_LINES:])], len(entries)
    with _wording:
        worded = _worded.setdefault(session, {}).get(lang)
        log = session.log
        if worded is None or worded.log is not log or len(log) < worded.end:
            worded = _worded[session][lang] = _Worded(log)
        start = max(worded.end, len(log) - LOG_LINES)
        worded.lines.extend(describe(session.rules.log_entry(entry), lang) for entry in log[start:])
        worded.end = len(log)
        return list(reversed(worded.lines)), len(log)


def _log(session: Session, lang: str, seat: int = 0) -> dict[str, Any]:
    """The newest lines, numbered from how many entries the log has as `seat` may read it, and the number of
    the whole log's last page."""
    lines, total = log_lines(session, lang, seat)
    return {"log": lines, "log_total": total, "log_pages": logview.pages_of(total), "ending": ending(session, lines)}


def ending(session: Session, lines: list[str]) -> str | None:
    """How a session played on its page ended, for a banner: its log's last note ("the lawmen win", "the dungeon
    is complete"), the newest line; None while it goes on, or for a system without an autopilot."""
    if not session.is_over or not session.rules.policies or not lines:
        return None
    return lines[0].removeprefix("· ")


@dataclass
class _Worded:
    """A session's newest log lines in one language, each entry worded once. Between two steps a log only
    grows: what an action logged is final once it is done (an undo, a replay or a result entered at the table
    gives the session a new log)."""

    log: list[Any]
    end: int = 0  # the entries worded: log[:end], the last LOG_LINES of them kept
    lines: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))


_worded: WeakKeyDictionary[Session, dict[str, _Worded]] = WeakKeyDictionary()
_wording = threading.Lock()


def prompt(session: Session, lang: str) -> str | None:
    return None if session.pending is None else describe_request(session.pending, lang)


def face(session: Session, choice: Choice, lang: str) -> tuple[str, str]:
    """How a die face or a card to enter is shown: a card with its suit's symbol, hearts and diamonds red."""
    if session.pending is not None and session.pending.kind == "card":
        card = Card.parse(choice.label(lang))
        return card.short(lang), "red" if card.red else ""
    return choice.label(lang), ""


def choices(session: Session) -> list[Choice]:
    return [] if session.is_over else session.choices()


def details(session: Session, lang: str) -> list[str]:
    """What the system shows beside its picture, in lines (a key-lock diagram's analysis)."""
    found = system(session.system).details
    return [] if found is None else found(session, lang).splitlines()


def context(session: Session, session_id: str, lang: str, view: str = "gm", seat: int | None = None,
            seating: str = "solo", ready: int | None = None) -> dict[str, Any]:
    """Everything the play page's panel needs, for whoever looks: this screen's player (seat None), a seat or
    a spectator of a game played through links, the seat to act on a shared screen (once it says it is
    there: `ready`), or the party view: what the party has discovered."""
    if session.archived is not None:
        return _archived(session, session_id, lang)
    two_sided = session.two_people()
    if seating == "hot-seat" and two_sided:
        to_act = session.seat_to_act()
        if to_act is not None and ready != to_act:
            return _pass_the_device(session, session_id, lang, to_act)
        seat = to_act
    if view != "gm":
        return _in_party_view(session, session_id, lang, seat)
    if two_sided or seat == SPECTATOR:
        return _seated(session, session_id, lang, seat or 0)
    listed = choices(session)
    return {**_shown(session, session_id, lang, picture(session, listed, lang)), **_playing(session, listed, lang),
            **_log(session, lang), "seed": session.seat_seed(), "analysis": details(session, lang),
            "hint": system(session.system).hint,
            "regenerate": another(session)}


def _in_party_view(session: Session, session_id: str, lang: str, seat: int | None) -> dict[str, Any]:
    """The party view: what the party has discovered, with the choices to make on it (for a player who keeps
    the key out of sight, or a co-op game's other player, held to it), never the GM's key, log or seed; a
    spectator only watches."""
    found = system(session.system)
    listed = [] if seat == SPECTATOR else choices(session)
    seen = found.load(found.in_view(session.seat_json(seat or 0), "party"))
    shown = _shown(session, session_id, lang, found.picture(session, listed, lang, seen),
                   **({} if seat is None else {"seat": seat}))
    if seat == SPECTATOR:
        return shown
    return {**shown, **_playing(session, listed, lang), "hint": found.hint, "in_party_view": True}


def another(session: Session) -> dict[str, str] | None:
    """A finished map's form for another one like it (`/new/SYSTEM`: the same parameters, a fresh seed, made
    to its end by the autopilot, as the home page's Generate makes one); None for a game (Zombstone), whose
    end is the players' own."""
    found = system(session.system)
    if not session.is_over or (found.party_view is None and session.rules.policies):
        return None
    return {**forms.filled(session.params), "autopilot": "1"}


def _shown(session: Session, session_id: str, lang: str, svg: str, **more: Any) -> dict[str, Any]:
    """A panel with a picture and nothing to click: a party view, a seat waiting for its turn. The
    picture's legend goes apart, below the map (at its own size on a phone)."""
    drawn = legend.split(svg)
    return {**_NOTHING_TO_DO, "id": session_id, "session": session, "system": session.system, "seed": None,
            "picture": drawn.map, "legend": drawn.legend, "over": session.is_over, "made": session.made(),
            "title": t(f"web.system.{session.system}", lang), **more}


# A panel with nothing to choose and nothing yet told (`_shown`, `waiting`)
_NOTHING_TO_DO: dict[str, Any] = {"choices": [], "faces": [], "prompt": None, "question": None, "log": [],
                                  "log_total": 0, "ending": None, "pending": None, "analysis": [], "hint": None,
                                  "regenerate": None, "watching": True}


def _playing(session: Session, listed: list[Choice], lang: str) -> dict[str, Any]:
    """The choices to make now, and what they are about (nothing of it for a seat waiting for its turn: the
    question is the other's)."""
    question = session.question() if listed else None
    return {"choices": listed, "groups": grouped(listed, lang), "faces": [face(session, c, lang) for c in listed],
            "prompt": prompt(session, lang) if listed else None,
            "question": None if question is None else say(question, lang),
            "pending": session.pending if listed else None, "watching": False}


GROUP_FROM = 9  # a list this long folds its choices by group (those whose system names one)


def grouped(listed: list[Choice], lang: str) -> list[tuple[str | None, list[Choice]]]:
    """The choices as the page lists them: a long list folded into groups the system names (a choice's
    `group`, a message key taking the count: "Move: where to (14)"), each where its first choice stood; a
    choice without a group, or a short list, one by one (a heading of None)."""
    if len(listed) < GROUP_FROM:
        return [(None, [choice]) for choice in listed]
    found: list[tuple[str | None, list[Choice]]] = []
    where: dict[str, list[Choice]] = {}
    for choice in listed:
        key = choice.data.get("group")
        if not isinstance(key, str):
            found.append((None, [choice]))
        elif key in where:
            where[key].append(choice)
        else:
            where[key] = [choice]
            found.append((key, where[key]))
    if len(found) == 1:  # one group and nothing else: nothing to fold it among
        return [(None, [choice]) for choice in listed]
    # a group of one is no group: its choice one by one
    return [(t(key, lang, count=len(members)) if key is not None and len(members) > 1 else None, members)
            for key, members in found]


def _seated(session: Session, session_id: str, lang: str, seat: int) -> dict[str, Any]:
    """What one seat of a two-sided game (or a spectator) is shown: the game as the rules let it see it,
    its choices when it is its turn (else that it waits), the log it may read."""
    found = system(session.system)
    document = {**session.seat_json(seat), "player": max(seat, 0)}  # the table seen from this seat
    svg = found.export(document, ".svg", {}, lang).decode("utf-8")
    mine = not session.is_over and session.seat_to_act() == seat
    waiting = None if mine or session.is_over or seat == SPECTATOR else t("web.waiting", lang)
    return {**_shown(session, session_id, lang, svg, waiting=waiting, seat=seat, shared=True,
                     seed=session.seat_seed(seat)),
            **_playing(session, choices(session) if mine else [], lang), **_log(session, lang, seat)}


def _archived(session: Session, session_id: str, lang: str) -> dict[str, Any]:
    """A document kept as it was saved (`Session.opened`): its picture and log as saved, why it cannot be
    continued, and nothing to choose."""
    saved = session.to_json()
    svg = system(session.system).export(saved, ".svg", {}, lang).decode("utf-8")
    told = _log(session, lang)
    over = saved.get("over") is True  # as saved: an archived game is never played on, but it may not have ended
    return {**_shown(session, session_id, lang, svg, seed=session.seed, archived=say(session.archived or {}, lang),
                     shared=True, watching=False, over=over), **told, "ending": told["ending"] if over else None,
            "regenerate": another(session)}


def waiting(record: Record, seat: int | None, lang: str) -> dict[str, Any]:
    """A game for two browsers whose second seat has not joined: nothing is dealt, nothing shown but that it
    waits (its owner, seat 0, is shown the link to send)."""
    return {**_NOTHING_TO_DO, "id": record.id, "system": record.system, "seed": None, "picture": "", "legend": "",
            "over": False, "title": t(f"web.system.{record.system}", lang), "waiting_for_seat": True, "seat": seat,
            "shared": True}


def _pass_the_device(session: Session, session_id: str, lang: str, seat: int) -> dict[str, Any]:
    """Two players on one screen: between their turns, nothing of either's hand, until the one to play says
    it is there."""
    return {**_shown(session, session_id, lang, ""), "pass_to": seat}

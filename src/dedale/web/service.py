"""What the pages and the API do, once: create, step, let the autopilot play, undo, export, upload."""

from __future__ import annotations

import json
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime
from functools import wraps
from typing import Any, NoReturn, ParamSpec, TypeVar

from dedale.core.errors import DedaleError, check_lang
from dedale.core.jsontext import parse_json
from dedale.core.seeds import check_seed, fresh_seed, seed_json, seed_text
from dedale.core.session import SPECTATOR, Session
from dedale.core.views import View, check_view
from dedale.i18n import LANGUAGES, say, t, word
from dedale.systems import names, system, system_of
from dedale.web import csrf, forms
from dedale.web.seats import SEATINGS, refused_by_seed, shows_gm_to_spectators
from dedale.web.store import Record, Sessions

# The most events a session may have here: each request replays at most that many (an undo, a restarted
# server), so this bounds what one costs. A game ends well before (a hexcrawl of radius 40 explored by hand
# takes about 5,000 moves); only a player walking to and fro for hours meets it.
MAX_EVENTS = 10_000
MAX_UPLOAD = 8 * 1024 * 1024  # a hexcrawl of the largest radius here, walked, is about 5.6 MB
MAX_NAME = 200
EXPORTS = {"json": "application/json", "svg": "image/svg+xml", "png": "image/png", "pdf": "application/pdf",
           "tiles.pdf": "application/pdf", "txt": "text/plain; charset=utf-8", "dot": "text/vnd.graphviz",
           "dd2vtt": "application/json", "uvtt": "application/json", "foundry.json": "application/json",
           "foundry.zip": "application/zip"}
TABLETOPS = ("dd2vtt", "foundry.json", "foundry.zip")  # the downloads a grid and a picture format are chosen for


P = ParamSpec("P")
R = TypeVar("R")


def one_at_a_time(route: Callable[P, R]) -> Callable[P, R]:
    """A route on one session (its `request` and `session_id`) runs under the session's lock, start to end. A
    session kept in memory is one object, which a step changes in place: without the lock an answer could be
    drawn from a session half-way through another request's step (a 500, once the step was committed)."""

    @wraps(route)
    def held(*args: P.args, **kwargs: P.kwargs) -> R:
        sessions: Sessions = kwargs["request"].app.state.sessions  # type: ignore[attr-defined]
        with sessions.lock(str(kwargs["session_id"])):
            return route(*args, **kwargs)

    return held


def build(record: Record, events: list[dict[str, Any]]) -> Session:
    """A stored session, replayed; an archived document as it was saved (`Session.opened`). A game for two
    browsers whose second seat has not joined has none yet: nothing of it is dealt until then."""
    rules = system(record.system).rules
    if record.waiting:
        raise DedaleError("error.not_seated")
    if record.document is not None:
        return Session.opened(rules, json.loads(record.document))
    return Session.replay(rules, rules.params_from_json(record.params), record.seed, events, record.table_dice,
                          record.secret)


def seed_of(value: Any) -> int:
    """A form's or a body's seed: a fresh long seed when left empty (`core.seeds`: 130 random bits, which
    nobody at the table can search), else the seed given, as text or a number."""
    return check_seed(value) if chosen(value) else fresh_seed()


def chosen(value: Any) -> bool:
    """Whether a form or a body gives a seed (a typed seed: whoever knows it can remake everything)."""
    return not (value is None or (isinstance(value, str) and not value.strip()))


# What a name may not hold: control characters (C0, DEL, C1), which a page, a file name or a terminal may act
# on, and the marks that turn the direction of the text after them (embeddings, overrides, isolates, the
# left-to-right, right-to-left and Arabic letter marks), with which a name shown in a list reads as another.
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def check_name(name: Any) -> str:
    """A session's name: text of 1 to 200 characters (spaces around it dropped), none of them a control
    character nor a mark that turns the text's direction."""
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
        raise DedaleError("error.name", high=MAX_NAME)
    name = name.strip()
    if (found := _UNPRINTABLE.search(name)) is not None:
        raise DedaleError("error.name_character", value=f"U+{ord(found.group()):04X}", at=found.start() + 1)
    return name


def default_name(system_name: str, lang: str, day: date | None = None) -> str:
    """A session's name when the player gives none: its system and the day it was made, in the language of
    the page that made it ("Crawler dungeon · 28 Nov 2026"), as a player would name it; never its seed (a name
    is shown everywhere, and kept)."""
    return _default_name(system_name, lang, day or datetime.now(UTC).date())


def _default_name(system_name: str, lang: str, day: date) -> str:
    return t("web.default_name", lang, system=t(f"web.system.{system_name}", lang), day=day.day,
             month=t("web.months", lang).split()[day.month - 1], year=day.year)


def given_name(record: Record) -> str:
    """The name its player gave a session, "" when it has the default one (in any language): another one
    made like it takes the name given, or a default name of its own day."""
    day = datetime.fromtimestamp(record.created, UTC).date()
    return "" if any(record.name == _default_name(record.system, lang, day) for lang in LANGUAGES) else record.name


def create(sessions: Sessions, system_name: str, values: dict[str, Any], seed: Any, table_dice: bool,
           lang: str, name: str = "", autopilot: bool = False, strict: bool = False,
           seating: str = "solo", owners: Sequence[str] = ()) -> str:
    """A new session from a form's or a body's values (`strict`: a value the system has no field for is
    refused, as the API does; a page's form also carries its seed, name and token), owned by the `owners`
    secrets (`seats.py`). The language only names it when no name is given: the session itself has none. A
    game of two sides on one screen or two browsers is played by two people; one for two browsers waits for
    its second seat before anything is dealt (`Record.waiting`), and needs a seed nobody knows and dice the
    server rolls (a seat would otherwise know, or enter, the other's cards)."""
    if system_name not in names():
        raise DedaleError("error.system", value=system_name, accepted=", ".join(names()))
    if seating not in SEATINGS:
        raise DedaleError("error.one_of", param="seating", value=seating, accepted=", ".join(SEATINGS))
    if seating != "solo" and forms.two_sided(system_name):
        values = {**values, "opponent": "human"}
    elif seating == "hot-seat":
        raise DedaleError("error.seat1_solo")
    params = forms.params_for(system_name, values, strict)
    typed = chosen(seed)
    name = check_name(name) if name.strip() else default_name(system_name, check_lang(lang))
    if seating == "linked" and forms.two_sided(system_name):
        if typed:
            raise DedaleError("error.linked_typed_seed")
        if table_dice:
            raise DedaleError("error.linked_table_dice")
        return sessions.store.create(system_name, seed_of(seed), params.to_json(), table_dice, name, hides=True,
                                     seating=seating, owners=owners, waiting=True)
    session = Session(system(system_name).rules, params, seed_of(seed), table_dice)
    if autopilot:
        session.run_autopilot(max_steps=MAX_EVENTS)
    return sessions.add(session, name, seating, owners, typed)


def roles(session: Session | None, record: Record, owner: bool) -> list[tuple[str, str | None]]:
    """The links this page may make, each with why it cannot be made (a message key), or None: only the
    owner's; a second player's of a two-sided game only once two people play it (`session` None: one waiting
    for that player); none but the owner's own on one screen. A link that would keep something from whoever
    opens it is offered only where the seed keeps secrets (`seats.refused_by_seed`), else shown with why not."""
    if not owner:
        return []
    if record.seating == "hot-seat":
        return [("owner", None)]
    if session is None:
        return [("seat1", None), ("owner", None)]
    gm = ["spectator_gm"] if shows_gm_to_spectators(session) else []  # the sharer chooses
    made = ["seat1" if session.two_people() else "player", "spectator", *gm, "owner"]
    return [(role, refused_by_seed(session, record, role)) for role in made]


def permalink_values(system_name: str, seed: str, params: str) -> tuple[Any, int]:
    """A permalink's parameters (given as its documents give them, in JSON) and seed, checked against the
    web's limits before anything is made."""
    if system_name not in names():
        raise DedaleError("error.system", value=system_name, accepted=", ".join(names()))
    parsed = system(system_name).rules.params_from_json(parse_json(params, "params"))
    parsed.check_web()
    return parsed, check_seed(seed)


def create_from_params(sessions: Sessions, system_name: str, params: Any, seed: int, lang: str,
                       owners: Sequence[str] = ()) -> str:
    """A permalink's result, made by the autopilot (its seed is known to whoever has the link: chosen)."""
    session = Session(system(system_name).rules, params, seed, False)
    session.run_autopilot(max_steps=MAX_EVENTS)
    return sessions.add(session, default_name(system_name, check_lang(lang)), owners=owners, chosen=True)


def _room_for_one_more(session: Session) -> None:
    if len(session.events) >= MAX_EVENTS and not session.is_over:
        raise DedaleError("error.too_many_events", high=MAX_EVENTS)


def step(sessions: Sessions, session_id: str, choice: str, seat: int | None = None) -> Session:
    """A choice, made by `seat` (None: by this screen's player, whoever's turn it is)."""
    with sessions.changing(session_id) as session:
        _room_for_one_more(session)
        session.step(choice, seat=seat)
    return session


def autopilot(sessions: Sessions, session_id: str, to_end: bool, seat: int | None = None) -> Session:
    with sessions.changing(session_id) as session:
        _shared_alike(session, seat)
        if session.pending is not None:
            raise DedaleError("error.autopilot_pending")
        if session.is_over:
            raise DedaleError("error.session_over")
        _room_for_one_more(session)
        if to_end:
            session.run_autopilot(max_steps=MAX_EVENTS - len(session.events))
        else:
            session.auto_step()
    return session


def _shared_alike(session: Session, seat: int | None) -> None:
    """In a game two people play through links, neither undoes nor hands over the other's turns: the
    autopilot and undo are for games whose players share one side."""
    if seat is not None and session.two_people():
        raise DedaleError("error.two_sided")


def undo(sessions: Sessions, session_id: str, seat: int | None = None) -> Session:
    with sessions.changing(session_id) as session:
        _shared_alike(session, seat)
        session.undo()
    return session


def export(session: Session, fmt: str, options: dict[str, Any] | None = None, lang: str = "en",
           view: str = "gm", seat: int | None = None) -> tuple[bytes, str]:
    """The result as the player may see it now (`Session.seat_json`), as `view` sees it (the GM's, or the
    party view: what the party has discovered), in a format it downloads in (a picture's words in `lang`).
    (A seat held to a view, `seats.held_view`, asks for that one.)"""
    found = system(session.system)
    ext = "." + fmt
    if fmt not in EXPORTS or ext not in found.extensions:
        raise DedaleError("error.web_format", value=fmt, accepted=" ".join(formats_of(session)))
    return found.export(session.seat_json(seat or 0), ext, options, lang, view), EXPORTS[fmt]


def tabletop(session: Session, name: str, view: str = "gm", seat: int | None = None, grid_px: Any = None,
             image: Any = None) -> dict[str, Any]:
    """A virtual tabletop download's options: the scene named as the session, the grid and the picture's
    format asked for (checked by the renderer: a clear 400), the scene's file name in a zip."""
    chosen = {key: value for key, value in (("grid_px", grid_px), ("image", image)) if value not in (None, "")}
    return {**chosen, "name": name, "file": download_name(session, name, "foundry.json", view, seat)}


def download_name(session: Session, name: str, fmt: str, view: str = "gm", seat: int | None = None,
                  part: str = "") -> str:
    """`NAME-SEED-VIEW.EXT`: the session's name made safe for every file system, its seed unless the view
    hides it, whose view it is (`gm`, `party`, or, while the rules hide something, `seat-2` or `table`: what
    neither seat could keep secret, a spectator's or a screen two people share) and a `part` of the session
    (its log): "the-long-stair-4-gm.png"."""
    shown = session.seat_seed(seat or 0) if view == "gm" else None
    hidden = "table" if seat == SPECTATOR else f"seat-{(seat or 0) + 1}"
    whose = "party" if view != "gm" else hidden if session.hides(seat or 0) else "gm"
    parts = [safe_file_name(name) or session.system, *([] if shown is None else [seed_text(shown)]), whose,
             *([part] if part else [])]
    return "-".join(parts) + "." + fmt


def safe_file_name(name: str, most: int = 60) -> str:
    """A name as a file may be called on any system: ASCII letters and digits, the rest a dash ("Crawler
    dungeon · 28 Nov 2026" -> "crawler-dungeon-28-nov-2026"; "Dédale" -> "dedale"), at most `most` long."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:most].rstrip("-")


def has_party_view(session: Session) -> bool:
    return system(session.system).party_view is not None


def view_of(session: Session, view: str) -> View:
    """The view a page asks for ("player", the party view's former name, from old links too)."""
    return check_view(view, session.system, has_party_view(session))


def upload(sessions: Sessions, raw: bytes, lang: str = "en", owners: Sequence[str] = ()) -> str:
    """A file to continue: at most 8 MiB of JSON (see `upload_document`); a picture, a PDF or a text view is
    refused by its name."""
    check_upload_size(len(raw))
    head = raw[:64].lstrip()
    for magic, kind in _NOT_GAMES:
        if head.startswith(magic):
            _refuse(kind)
    try:
        document = parse_json(raw, "upload")
    except DedaleError as error:
        if error.key == "error.json" and not head.startswith((b"{", b"[")):
            _refuse("text")  # not JSON at all: the text view of a result, or any other file
        raise
    return upload_document(sessions, document, lang, owners)


# What a file begins with when it is one of the downloads that cannot be continued
_NOT_GAMES = ((b"\x89PNG", "png"), (b"%PDF", "pdf"), (b"<svg", "svg"), (b"<?xml", "svg"), (b"digraph", "dot"))


def _refuse(kind: str) -> NoReturn:
    raise DedaleError("error.upload_not_game", what=word(f"error.upload_what_{kind}"))


def check_upload_size(size: int) -> None:
    if size > MAX_UPLOAD:
        raise DedaleError("error.upload_size", high=MAX_UPLOAD // 1024)


def upload_document(sessions: Sessions, document: Any, lang: str = "en", owners: Sequence[str] = ()) -> str:
    """A document to continue: its parameters, name and number of events checked against the web's limits
    before anything is replayed, then replayed from its events, and kept as a new session (`owners`' own).
    Its seed is known to whoever has the file (chosen: the game keeps no secret from them). One saved by an
    earlier version that today's rules no longer play the same way is kept as saved (archived), to show and
    export."""
    if isinstance(document, dict) and not isinstance(document.get("format"), str):  # not one of ours: which?
        if {"resolution", "line_of_sight"} <= document.keys():
            _refuse("vtt")  # a Universal VTT file (its "format" is a number)
        if {"walls", "grid"} <= document.keys():
            _refuse("foundry")
    found = system_of(document)
    Session.check_document(found.rules, document).check_web()
    if len(document["events"]) > MAX_EVENTS:
        raise DedaleError("error.too_many_events", high=MAX_EVENTS)
    name = None if document.get("name") is None else check_name(document["name"])
    session = Session.opened(found.rules, document)
    if session.archived is not None:
        found.load(document)  # drawn as saved: a document its renderers cannot read is refused now
    return sessions.add(session, name or default_name(found.name, lang), owners=owners, chosen=True)


def state(session: Session, session_id: str, record_name: str | None = None, lang: str = "en",
          seat: int | None = None, held: str | None = None) -> dict[str, Any]:
    """What the API says of a session to `seat` (None: this machine's player), held to the view `held` (a
    map's party view: never its seed): the choices are its own only on its turn (their labels in `lang`); an
    archived document says why it cannot be continued."""
    pending = session.pending
    mine = seat is None or session.seat_to_act() == seat
    seed = None if held is not None else session.seat_seed(seat or 0)
    return {"id": session_id, "system": session.system, "name": record_name,
            "seed": None if seed is None else seed_json(seed), "seat": seat, "to_act": session.seat_to_act(),
            "over": session.is_over, "steps": session.made(),
            "pending": None if pending is None else {"kind": pending.kind, "for": pending.purpose,
                                                     "roll": pending.expr, "options": list(pending.options)},
            "choices": [] if session.is_over or not mine else [
                {"id": c.id, "label": c.label(lang), "data": c.data} for c in session.choices()],
            **({} if session.archived is None else {"archived": say(session.archived, lang)})}


def waiting_state(record: Record, seat: int | None) -> dict[str, Any]:
    """What the API says of a game for two browsers waiting for its second seat: nothing dealt, nothing to do."""
    return {"id": record.id, "system": record.system, "name": record.name, "seed": None, "seat": seat,
            "to_act": None, "over": False, "steps": 0, "pending": None, "choices": [], "waiting": True}


def listed_seed(record: Record, mine: bool) -> int | str | None:
    """A saved session's seed as a list shows it to everyone on the server: only where it hides nothing from
    anyone who may read the list (not while its rules hide something, and of a game played through links,
    only to its owner)."""
    if record.hides or record.waiting or (record.seating == "linked" and not mine):
        return None
    return seed_json(record.seed)


def formats_of(session: Session) -> list[str]:
    """The formats a session's result downloads in."""
    return [ext[1:] for ext in system(session.system).extensions]


def downloads(session: Session, lang: str) -> list[tuple[str, str]]:
    """The formats a page offers, each with its name in words ("Universal VTT (.dd2vtt)"): .uvtt, the same file
    as .dd2vtt, is offered once."""
    offered = [fmt for fmt in formats_of(session) if fmt != "uvtt"]
    key = {"tiles.pdf": "pdf_tiles", "foundry.json": "foundry", "foundry.zip": "foundry_zip"}
    return [(fmt, t(f"web.download_{key.get(fmt, fmt)}", lang)) for fmt in offered]


MAX_WATCHERS = 32  # pages following games live at once, in the whole server: each holds a connection
# ... and at most this many of them for one client: a browser (told apart by its cookie, as every client of
# this machine comes from 127.0.0.1), or an address. A player's pages follow a game or two, a second screen.
WATCHER_SHARE = MAX_WATCHERS // 4
LIVE_SECONDS = 600  # then the browser reconnects (EventSource does it by itself)


class Places:
    """At most `most` of something at once in the whole server (the app's one instance, in `app.state`), at
    most `share` of them for one client: a place is checked for and taken in one step, so that a burst of
    requests cannot all see room left before any of them takes it (37 of 32 did). A client holding none is
    not kept."""

    def __init__(self, most: int, share: int) -> None:
        self.most, self.share, self.taken = most, share, 0
        self.held: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, client: str) -> bool:
        with self._lock:
            if self.taken >= self.most or self.held[client] >= self.share:
                return False
            self.taken += 1
            self.held[client] += 1
            return True

    def give_back(self, client: str) -> None:
        with self._lock:
            self.taken -= 1
            self.held[client] -= 1
            if not self.held[client]:
                del self.held[client]


def watcher(request: Any) -> str:
    """Who a page following a game live is, for its share of the places: its browser (the cookie the app's
    pages give it), else its address. A program may send cookies of its own making, or use many addresses:
    it can still take every place, and pages refused one keep up by asking (`static/app.js`)."""
    found = csrf.browser(request)
    if found is not None:
        return f"browser {found}"
    return f"address {request.client.host if request.client else ''}"


async def live(request: Any, sessions: Sessions, session_id: str) -> Any:
    """Server-sent events for a page following a game: `change` (with the number of events) when it changes,
    within 0.1 s; a comment now and then keeps the connection open. The page holds one of `MAX_WATCHERS`
    places (one of its client's `WATCHER_SHARE`) from this call until its answer ends, however it ends (the
    stream run out, the client gone, or never begun)."""
    import asyncio

    from starlette.concurrency import run_in_threadpool
    from starlette.responses import StreamingResponse

    places: Places = request.app.state.watchers
    client = watcher(request)
    if not places.take(client):
        raise DedaleError("error.too_many_watchers")

    class Holding(StreamingResponse):
        async def __call__(self, *args: Any) -> None:
            try:
                await super().__call__(*args)
            finally:
                places.give_back(client)

    try:
        seen = await run_in_threadpool(sessions.store.version, session_id)  # the file read off the event loop
    except BaseException:
        places.give_back(client)
        raise

    async def changes() -> Any:
        nonlocal seen
        yield "retry: 1000\n\n"
        for tick in range(LIVE_SECONDS * 10):
            if await request.is_disconnected():
                break
            await asyncio.sleep(0.1)
            try:
                now = await run_in_threadpool(sessions.store.version, session_id)
            except DedaleError:  # deleted by its owner: the stream ends (the page's next try is a 404)
                break
            if now != seen:
                seen = now
                yield f"event: change\ndata: {now.revision}\n\n"
            elif tick % 150 == 0:
                yield ": waiting\n\n"

    return Holding(changes(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

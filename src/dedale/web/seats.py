"""Who may see, play and administer a session.

A session is played by one person (`solo`), by two on one screen (`hot-seat`), or through links (`linked`): each
link carries a token (at least 128 random bits, kept only hashed) that opens one seat, 0 or 1, or a spectator's
view (-1), which sees and never chooses; a co-op game's "player" link opens seat 0 beside its owner, held to the
party view of a map (`CO_PLAYER`: the owner is the one who sees the GM's key). The server
checks the token on every request of a linked session, pages, API, live updates and downloads alike; what a seat
is shown is what the rules let that seat know (`Session.seat_json(seat)`), never more.

Every session has an owner, whoever made it: the owner alone renames it, deletes it and makes its links, and in
a linked game is seat 0's player. The server knows the owner by secrets of 128 random bits or more, kept only
hashed: the id of the browser that made the game (its `dedale_browser` cookie, `csrf.py`: one cookie for all
its games, where a cookie a game would go with every request, and a browser keeps only so many), and owner
tokens, given once: in the API's answer to
the request that made the game, or as an owner link the owner makes on its play page (opening it makes that
browser an owner too). A solo or hot-seat game is still played by whoever reaches the server, as before:
pages of other sites can change nothing (`guard.py`, `csrf.py`), and a game to keep from the others on the
network is played through links. A session saved before sessions had owners is administered from the server's
machine alone (a request from a loopback address), until someone there makes it a link: that browser, or the
owner token made, then owns it. (A linked one is owned by its first seat-0 token: `store.OLD_OWNERS`.)

A page's browser keeps a seat link's token in a cookie for that session alone (set when the link is opened); an
API client sends its seat or owner token as the `X-Seat-Token` header."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import overload

from fastapi import Request, Response

from dedale.core.errors import DedaleError
from dedale.core.session import Session
from dedale.systems import system
from dedale.web import csrf
from dedale.web.store import Record, Sessions, new_token

SEATINGS = ("solo", "hot-seat", "linked")
SPECTATOR = -1
# A spectator its sharer let see the GM's view of a map (the key, the log); a spectator sees the party view
# otherwise. Never of a game with secrets: the rules see it as any spectator.
GM_SPECTATOR = -2
# Another player of a co-op game: seat 0 to the rules (it chooses as the owner does), but of a map with a party
# view it sees that view alone, as a spectator does (the owner, who made the game, is its GM). Seat 0 itself
# would show it the key, the log and the document with its secret.
CO_PLAYER = -3
HEADER = "X-Seat-Token"
ROLES = {"seat1": 1, "player": CO_PLAYER, "spectator": SPECTATOR, "spectator_gm": GM_SPECTATOR}  # the seat a link opens
LINKS = (*ROLES, "owner")  # and the owner's own link, for another browser
MAX_TOKEN = 100  # longer is no token of ours: not even hashed


def cookie_name(session_id: str) -> str:
    return f"dedale_seat_{session_id}"


def _held(request: Request, session_id: str) -> list[str]:
    """The secrets a request holds for a session: a token sent by a program, a seat link's cookie, its
    browser's id."""
    found = (request.headers.get(HEADER), request.cookies.get(cookie_name(session_id)), csrf.browser(request))
    return [secret for secret in found if secret and len(secret) <= MAX_TOKEN]


def local(request: Request) -> bool:
    """Whether the request comes from the server's own machine (127.0.0.1 reaching a server on "::" is
    ::ffff:127.0.0.1)."""
    try:
        address = ipaddress.ip_address(request.client.host) if request.client else None
    except ValueError:
        return False
    return address is not None and (getattr(address, "ipv4_mapped", None) or address).is_loopback


def is_owner(request: Request, sessions: Sessions, session_id: str) -> bool:
    """Whether the request speaks for the session's owner (for a session saved before owners: whether it
    comes from this machine)."""
    owned = sessions.store.owns(session_id, _held(request, session_id))
    return local(request) if owned is None else owned


def administered(request: Request, sessions: Sessions, session_ids: Iterable[str]) -> set[str]:
    """Those of the sessions this browser may rename and delete (as `is_owner` says, for a whole list at once)."""
    held = [v for k, v in request.cookies.items() if k.startswith(cookie_name("")) and len(v) <= MAX_TOKEN]
    browser = csrf.browser(request)
    owned = sessions.store.owned(held if browser is None else [*held, browser])
    here = local(request)
    return {session_id for session_id in session_ids if owned.get(session_id, here)}


def check_owner(request: Request, sessions: Sessions, session_id: str) -> None:
    """Renaming, deleting and sharing a session are its owner's (403)."""
    if not is_owner(request, sessions, session_id):
        raise DedaleError("error.owner")


def seat_of(request: Request, sessions: Sessions, session_id: str, seating: str | None = None) -> int | None:
    """The seat this request speaks for: None for a session of this screen (solo or hot-seat, open to the
    machine as before), else the seat its link's token opens, or seat 0 for the owner; no token, or a wrong
    one, is a 403. (`seating`: the session's, when the caller has read it already.)"""
    if (seating or sessions.store.seating(session_id)) != "linked":
        return None
    token = request.headers.get(HEADER) or request.cookies.get(cookie_name(session_id))
    seat = None if not token or len(token) > MAX_TOKEN else sessions.store.seat_of(session_id, token)
    if seat is None and sessions.store.owns(session_id, _held(request, session_id)):
        seat = 0
    if seat is None:
        raise DedaleError("error.seat_token")
    return seat


def reader(request: Request, sessions: Sessions, session_id: str) -> tuple[Session, int, str | None, Record]:
    """The session, the seat whose view this request may read (its log, a download), the view it is held to
    (`held_view`) and the session's record (its name): a linked seat's, a spectator's on a screen two people
    share (the device may be passed at any moment: neither's secrets), or the one player's."""
    record = sessions.store.record(session_id)
    seat = seat_of(request, sessions, session_id, record.seating)
    session = sessions.get(session_id)
    if seat is None:
        seat = SPECTATOR if record.seating == "hot-seat" and session.two_people() else 0
    return session, rules_seat(seat), held_view(session, seat), record


@overload
def rules_seat(seat: int) -> int: ...
@overload
def rules_seat(seat: None) -> None: ...
def rules_seat(seat: int | None) -> int | None:
    """The seat as the rules see it (a spectator shown the GM's view of a map is a spectator to them; a co-op
    game's other player is seat 0; None, this screen's player, stays None)."""
    return None if seat is None else {GM_SPECTATOR: SPECTATOR, CO_PLAYER: 0}.get(seat, seat)


def held_view(session: Session, seat: int | None) -> str | None:
    """The view a seat is held to, whatever it asks: a spectator or a co-op game's other player of a map with a
    party view sees that view (no GM's key, no log), unless its link shows it the GM's."""
    held = seat in (SPECTATOR, CO_PLAYER) and system(session.system).party_view is not None
    return "party" if held else None


def may_play(request: Request, sessions: Sessions, session_id: str, seating: str | None = None) -> int | None:
    """The seat of a request that changes the session (`rules_seat` says whose it is to the rules): a
    spectator's is refused (403)."""
    seat = seat_of(request, sessions, session_id, seating)
    if seat in (SPECTATOR, GM_SPECTATOR):
        raise DedaleError("error.spectator")
    return seat


def share(request: Request, sessions: Sessions, session_id: str, role: str) -> str:
    """A new link's token, made by the owner: for the other seat, another player of a co-op game, a spectator
    (a solo session becomes linked), or the owner in another browser."""
    if role not in LINKS:
        raise DedaleError("error.one_of", param="role", value=role, accepted=", ".join(LINKS))
    store = sessions.store
    owned = store.owns(session_id, _held(request, session_id))
    if not (local(request) if owned is None else owned):
        raise DedaleError("error.owner")
    seating = store.seating(session_id)
    if role != "owner":
        session = sessions.get(session_id)
        if seating == "hot-seat":
            raise DedaleError("error.hot_seat_share")
        if role == "seat1" and not session.two_people():
            raise DedaleError("error.seat1_solo")
        if role == "spectator_gm" and not shows_gm_to_spectators(session):
            raise DedaleError("error.spectator_gm")
        if keeps_secrets(session) and session.secret is None:
            raise DedaleError("error.share_unkeyed")
    browser = csrf.browser(request)
    if owned is None:  # saved before owners: its first link gives it one, this browser or the owner token
        if browser is None and role != "owner":
            raise DedaleError("error.owner_first")
        if browser is not None:
            store.add_owner(session_id, browser)
    if role == "owner":
        token = new_token()
        store.add_owner(session_id, token)
        return token
    if seating != "linked":
        store.set_seating(session_id, "linked")
    return store.add_seat(session_id, ROLES[role])


def open_link(request: Request, sessions: Sessions, session_id: str, token: str, response: Response) -> None:
    """What a link's token does to the browser that opens it: an owner's makes it an owner too; a seat's is
    kept in a cookie for that session's pages, unless the browser is the owner's (it keeps seat 0 and the
    rights that go with it, whatever link of its own game it opens)."""
    store = sessions.store
    if len(token) > MAX_TOKEN:
        raise DedaleError("error.seat_token")
    if store.owns(session_id, [token]):
        store.add_owner(session_id, csrf.identify(request, response))
    elif store.seat_of(session_id, token) is None:
        raise DedaleError("error.seat_token")
    elif not store.owns(session_id, _held(request, session_id)):
        remember(response, session_id, token)


def creator(request: Request) -> tuple[list[str], str]:
    """The secrets that will own a session an API request makes: a new owner token (which the answer gives, once)
    and the request's browser, if it comes from one."""
    token = new_token()
    browser = csrf.browser(request)
    return [token] if browser is None else [token, browser], token


def shows_gm_to_spectators(session: Session) -> bool:
    """Whether a spectator may be shown the GM's view (`GM_SPECTATOR`): of a map alone, whose key is the only
    thing it keeps; a game with secrets shows a spectator neither side's."""
    return system(session.system).party_view is not None and not session.has_secrets()


def keeps_secrets(session: Session) -> bool:
    """Whether the game keeps something from someone who plays or watches it: a seat's secrets, or the GM's key
    of a map with a party view (table mode keeps nothing: the table rolls and draws)."""
    return not session.table and (session.has_secrets() or system(session.system).party_view is not None)


def remember(response: Response, session_id: str, token: str) -> None:
    """Keep a seat's token in this browser, for this session's pages only. Lax, not strict: a link opened from
    a chat on another site is a navigation from that site, and a strict cookie would not follow its redirect
    to the game (a change still needs this site's form token and origin, `csrf.py` and `guard.py`)."""
    response.set_cookie(cookie_name(session_id), token, max_age=30 * 24 * 3600, httponly=True, samesite="lax")

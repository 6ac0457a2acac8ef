"""Who may see and play a session. A session is played by one person (`solo`), by two on one screen
(`hot-seat`), or through links (`linked`): each link carries a token (at least 128 random bits, kept only
hashed) that opens one seat, 0 or 1, or a spectator's view (-1), which sees and never chooses. The server
checks the token on every request of a linked session, pages, API, live updates and downloads alike; what a
seat is shown is what the rules let that seat know (`Session.player_json(seat)`), never more.

A page's browser keeps its token in a cookie for that session alone (set when the link is opened); an API
client sends it as the `X-Seat-Token` header."""

from __future__ import annotations

from fastapi import Request, Response

from dedale.core.errors import DedaleError
from dedale.core.session import Session
from dedale.core.store import Sessions
from dedale.systems import system

SEATINGS = ("solo", "hot-seat", "linked")
SPECTATOR = -1
HEADER = "X-Seat-Token"
ROLES = {"seat1": 1, "player": 0, "spectator": SPECTATOR}  # what a new link opens


def cookie_name(session_id: str) -> str:
    return f"dedale_seat_{session_id}"


def seat_of(request: Request, sessions: Sessions, session_id: str, seating: str | None = None) -> int | None:
    """The seat this request speaks for: None for a session of this screen (solo or hot-seat, open to the
    machine as before), else the seat its token opens; no token, or a wrong one, is a 403. (`seating`: the
    session's, when the caller has read it already.)"""
    if (seating or sessions.store.seating(session_id)) != "linked":
        return None
    token = request.headers.get(HEADER) or request.cookies.get(cookie_name(session_id))
    seat = None if not token or len(token) > 100 else sessions.store.seat_of(session_id, token)
    if seat is None:
        raise DedaleError("error.seat_token")
    return seat


def reader(request: Request, sessions: Sessions, session_id: str) -> tuple[Session, int]:
    """The session and the seat whose view this request may read (its log, a download): a linked seat's, a
    spectator's on a screen two people share (the device may be passed at any moment: neither's secrets), or
    the one player's."""
    seating = sessions.store.seating(session_id)
    seat = seat_of(request, sessions, session_id, seating)
    session = sessions.get(session_id)
    if seat is None:
        seat = SPECTATOR if seating == "hot-seat" and session.two_people() else 0
    return session, seat


def may_play(request: Request, sessions: Sessions, session_id: str, seating: str | None = None) -> int | None:
    """The seat of a request that changes the session: a spectator's is refused (403)."""
    seat = seat_of(request, sessions, session_id, seating)
    if seat == SPECTATOR:
        raise DedaleError("error.spectator")
    return seat


def share(request: Request, sessions: Sessions, session_id: str, role: str, response: Response) -> str:
    """A new link's token for `role` (the other seat, another player of a co-op game, or a spectator). A solo
    session becomes linked: its first sharer gets seat 0's token, in a cookie, so as not to be shut out."""
    if role not in ROLES:
        raise DedaleError("error.one_of", param="role", value=role, accepted=", ".join(ROLES))
    seating = sessions.store.seating(session_id)
    if seating == "hot-seat":
        raise DedaleError("error.hot_seat_share")
    session = sessions.get(session_id)
    if role == "seat1" and not session.two_people():
        raise DedaleError("error.seat1_solo")
    if keeps_secrets(session) and session.secret is None:
        raise DedaleError("error.share_unkeyed")
    if seating == "linked":
        if may_play(request, sessions, session_id) != 0:
            raise DedaleError("error.share_seat")
    else:
        sessions.store.set_seating(session_id, "linked")
        remember(response, session_id, sessions.store.add_seat(session_id, 0))
    return sessions.store.add_seat(session_id, ROLES[role])


def keeps_secrets(session: Session) -> bool:
    """Whether the game keeps something from someone who plays or watches it: a seat's secrets, or the GM's key
    of a map with a players' view (table mode keeps nothing: the table rolls and draws)."""
    return not session.table and (session.has_secrets() or system(session.system).discovered is not None)


def remember(response: Response, session_id: str, token: str) -> None:
    """Keep a seat's token in this browser, for this session's pages only. Lax, not strict: a link opened from
    a chat on another site is a navigation from that site, and a strict cookie would not follow its redirect
    to the game (a change still needs this site's form token and origin, `csrf.py` and `guard.py`)."""
    response.set_cookie(cookie_name(session_id), token, max_age=30 * 24 * 3600, httponly=True, samesite="lax")

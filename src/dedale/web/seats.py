"""Who may see, play and administer a session.

A session is played by one person (`solo`), by two on one screen (`hot-seat`), or through links (`linked`): each
link carries a token (at least 128 random bits, kept only hashed) that opens one seat, 0 or 1, or a spectator's
view (-1), which sees and never chooses; a co-op game's "player" link opens seat 0 beside its owner, held to the
party view of a map (`CO_PLAYER`: the owner is the one who sees the GM's key). The server checks the token on
every request of a linked session, pages, API, live updates and downloads alike; what a seat is shown is what
the rules let that seat know (`Session.seat_json(seat)`), never more.

Every session has an owner, whoever made it: the owner alone renames it, deletes it and makes its links, and in
a linked game is seat 0's player. What makes anyone an owner or a seat is a secret the server minted for that
game and gave that person, never a value a client chose:

- a program holds the owner's token the API's answer gave it (`owner_token`), or a link's, and sends it as the
  `X-Seat-Token` header;
- a browser holds a *ring*: a secret of 128 random bits the server minted, kept in a cookie whose name carries
  it (`dedale_ring_<secret>`: its value says nothing). Whenever the browser gains a game (it makes one, or opens
  a link), the server mints it a new ring, moves to it whatever its rings held, and forgets those. A page
  elsewhere (another site, or another port of this host, whose cookies a browser shares) may plant cookies of
  any name, and never learns a ring: planting one of its own gives this browser only the planter's games, and
  makes the planter the owner of nothing (its ring is moved away at this browser's next new game); it cannot
  replace this browser's ring, whose name it does not know, so it locks nobody out. Before rings, a browser's
  `dedale_browser` id owned its games: such a browser's games move to a ring at its first page.

A solo or hot-seat game is still played by whoever reaches the server, as before: pages of other sites can
change nothing (`guard.py`, `csrf.py`), and a game to keep from the others on the network is played through
links. A session saved before sessions had owners is administered from the server's machine alone (a request
from a loopback address), until someone there makes it a link: that browser, or the owner token made, then owns
it. (A linked one is owned by its first seat-0 token: `store.OLD_OWNERS`.)

A game for two browsers is dealt only once its second seat has joined (`Record.waiting`: its owner sees only the
link to send); one that keeps something from a seat is shared only if its seed keeps secrets: a seed the player
typed, or a file's, remakes everything for whoever knows it (`refused_by_seed`)."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from typing import overload

from fastapi import Request, Response

from dedale.core.errors import DedaleError
from dedale.core.seeds import is_long
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
# would show it the key, the log and the document with its seed.
CO_PLAYER = -3
HEADER = "X-Seat-Token"
ROLES = {"seat1": 1, "player": CO_PLAYER, "spectator": SPECTATOR, "spectator_gm": GM_SPECTATOR}  # the seat a link opens
LINKS = (*ROLES, "owner")  # and the owner's own link, for another browser
MAX_TOKEN = 100  # longer is no token of ours: not even hashed
RING = "dedale_ring_"  # a ring's cookie: its name carries the ring
_RING = re.compile(r"[A-Za-z0-9_-]{22,64}")
MOST_RINGS = 8  # a browser has one; a few more, planted by a page elsewhere, are read and then moved
SEAT_ORDER = (1, CO_PLAYER, GM_SPECTATOR, SPECTATOR)  # which seat a ring opens when it holds several


def cookie_name(session_id: str) -> str:
    """A seat link's cookie of before rings (still read: it held a link opened then)."""
    return f"dedale_seat_{session_id}"


def rings(request: Request) -> list[str]:
    """The rings this browser holds (`RING` cookies of a well-formed name), a few at most."""
    found = [name.removeprefix(RING) for name in request.cookies if name.startswith(RING)]
    return [ring for ring in found if _RING.fullmatch(ring)][:MOST_RINGS]


def _held(request: Request, session_id: str) -> list[str]:
    """The secrets a request holds for a session: a token sent by a program, a seat link's cookie of before
    rings, its browser's rings."""
    found = (request.headers.get(HEADER), request.cookies.get(cookie_name(session_id)), *rings(request))
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
    owned = sessions.store.owned([*held, *rings(request)])
    here = local(request)
    return {session_id for session_id in session_ids if owned.get(session_id, here)}


def joined(request: Request, sessions: Sessions) -> set[str]:
    """The sessions where this browser holds a seat (a link it opened)."""
    old = {k.removeprefix(cookie_name("")) for k in request.cookies if k.startswith(cookie_name(""))}
    return sessions.store.holding(rings(request)) | old


def check_owner(request: Request, sessions: Sessions, session_id: str) -> None:
    """Renaming, deleting and sharing a session are its owner's (403)."""
    if not is_owner(request, sessions, session_id):
        raise DedaleError("error.owner")


def seat_of(request: Request, sessions: Sessions, session_id: str, seating: str | None = None) -> int | None:
    """The seat this request speaks for: None for a session of this screen (solo or hot-seat, open to the
    machine as before), else the seat its link's token opens (a program's header, or a seat this browser's
    rings hold), or seat 0 for the owner; no token, or a wrong one, is a 403. (`seating`: the session's, when
    the caller has read it already.)"""
    if (seating or sessions.store.seating(session_id)) != "linked":
        return None
    store = sessions.store
    token = request.headers.get(HEADER) or request.cookies.get(cookie_name(session_id))
    seat = None if not token or len(token) > MAX_TOKEN else store.seat_of(session_id, token)
    if seat is None and store.owns(session_id, _held(request, session_id)):
        seat = 0
    if seat is None and (held := store.held_seats(session_id, rings(request))):
        seat = min(held, key=SEAT_ORDER.index)
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
    party view sees that view (no GM's key, no log, no seed), unless its link shows it the GM's."""
    held = seat in (SPECTATOR, CO_PLAYER) and system(session.system).party_view is not None
    return "party" if held else None


def may_play(request: Request, sessions: Sessions, session_id: str, seating: str | None = None) -> int | None:
    """The seat of a request that changes the session (`rules_seat` says whose it is to the rules): a
    spectator's is refused (403)."""
    seat = seat_of(request, sessions, session_id, seating)
    if seat in (SPECTATOR, GM_SPECTATOR):
        raise DedaleError("error.spectator")
    return seat


def share(request: Request, sessions: Sessions, session_id: str, role: str, response: Response | None = None) -> str:
    """A new link's token, made by the owner: for the other seat, another player of a co-op game, a spectator
    (a solo session becomes linked), or the owner in another browser. (`response`: a page's, which makes its
    browser the owner of a session saved before owners.)"""
    if role not in LINKS:
        raise DedaleError("error.one_of", param="role", value=role, accepted=", ".join(LINKS))
    store = sessions.store
    owned = store.owns(session_id, _held(request, session_id))
    if not (local(request) if owned is None else owned):
        raise DedaleError("error.owner")
    record = store.record(session_id)
    if role != "owner":
        if record.seating == "hot-seat":
            raise DedaleError("error.hot_seat_share")
        session = None if record.waiting else sessions.get(session_id)
        if session is not None:
            if role == "seat1" and not session.two_people():
                raise DedaleError("error.seat1_solo")
            if role == "spectator_gm" and not shows_gm_to_spectators(session):
                raise DedaleError("error.spectator_gm")
            why = refused_by_seed(session, record, role)
            if why is not None:
                raise DedaleError(why)
    if owned is None:  # saved before owners: its first link gives it one, this browser or the owner token
        if response is None and role != "owner":
            raise DedaleError("error.owner_first")
        if response is not None:
            store.add_owner(session_id, claim(request, response, sessions))
    if role == "owner":
        token = new_token()
        store.add_owner(session_id, token)
        return token
    if record.seating != "linked":
        store.set_seating(session_id, "linked")
    return store.add_seat(session_id, ROLES[role])


def refused_by_seed(session: Session, record: Record, role: str) -> str | None:
    """Why a link for `role` cannot be made (a message key), when its seat would be kept from something the
    seed remakes: a seed the player chose (typed, a permalink's, a file's, with the key a file of before long
    seeds carries) or a short one anyone can search keeps no secret from whoever knows it. None when it can be
    made: a role that sees everything (the owner, a spectator shown the GM's view), a game that keeps nothing
    (table mode), a seed nobody knows."""
    if role in ("owner", "spectator_gm") or not keeps_secrets(session):
        return None
    keeps = not record.chosen and (record.secret is not None or is_long(record.seed))
    return None if keeps else "error.share_known_seed"


def open_link(request: Request, sessions: Sessions, session_id: str, token: str, response: Response) -> None:
    """What a link's token does to the browser that opens it: an owner's makes it an owner too; a seat's is
    held by its ring, unless the browser is the owner's (it keeps seat 0 and the rights that go with it,
    whatever link of its own game it opens). The second seat of a game waiting for it sits down: the game is
    dealt."""
    store = sessions.store
    if len(token) > MAX_TOKEN:
        raise DedaleError("error.seat_token")
    if store.owns(session_id, [token]):
        store.add_owner(session_id, claim(request, response, sessions))
        return
    seat = store.seat_of(session_id, token)
    if seat is None:
        raise DedaleError("error.seat_token")
    if store.owns(session_id, _held(request, session_id)):
        return  # the owner's own browser: seat 0 it stays, and the game waits for the other player still
    store.hold(claim(request, response, sessions), session_id, seat)
    if seat == 1 and store.record(session_id).waiting:
        store.set_seated(session_id)


def claim(request: Request, response: Response, sessions: Sessions, ring: str | None = None) -> str:
    """A new ring for this browser (`ring`, or one minted now), to own or hold a game it gains: whatever its rings
    (and its id of before rings) held moves to the new ring, whose cookie the response sets, and the old rings'
    cookies go."""
    ring = ring or new_token()
    olds = rings(request)
    browser = csrf.browser(request)
    sessions.store.rekey([*olds, *([] if browser is None else [browser])], ring)
    for old in olds:
        response.delete_cookie(RING + old)
    remember(response, ring)
    return ring


def migrate(request: Request, response: Response, sessions: Sessions) -> None:
    """A browser whose id owned games before rings: they move to a ring now (its id alone, which a page
    elsewhere could plant, owns nothing any more)."""
    browser = csrf.browser(request)
    if browser is not None and sessions.store.owns_any(browser):
        claim(request, response, sessions)


def own_in_browser(request: Request, response: Response, sessions: Sessions, session_id: str) -> None:
    """A session the API made for a browser (one the pages have given their cookie): that browser owns it too,
    by a new ring (a program owns it by the token the answer gives)."""
    if csrf.browser(request) is not None:
        sessions.store.add_owner(session_id, claim(request, response, sessions))


def creator(request: Request) -> tuple[list[str], str]:
    """The secrets that will own a session an API request makes: a new owner token (which the answer gives,
    once)."""
    token = new_token()
    return [token], token


def shows_gm_to_spectators(session: Session) -> bool:
    """Whether a spectator may be shown the GM's view (`GM_SPECTATOR`): of a map alone, whose key is the only
    thing it keeps; a game with secrets shows a spectator neither side's."""
    return system(session.system).party_view is not None and not session.has_secrets()


def keeps_secrets(session: Session) -> bool:
    """Whether the game keeps something from someone who plays or watches it: a seat's secrets, or the GM's key
    of a map with a party view (table mode keeps nothing: the table rolls and draws)."""
    return not session.table and (session.has_secrets() or system(session.system).party_view is not None)


def remember(response: Response, ring: str) -> None:
    """Keep a ring in this browser: its name carries it, its value says nothing. Lax, not strict: a link opened
    from a chat on another site is a navigation from that site, and a strict cookie would not follow its
    redirect to the game (a change still needs this site's form token and origin, `csrf.py` and `guard.py`)."""
    response.set_cookie(RING + ring, "1", max_age=365 * 24 * 3600, httponly=True, samesite="lax")

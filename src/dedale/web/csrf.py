"""The pages' forms carry a token: a browser's own, signed with the database's secret. The browser is known
by a cookie (HttpOnly, SameSite=Lax); its token is an HMAC of that cookie, so a page elsewhere can neither
read the token nor make one, even if it sets a cookie of its own (cookies are shared by every port of a
host). Plain forms send the token as a field, htmx as a header. The guard (`guard.py`) has already
refused changes from other origins; this is the second lock on the pages' door."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from functools import lru_cache

from fastapi import Request
from fastapi.responses import Response

from dedale.core.errors import DedaleError

COOKIE = "dedale_browser"
FIELD = "csrf"
HEADER = "x-csrf-token"
_BROWSER = re.compile(r"[A-Za-z0-9_-]{22}")
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


@lru_cache(maxsize=4096)  # a browser's token, asked for twice a click
def _sign(secret: bytes, browser: str) -> str:
    return hmac.new(secret, browser.encode("ascii"), hashlib.sha256).hexdigest()[:32]


def browser(request: Request) -> str | None:
    """This browser's id (128 random bits), if it has one: also what owns the games it made (`seats.py`)."""
    found = request.cookies.get(COOKIE)
    return found if found is not None and _BROWSER.fullmatch(found) else None


def identify(request: Request, response: Response) -> str:
    """This browser's id: a new one, its cookie set on `response`, when it has none yet."""
    found = browser(request)
    if found is None:
        found = secrets.token_urlsafe(16)
        remember(response, found)
    return found


def fetch_token(secret: bytes, browser: str) -> str:
    """What the pages add to the addresses of their pictures, downloads and live updates (`k`), for a browser
    that names no place it asks from (`guard.py`): signed for this browser's cookie, which another page may set
    but never sign for. Not the forms' token, which a copied address would give away."""
    return _sign(secret, "fetch:" + browser)


def fetched_by_a_page(request: Request, secret: bytes) -> bool:
    """Whether a request carries its browser's fetch token (`k` in its address, or the forms' token as htmx's
    header): the app's own pages made it."""
    known = browser(request)
    if known is None:
        return False
    sent = request.query_params.get("k")
    if sent is not None and hmac.compare_digest(sent, fetch_token(secret, known)):
        return True
    header = request.headers.get(HEADER)
    return header is not None and hmac.compare_digest(header, _sign(secret, known))


def page_token(request: Request) -> tuple[str, str | None]:
    """The token a page's forms carry, and the browser cookie to set when the browser has none yet."""
    known = browser(request)
    new = None
    if known is None:
        known = new = secrets.token_urlsafe(16)
    return _sign(request.app.state.secret, known), new


def remember(response: Response, browser: str) -> None:
    response.set_cookie(COOKIE, browser, max_age=365 * 24 * 3600, httponly=True, samesite="lax")


async def check(request: Request) -> None:
    """The pages' dependency: a change must carry this browser's token (a header, or the form's field)."""
    if request.method in _SAFE:
        return
    known = browser(request)
    sent = request.headers.get(HEADER)
    if sent is None:
        value = (await request.form()).get(FIELD)
        sent = value if isinstance(value, str) else None
    if known is None or sent is None or not hmac.compare_digest(sent, _sign(request.app.state.secret, known)):
        raise DedaleError("error.csrf")

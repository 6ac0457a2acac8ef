"""What stands between the network and the app. A server on 127.0.0.1 is still reachable by every web page
the player visits, so each request is checked before the app sees it:

- its `Host` must be one the server was started for (a DNS-rebinding page names its own host), exactly, with a
  numeric port or none, and given once: else 400;
- a change (any method but GET, HEAD and OPTIONS) must come from the app's own pages: a browser names the
  page's origin (`Origin`, `Referer`, `Sec-Fetch-Site`), and another origin is refused with 403 before its
  body is read. A program calling the API names none and is let through; the pages' forms also carry a
  signed token (`csrf.py`);
- another site may link to the app's pages (a click opens one in a tab), nothing else: a picture, a plot, a
  download, the play panel or the live stream asked for by another site's page is refused with 403, whatever
  the fetch mode (a hidden frame is a navigation too: 24 of them drew 24 plots), and so is a page in a frame;
- a body may not exceed its route's limit, whether its length is declared or not: 413, counting the bytes
  as they arrive and never holding more than the limit. (FastAPI's own `max_body_size` answers a bare
  "Content Too Large" from inside the route, past the app's error pages; this one names the limit in the
  player's language, and refuses before the app does anything.) The API reads a JSON body strictly
  (`api.py`, `core.jsontext`);
- a HEAD is answered as its GET is, without the body;
- every answer carries a Content-Security-Policy (the app's own scripts, styles and pictures only) and
  headers that forbid framing it, sniffing types and leaking its addresses to other sites.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dedale.core.errors import DedaleError
from dedale.core.numbers import whole
from dedale.web import csrf
from dedale.web.service import MAX_UPLOAD

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")  # every address: its requests name the machine's own
BODY_LIMIT = 64 * 1024
# An upload's file, plus room for its multipart framing on the page's form.
BODY_LIMITS = {"/api/upload": MAX_UPLOAD, "/upload": MAX_UPLOAD + 16 * 1024}
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                 b"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]

# What costs nothing and reveals nothing: the app's own files, asked for by its pages whatever they name
FILES = re.compile(r"/static/.*|/favicon\.ico")
# The pages another site may open, in a tab of their own (a link to them): the home page, a system's form,
# a game and its log, a seat link, the saved sessions, the upload form, a permalink, the odds calculator.
# Everything else is work done for the app's own pages, or for programs (the API).
PAGES = re.compile(r"/(?:|lang/[^/]+|new/[^/]+|play/[^/]+(?:/log)?|join/[^/]+/[^/]+|sessions|upload|permalink/[^/]+"
                   r"|zombstone)")
# A Host header: a name and an optional numeric port, an IPv6 address in brackets and an optional port, or an
# IPv6 address alone (it has no port then).
_HOST = re.compile(r"\[(?P<v6>[0-9a-f:.]+)\](?::[0-9]{1,5})?|(?P<name>[^\[\]:]+)(?::[0-9]{1,5})?"
                   r"|(?P<bare>[0-9a-f.]*:[0-9a-f:.]*)")

Refuse = Callable[[Request, DedaleError, int], Response]


def allowed_hosts(host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names a server started on `host` answers to: the loopback names, `host` itself unless it
    is a wildcard, and the ones the user allows."""
    names = {*LOOPBACK, *(name.strip().lower().strip("[]") for name in extra)}
    if host.strip("[]") not in WILDCARDS:
        names.add(host.lower().strip("[]"))
    return frozenset(names)


def host_name(host_header: str) -> str | None:
    """The name in a Host header, without its port ("[::1]:8000" -> "::1"); None when the header is not a name
    or an address with a numeric port or none ("[::1]evil.example", "localhost:evil")."""
    found = _HOST.fullmatch(host_header.strip().lower())
    return None if found is None else found.group("v6") or found.group("name") or found.group("bare")


def _same_place(origin: str, host_header: str) -> bool:
    """Whether an `Origin` (or a `Referer`) names the host and port the request was sent to."""
    parts = urlsplit(origin)
    default = {"http": ":80", "https": ":443"}.get(parts.scheme, "")
    return bool(parts.netloc) and parts.netloc.lower().removesuffix(default) == host_header.lower().removesuffix(
        default)


class Guard:
    """The ASGI middleware (outermost: nothing reaches the app unchecked)."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str], refuse: Refuse, secret: bytes) -> None:
        self.app, self.hosts, self.refuse, self.secret = app, hosts, refuse, secret

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_headers(send)
        request = Request(scope)
        if scope["method"] == "HEAD":  # the routes take GET; uvicorn leaves out the body of the answer to a HEAD
            scope = {**scope, "method": "GET"}
        try:
            self._check_host(request)
            if request.method in SAFE_METHODS:
                _check_site(request, self.secret)
            else:
                _check_origin(request)
                receive = await _read_body(request, receive, BODY_LIMITS.get(request.url.path, BODY_LIMIT))
        except _Refusal as refusal:
            await self.refuse(request, refusal.error, refusal.status)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _check_host(self, request: Request) -> None:
        """One Host header, naming this server (two: a proxy and the app could each read another)."""
        headers = request.headers.getlist("host")
        if len(headers) != 1 or host_name(headers[0]) not in self.hosts:
            raise _Refusal(400, DedaleError("error.host", value=", ".join(headers),
                                            accepted=", ".join(sorted(self.hosts))))


class _Refusal(Exception):
    def __init__(self, status: int, error: DedaleError) -> None:
        super().__init__(error.key)
        self.status, self.error = status, error


def _check_origin(request: Request) -> None:
    """A browser says where a request comes from; anything but the app's own origin is refused."""
    host = request.headers.get("host", "")
    site = request.headers.get("sec-fetch-site")
    origin = request.headers.get("origin") or request.headers.get("referer")
    if site in ("cross-site", "same-site") or (origin is not None and not _same_place(origin, host)):
        raise _Refusal(403, DedaleError("error.origin", value=origin or site))


def _check_site(request: Request, secret: bytes) -> None:
    """A page elsewhere may open one of the app's pages in a tab (a link), nothing else. A browser names where
    a request comes from (`Sec-Fetch-Site`: another site, or another port of this one, is foreign; "none" is
    the user's own doing, a bookmark or a typed address) and what for (`Sec-Fetch-Mode` and `-Dest`: a tab is
    a "navigate" of a "document"; a frame is a navigate too, of an "iframe"). A request that names none of
    them (an old browser, a program, and every browser on a plain-http network address: they send them only
    to https and to this machine) is foreign when its `Origin` or `Referer` names another place. When it
    names no place at all, a browser's (its User-Agent says "Mozilla/", as every browser's does) must carry a
    value the server issued for anything but a page or the app's files: the fetch token its pages add to the
    addresses they ask for, signed for the browser's cookie (`csrf.fetch_token`; htmx sends the forms' token).
    A cookie alone proves nothing: a page on another port of this host shares this host's cookies, and may
    set one of any name and value. A program calling the API, or an address typed in, is let through."""
    headers = request.headers
    site = headers.get("sec-fetch-site")
    came_from = headers.get("origin") or headers.get("referer")
    if site is None and came_from is not None:
        foreign = not _same_place(came_from, headers.get("host", ""))
    elif site is None:
        path = request.url.path
        foreign = (headers.get("user-agent", "").startswith("Mozilla/") and not PAGES.fullmatch(path)
                   and not FILES.fullmatch(path) and not csrf.fetched_by_a_page(request, secret))
    else:
        foreign = site not in ("same-origin", "none")
    in_a_tab = headers.get("sec-fetch-mode", "navigate") == "navigate" and headers.get(
        "sec-fetch-dest", "document") == "document"
    if foreign and not (in_a_tab and PAGES.fullmatch(request.url.path)):
        raise _Refusal(403, DedaleError("error.elsewhere", value=came_from or site))


async def _read_body(request: Request, receive: Receive, limit: int) -> Callable[[], Awaitable[Message]]:
    """The whole body, at most `limit` bytes (refused on its declared length before a byte is read, or as
    soon as the bytes read pass the limit), and a `receive` that gives it again."""
    declared = request.headers.get("content-length")
    if declared is not None and ((length := whole(declared, most_digits=18)) is None or length > limit):
        raise _Refusal(413, _too_large(request, limit))
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went away: let the app see it
            return _replay([message], receive)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _Refusal(413, _too_large(request, limit))
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return _replay([{"type": "http.request", "body": b"".join(chunks), "more_body": False}], receive)


def _too_large(request: Request, limit: int) -> DedaleError:
    if request.url.path in BODY_LIMITS:
        return DedaleError("error.upload_size", high=MAX_UPLOAD // 1024)
    return DedaleError("error.body_size", high=limit // 1024)


def _replay(messages: list[Message], receive: Receive) -> Callable[[], Awaitable[Message]]:
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name.lower() for name, _ in message.get("headers", [])}
            message["headers"] = [*message.get("headers", []), *(h for h in SECURITY_HEADERS if h[0] not in present)]
        await send(message)

    return sending

"""The connections `dedale serve` accepts: uvicorn's HTTP protocol (httptools), with what uvicorn leaves out.
uvicorn closes a connection left idle between two requests, but not one that is slow to send a request:
127 clients sending a byte every 5 s held every place of the server for as long as they liked. So:

- a request's headers must be complete within `header_seconds` of the connection's opening (or of their
  first byte, on a kept-alive connection), and be at most `head_bytes` long, however they arrive (the bytes
  are counted as they come, a request's own wherever it begins in what was read: the next request of a
  kept-alive connection read with the end of the last one was not counted); its body must be complete
  within `body_seconds` of its headers. Else the connection is closed (431 for headers too long);
- the server holds `connections` at once, one client address at most `per_address` of them. A browser opens
  at most 6 connections to a host name and port (Chrome, Firefox and Safari over HTTP/1.1), the live stream
  among them: the cap is far above what a player's browser opens, even through two names (localhost and
  127.0.0.1) and a private window;
- a whole request comes first. Slow clients could still take every place within the deadlines, from many
  addresses (a program on this machine may use any of 127.0.0.0/8) or from the player's own, 127.0.0.1.
  When the server, or the newcomer's address, holds all it may, the connection that has waited longest for
  its request's headers (opened, or kept alive after an answer, and not sent them whole) is closed to make
  room: a slow client loses its place to the newcomer, never the other way round, and a request sent whole
  is served. Only when no connection can be closed so is one more refused: from an address holding all it
  may, a 503 at once, before it takes a place; over the server's places, a 503 once its headers are in (a
  place may have come free meanwhile);
- uvicorn's own answers (a malformed request's 400, the 503 when every place is taken) carry the security
  headers the app's answers do (`guard.py`), and the 503 says why, in the player's language.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.types import Receive, Scope, Send
from uvicorn.protocols.http.flow_control import service_unavailable
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.protocols.utils import get_remote_addr

from dedale.i18n import t
from dedale.web.guard import SECURITY_HEADERS
from dedale.web.render import lang_of


@dataclass(frozen=True)
class Limits:
    """What one connection may take: see the module's docstring."""

    header_seconds: float = 10.0
    body_seconds: float = 60.0  # an 8 MiB upload at 1.1 Mbit/s
    head_bytes: int = 64 * 1024  # a browser's request with its cookies is well under 8 KiB
    per_address: int = 32
    connections: int = 128  # at once in all (a kept-alive connection counts too)


# How much of what a connection sent is parsed at a time: a request's headers are counted to within a piece
# on either side (far below `head_bytes`: a browser's never come near it)
HEAD_PIECE = 4096


def protocol(limits: Limits) -> type[asyncio.Protocol]:
    """A protocol class for uvicorn's `http=`, counting its connections in all and by client address."""
    placed: dict[Bounded, None] = {}  # the connections holding a place
    waiting: dict[Bounded, None] = {}  # those waiting for a request's headers, the longest waiting first
    held: Counter[str] = Counter()  # places by client address

    def shed(address: str | None = None) -> bool:
        """Close the connection that has waited longest for its request's headers (from `address`, when
        given) to make room for another; whether there was one."""
        oldest = next((each for each in waiting if address is None or each.address == address), None)
        if oldest is None:
            return False
        oldest.close()
        return True

    class Bounded(HttpToolsProtocol):
        address: str | None = None  # the client's, once counted
        deadline: asyncio.TimerHandle | None = None
        head: int | None = 0  # the bytes of the request's headers read so far; None once they are complete
        piece = 0  # the length of the piece of data being read

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            address = _address_of(get_remote_addr(transport))
            if address is not None and held[address] >= limits.per_address and not shed(address):
                self.transport = transport  # refused before it counts anywhere
                message = t("error.too_many_connections", "en", value=address, high=limits.per_address)
                self._answer(503, "text/plain; charset=utf-8", message.encode())
                return
            if len(placed) >= limits.connections:
                shed()  # nothing to close: let it in all the same, a place may come free before its headers
            super().connection_made(transport)
            self.address = address
            if address is not None:
                held[address] += 1
            placed[self] = waiting[self] = None
            self._expire_in(limits.header_seconds)

        def connection_lost(self, exc: Exception | None) -> None:
            self._leave()
            super().connection_lost(exc)

        def close(self) -> None:
            """Close the connection, its place free at once (its loss is told later)."""
            self._leave()
            self.transport.close()

        def _leave(self) -> None:
            self._expire_in(None)
            waiting.pop(self, None)
            if self not in placed:  # left already (closed, then told of its loss), or never let in
                return
            del placed[self]
            if self.address is not None:
                held[self.address] -= 1
                if not held[self.address]:
                    del held[self.address]

        def data_received(self, data: bytes) -> None:
            # Read in pieces, each counted with the request's headers before it is parsed: headers sent whole
            # in one write were parsed, and served, before they were found too long. A request beginning in the
            # middle of what was read (the next one on a kept-alive connection) has its headers counted from
            # the piece it began in (at most a piece of the request before counted with them).
            for start in range(0, len(data), HEAD_PIECE):
                if self.transport.is_closing():
                    return
                piece = data[start:start + HEAD_PIECE]
                self.piece = len(piece)
                if self.head is not None:
                    self.head += self.piece
                    if self.head > limits.head_bytes:
                        message = t("error.head_size", "en", high=limits.head_bytes // 1024)
                        self._answer(431, "text/plain; charset=utf-8", message.encode())
                        return
                super().data_received(piece)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self.head = self.piece  # counted from the whole piece it began in
            if self.deadline is None:  # a kept-alive connection's next request: its own time
                self._expire_in(limits.header_seconds)

        def on_headers_complete(self) -> None:
            self.head = None
            waiting.pop(self, None)
            self._expire_in(limits.body_seconds)
            # Over the server's places (nothing could be closed when it came) with nothing to close now, or
            # more requests running than there are places (a request goes on after its client went away):
            # answered by uvicorn's own refusal (`_busy`).
            busy = (len(placed) > limits.connections and not shed()) or len(self.tasks) >= limits.connections
            self.limit_concurrency = 0 if busy else None
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._expire_in(None)
            self.head = 0  # the next request's
            super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self in placed and not self.transport.is_closing() and self.cycle.response_complete:
                waiting[self] = None  # kept alive for its next request (not one sent already, waiting its turn)

        def send_400_response(self, msg: str) -> None:
            self._answer(400, "text/plain; charset=utf-8", msg.encode("ascii"))

        def _start_asgi_task(self, cycle: Any, app: Any) -> None:
            super()._start_asgi_task(cycle, _busy if app is service_unavailable else app)  # type: ignore[arg-type]

        def _expire_in(self, seconds: float | None) -> None:
            """Close the connection in `seconds` unless told otherwise before (None: the current deadline
            is met)."""
            if self.deadline is not None:
                self.deadline.cancel()
            self.deadline = None if seconds is None else self.loop.call_later(seconds, self._expired)

        def _expired(self) -> None:
            self.deadline = None
            self.close()

        def _answer(self, status: int, media: str, body: bytes) -> None:
            """An answer before the app is asked (and the connection closed after it)."""
            headers = [*self.server_state.default_headers, *SECURITY_HEADERS, (b"content-type", media.encode()),
                       (b"content-length", b"%d" % len(body)), (b"connection", b"close")]
            head = b"".join(b"%s: %s\r\n" % header for header in headers)
            self.transport.write(STATUS_LINE[status] + head + b"\r\n" + body)
            self.close()

    async def _busy(scope: Scope, receive: Receive, send: Send) -> None:
        """uvicorn's 503 once every place is taken, in the app's manner: the security headers, the reason in
        the player's language, as JSON for the API."""
        request = Request(scope)
        message = t("error.busy", lang_of(request), high=limits.connections)
        if scope["path"].startswith("/api/"):
            media, body = "application/json", json.dumps({"error": message}).encode()
        else:
            media, body = "text/plain; charset=utf-8", message.encode()
        await send({"type": "http.response.start", "status": 503,
                    "headers": [(b"content-type", media.encode()), (b"content-length", b"%d" % len(body)),
                                (b"connection", b"close"), (b"retry-after", b"1"), *SECURITY_HEADERS]})
        await send({"type": "http.response.body", "body": body})

    return Bounded


def _address_of(client: tuple[str, int] | None) -> str | None:
    """The address a client's connections are counted under (an IPv4 client of a server listening on IPv6 as
    its IPv4 address); None for a Unix socket."""
    if client is None:
        return None
    try:
        address = ipaddress.ip_address(client[0])
    except ValueError:
        return client[0]
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)

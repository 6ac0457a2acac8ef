"""The connections `dedale serve` accepts: uvicorn's HTTP protocol (httptools), with what uvicorn leaves out.
uvicorn closes a connection left idle between two requests, but not one that is slow to send a request:
127 clients sending a byte every 5 s held every place of the server for as long as they liked. So:

- a request's headers must be complete within `header_seconds` of the connection's opening (or of their
  first byte, on a kept-alive connection), and be at most `head_bytes` long; its body must be complete
  within `body_seconds` of its headers. Else the connection is closed (431 for headers too long);
- one client address holds at most `per_address` connections at once: one more is answered 503 and closed
  at once, before it takes a place. A browser opens at most 6 connections to a host name and port (Chrome,
  Firefox and Safari over HTTP/1.1), the live stream among them: the cap is far above what a player's
  browser opens, even through two names (localhost and 127.0.0.1) and a private window, and a client
  alone holds no more than a quarter of the server's places (one with many addresses, as a program on
  this machine may use any of 127.0.0.0/8, is bounded by the deadlines alone);
- uvicorn's own answers (a malformed request's 400, its 503 when every place is taken) carry the security
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
    connections: int = 128  # at once in all (more get 503: a kept-alive connection counts too)


def protocol(limits: Limits) -> type[asyncio.Protocol]:
    """A protocol class for uvicorn's `http=`, counting its connections by client address."""
    held: Counter[str] = Counter()

    class Bounded(HttpToolsProtocol):
        address: str | None = None  # the client's, once counted
        deadline: asyncio.TimerHandle | None = None
        head: int | None = 0  # the bytes of the request's headers read so far; None once they are complete

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            address = _address_of(get_remote_addr(transport))
            if address is not None and held[address] >= limits.per_address:  # refused before it counts anywhere
                self.transport = transport
                message = t("error.too_many_connections", "en", value=address, high=limits.per_address)
                self._answer(503, "text/plain; charset=utf-8", message.encode())
                return
            super().connection_made(transport)
            if address is not None:
                self.address = address
                held[address] += 1
            self._expire_in(limits.header_seconds)

        def connection_lost(self, exc: Exception | None) -> None:
            self._expire_in(None)
            if self.address is not None:
                held[self.address] -= 1
                if not held[self.address]:
                    del held[self.address]
                self.address = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self.head is not None:
                self.head += len(data)
            super().data_received(data)
            if self.head is not None and self.head > limits.head_bytes and not self.transport.is_closing():
                message = t("error.head_size", "en", high=limits.head_bytes // 1024)
                self._answer(431, "text/plain; charset=utf-8", message.encode())

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self.deadline is None:  # a kept-alive connection's next request: its own time
                self._expire_in(limits.header_seconds)

        def on_headers_complete(self) -> None:
            self.head = None
            self._expire_in(limits.body_seconds)
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._expire_in(None)
            self.head = 0  # the next request's
            super().on_message_complete()

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
            self.transport.close()

        def _answer(self, status: int, media: str, body: bytes) -> None:
            """An answer before the app is asked (and the connection closed after it)."""
            headers = [*self.server_state.default_headers, *SECURITY_HEADERS, (b"content-type", media.encode()),
                       (b"content-length", b"%d" % len(body)), (b"connection", b"close")]
            head = b"".join(b"%s: %s\r\n" % header for header in headers)
            self.transport.write(STATUS_LINE[status] + head + b"\r\n" + body)
            self.transport.close()

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

"""Issue 39, the web app hardened again: what a client sends costs the server nothing it keeps, slow clients
make room for a whole request, no client takes every live-update place (and a page refused one polls), and
bad input (headers however they arrive, ports, names) is one clear refusal. The OpenAPI description lists
every status an operation answers.

Tests that need a real server process start one (`webserver.py`)."""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from pathlib import Path
from typing import Any

from dedale.web.app import create_app

UNKNOWN = "x" * 50_000  # the tail of an id no session has: 50,000 characters


async def _asked(app: Any, method: str, path: str, body: bytes = b"", client: str = "127.0.0.1",
                 headers: tuple[tuple[bytes, bytes], ...] = ()) -> int:
    """One request through the whole app (its guard, routes and error pages), as uvicorn hands it over; its
    status."""
    statuses: list[int] = []
    given = False

    async def receive() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"), *headers],
             "client": (client, 50000), "server": ("127.0.0.1", 80)}
    await app(scope, receive, send)
    return statuses[0]


def test_unknown_session_ids_leave_nothing_behind(tmp_path: Path) -> None:
    """A lock was kept for every session id ever asked for, before anything checked the id: 2,000 requests for
    unknown ids of 50,000 characters grew the server by 121 MB, never given back. What the server keeps after
    requests for unknown ids is now the same after 300 of them as after 1,500 (Python's own caches of the
    last URLs parsed fill up with the first few hundred)."""
    routes = [("GET", "/api/sessions/{}"), ("POST", "/api/sessions/{}/step"), ("GET", "/play/{}"),
              ("GET", "/api/sessions/{}/export/json"), ("DELETE", "/api/sessions/{}")]

    async def run() -> tuple[int, int]:
        app = create_app(tmp_path / "web.db")
        async with app.router.lifespan_context(app):
            async def unknown(first: int, count: int) -> int:
                for n in range(first, first + count):
                    method, path = routes[n % len(routes)]
                    status = await _asked(app, method, path.format(f"{n:06d}{UNKNOWN}"), b'{"choice": "x"}')
                    assert status == 404, (method, path, status)
                gc.collect()
                return tracemalloc.get_traced_memory()[0]

            tracemalloc.start()
            try:
                settled = await unknown(0, 300)
                later = await unknown(300, 1_200)
            finally:
                tracemalloc.stop()
            return settled, later

    settled, later = asyncio.run(run())
    assert later - settled < 1_000_000, f"{(later - settled) / 1e6:.1f} MB more kept over 1,200 unknown ids"

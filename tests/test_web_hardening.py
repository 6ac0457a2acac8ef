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

import pytest
from fastapi.testclient import TestClient

from dedale.web import service
from dedale.web.app import create_app

UNKNOWN = "x" * 50_000  # the tail of an id no session has: 50,000 characters


async def _asked(app: Any, method: str, path: str, body: bytes = b"", client: str = "127.0.0.1",
                 headers: tuple[tuple[bytes, bytes], ...] = (), until: asyncio.Event | None = None,
                 started: asyncio.Future[int] | None = None) -> int:
    """One request through the whole app (its guard, routes and error pages), as uvicorn hands it over; its
    status. With `until`, the client goes away only once it is set; `started` is given the status as soon as
    the answer begins (a stream's goes on)."""
    statuses: list[int] = []
    given = False

    async def receive() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        if until is not None:
            await until.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])
            if started is not None:
                started.set_result(message["status"])

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


# Control characters (C0, DEL, C1) and the marks that turn the text's direction: "‮gpj.exe" reads "exe.jpg".
UNPRINTABLE = ["\x00", "\t", "\n", "\x1b", "\x7f", "\x85", "\x9f", "\u061c", "\u200e", "\u200f",
               *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))]


@pytest.mark.parametrize("character", UNPRINTABLE, ids=lambda c: f"U+{ord(c):04X}")
def test_a_name_holds_no_control_character_nor_direction_mark(client: TestClient, character: str) -> None:
    """A name is shown in lists, pages, file names and terminals: each way a name is given (a new game from the
    API and from its form, a rename from the API and from the list, an uploaded document) refuses one holding
    such a character, naming it and where it is, and keeps nothing."""
    bad = f"Cave{character}gpj.exe"
    named = f"U+{ord(character):04X} at character 5"
    made = client.post("/api/sessions", json={"system": "crawler", "seed": 3, "name": "The deep"}).json()
    document = client.get(f"/api/sessions/{made['id']}/export/json").json()
    before = client.get("/api/sessions").json()
    refusals = [client.post("/api/sessions", json={"system": "crawler", "name": bad}),
                client.post("/new/crawler", data={"name": bad}),
                client.patch(f"/api/sessions/{made['id']}", json={"name": bad}),
                client.post(f"/sessions/{made['id']}/rename", data={"name": bad}),
                client.post("/api/upload", json={**document, "name": bad})]
    for response in refusals:
        assert response.status_code == 400 and named in response.text, (response.request.url, response.text[:300])
        assert "control characters" in response.text
    assert client.get("/api/sessions").json() == before
    client.cookies.set("lang", "fr")
    assert "caractère de contrôle" in client.patch(f"/api/sessions/{made['id']}", json={"name": bad}).json()["error"]
    assert client.patch(f"/api/sessions/{made['id']}", json={"name": "Caverne · 東 ‹ 1 ›"}).json()["name"] == \
        "Caverne · 東 ‹ 1 ›"


def test_one_client_holds_at_most_its_share_of_the_live_places(tmp_path: Path) -> None:
    """One client took every place of the pages following games live. A client is its browser (its cookie)
    or, without one, its address: each holds at most a quarter of the places (a browser on the address of a
    client holding its share still gets its own), the server at most all of them; a client's places come back
    when its streams end, and nothing is kept of a client holding none."""
    share, most = service.WATCHER_SHARE, service.MAX_WATCHERS
    browsers = [f"{n:022d}" for n in range(most)]  # a browser's id: 22 characters

    async def run() -> None:
        app = create_app(tmp_path / "web.db")
        async with app.router.lifespan_context(app):
            session_id = service.create(app.state.sessions, "crawler", {}, 1, False, "en")
            live = f"/play/{session_id}/live"
            gone = asyncio.Event()
            streams = []

            async def follow(client: str, browser: str | None = None) -> int:
                cookie = () if browser is None else ((b"cookie", f"dedale_browser={browser}".encode()),)
                started: asyncio.Future[int] = asyncio.get_running_loop().create_future()
                streams.append(asyncio.create_task(_asked(app, "GET", live, client=client, headers=cookie,
                                                          until=gone, started=started)))
                return await asyncio.wait_for(started, 60)  # the answer's status, its stream going on

            try:
                assert [await follow("127.0.0.2") for _ in range(share + 1)] == [200] * share + [503]
                assert [await follow("127.0.0.2", browsers[0]) for _ in range(share + 1)] == [200] * share + [503]
                assert await follow("127.0.0.3") == 200
                taken = 2 * share + 1
                assert [await follow("127.0.0.4", browsers[1 + n // share]) for n in range(most - taken)] == \
                    [200] * (most - taken)
                assert await follow("127.0.0.5") == 503 and await follow("127.0.0.5", browsers[-1]) == 503
                assert app.state.watchers.taken == most
            finally:
                gone.set()
                await asyncio.wait_for(asyncio.gather(*streams), 60)
            assert app.state.watchers.taken == 0 and not app.state.watchers.held

    asyncio.run(run())

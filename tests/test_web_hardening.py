"""Issue 39, the web app hardened again: what a client sends costs the server nothing it keeps, slow clients
make room for a whole request, no client takes every live-update place (and a page refused one polls), and
bad input (headers however they arrive, ports, names) is one clear refusal. The OpenAPI description lists
every status an operation answers.

Tests that need a real server process start one (`webserver.py`)."""

from __future__ import annotations

import asyncio
import gc
import json
import sqlite3
import tracemalloc
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dedale.web import service
from dedale.web.app import create_app
from webclient import BASE

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


@pytest.mark.parametrize("seed", [-1, 2**130, 2**131, "x", "U" * 26, "3KQM7-XA9BF", 4.5, True, [4], {"seed": 4}],
                         ids=repr)
def test_an_upload_refuses_a_seed_outside_what_a_seed_can_be(client: TestClient, seed: Any) -> None:
    """Both uploads (the page's file and the API's body) name the seed and what a seed can be, and keep nothing."""
    made = client.post("/api/sessions", json={"system": "crawler", "seed": 3}).json()
    document = {**client.get(f"/api/sessions/{made['id']}/export/json").json(), "seed": seed}
    before = client.get("/api/sessions").json()
    sent = json.dumps(document).encode()
    for response in (client.post("/api/upload", json=document),
                     client.post("/upload", files={"document": ("cave.json", sent, "application/json")})):
        assert response.status_code == 400 and "is not a seed" in response.text, response.text[:300]
        assert "a whole number from 0 to 18446744073709551615, or a long seed" in response.text
    assert client.get("/api/sessions").json() == before


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


def test_the_openapi_description_lists_every_status_each_operation_answers(client: TestClient, tmp_path: Path
                                                                          ) -> None:
    """The description listed 400 for everything and 403, 413 for changes: a GET another site's page asks for
    is a 403 too, a linked game's without a seat's token, the busy server's a 503. Each operation is made to
    answer each status it can (a wrong Host, another site's page, no such session, a seat or an owner it is
    not, a change behind the server's back, a body too large, a field of the wrong type), and each status it
    answered is documented; each documented status was answered, but the 503 (the connections' own, tested
    against a real server) and FastAPI's own 422 on an operation whose only parameters are texts."""
    made = client.post("/api/sessions", json={"system": "crawler", "seed": 3}).json()
    linked = client.post("/api/sessions", json={"system": "crawler", "seating": "linked"}).json()
    waiting = client.post("/api/sessions", json={"system": "zombstone-duel", "seating": "linked"}).json()  # seat 1
    shared = client.post("/api/sessions", json={"system": "crawler"}).json()  # a random seed: it may be shared
    duel = "/api/zombstone/duel-odds?attacker=1&defender=2"
    unknown = "/api/sessions/no-such-session"

    def of(session: dict[str, Any]) -> str:
        return f"/api/sessions/{session['id']}"

    def behind_the_back(session: dict[str, Any]) -> str:
        """Another writer makes a choice in the file (the session the server holds is then out of date): the
        choice, which the server would take."""
        state = client.get(of(session)).json()
        choice = state["choices"][0]["id"]
        with sqlite3.connect(tmp_path / "web.db") as other:
            other.execute("INSERT INTO events VALUES (?, ?, ?)", (session["id"], state["steps"],
                                                                  json.dumps({"choice": choice})))
        return str(choice)

    stranger = TestClient(client.app, base_url=BASE)  # a program that owns nothing, with no seat's token
    step = {"choice": made["choices"][0]["id"]}
    # (method, path as described): (status, how it is asked for) for each status it answers
    answers: dict[tuple[str, str], list[tuple[int, Any]]] = {
        ("get", "/api/systems"): [(200, lambda: client.get("/api/systems"))],
        ("get", "/api/sessions"): [(200, lambda: client.get("/api/sessions"))],
        ("post", "/api/sessions"): [
            (201, lambda: client.post("/api/sessions", json={"system": "crawler"})),
            (422, lambda: client.post("/api/sessions", json={"system": "crawler", "seed": [3]}))],
        ("get", "/api/sessions/{session_id}"): [
            (200, lambda: client.get(of(made))), (404, lambda: client.get(unknown)),
            (403, lambda: stranger.get(of(linked), headers={"X-Seat-Token": "wrong"}))],
        ("post", "/api/sessions/{session_id}/step"): [
            (200, lambda: client.post(f"{of(made)}/step", json=step)),
            (404, lambda: client.post(f"{unknown}/step", json=step)),
            (403, lambda: stranger.post(f"{of(linked)}/step", json=step)),
            (409, lambda: client.post(f"{of(made)}/step", json={"choice": behind_the_back(made)})),
            (422, lambda: client.post(f"{of(made)}/step", json={"choice": 5}))],
        ("post", "/api/sessions/{session_id}/autopilot"): [
            (200, lambda: client.post(f"{of(made)}/autopilot", json={})),
            (404, lambda: client.post(f"{unknown}/autopilot", json={})),
            (403, lambda: stranger.post(f"{of(linked)}/autopilot", json={})),
            (409, lambda: behind_the_back(made) and client.post(f"{of(made)}/autopilot", json={})),
            (422, lambda: client.post(f"{of(made)}/autopilot", json={"to_end": "yes"}))],
        ("post", "/api/sessions/{session_id}/undo"): [
            (200, lambda: client.post(f"{of(made)}/undo")), (404, lambda: client.post(f"{unknown}/undo")),
            (403, lambda: stranger.post(f"{of(linked)}/undo")),
            (409, lambda: behind_the_back(made) and client.post(f"{of(made)}/undo"))],
        ("post", "/api/sessions/{session_id}/links"): [
            (201, lambda: client.post(f"{of(shared)}/links", json={"role": "spectator"})),
            (404, lambda: client.post(f"{unknown}/links", json={"role": "spectator"})),
            (403, lambda: stranger.post(f"{of(made)}/links", json={"role": "spectator"})),
            (422, lambda: client.post(f"{of(made)}/links", json={"role": "king"}))],
        ("patch", "/api/sessions/{session_id}"): [
            (200, lambda: client.patch(of(made), json={"name": "Deep"})),
            (404, lambda: client.patch(unknown, json={"name": "Deep"})),
            (403, lambda: stranger.patch(of(made), json={"name": "Mine"})),
            (422, lambda: client.patch(of(made), json={"name": ""}))],
        ("delete", "/api/sessions/{session_id}"): [
            (403, lambda: stranger.delete(of(made))), (404, lambda: client.delete(unknown)),
            (204, lambda: client.delete(of(client.post("/api/sessions", json={"system": "crawler"}).json())))],
        ("get", "/api/sessions/{session_id}/export/{fmt}"): [
            (200, lambda: client.get(f"{of(made)}/export/json")), (404, lambda: client.get(f"{unknown}/export/json")),
            (403, lambda: stranger.get(f"{of(linked)}/export/json")),
            (409, lambda: client.get(f"{of(waiting)}/export/json", headers={"X-Seat-Token": waiting["seat_token"]})),
            (422, lambda: client.get(f"{of(made)}/export/gif"))],
        ("post", "/api/upload"): [
            (201, lambda: client.post("/api/upload", json=client.get(f"{of(made)}/export/json").json())),
            (422, lambda: client.post("/api/upload", json=[1]))],
        ("get", "/api/zombstone/odds"): [(200, lambda: client.get("/api/zombstone/odds?potential=2")),
                                         (422, lambda: client.get("/api/zombstone/odds?potential=99"))],
        ("get", "/api/zombstone/duel-odds"): [(200, lambda: client.get(duel)),
                                              (422, lambda: client.get(duel.replace("=1", "=99")))],
    }
    paths = client.get("/openapi.json").json()["paths"]
    described = {(method, path): operation for path, methods in paths.items() for method, operation in methods.items()}
    assert set(described) == set(answers)
    for (method, path), asked in answers.items():
        operation = described[method, path]
        here = path.replace("{session_id}", made["id"]).replace("{fmt}", "json")
        large = 9 * 1024 * 1024 if path == "/api/upload" else 70_000
        for_every: list[tuple[int, dict[str, Any]]] = [(400, {"headers": {"Host": "evil.example"}})]
        if method == "get":
            for_every.append((403, {"headers": _fetched_by_another_site()}))
        else:  # (refused before the body is read, or the change is made)
            for_every += [(403, {"json": {}, "headers": {"Origin": "http://evil.example"}}),
                          (413, {"content": b" " * large, "headers": {"Content-Type": "application/json"}})]
        asked += [(status, partial(client.request, method, here, **options)) for status, options in for_every]
        answered = set()
        for status, ask in asked:
            response = ask()
            assert response.status_code == status, (method, path, status, response.text[:300])
            answered.add(status)
        documented = {int(status) for status in operation["responses"]}
        assert answered <= documented, (method, path, answered - documented)
        fastapis = {422} if operation["responses"].get("422", {}).get("description") == "Validation Error" else set()
        assert documented - answered <= {503} | fastapis, (method, path, documented - answered)
        assert 503 in documented, (method, path)


def _fetched_by_another_site() -> dict[str, str]:
    return {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"}

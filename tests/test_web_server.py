"""`dedale serve`: one process serving its SQLite file. A live page hears of every change, and players
clicking one session at the same moment never both apply a step to the same state.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dedale.core.session import Session
from dedale.crawler.session import CrawlerRules
from webserver import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("server") / "dedale.db") as running:
        yield running


def call(server: Server, method: str, path: str, body: str = "", headers: dict[str, str] | None = None
         ) -> tuple[int, str, dict[str, str]]:
    """One request on a connection of its own: (status, body, headers)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request(method, path, body.encode("utf-8"), headers or {})
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8"), dict(response.getheaders())
    finally:
        connection.close()


def api(server: Server, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    status, text, _ = call(server, method, path, "" if body is None else json.dumps(body),
                           {"Content-Type": "application/json"})
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        raise AssertionError(f"{method} {path}: {status}, not JSON: {text[:300]!r}") from None


def test_the_server_is_one_process(server: Server) -> None:
    """No worker processes: the sessions in memory and the file's lock are this process's alone."""
    threads = list(Path(f"/proc/{server.pid}/task").glob("*/children"))
    if not threads:
        pytest.skip("no /proc to list a process's children")
    assert [child for thread in threads for child in thread.read_text().split()] == []


def test_a_live_page_hears_of_every_change(server: Server) -> None:
    _, state = api(server, "POST", "/api/sessions", {"system": "crawler", "seed": 5})
    session_id = state["id"]
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as live:
        live.sendall(f"GET /play/{session_id}/live HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
        heard = live.recv(4096).decode()  # the answer's head and the stream's first line: it runs
        assert " 200 " in heard.split("\r\n", 1)[0]
        for steps in range(1, 4):
            choice = state["choices"][0]["id"]
            status, state = api(server, "POST", f"/api/sessions/{session_id}/step", {"choice": choice})
            assert status == 200
            deadline = time.monotonic() + 60  # only a change never heard fails
            while f"data: {steps}\n" not in heard and time.monotonic() < deadline:
                heard += live.recv(4096).decode()
            assert f"event: change\ndata: {steps}\n" in heard


def test_two_steps_at_the_same_moment_never_both_apply(server: Server) -> None:
    """Players clicking one session at once: each step is acknowledged or refused (400: the choice is no
    longer offered), and the file holds exactly the acknowledged ones, a game that replays: none lost, none
    applied to a state that was no longer the session's."""
    _, state = api(server, "POST", "/api/sessions", {"system": "crawler", "seed": 31})
    session_id = state["id"]
    outcomes: list[int] = []
    lock = threading.Lock()

    def player(which: int) -> None:
        for _ in range(12):
            _, seen = api(server, "GET", f"/api/sessions/{session_id}")
            if seen["over"]:
                return
            choice = seen["choices"][which % len(seen["choices"])]["id"]
            status, _ = api(server, "POST", f"/api/sessions/{session_id}/step", {"choice": choice})
            with lock:
                outcomes.append(status)

    threads = [threading.Thread(target=player, args=(which,)) for which in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert set(outcomes) <= {200, 400} and 200 in outcomes
    _, document = api(server, "GET", f"/api/sessions/{session_id}/export/json")
    assert len(document["events"]) == outcomes.count(200)
    assert Session.from_json(CrawlerRules, document).to_json() == document


def test_every_route_on_a_session_holds_its_lock() -> None:
    """A session kept in memory is one object that a step changes in place: a route that reads it while
    another request steps it drew its answer from a half-made step (a 500 once in a few thousand clicks,
    after the step was committed). Every route on one session runs under its lock, but the live page's,
    which reads the file's revision alone."""
    import inspect

    from fastapi.routing import APIRoute

    from dedale.web import api, pages, service

    held = service.one_at_a_time(print).__code__  # the code of a route that holds the lock

    on_a_session = [route for router in (api.router, pages.router) for route in router.routes
                    if isinstance(route, APIRoute) and "{session_id}" in route.path]
    assert len(on_a_session) > 15
    for route in on_a_session:
        if inspect.iscoroutinefunction(route.endpoint):
            assert route.path.endswith("/live"), route.path
            continue
        assert route.endpoint.__code__ is held, route.path

"""`dedale serve --workers 2`: two processes serving one SQLite file behave as one server. Every request here
opens a new connection, so that the kernel hands it to either worker: a click goes on from the state the
other worker left (its copy in memory is checked against the file's revision), the pages' form token made by
one is good in the other (the secret is the file's), a live page hears of a change made in the other, and
two steps on one session at the same moment never both apply from the same state.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dedale.crawler.session import CrawlerSession
from webserver import Server

CHOICE = re.compile(r'name="choice" value="([^"]+)"')
TOKEN = re.compile(r'"X-CSRF-Token": "([0-9a-f]+)"')


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("workers") / "dedale.db", workers=2) as running:
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
    return status, json.loads(text) if text else None


def browser(server: Server) -> dict[str, str]:
    """A browser's cookie and form token, from the home page, and the origin its clicks name."""
    _, home, headers = call(server, "GET", "/")
    token = TOKEN.search(home)
    assert token is not None
    return {"Cookie": headers["set-cookie"].split(";", 1)[0], "X-CSRF-Token": token.group(1), "HX-Request": "true",
            "Origin": server.url, "Content-Type": "application/x-www-form-urlencoded"}


def workers_of(server: Server) -> set[int]:
    """The worker processes of the server (Linux): its children that serve requests."""
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children")
    if not children.exists():
        pytest.skip("no /proc to list a process's children")
    return {pid for pid in map(int, children.read_text().split())
            if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")}


def test_the_server_runs_two_workers(server: Server) -> None:
    assert len(workers_of(server)) == 2


def test_clicks_go_on_from_the_state_the_other_worker_left(server: Server) -> None:
    """A crawl played to the end by clicks on new connections (as a browser whose kept-alive connection
    closed between clicks), with undos: every click is answered with the panel, none refused as out of date,
    and the file holds exactly the choices clicked, in order, which replay to the same game."""
    page = browser(server)
    _, state = api(server, "POST", "/api/sessions", {"system": "crawler", "seed": 12})
    session_id, choices, clicked = state["id"], [c["id"] for c in state["choices"]], []
    for number in range(200):
        if not choices:
            break
        if number % 5 == 4:  # an undo, then a step: as many events as before, not the same ones
            status, panel, _ = call(server, "POST", f"/play/{session_id}/undo", "", page)
            clicked.pop()
        else:
            choice = choices[number % len(choices)]
            status, panel, _ = call(server, "POST", f"/play/{session_id}/step", f"choice={choice}", page)
            clicked.append(choice)
        assert status == 200, panel[:300]
        choices = CHOICE.findall(panel)
    _, document = api(server, "GET", f"/api/sessions/{session_id}/export/json")
    assert document["over"] and [event["choice"] for event in document["events"]] == clicked
    assert CrawlerSession.from_json(document).to_json() == document


def test_a_live_page_hears_of_every_change_whichever_worker_made_it(server: Server) -> None:
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
            deadline = time.monotonic() + 10
            while f"data: {steps}\n" not in heard and time.monotonic() < deadline:
                heard += live.recv(4096).decode()
            assert f"event: change\ndata: {steps}\n" in heard


def test_two_steps_at_the_same_moment_never_both_apply(server: Server) -> None:
    """Players clicking one session at once, in both workers: each step is acknowledged or refused (409: it
    changed meanwhile; 400: the choice is no longer offered), and the file holds exactly the acknowledged
    ones, a game that replays: none lost, none applied to a state that was no longer the session's."""
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
    assert set(outcomes) <= {200, 400, 409} and 200 in outcomes
    _, document = api(server, "GET", f"/api/sessions/{session_id}/export/json")
    assert len(document["events"]) == outcomes.count(200)
    assert CrawlerSession.from_json(document).to_json() == document


def test_a_kept_alive_connection_is_closed_now_and_then_so_that_players_spread(server: Server) -> None:
    """Every REBALANCE_EVERY-th answer of a worker says `Connection: close` (and the worker closes it): on one
    kept-alive connection, that comes within as many answers, and the next request gets a new connection."""
    from dedale.web.serving import REBALANCE_EVERY

    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        headers = []
        while len(headers) < REBALANCE_EVERY and "close" not in headers:
            connection.request("GET", "/favicon.ico")
            response = connection.getresponse()
            response.read()
            assert response.status == 200
            headers.append(response.getheader("connection"))
        assert "close" in headers, f"still open after {len(headers)} answers"
        assert connection.sock is None  # http.client let go of the socket the server closes
    finally:
        connection.close()


def test_rebalancing_adds_its_header_to_one_answer_in_every() -> None:
    import asyncio

    from dedale.web.serving import Rebalance

    async def answer(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"ok"})

    async def closes(app: Rebalance, kind: str = "http") -> bool:
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await app({"type": kind}, None, send)
        return (b"connection", b"close") in sent[0]["headers"]

    app = Rebalance(answer, every=3)
    assert [asyncio.run(closes(app)) for _ in range(7)] == [False, False, True, False, False, True, False]
    assert not asyncio.run(closes(app, "websocket"))  # only HTTP answers are counted and marked

"""What the web app promises to a player whose browser also visits other sites. A server on 127.0.0.1 is
reachable by every page the browser opens, so:

1. Who may act: only the app's own pages change anything (Origin checks, a signed token in every form), and
   only the host names the server was started for are served (DNS rebinding); every answer carries headers
   that forbid framing, sniffing and scripts from elsewhere.
2. Bounded work: bodies are refused past their limit, declared or not; pictures too big to draw, and
   sessions too long to replay, are refused with the limit named.
3. No 500s: malformed JSON, absurd numbers, unknown parameters and unexpected methods get a 4xx naming
   what was wrong; the command line prints one line and exits with 2.
4. One writer per database: a second server on the same file refuses to start, and a session changed behind
   a server's back is a 409, never a lost step.
5. Hidden information stays hidden: see `test_hidden_information_on_the_web`.
6. Owners, guests and spectators: whoever made a game alone renames it, deletes it and makes its links.

Tests that need a real server process (a chunked upload, two servers) start one (`webserver.py`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dedale.core.cards import Card
from dedale.web import csrf, guard, service
from dedale.web.app import create_app
from webclient import BASE, page_token, started, web_client
from webserver import ENTRY, Server, Tuned, api, free_port

EVIL = "http://evil.example"


def new(client: TestClient, system: str = "crawler", **body: Any) -> dict[str, Any]:
    response = client.post("/api/sessions", json={"system": system, "seed": 3, **body})
    assert response.status_code == 201, response.text
    return response.json()


def everything(client: TestClient) -> list[dict[str, Any]]:
    """Every session and its events: what a refused request must leave as it was."""
    return [{**s, "events": client.get(f"/api/sessions/{s['id']}/export/json").json()["events"]}
            for s in client.get("/api/sessions").json()]


def changes(session_id: str, choice: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Every state-changing request, pages and API: (method, path, keyword arguments of the request)."""
    document = {"format": "dedale/crawler", "version": 1, "seed": 1, "events": []}
    return [
        ("POST", "/new/crawler", {"data": {"seed": "1"}}),
        ("POST", f"/play/{session_id}/step", {"data": {"choice": choice}}),
        ("POST", f"/play/{session_id}/auto", {"data": {"to": "end"}}),
        ("POST", f"/play/{session_id}/undo", {}),
        ("POST", f"/sessions/{session_id}/rename", {"data": {"name": "pwned"}}),
        ("POST", f"/sessions/{session_id}/delete", {}),
        ("POST", "/upload", {"files": {"document": ("d.json", json.dumps(document), "application/json")}}),
        ("POST", "/permalink/crawler", {"data": {"seed": "1", "params": "{}"}}),
        ("POST", "/api/sessions", {"json": {"system": "crawler"}}),
        ("POST", f"/api/sessions/{session_id}/step", {"json": {"choice": choice}}),
        ("POST", f"/api/sessions/{session_id}/autopilot", {"json": {"to_end": True}}),
        ("POST", f"/api/sessions/{session_id}/undo", {}),
        ("PATCH", f"/api/sessions/{session_id}", {"json": {"name": "pwned"}}),
        ("DELETE", f"/api/sessions/{session_id}", {}),
        ("POST", "/api/upload", {"json": document}),
    ]


# --- 1. Who may act ------------------------------------------------------------------------------------
@pytest.mark.parametrize("headers", [
    {"Origin": EVIL},
    {"Origin": "null"},  # a sandboxed frame, a file:// page
    {"Origin": "http://127.0.0.1:9999"},  # another server on this machine: another origin
    {"Referer": f"{EVIL}/attack.html"},  # an old browser sends no Origin, but a Referer
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site", "Origin": "http://localhost:9999"},
])
def test_a_change_from_another_site_is_refused_and_changes_nothing(client: TestClient,
                                                                   headers: dict[str, str]) -> None:
    session = new(client)
    choice = session["choices"][0]["id"]
    client.post(f"/api/sessions/{session['id']}/step", json={"choice": choice})
    before = everything(client)
    for method, path, options in changes(session["id"], choice):
        response = client.request(method, path, headers=headers, **options)
        assert response.status_code == 403, (method, path, response.status_code)
        assert "another site" in response.text
    assert everything(client) == before


def test_the_apps_own_pages_and_programs_may_change_things(client: TestClient) -> None:
    """The same requests from the app's own origin (a browser names it), or from a program (it names none)."""
    for headers in ({"Origin": BASE}, {"Referer": f"{BASE}/play/x", "Sec-Fetch-Site": "same-origin"}, {}):
        created = client.post("/api/sessions", json={"system": "paper"}, headers=headers)
        assert created.status_code == 201, headers
        page = client.post("/new/paper", data={"seed": "2"}, headers=headers)
        assert page.status_code == 303, headers


def test_a_form_needs_this_browsers_token(tmp_path: Path) -> None:
    """A page's form carries a token signed for this browser's cookie: a form posted without it, with
    another browser's, or with a cookie set by another page (cookies are shared by every port of a host),
    is refused, even from the app's own origin."""
    with web_client(tmp_path / "web.db", token=False, follow_redirects=False) as client:
        assert client.post("/new/crawler", data={"seed": "1"}).status_code == 403  # no cookie, no token
        token = page_token(client)
        assert client.post("/new/crawler", data={"seed": "1", "csrf": "0" * 32}).status_code == 403
        assert client.post("/new/crawler", data={"seed": "1", "csrf": token}).status_code == 303
        assert client.post("/new/crawler", data={"seed": "1"}, headers={"X-CSRF-Token": token}).status_code == 303
        other = TestClient(client.app, base_url=BASE, follow_redirects=False)
        assert other.post("/new/crawler", data={"seed": "1", "csrf": token}).status_code == 403  # not its token
        other.cookies.set("dedale_browser", "A" * 22)  # a cookie another page chose: it cannot sign for it
        refused = other.post("/new/crawler", data={"seed": "1", "csrf": token})
        assert refused.status_code == 403 and "reload the page" in refused.text
        assert len(client.get("/api/sessions").json()) == 2


def test_tokens_outlive_a_restart_of_the_server(tmp_path: Path) -> None:
    """The key that signs them is kept in the database: a page left open across a restart still works."""
    with web_client(tmp_path / "web.db", token=False) as first:
        token, cookie = page_token(first), first.cookies["dedale_browser"]
    with web_client(tmp_path / "web.db", token=False, follow_redirects=False) as second:
        second.cookies.set("dedale_browser", cookie)
        assert second.post("/new/crawler", data={"seed": "1", "csrf": token}).status_code == 303


def test_another_site_may_link_here_but_not_load_the_apps_work(client: TestClient) -> None:
    """A plot or a download is work: a page elsewhere may not embed it (an image, a fetch), nor even open it
    (a hidden frame is a navigation too); it may link to a page."""
    plot = "/zombstone/odds.png?potential=2"
    for mode in ("no-cors", "cors", "navigate"):
        embedded = client.get(plot, headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": mode})
        assert embedded.status_code == 403, mode
    assert client.get("/zombstone", headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}
                      ).status_code == 200
    assert client.get(plot, headers={"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "no-cors"}).status_code == 200
    assert client.get(plot).headers["cross-origin-resource-policy"] == "same-origin"


def test_opening_a_link_changes_nothing(client: TestClient) -> None:
    """A permalink any site may link to shows what it would make, and makes it only from its own form."""
    link = "/permalink/hexcrawl?seed=5&params=" + json.dumps({"radius": 3})
    shown = client.get(link, headers={"Sec-Fetch-Site": "cross-site"})
    assert shown.status_code == 200 and "radius" in shown.text and client.get("/api/sessions").json() == []
    assert client.get("/lang/fr?next=/").status_code == 303 and client.get("/api/sessions").json() == []


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.",
                                  "[::2]:8000", ""])
def test_hosts_the_server_was_not_started_for_are_refused(client: TestClient, host: str) -> None:
    """A DNS-rebinding page reaches 127.0.0.1 under its own name: it is refused before anything is read."""
    new(client)
    for method, path in (("GET", "/api/sessions"), ("GET", "/"), ("GET", "/static/style.css"),
                         ("DELETE", "/api/sessions/x")):
        response = client.request(method, path, headers={"Host": host})
        assert response.status_code == 400 and "--allow-host" in response.text, (host, path)
    assert len(client.get("/api/sessions").json()) == 1


def test_the_hosts_a_server_answers_to(tmp_path: Path) -> None:
    def answers(app: Any, host: str) -> bool:
        return TestClient(app).get("/api/systems", headers={"Host": host}).status_code == 200

    local = create_app(tmp_path / "a.db")
    assert all(answers(local, h) for h in ("127.0.0.1:8000", "localhost", "LOCALHOST:1", "[::1]:8000", "::1"))
    assert not answers(local, "192.168.1.5:8000")
    lan = create_app(tmp_path / "b.db", host="0.0.0.0", allow_hosts=["dedale.lan", "192.168.1.5"])
    assert all(answers(lan, h) for h in ("dedale.lan:8000", "192.168.1.5", "127.0.0.1:8000"))
    assert not answers(lan, "0.0.0.0:8000") and not answers(lan, "other.lan")
    assert answers(create_app(tmp_path / "c.db", host="192.168.1.7"), "192.168.1.7:8000")


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    session = new(client)
    answers = [client.get("/"), client.get(f"/play/{session['id']}"), client.get("/api/sessions"),
               client.get("/static/htmx.min.js"), client.get("/nowhere"), client.get("/", headers={"Host": "x"}),
               client.post("/api/sessions", json={}, headers={"Origin": EVIL}),
               client.get(f"/api/sessions/{session['id']}/export/svg")]
    for answer in answers:
        policy = answer.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy and "unsafe" not in policy
        assert "frame-ancestors 'none'" in policy
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "same-origin"


def test_pages_hold_nothing_the_policy_would_block(client: TestClient) -> None:
    """With scripts and styles from the app's own files only, a page may hold no inline script, event
    handler, javascript: link or style attribute (they would silently not work)."""
    ids = {system: new(client, system, params=params)["id"] for system, params in (
        ("crawler", {}), ("paper", {"max_cards": 10}), ("hexcrawl", {"radius": 3}), ("keylock", {}),
        ("zombstone", {}), ("zombstone-duel", {}))}
    paths = ["/", "/sessions", "/upload", "/zombstone", "/zombstone?potential=2&attacker=1&defender=1",
             "/permalink/crawler?seed=1", "/nowhere", *(f"/new/{s}" for s in ids),
             *(f"/play/{i}" for i in ids.values())]
    for path in paths:
        html = client.get(path).text
        assert "<html" in html, path
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), path
        assert not re.search(r"\son[a-z]+\s*=", html, re.IGNORECASE), path
        assert "javascript:" not in html and not re.search(r"\sstyle\s*=|<style", html), path


# --- 2. Bounded work -----------------------------------------------------------------------------------
@pytest.mark.parametrize("path, size, limit", [
    ("/api/sessions", 64 * 1024 + 1, "64 KiB"), ("/api/upload", service.MAX_UPLOAD + 1, "8192 KiB"),
    ("/upload", service.MAX_UPLOAD + 20 * 1024, "8192 KiB"), ("/play/x/step", 64 * 1024 + 1, "64 KiB")])
def test_a_body_declared_too_large_is_refused_before_it_is_read(client: TestClient, path: str, size: int,
                                                                 limit: str) -> None:
    response = client.post(path, content=b"{" + b" " * (size - 2) + b"}",
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and limit in response.text


def _chunked_post(port: int, path: str, content_type: str, total: int) -> tuple[int, int]:
    """POST `total` bytes in 1 MiB chunks with no Content-Length, stopping as soon as the server answers:
    (the status, the bytes sent)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: {content_type}\r\n"
                     "Transfer-Encoding: chunked\r\n\r\n".encode())
        chunk = b"%x\r\n" % (1 << 20) + b" " * (1 << 20) + b"\r\n"
        sent = 0
        conn.setblocking(False)
        answer = b""
        while sent < total:
            with contextlib.suppress(BlockingIOError):  # nothing to read yet
                answer += conn.recv(65536)
            if answer:
                break
            try:
                conn.setblocking(True)
                conn.sendall(chunk)
                conn.setblocking(False)
                sent += 1 << 20
            except (BrokenPipeError, ConnectionResetError):
                break
        conn.setblocking(True)
        while b"\r\n" not in answer:
            answer += conn.recv(65536)
    return int(answer.split(b" ", 2)[1]), sent


def _resident_mib(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024  # type: ignore[union-attr]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's memory in /proc")
def test_a_chunked_upload_is_counted_as_it_arrives_and_stopped_at_the_limit(tmp_path: Path) -> None:
    """No Content-Length to refuse on: the bytes are counted as they come, and the server answers 413 once
    they pass the limit, its memory growing by no more than the limit (today a 512 MiB upload was read
    whole)."""
    with Server(tmp_path / "web.db") as server:
        before = _resident_mib(server.pid)
        for path, kind in (("/api/upload", "application/json"), ("/upload", "multipart/form-data; boundary=x")):
            status, sent = _chunked_post(server.port, path, kind, 256 << 20)
            assert status == 413, path
            assert sent < 64 << 20, f"{sent >> 20} MiB sent before the server answered"
        grown = _resident_mib(server.pid) - before
        assert grown < 3 * service.MAX_UPLOAD / 2**20, f"the server grew by {grown:.0f} MiB"
        assert json.loads(_get(server.port, "/api/sessions")) == []  # still serving


def _get(port: int, path: str) -> bytes:
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return response.read()


def test_a_picture_too_big_to_draw_is_a_clear_refusal(client: TestClient) -> None:
    """A key-lock diagram at the web's limits is wider than cairo can draw as a PNG: the answer says so and
    offers the SVG and the PDF, whose page is shrunk to the largest size PDF readers open."""
    state = new(client, "keylock", params={"unique": 200, "multi": 50, "multi_max_keys": 20,
                                           "multi_max_locks": 10, "permanent": 20})
    png = client.get(f"/api/sessions/{state['id']}/export/png")
    assert png.status_code == 400 and "16384" in png.json()["error"] and "SVG" in png.json()["error"]
    pdf = client.get(f"/api/sessions/{state['id']}/export/pdf")
    assert pdf.status_code == 200
    box = re.search(rb"MediaBox \[ 0 0 ([0-9.]+) ([0-9.]+) \]", pdf.content)
    assert box and max(float(box.group(1)), float(box.group(2))) <= 14_400
    assert client.get(f"/play/{state['id']}/export.png").status_code == 400


def test_a_session_holds_a_bounded_number_of_steps(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each request replays at most that many events (an undo, a restart): past it, a step is refused with
    the limit, and an upload of more is refused before it is replayed."""
    monkeypatch.setattr(service, "MAX_EVENTS", 4)
    state = new(client, "hexcrawl", params={"radius": 5})
    for _ in range(4):
        state = client.post(f"/api/sessions/{state['id']}/step", json={"choice": "move:N"}).json()
    refused = client.post(f"/api/sessions/{state['id']}/step", json={"choice": "move:S"})
    assert refused.status_code == 400 and "at most 4 steps" in refused.json()["error"]
    assert client.post(f"/api/sessions/{state['id']}/autopilot", json={}).status_code == 400
    assert client.post(f"/api/sessions/{state['id']}/undo").status_code == 200
    document = client.get(f"/api/sessions/{state['id']}/export/json").json()
    document["events"] = [{"choice": "move:N"}] * 5
    assert "at most 4 steps" in client.post("/api/upload", json=document).json()["error"]


def test_costly_parameters_are_refused_from_a_form_and_from_a_document(client: TestClient) -> None:
    """The spec's random walk takes about 30 steps a hex (a second at radius 40): on the web, radius 20 at
    most (the depth-first walk is linear: any radius). A key-lock diagram's objects are counted in all,
    each set within its range or not. The same limits hold for an upload or a permalink."""
    walk = {"system": "hexcrawl", "params": {"radius": 21, "order": "random-walk"}}
    refused = client.post("/api/sessions", json=walk)
    assert refused.status_code == 400 and "at most 20" in refused.json()["error"]
    assert client.post("/api/sessions", json={**walk, "params": {"radius": 40, "order": "walk"}}).status_code == 201
    small = new(client, "hexcrawl", params={"radius": 20, "order": "random-walk"})
    document = client.get(f"/api/sessions/{small['id']}/export/json").json()
    document["params"]["radius"] = 21
    assert "at most 20" in client.post("/api/upload", json=document).json()["error"]
    link = client.get("/permalink/hexcrawl?seed=1&params=" + json.dumps({"radius": 30, "order": "random-walk"}))
    assert link.status_code == 400 and "at most 20" in link.text
    keylock = client.get(f"/api/sessions/{new(client, 'keylock')['id']}/export/json").json()
    keylock["params"].update(unique=200, multi=50, multi_max_keys=20, multi_max_locks=10, permanent=50,
                             permanent_max_locks=10)  # each within its range, too many in all
    assert "2000" in client.post("/api/upload", json=keylock).json()["error"]


def test_an_upload_too_long_to_replay_is_refused_at_once(client: TestClient) -> None:
    """180,000 moves (3.5 MiB) took 5 s to replay, and every undo as long: now a 400 before any replay."""
    document = client.get(f"/api/sessions/{new(client, 'hexcrawl', params={'radius': 40})['id']}/export/json").json()
    document["events"] = [{"choice": "move:N" if n % 2 else "move:S"} for n in range(180_000)]
    response = client.post("/api/upload", json=document)
    assert response.status_code == 400 and f"at most {service.MAX_EVENTS} steps" in response.json()["error"]


# --- 3. No 500s ----------------------------------------------------------------------------------------
SURROGATE = '"\\ud800"'
BAD_JSON = {
    "a lone surrogate": b'{"system": "crawler", "name": ' + SURROGATE.encode() + b"}",
    "a lone surrogate in params": b'{"system": "crawler", "params": {"size": ' + SURROGATE.encode() + b"}}",
    "a surrogate encoded in the bytes": b'{"system": "crawler", "name": "\xed\xa0\x80"}',
    "not UTF-8": b'{"system": "crawler", "name": "\xff"}',
    "a number of 4,400 digits": b'{"system": "crawler", "seed": ' + b"9" * 4400 + b"}",
    "1e999": b"1e999",
    "NaN": b"NaN",
    "-Infinity": b'{"system": "crawler", "seed": -Infinity}',
    "nested 1,000 deep": b"[" * 1000 + b"]" * 1000,
    "nested 100 deep": b'{"system": "crawler", "params": ' + b'{"a": ' * 100 + b"1" + b"}" * 101,
}


@pytest.mark.parametrize("problem", list(BAD_JSON))
@pytest.mark.parametrize("path", ["/api/sessions", "/api/upload", "/upload"])
def test_malformed_json_is_a_clear_400(client: TestClient, path: str, problem: str) -> None:
    body = BAD_JSON[problem]
    if path == "/upload":
        response = client.post(path, files={"document": ("d.json", body, "application/json")})
    else:
        response = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400, (problem, response.status_code, response.text[:300])
    assert "Traceback" not in response.text and ("'body'" in response.text or "upload" in response.text)


@pytest.mark.parametrize("params", [
    {"size": "9" * 5000}, {"size": "3d" + "9" * 5000}, {"size": "²"}, {"stock": "5x5=" + "9" * 5000},
    {"boss_size": "9" * 5000 + "x3"}, {"start_zone": "9" * 5000 + ",1"}])
def test_absurd_numbers_in_parameters_are_a_400(client: TestClient, params: dict[str, str]) -> None:
    response = client.post("/api/sessions", json={"system": "crawler", "params": params})
    assert response.status_code == 400 and len(response.json()["error"]) < 600
    page = client.post("/new/crawler", data=params)
    assert page.status_code == 400 and "<h1>" in page.text


def test_absurd_choices_and_places_are_a_400(client: TestClient) -> None:
    duel = new(client, "zombstone-duel")
    for choice in ("bet:²", "raise:" + "9" * 190, "bet:-1"):
        assert client.post(f"/api/sessions/{duel['id']}/step", json={"choice": choice}).status_code == 400
    for start in ("9" * 5000 + ",0", "²,0"):
        response = client.post("/api/sessions", json={"system": "hexcrawl", "params": {"start": start}})
        assert response.status_code == 400 and "start" in response.json()["error"]


def test_unknown_fields_and_parameters_are_a_422_naming_the_accepted_ones(client: TestClient) -> None:
    """A misspelt parameter would otherwise give its default without a word."""
    response = client.post("/api/sessions", json={"system": "crawler", "params": {"board_zones": 50}})
    assert response.status_code == 422
    error = response.json()["error"]
    assert "board_zones" in error and "board" in error and "size" in error
    misspelt = client.post("/api/sessions", json={"system": "crawler", "sed": 4})
    assert misspelt.status_code == 422 and "sed" in misspelt.text
    assert client.get("/api/sessions").json() == []


def test_an_uploaded_documents_name_is_checked_as_a_rename_is(client: TestClient) -> None:
    document = client.get(f"/api/sessions/{new(client)['id']}/export/json").json()
    for bad in ("x" * 100_000, {"a": 1}, "   ", 7):
        response = client.post("/api/upload", json={**document, "name": bad})
        assert response.status_code == 400 and "name" in response.json()["error"], bad
    kept = client.post("/api/upload", json={**document, "name": "  The deep  "})
    assert kept.status_code == 201 and kept.json()["name"] == "The deep"
    assert client.patch(f"/api/sessions/{kept.json()['id']}", json={"name": "x" * 201}).status_code == 422
    assert client.post("/new/crawler", data={"name": "x" * 201}).status_code == 400


def test_a_method_a_path_does_not_take_names_those_it_does(client: TestClient) -> None:
    response = client.put("/api/sessions/abc", json={})
    assert response.status_code == 405
    assert set(response.headers["allow"].split(", ")) >= {"GET", "PATCH", "DELETE"}
    assert "PATCH" in response.json()["error"]
    assert client.put("/").headers["allow"] == "GET"


def test_the_openapi_schema_documents_every_refusal(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path, methods in paths.items():
        for method, operation in methods.items():
            statuses = set(operation["responses"])
            assert "400" in statuses, (method, path)
            if method != "get":
                assert {"403", "413"} <= statuses, (method, path)
            if "{session_id}" in path:
                assert "404" in statuses, (method, path)
    assert "409" in paths["/api/sessions/{session_id}/step"]["post"]["responses"]
    assert "422" in paths["/api/sessions"]["post"]["responses"]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-32"])
def test_both_uploads_read_the_same_encodings(client: TestClient, encoding: str) -> None:
    document = client.get(f"/api/sessions/{new(client)['id']}/export/json").json()
    raw = json.dumps({**document, "name": "Café ♠"}, ensure_ascii=False).encode(encoding)
    api = client.post("/api/upload", content=raw, headers={"Content-Type": "application/json"})
    page = client.post("/upload", files={"document": ("d.json", raw, "application/json")})
    assert api.status_code == 201 and api.json()["name"] == "Café ♠"
    assert page.status_code == 303


def test_the_command_line_prints_one_line_and_exits_with_2(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Inputs that printed a traceback: each is now one line naming the problem, exit code 2."""
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    big_seed = tmp_path / "seed.json"
    big_seed.write_text('{"format": "dedale/crawler", "version": 1, "seed": ' + "9" * 5000 + ', "events": []}')
    not_sqlite = tmp_path / "notes.txt"
    not_sqlite.write_text("not a database, " * 100)
    cases = [
        ("crawler", "--size", "9" * 5000), ("crawler", "--stock", "5x5=" + "9" * 5000), ("crawler", "--size", "²"),
        ("crawler", "--start", "9" * 5000 + ",1"), ("crawler", "--boss-size", "9" * 5000 + "x2"),
        ("hexcrawl", "--start", "9" * 5000 + ",0"), ("zombstone", "simulate", "--data", "a" * 5000),
        ("crawler", "--tables", "a" * 5000), ("crawler", "--seed", "1", "-o", "a" * 5000 + ".svg"),
        *((*command, str(path)) for path in (nested, big_seed)
          for command in (("render",), ("crawler", "play", "--load"), ("keylock", "analyse"))),
        ("serve", "--db", str(tmp_path)), ("serve", "--db", str(not_sqlite / "sessions.db")),
        ("serve", "--db", str(not_sqlite)), ("serve", "--db", "a" * 5000),
    ]
    for args in cases:
        code, _, err = cli(*args)
        assert code == 2 and err.startswith("dedale: ") and err.count("\n") == 1, (args[:2], code, err[:300])
        assert len(err) < 600, (args[:2], err)


# --- 4. One writer per database ------------------------------------------------------------------------
def test_a_second_server_on_the_same_file_refuses_to_start(tmp_path: Path) -> None:
    with Server(tmp_path / "web.db") as first:
        second = subprocess.run([sys.executable, "-c", ENTRY, "serve", "--port", str(free_port()), "--db",
                                 str(tmp_path / "web.db")], capture_output=True, text=True, timeout=60)
        assert second.returncode == 2
        assert "another Dédale server is using" in second.stderr and "Traceback" not in second.stderr
        assert json.loads(_get(first.port, "/api/sessions")) == []  # the first goes on
    with Server(tmp_path / "web.db"):  # once the first has stopped, the file is free again
        pass


def test_a_session_changed_behind_the_servers_back_is_a_409(client: TestClient, tmp_path: Path) -> None:
    """Another writer (a second process that took no lock, a hand-made edit) added a step: the server's
    next change to that session is refused with 409 rather than overwriting it, and the session is read
    again from the file."""
    state = new(client, "crawler")
    choice = state["choices"][0]["id"]
    with sqlite3.connect(tmp_path / "web.db") as other:
        other.execute("INSERT INTO events VALUES (?, 0, ?)", (state["id"], json.dumps({"choice": choice})))
    conflict = client.post(f"/api/sessions/{state['id']}/step", json={"choice": choice})
    assert conflict.status_code == 409 and "changed meanwhile" in conflict.json()["error"]
    again = client.get(f"/api/sessions/{state['id']}").json()
    assert again["steps"] == 1  # the other writer's step, read from the file
    assert client.post(f"/api/sessions/{state['id']}/undo").status_code == 200


def test_two_changes_from_the_same_state_never_both_commit(tmp_path: Path) -> None:
    """Two writers' sessions in memory on one file (as a step written behind a server's back): a session one
    of them changed is replayed in the other before the other changes it, and two changes made from the same
    state never both commit, even when the second leaves as many events (409). A second store on a file
    another holds is refused."""
    from dedale.core.errors import DedaleError
    from dedale.web.render import STATUS
    from dedale.web.store import Sessions, Store

    store = Store(tmp_path / "s.db")
    one, two = (Sessions(store, service.build) for _ in range(2))
    session_id = service.create(one, "crawler", {}, 4, False, "en")
    two.get(session_id)  # both hold it in memory
    with one.changing(session_id) as session:
        session.step(session.choices()[0].id)
    with two.changing(session_id) as caught_up:  # its step follows one's, not the state both held
        assert caught_up.events == one.get(session_id).events
        caught_up.step(caught_up.choices()[0].id)
    assert one.get(session_id).to_json() == two.get(session_id).to_json()
    with pytest.raises(DedaleError) as raised, one.changing(session_id) as stale:
        with two.changing(session_id) as session:  # meanwhile: undone, and another step, as many events
            session.undo()
        with two.changing(session_id) as session:
            session.step(session.choices()[-1].id)
        stale.step(stale.choices()[0].id)
    assert raised.value.key == "error.raced" and STATUS[raised.value.key] == 409
    with pytest.raises(DedaleError) as raised:  # two steps from the same state: no room for the second
        store.rewrite(session_id, 0, 0, [{"choice": "x"}], revision=0)
    assert raised.value.key == "error.conflict" and STATUS[raised.value.key] == 409
    stored = store.get(session_id)[1]
    assert two.get(session_id).events == one.get(session_id).events == stored  # one dropped its stale copy
    with pytest.raises(DedaleError) as raised:  # a server's store holds the file: another cannot
        Store(tmp_path / "s.db")
    assert raised.value.key == "error.db_in_use"
    store.close()
    Store(tmp_path / "s.db").close()


def test_the_server_says_which_hosts_it_answers_to(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", ENTRY, "serve", "--port", str(port), "--db",
                                str(tmp_path / "web.db"), "--allow-host", "dedale.lan"],
                               stderr=subprocess.PIPE, text=True)
    try:
        line = process.stderr.readline()  # type: ignore[union-attr]
        assert f"http://127.0.0.1:{port}/" in line and "dedale.lan" in line and "localhost" in line
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_server_stops_while_a_page_follows_a_game(tmp_path: Path) -> None:
    """Stopped (SIGTERM, as a service manager stops it), the server ends a page's live stream and exits cleanly,
    instead of waiting the stream's 10 minutes out (the browser tests' server was killed after 10 s)."""
    with Server(tmp_path / "web.db") as server:
        session_id = api(server.url, "POST", "/api/sessions", {"system": "crawler"})["id"]
        stream = urllib.request.urlopen(f"{server.url}/play/{session_id}/live", timeout=WAIT)
        assert stream.readline() == b"retry: 1000\n"  # the page is following the game
        process = server.process
        assert process is not None
        process.terminate()
        try:
            # a bound for "never": it stops within seconds, and uvicorn, done, ends by the signal it was sent
            assert process.wait(timeout=WAIT) == -signal.SIGTERM
        finally:
            stream.close()


# --- 5. Hidden information stays hidden ----------------------------------------------------------------
def _duel_with_a_bluff_roll(client: TestClient) -> tuple[str, dict[str, Any]]:
    """A duel the player checks until the AI has rolled whether to bluff, the duel still on: its id and the
    full document the server keeps (which the player must not see)."""
    for _ in range(60):
        state = client.post("/api/sessions", json={"system": "zombstone-duel"}).json()
        while not state["over"] and any(c["id"] == "check" for c in state["choices"]):
            full = client.app.state.sessions.get(state["id"]).to_json()  # type: ignore[attr-defined]
            if any(e.get("for") == "duel.bluff" and e["args"]["seat"] == 1 for e in full["log"]):
                return state["id"], full
            state = client.post(f"/api/sessions/{state['id']}/step", json={"choice": "check"}).json()
    raise AssertionError("no duel in 60 where the AI rolls a bluff before the end")


def test_hidden_information_on_the_web(client: TestClient) -> None:
    """While the duel is on, the AI's hole cards and its bluff rolls are in no page, API answer or download
    the player gets (its decisions' draws neither: the events), nor is the game's seed, which remakes every
    card. Once it is over, everything is shown, the seed too."""
    session_id, full = _duel_with_a_bluff_roll(client)
    ai_cards = set(full["duel"]["hole"][1]) - set(full["duel"]["board"])
    assert ai_cards and "secret" not in full and len(full["seed"]) == 30  # a long seed, as its text
    assert any(entry["for"] == "duel.bluff" for event in full["events"] for entry in event.get("drew", []))
    html = client.get(f"/play/{session_id}").text
    state = client.get(f"/api/sessions/{session_id}").json()
    document = client.get(f"/api/sessions/{session_id}/export/json").json()
    texts = {"page": html, "state": json.dumps(state), "json": json.dumps(document),
             **{fmt: client.get(f"/api/sessions/{session_id}/export/{fmt}").text for fmt in ("svg", "txt")},
             "list": client.get("/sessions").text + json.dumps(client.get("/api/sessions").json())}
    for where, text in texts.items():
        assert not re.search(r"a bluff by the AI|duel\.bluff", text), where
        for card in ai_cards:  # as a code in the log and the JSON, as rank and suit in the text view
            assert not re.search(rf"(?<![\w-]){card}(?!\w)", text), (where, card)
            assert Card.parse(card).shown not in text, (where, card)
        assert full["seed"] not in text and full["seed"].replace("-", "") not in text, where
    for picture in (html, texts["svg"]):  # the felt: the AI's two cards drawn face down
        assert picture.count('fill="url(#back)"') == 2
    assert state["seed"] is None and document["seed"] is None and document["hidden"] is True
    assert "secret" not in document
    assert "permalink" not in html  # its seed hidden: nothing remakes the game
    refused = client.post("/api/upload", json=document)  # a seat's view is not a game to continue
    assert refused.status_code == 400 and "one seat's view" in refused.json()["error"]

    client.post(f"/api/sessions/{session_id}/autopilot", json={"to_end": True})
    after = client.get(f"/api/sessions/{session_id}/export/json").json()
    assert after["seed"] == full["seed"] and "secret" not in after and "hidden" not in after
    assert any(e.get("for") == "duel.bluff" and e["args"]["seat"] == 1 for e in after["log"])
    assert f'seed <code class="seed">{full["seed"]}</code>' in client.get(f"/play/{session_id}").text


def test_the_skirmish_hides_the_ai_sides_cards_on_the_web(client: TestClient) -> None:
    state = client.post("/api/sessions", json={"system": "zombstone", "seed": 2,
                                               "params": {"scenario": "ok_corral", "side": "lawmen"}}).json()
    for _ in range(3):
        state = client.post(f"/api/sessions/{state['id']}/autopilot", json={}).json()
    full = client.app.state.sessions.get(state["id"]).to_json()  # type: ignore[attr-defined]
    ai_hand = full["game"]["sides"]["zombies"]["hand"]
    assert ai_hand, "the AI side holds cards after the first upkeep"
    document = client.get(f"/api/sessions/{state['id']}/export/json").json()
    assert document["game"]["sides"]["zombies"]["hand"] == ["??"] * len(ai_hand)
    assert document["game"]["sides"]["lawmen"]["hand"] == full["game"]["sides"]["lawmen"]["hand"]
    drawn = [e["draw"] for e in document["log"] if e.get("for") == "skirmish.upkeep_draw"
             and e["args"]["side"] == {"t": "skirmish.side.zombies"}]
    assert drawn and set(drawn) == {"??"}


# --- Bad input, again (issue 28): the API's types are strict, and its schema says so and documents what a 201
# made --------------------------------------------------------------------------------------------------------
MAX_SEED = 2**64 - 1
# (path, body, the field named): a value of the wrong JSON type was made a value (true the seed 1, "yes" true).
WRONG_TYPES = [
    ("/api/sessions", {"system": "crawler", "seed": True}, "seed"),
    ("/api/sessions", {"system": "crawler", "seed": [5]}, "seed"),
    ("/api/sessions", {"system": "crawler", "seed": 5.5}, "seed"),
    ("/api/sessions", {"system": "crawler", "seed": MAX_SEED + 1}, "seed"),
    ("/api/sessions", {"system": "crawler", "seed": -1}, "seed"),
    ("/api/sessions", {"system": "crawler", "table_dice": "yes"}, "table_dice"),
    ("/api/sessions", {"system": "crawler", "table_dice": 1}, "table_dice"),
    ("/api/sessions", {"system": "crawler", "autopilot": "true"}, "autopilot"),
    ("/api/sessions", {"system": "crawler", "name": 7}, "name"),
    ("/api/sessions", {"system": "crawler", "params": []}, "params"),
    ("/api/sessions", {"system": "crawler", "params": {"early_boss": "yes"}}, "params"),
    ("/api/sessions", {"system": "crawler", "params": {"board": True}}, "params"),
    ("/api/sessions", {"system": "crawler", "params": {"fill_chance": "0.5"}}, "params"),
    ("/api/sessions", {"system": "hexcrawl", "params": {"start": [0, 0]}}, "params"),
    ("/api/sessions", {"system": "crawler", "params": {"tables": "/etc"}}, "params"),  # not offered on the web
    ("autopilot", {"to_end": "yes"}, "to_end"),
    ("autopilot", {"to_end": 1}, "to_end"),
    ("step", {"choice": 1}, "choice"),
]
# JSON has one kind of number: 5.0 is the integer 5 to a JSON Schema, and to the server.
RIGHT_TYPES = [{"system": "crawler", "seed": 0}, {"system": "crawler", "seed": MAX_SEED, "table_dice": True},
               {"system": "crawler", "seed": 5.0}, {"system": "crawler", "seed": "00000-00000-000G0-00000-000001"},
               {"system": "crawler", "autopilot": False, "name": "ok", "params": {}},
               {"system": "crawler", "params": {"board": 5.0, "early_boss": False, "size": "2d6", "fill_chance": 1,
                                                "start_side": None}}]


def api_schema(client: TestClient, name: str) -> Any:
    """A validator of the OpenAPI document's schema `name`, as a schema-driven client reads it."""
    import jsonschema

    components = client.get("/openapi.json").json()["components"]
    return jsonschema.Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": components})


def test_a_value_of_the_wrong_type_is_a_422_not_a_value(client: TestClient) -> None:
    session = new(client)
    before = everything(client)
    for path, body, field in WRONG_TYPES:
        url = path if path.startswith("/") else f"/api/sessions/{session['id']}/{path}"
        response = client.post(url, json=body)
        assert response.status_code == 422 and response.json()["error"].startswith(f"{field}: "), (body, response.text)
    assert everything(client) == before


def test_the_schema_is_as_strict_as_the_server(client: TestClient) -> None:
    """What the schema refuses the server refuses, and what it accepts the server takes: the seed's bound
    among them (the OpenAPI document writes bounds as floats; 2**64 - 1 was written 2**64)."""
    schemas = {"/api/sessions": api_schema(client, "NewSession"), "autopilot": api_schema(client, "AutopilotBody"),
               "step": api_schema(client, "StepBody")}
    for path, body, _ in WRONG_TYPES:
        assert not schemas[path].is_valid(body), body
    for body in RIGHT_TYPES:
        assert schemas["/api/sessions"].is_valid(body), body
        made = client.post("/api/sessions", json=body)
        assert made.status_code == 201 and made.json()["seed"] == body.get("seed", made.json()["seed"]), body


def test_every_parameter_is_typed_and_bounded_alike_by_the_schema_and_the_server(client: TestClient) -> None:
    from dedale.core.params import fields_of
    from dedale.systems import names, system

    schema = api_schema(client, "NewSession")
    for name in names():
        for field in [field for field in fields_of(system(name).params) if field.spec.web]:
            wrong = 12 if field.json_type() == "string" else "yes"
            body = {"system": name, "params": {field.option: wrong}}
            assert not schema.is_valid(body), body
            assert client.post("/api/sessions", json=body).status_code == 422, body
            if field.kind in ("int", "float"):
                for beyond in (field.spec.low - 1, field.high(web=True) + 1):
                    body = {"system": name, "params": {field.option: beyond}}
                    assert not schema.is_valid(body), body
                    assert client.post("/api/sessions", json=body).status_code == 400, body
    assert client.get("/api/sessions").json() == []


def test_a_201_documents_the_id_it_returns_so_that_calls_can_be_chained(client: TestClient, tmp_path: Path) -> None:
    import schemathesis

    paths = client.get("/openapi.json").json()["paths"]
    made = new(client)
    document = client.get(f"/api/sessions/{made['id']}/export/json").json()
    uploaded = client.post("/api/upload", json=document)
    assert uploaded.status_code == 201
    for path, answer in (("/api/sessions", made), ("/api/upload", uploaded.json())):
        created = paths[path]["post"]["responses"]["201"]["content"]["application/json"]["schema"]
        assert created == {"$ref": "#/components/schemas/Created"}, path  # a session's state, and the owner's token
        api_schema(client, "Created").validate(answer)
        assert client.get(f"/api/sessions/{answer['id']}").status_code == 200
    created = client.get("/openapi.json").json()["components"]["schemas"]["Created"]
    assert created["properties"]["id"]["type"] == "string" and {"id", "owner_token", "owner_url"} <= set(
        created["required"])
    # A fuzzer that infers links from the schema (schemathesis) now takes the id where it is.
    app = create_app(tmp_path / "links.db", allow_hosts=["testserver"])
    fuzzed = schemathesis.openapi.from_asgi("/openapi.json", app)
    fuzzed.as_state_machine()
    links = fuzzed.raw_schema["paths"]["/api/sessions"]["post"]["responses"]["201"]["links"]
    assert links["GetCreated"]["parameters"] == {"path.session_id": "$response.body#/id"}


# --- Issue 28, bounded work again: slow clients, other sites' frames, the live-update limit, uvicorn's answers ---
WAIT = 60.0  # the longest a test waits for the server to act (its deadlines here are a second or two)


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server whose requests must arrive within a second: headers, then body."""
    with Tuned(tmp_path_factory.mktemp("quick") / "web.db", header_seconds=1, body_seconds=1) as running:
        yield running


def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A connection from `source` (any address of 127.0.0.0/8 is this machine's, on Linux)."""
    conn = socket.socket()
    conn.settimeout(WAIT)
    try:
        conn.bind((source, 0))
    except OSError:
        conn.close()
        pytest.skip(f"{source} is not an address of this machine")
    conn.connect(("127.0.0.1", port))
    return conn


def _until_closed(conn: socket.socket, start: bytes, more: bytes = b"", pause: float = 0.2) -> bytes:
    """Send `start`, then `more` every `pause` seconds, until the server closes the connection; what it
    answered meanwhile. Fails if it is still open after WAIT seconds."""
    import select
    import time

    answer = b""
    conn.sendall(start)
    until = time.monotonic() + WAIT
    with conn:
        while time.monotonic() < until:
            if select.select([conn], [], [], pause)[0]:
                try:
                    chunk = conn.recv(65536)
                except ConnectionResetError:  # closed with bytes of ours unread
                    return answer
                if not chunk:
                    return answer
                answer += chunk
            elif more:
                try:
                    conn.sendall(more)
                except (BrokenPipeError, ConnectionResetError):
                    return answer
    raise AssertionError(f"the connection is still open after {WAIT:.0f} s; answered so far: {answer[:300]!r}")


def _ask(port: int, request: bytes, source: str = "127.0.0.1") -> bytes:
    """One whole request; the whole answer (the server closes the connection after it)."""
    return _until_closed(_connect(port, source), request.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n", 1))


def _has_security_headers(answer: bytes) -> bool:
    lines = answer.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]
    headers = {name.lower(): value for name, _, value in (line.partition(b": ") for line in lines)}
    return all(headers.get(name) == value for name, value in guard.SECURITY_HEADERS)


GET = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


@pytest.mark.parametrize("start, more", [
    (b"", b""),  # connected, and nothing sent
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", b"a"),  # headers, a byte at a time
    (GET + b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", b"a"),  # the next request's, on a kept-alive connection
    (b"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 999\r\n\r\n"
     b'{"system": ', b" "),  # a body, a byte at a time
])
def test_a_request_slow_to_arrive_is_closed(quick: Server, start: bytes, more: bytes) -> None:
    """A client sending a byte every few seconds held its place for as long as it liked: 127 of them held
    every place. A request's headers must now arrive within a deadline, its body within another (a second
    each here); the connection is then closed, without an error, and the server serves on."""
    answer = _until_closed(_connect(quick.port), start, more)
    assert answer.count(b"HTTP/1.1 ") == start.count(GET), answer[:300]  # only the whole request was answered
    assert b"HTTP/1.1 200" in _ask(quick.port, GET)


def test_headers_too_large_are_refused(quick: Server) -> None:
    """Headers were read whole, however large (200 MiB of one header took 400 MiB): past 64 KiB, a 431
    and the connection closed."""
    answer = _until_closed(_connect(quick.port), b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ", b"a" * 16384, 0)
    assert answer == b"" or (answer.startswith(b"HTTP/1.1 431") and _has_security_headers(answer))  # b"": reset
    assert b"HTTP/1.1 200" in _ask(quick.port, GET)


def test_uvicorns_own_refusals_carry_the_security_headers(quick: Server) -> None:
    """What uvicorn answers itself, before the app sees anything: a malformed request."""
    answer = _ask(quick.port, b"NOT HTTP AT ALL\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400") and _has_security_headers(answer)


@pytest.mark.parametrize("hosts", [[b"127.0.0.1", b"evil.example"], [b"evil.example", b"127.0.0.1"],
                                   [b"127.0.0.1", b"127.0.0.1"]])
def test_two_host_headers_are_refused(quick: Server, hosts: list[bytes]) -> None:
    """The first of two was the one checked: a proxy or a cache could read the other."""
    request = b"GET /api/systems HTTP/1.1\r\n" + b"".join(b"Host: %s\r\n" % host for host in hosts) + b"\r\n"
    answer = _ask(quick.port, request)
    assert answer.startswith(b"HTTP/1.1 400") and b"--allow-host" in answer and _has_security_headers(answer)


def test_a_head_is_answered_as_its_get_without_the_body(quick: Server) -> None:
    head, got = (_ask(quick.port, b"%s / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % method) for method in (b"HEAD", b"GET"))
    assert head.startswith(b"HTTP/1.1 200") and head.endswith(b"\r\n\r\n")  # no body
    length = re.search(rb"content-length: (\d+)", head)
    assert length and int(length.group(1)) == len(got.split(b"\r\n\r\n", 1)[1]) > 0
    assert _has_security_headers(head)


@pytest.mark.parametrize("host", ["[::1]evil.example", "localhost:evil", "[::1]:evil", "localhost:", "[::1",
                                  "127.0.0.1:80:80", "localhost:123456", "localhost evil", "[evil]:80"])
def test_a_host_is_a_name_and_a_numeric_port(client: TestClient, host: str) -> None:
    response = client.get("/api/systems", headers={"Host": host})
    assert response.status_code == 400 and "--allow-host" in response.text, host


def test_one_address_holds_at_most_its_share_of_the_connections(tmp_path: Path) -> None:
    """127 connections that send nothing from one address: 32 are held, the newest (each one over makes room by
    closing the one of its address that has waited longest, without an answer), and a client at another
    address is served meanwhile. Once an address's 32 are busy with requests sent whole, one more from it is
    refused at once (503, the security headers, the reason); once every place is busy so, uvicorn's 503 says
    why with the same headers. A connection closed gives its address's place back. (The deadlines are long
    here: nothing is closed for being slow.)"""
    import select

    with Tuned(tmp_path / "web.db", header_seconds=120, body_seconds=120) as server:
        slow = [_connect(server.port, "127.0.0.2") for _ in range(127)]
        assert b"HTTP/1.1 200" in _ask(server.port, GET)  # accepted after all of them: they have been seen to
        closed = [conn for conn in slow if select.select([conn], [], [], 0)[0]]
        assert closed == slow[:-32]
        assert all(_until_closed(conn, b"") == b"" for conn in closed)
        held = slow[-32:]
        assert not select.select(held, [], [], 0)[0]  # still open, the normal client served beside them

        for conn in held:  # each now busy with a request sent whole but its body
            conn.sendall(SLOW_BODY)
        assert b"HTTP/1.1 200" in _ask(server.port, GET)
        refused = _until_closed(_connect(server.port, "127.0.0.2"), b"")
        assert refused.startswith(b"HTTP/1.1 503") and b"at most 32" in refused and _has_security_headers(refused)

        others = [_connect(server.port, f"127.0.0.{n}") for n in (3, 4, 5) for _ in range(32)]  # 128 in all
        for conn in others:
            conn.sendall(SLOW_BODY)
        busy = _ask(server.port, b"GET /api/systems HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert busy.startswith(b"HTTP/1.1 503") and _has_security_headers(busy)
        assert "busy" in json.loads(busy.split(b"\r\n\r\n", 1)[1])["error"]

        for conn in held + others:
            conn.close()
        assert b"HTTP/1.1 200" in _served_again(server.port, "127.0.0.2")


# A request whose headers are whole and whose body is still to come: it holds its place, busy.
SLOW_BODY = (b"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             b"Content-Length: 99\r\n\r\n{")


def _served_again(port: int, source: str) -> bytes:
    """A request from `source`, asked again until its address has a place (the server sees closed connections
    soon, not at once)."""
    import time

    until = time.monotonic() + WAIT
    while time.monotonic() < until:
        with contextlib.suppress(ConnectionError):
            answer = _ask(port, GET, source)
            if not answer.startswith(b"HTTP/1.1 503"):
                return answer
        time.sleep(0.1)
    raise AssertionError(f"{source} still refused after {WAIT:.0f} s")


SITES = [("cross-site", "navigate", "document"), ("cross-site", "navigate", "iframe"),
         ("cross-site", "no-cors", "image"), ("cross-site", "cors", "empty"), ("same-site", "navigate", "iframe"),
         ("same-site", "navigate", "document"), ("cross-site", "navigate", "object")]


def _fetched(site: str, mode: str, dest: str) -> dict[str, str]:
    return {"Sec-Fetch-Site": site, "Sec-Fetch-Mode": mode, "Sec-Fetch-Dest": dest}


def test_another_site_gets_the_pages_alone_and_in_a_tab(client: TestClient) -> None:
    """Hidden frames are navigations: 24 frames on another site drew 24 plots. A request another site's page
    makes is refused (403) for everything that is not a page, whatever the fetch mode: pictures, plots,
    downloads, the play panel, the live stream, the API; and a page is refused in a frame. A link opens a
    page in a tab; the app's own pages, an address typed in, and a client naming no site (a program, an old
    browser) get everything."""
    session = new(client, "zombstone-duel")
    play = f"/play/{session['id']}"
    resources = ["/zombstone/odds.png?potential=2", "/zombstone/duel.png?attacker=1&defender=2", f"{play}/export.svg",
                 f"{play}/log.txt", f"{play}/panel", f"{play}/live", f"/api/sessions/{session['id']}/export/png",
                 "/api/zombstone/odds?potential=2", "/api/sessions", "/static/style.css", "/favicon.ico"]
    pages = ["/", "/zombstone?potential=2&attacker=1&defender=2", play, f"{play}/log", "/sessions", "/upload",
             "/new/crawler", "/permalink/crawler?seed=1", "/lang/en?next=/", f"/join/{session['id']}/{'x' * 32}"]
    for path in resources:
        for site in SITES:
            response = client.get(path, headers=_fetched(*site))
            assert response.status_code == 403 and "another site" in response.text, (path, site)
        response = client.get(path, headers={"Referer": f"{EVIL}/frames.html"})  # an old browser's frame
        assert response.status_code == 403, path
    for path in pages:  # a seat link sent in a chat opens from another site (this one's token is wrong: a 403)
        for site in SITES:
            in_a_tab = site[1:] == ("navigate", "document")
            response = client.get(path, headers=_fetched(*site))
            assert (response.status_code == 403 and "another site" in response.text) is not in_a_tab, (path, site)
        assert "another site" not in client.get(path, headers={"Referer": f"{EVIL}/links.html"}).text, path
    for path in (p for p in resources if not p.endswith("/live")):  # the live stream would go on for minutes
        for headers in (_fetched("same-origin", "no-cors", "image"), _fetched("none", "navigate", "document"),
                        {"Referer": f"{BASE}/zombstone"}, {}):
            assert client.get(path, headers=headers).status_code == 200, (path, headers)


def test_a_browser_naming_no_site_needs_a_value_the_server_issued_for_its_work(client: TestClient) -> None:
    """On a plain-http network address (`--host 0.0.0.0`) a browser sends no Sec-Fetch headers, and another
    page may hide its Referer: a browser's request naming no site then needs, for anything but a page or the
    app's own files, the fetch token the app's pages put in the addresses they ask for (`k`, signed for the
    browser's cookie), or htmx's form token. A cookie alone is not enough: a page on another port of the same
    host shares the host's cookies (it made the server draw 3 CPU-seconds of plots), and may plant one of any
    value, for which it cannot sign. A program (no browser's User-Agent) still needs nothing."""
    session = new(client, "zombstone-duel")
    play = f"/play/{session['id']}"
    browser = {"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0"}
    del client.headers["X-CSRF-Token"]  # a picture, a download, a stream: no header of the app's pages
    page = client.get(play).text
    fetch = re.search(r'export\.json\?k=([0-9a-f]+)"', page).group(1)  # type: ignore[union-attr]
    assert f"k={fetch}" in client.get("/zombstone?potential=2").text  # the plots' addresses carry it
    cookie = client.cookies.get(csrf.COOKIE)
    assert cookie, "the app's pages gave this browser its cookie"
    for path in ("/zombstone/odds.png?potential=2", f"{play}/export.svg", f"{play}/panel", "/api/sessions"):
        signed = f"{path}{'&' if '?' in path else '?'}k={fetch}"
        refused = client.get(path, headers=browser)  # its own cookie, no value issued for it: another port's page
        assert refused.status_code == 403 and "another site" in refused.text, path
        assert client.get(signed, headers=browser).status_code == 200, path  # the app's own page asked
        assert client.get(path, headers={"User-Agent": "curl/8.5.0"}).status_code == 200, path
        client.cookies.set(csrf.COOKIE, "A" * 22)  # planted: a value the planter chose, and its token elsewhere
        assert client.get(signed, headers=browser).status_code == 403, path
        assert client.get(f"{path}{'&' if '?' in path else '?'}k={'0' * 32}", headers=browser).status_code == 403
        client.cookies.set(csrf.COOKIE, cookie)
    for path in ("/", play, "/sessions", "/static/style.css", "/favicon.ico"):  # a page, typed in; its files
        assert client.get(path, headers=browser).status_code == 200, path


def test_the_live_update_limit_is_one_for_the_server_and_holds_against_a_burst(tmp_path: Path) -> None:
    """The limit was checked when a stream was asked for and counted once it ran: a burst all found room
    (37 of 32 were served). A place is now taken as it is checked, and given back however the stream ends."""
    import asyncio

    async def burst(app: Any, session_id: str, count: int) -> tuple[list[int], int]:
        gone = asyncio.Event()
        statuses: list[int] = []

        async def receive() -> dict[str, Any]:
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                statuses.append(message["status"])

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
                 "scheme": "http", "path": f"/play/{session_id}/live", "raw_path": b"", "query_string": b"",
                 "root_path": "", "headers": [(b"host", b"127.0.0.1")], "server": ("127.0.0.1", 80)}
        # from addresses of their own: one client's share of the places is another test's
        watchers = [asyncio.create_task(app({**scope, "client": (f"127.0.1.{n}", 1)}, receive, send))
                    for n in range(count)]
        for _ in range(int(WAIT * 10)):
            if len(statuses) == count:
                break
            await asyncio.sleep(0.1)
        still = app.state.watchers.taken
        gone.set()
        await asyncio.wait_for(asyncio.gather(*watchers), WAIT)
        return statuses, still

    async def run() -> None:
        app = create_app(tmp_path / "web.db")
        async with app.router.lifespan_context(app):
            session_id = service.create(app.state.sessions, "crawler", {}, 1, False, "en")
            statuses, held = await burst(app, session_id, service.MAX_WATCHERS + 8)
            assert sorted(statuses) == [200] * service.MAX_WATCHERS + [503] * 8
            assert held == service.MAX_WATCHERS and app.state.watchers.taken == 0  # every place given back
            statuses, _ = await burst(app, session_id, service.MAX_WATCHERS)
            assert statuses == [200] * service.MAX_WATCHERS

    asyncio.run(run())


# --- Issue 39: slow clients make room for a whole request; headers counted however they arrive ----------------
def test_slow_clients_from_many_addresses_and_the_players_own_make_room_for_a_whole_request(tmp_path: Path) -> None:
    """Slow connections from seven addresses of 127.0.0.0/8 and from 127.0.0.1, the address the player's own
    browser uses, more than the server and each address may hold (140 and 40; 64 places, 16 an address, here),
    some having sent nothing, the others part of their headers: a request sent whole, from 127.0.0.1 or from
    an address not seen yet, is still served (the slowest connections make room for it)."""
    with Tuned(tmp_path / "web.db", header_seconds=120, per_address=16, connections=64) as server:
        slow = [_connect(server.port, f"127.0.0.{2 + n % 7}") for n in range(140)]
        slow += [_connect(server.port, "127.0.0.1") for _ in range(40)]
        for n, conn in enumerate(slow):
            with contextlib.suppress(OSError):  # closed already, to make room for a later one
                conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " if n % 2 else b"")
        for source in ("127.0.0.1", "127.0.0.1", "127.0.0.9"):
            answer = _ask(server.port, GET, source)
            assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
        for conn in slow:
            conn.close()


BIG = GET[:-2] + b"X-Big: " + b"a" * 9000 + b"\r\n\r\n"  # headers past the limit (8 KiB here), for the home page
BEFORE = b"GET /api/systems HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"  # a whole request before it, on its connection
HEADS = {  # each sends a request whose headers pass the limit, and reads what the server answers
    "one large header": lambda conn: _until_closed(conn, BIG),
    "many small lines": lambda conn: _until_closed(conn, GET[:-2] + b"a: b\r\n" * 2000 + b"\r\n"),
    "a few bytes a packet": lambda conn: _dribbled(conn, BIG),
    # the next request of a kept-alive connection, sent with the end of the last one (read with it at once)
    "kept alive, at once": lambda conn: _until_closed(conn, BEFORE + BIG),
    "kept alive, in two": lambda conn: _until_closed(conn, BEFORE + BIG[:4000], BIG[4000:], 0.5),
    "pipelined behind a body": lambda conn: _until_closed(
        conn, b"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              b"Content-Length: 30000\r\n\r\n" + b" " * 29_998 + b"{}" + BIG),
}


def _dribbled(conn: socket.socket, request: bytes, size: int = 7) -> bytes:
    """`request` sent a few bytes a packet; what the server answered."""
    import time

    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for start in range(0, len(request), size):
        try:
            conn.sendall(request[start:start + size])
        except OSError:  # refused before the end
            break
        if start % (size * 64) == 0:
            time.sleep(0.001)
    answer = b""
    with conn, contextlib.suppress(ConnectionResetError):  # reset: closed with bytes of ours unread
        while chunk := conn.recv(65536):
            answer += chunk
    return answer


@pytest.fixture(scope="module")
def small_heads(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server taking headers of 8 KiB at most."""
    with Tuned(tmp_path_factory.mktemp("heads") / "web.db", head_bytes=8192, header_seconds=30) as running:
        yield running


@pytest.mark.parametrize("way", list(HEADS))
def test_the_header_limit_holds_however_the_headers_arrive(small_heads: Server, way: str) -> None:
    """Headers were counted as their bytes arrived, and checked once parsed: headers sent whole in one write
    (up to the 256 KiB the server reads at once) were served before they were found too long, and a kept-alive
    connection's next request, read with the end of the last one, was not counted. Past the limit, however the
    headers come, the request is refused (431, the security headers, the limit named) or the connection
    closed: the home page it asks for is never served."""
    answer = HEADS[way](_connect(small_heads.port))
    assert b"<!doctype html>" not in answer, answer[:600]
    refusal = answer[answer.find(b"HTTP/1.1 431"):]
    assert b"HTTP/1.1 431" not in answer or (_has_security_headers(refusal) and b"at most 8 KiB" in refusal)
    assert b"HTTP/1.1 200" in _ask(small_heads.port, GET)


# --- 6. Owners, guests and spectators (issue 28) -------------------------------------------------------
# Whoever made a game owns it: the owner alone renames it, deletes it and makes its links; a player chooses; a
# spectator watches. The owner is known by its browser (the page that made the game) or by the owner's token
# (the API's answer, an owner link).
def _other(app: Any, address: str = "testclient", browser: bool = True) -> TestClient:
    """Another client of the same server: a browser (its own cookie and form token), or a program (none), from
    `address`."""
    other = TestClient(app, base_url=BASE, follow_redirects=False, client=(address, 50000))
    if browser:
        other.headers["X-CSRF-Token"] = page_token(other)
    return other


def _seat(token: str) -> dict[str, str]:
    return {"X-Seat-Token": token}


def _administration(session_id: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Every request that administers a session, pages and API: rename, delete, make a link of each role."""
    roles = ("player", "spectator", "seat1", "owner")
    return [("PATCH", f"/api/sessions/{session_id}", {"json": {"name": "pwned"}}),
            ("DELETE", f"/api/sessions/{session_id}", {}),
            *(("POST", f"/api/sessions/{session_id}/links", {"json": {"role": role}}) for role in roles),
            ("POST", f"/sessions/{session_id}/rename", {"data": {"name": "pwned"}}),
            ("POST", f"/sessions/{session_id}/delete", {}),
            *(("POST", f"/play/{session_id}/share", {"data": {"role": role}}) for role in roles)]


def _kept(db: Path, session_id: str) -> tuple[Any, ...]:
    """What administering a session changes: its name and seating, its links and its owners."""
    with contextlib.closing(sqlite3.connect(db)) as file:
        return (file.execute("SELECT name, seating FROM sessions WHERE id = ?", (session_id,)).fetchone(),
                *(file.execute(query, (session_id,)).fetchall() for query in (
                    "SELECT seat, token FROM seats WHERE session = ? ORDER BY rowid",
                    "SELECT digest FROM owners WHERE session = ? ORDER BY digest")))


def _refused(client: TestClient, db: Path, session_id: str, headers: dict[str, str] | None = None) -> None:
    """Every administration of the session is a 403 naming the owner (a page's form sent by a program has no
    form token: refused for that first), and changes nothing."""
    before = _kept(db, session_id)
    for method, path, options in _administration(session_id):
        answer = client.request(method, path, headers=headers or {}, **options)
        assert answer.status_code == 403, (method, path, answer.status_code)
        assert "owner" in answer.text or ("X-CSRF-Token" not in client.headers and not path.startswith("/api/")), path
    assert _kept(db, session_id) == before and before[0] is not None


def _shares(html: str) -> list[str]:
    return re.findall(r'name="role" value="([^"]+)"', html)


def _may_rename(listing: str, session_id: str) -> bool:
    return f"/sessions/{session_id}/rename" in listing and f"/sessions/{session_id}/delete" in listing


def test_a_co_op_players_link_chooses_and_never_administers(client: TestClient, tmp_path: Path) -> None:
    """A crawl's "player" link opened seat 0, and with it renaming, deleting and sharing the host's game (a
    guest's DELETE was a 204): the guest now chooses, and every administration is refused, link or no link."""
    session_id = new(client, seed=None)["id"]
    player = client.post(f"/api/sessions/{session_id}/links", json={"role": "player"}).json()["token"]
    guest = _other(client.app)
    assert guest.get(f"/join/{session_id}/{player}").status_code == 303
    state = guest.get(f"/api/sessions/{session_id}").json()
    assert state["seat"] == 0 and state["choices"]
    assert guest.post(f"/play/{session_id}/step", data={"choice": state["choices"][0]["id"]}).status_code == 303
    assert guest.post(f"/api/sessions/{session_id}/undo").status_code == 200  # the players share one side
    _refused(guest, tmp_path / "web.db", session_id)
    _refused(guest, tmp_path / "web.db", session_id, _seat(player))  # a program holding the link: the same
    assert _shares(guest.get(f"/play/{session_id}").text) == []
    assert not _may_rename(guest.get("/sessions").text, session_id)
    # the owner's browser does all of it
    assert _shares(client.get(f"/play/{session_id}").text) == ["player", "spectator", "spectator_gm", "owner"]
    assert _may_rename(client.get("/sessions").text, session_id)
    assert client.post(f"/api/sessions/{session_id}/links", json={"role": "spectator"}).status_code == 201
    assert client.patch(f"/api/sessions/{session_id}", json={"name": "Host's"}).json()["name"] == "Host's"
    assert client.delete(f"/api/sessions/{session_id}").status_code == 204


@pytest.mark.parametrize("made_by", ["page", "api"])
def test_a_stranger_can_neither_share_a_solo_game_nor_lock_its_owner_out(client: TestClient, tmp_path: Path,
                                                                          made_by: str) -> None:
    """Anyone reaching the server could make a link of someone else's solo game, take seat 0, and leave the
    owner a 403. Now only the owner makes links. A solo game is still played by whoever reaches the server
    (pages of other sites are refused by the guard and the form token: see above)."""
    owner = client if made_by == "page" else _other(client.app, browser=False)
    if made_by == "page":
        session_id, token = started(client, "crawler"), None
    else:
        made = owner.post("/api/sessions", json={"system": "crawler"}).json()
        session_id, token = made["id"], made["owner_token"]
    for stranger in (_other(client.app), _other(client.app, browser=False)):
        _refused(stranger, tmp_path / "web.db", session_id)
        _refused(stranger, tmp_path / "web.db", session_id, _seat("not-the-owners-token"))
        state = stranger.get(f"/api/sessions/{session_id}").json()
        assert stranger.post(f"/api/sessions/{session_id}/step",
                             json={"choice": state["choices"][0]["id"]}).status_code == 200
    assert _kept(tmp_path / "web.db", session_id)[0][1] == "solo"
    mine = _seat(token) if token else {}
    assert owner.get(f"/api/sessions/{session_id}", headers=mine).status_code == 200
    link = owner.post(f"/api/sessions/{session_id}/links", json={"role": "player"}, headers=mine)
    assert link.status_code == 201
    assert owner.get(f"/api/sessions/{session_id}", headers=mine).json()["seat"] == 0  # still the owner's game


def test_the_api_gives_the_owners_token_once_and_keeps_only_its_hash(client: TestClient, tmp_path: Path) -> None:
    program = _other(client.app, browser=False)
    made = program.post("/api/sessions", json={"system": "zombstone-duel", "seating": "linked"}).json()
    session_id, token = made["id"], made["owner_token"]
    assert len(token) >= 22 and made["owner_url"] == f"/join/{session_id}/{token}" and made["seat"] == 0
    assert made["seat_token"] == token  # a linked game's seat 0: the owner's
    assert program.get(f"/api/sessions/{session_id}").status_code == 403  # a linked game: no token, no game
    shown = program.get(f"/api/sessions/{session_id}", headers=_seat(token)).json()
    assert shown["seat"] == 0 and "owner_token" not in shown
    other = program.post(f"/api/sessions/{session_id}/links", json={"role": "seat1"}, headers=_seat(token)).json()
    assert program.get(f"/api/sessions/{session_id}", headers=_seat(other["token"])).json()["seat"] == 1
    _refused(program, tmp_path / "web.db", session_id, _seat(other["token"]))  # the other player: no owner
    with contextlib.closing(sqlite3.connect(tmp_path / "web.db")) as file:
        kept = json.dumps([file.execute(f"SELECT * FROM {table}").fetchall() for table in ("seats", "owners")])
    assert token not in kept and other["token"] not in kept and client.cookies["dedale_browser"] not in kept
    schema = client.get("/openapi.json").json()
    for path in ("/api/sessions", "/api/upload"):
        answer = schema["paths"][path]["post"]["responses"]["201"]["content"]["application/json"]["schema"]
        assert answer["$ref"].endswith("/Created"), path
    assert {"id", "owner_token", "owner_url"} <= set(schema["components"]["schemas"]["Created"]["required"])
    document = client.get(f"/api/sessions/{new(client, seed=None)['id']}/export/json").json()
    uploaded = program.post("/api/upload", json=document)
    assert program.patch(f"/api/sessions/{uploaded.json()['id']}", json={"name": "mine"},
                         headers=_seat(uploaded.json()["owner_token"])).status_code == 200


def test_an_owner_link_makes_another_browser_an_owner(client: TestClient, tmp_path: Path) -> None:
    """Shown once, on the page that made it; opened in another browser (even one that never saw the app), it
    makes that browser an owner, and seat 0 of a linked game. A seat's link gives no such right."""
    session_id = started(client, "zombstone-duel", seating="linked")
    made = client.post(f"/play/{session_id}/share", data={"role": "owner"})
    assert made.status_code == 303 and "role=owner" in made.headers["location"]
    page = client.get(made.headers["location"]).text
    assert "Keep this link to yourself" in page
    link = re.search(r'value="http://127\.0\.0\.1(/join/[^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert "Keep this link" not in client.get(f"/play/{session_id}").text  # shown once
    fresh = _other(client.app, browser=False)  # no cookie at all yet
    opened = fresh.get(link)
    assert opened.status_code == 303 and "dedale_ring_" in opened.headers["set-cookie"]
    fresh.headers["X-CSRF-Token"] = page_token(fresh)
    assert "Waiting for the other player" in fresh.get(f"/play/{session_id}").text  # nothing dealt yet
    assert _shares(fresh.get(f"/play/{session_id}").text) == ["seat1", "owner"]
    assert fresh.post(f"/sessions/{session_id}/rename", data={"name": "Ours"}).status_code == 303
    seat1 = fresh.post(f"/api/sessions/{session_id}/links", json={"role": "seat1"}).json()["url"]
    guest = _other(client.app)
    assert guest.get(seat1).status_code == 303 and "you are player 2" in guest.get(f"/play/{session_id}").text
    assert "you are player 1" in fresh.get(f"/play/{session_id}").text
    assert _shares(fresh.get(f"/play/{session_id}").text) == ["seat1", "spectator", "owner"]
    _refused(guest, tmp_path / "web.db", session_id)
    assert guest.get(f"/join/{session_id}/{'x' * 32}").status_code == 403
    assert _kept(tmp_path / "web.db", session_id)[0][0] == "Ours"
    assert client.delete(f"/api/sessions/{session_id}").status_code == 204  # the first owner is one still


def test_an_owner_opening_a_link_of_its_own_game_keeps_its_seat_and_rights(client: TestClient) -> None:
    session_id = new(client, seed=None)["id"]
    watch = client.post(f"/api/sessions/{session_id}/links", json={"role": "spectator"}).json()["url"]
    assert client.get(watch).status_code == 303
    state = client.get(f"/api/sessions/{session_id}").json()
    assert state["seat"] == 0 and state["choices"]
    assert client.patch(f"/api/sessions/{session_id}", json={"name": "Still mine"}).status_code == 200


def test_a_game_on_one_screen_has_an_owner_link_and_no_other(client: TestClient, tmp_path: Path) -> None:
    session_id = started(client, "zombstone-duel", seed="4", seating="hot-seat")
    assert _shares(client.get(f"/play/{session_id}").text) == ["owner"]
    assert client.post(f"/api/sessions/{session_id}/links", json={"role": "spectator"}).status_code == 400
    assert client.post(f"/api/sessions/{session_id}/links", json={"role": "owner"}).status_code == 201
    _refused(_other(client.app), tmp_path / "web.db", session_id)


def _digest(token: str) -> str:
    import hashlib

    return hashlib.sha256(token.encode()).hexdigest()


def test_sessions_saved_before_owners_open_and_who_administers_them(tmp_path: Path) -> None:
    """A file written before sessions had owners: its linked games are owned by their first seat-0 token (the
    creator's, who made or shared the game), the co-op players' later ones only play; its other games have no
    owner, and are administered from the server's machine alone, until a link made there gives them one."""
    db = tmp_path / "old.db"
    with web_client(db) as first:
        crawl, solo, other = (new(first, seed=None)["id"] for _ in range(3))
    creator, player, watcher = (f"token-{n}-" + "x" * 24 for n in range(3))
    with contextlib.closing(sqlite3.connect(db)) as file, file:  # as a server before owners left it
        file.execute("DROP TABLE owners")
        file.execute("UPDATE sessions SET seating = 'linked' WHERE id = ?", (crawl,))
        file.executemany("INSERT INTO seats VALUES (?, ?, ?)",
                         [(crawl, 0, _digest(creator)), (crawl, 0, _digest(player)), (crawl, -1, _digest(watcher))])
    app = create_app(db)
    with TestClient(app, base_url=BASE, follow_redirects=False) as network:  # another machine
        for token, seat in ((creator, 0), (player, 0), (watcher, -1)):
            assert network.get(f"/api/sessions/{crawl}", headers=_seat(token)).json()["seat"] == seat
        _refused(network, db, crawl, _seat(player))
        renamed = network.patch(f"/api/sessions/{crawl}", json={"name": "Old crawl"}, headers=_seat(creator))
        assert renamed.status_code == 200
        for session_id in (solo, other):
            state = network.get(f"/api/sessions/{session_id}").json()
            assert network.post(f"/api/sessions/{session_id}/step",
                                json={"choice": state["choices"][0]["id"]}).status_code == 200
            _refused(network, db, session_id)
            _refused(_other(app), db, session_id)
        assert not _may_rename(_other(app).get("/sessions").text, solo)
        here = _other(app, "::ffff:127.0.0.1")  # 127.0.0.1 reaching a server on "::"
        assert _may_rename(here.get("/sessions").text, solo) and not _may_rename(here.get("/sessions").text, crawl)
        assert here.patch(f"/api/sessions/{solo}", json={"name": "Renamed here"}).status_code == 200
        assert here.post(f"/play/{solo}/share", data={"role": "spectator"}).status_code == 303  # now its owner
        _refused(_other(app, "127.0.0.1"), db, solo)  # another browser of this machine
        assert here.delete(f"/api/sessions/{solo}").status_code == 204
        program = _other(app, "::1", browser=False)
        first_link = program.post(f"/api/sessions/{other}/links", json={"role": "player"})
        assert first_link.status_code == 403 and "owner link first" in first_link.json()["error"]
        token = program.post(f"/api/sessions/{other}/links", json={"role": "owner"}).json()["token"]
        _refused(program, db, other)
        assert program.post(f"/api/sessions/{other}/links", json={"role": "player"},
                            headers=_seat(token)).status_code == 201
    with contextlib.closing(sqlite3.connect(db)) as file:
        owners = file.execute("SELECT * FROM owners ORDER BY session, digest").fetchall()
    with web_client(db):  # opened again: no session changes hands
        pass
    with contextlib.closing(sqlite3.connect(db)) as file:
        assert file.execute("SELECT * FROM owners ORDER BY session, digest").fetchall() == owners
    assert (crawl, _digest(creator)) in owners and (crawl, _digest(player)) not in owners


def test_who_made_a_session_by_each_way_owns_it(client: TestClient, tmp_path: Path) -> None:
    """A game made from a form, a permalink or an upload is its browser's, and no one else's."""
    document = client.get(f"/api/sessions/{new(client, seed=None)['id']}/export/json").json()
    made = [started(client, "paper"),
            client.post("/permalink/hexcrawl", data={"seed": "5", "params": "{}"}).headers["location"].rsplit("/")[-1],
            client.post("/upload", files={"document": ("d.json", json.dumps(document), "application/json")}
                        ).headers["location"].rsplit("/")[-1]]
    for session_id in made:
        _refused(_other(client.app), tmp_path / "web.db", session_id)
        assert client.post(f"/sessions/{session_id}/rename", data={"name": "mine"}).status_code == 303


def _form_token(page: Any) -> str:
    """The token this browser's pages send with a change (htmx's header, on every page)."""
    return page.evaluate("JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRF-Token']")  # type: ignore[no-any-return]


def _opened_from_a_chat(page: Any, link: str) -> None:
    page.set_content(f'<a href="{link}">the game</a>')  # a link sent through another site: a chat, a mail
    page.click("a")
    page.wait_for_url(re.compile(r"/play/[^/?]+$"))


def _row(page: Any, session_id: str) -> Any:
    page.goto("/sessions")
    return page.locator(f"li.card:has(a[href='/play/{session_id}'])")


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="no Chromium to drive")
def test_owners_guests_and_spectators_in_a_browser(browser: Any, server: Server, tmp_path: Path) -> None:
    """What a player clicks: the host makes a crawl and shares a player's link; the guest, in a second browser,
    plays but is offered neither renaming, deleting nor sharing, and is refused them when it sends them anyway;
    the host's owner link, opened in a third browser, gives it the host's rights. Screenshots of the pages this
    changed, at a laptop's and a phone's width, go to $DEDALE_SCREENSHOTS (else tmp_path)."""
    from test_web_browser import open_page

    shots = Path(os.environ.get("DEDALE_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    laptop, phone = {"width": 1366, "height": 800}, {"width": 390, "height": 844}
    host = open_page(browser, server.url, laptop)  # type: ignore[arg-type]
    host.goto("/new/crawler")  # a random seed: a chosen seed's crawl is not shared (`tests/test_secrets.py`)
    host.click("button.primary")
    host.wait_for_url(re.compile(r"/play/[^/?]+$"))
    session_id = host.url.rsplit("/", 1)[1]
    host.click("form:has(input[value=player]) button")
    host.wait_for_url(re.compile(r"link="))
    player_link = host.input_value(".share input")

    guest = open_page(browser, server.url, phone)  # type: ignore[arg-type]
    _opened_from_a_chat(guest, player_link)
    assert guest.locator(".share").count() == 0 and guest.locator("#choices button").count()
    before = guest.locator(".status").inner_text()
    guest.locator("#choices button").first.click()
    guest.wait_for_function("s => document.querySelector('.status').innerText !== s", arg=before)
    guest.screenshot(path=str(shots / "owners-guest-play-phone.png"), full_page=True)
    row = _row(guest, session_id)
    assert row.count() == 1 and row.locator("form").count() == 0  # resume, nothing else
    guest.screenshot(path=str(shots / "owners-guest-sessions-phone.png"), full_page=True)
    token = _form_token(guest)
    for path, form in ((f"/sessions/{session_id}/rename", {"name": "pwned"}), (f"/sessions/{session_id}/delete", {}),
                       (f"/play/{session_id}/share", {"role": "player"})):
        answer = guest.request.post(path, form={**form, "csrf": token}, max_redirects=0)
        assert answer.status == 403 and "owner" in answer.text(), path

    row = _row(host, session_id)
    row.locator("input[name=name]").fill("The host's crawl")
    row.locator("form[action$=rename] button").click()
    host.wait_for_url(re.compile(r"/sessions$"))
    assert host.locator("a.name", has_text="The host's crawl").count() == 1
    host.screenshot(path=str(shots / "owners-host-sessions-laptop.png"), full_page=True)
    host.goto(f"/play/{session_id}")
    host.click("form:has(input[value=owner]) button")
    host.wait_for_url(re.compile(r"role=owner"))
    assert "Keep this link to yourself" in host.locator(".share").inner_text()
    owner_link = host.input_value(".share input")
    for size, viewport in (("laptop", laptop), ("phone", phone)):
        host.set_viewport_size(viewport)  # type: ignore[arg-type]
        host.screenshot(path=str(shots / f"owners-owner-link-{size}.png"), full_page=True)

    third = open_page(browser, server.url, laptop)  # type: ignore[arg-type]
    _opened_from_a_chat(third, owner_link)
    # a map offers two spectators: the party view's and the GM's
    assert third.locator(".share form").count() == 4 and third.locator("#choices button").count()
    third.on("dialog", lambda dialog: dialog.accept())  # "delete this game?"
    _row(third, session_id).locator("form[action$=delete] button").click()
    third.wait_for_url(re.compile(r"/sessions$"))
    assert third.locator(f"a[href='/play/{session_id}']").count() == 0
    assert guest.goto(f"/play/{session_id}").status == 404  # type: ignore[union-attr]
    for page in (host, guest, third):
        assert not [p for p in page.problems if "status of 4" not in p], page.problems

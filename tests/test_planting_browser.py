"""A game belongs to the people who made and joined it, not to a browser cookie (issue 39), tried in Chromium.

A page served from another port of the same host shares this host's cookies: it may set any cookie, of any name
and value, HttpOnly or not (a `Set-Cookie` of its own server's), which Dédale's pages are then sent. The attack of
before: it set `dedale_browser`, the cookie that owned a browser's games, to a value of its own; the player was
locked out of their own games, and the planter owned the player's next ones. Here a planter plants every cookie
name Dédale sets (its browser cookie, the player's own ring's name with another value, a ring of its own, the
language) from a page on another port; the player still owns, opens and plays their games, old and new, and the
planter owns none of them."""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from test_web_browser import CHROMIUM, open_page
from webserver import Server

pytestmark = pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="no Chromium to drive")


class Planter(BaseHTTPRequestHandler):
    """Another program's server on this host: its page sets the cookies it is told to, by its answer's headers
    (which may overwrite even an HttpOnly cookie) and by its script."""

    cookies: ClassVar[dict[str, str]] = {}  # what to plant: set by the test before the player visits

    def do_GET(self) -> None:
        self.send_response(200)
        for name, value in self.cookies.items():
            self.send_header("Set-Cookie", f"{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=86400")
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        script = "".join(f'document.cookie = "{name}={value}; path=/; max-age=86400";'
                         for name, value in self.cookies.items() if not name.startswith("dedale_ring_"))
        self.wfile.write(f"<!doctype html><p>Nothing to see</p><script>{script}</script>".encode())

    def log_message(self, *args: Any) -> None:
        """Quiet."""


@pytest.fixture
def planter() -> Iterator[str]:
    """The other port's page: its address (on 127.0.0.1, as the player's server)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    served = ThreadingHTTPServer(("127.0.0.1", port), Planter)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}/"
    served.shutdown()
    served.server_close()


def made(page: Page, system: str, **values: str) -> str:
    """A game made from its form (a linked duel waits for its guest): its id."""
    page.goto(f"/new/{system}")
    for name, value in values.items():
        page.select_option(f"select[name={name}]", value)
    page.click("button.primary")
    page.wait_for_url(re.compile(r"/play/[^/?]+$"))
    return page.url.rsplit("/", 1)[1]


def cookies(context: BrowserContext) -> dict[str, str]:
    return {cookie["name"]: cookie["value"] for cookie in context.cookies()}


def rights(page: Page, session_id: str) -> dict[str, bool]:
    """What this browser may do with a game: open it, and administer it (its row of Saved sessions)."""
    opened = page.goto(f"/play/{session_id}")
    page.goto("/sessions")
    row = page.locator(f"li.card:has(a[href='/play/{session_id}']), li.card:has(span.name)").filter(
        has=page.locator(f"form[action='/sessions/{session_id}/rename']"))
    return {"opens": opened is not None and opened.status == 200, "administers": row.count() == 1}


def test_a_planted_cookie_neither_locks_the_player_out_nor_gives_the_planter_their_games(
        browser: Browser, server: Server, planter: str) -> None:
    theirs = open_page(browser, server.url)  # the planter has games, and a ring, of its own
    their_map = made(theirs, "crawler")
    their_cookies = cookies(theirs.context)
    their_ring = next(name for name in their_cookies if name.startswith("dedale_ring_"))

    player = open_page(browser, server.url)
    before_map, before_duel = made(player, "crawler"), made(player, "zombstone-duel", seating="linked")
    mine = cookies(player.context)
    assert "dedale_browser" in mine and any(name.startswith("dedale_ring_") for name in mine)

    # every name Dédale sets: its browser cookie (the planter's value), the player's own ring (another value),
    # a ring the planter holds, the language
    Planter.cookies = {"dedale_browser": their_cookies["dedale_browser"], their_ring: "1", "lang": "en",
                       **{name: "planted" for name in mine if name.startswith("dedale_ring_")}}
    player.goto(planter)
    expect(player.locator("p")).to_have_text("Nothing to see")
    planted = cookies(player.context)
    assert planted["dedale_browser"] == their_cookies["dedale_browser"] and their_ring in planted

    # the player's games, made before: still opened, played and administered
    for session_id in (before_map, before_duel):
        assert rights(player, session_id) == {"opens": True, "administers": True}, session_id
    player.goto(f"/play/{before_map}")
    player.locator("#choices button").first.click()
    expect(player.locator("p.status")).to_contain_text("choices made: 1")
    # and those made after: the player's alone
    after_map, after_duel = made(player, "crawler"), made(player, "zombstone-duel", seating="linked")
    for session_id in (after_map, after_duel):
        assert rights(player, session_id) == {"opens": True, "administers": True}, session_id
    player.goto(f"/play/{after_duel}")
    player.click("form:has(input[value=seat1]) button")  # its link for the guest: the owner's to make
    expect(player.locator(".share input[readonly]")).to_have_value(re.compile(r"/join/"))

    # the planter: none of the player's games, before or after (a linked one is not even opened)
    for session_id in (before_map, after_map):
        assert rights(theirs, session_id)["administers"] is False, session_id
    for session_id in (before_duel, after_duel):
        assert rights(theirs, session_id) == {"opens": False, "administers": False}, session_id
    for session_id in (before_map, before_duel, after_map, after_duel):
        renamed = theirs.request.patch(f"/api/sessions/{session_id}", data={"name": "pwned"})
        shared = theirs.request.post(f"/api/sessions/{session_id}/links", data={"role": "owner"})
        assert renamed.status == 403 and shared.status == 403, session_id
    theirs.goto("/sessions")  # the player's linked games listed with no button that would refuse
    for session_id in (before_duel, after_duel):
        assert theirs.locator(f"a[href='/play/{session_id}']").count() == 0
        assert theirs.locator(f"form[action='/sessions/{session_id}/rename']").count() == 0
    assert "open the link you were given" in theirs.locator("ul.sessions").inner_text()
    assert rights(theirs, their_map)["opens"]  # its own map it still opens (solo: anyone on the server may)

"""Two people at one game, in a real browser (Debian's Chromium, Playwright, a `dedale serve` process): two
browser contexts play a poker duel and a short skirmish against each other to the end through a seat
link, each page updated live when the other plays and never holding the other's hidden cards before the
rules show them; two players on one screen pass the device; a spectator follows a co-op crawl live."""

from __future__ import annotations

import json
import math
import random
import re
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from dedale.core.cards import Card
from dedale.web import service
from test_web_browser import CHROMIUM, download, fetched, open_page
from webserver import Server, api

pytestmark = pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="no Chromium to drive")
# A bound for "never ends", not a target: the turn limit ends a skirmish in fewer clicks, however it is played
MAX_CLICKS = 1500
HURRY = ("end", "pass", "none", "no")  # choices that move a skirmish on
Picker = Callable[[list[str], random.Random], int]  # which of a page's choices (their values) a player clicks


def problems_of(page: Page) -> list[str]:
    """What the browser reported, less the missing favicon (a known 404) and answers the test asked for."""
    return [p for p in page.problems if "status of 4" not in p]  # type: ignore[attr-defined]


def start_linked(page: Page, system: str, values: dict[str, str], chosen: dict[str, str] | None = None) -> Page:
    page.goto(f"/new/{system}")
    for name, value in values.items():
        page.fill(f"input[name={name}]", value)
    for name, value in (chosen or {}).items():
        page.select_option(f"select[name={name}]", value)
    page.select_option("select[name=seating]", "linked")
    page.click("button.primary")
    page.wait_for_url(re.compile(r"/play/[^/?]+$"))
    return page


def invite(page: Page, browser: Browser, server: Server, role: str) -> Page:
    """The link the first page makes for `role`, opened in a second browser context."""
    page.click(f"form:has(input[value={role}]) button")
    page.wait_for_url(re.compile(r"link="))
    link = page.input_value(".share input")
    other = open_page(browser, server.url)
    other.set_content(f'<a href="{link}">the game</a>')  # sent through another site: a chat, a mail
    other.click("a")
    other.wait_for_url(re.compile(r"/play/[^/?]+$"))
    if role == "seat1":  # the other player sat down: the game is dealt, and the first page, waiting, shows it
        expect(page.locator(".status")).to_contain_text("you are player 1", timeout=LIVE_WAIT)
    return other


def status(page: Page) -> str:
    return page.locator(".status").inner_text()


def hole_cards_of(page: Page, session_id: str) -> list[str]:
    """This page's own hole cards, as its seat's download gives them."""
    document = fetched(page, f"/play/{session_id}/export.json").json()
    return [code for code in document["duel"]["hole"][0 if "player 1" in status(page) else 1] if code != "??"]


def duel_cards(page: Page, where: str = "html") -> list[str]:
    """The cards written on the page (or in its part `where`), as codes (KD) or as drawn (K♦), each standing
    on its own."""
    html = "".join(page.locator(where).evaluate_all("nodes => nodes.map(n => n.outerHTML)"))
    return [code for code in CODES
            if any(re.search(rf"(?<![\w#]){re.escape(word)}(?!\w)", html) for word in (code, Card.parse(code).shown))]


# How long a page may take to show the other seat's move: only a page that never shows it fails (about 0.1 s on
# loopback; the figure is no target, a busy machine may take far longer).
LIVE_WAIT = 60_000
CODES = [f"{rank}{suit}" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
         for suit in "HDSC"]


def at_random(values: list[str], rng: random.Random) -> int:
    """Mostly what moves the game on (ending an activation, passing), else any choice."""
    ending = [i for i, value in enumerate(values) if value.startswith(HURRY)]
    return ending[0] if ending and rng.random() < 0.8 else rng.randrange(len(values))


def play_against(first: Page, second: Page, rng: random.Random, check: Any = None, pick: Picker = at_random) -> int:
    """The two pages play until the game ends: the one with choices clicks one (`pick`), the other must show
    the move without being reloaded. How many moves the other page showed live."""
    shown = 0
    for _ in range(MAX_CLICKS):
        if check is not None:
            check()
        mine = [p for p in (first, second) if p.locator("#choices button").count()]
        if not mine:
            if "Finished" in status(first):
                return shown
            first.wait_for_timeout(100)
            continue
        me = mine[0]
        other = second if me is first else first
        before = status(other)
        buttons = me.locator("#choices button")
        picked = pick(buttons.evaluate_all("buttons => buttons.map(b => b.value)"), rng)
        folded = buttons.nth(picked).locator("xpath=ancestor::details[not(@open)]/summary")
        if folded.count():  # a long list folds its choices into groups (issue 30): open the one holding it
            folded.click()
        buttons.nth(picked).click()
        try:
            other.wait_for_function("s => document.querySelector('.status').innerText !== s", arg=before,
                                    timeout=LIVE_WAIT)
        except Exception as error:
            raise AssertionError(f"no live update: {before!r} still; the player's page: {status(me)!r}, "
                                 f"{me.locator('#choices button').count()} choices") from error
        shown += 1
    raise AssertionError("the game never ended")


def test_two_browsers_play_a_duel_to_the_end(browser: Browser, server: Server) -> None:
    first = start_linked(open_page(browser, server.url), "zombstone-duel", {})
    session_id = first.url.rsplit("/", 1)[1]
    second = invite(first, browser, server, "seat1")
    assert "you are player 2" in status(second)
    own = {id(first): hole_cards_of(first, session_id), id(second): hole_cards_of(second, session_id)}
    assert len(own[id(first)]) == len(own[id(second)]) == 2

    def neither_sees_the_others() -> None:
        if "Finished" in status(first):
            return
        for page, other in ((first, second), (second, first)):
            assert not set(own[id(other)]) & set(duel_cards(page)), "a page shows the other's hole cards"

    assert play_against(first, second, random.Random(11), neither_sees_the_others)
    for page in (first, second):
        assert not problems_of(page)
    # a browser without the link sees nothing of the game
    stranger = open_page(browser, server.url)
    assert stranger.goto(f"/play/{session_id}").status == 403  # type: ignore[union-attr]


ATTACKS = ("shoot:", "aim:", "melee:")  # an attack's value names its target: shoot:6
MIDDLE = (15, 15)  # the middle of High Noon's Main Street, between the two bands


def for_a_quick_end(stars: set[int]) -> Picker:
    """How the skirmish's two players play so that a Star falls soon (the game ends when a side has lost all
    its Stars): an attack (a shot or a melee) when there is one, on a Star if it can, a move to the middle of Main
    Street, and of a reroll's keeps the one its page lists last (the worst odds: a defence or a Guts test failed, a
    figure hit or fled); else at random. A game for two browsers takes no chosen seed: the web draws a long
    one (`docs/secrets.md`), so no test fixes its dice: over 300 games, these clicks took a median of 95 (9 in 10
    under 240, the most 527), where clicking at random plays the 14 turns out (a median of 548 over 100)."""
    def pick(values: list[str], rng: random.Random) -> int:
        attacks = [i for i, value in enumerate(values) if value.startswith(ATTACKS)]
        if attacks:
            return rng.choice([i for i in attacks if int(values[i].split(":")[1]) in stars] or attacks)
        if values[0].startswith("keep:"):
            return len(values) - 1
        moves = [i for i, value in enumerate(values) if value.startswith("move:")]
        if moves:
            return min(moves, key=lambda i: math.dist(MIDDLE, [float(v) for v in values[i][5:].split(",")]))
        return at_random(values, rng)
    return pick


def test_two_browsers_play_a_short_skirmish_to_the_end(browser: Browser, server: Server) -> None:
    # High Noon: the poker duel at its opening is played by the two people too
    first = start_linked(open_page(browser, server.url), "zombstone", {}, {"scenario": "high_noon"})
    session_id = first.url.rsplit("/", 1)[1]
    second = invite(first, browser, server, "seat1")
    start = fetched(first, f"/play/{session_id}/export.json").json()
    stars = {f["id"] for f in start["game"]["figures"] if start["profiles"][f["profile"]]["status"] == "star"}
    duelled = []

    def the_duel_hides_each_hand_from_the_other() -> None:
        if duelled and duelled[-1] == "over":
            return  # the duel opens the game: once its first turn has begun, there is no duel left to check
        views = [fetched(page, f"/play/{session_id}/export.json").json() for page in (first, second)]
        if views[0]["game"]["turn"] >= 1:
            duelled.append("over")
            return
        duel = [(view.get("waiting") or {}).get("about", {}).get("duel") for view in views]
        if duel[0] is None:
            return
        duelled.append("seen")
        for seat, page in ((0, first), (1, second)):
            own = [code for code in duel[seat]["hole"][seat] if code != "??"]
            other = second if page is first else first
            # the duel's table and its log lines (inspiration cards, another deck, may show the same cards)
            shown = set(duel_cards(other, "#board")) | set(duel_cards(other, ".log li:has-text('hole card')"))
            assert len(own) == 2 and not set(own) & shown, "a page shows the other's cards"
            assert set(own) <= set(duel_cards(page, "#board"))  # its own, on its own table

    shown = play_against(first, second, random.Random(3), the_duel_hides_each_hand_from_the_other,
                         for_a_quick_end(stars))
    assert "seen" in duelled  # the duel was played on its table, by the two
    assert shown and "Finished" in status(second)
    no_problems_but_favicon(first, second)


def no_problems_but_favicon(*pages: Page) -> None:
    for page in pages:
        assert not problems_of(page), problems_of(page)


def test_two_players_on_one_screen_pass_the_device(browser: Browser, server: Server) -> None:
    page = open_page(browser, server.url)
    page.goto("/new/zombstone-duel")
    page.fill("input[name=seed]", "12")
    page.select_option("select[name=seating]", "hot-seat")
    page.click("button.primary")
    page.wait_for_url(re.compile(r"/play/"))
    for _ in range(MAX_CLICKS):
        if "Finished" in page.content():
            break
        ready = page.locator(".pass a.button")
        assert ready.count() == 1, "between turns, the pass-the-device screen"
        assert page.locator("#board").count() == 0 and not duel_cards(page)  # nothing of either hand
        ready.click()
        page.wait_for_selector("#choices button")
        page.locator("#choices button").first.click()
        page.wait_for_load_state()
        page.wait_for_timeout(150)
    assert "Finished" in page.content()
    no_problems_but_favicon(page)


def test_a_spectator_follows_a_co_op_crawl_live(browser: Browser, server: Server, tmp_path: Path) -> None:
    """The spectator sees the party view, live, and downloads nothing else (issue 30: it opened the GM's)."""
    player = open_page(browser, server.url)
    player.goto("/new/crawler")  # a random seed: a chosen seed's crawl is not shared (`tests/test_secrets.py`)
    player.click("button.primary")
    player.wait_for_url(re.compile(r"/play/[^/?]+$"))
    spectator = invite(player, browser, server, "spectator")
    helper = invite(player, browser, server, "player")
    assert spectator.locator("#choices button").count() == 0 and "watching" in status(spectator)
    for page in (player, helper):  # either player may choose; the spectator sees each move without reloading
        before = status(spectator)
        page.goto(page.url.split("?")[0])
        page.locator("#choices button").first.click()
        spectator.wait_for_function("s => document.querySelector('.status').innerText !== s", arg=before,
                                    timeout=LIVE_WAIT)
    assert spectator.locator("nav.views").count() == 0 and "watching" in status(spectator)
    document = json.loads(download(spectator, "json", tmp_path).read_text(encoding="utf-8"))
    assert document["view"] == "party" and document["log"] == [] and "secret" not in document
    assert all(room["contents"] is None for room in document["rooms"])
    no_problems_but_favicon(player, spectator, helper)


def _live_places_taken(server: Server, session_id: str) -> list[socket.socket]:
    """Every place among the pages following games live, taken by streams of a game of this screen (as a
    program could), from addresses of their own (the player's browser keeps 127.0.0.1's connections): the
    streams, to close."""
    taken: list[socket.socket] = []
    request = f"GET /play/{session_id}/live HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nConnection: close\r\n\r\n"
    for n in range(2 * service.MAX_WATCHERS):  # a client's share on each address, until no place is left
        conn = socket.socket()
        conn.settimeout(60)
        conn.bind((f"127.0.0.{2 + n // service.WATCHER_SHARE}", 0))
        conn.connect(("127.0.0.1", server.port))
        conn.sendall(request.encode())
        answer = conn.recv(4096)
        if answer.startswith(b"HTTP/1.1 200"):
            taken.append(conn)
            continue
        with conn:  # a refusal: read to its end
            while chunk := conn.recv(4096):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 503") and b"following games live" in answer, answer[:300]
        return taken
    raise AssertionError("the live places were never all taken")


def test_a_page_refused_a_live_place_keeps_up_by_asking(browser: Browser, server: Server) -> None:
    """The server follows a limited number of pages live: a program (or many tabs) can take every place. A page
    then refused one (503) asks for the game's revision every 2 s: the second player's page shows each
    move made in the first's, without being reloaded."""
    player = open_page(browser, server.url)
    player.goto("/new/crawler")
    player.click("button.primary")
    player.wait_for_url(re.compile(r"/play/[^/?]+$"))
    player.click("form:has(input[value=player]) button")
    player.wait_for_url(re.compile(r"link="))
    link = player.input_value(".share input")
    elsewhere = api(server.url, "POST", "/api/sessions", {"system": "crawler"})["id"]
    taken = _live_places_taken(server, elsewhere)
    try:
        helper = open_page(browser, server.url)
        answered: list[tuple[str, int]] = []
        helper.on("response", lambda response: answered.append((response.url.rsplit("/", 1)[1].split("?")[0],
                                                                response.status)))
        helper.goto(link)
        helper.wait_for_url(re.compile(r"/play/[^/?]+$"))
        for page in (player, helper, player):
            other = helper if page is player else player
            before = status(other)
            page.goto(page.url.split("?")[0])
            page.locator("#choices button").first.click()
            other.wait_for_function("s => document.querySelector('.status').innerText !== s", arg=before,
                                    timeout=LIVE_WAIT)
        assert ("live", 503) in answered and ("revision", 200) in answered, answered  # refused a place, it asked
    finally:
        for conn in taken:
            conn.close()

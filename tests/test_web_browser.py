"""The web app in a real browser: Debian's Chromium driven by Playwright against a `dedale serve` process.

Each system is played to the end by clicking (htmx swapping the play panel), its download checked; the
key-lock regeneration, table mode, undo and the autopilot step, the Zombstone calculator, the language
switch, the upload, resuming after a server restart, and the phone width. Screenshots go to
$DEDALE_SCREENSHOTS when set (to look at them), else to the test's tmp_path.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import APIResponse, Browser, Locator, Page, ViewportSize, expect

from conftest import CHROMIUM
from dedale.core.seeds import check_seed
from webserver import Server, api

LAPTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
MAX_CLICKS = 200  # every session here ends in far fewer; a cap so that a bug fails instead of hanging

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} to drive")


# --- fixtures (the server and the browser: conftest.py) ------------------------------------------------------
def open_page(browser: Browser, base_url: str, viewport: ViewportSize = LAPTOP) -> Page:
    """A fresh context (no cookies: the language is English) and its page, keeping what the browser
    reports in `page.problems`: errors in the console (a Content-Security-Policy violation is one) and
    uncaught script errors."""
    context = browser.new_context(base_url=base_url, viewport=viewport, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(60_000)  # a bound for "never", not a target: a busy machine may be slow
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.problems = problems  # type: ignore[attr-defined]
    return page


def no_problems(page: Page) -> None:
    """Nothing blocked by the policy, no script error (4xx answers the test asked for are not problems)."""
    problems = [p for p in page.problems if "status of 4" not in p]  # type: ignore[attr-defined]
    assert not problems, problems


@pytest.fixture
def page(browser: Browser, server: Server) -> Iterator[Page]:
    opened = open_page(browser, server.url)
    yield opened
    no_problems(opened)
    opened.context.close()


# The two screens every page is looked at on (issue 30): a laptop's and a phone's.
SCREENS: dict[str, ViewportSize] = {"laptop": {"width": 1366, "height": 800}, "phone": PHONE}


@pytest.fixture(params=list(SCREENS))
def sized(request: pytest.FixtureRequest, browser: Browser, server: Server) -> Iterator[Page]:
    """A page at each of the two screens (its name in `page.width_name`)."""
    opened = open_page(browser, server.url, SCREENS[request.param])
    opened.width_name = request.param  # type: ignore[attr-defined]
    yield opened
    no_problems(opened)
    opened.context.close()


FINGER = 24  # CSS pixels: the smallest target a finger hits (WCAG 2.5.8)


# The smallest place to choose on the map, in CSS pixels: a numbered place's number (a wall is a line, its
# number what a finger taps), else the place itself.
SMALLEST_PLACE = """() => {
    const places = [...document.querySelectorAll('#board [data-choice]')];
    const numbered = places.filter(place => place.querySelector('circle'));
    return Math.min(...(numbered.length ? numbered : places).map(target => {
        const box = (target.querySelector('circle') || target).getBoundingClientRect();
        return Math.min(box.width, box.height); })); }"""


def zoom_to_a_finger(page: Page) -> None:
    """On a phone, a map with places to choose opens at the zoom a finger needs (app.js): its smallest place
    is a finger wide already. On a laptop (a mouse points) it opens whole (Fit: issue 30), and "+" enlarges it
    until it is (at most the largest zoom)."""
    if page.viewport_size is not None and page.viewport_size["width"] <= 900:
        smallest = page.evaluate(SMALLEST_PLACE)
        assert smallest >= FINGER - 0.5, f"a phone's map opens with a place {smallest:.1f} CSS pixels across"
        return
    for _ in range(4):
        if page.evaluate(SMALLEST_PLACE) >= FINGER - 0.5:
            return
        page.locator("[data-zoom=in]").click()


def hot_seat_duel(page: Page) -> None:
    """A poker duel two people play on this screen, the first of them at it (past the pass-the-device screen)."""
    page.goto("/new/zombstone-duel")
    page.select_option("select[name=seating]", "hot-seat")
    page.click("button.primary")
    page.wait_for_url(re.compile(r"/play/"))
    page.locator(".pass a.button").click()
    page.wait_for_selector("#choices button")


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("DEDALE_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# --- what the play page shows ------------------------------------------------------------------------------
def steps_shown(page: Page) -> int:
    """The step count of the status line ("choices made: 7", "Finished · choices made: 7")."""
    text = page.locator("p.status").inner_text()
    found = re.search(r"(\d+)\s*$", text)
    assert found, f"no step count in the status line {text!r}"
    return int(found.group(1))


def expect_steps(page: Page, steps: int) -> None:
    """Wait for htmx's swap: the new panel's status line ends with the new count."""
    expect(page.locator("p.status")).to_have_text(re.compile(rf"(?<!\d){steps}\s*$"))


def finished(page: Page) -> bool:
    return page.locator("p.status strong").count() > 0


def seed_shown(page: Page) -> int:
    """The seed in the header, as it is written there (a short one in decimal, a long one in base 32, grouped)
    and copied: the number it is."""
    return check_seed(page.locator("h1 small code.seed").inner_text())


def session_id(page: Page) -> str:
    found = re.search(r"/play/([^/?#]+)$", page.url)
    assert found, f"not a play page: {page.url}"
    return found.group(1)


def click_step(page: Page, target: Locator) -> None:
    """Click something that makes one step, and wait for the panel showing it."""
    before = steps_shown(page)
    folded = target.locator("xpath=ancestor::details[not(@open)]/summary")
    if folded.count():  # a long list folds its choices into groups (issue 30): open the one holding it
        folded.click()
    target.click()
    expect_steps(page, before + 1)


def map_target(page: Page, rng: random.Random) -> Locator | None:
    """One of the map's targets, at random (none lies over another: a covered one fails its click); None when
    the map offers none. The skirmish's cards come from a key the server draws (`docs/secrets.md`): a seed does
    not fix the game."""
    targets = page.locator("#board [data-choice]")
    count = targets.count()
    return targets.nth(rng.randrange(count)) if count else None


def choice_buttons(page: Page) -> Locator:
    return page.locator("form#choices button[name=choice]")


def play_by_clicking(page: Page, rng: random.Random, prefer: tuple[str, ...] = ()) -> int:
    """Click choices (one of `prefer` when offered, else a seeded-random one) until the session is over."""
    clicks = 0
    while not finished(page):
        assert clicks < MAX_CLICKS, f"not over after {clicks} clicks"
        buttons = choice_buttons(page)
        count = buttons.count()
        assert count > 0, "a session not over offers choices"
        preferred = [page.locator(f'form#choices button[value="{value}"]') for value in prefer]
        target = next((p for p in preferred if p.count()), buttons.nth(rng.randrange(count)))
        click_step(page, target)
        clicks += 1
    return clicks


def start_from_home(page: Page, system: str, values: dict[str, str], table_dice: bool = False) -> None:
    """The home page's card, the system's form filled in, Start: the play page."""
    page.goto("/")
    page.locator(f'a.button[href="/new/{system}"]').click()
    page.wait_for_url(f"**/new/{system}")
    for name, value in values.items():
        page.locator(f'form.params [name="{name}"]:not([type=hidden])').fill(value)
    if table_dice:
        page.locator('input[type=checkbox][name="table_dice"]').check()
    page.locator("form.params button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/[^/]+$"))
    expect(page.locator("section#play")).to_be_visible()


def fetched(page: Page, address: str) -> APIResponse:
    """What the page's own script would fetch at `address`: its browser's cookies, and the page's address as
    where it comes from (a request naming no place needs the page's fetch token: `guard.py`)."""
    return page.request.get(address, headers={"Referer": page.url})


def download(page: Page, fmt: str, folder: Path) -> Path:
    """Open the Download menu and click a format's link: the file the browser saved."""
    menu = page.locator("details.downloads")
    if menu.get_attribute("open") is None:
        menu.locator("summary").click()
    with page.expect_download() as info:
        # its link in the menu's list, named in words ("Picture (PNG)"); not a drawing option's (`?cards=1`)
        menu.locator(f'ul a[href*="/export.{fmt}?"]').click()  # its fetch token after it (`guard.py`)
    saved = folder / info.value.suggested_filename
    info.value.save_as(saved)
    return saved


def no_horizontal_scroll(page: Page) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1] + 1, f"{page.url}: the document is {widths[0]}px wide in a {widths[1]}px window"


def wait_htmx(page: Page) -> None:
    # htmx is loaded with `defer`: the hex map's click handler needs it (the buttons work without).
    page.wait_for_function("() => !!window.htmx")


# --- the systems played to the end -------------------------------------------------------------------------
PLAYS = {
    "crawler": {"seed": "101"},
    "paper": {"seed": "202", "width": "30", "height": "30", "max_cards": "8"},
    "hexcrawl": {"seed": "303", "radius": "3"},
}


@pytest.mark.parametrize("system", list(PLAYS))
def test_play_to_the_end_by_clicking(page: Page, server: Server, shots: Path, tmp_path: Path, system: str) -> None:
    start_from_home(page, system, PLAYS[system])
    sid, seed = session_id(page), seed_shown(page)
    assert seed == int(PLAYS[system]["seed"])
    assert steps_shown(page) == 0 and not finished(page)
    expect(page.locator("#board svg")).to_be_visible()
    wait_htmx(page)
    rng = random.Random(seed)

    # The first click goes through htmx (a swap of the panel, not a new page): on the hexcrawl, a highlighted
    # hex of the map (a move), elsewhere the first choice button.
    hexes = page.locator("#board [data-choice]")
    first = hexes.first if system == "hexcrawl" else choice_buttons(page).first
    with page.expect_response(lambda r: r.url.endswith("/step") and r.request.method == "POST") as response:
        click_step(page, first)
    assert response.value.request.headers.get("hx-request") == "true"
    clicks = 1
    if system == "hexcrawl":
        for _ in range(3):  # a few more moves on the map, then the buttons (the rest explored) to finish
            click_step(page, hexes.nth(rng.randrange(hexes.count())))
            clicks += 1
        clicks += play_by_clicking(page, rng, prefer=("explore-rest", "stop"))
    else:
        clicks += play_by_clicking(page, rng)
    assert session_id(page) == sid

    steps = steps_shown(page)
    assert steps == clicks
    expect(page.locator("p.status strong")).to_have_text("Finished")
    expect(page.locator("form#choices")).to_have_count(0)
    assert page.locator("ol.log li").count() > 0
    state = api(server.url, "GET", f"/api/sessions/{sid}")
    assert state["over"] is True and state["steps"] == steps and state["choices"] == []

    document = json.loads(download(page, "json", tmp_path).read_text(encoding="utf-8"))
    assert document["format"].startswith("dedale/") and document["format"] == f"dedale/{system}"
    assert check_seed(document["seed"]) == seed
    assert len(document["events"]) == steps
    assert all(set(event) == {"choice"} for event in document["events"])  # all the player's, none the autopilot's
    if system == "hexcrawl":
        assert all(event["choice"].startswith("move:") for event in document["events"][:4])
    assert document["over"] is True

    page.screenshot(path=str(shots / f"{system}-laptop.png"), full_page=True)
    if system == "crawler":
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(shots / f"{system}-phone.png"), full_page=True)


# --- key-lock: complete at once, regenerated ---------------------------------------------------------------
def test_keylock_regenerate(page: Page, server: Server, shots: Path, tmp_path: Path) -> None:
    start_from_home(page, "keylock", {"unique": "4", "multi": "1", "permanent": "1"})
    first_id, first_seed = session_id(page), seed_shown(page)
    expect(page.locator(".analysis.card")).to_be_visible()
    assert page.locator(".analysis.card p").count() > 0
    expect(page.locator("#board svg")).to_be_visible()
    expect(page.locator("p.status strong")).to_have_text("Finished")
    page.screenshot(path=str(shots / "keylock-laptop.png"), full_page=True)

    page.get_by_role("button", name="Another one").click()
    page.wait_for_url(lambda url: "/play/" in url and not url.endswith(first_id))
    second_id, second_seed = session_id(page), seed_shown(page)
    assert second_id != first_id and second_seed != first_seed
    expect(page.locator(".analysis.card")).to_be_visible()
    expect(page.locator("#board svg")).to_be_visible()

    first = api(server.url, "GET", f"/api/sessions/{first_id}/export/json")
    second = json.loads(download(page, "json", tmp_path).read_text(encoding="utf-8"))
    assert second["format"] == "dedale/keylock" and check_seed(second["seed"]) == second_seed
    assert second["params"] == first["params"]  # the same parameters, another seed
    assert first["params"]["unique"] == 4


# --- table mode --------------------------------------------------------------------------------------------
def test_table_mode_dice_entered_and_undone(page: Page, server: Server) -> None:
    start_from_home(page, "crawler", {"seed": "7"}, table_dice=True)
    sid = session_id(page)
    # Nothing is rolled: the dungeon's size asks for three dice.
    expect(page.locator("form#choices h3")).to_contain_text("3d6")
    faces = page.locator("form#choices button.face")
    expect(faces).to_have_count(6)
    for face in ("3", "5", "2"):
        click_step(page, page.locator(f'form#choices button.face[value="enter:{face}"]'))
    assert steps_shown(page) == 3
    expect(page.locator("ol.log")).to_contain_text("3d6 → 3+5+2 = 10")
    # The next roll is a tile's 1d8.
    expect(faces).to_have_count(8)

    page.get_by_role("button", name="Undo").click()
    expect_steps(page, 2)
    expect(page.locator("form#choices h3")).to_contain_text("3d6")
    expect(page.locator("ol.log li", has_text="3+5+2")).to_have_count(0)  # (no log at all: no list)
    state = api(server.url, "GET", f"/api/sessions/{sid}")
    assert state["steps"] == 2 and state["pending"]["roll"] == "3d6"


# --- undo and the one-step autopilot -----------------------------------------------------------------------
def test_undo_and_one_autopilot_step(page: Page, server: Server) -> None:
    start_from_home(page, "crawler", {"seed": "55"})
    sid = session_id(page)
    click_step(page, choice_buttons(page).first)
    one_step = page.get_by_role("button", name="One autopilot step")
    click_step(page, one_step)
    click_step(page, one_step)
    assert steps_shown(page) == 3
    expect(page.locator("ol.log")).to_contain_text("(autopilot)")
    log_before = page.locator("ol.log li").all_inner_texts()

    page.get_by_role("button", name="Undo").click()
    expect_steps(page, 2)
    assert api(server.url, "GET", f"/api/sessions/{sid}")["steps"] == 2
    # The autopilot's choice is the same again (the same seed, the same policy).
    click_step(page, one_step)
    assert page.locator("ol.log li").all_inner_texts() == log_before
    events = api(server.url, "GET", f"/api/sessions/{sid}/export/json")["events"]
    assert len(events) == 3 and "by" not in events[0] and all(e["by"] == "default" for e in events[1:])


# --- Zombstone's odds --------------------------------------------------------------------------------------
def plot_loaded(page: Page, section: str) -> None:
    page.wait_for_function(f"""() => {{
        const img = document.querySelector("section#{section} img.plot");
        return img && img.complete && img.naturalWidth > 0;
    }}""")


def test_zombstone_odds_and_confrontation(page: Page) -> None:
    page.goto("/zombstone")
    odds_form = page.locator("form:has(input[name=potential])")
    odds_form.locator("input[name=potential]").fill("3")
    odds_form.locator("button[type=submit]").click()
    page.wait_for_url("**/zombstone?potential=3*")
    expect(page.locator("section#odds h2")).to_contain_text("Potential 3")
    rows = page.locator("section#odds table tbody tr")
    assert rows.count() >= 5
    percents = [float(t.rstrip("%")) for t in page.locator("section#odds tbody td:nth-child(2)").all_inner_texts()]
    assert 99.9 <= sum(percents) <= 100.1  # the best hand: one row each, they add up
    plot_loaded(page, "odds")

    duel_form = page.locator("form:has(input[name=attacker])")
    duel_form.locator("input[name=attacker]").fill("3")
    duel_form.locator("input[name=defender]").fill("1")
    duel_form.locator("select[name=cover]").select_option("light")
    duel_form.locator("button[type=submit]").click()
    page.wait_for_url("**/zombstone?attacker=3*")
    expect(page.locator("section#duel h2")).to_contain_text("Attacker (Potential 3, Light Colt) against defender "
                                                           "(Potential 1, Light Colt) · a shot, light cover")
    cells = page.locator("section#duel tbody tr td:nth-child(2)").all_inner_texts()
    win, tie, loss = (float(c.rstrip("%")) for c in cells[:3])
    assert 99.9 <= win + tie + loss <= 100.1
    plot_loaded(page, "duel")


# --- the language ------------------------------------------------------------------------------------------
def test_language_switch(page: Page) -> None:
    page.goto("/zombstone")
    nav = page.locator("header.top nav")
    expect(nav).to_contain_text("Systems")
    page.locator(".langs a", has_text="FR").click()
    expect(nav).to_contain_text("Systèmes")
    expect(nav).to_contain_text("Parties sauvegardées")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.url.endswith("/zombstone")  # the switch stays on the page
    page.goto("/")  # the cookie keeps it
    expect(page.locator("section.cards")).to_contain_text("Générer")
    page.locator(".langs a", has_text="EN").click()
    expect(nav).to_contain_text("Systems")
    expect(page.locator("html")).to_have_attribute("lang", "en")


# --- upload ------------------------------------------------------------------------------------------------
def test_upload_a_download(page: Page, server: Server, tmp_path: Path) -> None:
    created = api(server.url, "POST", "/api/sessions", {"system": "crawler", "seed": 4242})
    for _ in range(3):
        state = api(server.url, "GET", f"/api/sessions/{created['id']}")
        api(server.url, "POST", f"/api/sessions/{created['id']}/step", {"choice": state["choices"][-1]["id"]})
    page.goto(f"/play/{created['id']}")
    saved = download(page, "json", tmp_path)
    log_before = page.locator("ol.log li").all_inner_texts()

    page.goto("/upload")
    page.locator("input[type=file][name=document]").set_input_files(saved)
    page.get_by_role("button", name="Open").click()
    page.wait_for_url(lambda url: "/play/" in url and not url.endswith(created["id"]))
    assert seed_shown(page) == 4242 and steps_shown(page) == 3
    assert page.locator("ol.log li").all_inner_texts() == log_before
    wait_htmx(page)
    click_step(page, choice_buttons(page).first)
    assert api(server.url, "GET", f"/api/sessions/{session_id(page)}")["steps"] == 4


# --- resume after a restart --------------------------------------------------------------------------------
def test_resume_after_restart(browser: Browser, tmp_path: Path) -> None:
    # Its own server: this one is stopped and started again on the same SQLite file.
    own = Server(tmp_path / "restart.db").start()
    page = open_page(browser, own.url)
    try:
        start_from_home(page, "crawler", {"seed": "909", "name": "before the restart"})
        sid = session_id(page)
        rng = random.Random(909)
        for _ in range(4):
            click_step(page, choice_buttons(page).nth(rng.randrange(choice_buttons(page).count())))
        steps, log = steps_shown(page), page.locator("ol.log li").all_inner_texts()
        choices = choice_buttons(page).all_inner_texts()

        own.stop()
        own.start()  # another port: the pages are read from the new server
        page.goto(own.url + "/sessions")
        card = page.locator("ul.sessions li", has_text="before the restart")
        expect(card).to_contain_text(f"choices made: {steps}")
        card.get_by_role("link", name="Resume").click()
        page.wait_for_url(f"**/play/{sid}")
        assert steps_shown(page) == steps
        assert page.locator("ol.log li").all_inner_texts() == log
        assert choice_buttons(page).all_inner_texts() == choices
        wait_htmx(page)
        click_step(page, choice_buttons(page).first)
        assert api(own.url, "GET", f"/api/sessions/{sid}")["steps"] == steps + 1
    finally:
        page.context.close()
        own.stop()


# --- the phone width ---------------------------------------------------------------------------------------
def test_phone_width_without_horizontal_scroll(browser: Browser, server: Server, shots: Path) -> None:
    page = open_page(browser, server.url, PHONE)
    try:
        page.goto("/")
        no_horizontal_scroll(page)
        page.screenshot(path=str(shots / "home-phone.png"), full_page=True)

        created: dict[str, Any] = api(server.url, "POST", "/api/sessions", {"system": "hexcrawl", "seed": 5,
                                                                          "params": {"radius": 4}})
        page.goto(f"/play/{created['id']}")
        expect(page.locator("#board svg")).to_be_visible()
        no_horizontal_scroll(page)
        page.locator("details.downloads summary").click()  # the open menu must fit too
        no_horizontal_scroll(page)
        page.screenshot(path=str(shots / "hexcrawl-phone.png"), full_page=True)

        page.goto("/zombstone?potential=2&attacker=3&defender=2&attacker_weapon=&defender_weapon=")
        expect(page.locator("section#duel")).to_be_visible()
        plot_loaded(page, "odds")
        no_horizontal_scroll(page)
        page.screenshot(path=str(shots / "zombstone-phone.png"), full_page=True)
    finally:
        page.context.close()


# --- Zombstone: a skirmish against the AI and the poker duel ------------------------------------------------
def test_a_skirmish_against_the_ai(page: Page, server: Server, shots: Path, tmp_path: Path) -> None:
    """Start High Noon from its form, make the first decisions by clicking (the duel's bets, then the map's
    targets when offered), let the autopilot finish, and download the game."""
    page.goto("/new/zombstone")
    page.locator('select[name="scenario"]').select_option("high_noon")
    page.locator('select[name="side"]').select_option("zombies")
    page.locator('form.params [name="seed"]').fill("77")
    page.locator("form.params button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/[^/]+$"))
    wait_htmx(page)
    expect(page.locator("#board svg")).to_be_visible()
    expect(page.locator("p.question")).to_be_visible()  # each decision says what it is about
    rng = random.Random(77)
    clicked_map = False
    for _ in range(25):
        target = map_target(page, rng) if rng.random() < 0.5 else None
        if target is not None:
            click_step(page, target)
            clicked_map = True
        else:
            buttons = choice_buttons(page)
            click_step(page, buttons.nth(rng.randrange(buttons.count())))
    assert clicked_map, "the map offered nothing to click in 25 decisions"
    page.screenshot(path=str(shots / "zombstone-laptop.png"), full_page=True)
    before = steps_shown(page)
    page.get_by_role("button", name="Autopilot to the end").click()
    expect(page.locator("p.status strong")).to_be_visible(timeout=60_000)
    assert steps_shown(page) > before
    state = api(server.url, "GET", f"/api/sessions/{session_id(page)}")
    assert state["over"] and state["choices"] == []
    document = json.loads(download(page, "json", tmp_path).read_text())
    assert document["format"] == "dedale/zombstone" and document["seed"] == 77
    assert document["game"]["ending"] in ("eliminated", "condition", "turns", "draw")
    assert document["game"]["duel"] is not None  # High Noon opens with the duel


def test_the_poker_duel_by_clicking(page: Page, server: Server, shots: Path, tmp_path: Path) -> None:
    page.goto("/new/zombstone-duel")
    page.locator('form.params [name="seed"]').fill("5")
    page.locator('form.params [name="added"]').fill("10")
    page.locator("form.params button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/[^/]+$"))
    wait_htmx(page)
    expect(page.locator("#board svg")).to_contain_text("You$24 left")  # $15 and the $10 added, less the ante
    clicks = play_by_clicking(page, random.Random(5), prefer=("call", "check"))
    assert clicks >= 1 and finished(page)
    page.screenshot(path=str(shots / "duel-laptop.png"), full_page=True)
    document = json.loads(download(page, "json", tmp_path).read_text())
    assert document["format"] == "dedale/zombstone-duel" and document["duel"]["over"]
    assert len([event for event in document["events"] if "by" not in event]) == clicks  # the AI's are its own

"""Point at what you see, in a real browser (issue 30): every choice that is a place is drawn on the map with
its number in the list, and a click on that number, where the pointer is, makes that choice (crawler doors,
exits, walls to search, passages; the paper dungeon's open ends and exits), at a laptop's and a phone's
width. Screenshots go to $DEDALE_SCREENSHOTS when set."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import CHROMIUM
from test_web_browser import (  # noqa: F401 (fixtures)
    FINGER,
    LAPTOP,
    PHONE,
    SMALLEST_PLACE,
    choice_buttons,
    click_step,
    expect_steps,
    no_problems,
    open_page,
    session_id,
    sized,
    start_from_home,
    steps_shown,
    wait_htmx,
    zoom_to_a_finger,
)
from webserver import Server, api

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} to drive")





def shot(page: Page, name: str, tmp_path: Path) -> None:
    folder = Path(__import__("os").environ.get("DEDALE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}-{page.width_name}.png"))  # type: ignore[attr-defined]


def click_each_number(page: Page, server: Server, sid: str, kinds: tuple[str, ...]) -> int:
    """Each number on the map whose choice is one of `kinds`: it is the number of that choice in the list, at
    least 24 CSS pixels wide at the zoom the screen needs (the map opens whole, fitted: `zoom_to_a_finger`), and
    pointing at it lights that choice's button; a click where the pointer is saves that choice (then undone)."""
    zoom_to_a_finger(page)
    buttons = [b.get_attribute("value") for b in choice_buttons(page).all()]
    numbers = page.locator("#board g.number[data-choice]")
    clicked = 0
    for index in range(numbers.count()):
        number = page.locator("#board g.number[data-choice]").nth(index)
        choice = number.get_attribute("data-choice") or ""
        if not choice.startswith(kinds):
            continue
        shown = number.locator("text").text_content()
        assert shown == str(buttons.index(choice) + 1), f"{choice} numbered {shown}, unlike the list"
        number.scroll_into_view_if_needed()
        box = number.locator("circle").bounding_box()
        assert box is not None
        assert min(box["width"], box["height"]) >= 24, f"{choice}: a target of {box['width']:.0f} CSS pixels"
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        expect(page.locator(f'form#choices button.lit[value="{choice}"]')).to_have_count(1)
        before = steps_shown(page)
        page.mouse.click(x, y)
        expect(page.locator("p.status")).to_have_text(re.compile(rf"(?<!\d){before + 1}\s*$"))
        events = api(server.url, "GET", f"/api/sessions/{sid}/export/json")["events"]
        assert events[-1] == {"choice": choice}, f"the number of {choice} made {events[-1]}"
        page.get_by_role("button", name="Undo").click()
        expect(page.locator("p.status")).to_have_text(re.compile(rf"(?<!\d){before}\s*$"))
        clicked += 1
    return clicked


def test_a_crawler_door_is_chosen_by_its_number_on_the_map(sized: Page, server: Server, tmp_path: Path) -> None:  # noqa: F811
    """Seed 0's first room laid as a 3x2 against the board's south edge (its second place) may have its door
    in two places (its third square is a corner of the zone): the entrance on that edge, numbered 1 and 2 on the
    map as in the list, each chosen by a click on its number; then the room's exit and walls to search, the same
    way."""
    page = sized
    start_from_home(page, "crawler", {"seed": "0"})
    wait_htmx(page)
    sid = session_id(page)
    click_step(page, choice_buttons(page).nth(1))  # lay the first room: its doors are offered
    labels = [b.text_content() or "" for b in choice_buttons(page).all()]
    assert len(labels) == 2 and all("entrance" in label and "(" not in label for label in labels), labels
    shot(page, "crawler-doors", tmp_path)
    assert click_each_number(page, server, sid, ("door:",)) == 2
    click_step(page, choice_buttons(page).first)
    shot(page, "crawler-explore", tmp_path)
    assert click_each_number(page, server, sid, ("exit:", "search:")) == 3


def test_a_paper_open_end_and_a_room_exit_are_chosen_by_their_numbers(sized: Page, server: Server,  # noqa: F811
                                                                      tmp_path: Path) -> None:
    """Seed 7's starting room has three open ends, numbered on the map as in the list; the first leads to a
    room whose exits the player may place: each square a click on its number, outside the wall."""
    page = sized
    start_from_home(page, "paper", {"seed": "7"})
    wait_htmx(page)
    sid = session_id(page)
    labels = [b.text_content() or "" for b in choice_buttons(page).all()]
    assert not any(re.search(r"\(\d+, \d+\)", label) for label in labels), labels  # no cells the map does not show
    shot(page, "paper-ends", tmp_path)
    assert click_each_number(page, server, sid, ("end:",)) == 3
    click_step(page, choice_buttons(page).first)
    shot(page, "paper-exits", tmp_path)
    assert click_each_number(page, server, sid, ("wall:",)) == 6


def test_a_phone_opens_the_map_at_a_fingers_zoom_on_the_places_to_choose(browser: Browser, server: Server) -> None:
    """On a phone, the crawler's map opens with its places to choose a finger wide, one of them in view,
    without a tap on "+", and finds them again after a choice; "Fit" then shows the whole map, and stays the
    player's choice after the next step."""
    page = open_page(browser, server.url, PHONE)
    start_from_home(page, "crawler", {"seed": "0"})
    wait_htmx(page)
    whole = "() => { const board = document.getElementById('board'); " \
            "return board.querySelector('svg').getBoundingClientRect().width <= board.clientWidth + 1; }"
    for step in range(2):  # the first room's places, then its doors'
        assert page.evaluate(SMALLEST_PLACE) >= FINGER - 0.5
        assert page.evaluate("""() => { const seen = document.getElementById('board').getBoundingClientRect();
            return [...document.querySelectorAll('#board [data-choice] circle')].some(number => {
                const box = number.getBoundingClientRect();
                return box.left >= seen.left && box.right <= seen.right && box.top >= seen.top
                    && box.bottom <= seen.bottom; }); }"""), "no place to choose is in view"
        assert not page.evaluate(whole)  # zoomed in, at the finger's zoom
        if not step:
            click_step(page, choice_buttons(page).nth(2))
    page.locator("[data-zoom=fit]").click()
    assert page.evaluate(whole)
    before = steps_shown(page)
    page.get_by_role("button", name="Undo").click()  # places to choose again: the player's Fit is kept
    expect_steps(page, before - 1)
    assert page.evaluate(SMALLEST_PLACE) < FINGER and page.evaluate(whole)
    no_problems(page)
    page.context.close()

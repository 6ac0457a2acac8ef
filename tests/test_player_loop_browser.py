"""The player's loop in a real browser (issue 30): a click on the map makes the choice the player pointed at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from conftest import CHROMIUM
from test_web_browser import page, session_id, start_from_home, steps_shown, wait_htmx  # noqa: F401 (a fixture)
from webserver import Server, api

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} to drive")

def test_a_crawler_places_number_lays_its_own_room_whatever_lies_over_it(page: Page, server: Server) -> None:  # noqa: F811
    """Seed 4's first room may go in five places laid over one spot (a 5x2 and four 2x5 strips). A click on
    each number, where the pointer is, lays that place's room; pointing at it lights that place alone."""
    start_from_home(page, "crawler", {"seed": "4"})
    wait_htmx(page)
    sid = session_id(page)
    numbers = page.locator("#board g.number[data-choice]")
    expect(numbers).to_have_count(5)
    for index in range(5):
        number = page.locator("#board g.number[data-choice]").nth(index)
        choice = number.get_attribute("data-choice")
        number.scroll_into_view_if_needed()
        box = number.locator("circle").bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        lit = page.locator("#board g.place.lit")
        expect(lit).to_have_count(1)
        assert lit.get_attribute("data-choice") == choice
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(page.locator("p.status")).to_have_text(re.compile(r"(?<!\d)1\s*$"))
        events = api(server.url, "GET", f"/api/sessions/{sid}/export/json")["events"]
        assert events == [{"choice": choice}], f"number {index + 1} laid {events}"
        page.get_by_role("button", name="Undo").click()
        expect(page.locator("p.status")).to_have_text(re.compile(r"(?<!\d)0\s*$"))
        assert steps_shown(page) == 0

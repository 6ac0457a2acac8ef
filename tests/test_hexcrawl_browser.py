"""The hexcrawl's map in a real browser (issue 30): every hex a move reaches is drawn, numbered as in the list
of choices and clickable, big enough for a finger on a phone, none over another; the map's edges give the
columns and rows its choices name; its hex numbers can be left out of a download."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from conftest import CHROMIUM
from test_web_browser import (  # noqa: F401
    PHONE,
    SCREENS,
    no_problems,
    open_page,
    page,
    session_id,
    shots,
    start_from_home,
    wait_htmx,
)
from webserver import Server, api

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} to drive")

DESKTOP = SCREENS["laptop"]


def boxes(tab: Page, selector: str) -> list[dict[str, float]]:
    return tab.locator(selector).evaluate_all(
        "els => els.map(e => { const b = e.getBoundingClientRect();"
        " return {x: b.x, y: b.y, width: b.width, height: b.height}; })")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["laptop", "phone"])
def test_each_destination_is_numbered_as_listed_big_enough_and_alone(browser: Browser, server: Server,
                                                                     viewport: ViewportSize, shots: Path) -> None:  # noqa: F811
    tab = open_page(browser, server.url, viewport)
    try:
        start_from_home(tab, "hexcrawl", {"seed": "3"})
        wait_htmx(tab)
        sid = session_id(tab)
        buttons = tab.locator("form#choices button[name=choice]")
        listed = buttons.evaluate_all("bs => bs.map(b => [b.value, b.innerText])")
        moves = [(n, value, words) for n, (value, words) in enumerate(listed, 1) if value.startswith("move:")]
        assert moves
        places = tab.locator("#board g.destination[data-choice]")
        expect(places).to_have_count(len(moves))
        for n, value, words in moves:
            place = tab.locator(f'#board g.destination[data-choice="{value}"]')
            assert place.locator("text").text_content() == str(n)  # the number of its line in the list
            assert re.search(r"hex (\d{4})", words)
        # A target is its hex and its numbered disc; on a phone, as wide as a finger even once the map is drawn
        # at the board's width (the whole map in sight), whatever the zoom the tab starts at.
        fit = tab.locator("#board").evaluate(
            "b => b.clientWidth / b.querySelector('svg').getBoundingClientRect().width")
        discs = boxes(tab, "#board g.destination[data-choice] circle")
        for disc in discs:
            assert min(disc["width"], disc["height"]) * (fit if viewport == PHONE else 1) >= 24, disc
        for n, value, _ in moves:  # the middle of each disc is its own move's, on top of everything
            disc = tab.locator(f'#board g.destination[data-choice="{value}"] circle')
            disc.scroll_into_view_if_needed()
            hit = disc.evaluate("c => { const b = c.getBoundingClientRect();"
                                " const e = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);"
                                " const place = e && e.closest('[data-choice]');"
                                " return place && place.dataset.choice; }")
            assert hit == value, (n, hit)
        tab.screenshot(path=str(shots / f"hexcrawl-destinations-{viewport['width']}.png"))
        n, value, _ = moves[-1]
        number = tab.locator(f'#board g.destination[data-choice="{value}"] text')
        number.scroll_into_view_if_needed()
        number.click()
        expect(tab.locator("p.status")).to_have_text(re.compile(r"(?<!\d)1\s*$"))
        assert api(server.url, "GET", f"/api/sessions/{sid}/export/json")["events"] == [{"choice": value}]
        no_problems(tab)
    finally:
        tab.context.close()


def test_the_hex_numbers_may_be_left_out_of_a_download(page: Page, tmp_path: Path) -> None:  # noqa: F811
    start_from_home(page, "hexcrawl", {"seed": "3", "radius": "4"})
    page.get_by_role("button", name="Autopilot to the end").click()
    expect(page.locator("p.status strong")).to_have_text("Finished")
    page.locator("details.downloads summary").click()
    drawing = page.locator("details.downloads p.drawing")
    expect(drawing).to_contain_text("Without the hex numbers")
    with page.expect_download() as got:
        drawing.get_by_role("link", name="Without the hex numbers: SVG").click()
    unnumbered = got.value.path().read_text(encoding="utf-8")
    with page.expect_download() as got:
        page.locator("details.downloads").get_by_role("link", name="Picture (SVG)", exact=True).click()
    numbered = got.value.path().read_text(encoding="utf-8")
    number = re.compile(r'fill="#3f3a33">\d{4}</text>')
    assert number.search(numbered) and not number.search(unnumbered)
    assert ">09</text>" in unnumbered  # the edges keep the columns and rows

"""Issue 17's pages in a real browser (Chromium, as test_web_browser.py drives it): the whole log paged, the
saved sessions told apart and filtered, downloads named after the system and seed, no page asking for a file
that is not there (a favicon), and the map zoomed and panned at phone width."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Response, expect

from conftest import CHROMIUM
from test_web_browser import LAPTOP, PHONE, download, fetched, no_problems, open_page, start_from_home, wait_htmx
from webserver import Server

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} to drive")


@pytest.fixture
def page(browser: Browser, server: Server) -> Iterator[Page]:
    opened = open_page(browser, server.url, LAPTOP)
    missing: list[str] = []

    def note(response: Response) -> None:
        if response.status == 404:
            missing.append(response.url)

    opened.on("response", note)
    yield opened
    assert not missing, missing  # the favicon among them, before there was one
    no_problems(opened)
    opened.context.close()


def autopilot_to_the_end(page: Page) -> None:
    page.get_by_role("button", name="Autopilot to the end").click()
    expect(page.locator("p.status strong")).to_have_text("Finished")


def test_the_whole_log_is_paged_with_its_true_numbers(page: Page) -> None:
    start_from_home(page, "hexcrawl", {"seed": "5", "radius": "9"})
    autopilot_to_the_end(page)
    total = int(page.locator("ol.log").get_attribute("start") or 0)
    assert total > 400  # several pages
    # Counted down from the log's length: the newest line carries the log's last number.
    assert page.locator("ol.log").get_attribute("reversed") is not None
    page.get_by_role("link", name=f"The whole log ({total} entries)").click()
    page.wait_for_url(re.compile(r"/log\?page=\d+$"))
    last = page.locator(".full-log li").last
    assert last.evaluate("li => li.value") == total
    page.locator(".pager").first.get_by_role("link", name="1", exact=True).click()
    expect(page.locator(".full-log li").first).to_have_attribute("value", "1")
    expect(page.locator(".full-log summary").first).to_have_text("At the start")
    page.locator(".pager").first.get_by_role("link", name="2", exact=True).click()
    expect(page.locator(".full-log li").first).to_have_attribute("value", "201")
    text = fetched(page, page.url.split("/log")[0] + "/log.txt").text()
    assert len([line for line in text.splitlines() if re.match(r"\d+\. ", line)]) == total


def test_saved_sessions_are_told_apart_and_filtered(page: Page) -> None:
    start_from_home(page, "crawler", {"seed": "4"})
    autopilot_to_the_end(page)
    start_from_home(page, "crawler", {"seed": "4"})
    start_from_home(page, "keylock", {"seed": "2"})
    page.goto("/sessions")
    rows = page.locator("ul.sessions li")
    crawlers = rows.filter(has_text="Crawler dungeon")
    assert crawlers.count() >= 2
    texts = [crawlers.nth(i).inner_text() for i in range(crawlers.count())]
    assert len(set(texts)) == len(texts)  # no two rows alike
    assert any("finished" in t for t in texts) and any("in progress" in t for t in texts)
    assert not page.locator("time").first.inner_text().endswith("UTC")  # shown in the reader's own time
    page.locator('select[name="system"]').select_option("keylock")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url(re.compile(r"system=keylock"))
    systems = page.locator("ul.sessions li").evaluate_all("rows => rows.map(r => r.dataset.system)")
    assert systems and set(systems) == {"keylock"}


def test_downloads_are_named_after_the_session_seed_and_view(page: Page, tmp_path: Path) -> None:
    start_from_home(page, "paper", {"seed": "3", "name": "Les Caves d'Été"})
    for fmt in ("json", "svg"):
        assert download(page, fmt, tmp_path).name == f"les-caves-d-ete-3-gm.{fmt}"


def test_the_map_zooms_and_pans_at_phone_width(browser: Browser, server: Server) -> None:
    page = open_page(browser, server.url, PHONE)
    start_from_home(page, "hexcrawl", {"seed": "3"})
    wait_htmx(page)
    board = page.locator("#board")
    fitted = board.locator("svg").bounding_box()
    assert fitted is not None
    page.locator("[data-zoom=in]").click()
    page.locator("[data-zoom=in]").click()
    zoomed = board.locator("svg").bounding_box()
    assert zoomed is not None and zoomed["width"] == pytest.approx(2 * fitted["width"], rel=0.01)
    assert board.evaluate("b => b.scrollWidth > b.clientWidth && b.scrollHeight > b.clientHeight")
    board.evaluate("b => { b.scrollLeft = 300; b.scrollTop = 200; }")
    page.locator("button[name=choice]").first.click()  # a step: the panel is swapped
    expect(page.locator("p.status")).to_contain_text("choices made: 1")
    kept = page.locator("#board svg").bounding_box()
    assert kept is not None and kept["width"] == pytest.approx(zoomed["width"], rel=0.01)
    page.locator("[data-zoom=fit]").click()
    back = page.locator("#board svg").bounding_box()
    assert back is not None and back["width"] == pytest.approx(fitted["width"], rel=0.01)
    no_problems(page)
    page.context.close()


@pytest.mark.parametrize(("system", "values"), [("crawler", {"seed": "4"}), ("hexcrawl", {"seed": "3"}),
                                                ("keylock", {"seed": "2"}), ("paper", {"seed": "3"})])
def test_at_phone_width_the_legend_is_below_the_map_at_its_own_size(browser: Browser, server: Server, system: str,
                                                                    values: dict[str, str]) -> None:
    page = open_page(browser, server.url, PHONE)
    start_from_home(page, system, values)
    board, legend = page.locator("#board").bounding_box(), page.locator(".legend-panel svg").bounding_box()
    assert board is not None and legend is not None
    assert legend["y"] >= board["y"] + board["height"]  # below the map, not beside it
    drawn = page.locator(".legend-panel svg").evaluate("s => s.getBoundingClientRect().width / s.viewBox.baseVal.width")
    assert drawn >= 0.99  # not shrunk: its 10.5-point words are 10.5 pixels
    words = page.locator(".legend-panel svg text").first.evaluate("t => t.getBoundingClientRect().height")
    assert words >= 10
    page.screenshot(path=str(Path(os.environ.get("DEDALE_SCREENSHOTS", "/tmp")) / f"legend-390-{system}.png"))
    no_problems(page)
    page.context.close()

"""The key-lock page in a real browser (issue 30): the legend groups the unique sets and lists every other, the
analysis lists the first visits and says how many more, with a link to the whole; no heading over nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from conftest import CHROMIUM
from test_web_browser import PHONE, no_problems, open_page, shots, start_from_home  # noqa: F401
from webserver import Server

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} to drive")

LAPTOP: ViewportSize = {"width": 1366, "height": 800}


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_legend_and_the_analysis_say_it_all(browser: Browser, server: Server, viewport: ViewportSize,
                                                shots: Path) -> None:  # noqa: F811
    tab = open_page(browser, server.url, viewport)
    try:
        start_from_home(tab, "keylock", {"seed": "2", "unique": "30", "multi": "2", "permanent": "2"})
        legend = tab.locator(".legend-panel svg").inner_html()
        assert legend.count("1–30 unique: one key, one lock each") == 1
        for line in ("31 multi", "32 multi", "33 permanent", "34 permanent"):
            assert f">{line}" in legend
        card = tab.locator(".analysis.card")
        visits = card.locator("p", has_text="Visits in order").inner_text()
        shown = visits.count("#")
        more = re.search(r"… and (\d+) more$", visits)
        assert more and shown == 24 and shown + int(more[1]) == 71  # 71 keys and locks, each visited once
        with tab.expect_download() as got:
            card.get_by_role("link", name=re.compile("The whole analysis")).click()
        whole = next(line for line in got.value.path().read_text(encoding="utf-8").splitlines()
                     if line.startswith("Visits in order: "))
        assert whole.count("#") == 71
        empty = tab.locator("h2, h3").evaluate_all(
            "hs => hs.filter(h => { const next = h.nextElementSibling;"
            " return !next || !next.textContent.trim(); }).map(h => h.textContent)")
        assert not empty, empty  # every heading has something under it
        tab.screenshot(path=str(shots / f"keylock-{viewport['width']}.png"), full_page=True)
        expect(card).to_be_visible()
        no_problems(tab)
    finally:
        tab.context.close()

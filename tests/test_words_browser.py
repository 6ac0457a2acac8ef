"""Words a player reads, in a real browser at a laptop's and a phone's width (issue 30): the permalink page in
words, the downloads named, the upload's refusals, the odds page's answer."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from conftest import CHROMIUM
from test_web_browser import no_horizontal_scroll, no_problems, open_page, shots  # noqa: F401
from webserver import Server

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} to drive")

WIDTHS: dict[str, ViewportSize] = {"laptop": {"width": 1366, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=list(WIDTHS))
def sized(request: pytest.FixtureRequest, browser: Browser, server: Server) -> Iterator[Page]:
    opened = open_page(browser, server.url, WIDTHS[request.param])
    opened.width_name = request.param  # type: ignore[attr-defined]
    yield opened
    no_problems(opened)
    opened.context.close()


def test_the_permalink_page_is_in_words(sized: Page, shots: Path) -> None:  # noqa: F811
    sized.goto("/permalink/zombstone?seed=4&params=%7B%7D")
    terms = sized.locator("dl.params dt")
    values = sized.locator("dl.params dd")
    expect(terms.first).to_be_visible()
    labels, shown = terms.all_inner_texts(), values.all_inner_texts()
    assert labels and not any(re.fullmatch(r"[a-z]+(_[a-z]+)*", label) for label in labels), labels
    assert "OK Corral 1881" in shown and not {"None", "True", "False", "ok_corral"} & set(shown), shown
    assert "--data" not in sized.locator("main").inner_text()
    no_horizontal_scroll(sized)
    sized.screenshot(path=str(shots / f"permalink-{sized.width_name}.png"), full_page=True)  # type: ignore[attr-defined]

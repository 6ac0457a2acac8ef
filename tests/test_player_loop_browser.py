"""The player's loop in a real browser (issue 30): a click on the map makes the choice the player pointed at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from conftest import CHROMIUM
from dedale.core.cards import Card
from test_web_browser import download, hot_seat_duel, page, session_id, shots, start_from_home, steps_shown, wait_htmx  # noqa: F401 (fixtures)
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


def test_the_pass_the_device_screen_downloads_nothing_of_either_hand(page: Page, tmp_path: Path) -> None:  # noqa: F811
    """Two people on one screen: once the first has played, the screen waits for the second, and nothing it
    offers shows the hand just seen, downloads included (TXT, SVG; the PNG is that SVG drawn)."""
    import io

    from PIL import Image

    from dedale.render.png import svg_to_png
    from test_seats_browser import duel_cards

    hot_seat_duel(page)
    seen = duel_cards(page, "#board")  # preflop: the first player's two hole cards, no board yet
    assert len(seen) == 2
    page.locator("#choices button").first.click()
    expect(page.locator(".pass a.button")).to_have_count(1)  # the device is being passed
    assert not duel_cards(page)
    texts: dict[str, str] = {}
    for fmt in ("txt", "svg", "png"):
        saved = download(page, fmt, tmp_path)
        if fmt == "png":  # the SVG just checked, drawn: nothing more, nothing else
            drawn = [Image.open(io.BytesIO(png)).convert("L") for png in (saved.read_bytes(), svg_to_png(texts["svg"]))]
            assert drawn[0].size == drawn[1].size
            # Compared in blocks of 8 x 8 pixels: the server's cairo and this process's may smooth glyphs apart
            # (thousands of pixels in a full run), which a block's mean evens out; a card shown instead of its
            # back (84 x 120 pixels) changes some 150 blocks by far more.
            coarse = [picture.resize((picture.size[0] // 8, picture.size[1] // 8), Image.Resampling.BOX).tobytes()
                      for picture in drawn]
            apart = sum(1 for a, b in zip(*coarse, strict=True) if abs(a - b) > 48)
            assert apart < 30, f"{apart} blocks apart"
            continue
        text = texts[fmt] = saved.read_text(encoding="utf-8")
        shown = [code for code in seen if re.search(rf"(?<![\w#]){code}(?!\w)", text)
                 or Card.parse(code).shown in text]
        assert not shown, f"the {fmt.upper()} download shows {shown}"


def test_a_second_screen_follows_the_game_live(page: Page, server: Server, shots: Path) -> None:  # noqa: F811
    """The Download menu's "Second screen" opens the picture alone, the party view; a choice made on the play
    page shows on it without a reload (issue 30)."""
    start_from_home(page, "crawler", {})
    wait_htmx(page)
    page.locator("details.downloads summary").click()
    with page.context.expect_page() as opened:
        page.get_by_role("link", name=re.compile("Second screen")).click()
    screen = opened.value
    screen.wait_for_load_state()
    expect(screen.locator("#play svg")).to_be_visible()
    assert screen.locator("header, form, #choices").count() == 0
    screen.evaluate("window.notReloaded = true")
    assert screen.locator("#play").get_attribute("data-revision") == "0"
    page.locator("form#choices button[name=choice]").first.click()
    expect(screen.locator("#play")).to_have_attribute("data-revision", "1", timeout=60_000)
    assert screen.evaluate("window.notReloaded === true")
    for width, height in ((1366, 800), (390, 844)):
        screen.set_viewport_size({"width": width, "height": height})
        box = screen.locator("#play svg").bounding_box()
        assert box and box["width"] <= width + 1 and box["height"] <= height + 1  # the whole picture in view
        screen.screenshot(path=str(shots / f"second-screen-{width}.png"))

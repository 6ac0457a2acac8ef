"""Words a player reads, in a real browser at a laptop's and a phone's width (issue 30): the permalink page in
words, the downloads named, the upload's refusals, the odds page's answer."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from conftest import CHROMIUM
from test_web_browser import (  # noqa: F401 (fixtures)
    SCREENS,
    download,
    no_horizontal_scroll,
    no_problems,
    open_page,
    shots,
    sized,
    start_from_home,
)

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} to drive")





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


def test_the_downloads_are_named(sized: Page, shots: Path, tmp_path: Path) -> None:  # noqa: F811
    start_from_home(sized, "crawler", {"seed": "4", "name": "Sous la Tour"})
    menu = sized.locator("details.downloads")
    menu.locator("summary").click()
    names = menu.locator("li a").all_inner_texts()
    assert "Universal VTT (.dd2vtt)" in names and "Foundry scene (.json)" in names and len(set(names)) == len(names)
    assert not any(re.fullmatch(r"[A-Z0-9.]+", name) for name in names), names  # no bare "DD2VTT", "UVTT"
    expect(menu.get_by_role("link", name="Picture (PNG)")).to_be_visible()
    sized.screenshot(path=str(shots / f"downloads-{sized.width_name}.png"))  # type: ignore[attr-defined]
    assert download(sized, "png", tmp_path).name == "sous-la-tour-4-gm.png"
    sized.goto(sized.url + "?view=party")
    assert download(sized, "svg", tmp_path).name == "sous-la-tour-party.svg"  # the party view: no seed
    no_horizontal_scroll(sized)


def test_open_a_file_says_what_it_got(sized: Page, shots: Path, tmp_path: Path) -> None:  # noqa: F811
    """A picture downloaded by mistake, opened to continue: the page names it and what it needs instead."""
    start_from_home(sized, "paper", {"seed": "3", "max_cards": "6"})
    picture = download(sized, "png", tmp_path)
    sized.goto("/upload")
    sized.locator("input[type=file][name=document]").set_input_files(picture)
    sized.locator("form button[type=submit]").click()
    problem = sized.locator("section.error")
    expect(problem).to_contain_text("this file is a PNG picture")
    expect(problem).to_contain_text("Game file (JSON, to continue it)")
    no_horizontal_scroll(sized)
    sized.screenshot(path=str(shots / f"upload-refused-{sized.width_name}.png"))  # type: ignore[attr-defined]


@pytest.mark.parametrize(("query", "said"), [
    ("potential=2&objective=target&target=two_pairs", "At least two pairs: 77.6%"),
    ("potential=2&objective=rank", "Most likely: Two pairs, 32.4%")])
def test_the_odds_page_answers_first_and_keeps_fractions_whole(sized: Page, shots: Path, query: str,  # noqa: F811
                                                                said: str) -> None:
    sized.goto(f"/zombstone?{query}&attacker=-4&defender=5&cover=heavy")
    odds = sized.locator("#odds")
    answer = odds.locator("p.answer")
    expect(answer).to_have_text(said)
    answer_box, table_box = answer.bounding_box(), odds.locator("table").bounding_box()
    assert answer_box and table_box and answer_box["y"] + answer_box["height"] <= table_box["y"]  # above it
    lines = sized.evaluate("""() => [...document.querySelectorAll('.result td code, .result td:nth-child(2)')]
        .filter(cell => cell.textContent.trim()).map(cell => {
            const range = document.createRange(); range.selectNodeContents(cell);
            return [cell.textContent, new Set([...range.getClientRects()].map(r => Math.round(r.top))).size]; })""")
    assert lines and all(count == 1 for _, count in lines), lines  # each chance and fraction on one line
    no_horizontal_scroll(sized)
    sized.screenshot(path=str(shots / f"odds-{query.split('&')[1]}-{sized.width_name}.png"),  # type: ignore[attr-defined]
                     full_page=True)


def test_in_french_the_footer_and_the_answer_are_french(sized: Page, shots: Path) -> None:  # noqa: F811
    sized.goto("/lang/fr?next=" + quote("/zombstone?potential=2&objective=target&target=two_pairs"))
    expect(sized.locator("footer")).to_contain_text("systèmes de jeu de table procéduraux")
    expect(sized.locator("#odds p.answer")).to_have_text("Au moins deux paires\u00a0: 77.6%")  # never a line's end
    assert "procedural" not in sized.locator("footer").inner_text()
    no_horizontal_scroll(sized)
    sized.screenshot(path=str(shots / f"odds-fr-{sized.width_name}.png"))  # type: ignore[attr-defined]

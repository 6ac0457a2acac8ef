"""Zombstone's play screens in a real browser, at a laptop's and a phone's width (issue 30): the map's targets
each a finger's width, none on another, none hidden; each shot's chance shown before it is chosen; a long
list of choices folded by group, the map's targets still working. Web games are keyed (`docs/secrets.md`):
nothing here relies on a seeded outcome."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from conftest import CHROMIUM
from test_web_browser import (  # noqa: F401 (fixtures)
    FINGER,
    click_step,
    hot_seat_duel,
    shots,
    sized,
    wait_htmx,
    zoom_to_a_finger,
)

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} to drive")

SMALLEST = FINGER
MAX_STEPS = 40  # a skirmish offers shots long before; a bound so that a bug fails instead of hanging


def map_targets(page: Page) -> list[dict[str, Any]]:
    """Each target on the map, brought into view in turn: its choice, its disc's centre (from the picture's
    corner, which scrolls with it) and radius in CSS pixels, and which target the pointer finds at that centre."""
    return page.eval_on_selector_all("#board [data-choice]", """targets => targets.map(target => {
        target.scrollIntoView({block: "center", inline: "center"});
        const box = (target.querySelector("circle") || target).getBoundingClientRect();
        const x = box.left + box.width / 2, y = box.top + box.height / 2;
        const hit = document.elementFromPoint(x, y);
        const found = hit && hit.closest("[data-choice]");
        const corner = target.ownerSVGElement.getBoundingClientRect();
        return {choice: target.dataset.choice, x: x - corner.left, y: y - corner.top,
                r: Math.min(box.width, box.height) / 2, found: found ? found.dataset.choice : null};
    })""")


def to_the_shots(page: Page, least: int = 0) -> None:
    """An OK Corral started from its form, moved toward the enemy until the map offers shots as well as moves
    (the autopilot stepping for the other side between), and the list at least `least` choices."""
    page.goto("/new/zombstone")
    page.locator('select[name="scenario"]').select_option("ok_corral")
    page.locator("form.params button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/[^/]+$"))
    wait_htmx(page)
    for _ in range(MAX_STEPS):
        kinds = {choice.split(":")[0] for choice in page.eval_on_selector_all(
            "#board [data-choice]", "targets => targets.map(t => t.dataset.choice)")}
        if {"move", "shoot"} <= kinds and page.locator("form#choices button[name=choice]").count() >= least:
            return
        buttons = page.locator("form#choices button[name=choice]")
        toward = buttons.filter(has_text=re.compile("toward"))
        click_step(page, toward.first if toward.count() else buttons.first)  # opening its group if folded
    raise AssertionError(f"no shot offered in {MAX_STEPS} steps")


def test_the_skirmish_map_targets_are_large_apart_and_reachable(sized: Page, shots: Path) -> None:  # noqa: F811
    """Moves, shots and aimed shots each a disc at least 24 CSS pixels across at the zoom the screen needs (the
    table opens whole, fitted: `zoom_to_a_finger`), none overlapping another, and the pointer at each one's
    centre finds that one (no label, figure or other mark over it)."""
    page = sized
    to_the_shots(page)
    zoom_to_a_finger(page)
    targets = map_targets(page)
    page.screenshot(path=str(shots / f"skirmish-targets-{page.width_name}.png"), full_page=True)
    assert {t["choice"].split(":")[0] for t in targets} >= {"move", "shoot"}
    for target in targets:
        assert 2 * target["r"] >= SMALLEST - 0.5, f"{target['choice']}: {2 * target['r']:.1f} px across"
        assert target["found"] == target["choice"], f"{target['choice']} is under {target['found']}"
    for i, a in enumerate(targets):
        for b in targets[i + 1:]:
            apart = math.dist((a["x"], a["y"]), (b["x"], b["y"]))
            assert apart >= a["r"] + b["r"] - 1, f"{a['choice']} overlaps {b['choice']}"


def test_each_shot_offers_its_chance_to_hit_before_it_is_chosen(sized: Page, shots: Path) -> None:  # noqa: F811
    """Every shot and aimed shot says its chance to hit, in its button's words and on its badge on the map
    (the same figure: against a dodge), and an aimed shot's is never below the plain shot's at that figure."""
    page = sized
    to_the_shots(page)
    said = dict(page.eval_on_selector_all("form#choices button[name=choice]",
                                          "bs => bs.map(b => [b.value, b.textContent])"))
    shots_offered = {choice: words for choice, words in said.items() if choice.startswith(("shoot:", "aim:"))}
    assert shots_offered
    chances = {}
    for choice, words in shots_offered.items():
        found = re.search(r"(<1|>99|\d+)% to hit", words)
        assert found, f"{choice} says no chance: {words!r}"
        chances[choice] = found.group(1)
        badge = page.locator(f'#board [data-choice="{choice}"]')
        assert f"{found.group(1)}%" in badge.text_content().split(), f"{choice}'s badge: {badge.text_content()!r}"
    for choice, chance in chances.items():
        aimed = chances.get(choice.replace("shoot:", "aim:")) if choice.startswith("shoot:") else None
        if aimed is not None and aimed.isdigit() and chance.isdigit():
            assert int(aimed) >= int(chance), (choice, chance, aimed)
    page.screenshot(path=str(shots / f"skirmish-chances-{page.width_name}.png"))


def test_a_long_list_of_choices_is_grouped_and_the_map_still_works(sized: Page, shots: Path) -> None:  # noqa: F811
    """With moves and shots offered (more than twenty choices), the list shows a few lines: "Move: where to",
    "Shoot: whom", each folded with its count, and what has no group. A group opens to its buttons, and one
    of them makes its choice; a target on the map makes its own, its group folded or not."""
    page = sized
    to_the_shots(page, least=13)
    every = page.locator("form#choices button[name=choice]")
    total = every.count()
    assert total > 12
    summaries = page.locator("form#choices details > summary")
    headings = summaries.all_inner_texts()
    moves = next(h for h in headings if h.startswith("Move: where to"))
    shots_heading = next(h for h in headings if h.startswith("Shoot: whom"))
    folded = [int(re.search(r"\((\d+)\)", h).group(1)) for h in headings]  # type: ignore[union-attr]
    top = page.locator("form#choices > ol.choices > li")
    assert top.count() == total - sum(folded) + len(folded) <= 6  # a few lines, not a scroll box of buttons
    assert page.locator("form#choices button[name=choice]:visible").count() == total - sum(folded)
    page.screenshot(path=str(shots / f"skirmish-groups-{page.width_name}.png"))
    summaries.filter(has_text=shots_heading).click()
    shot = page.locator("form#choices details[open] button[name=choice]").first
    expect(shot).to_be_visible()
    assert (shot.get_attribute("value") or "").startswith(("shoot:", "aim:"))
    summaries.filter(has_text=moves).click()
    page.screenshot(path=str(shots / f"skirmish-groups-open-{page.width_name}.png"), full_page=True)
    click_step(page, page.locator("form#choices details[open] button[value^='move:']").first)
    # the map's targets make their choice whatever the list folds (the move may have ended the activation: the
    # decisions that have nothing on the map, an initiative card or a reroll, are made from the list first)
    target = page.locator("#board [data-choice]").first
    for _ in range(MAX_STEPS):
        if target.count() or not page.locator("form#choices button[name=choice]").count():
            break
        click_step(page, page.locator("form#choices button[name=choice]").first)
    assert target.count(), "the map offers no target after a move"
    click_step(page, target)  # a step made (click_step waits for it)


def test_the_duels_felt_holds_its_french_words(sized: Page, shots: Path) -> None:  # noqa: F811
    """In French, each duellist's name and stack ("L'IA", "14 $ restants, 0 $ misés") lie within the felt, as
    the browser's own font draws them."""
    page = sized
    page.goto("/")
    page.locator(".langs a", has_text="FR").click()
    page.goto("/new/zombstone-duel")
    page.locator("form.params button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/[^/]+$"))
    outside = page.eval_on_selector("#board svg", """svg => {
        const felt = svg.querySelector("rect").getBBox();
        return [...svg.querySelectorAll("text")].filter(text => {
            const box = text.getBBox();
            return box.y > felt.y && box.x + box.width > felt.x + felt.width - 8;
        }).map(text => text.textContent);
    }""")
    page.screenshot(path=str(shots / f"duel-fr-{page.width_name}.png"))
    assert not outside, f"past the felt's edge: {outside}"


def test_a_duel_names_its_two_sides_one_way(sized: Page) -> None:  # noqa: F811
    """Against the AI: "You" and "the AI" in the log, on the felt and in the question, never "duellist 0";
    between two people on one screen: "Player 1" and "Player 2" in the log and on the felt."""
    page = sized
    page.goto("/new/zombstone-duel")
    page.locator("form.params button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/[^/]+$"))
    click_step(page, page.locator("form#choices button[name=choice]").first)
    log = page.locator("ol.log").inner_text()
    assert "duellist 0" not in log.lower() and "duellist 1" not in log.lower(), log
    assert "a hole card for you" in log and "a hole card for the AI" in log and "You: " in log, log
    felt = page.locator("#board svg").text_content() or ""
    assert "You" in felt and "The AI" in felt
    if page.locator("p.question").count():
        assert page.locator("p.question").inner_text().startswith("Your turn")

    hot_seat_duel(page)
    page.locator("#choices button").first.click()
    page.locator(".pass a.button").click()
    page.wait_for_selector("#choices button")
    log = page.locator("ol.log").inner_text()
    assert "Player 1: " in log and "a hole card for Player 2" in log and "duellist 0" not in log.lower(), log
    felt = page.locator("#board svg").text_content() or ""
    assert "Player 1" in felt and "Player 2" in felt and "You" not in felt

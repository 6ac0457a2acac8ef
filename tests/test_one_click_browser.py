"""One click, like the generators players know (issue 30), in a real browser at a laptop's and a phone's
width: the home page's Generate makes a finished result of each system with its defaults; a finished map has
"Another one" (a fresh seed, the same parameters, the same name or a default one)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from conftest import CHROMIUM
from dedale.core.seeds import check_seed
from dedale.systems import names, system
from test_web_browser import (  # noqa: F401
    FINGER,
    PHONE,
    SMALLEST_PLACE,
    no_horizontal_scroll,
    no_problems,
    open_page,
    session_id,
    shots,
)
from webserver import Server, api

LAPTOP: ViewportSize = {"width": 1366, "height": 800}
MAPS = tuple(name for name in names() if system(name).generates)  # made in one click, and Another one

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} to drive")


@pytest.fixture(params=[LAPTOP, PHONE], ids=["laptop", "phone"])
def page(request: pytest.FixtureRequest, browser: Browser, server: Server) -> Page:
    opened = open_page(browser, server.url, request.param)
    yield opened  # type: ignore[misc]
    no_problems(opened)
    opened.context.close()


def generate(page: Page, system: str) -> str:
    """The home page's card of `system`, Generate: the play page of what it made (its session's id)."""
    page.goto("/")
    card = page.locator("article.card", has=page.locator(f'a[href="/new/{system}"]'))
    card.get_by_role("button", name="Generate").click()
    page.wait_for_url(re.compile(r"/play/[^/]+$"))
    expect(page.locator("section#play")).to_be_visible()
    return session_id(page)


LONG_SEED = re.compile(r"^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}-[0-9A-Z]{6}$")  # a long seed as the page writes it


def seed_shown(page: Page) -> int:
    """The seed in the header, as written there (a generated map's: a long seed, in base 32)."""
    return check_seed(page.locator("h1 small code.seed").inner_text())


def name_shown(page: Page) -> str:
    return page.locator("h1").evaluate("h => h.firstChild.textContent.trim()")


@pytest.mark.parametrize("system", names())
def test_generate_makes_a_finished_result_in_one_click(page: Page, shots: Path, system: str) -> None:  # noqa: F811
    """Every system, its defaults, one click: finished (a skirmish or a duel played to its end by the AI on
    both sides), its seed shown, a default name, and a map offers another one in view."""
    generate(page, system)
    expect(page.locator("p.status strong")).to_have_text("Finished")
    expect(page.locator("h1 small code.seed")).to_have_text(LONG_SEED)  # a seed nobody at the table can search
    expect(page.locator("h1 small button.copy")).to_be_visible()
    assert re.search(r" · \d+ \w+ \d{4}$", name_shown(page)), name_shown(page)  # "Crawler dungeon · 28 Nov 2026"
    another = page.get_by_role("button", name="Another one")
    expect(another).to_have_count(1 if system in MAPS else 0)
    if system in MAPS:
        expect(another).to_be_in_viewport()
    no_horizontal_scroll(page)
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.screenshot(path=str(shots / f"generate-{system}-{width}.png"))


@pytest.mark.parametrize("system", MAPS)
def test_another_one_keeps_the_parameters_and_the_name(page: Page, server: Server, system: str) -> None:
    """A map made from its form with a name and a parameter changed, played to its end: Another one is a new
    session, a new seed, the same parameters, the same name, finished; one with a default name gets the
    default name again."""
    changed = {"crawler": ("fill_chance", "0.9"), "paper": ("max_cards", "9"), "hexcrawl": ("radius", "3"),
               "keylock": ("unique", "4")}[system]
    page.goto(f"/new/{system}")
    details = page.locator("form.params details")
    if details.count() and not details.first.get_attribute("open"):
        details.first.locator("summary").click()
    page.locator(f'form.params [name="{changed[0]}"]:not([type=hidden])').fill(changed[1])
    page.locator('form.params input[name="name"]').fill("Tomb of the Ink King")
    autopilot = page.locator('input[type=checkbox][name="autopilot"]')
    if autopilot.count():
        autopilot.check()
    page.locator("form.params button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/[^/]+$"))
    first, first_seed = session_id(page), seed_shown(page)
    expect(page.locator("h1")).to_contain_text("Tomb of the Ink King")

    page.get_by_role("button", name="Another one").click()
    page.wait_for_url(lambda url: "/play/" in url and not url.endswith(first))
    second = session_id(page)
    expect(page.locator("h1")).to_contain_text("Tomb of the Ink King")
    expect(page.locator("p.status strong")).to_have_text("Finished")
    one, two = (api(server.url, "GET", f"/api/sessions/{s}/export/json") for s in (first, second))
    assert two["params"] == one["params"] and str(one["params"][changed[0]]) == changed[1]
    assert check_seed(two["seed"]) != first_seed

    generate(page, system)
    named = name_shown(page)
    page.get_by_role("button", name="Another one").click()
    page.wait_for_url(lambda url: "/play/" in url and not url.endswith(second))
    expect(page.locator("p.status strong")).to_have_text("Finished")
    assert name_shown(page) == named  # a default name again, not the one given before


# --- fit the screen ---------------------------------------------------------------------------------------
def inside(inner: dict[str, float] | None, outer: dict[str, float] | None, slack: float = 1) -> bool:
    assert inner is not None and outer is not None
    return (inner["x"] >= outer["x"] - slack and inner["y"] >= outer["y"] - slack
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack)


def start(page: Page, system: str, seed: str) -> None:
    page.goto(f"/new/{system}")
    page.locator('form.params input[name="seed"]').fill(seed)
    page.locator("form.params button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/[^/]+$"))
    page.wait_for_function("() => !!window.htmx")


WINDOW = {"x": 0, "y": 0}


@pytest.mark.parametrize("system", ["crawler", "paper", "hexcrawl", "zombstone"])
def test_the_whole_map_and_the_choices_fit_the_screen(page: Page, shots: Path, system: str) -> None:  # noqa: F811
    """A game just started: on a laptop the whole map and the choices are in the window at once, the choices
    stay there when the page scrolls, and after zooming in, Fit shows the whole map again; on a phone the map
    is whole across the width (no side cut off), unless its places to choose would be smaller than a finger:
    it then opens at the zoom a finger needs, and Fit shows it whole. The zoom buttons never lie over the map."""
    start(page, system, "5")
    size = page.viewport_size
    assert size is not None
    window = {**WINDOW, "width": size["width"], "height": size["height"]}
    board, svg = page.locator("#board"), page.locator("#board > svg")
    choices = page.locator("#choices")
    zoom, frame = page.locator(".zoom").bounding_box(), board.bounding_box()  # the map shows within its frame
    assert zoom and frame and zoom["y"] + zoom["height"] <= frame["y"], "the zoom buttons lie over the map"
    width = size["width"]
    if width <= 900 and page.evaluate("() => document.querySelector('#board.zoomed') !== null"):
        assert page.evaluate(SMALLEST_PLACE) >= FINGER - 0.5, "a phone's map zoomed in for no finger"
    else:
        assert inside(svg.bounding_box(), board.bounding_box()), "the map is cut off"
    page.screenshot(path=str(shots / f"fit-{system}-{width}.png"))
    if width > 900:
        assert inside(svg.bounding_box(), window), "the whole map is not in the window"
        assert inside(choices.locator("h3").bounding_box(), window), "the choices are not beside the map"
    page.get_by_role("button", name="Zoom in").click()
    page.get_by_role("button", name="Zoom in").click()
    page.wait_for_function("() => document.querySelector('#board.zoomed') !== null")
    if width > 900:  # the zoomed map's foot scrolled into the window: the choices are still beside it
        page.evaluate("scrollBy(0, document.getElementById('board').getBoundingClientRect().bottom - innerHeight)")
        assert inside(choices.locator("h3").bounding_box(), window), "the choices scrolled away"
        page.evaluate("window.scrollTo(0, 0)")
    page.get_by_role("button", name="Fit").click()
    assert inside(svg.bounding_box(), board.bounding_box()), "Fit does not fit the whole map"
    if width > 900:
        assert inside(svg.bounding_box(), window), "Fit does not fit the map in the window"


# --- forms -------------------------------------------------------------------------------------------------
FIRST = {"crawler": ["board", "size", "contents"], "paper": ["width", "height", "max_cards"],
         "hexcrawl": ["radius", "obstacle_chance", "sites"], "keylock": ["unique", "multi", "permanent"],
         "zombstone": ["scenario", "side"], "zombstone-duel": ["added", "style"]}
VARIANT = {"crawler": "passed_boss", "paper": "kings", "hexcrawl": "variant", "keylock": "multi_draw",
           "zombstone": "unarmed_malus", "zombstone-duel": "ai_added"}


@pytest.mark.parametrize("system", names())
def test_a_form_shows_the_few_parameters_first_with_short_labels(page: Page, shots: Path, system: str) -> None:  # noqa: F811
    """The parameters people change first are in view, the rule variants folded under More options; each
    label is a few words, its help under it; the form fits the width."""
    page.goto(f"/new/{system}")
    form = page.locator("form.params")
    for name in FIRST[system]:
        expect(form.locator(f'> .grid [name="{name}"]:not([type=hidden])')).to_be_visible()
    variant = form.locator(f'details.more [name="{VARIANT[system]}"]:not([type=hidden])')
    expect(variant).to_be_hidden()
    for label in form.locator(".label").all_text_contents():
        assert 0 < len(label.split()) <= 3, f"a long label: {label!r}"
    first = form.locator("> .grid label", has=page.locator(f'[name="{FIRST[system][0]}"]'))
    label, help_text = first.locator(".label").bounding_box(), first.locator(".help").bounding_box()
    assert label and help_text and help_text["y"] >= label["y"] + label["height"] - 1, "the help is not under its label"
    page.screenshot(path=str(shots / f"form-{system}-{page.viewport_size['width'] if page.viewport_size else 0}.png"),
                    full_page=True)
    form.get_by_text("More options").click()
    expect(variant).to_be_visible()
    no_horizontal_scroll(page)


# --- slow actions, and a game that ends in place ------------------------------------------------------------
def test_the_autopilot_to_the_end_works_once_then_says_who_won(page: Page, shots: Path) -> None:  # noqa: F811
    """A skirmish against the AI: Autopilot to the end turns while it works,
    and nothing can be clicked again meanwhile (one request); once the game ended in place, a banner says who
    won and the header is shown again with the seed, without a reload."""
    page.goto("/new/zombstone")
    page.locator("form.params button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/[^/]+$"))
    page.wait_for_function("() => !!window.htmx")
    page.evaluate("window.notReloaded = true; document.getElementById('seed-line').dataset.before = 'yes'")
    held: list = []
    page.route("**/auto", lambda route: held.append(route))
    button = page.locator('#play button[value="end"]')
    button.click()
    expect(button).to_have_class(re.compile(r"\bworking\b"))
    expect(button).to_be_disabled()
    expect(page.locator("#play")).to_have_attribute("aria-busy", "true")
    page.evaluate("document.querySelector('#play button[value=\"one\"]').click()")
    page.evaluate("document.querySelector('#play form#choices button').click()")
    page.screenshot(path=str(shots / f"working-{page.viewport_size['width'] if page.viewport_size else 0}.png"))
    held[0].continue_()
    expect(page.locator("p.status strong")).to_have_text("Finished")
    assert len(held) == 1, f"{len(held)} requests"  # the clicks while it worked sent nothing
    expect(page.locator(".ending")).to_contain_text(re.compile(r"(lawmen|zombies) win|a draw"))
    expect(page.locator("#seed-line")).not_to_have_attribute("data-before", "yes")  # the header shown anew
    expect(page.locator("#seed-line code.seed")).to_have_text(LONG_SEED)  # over: the seed shown at last
    assert page.evaluate("window.notReloaded === true")
    expect(page.locator("#play")).not_to_have_attribute("aria-busy", "true")
    page.screenshot(path=str(shots / f"ended-{page.viewport_size['width'] if page.viewport_size else 0}.png"))


def test_a_map_ended_in_place_offers_another_one(page: Page) -> None:
    """A crawler played to its end by the autopilot on its page: the banner says how it ended, and Another one
    is there without a reload."""
    start(page, "crawler", "12")
    expect(page.get_by_role("button", name="Another one")).to_have_count(0)
    page.locator('#play button[value="end"]').click()
    expect(page.locator(".ending")).to_contain_text("the dungeon is complete")
    expect(page.get_by_role("button", name="Another one")).to_be_visible()
    expect(page.locator("#seed-line")).to_contain_text("seed 12")



# Once a form is sent, what it shows (read by the page itself, for the page is leaving), and a second sending
# of it, as a second click would make; all kept in the tab's sessionStorage, which outlives the page.
WATCH_THE_FORM = """selector => {
    const form = document.querySelector(selector);
    let sent = 0;
    document.addEventListener("submit", function (event) {  // after app.js's listener, registered before
        if (event.target !== form) return;
        sent += 1;
        if (sent > 1) { sessionStorage.setItem("second", String(event.defaultPrevented)); return; }
        setTimeout(function () {  // after app.js has marked it (in a timeout of its own, set before this one)
            const button = form.querySelector("button[type=submit]");
            sessionStorage.setItem("seen", JSON.stringify([form.classList.contains("busy"),
                form.getAttribute("aria-busy"), button.disabled, button.classList.contains("working")]));
            form.requestSubmit();
        });
    });
}"""


@pytest.mark.parametrize(("address", "form", "sent"), [
    ("/", 'form.generate[action="/new/crawler"]', "/new/crawler"),
    ("/zombstone", "form.card", "/zombstone?"),  # the first: the odds of a roll
])
def test_a_plain_form_shows_it_is_working_and_is_sent_once(page: Page, address: str, form: str, sent: str) -> None:
    """A form without htmx (Generate on the home page, the odds): once sent, it says it is working, its buttons
    are disabled, and a second click sends nothing."""
    page.goto(address)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url) if sent in request.url else None)
    page.evaluate(WATCH_THE_FORM, form)
    page.locator(form).locator("button[type=submit]").first.click()
    expect(page).not_to_have_url(re.compile(r"/$|/zombstone$"))  # the answer: a game, or the odds asked for
    page.wait_for_load_state()
    assert page.evaluate("JSON.parse(sessionStorage.getItem('seen'))") == [True, "true", True, True]
    assert page.evaluate("sessionStorage.getItem('second')") == "true"  # the second sending refused
    assert len(requests) == 1, requests
    expect(page.locator("form.busy")).to_have_count(0)

"""The HTML pages: forms, play panels (htmx partials or plain redirects), downloads, saved sessions, uploads,
permalinks, languages, and errors shown as pages, never as tracebacks."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html import unescape as html_unescape
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape as html_escape

from dedale.systems import names
from dedale.web.forms import form
from webclient import started

HX = {"HX-Request": "true"}


def start(client: TestClient, system: str, **form: str) -> str:
    return started(client, system, **{"seed": "8", **form})


def choice_ids(html: str) -> list[str]:
    return re.findall(r'name="choice" value="([^"]+)"', html)


def test_the_home_page_offers_every_system(client: TestClient) -> None:
    html = client.get("/").text
    for path in ("/new/crawler", "/new/paper", "/new/hexcrawl", "/new/keylock", "/zombstone"):
        assert f'href="{path}"' in html
    assert '<script src="/static/htmx.min.js"' in html


@pytest.mark.parametrize("system", names())
def test_each_form_shows_its_fields_with_their_defaults(client: TestClient, system: str) -> None:
    html = client.get(f"/new/{system}").text
    for field in form(system, "en"):
        assert f'name="{field["name"]}"' in html and field["label"] in html_unescape(html)
    assert 'name="seed"' in html


@pytest.mark.parametrize("system", ["crawler", "paper", "hexcrawl"])
def test_playing_by_form_posts_until_the_end(client: TestClient, system: str) -> None:
    small = {"paper": {"max_cards": "10"}, "hexcrawl": {"radius": "2"}}.get(system, {})
    session_id = start(client, system, **small)
    html = client.get(f"/play/{session_id}").text
    assert "<svg" in html and "seed 8" in html
    for _ in range(500):
        ids = choice_ids(html)
        if not ids:
            break
        # The last choice ends a hexcrawl at once; the first keeps exploring: alternate to see both kinds.
        pick = ids[0] if system != "hexcrawl" or len(re.findall("<li>", html)) < 30 else ids[-1]
        answer = client.post(f"/play/{session_id}/step", data={"choice": pick})
        assert answer.status_code == 303 and answer.headers["location"] == f"/play/{session_id}"
        html = client.get(f"/play/{session_id}").text
    state = client.get(f"/api/sessions/{session_id}").json()
    assert state["over"] and "web.over" not in html and "Finished" in html


def test_an_htmx_click_gets_the_play_panel_only(client: TestClient) -> None:
    session_id = start(client, "crawler")
    first = choice_ids(client.get(f"/play/{session_id}").text)[0]
    panel = client.post(f"/play/{session_id}/step", data={"choice": first}, headers=HX)
    assert panel.status_code == 200 and panel.text.lstrip().startswith('<section id="play"')
    assert "<html" not in panel.text and "choices made: 1" in panel.text
    one = client.post(f"/play/{session_id}/auto", data={"to": "one"}, headers=HX)
    assert "choices made: 2" in one.text
    undone = client.post(f"/play/{session_id}/undo", headers=HX)
    assert "choices made: 1" in undone.text
    end = client.post(f"/play/{session_id}/auto", data={"to": "end"}, headers=HX)
    assert "Finished" in end.text and not choice_ids(end.text)


def test_the_crawler_board_marks_where_each_room_can_go(client: TestClient) -> None:
    session_id = start(client, "crawler")
    html = client.get(f"/play/{session_id}").text
    for _ in range(40):
        places = [c for c in choice_ids(html) if c.startswith("place:")]
        if places:
            break
        html = client.post(f"/play/{session_id}/step", data={"choice": choice_ids(html)[0]}, headers=HX).text
    assert places, "no placement was offered in 40 steps"
    # each place drawn once, and its number once, both making its choice
    assert sorted(re.findall(r'<g class="choice place" data-choice="([^"]+)"', html)) == sorted(places)
    assert sorted(re.findall(r'<g class="choice number" data-choice="([^"]+)"', html)) == sorted(places)


def test_hexcrawl_hexes_one_can_move_to_carry_their_choice(client: TestClient) -> None:
    session_id = start(client, "hexcrawl", radius="3")
    html = client.get(f"/play/{session_id}").text
    on_map = set(re.findall(r'data-choice="([^"]+)"', html))
    moves = {c for c in choice_ids(html) if c.startswith("move")}
    assert on_map == moves and len(moves) == 6  # the centre's six neighbours
    panel = client.post(f"/play/{session_id}/step", data={"choice": sorted(moves)[0]}, headers=HX)
    assert "choices made: 1" in panel.text


def test_the_key_lock_page_shows_the_analysis_and_regenerates(client: TestClient) -> None:
    session_id = start(client, "keylock", unique="4", multi="2")
    html = client.get(f"/play/{session_id}").text
    assert "Designer&#39;s analysis" in html or "Designer's analysis" in html
    assert "The walk:" in html and "Empty locks:" in html and "<svg" in html
    form = html[html.index('action="/new/keylock"'):html.index("</form>", html.index('action="/new/keylock"'))]
    values = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))
    assert values["unique"] == "4" and values["multi"] == "2" and "seed" not in values
    again = client.post("/new/keylock", data=values)
    assert again.status_code == 303 and again.headers["location"] != f"/play/{session_id}"


def test_table_mode_shows_die_faces(client: TestClient) -> None:
    session_id = start(client, "crawler", table_dice="1")
    html = client.get(f"/play/{session_id}").text
    assert "Roll 3d6 for" in html and html.count('class="face"') == 6
    assert 'action="/play/' + session_id + '/auto"' not in html  # no autopilot while the table rolls
    panel = client.post(f"/play/{session_id}/step", data={"choice": "enter:5"}, headers=HX).text
    assert "(die 2 of 3)" in panel


def test_downloads_from_the_play_page(client: TestClient) -> None:
    session_id = start(client, "paper", max_cards="8", autopilot="1")
    html = client.get(f"/play/{session_id}").text
    for fmt in ("json", "svg", "png", "pdf", "txt"):  # each address with its fetch token (`guard.py`)
        assert re.search(rf'href="/play/{session_id}/export\.{fmt}\?k=[0-9a-f]+"', html), fmt
        assert client.get(f"/play/{session_id}/export.{fmt}").status_code == 200
    assert client.get(f"/play/{session_id}/export.json").json()["seed"] == 8
    refused = client.get(f"/play/{session_id}/export.exe")
    assert refused.status_code == 400 and "exe" in refused.text
    assert all(fmt in refused.text for fmt in ("json", "svg", "png", "pdf", "txt"))
    assert "export.uvtt" not in html  # the same file as .dd2vtt: offered once, still downloaded by its name
    for fmt in ("dd2vtt", "uvtt", "foundry.json"):  # virtual tabletops
        assert fmt == "uvtt" or re.search(rf'href="/play/{session_id}/export\.{re.escape(fmt)}\?k=', html), fmt
        download = client.get(f"/play/{session_id}/export.{fmt}")
        assert download.headers["content-type"].startswith("application/json") and download.json()
    hexes = start(client, "hexcrawl", radius="2", autopilot="1")
    html = client.get(f"/play/{hexes}").text
    assert f'href="/play/{hexes}/export.foundry.json?k=' in html and "export.dd2vtt" not in html
    assert client.get(f"/play/{hexes}/export.foundry.json").json()["grid"]["type"] == 4


def test_the_permalink_regenerates_the_same_result(client: TestClient) -> None:
    session_id = start(client, "hexcrawl", radius="4", obstacle_chance="0.5")
    client.post(f"/play/{session_id}/auto", data={"to": "end"})
    html = client.get(f"/play/{session_id}").text
    before = client.get("/api/sessions").json()
    link = re.search(r'href="(/permalink/[^"]+)"', html).group(1).replace("&amp;", "&")  # type: ignore[union-attr]
    query = parse_qs(urlparse(link).query)
    assert query["seed"] == ["8"] and json.loads(query["params"][0])["radius"] == 4
    shown = client.get(link)  # a link makes nothing by itself: it shows what its button would make
    assert shown.status_code == 200 and "seed 8" in shown.text and before == client.get("/api/sessions").json()
    form = dict(re.findall(r'name="(seed|params)" value="([^"]*)"', shown.text))
    opened = client.post(link.split("?")[0], data={k: html_unescape(v) for k, v in form.items()})
    assert opened.status_code == 303
    copy = opened.headers["location"].rsplit("/", 1)[1]
    original, again = (client.get(f"/api/sessions/{i}/export/json").json() for i in (session_id, copy))
    assert again["events"] == original["events"] and again["log"] == original["log"]


@pytest.mark.parametrize("link", [
    "/permalink/crawler?seed=x", "/permalink/crawler?seed=1&params=%7Bnot", "/permalink/chess?seed=1",
    "/permalink/hexcrawl?seed=1&params=%7B%22radius%22%3A99%7D"])
def test_bad_permalinks_are_refused_as_pages(client: TestClient, link: str) -> None:
    response = client.get(link)
    assert response.status_code in (400, 404) and "<h1>" in response.text and "Traceback" not in response.text


def test_saved_sessions_rename_and_delete(client: TestClient) -> None:
    session_id = start(client, "crawler", name="The long stair")
    html = client.get("/sessions").text
    assert "The long stair" in html and f'href="/play/{session_id}"' in html
    assert client.post(f"/sessions/{session_id}/rename", data={"name": "The short stair"}).status_code == 303
    assert "The short stair" in client.get("/sessions").text
    assert client.post(f"/sessions/{session_id}/rename", data={"name": ""}).status_code == 422
    assert client.post(f"/sessions/{session_id}/delete").status_code == 303
    assert "The short stair" not in client.get("/sessions").text
    gone = client.get(f"/play/{session_id}")
    assert gone.status_code == 404 and session_id in gone.text


def test_upload_opens_a_document_and_refuses_others(client: TestClient) -> None:
    session_id = start(client, "crawler")
    document = client.get(f"/play/{session_id}/export.json").content
    opened = client.post("/upload", files={"document": ("d.json", document, "application/json")})
    assert opened.status_code == 303 and opened.headers["location"] != f"/play/{session_id}"
    for content, problem in ((b"\xff\xfe", "upload"), (b"[1, 2]", "format"), (b"x" * (8 * 1024 * 1024 + 1), "8192")):
        refused = client.post("/upload", files={"document": ("d.json", content, "application/json")})
        assert refused.status_code == (413 if problem == "8192" else 400) and problem in refused.text, problem


def test_form_errors_are_pages_naming_the_field(client: TestClient) -> None:
    response = client.post("/new/hexcrawl", data={"radius": "400"})
    assert response.status_code == 400 and "radius" in response.text and "40" in response.text
    assert 'name="radius" value="400"' in response.text  # the form as it was sent, to mend
    assert client.post("/new/crawler", data={"seed": "-3"}).status_code == 400
    assert client.get("/new/chess").status_code == 404
    assert client.post("/play/nope/step", data={"choice": "x"}).status_code == 404


def test_a_game_for_two_browsers_with_real_dice_is_refused_on_its_form(client: TestClient) -> None:
    """One line, on the form before anything starts, the form as it was sent; the form already said it."""
    form = client.get("/new/zombstone-duel").text
    assert "A game for two browsers is never played so" in form
    sent = {"seating": "linked", "table_dice": "1", "name": "Saloon", "added": "3"}
    refused = client.post("/new/zombstone-duel", data=sent)
    refusal = re.findall(r'<p class="refused" role="alert">([^<]*)</p>', refused.text)
    assert refused.status_code == 400 and len(refusal) == 1 and "real dice" in refusal[0]
    assert '<form class="params card"' in refused.text and '<option value="linked" selected>' in refused.text
    assert 'name="table_dice" value="1" checked' in refused.text and 'value="Saloon"' in refused.text
    assert 'name="added" value="3"' in refused.text
    assert client.get("/api/sessions").json() == []  # nothing was made


def test_languages_switch_and_stay(client: TestClient) -> None:
    switched = client.get("/lang/fr", params={"next": "/zombstone?potential=2"})
    assert switched.status_code == 303 and switched.headers["location"] == "/zombstone?potential=2"
    html = client.get("/").text
    assert '<html lang="fr">' in html and "Parties sauvegardées" in html
    assert client.get("/lang/de").headers["location"] == "/"
    assert '<html lang="fr">' in client.get("/").text  # an unknown language changes nothing
    for target in ("//evil.example/", "https://evil.example/"):
        assert client.get("/lang/en", params={"next": target}).headers["location"] == "/"


def test_the_zombstone_confrontation_says_what_it_is_for(client: TestClient) -> None:
    """The heading names each side's weapon, the cover and the reaction; an impossible tie reads 0%; the page
    says why return fire makes heavy cover light for both."""
    html = client.get("/zombstone", params={"attacker": 2, "defender": 2, "cover": "heavy", "reaction": "return",
                                            "attacker_weapon": "light_colt", "defender_weapon": "winchester"}).text
    heading = re.search(r'id="duel">\s*<h2>(.*?)</h2>', html, re.S)
    assert heading is not None
    assert heading.group(1) == ("Attacker (Potential 2, Light Colt) against defender (Potential 2, Winchester) · "
                                "a shot, heavy cover, counted as light for both shooters; the target returns fire")
    cells = re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td><td><code>([^<]*)</code>", html)
    tie = next(cell for cell in cells if cell[0] == "a tie")
    assert tie[1:] == ("0%", "")  # exactly none: a percentage, not "0/1"
    assert "every piece of cover between them counts as light" in html
    melee = client.get("/zombstone", params={"attacker": 1, "defender": 0, "melee": "true"}).text
    assert "Potential 1, Improvised weapon) against defender (Potential 0, Improvised weapon) · melee</h2>" in melee
    client.get("/lang/fr")
    french = client.get("/zombstone", params={"attacker": 2, "defender": 2, "cover": "light"}).text
    assert "· un tir, couvert léger\u00a0; la cible esquive</h2>" in french


def test_the_zombstone_calculator(client: TestClient) -> None:
    html = client.get("/zombstone", params={"potential": 2, "attacker": 1, "defender": 0, "melee": "true",
                                            "attacker_weapon": "spear"}).text
    assert "193/23328" in html and 'id="duel"' in html
    plots = re.findall(r'<img class="plot"[^>]*src="([^"]+)"', html)
    assert len(plots) == 2
    for plot in plots:
        png = client.get(plot.replace("&amp;", "&"))
        assert png.status_code == 200 and png.content[:4] == b"\x89PNG"
    assert client.get("/zombstone", params={"potential": 9}).status_code == 400
    assert client.get("/zombstone", params={"potential": "x"}).status_code == 422
    assert client.get("/zombstone/duel.png", params={"attacker": 9, "defender": 0}).status_code == 400


def test_the_duel_plot_is_one_picture_for_every_pair(client: TestClient) -> None:
    """The grid covers every pair of Potentials, whichever pair is asked: drawn once a situation."""
    from dedale.render.zombstone_plot import duel_chart
    from dedale.zombstone.confront import Situation

    assert duel_chart(Situation(1, 2, cover="light"), "en") == duel_chart(Situation(4, 0, cover="light"), "en")
    asked = [client.get("/zombstone/duel.png", params={"attacker": a, "defender": d, "cover": "light"}).content
             for a, d in ((1, 2), (4, 0))]
    assert asked[0] == asked[1] and asked[0][:4] == b"\x89PNG"


def test_static_files_come_only_from_the_package_folder(client: TestClient) -> None:
    assert client.get("/static/style.css").status_code == 200
    for path in ("/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py", "/docs", "/redoc"):
        assert client.get(path).status_code == 404  # /docs would load a CDN's scripts


def test_table_mode_shows_cards_with_their_suits(client: TestClient) -> None:
    session_id = start(client, "paper", table_dice="1")
    html = client.get(f"/play/{session_id}").text
    for _ in range(20):
        if "Draw a card" in html:
            break
        html = client.post(f"/play/{session_id}/step", data={"choice": choice_ids(html)[0]}, headers=HX).text
    assert "Draw a card" in html and len(choice_ids(html)) == 52
    assert 'class="face red" type="submit" name="choice" value="enter:AH" aria-label="AH">A♥<' in html
    assert 'value="enter:10S" aria-label="10S">10♠<' in html


@pytest.mark.parametrize(("name", "table", "params"), [
    ("crawler", False, {}), ("crawler", True, {}), ("paper", False, {"max_cards": 25}),
    ("hexcrawl", False, {"radius": 4}), ("zombstone", True, {}), ("zombstone", False, {})])
def test_the_panels_log_is_the_log_worded_afresh(name: str, table: bool, params: dict[str, object]) -> None:
    """The play panel words each log entry once and keeps the words between clicks: what it shows is always
    what wording the log afresh gives, through steps, results entered at the table (whose partial rolls are
    dropped) and undos (those a game with secrets allows: `tests/test_secrets.py`), in each language."""
    import random

    import dedale
    from dedale.core.logtext import describe
    from dedale.web import views

    session = dedale.play(name, 5, table=table, **params)
    pick = random.Random(5)
    for number in range(60):
        if session.is_over:
            break
        if number % 9 == 8 and session.can_undo():
            session.undo()
        else:
            session.step(pick.choice(session.choices()))
        for lang in ("en", "fr"):
            entries = session.seat_log()
            newest = [describe(entry, lang) for entry in reversed(entries[-views.LOG_LINES:])]
            assert views.log_lines(session, lang) == (newest, len(entries))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_form_drop_downs_show_words_in_the_pages_language_not_ids(client: TestClient, lang: str) -> None:
    client.get(f"/lang/{lang}")
    for system in names():
        for field in form(system, lang):
            labels = field["option_labels"]
            assert set(labels) == set(field["options"])
            for value, label in labels.items():
                assert label and not label.startswith("param.") and "_" not in label, (system, field["name"], value)
        html = client.get(f"/new/{system}").text
        for field in form(system, lang):
            for value, label in field["option_labels"].items():
                assert f'<option value="{value}"' in html and f">{html_escape(label)}</option>" in html
    assert ">OK Corral 1881</option>" in client.get("/new/zombstone").text


def test_a_favicon_is_served_where_browsers_look_for_it(client: TestClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert icon.content == client.get("/static/favicon.svg").content and icon.content.startswith(b"<svg")
    assert '<link rel="icon" href="/static/favicon.svg"' in client.get("/").text


def test_a_new_session_or_an_upload_is_made_off_the_event_loop(client: TestClient,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A form's session, an uploaded document's replay, an API body's reading are done in the thread pool, as
    every click's work: on the event loop they would hold every other request until they are done."""
    import asyncio

    from dedale.web import api, service

    loops: list[bool] = []

    def on_a_loop() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    def recorded(made: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            loops.append(on_a_loop())
            return made(*args, **kwargs)
        return call

    for name in ("create", "upload"):
        monkeypatch.setattr(service, name, recorded(getattr(service, name)))
    monkeypatch.setattr(api, "parse_json", recorded(api.parse_json))
    session_id = start(client, "crawler")
    document = client.get(f"/play/{session_id}/export.json").content
    assert client.post("/upload", files={"document": ("d.json", document, "application/json")}).status_code == 303
    assert client.post("/api/upload", content=document, headers={"Content-Type": "application/json"}).status_code == 201
    assert loops == [False, False, False]  # the form's session, the page's upload, the API's body


def test_a_default_name_is_the_system_and_the_day_in_the_pages_language() -> None:
    """A player names a game by what it is and when: never by its seed (issue 30)."""
    from datetime import date

    from dedale.core.session import Session
    from dedale.crawler.session import CrawlerRules
    from dedale.web.service import default_name

    session = Session(CrawlerRules, seed=4)
    assert default_name(session.system, "en", date(2026, 11, 28)) == "Crawler dungeon · 28 Nov 2026"
    assert default_name(session.system, "fr", date(2026, 2, 3)).endswith(" · 3 févr. 2026")

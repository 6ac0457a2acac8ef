"""Words a player reads outside the pictures (issue 30): poker dice logged as poker dice, a certain chance as
"0%" or "100%" (never "0/1"), no "seed -" where a view hides its seed, the permalink page in words, forms
without the command line's words."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from html import unescape as html_unescape
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import dedale
from dedale.cli.zombstone import _pct
from dedale.core.logtext import describe, describe_request
from dedale.core.rng import Request
from dedale.core.session import SPECTATOR
from dedale.i18n import catalogue, t
from dedale.render.duel_svg import render_svg, render_text
from dedale.systems import names as system_names
from dedale.systems import system
from dedale.web.forms import form
from dedale.web.service import download_name, safe_file_name
from dedale.web.zombstone import answer, fraction, odds_document, percent


@pytest.mark.parametrize(("lang", "five", "one"), [("en", "5 poker dice", "1 poker die"),
                                                   ("fr", "5 dés de poker", "1 dé de poker")])
def test_poker_dice_are_logged_as_poker_dice(lang: str, five: str, one: str) -> None:
    session = dedale.play("zombstone", seed=1, scenario="ok_corral", side=None)
    session.run_autopilot()
    rolled = [describe(entry, lang) for entry in session.log if "faces" in entry]
    assert rolled and not any("d6" in line for line in rolled)
    faces = r"(?: (?:9|10|J|Q|K|A))"
    assert any(re.search(rf"{five} →{faces}{{5}}(?!\S)", line) for line in rolled), rolled[:5]
    assert any(re.search(rf"{one} →{faces}(?!\S)", line) for line in rolled), rolled[:5]
    asked = describe_request(Request("face", ("9", "10", "J", "Q", "K", "A"), "skirmish.roll", {"who": "Doc"},
                                     "5d6", 1, 5), lang)
    assert five in asked and "5d6" not in asked


def test_a_certain_chance_is_a_percentage_not_a_fraction() -> None:
    assert percent({"p": 0.0, "exact": "0/1"}) == "0%" and fraction({"p": 0.0, "exact": "0/1"}) == ""
    assert percent({"p": 1.0, "exact": "1/1"}) == "100%" and fraction({"p": 1.0, "exact": "1/1"}) == ""
    tiny = {"p": 25 / 629856, "exact": "25/629856"}  # possible, however unlikely: not "0.00%"
    assert percent(tiny) == "<\u00a00.01%" and fraction(tiny) == "25/629856"
    assert percent({"p": 1 - 25 / 629856, "exact": "629831/629856"}) == ">\u00a099.99%"
    assert percent({"p": 65 / 162, "exact": "65/162"}) == "40.12%"
    assert _pct(Fraction(0)).strip() == "0%" and _pct(Fraction(1)).strip() == "100%"
    assert _pct(Fraction(65, 162)).split() == ["40.12%", "65/162"]


def test_the_odds_page_shows_no_zero_fraction(client: TestClient) -> None:
    html = client.get("/zombstone?potential=-4&objective=rank").text  # every hand but "nothing" is impossible
    assert "0/1" not in html and "1/1" not in html and html.count("<td>0%</td>") == 6
    html = client.get("/zombstone?attacker=-4&defender=5").text  # no tie is possible, a win barely is
    assert "0/1" not in html and "<td>0%</td>" in html and "&lt;\u00a00.01%" in html and "0.00%" not in html


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_duel_without_its_seed_says_nothing_of_it(lang: str) -> None:
    session = dedale.play("zombstone-duel", seed=3)
    document = session.to_json()
    assert re.search(r"(seed|graine) 3 ·", render_text(document, lang))
    hidden = {**document, "seed": None}  # a seat's view during play
    for shown in (render_text(hidden, lang), render_svg(hidden, lang)):
        assert not re.search(r"(seed|graine)\b", shown) and "- ·" not in shown


def test_the_permalink_page_is_in_words(client: TestClient) -> None:
    html = client.get("/permalink/crawler?seed=4&params=%7B%7D").text
    shown = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", html))
    assert shown and not any(re.fullmatch(r"[a-z]+(_[a-z]+)+", label) for label in shown)  # no keys
    assert not {"None", "True", "False", "—"} & set(shown.values()) and not any("[" in v for v in shown.values())
    assert "yes" in shown.values() and "south" in shown.values() and "5x5" in shown.values()
    assert "the rules&#39; default" in shown.values()  # the tile stock, unlimited
    html = client.get("/permalink/zombstone?seed=4&params=%7B%7D").text
    assert "OK Corral 1881" in html and "ok_corral" not in html and "--data" not in html


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_forms_say_no_command_line_words(lang: str) -> None:
    labels = [field["label"] for field in form("zombstone", lang)]
    assert not any("--" in label or "ok_corral" in label for label in labels), labels


def test_a_download_is_named_after_its_session_and_view() -> None:
    crawler = dedale.play("crawler", seed=4)
    assert download_name(crawler, "Crawler dungeon · 28 Nov 2026", "png") == "crawler-dungeon-28-nov-2026-4-gm.png"
    assert download_name(crawler, "L'été à Dédale", "svg", "party") == "l-ete-a-dedale-party.svg"
    assert download_name(crawler, "../../etc/passwd", "txt", part="log") == "etc-passwd-4-gm-log.txt"
    assert download_name(crawler, "★★★", "json") == "crawler-4-gm.json"  # nothing left of the name: the system's
    assert len(safe_file_name("a" * 300)) == 60 and safe_file_name("CON: <x>?") == "con-x"
    duel = dedale.play("zombstone-duel", seed=3, opponent="human")  # both hands hidden: each seat's own view
    assert download_name(duel, "Duel", "txt", seat=1) == "duel-seat-2.txt"
    assert download_name(duel, "Duel", "txt", seat=SPECTATOR) == "duel-table.txt"  # a hot seat between turns


@pytest.mark.parametrize(("system", "named"), [
    ("crawler", ["Game file (JSON, to continue it)", "Picture (SVG)", "Picture (PNG)", "Text (TXT)",
                 "One page (PDF)", "Print at 1:1 (PDF, tiles)", "Universal VTT (.dd2vtt)",
                 "Foundry scene (.json)", "Foundry scene and its picture (.zip)"]),
    ("keylock", ["Game file (JSON, to continue it)", "Picture (SVG)", "Picture (PNG)", "Text (TXT)",
                 "One page (PDF)", "Graph (Graphviz .dot)"])])
def test_the_downloads_are_named_once_each(client: TestClient, system: str, named: list[str]) -> None:
    made = client.post("/api/sessions", json={"system": system, "seed": 4, "autopilot": True}).json()
    page = client.get(f"/play/{made['id']}").text
    html = page[page.index('<details class="downloads">'):page.index("</details>", page.index('class="downloads"'))]
    links = re.findall(r'<a href="/play/[^/]+/export\.([a-z.0-9]+)(?:\?[^"]*)?" download>([^<]*)</a>', html)
    assert sorted(html_unescape(label) for _, label in links) == sorted(named)
    assert len({fmt for fmt, _ in links}) == len(links) and "uvtt" not in {fmt for fmt, _ in links}


def test_open_a_file_names_what_it_got_and_what_it_needs(client: TestClient) -> None:
    crawler = dedale.play("crawler", seed=4)
    crawler.run_autopilot()
    document = crawler.to_json()
    made = {ext: system("crawler").export(document, ext) for ext in (".png", ".svg", ".pdf", ".txt", ".dd2vtt",
                                                                        ".foundry.json")}
    made[".dot"] = system("keylock").export(dedale.play("keylock", seed=4).to_json(), ".dot")
    made[".party.json"] = json.dumps(system("crawler").in_view(document, "party")).encode()
    duel = dedale.play("zombstone-duel", seed=3, opponent="human")
    made[".seat.json"] = json.dumps(duel.seat_json(0)).encode()
    said = {".png": "a PNG picture", ".svg": "an SVG picture", ".pdf": "a PDF", ".txt": "not JSON",
            ".dd2vtt": "a Universal VTT file", ".foundry.json": "a Foundry scene", ".dot": "a Graphviz graph",
            ".party.json": "is a party view", ".seat.json": "one seat's view"}
    for ext, content in made.items():
        refused = client.post("/upload", files={"document": ("file" + ext, content, "application/octet-stream")})
        text = html_unescape(refused.text)
        assert refused.status_code == 400 and said[ext] in text, (ext, text[-600:])
        needs = "open a game file, the JSON document Dédale saves" if ext.count(".") == 1 or ext == ".foundry.json" \
            else "continue from the GM's document" if ext == ".party.json" else "save it once it is over"
        assert needs in text and " -o " not in text, (ext, needs)
    other = client.post("/upload", files={"document": ("n.json", b" 42", "application/json")})  # JSON, not a game
    assert other.status_code == 400 and "not JSON" not in other.text and "is not a dedale/crawler" in other.text
    api = client.post("/api/upload", json=json.loads(made[".dd2vtt"]))
    assert api.status_code == 400 and "a Universal VTT file" in api.json()["error"]


def test_the_crawler_prints_at_1_1_beside_its_one_page_pdf(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dungeon = dedale.play("crawler", seed=4)
    dungeon.run_autopilot()
    one, tiles = (system("crawler").export(dungeon.to_json(), ext) for ext in (".pdf", ".tiles.pdf"))
    pages = [len(re.findall(rb"/Type\s*/Page[^s]", pdf)) for pdf in (one, tiles)]
    assert pages[0] == 1 and pages[1] > 2, pages  # the map, then the board across A4 pages
    code, _, err = cli("crawler", "--seed", "4", "-o", str(tmp_path / "board.tiles.pdf"))
    assert code == 0 and "board.tiles.pdf" in err
    assert (tmp_path / "board.tiles.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(("lang", "target", "rank"), [
    ("en", "At least two pairs: 77.6%", "Most likely: Two pairs, 32.4%"),
    ("fr", "Au moins deux paires\u00a0: 77.6%", "Le plus probable\u00a0: Deux paires, 32.4%")])
def test_the_odds_answer_the_question_asked(lang: str, target: str, rank: str) -> None:
    assert answer(odds_document(2, "target", "two_pairs", None), lang) == target  # 503/648
    assert answer(odds_document(2, "rank", None, None), lang) == rank
    assert answer(odds_document(-4, "target", "five", None), lang).endswith(" 0%")  # impossible: exactly 0%


def test_french_puts_a_non_breaking_space_before_high_punctuation() -> None:
    """French typography: "Salle 2 : …", never a plain space (a line may break there) nor none before ":",
    ";", "!" or "?", and none inside « guillemets » either (JSON examples in messages keep their own colons)."""
    messages = catalogue("fr")
    assert len(messages) > 500
    for key, text in messages.items():
        shown = re.sub(r'\{\{[^}]*\}\}|"[a-z]+": ', "", text)  # literal JSON such as {{"choice": id}}
        assert not re.search(r" [:;!?]|« | »", shown), (key, text)
        assert not re.search(r"[\w}),.'’)»]([:;!?])(?=\s|$)", shown), (key, text)
    assert t("log.rolled", "fr", what="la taille", roll="3d6", result="9") == "la taille\u00a0: 3d6 → 9"
    for name in system_names():  # and the parameters' help, declared in the code beside their English
        for field in form(name, "fr"):
            for text in (field["label"], field["help"], *(field["option_labels"] or {}).values()):
                assert not re.search(r" [:;!?]|« | »", text), (name, field["name"], text)


@pytest.mark.parametrize(("lang", "wall"), [("en", "the west"), ("fr", "ouest")])
def test_walls_and_cards_are_named_in_the_readers_language(lang: str, wall: str) -> None:
    from dedale.core.cards import Card

    assert t("crawler.search", lang, room=2, dir="W").count(wall.split()[-1]) == 1
    assert "W" not in t("paper.search", lang, feature=3, dir="W")
    assert [Card.parse(code).short(lang) for code in ("QH", "KS", "JC", "AD", "10S")] == (
        ["Q♥", "K♠", "J♣", "A♦", "10♠"] if lang == "en" else ["D♥", "R♠", "V♣", "A♦", "10♠"])
    duel = dedale.play("zombstone-duel", seed=3)
    duel.run_autopilot()
    drawn = [describe(entry, lang) for entry in duel.log if "draw" in entry]
    assert drawn and not any(re.search(r"\b(10|[2-9JQKA])[HDSC]\b", line) for line in drawn), drawn
    assert "[D♠]" in render_text(duel.to_json(), "fr") and "[Q♠]" in render_text(duel.to_json(), "en")


def test_the_paper_log_names_a_feature_as_its_picture_shows_it() -> None:
    """A room by its number, anything else by the card that made it (drawn with the cards option), never by a
    feature number the picture does not show; a document worded before (version 3) still loads."""
    from dedale.core.cards import Card
    from dedale.core.session import Session
    from dedale.paper.session import PaperRules

    for seed in range(6):
        session = dedale.play("paper", seed=seed)
        session.run_autopilot()
        document = session.to_json()
        cards = {Card(**feature["card"]).short(lang) for feature in document["features"] if feature["card"]
                 for lang in ("en", "fr")}
        for lang, number in (("en", r"\bfeature \d"), ("fr", r"élément \d+(?![\d♥♦♣♠])")):
            lines = [describe(session.rules.log_entry(entry), lang) for entry in session.log]
            assert not [line for line in lines if re.search(number, line)]
            named = {found for line in lines for found in re.findall(r"(?:the |l'élément )(\S+[♥♦♣♠])", line)}
            assert named and named <= cards, named - cards
        older = {**document, "version": 3, "log": [{**entry, "args": {k: v for k, v in entry.get("args", {}).items()
                                                                     if k != "what"}} for entry in document["log"]]}
        assert Session.from_json(PaperRules, older).to_json() == document

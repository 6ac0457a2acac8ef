"""Zombstone's battlefield as a picture and as text, drawn from saved games: what each must show, the
clickable choices, and the one clear error a malformed document gives."""

from __future__ import annotations

import copy
import json
import math
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from dedale.core.errors import DedaleError
from dedale.render import zombstone_marks as marks
from dedale.render.png import svg_to_png
from dedale.render.zombstone_svg import render_svg
from dedale.render.zombstone_text import grid_size, render_text, symbol
from dedale.zombstone.skirmish.view import GameView

DATA = Path(__file__).parent / "data" / "zombstone"
SAMPLES = ("midgame", "finished", "high_noon", "asking_action")
SVG = "{http://www.w3.org/2000/svg}"


def document(name: str) -> dict[str, Any]:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def groups(root: ElementTree.Element, kind: str) -> list[ElementTree.Element]:
    """The <g> elements whose first class is `kind`."""
    return [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").split()[:1] == [kind]]


def texts(root: ElementTree.Element) -> str:
    return " ".join(el.text or "" for el in root.iter(f"{SVG}text"))


@pytest.mark.parametrize("name", SAMPLES)
def test_svg_draws_every_figure_piece_of_terrain_and_line_of_fire(name: str) -> None:
    data = document(name)
    root = ElementTree.fromstring(render_svg(GameView.from_json(data)))
    game = data["game"]
    on_table = [f for f in game["figures"] if f["state"] != "gone"]
    assert sorted(int(g.get("data-figure")) for g in groups(root, "figure")) == [f["id"] for f in on_table]
    assert len(groups(root, "terrain")) == len(data["scenario"]["terrain"])
    assert len(groups(root, "fire")) == len(game["fire"]) + len(game["last_fire"])
    assert not groups(root, "choice")
    words = texts(root)
    assert f"Dédale — Zombstone: {data['scenario']['name']}" in words
    assert f"Turn {game['turn']} of {data['scenario']['turns']}" in words
    for piece in data["scenario"]["terrain"]:
        assert piece["name"] in words or piece["kind"] == "building"  # buildings' names may wrap
    for profile in data["profiles"].values():  # every character in the roster
        assert profile["name"][:20] in words


def test_the_fallen_stay_where_they_fell_and_the_fled_are_only_in_the_roster() -> None:
    data = document("finished")
    root = ElementTree.fromstring(render_svg(GameView.from_json(data)))
    drawn = {int(g.get("data-figure")): g for g in groups(root, "figure")}
    out = [f["id"] for f in data["game"]["figures"] if f["state"] == "out"]
    gone = [f["id"] for f in data["game"]["figures"] if f["state"] == "gone"]
    assert out and gone
    for figure in out:
        assert drawn[figure].get("class") == "figure out"
        assert drawn[figure].find(f"{SVG}path") is not None  # the cross over it
        assert drawn[figure].find(f".//{SVG}g[@class='cartridges']") is None
    assert not set(gone) & set(drawn)
    roster = {int(g.get("data-figure")) for g in groups(root, "roster")}
    assert roster == {f["id"] for f in data["game"]["figures"]}
    assert "fled for good" in texts(root) and "out of play" in texts(root)


def test_the_outcome_and_the_duel_are_told() -> None:
    words = texts(ElementTree.fromstring(render_svg(GameView.from_json(document("high_noon")))))
    assert "Time is up: the zombies win" in words
    assert "Duel: the lawmen won, Three of a kind against One pair" in words
    words = texts(ElementTree.fromstring(render_svg(GameView.from_json(document("asking_action")))))
    assert "waiting for the lawmen (Deputy 1)" in words


def test_states_are_drawn_with_marks_not_colour_alone() -> None:
    data = document("midgame")
    figures = data["game"]["figures"]
    figures[0]["state"] = "fleeing"
    figures[8]["hidden"] = True
    figures[9]["hidden"] = True
    view = GameView.from_json(data)
    svg_text = render_svg(view)
    root = ElementTree.fromstring(svg_text)
    drawn = {int(g.get("data-figure")): g for g in groups(root, "figure")}
    assert drawn[0].find(f".//{SVG}g[@class='fleeing']") is not None
    assert drawn[3].find(f".//{SVG}path[@class='wound']") is not None  # Morgan Earp is wounded
    assert drawn[8].get("class") == "figure token" and drawn[9].get("class") == "figure token"
    assert [el.text for el in drawn[8].iter(f"{SVG}text")] == ["1"]
    assert [el.text for el in drawn[9].iter(f"{SVG}text")] == ["2"]
    assert "Ike Clanton" not in " ".join(el.text or "" for el in drawn[8].iter(f"{SVG}text"))
    assert 'fill="url(#heavy)"' in svg_text and 'fill="url(#light)"' in svg_text  # patterns, not hues
    grid = render_text(view)
    assert "A!" in grid and "D*" in grid
    assert symbol(view, view.figures[8]) == "1" and symbol(view, view.figures[9]) == "2"


def disc(group: ElementTree.Element) -> tuple[float, float, float]:
    """A clickable mark's disc: its centre and radius."""
    circle = next(group.iter(f"{SVG}circle"))
    return float(circle.get("cx", 0)), float(circle.get("cy", 0)), float(circle.get("r", 0))


def test_choices_are_clickable_and_several_may_aim_at_one_figure() -> None:
    view = GameView.from_json(document("asking_action"))
    links: dict[str, dict[str, Any]] = {
        "shoot:6": {"figure": 6, "kind": "action", "label": "Shoot The Cajun from New Orleans (cover: 0)"},
        "aim:6": {"figure": 6, "kind": "action", "label": "Aimed shot at The Cajun from New Orleans"},
        "shoot:8": {"figure": 8, "kind": "action", "label": "Shoot Ike Clanton, dandy zombie (cover: 1)"},
        "move:25.5,14.2": {"to": (25.5, 14.2), "figure": 10, "charge": False, "label": "Move toward Frank McLaury"},
        "move:29.5,10.1": {"to": [29.5, 10.1], "label": "Move north"},
        "move:7.4,18": {"to": [7.4, 18.0], "figure": 6, "charge": True, "label": "Charge The Cajun from New Orleans"},
        "end": {"kind": "action", "label": "End this activation"},  # nothing to point at: not drawn
    }
    root = ElementTree.fromstring(render_svg(view, links))
    choices = groups(root, "choice")
    assert sorted(g.get("data-choice") for g in choices) == sorted(set(links) - {"end"})
    for g in choices:
        assert g.find(f"{SVG}title").text == links[g.get("data-choice")]["label"]
    by_id = {g.get("data-choice"): g for g in choices}
    assert by_id["shoot:6"].get("class") == "choice shoot" and by_id["aim:6"].get("class") == "choice aim"
    shoot, aim = disc(by_id["shoot:6"]), disc(by_id["aim:6"])  # two badges side by side, each clickable
    assert shoot[2] == aim[2] == marks.TARGET
    assert math.dist(shoot[:2], aim[:2]) >= 2 * marks.TARGET - 0.5
    assert by_id["move:7.4,18"].find(f"{SVG}g[@class='melee-mark']") is not None  # a charge: not by colour alone
    assert by_id["move:29.5,10.1"].find(f"{SVG}g[@class='melee-mark']") is None
    table_x, table_y = 28 + 20, 28 + 62 + 20  # the margin, the header and the rulers
    assert disc(by_id["move:29.5,10.1"])[:2] == pytest.approx((table_x + 29.5 * 18, table_y + 10.1 * 18))


def test_text_view_grid_and_roster() -> None:
    for name in SAMPLES:
        data = document(name)
        for piece in data["scenario"]["terrain"]:
            piece.pop("name")  # no building's name in the grid: its only letters are the figures'
        view = GameView.from_json(data)
        text = render_text(view)
        lines = text.splitlines()
        columns, rows = grid_size(view)
        assert (columns, rows) == (2 * int(data["scenario"]["width"]), int(data["scenario"]["height"]))
        top = next(i for i, line in enumerate(lines) if line.startswith("   ┌"))
        grid = lines[top + 1:top + 1 + rows]
        assert lines[top + 1 + rows].startswith("   └")
        assert all(len(line) == 4 + columns + 1 for line in grid)
        assert max(len(line) for line in lines) <= 100
        inside = "".join(line[4:-1] for line in grid)
        assert sorted(c for c in inside if c.isalnum()) == sorted(view.label(f) for f in view.figures if f.on_table)
        for figure in view.figures:
            assert re.search(rf"^  {view.label(figure)}  {re.escape(view.name(figure)[:20])}", text, re.M)
        marks = {"building": "#", "heavy": "=", "light": ":", "difficult": "."}
        assert {marks[piece["kind"]] for piece in data["scenario"]["terrain"]} <= set(inside)
        assert f"Turn {data['game']['turn']} of {data['scenario']['turns']}" in text


def test_text_cartridges_show_white_red_and_lost() -> None:
    text = render_text(GameView.from_json(document("midgame")))
    assert re.search(r"Morgan Earp .* ○○○○◇◆  wounded", text)
    assert re.search(r"Wyatt Earp .* ●●●●◆◆  ready", text)


def test_french() -> None:
    view = GameView.from_json(document("finished"))
    words = texts(ElementTree.fromstring(render_svg(view, lang="fr")))
    assert "Dédale — Zombstone\u00a0: OK Corral 1881" in words and "Tour 8 sur 8" in words
    assert "hors de combat" in words and "Vedette" in words and "Légende" in words
    text = render_text(view, "fr")
    assert "Hommes de loi" in text and max(len(line) for line in text.splitlines()) <= 100


def test_png_is_a_picture() -> None:
    png = svg_to_png(render_svg(GameView.from_json(document("high_noon"))))
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000


def _set(data: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for key in parents:
        data = data[int(key)] if isinstance(data, list) else data[key]
    if value is DELETE:
        del data[last]
    elif isinstance(data, list):
        data[int(last)] = value
    else:
        data[last] = value


DELETE = object()


@pytest.mark.parametrize(("path", "value", "field"), [
    ("scenario", DELETE, "$.scenario"),
    ("game", [], "$.game"),
    ("game.figures", {}, "$.game.figures"),
    ("game.figures.3.x", "12", "$.game.figures[3].x"),
    ("game.figures.3.y", float("nan"), "$.game.figures[3].y"),
    ("game.figures.3.state", "dead", "$.game.figures[3].state"),
    ("game.figures.3.side", "bandits", "$.game.figures[3].side"),
    ("game.figures.3.profile", "nobody", "$.game.figures[3].profile"),
    ("game.figures.3.ticked", 7, "$.game.figures[3].ticked"),
    ("game.figures.3.wounded", "yes", "$.game.figures[3].wounded"),
    ("game.figures.3.id", 4, "$.game.figures[3].id"),
    ("game.fire.0.line", [1, 2, 3], "$.game.fire[0].line"),
    ("game.fire.0.to", 99, "$.game.fire[0].to"),
    ("game.fire.0.won", "nobody", "$.game.fire[0].won"),
    ("game.last_fire", None, "$.game.last_fire"),
    ("game.turn", True, "$.game.turn"),
    ("game.ending", "won", "$.game.ending"),
    ("game.sides.zombies", DELETE, "$.game.sides.zombies"),
    ("profiles.deputy.status", "hero", "$.profiles[...].status"),  # msgspec does not name a map's keys
    ("profiles.deputy.red", 9, "$.profiles.deputy.red"),
    ("scenario.width", -3, "$.scenario.width"),
    ("scenario.terrain.2.kind", "lava", "$.scenario.terrain[2].kind"),
    ("scenario.name", None, "$.scenario.name"),
    ("waiting.side", "nobody", "$.waiting.side"),
    ("profiles.deputy.name", 5, "$.profiles[...].name"),
    ("scenario.terrain.2.x", 500, "$.scenario.terrain"),  # off the board: the battlefield's own check
    ("game.figures.3.colour", 1, "$.game.figures[3].colour"),  # a field the document does not declare
    ("scenario.terrain.0.colour", 1, "$.scenario.terrain[0].colour"),
    ("game.colour", 1, "$.game.colour"),
])
def test_a_malformed_document_names_the_field(path: str, value: Any, field: str) -> None:
    data = copy.deepcopy(document("midgame"))
    _set(data, path, value)
    with pytest.raises(DedaleError) as caught:
        GameView.from_json(data)
    assert caught.value.key == "error.bad_document" and caught.value.args_ == {"field": field}
    assert field in caught.value.message("en")


@pytest.mark.parametrize("data", [None, [], "not json", "[1, 2]", 42])
def test_not_a_document_at_all(data: Any) -> None:
    with pytest.raises(DedaleError) as caught:
        GameView.from_json(data)
    assert caught.value.key == "error.bad_document"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_fallen_figures_keep_their_letter_and_the_roster_every_whole_name(lang: str) -> None:
    """A fallen figure's letter is drawn over its cross (the last thing on its base), so the table still says
    who fell there; the roster writes every name whole (a long one on two lines), never cut with "…"."""
    data = document("finished")
    view = GameView.from_json(data)
    root = ElementTree.fromstring(render_svg(view, lang=lang))
    drawn = {int(g.get("data-figure")): g for g in groups(root, "figure")}
    for figure in view.figures:
        if figure.state == "out":
            last = list(drawn[figure.id])[-1]
            assert last.tag == f"{SVG}text" and last.text == view.label(figure), figure.id
    for line in groups(root, "roster"):
        figure = view.figures[int(line.get("data-figure", "-1"))]
        words = " ".join(el.text or "" for el in line.iter(f"{SVG}text"))
        assert "…" not in words
        if not figure.masked:
            assert " ".join(view.name(figure, lang).split()) in words


def felt_overflow(svg_text: str) -> list[str]:
    """The texts on the duel's felt that run past its right edge (a text's width estimated from its length,
    generously: 0.62 of its size a character)."""
    from dedale.render import duel_svg

    over = []
    for el in ElementTree.fromstring(svg_text).iter(f"{SVG}text"):
        x, y, size = float(el.get("x", 0)), float(el.get("y", 0)), float(el.get("font-size", 12))
        if y < 56 or el.get("text-anchor") in ("middle", "end"):
            continue
        if x + len(el.text or "") * size * 0.62 > duel_svg.WIDTH - 24:
            over.append(el.text or "")
    return over


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_duels_felt_holds_its_words_in_every_language(lang: str) -> None:
    """Who sits where and what each holds fit beside the cards on the felt, in French too ("L'IA",
    "1000 $ restants, 250 $ misés"), the hands at the showdown as well."""
    from dedale.render.duel_svg import render_svg as felt

    duel = {"hole": [["AS", "KD"], ["QH", "QC"]], "board": ["2C", "7D", "9H", "JS", "3C"], "street": "showdown",
            "stacks": [1000, 1000], "bets": [250, 250], "pot": 500, "payout": [500, 0], "over": True,
            "folded": None, "winner": 0, "to_act": None, "hands": ["two_pair", "three_of_a_kind"]}
    for opponent in ("ai", "human"):
        document = {"duel": duel, "seed": 1, "player": 0, "params": {"opponent": opponent}}
        assert not felt_overflow(felt(document, lang)), felt_overflow(felt(document, lang))

"""`dedale paper`: generation, outputs, errors, play with real cards; and its pictures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

import schemas
from dedale.core.errors import DedaleError
from dedale.core.session import Session
from dedale.paper.model import PaperMap
from dedale.paper.params import PaperParams
from dedale.paper.session import PaperRules
from dedale.render.paper_svg import render_svg
from dedale.render.paper_text import render_text
from dedale.systems import system

SCHEMA = json.loads(system("paper").schema())
SVG = "{http://www.w3.org/2000/svg}"


def test_generate_the_contract(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("paper", "--seed", "3", "--json")
    assert code == 0
    document = json.loads(out)
    schemas.validate(document, SCHEMA)
    assert document["generator"] == "paper" and {"width", "height", "max_cards"} <= set(document["params"])
    draw = document["draws"][0]
    assert set(draw) == {"rank", "suit"}
    assert {"card", "kind", "dice"} <= set(document["features"][1])
    room = document["rooms"][1]
    fields = {"id", "x", "y", "w", "h", "size_dice", "size", "exits_roll", "exits", "contents_roll", "contents"}
    assert fields <= set(room)
    assert {"x", "y", "kind"} <= set(document["cells"][0])


def test_text_view_and_outputs(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("paper", "--seed", "3")
    assert code == 0 and "14 rooms" in out and "starting room" in out
    for ext in (".svg", ".png", ".txt", ".pdf", ".json"):
        assert cli("paper", "--seed", "3", "--cards", "-o", str(tmp_path / f"p{ext}"))[0] == 0
    assert (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "p.pdf").read_bytes().startswith(b"%PDF")
    assert "7♦" in (tmp_path / "p.svg").read_text(encoding="utf-8")  # --cards: the card of each feature
    code, out, _ = cli("paper", "--seed", "1", "--count", "3", "--json")
    assert [json.loads(line)["seed"] for line in out.splitlines()] == [1, 2, 3]


@pytest.mark.parametrize(("args", "names"), [
    (["--width", "3"], "width"), (["--height", "500"], "height"), (["--max-cards", "0"], "max-cards"),
    (["--order", "shuffled"], "order"), (["--kings", "keep"], "kings"), (["--start-size", "2"], "start-size"),
    (["--width", "5", "--start-size", "6"], "width"),
])
def test_bad_input(cli, tmp_path: Path, args: list[str], names: str) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("paper", *args, "-o", str(tmp_path / "p.json"))
    assert code == 2 and names in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_play_with_real_cards(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "p.json"
    code, out, _ = cli("paper", "play", "--table-dice", "--save", str(save), stdin="1\n1\n1\n2\nzz\n5h\n3\nq\n")
    assert code == 0 and "Draw a card for open end 2 [a card such as QH or 10S" in out
    assert "'zz' is not a possible result" in out
    document = json.loads(save.read_text())
    assert [e.get("enter") for e in document["events"]] == ["1", "1", "1", None, "5H", "3"]
    assert document["features"][-1]["kind"] == "crossroads"


def test_play_to_the_end(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "p.json"
    code, out, _ = cli("paper", "play", "--seed", "8", "--save", str(save), stdin="a\n" * 400)
    assert code == 0 and "The session is over." in out
    assert Session.from_json(PaperRules, json.loads(save.read_text())).is_over


def paper(seed: int = 3) -> PaperMap:
    return Session(PaperRules, PaperParams(), seed).run_autopilot().rules.paper_map()


def test_svg_shows_rooms_doors_and_special_squares() -> None:
    found = paper(3)
    root = ElementTree.fromstring(render_svg(found))
    labels = [el.text for el in root.iter(f"{SVG}text")]
    assert all(str(room.id) in labels for room in found.rooms)
    kinds = {kind for kind, _ in found.cells.values()}
    for kind, mark in (("stairs_up", "▲"), ("exit", "E"), ("trap", "T"), ("dead_end", "×")):
        if kind in kinds:
            assert mark in labels


def test_a_loaded_document_renders_like_the_session() -> None:
    session = Session(PaperRules, PaperParams(), 6).run_autopilot()
    loaded = PaperMap.from_json(json.loads(json.dumps(session.to_json())))
    assert render_svg(loaded) == render_svg(session.rules.paper_map())
    assert render_text(loaded) == render_text(session.rules.paper_map())


@pytest.mark.parametrize(("part", "where"), [
    (lambda d: d["rooms"][1].update(colour=1), "$.rooms[1].colour"),
    (lambda d: d["rooms"][0]["exits"][2].update(colour=1), "$.rooms[0].exits[2].colour"),
    (lambda d: d["features"][3]["dice"].update(colour=1), "$.features[3].dice.colour"),
    (lambda d: d["draws"][0].update(reshuffle=True), "$.draws[0]"),
    (lambda d: d["open_ends"].insert(0, {"id": 99}), "$.open_ends[0].x"),
    (lambda d: d["cells"][0].update(kind="lava"), "$.cells[0].kind"),
    (lambda d: d.pop("searched"), "$.searched"),
])
def test_a_document_with_a_field_out_of_its_shape_is_refused_where_it_is(part: Any, where: str) -> None:
    document = json.loads(json.dumps(Session(PaperRules, PaperParams(), 3).run_autopilot().to_json()))
    PaperMap.from_json(document)
    part(document)
    with pytest.raises(DedaleError) as refused:
        PaperMap.from_json(document)
    assert refused.value.key == "error.bad_document" and refused.value.args_ == {"field": where}


def test_french() -> None:
    assert "salles" in render_text(paper(3), "fr") and "Salles" in render_svg(paper(3), lang="fr")

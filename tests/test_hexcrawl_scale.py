"""The hexcrawl at its sizes: the same documents as the code before (digests), documents loaded back as they
were written, the text view, and the bounds: the largest radius the command line takes, and the largest
document a file or an upload may be."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import budget
import dedale
from budget import examples
from dedale.core import jsontext
from dedale.core.documents import dump
from dedale.core.errors import DedaleError
from dedale.core.files import read_json
from dedale.core.jsontext import parse_json
from dedale.core.session import Session
from dedale.hexcrawl.hexes import DIRECTION_NAMES, hex_count, map_hexes, neighbour, on_map
from dedale.hexcrawl.model import HexMap
from dedale.hexcrawl.params import MAX_RADIUS, MAX_RANDOM_WALK_RADIUS, HexParams
from dedale.hexcrawl.session import HexcrawlRules, HexcrawlSession
from dedale.render.hex_text import render_text
from hexcrawl_golden import GOLDEN, digests

seeds = st.integers(min_value=0, max_value=2**64 - 1)


def document_text(session: HexcrawlSession) -> str:
    return json.dumps(session.to_json(), ensure_ascii=False, indent=2) + "\n"


# --- the same outputs as the code before -------------------------------------------------------------------
def test_documents_text_and_pictures_are_those_the_code_made_before() -> None:
    """Recorded from main before the change (tests/hexcrawl_golden.py): documents, party views, text in two
    languages and SVG, byte for byte."""
    made = digests()
    expected = json.loads(GOLDEN.read_text())
    assert [name for name in expected if made.get(name) != expected[name]] == []


# --- documents loaded back ----------------------------------------------------------------------------------
def test_a_document_loads_back_as_it_was_written() -> None:
    session = Session(HexcrawlRules, HexParams(radius=5, order="walk", obstacle_chance=0.5), 8)
    for name in ("N", "N", "SE"):
        session.step(f"move:{name}")
    session.run_autopilot()
    document = json.loads(document_text(session))
    loaded = HexMap.from_json(document)
    assert list(loaded.hexes) == list(session.state.hexes) and len(loaded.hexes) == hex_count(5)
    assert [record.order for record in loaded.hexes.values()] == list(range(hex_count(5)))
    assert [dump(record) for record in loaded.hexes.values()] == document["hexes"]
    assert list(loaded.hexes.values()) == list(session.state.hexes.values())


@pytest.mark.parametrize("change", [
    lambda h: h.update(q=9), lambda h: h.update(relief=8), lambda h: h.update(relief="2"),
    lambda h: h.update(inherited_from="up"), lambda h: h.update(neighbour_die=-1),
    lambda h: h.update(obstacle={"kind": "lake", "position": 9, "die": 4}), lambda h: h.update(vegetation=3),
    lambda h: h.update(obstacle_roll=10_001), lambda h: h.update(obstacle=[]), lambda h: h.update(order=0),
    lambda h: h.update(relief_name="hills" if h["relief_name"] == "waters" else "waters"), lambda h: h.pop("label")])
def test_a_document_with_a_broken_hex_is_refused(change: Any) -> None:
    document = Session(HexcrawlRules, HexParams(radius=3), 2).run_autopilot().to_json()
    change(document["hexes"][4])
    with pytest.raises(DedaleError, match="hexes"):
        HexMap.from_json(document)
    document["hexes"][4] = document["hexes"][3]  # a hex twice
    with pytest.raises(DedaleError, match="hexes"):
        HexMap.from_json(document)


@pytest.mark.parametrize(("where", "part"), [
    ("$.hexes[4].colour", lambda d: d["hexes"][4]), ("$.hexes[0].obstacle.colour", lambda d: d["hexes"][0]["obstacle"]),
    ("$.communities[1].colour", lambda d: d["communities"][1]),
    ("$.communities[0].themes[1].colour", lambda d: d["communities"][0]["themes"][1]),
    ("$.sites[0].type.colour", lambda d: d["sites"][0]["type"])])
def test_a_field_no_hexcrawl_document_has_is_refused_where_it_is(where: str, part: Any) -> None:
    """Loading checks the document against its declared shapes: a field they do not declare is named."""
    document = Session(HexcrawlRules, HexParams(radius=3, obstacle_chance=1.0), 2).run_autopilot().to_json()
    part(document)["colour"] = 1
    with pytest.raises(DedaleError) as refused:
        HexMap.from_json(document)
    assert (refused.value.key, refused.value.args_["field"]) == ("error.bad_document", where)


SHIPPED = Path(__file__).parents[1] / "src/dedale/hexcrawl/data/tables"


def own_tables(folder: Path) -> Path:
    """The shipped tables with a player's own rows: labels with quotes, % signs, accents, by language or not;
    a vegetation die of 20 faces whose rows span several."""
    terrain = (SHIPPED / "terrain.toml").read_text(encoding="utf-8")
    vegetation = terrain[terrain.index("[vegetation]"):terrain.index("[obstacles]")]
    own = ('[vegetation]\ndice = "1d20"\ntitle = "Mine"\n\n[[vegetation.rows]]\nroll = [1, 5]\nid = "bush"\n'
           'label = "Bush 100% \\"wild\\" à l\'est"\n\n[[vegetation.rows]]\nroll = [6, 20]\nid = "moss"\n'
           'label = { en = "Moss %s", fr = "Mousse %d" }\n\n')
    terrain = terrain.replace(vegetation, own).replace('id = "lake"\nlabel = { en = "Lake", fr = "Lac" }',
                                                       'id = "lake"\nlabel = "Lac 50% \\\\ \\"bleu\\""')
    (folder / "terrain.toml").write_text(terrain, encoding="utf-8")
    (folder / "communities.toml").write_text((SHIPPED / "communities.toml").read_text(encoding="utf-8"),
                                             encoding="utf-8")
    return folder


@pytest.mark.parametrize("variant", ["rule", "weighted"])
def test_a_players_own_rows_are_carried_by_the_document(tmp_path: Path, variant: str) -> None:
    params = HexParams(radius=8, obstacle_chance=0.6, variant=variant, tables=str(own_tables(tmp_path)))
    session = Session(HexcrawlRules, params, 4).run_autopilot()
    document = json.loads(document_text(session))
    hexes = document["hexes"]
    assert {h["vegetation"] for h in hexes} == {"bush", "moss"}
    used = {("vegetation", h["vegetation"]) for h in hexes} | {("obstacles", h["obstacle"]["kind"]) for h in hexes
                                                              if h["obstacle"]}
    assert ("obstacles", "lake") in used
    loaded = HexMap.from_json(document)
    assert loaded.own == {key: session.rules.own[key] for key in used}
    assert loaded.row_label("obstacles", "lake", "fr") == 'Lac 50% \\ "bleu"'
    assert loaded.row_label("vegetation", "moss", "fr") == "Mousse %d"


def test_the_cli_writes_the_same_document_to_a_file_and_to_stdout(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    session = Session(HexcrawlRules, HexParams(radius=4, order="walk"), 6).run_autopilot()
    expected = document_text(session)
    code, out, _ = cli("hexcrawl", "--seed", "6", "--radius", "4", "--order", "walk", "--json", "-o",
                       str(tmp_path / "map.json"))
    assert code == 0 and out == expected == (tmp_path / "map.json").read_text(encoding="utf-8")
    assert cli("render", str(tmp_path / "map.json"), "-o", str(tmp_path / "again.json"))[0] == 0
    assert (tmp_path / "again.json").read_text(encoding="utf-8") == expected


def test_a_result_is_the_document_as_it_was_made() -> None:
    """A session may go on after its result was taken: the result still shows the map as it stood."""
    session = Session(HexcrawlRules, HexParams(radius=3), 9)
    session.step("move:N")
    result, before = session.result(), session.to_json()
    shown = result.text()
    session.step("move:NE")
    session.step("move:S")
    assert result.json() == json.dumps(before, ensure_ascii=False, indent=2) + "\n" and result.text() == shown
    assert result.to_json()["hexes"] == before["hexes"] and result.to_json()["log"] == before["log"]


# --- the text view ---------------------------------------------------------------------------------------------
def reference_text(hex_map: HexMap) -> list[str]:
    """The map's lines as the text view drew them before (a token a hex, placed on a grid of characters)."""
    radius, marks = hex_map.radius, ("≈", "·", "_", "=", "∩", "‗", "∧", "▲")
    kinds = ("city", "community", "fae", "satellite", "ruin")
    places = {(p.q, p.r): "★●◆■†"[kinds.index(p.kind)]
              for p in sorted([*hex_map.communities, *hex_map.sites], key=lambda p: kinds.index(p.kind),
                              reverse=True)}
    tokens = {}
    for h in map_hexes(radius):
        record = hex_map.hexes.get(h)
        second = "@" if h == hex_map.party else places.get(h, "!" if record and record.obstacle else " ")
        col, row = h[0] + radius + 1, h[1] + (h[0] - (h[0] & 1)) // 2 + radius + 1
        tokens[(3 * (col - 1), 2 * (row - 1) + (h[0] & 1))] = " " + second if record is None else (
            marks[record.relief] + second)
    seen = [xy for xy, token in tokens.items() if token.strip()] or list(tokens)
    x0, x1 = min(x for x, _ in seen), max(x for x, _ in seen)
    y0, y1 = min(y for _, y in seen), max(y for _, y in seen)
    lines = []
    for y in range(y0, y1 + 1):
        chars = [" "] * (x1 - x0 + 2)
        for x in range(x0, x1 + 1, 3):
            if (x, y) in tokens:
                chars[x - x0:x - x0 + 2] = tokens[(x, y)]
        lines.append("".join(chars).rstrip())
    return lines


@settings(max_examples=examples(40), deadline=None)
@given(seed=seeds, radius=st.integers(0, 14), moves=st.lists(st.sampled_from(DIRECTION_NAMES), max_size=12),
       explore=st.booleans())
def test_the_text_view_draws_what_it_drew_before(seed: int, radius: int, moves: list[str], explore: bool) -> None:
    """On maps partly explored (the frame fits what shows: explored hexes, places, the party) or whole."""
    session = Session(HexcrawlRules, HexParams(radius=radius, order="walk"), seed)
    for name in moves:
        if on_map(neighbour(session.state.party, name), radius) and not session.is_over:
            session.step(f"move:{name}")
    if explore and not session.is_over:
        session.run_autopilot()
    hex_map = session.rules.hex_map()
    lines = render_text(hex_map).splitlines()
    assert lines[2:2 + len(reference_text(hex_map))] == reference_text(hex_map)
    hex_map.party = None
    hex_map.communities, hex_map.sites = [], []
    assert render_text(hex_map).splitlines()[2:2 + len(reference_text(hex_map))] == reference_text(hex_map)


# --- the bounds -------------------------------------------------------------------------------------------------
def test_the_cli_takes_a_radius_up_to_300(cli) -> None:  # type: ignore[no-untyped-def]
    assert MAX_RADIUS == 300
    code, _, err = cli("hexcrawl", "--seed", "1", "--radius", "301")
    assert code == 2 and "301" in err and "0 to 300" in err and len(err.strip().splitlines()) == 1
    assert HexParams(radius=300).radius == 300


def test_the_random_walk_is_bounded_on_the_cli_and_more_tightly_on_the_web(cli) -> None:  # type: ignore[no-untyped-def]
    """The rules' random walk logs every step (about a million at radius 100): its own bound, named."""
    code, _, err = cli("hexcrawl", "--radius", str(MAX_RANDOM_WALK_RADIUS + 1), "--order", "random-walk")
    assert code == 2 and f"at most {MAX_RANDOM_WALK_RADIUS}" in err and len(err.strip().splitlines()) == 1
    assert HexParams(radius=MAX_RANDOM_WALK_RADIUS, order="random-walk").radius == MAX_RANDOM_WALK_RADIUS
    with pytest.raises(DedaleError, match="at most 20"):
        HexParams.from_options({"radius": 21, "order": "random-walk"}, web=True)
    with pytest.raises(DedaleError, match="0 to 40"):
        HexParams.from_options({"radius": 41}, web=True)


def test_a_file_or_an_upload_over_the_size_bound_is_refused(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Tested with a bound of 1 MiB (the bound itself, 512 MiB, is above the largest document: see the test
    of radius 300 below)."""
    path = tmp_path / "map.json"
    assert cli("hexcrawl", "--seed", "3", "--radius", "25", "-o", str(path))[0] == 0
    size = path.stat().st_size
    assert size > 1 << 20
    monkeypatch.setattr(jsontext, "MAX_BYTES", 1 << 20)
    code, _, err = cli("render", str(path), "-o", str(tmp_path / "map.txt"))
    assert code == 2 and "larger than 1 MiB" in err and str(path) in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "map.txt").exists()
    for reading in (lambda: read_json(path), lambda: dedale.load(path), lambda: parse_json(path.read_bytes(), "upload"),
                    lambda: parse_json(path.read_text(encoding="utf-8"), "body")):
        with pytest.raises(DedaleError, match="larger than 1 MiB") as refused:
            reading()
        assert refused.value.key == "error.json_size"
    monkeypatch.setattr(jsontext, "MAX_BYTES", size)  # a file as large as the bound is read
    assert len(read_json(path)["hexes"]) == hex_count(25)


def written_and_read_back(cli, folder: Path, *args: str) -> None:  # type: ignore[no-untyped-def]
    """The map the CLI makes with `args`, written, then read back: the same document, whole, and drawn."""
    path = folder / "map.json"
    code, _, _ = cli("hexcrawl", "--seed", "5", *args, "-o", str(path))
    assert code == 0 and path.stat().st_size <= jsontext.MAX_BYTES
    loaded = dedale.load(path)
    radius = int(args[args.index("--radius") + 1])
    assert len(loaded.to_json()["hexes"]) == loaded.to_json()["explored"] == hex_count(radius)
    assert cli("render", str(path), "-o", str(folder / "map.txt"))[0] == 0
    assert (folder / "map.txt").read_text(encoding="utf-8").count("\n") > 4 * radius


def test_a_map_is_written_and_read_back(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """`test_the_largest_maps_are_written_and_read_back` on a small map (that one runs under make test-long)."""
    written_and_read_back(cli, tmp_path, "--radius", "30", "--order", "walk", "--variant", "weighted",
                          "--obstacle-chance", "1")


@pytest.mark.skipif(budget.PROFILE != "long", reason="a minute or more: make test-long")
@pytest.mark.parametrize("args", [
    ("--radius", "300", "--order", "walk", "--variant", "weighted", "--obstacle-chance", "1"),  # the largest
    ("--radius", str(MAX_RANDOM_WALK_RADIUS), "--order", "random-walk")])
def test_the_largest_maps_are_written_and_read_back(cli, tmp_path: Path, args: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    """The largest documents the CLI makes (a walk logs a pick a hex, an obstacle in every hex; the random walk
    logs every step) are under the size bound, and read back."""
    written_and_read_back(cli, tmp_path, *args)

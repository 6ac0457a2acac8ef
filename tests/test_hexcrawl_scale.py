"""The hexcrawl at scale: the same documents as before its hexes were compacted and its dice drawn in bulk,
bulk exploration equal to one hex at a time, the compact table and log, documents written piece by piece."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dedale
from dedale.core import draws, files, jsonread
from dedale.core.errors import DedaleError
from dedale.core.files import write_atomic
from dedale.core.jsonstream import Streamed, chunks, materialized
from dedale.core.rng import SplitMix64
from dedale.hexcrawl import bulk
from dedale.hexcrawl import session as hexcrawl_session
from dedale.hexcrawl.hexes import DIRECTION_NAMES, hex_count, map_hexes, neighbour, on_map
from dedale.hexcrawl.model import HexLog, HexMap
from dedale.hexcrawl.params import HexParams
from dedale.hexcrawl.session import HexcrawlSession
from dedale.render.hex_text import render_text
from dedale.systems import STREAMED, system
from hexcrawl_golden import GOLDEN, digests

seeds = st.integers(min_value=0, max_value=2**64 - 1)


def one_by_one() -> Any:
    return patch.object(hexcrawl_session, "BULK_FROM", 10**9)


def document_text(session: HexcrawlSession, indent: int | None = 2) -> str:
    return json.dumps(session.to_json(), ensure_ascii=False, indent=indent)


def played(params: HexParams, seed: int, moves: list[str]) -> HexcrawlSession:
    session = HexcrawlSession(params, seed)
    for name in moves:
        if not session.is_over and on_map(neighbour(session.state.party, name), params.radius):
            session.step(f"move:{name}")
    return session.run_autopilot()


# --- the same outputs as the code before -------------------------------------------------------------------
@pytest.mark.parametrize("bulk_from", [10_000, 0])
def test_documents_text_and_pictures_are_those_the_code_made_before(bulk_from: int) -> None:
    """Recorded from main before the change (tests/hexcrawl_golden.py): documents, players' views, text in two
    languages and SVG, byte for byte; once as the session chooses, once with every spiral and breadth-first
    exploration in bulk."""
    with patch.object(hexcrawl_session, "BULK_FROM", bulk_from):
        made = digests()
    expected = json.loads(GOLDEN.read_text())
    assert [name for name in expected if made.get(name) != expected[name]] == []


# --- bulk exploration ---------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(seed=seeds, radius=st.integers(0, 9), order=st.sampled_from(["spiral", "bfs"]),
       variant=st.sampled_from(["rule", "weighted"]), chance=st.integers(0, 10_000).map(lambda n: n / 10_000),
       block=st.integers(1, 40),
       moves=st.lists(st.sampled_from(DIRECTION_NAMES), max_size=10), data=st.data())
def test_bulk_exploration_is_the_one_by_one_exploration(seed: int, radius: int, order: str, variant: str,
                                                        chance: float, block: int, moves: list[str],
                                                        data: st.DataObject) -> None:
    start = data.draw(st.sampled_from(sorted(map_hexes(radius))), label="start")
    params = HexParams(radius=radius, order=order, variant=variant, obstacle_chance=chance, start=start)
    with one_by_one():
        expected = document_text(played(params, seed, moves))
    with patch.object(hexcrawl_session, "BULK_FROM", 0), patch.object(bulk, "BLOCK", block):
        assert document_text(played(params, seed, moves)) == expected


def test_an_output_below_rejects_is_drawn_again_in_bulk_as_one_by_one() -> None:
    """SplitMix64.below rejects an output over its limit (one in 10**16 for a die) and draws again; with a
    limit that rejects a quarter of the outputs, bulk exploration still rolls what one hex at a time rolls."""
    limit = 3 << 62

    def below(gen: SplitMix64, n: int) -> int:
        while (value := gen.next64()) >= limit:
            pass
        return value % n

    with patch.object(SplitMix64, "below", below), patch.object(draws, "limit", lambda sides: limit):
        for variant in ("rule", "weighted"):
            params = HexParams(radius=6, variant=variant)
            with one_by_one():
                expected = document_text(HexcrawlSession(params, 3).run_autopilot())
            with patch.object(hexcrawl_session, "BULK_FROM", 0), patch.object(bulk, "BLOCK", 16):
                assert document_text(HexcrawlSession(params, 3).run_autopilot()) == expected


@given(seed=seeds, count=st.integers(0, 50), sides=st.integers(2, 10**6))
def test_outputs_in_bulk_are_splitmix64s(seed: int, count: int, sides: int) -> None:
    one = SplitMix64(seed)
    expected = [one.next64() for _ in range(count)]
    gen = SplitMix64(seed)
    assert draws.peek(gen, count).tolist() == expected and gen.state == seed
    draws.skip(gen, count)
    assert gen.state == one.state
    faces = draws.faces(draws.peek(SplitMix64(seed), count), sides).tolist()
    if all(value < draws.limit(sides) for value in expected):
        again = SplitMix64(seed)
        assert faces == [again.below(sides) + 1 for _ in range(count)]


def test_bulk_orders_are_the_spiral_and_the_breadth_first_walk() -> None:
    for radius in (0, 1, 4, 9):
        q, r = bulk.spiral(radius)
        assert list(zip(q.tolist(), r.tolist(), strict=True)) == list(hexcrawl_session.spiral(radius))
        for start in ((0, 0), (0, -radius), (radius, -radius // 2)):
            q, r = bulk.breadth_first(start, radius)
            assert list(zip(q.tolist(), r.tolist(), strict=True)) == hexcrawl_session._breadth_first(start, radius)


# --- the compact table and log ----------------------------------------------------------------------------------
def test_the_table_reads_as_the_mapping_it_replaces() -> None:
    session = played(HexParams(radius=5, order="walk", obstacle_chance=0.5), 8, ["N", "N", "SE"])
    hexes = session.state.hexes
    records = {record.hex: record for record in hexes.values()}
    assert list(hexes) == list(records) and len(hexes) == len(records) == hex_count(5)
    assert [record.order for record in records.values()] == list(range(len(records)))
    assert all(hexes[h] == hexes.get(h) == record and h in hexes for h, record in hexes.items())
    for outside in ((6, 0), (0, 99), (-99, -99), (3, 3)):
        assert outside not in hexes and hexes.get(outside) is None
        with pytest.raises(KeyError):
            hexes[outside]
    document = session.to_json()
    loaded = HexMap.from_json(document).hexes
    assert [record.to_json(5, {}) for record in loaded.values()] == document["hexes"]


@pytest.mark.parametrize("change", [
    lambda h: h.update(q=9), lambda h: h.update(relief=8), lambda h: h.update(relief="2"),
    lambda h: h.update(inherited_from="up"), lambda h: h.update(neighbour_die=-1),
    lambda h: h.update(obstacle={"kind": "lake", "position": 9, "die": 4}), lambda h: h.update(vegetation=3)])
def test_a_document_with_a_broken_hex_is_refused(change: Any) -> None:
    document = HexcrawlSession(HexParams(radius=3), 2).run_autopilot().to_json()
    change(document["hexes"][4])
    with pytest.raises(DedaleError, match="hexes"):
        HexMap.from_json(document)
    document["hexes"][4] = document["hexes"][3]  # a hex twice
    with pytest.raises(DedaleError, match="hexes"):
        HexMap.from_json(document)


operations = st.lists(st.one_of(
    st.tuples(st.just("entry"), st.integers(0, 9)), st.tuples(st.just("hex"), st.integers(0, 9)),
    st.tuples(st.just("hexes"), st.integers(0, 9)), st.tuples(st.just("pick"), st.integers(2, 6)),
    st.tuples(st.just("cut"), st.integers(0, 30))), max_size=40)


@given(operations)
def test_the_log_reads_as_the_list_of_entries_it_stands_for(steps: list[tuple[str, int]]) -> None:
    table = HexcrawlSession(HexParams(radius=2), 1).run_autopilot().state.hexes  # 19 records to point at
    log, expected = HexLog(table), []
    for kind, value in steps:
        if kind == "entry":
            log.append({"note": "n", "args": {"value": value}})
            expected.append({"note": "n", "args": {"value": value}})
        elif kind == "hex":
            log.add_hex(value)
            expected.append(table.record(value))
        elif kind == "hexes":
            log.add_hexes(value, value + 9)
            expected.extend(map(table.record, range(value, value + 9)))
        elif kind == "pick":
            log.add_pick(value, value - 1)
            expected.append({"roll": f"1d{value}", "dice": [value - 1], "total": value - 1, "for": "autopilot.walk",
                             "args": {"among": value}})
        else:
            del log[value:]
            del expected[value:]
        assert len(log) == len(expected) and list(log) == expected
    assert [log[i] for i in range(-len(expected), len(expected))] == expected * 2
    assert log[2:7] == expected[2:7] and log[-3:] == expected[-3:]
    with pytest.raises(IndexError):
        log[len(expected)]


def test_a_large_map_is_kept_in_a_few_bytes_a_hex() -> None:
    session = HexcrawlSession(HexParams(radius=60), 5).run_autopilot()  # 10,981 hexes: explored in bulk
    table = session.state.hexes
    kept = sum(column.itemsize * len(column) for column in (table.q, table.r, *table.columns()))
    assert kept / len(table) <= 20 and table.cell_order.itemsize * len(table.cell_order) / len(table) < 6
    kept_entries = list(session.state.log.runs(len(session.log)))
    assert len(session.log) == len(table) + sum(1 for entry in kept_entries if isinstance(entry, dict))
    runs = [entry for entry in kept_entries if not isinstance(entry, dict)]
    assert len(runs) <= 2 + len(session.state.communities)  # runs of explorations (cut by a note), not a hex each


# --- documents written piece by piece ----------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(seed=seeds, radius=st.integers(0, 6), order=st.sampled_from(["spiral", "bfs", "walk", "random-walk"]),
       variant=st.sampled_from(["rule", "weighted"]), moves=st.lists(st.sampled_from(DIRECTION_NAMES), max_size=8),
       stop=st.booleans())
def test_a_session_writes_the_text_json_would(seed: int, radius: int, order: str, variant: str, moves: list[str],
                                              stop: bool) -> None:
    session = HexcrawlSession(HexParams(radius=radius, order=order, variant=variant), seed)
    for name in moves:
        if not session.is_over and on_map(neighbour(session.state.party, name), radius):
            session.step(f"move:{name}")
    if not session.is_over:
        session.step("stop") if stop else session.run_autopilot()
    for indent in (2, None):
        assert "".join(chunks(session.document(), indent)) == document_text(session, indent)


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
def test_a_players_own_rows_are_written_as_json_would(tmp_path: Path, variant: str) -> None:
    params = HexParams(radius=8, obstacle_chance=0.6, variant=variant, tables=str(own_tables(tmp_path)))
    for bulk_from in (10**9, 0):
        with patch.object(hexcrawl_session, "BULK_FROM", bulk_from):
            session = HexcrawlSession(params, 4).run_autopilot()
        document = session.to_json()
        assert {h["vegetation"] for h in document["hexes"]} == {"bush", "moss"}
        assert any(h["obstacle"] and h["obstacle"].get("label") for h in document["hexes"])
        for indent in (2, None):
            assert "".join(chunks(session.document(), indent)) == document_text(session, indent)


class Items(Streamed):
    def __init__(self, items: list[Any]) -> None:
        self.items = items

    def values(self) -> Any:
        return iter(self.items)


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                           | st.text(),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
                           max_leaves=10)


@given(st.dictionaries(st.text(), json_values | st.lists(json_values, max_size=4).map(Items), max_size=5))
def test_any_document_is_written_as_json_would(document: dict[str, Any]) -> None:
    for indent in (2, None, 4):
        expected = json.dumps(materialized(document), ensure_ascii=False, indent=indent)
        assert "".join(chunks(document, indent)) == expected


def test_a_document_that_fails_half_way_leaves_no_file(tmp_path: Path) -> None:
    class Failing(Streamed):
        def values(self) -> Any:
            yield {"a": 1}
            raise RuntimeError("the disk is full")

    target = tmp_path / "map.json"
    with pytest.raises(RuntimeError):
        write_atomic(target, chunks({"hexes": Failing()}))
    assert list(tmp_path.iterdir()) == []


def test_the_cli_streams_the_same_document_to_a_file_and_to_stdout(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    session = HexcrawlSession(HexParams(radius=4, order="walk"), 6).run_autopilot()
    expected = document_text(session) + "\n"
    code, out, _ = cli("hexcrawl", "--seed", "6", "--radius", "4", "--order", "walk", "--json", "-o",
                       str(tmp_path / "map.json"))
    assert code == 0 and out == expected == (tmp_path / "map.json").read_text(encoding="utf-8")
    assert cli("render", str(tmp_path / "map.json"), "-o", str(tmp_path / "again.json"))[0] == 0
    assert (tmp_path / "again.json").read_text(encoding="utf-8") == expected


def reference_text(hex_map: HexMap) -> list[str]:
    """The map's lines as the text view drew them before (a token a hex, placed on a grid of characters)."""
    radius, marks = hex_map.radius, ("≈", "·", "_", "=", "∩", "‗", "∧", "▲")
    kinds = ("city", "community", "fae", "satellite", "ruin")
    places = {(p["q"], p["r"]): "★●◆■†"[kinds.index(p["kind"])]
              for p in sorted([*hex_map.communities, *hex_map.sites], key=lambda p: kinds.index(p["kind"]),
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


@settings(max_examples=40, deadline=None)
@given(seed=seeds, radius=st.integers(0, 14), moves=st.lists(st.sampled_from(DIRECTION_NAMES), max_size=12),
       explore=st.booleans())
def test_the_text_view_draws_what_it_drew_before(seed: int, radius: int, moves: list[str], explore: bool) -> None:
    """On maps partly explored (the frame fits what shows: explored hexes, places, the party) or whole."""
    session = HexcrawlSession(HexParams(radius=radius, order="walk"), seed)
    for name in moves:
        if on_map(neighbour(session.state.party, name), radius) and not session.is_over:
            session.step(f"move:{name}")
    if explore and not session.is_over:
        session.run_autopilot()
    hex_map = session.hex_map()
    lines = render_text(hex_map).splitlines()
    assert lines[2:2 + len(reference_text(hex_map))] == reference_text(hex_map)
    hex_map.party = None
    hex_map.communities, hex_map.sites = [], []
    assert render_text(hex_map).splitlines()[2:2 + len(reference_text(hex_map))] == reference_text(hex_map)


def test_a_map_too_large_to_draw_is_refused_in_one_line(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Pictures stop at radius 500 (an SVG of 100 MB); the text and the JSON do not."""
    document = HexcrawlSession(HexParams(radius=501), 1).to_json()  # only the start explored
    (tmp_path / "big.json").write_text(json.dumps(document), encoding="utf-8")
    for ext in (".svg", ".pdf", ".foundry.json"):
        code, _, err = cli("render", str(tmp_path / "big.json"), "-o", str(tmp_path / f"big{ext}"))
        assert code == 2 and "radius 501 (754,507 hexes)" in err and len(err.strip().splitlines()) == 1
    assert cli("render", str(tmp_path / "big.json"), "-o", str(tmp_path / "big.txt"))[0] == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["big.json", "big.txt"]


# --- a large file read back item by item ------------------------------------------------------------------------
def read_streamed(path: Path, buffer: int = 64) -> Any:
    """`read_json` as it reads a large file, on any file (and a tiny buffer, to cut values everywhere)."""
    with patch.object(files, "STREAM_FROM", 0), patch.object(jsonread, "BUFFER", buffer):
        return files.read_json(path, STREAMED)


@settings(max_examples=60, deadline=None)
@given(document=st.dictionaries(st.sampled_from(["hexes", "log", "a", "b", "format"]),
                                json_values | st.lists(json_values, max_size=4), max_size=5),
       indent=st.sampled_from([None, 0, 2]), buffer=st.integers(1, 50))
def test_a_large_file_reads_as_the_whole_file_would(tmp_path_factory: pytest.TempPathFactory,
                                                      document: dict[str, Any], indent: int | None,
                                                      buffer: int) -> None:
    path = tmp_path_factory.mktemp("large") / "doc.json"
    path.write_text(json.dumps(document, ensure_ascii=False, indent=indent), encoding="utf-8")
    read = read_streamed(path, buffer)
    assert materialized(read) == json.loads(path.read_text(encoding="utf-8"))
    assert all(isinstance(read[key], Streamed) == isinstance(document[key], list)
               for key in STREAMED if key in document)


@pytest.mark.parametrize(("text", "problem"), [
    ('{"hexes": [1, 2', "error.json"), ('{"hexes": [1, 2]} x', "error.json"), ('{"log": [1 2]}', "error.json"),
    ('{"log": [NaN]}', "error.json_number"), ('{"log": [1e999]}', "error.json_number"),
    ('{"log": [' + "1" * 41 + "]}", "error.json_number"), ('{"log": ["\\ud800"]}', "error.json_unicode"),
    ('{"log": [' + "[" * 63 + "]" * 63 + "]}", "error.json_depth"), ('{"log": [], 3: 1}', "error.json"),
    ('{"hexes": ["\xe9"]}'.encode("latin-1"), "error.json_text")])
def test_a_large_file_is_refused_as_the_whole_file_would_be(tmp_path: Path, text: str | bytes,
                                                            problem: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    with pytest.raises(DedaleError) as whole:
        files.read_json(path)
    with pytest.raises(DedaleError) as streamed:
        document = read_streamed(path, 7)
        materialized(document)
    assert streamed.value.key == whole.value.key == problem


def test_a_large_hexcrawl_file_is_drawn_and_shown_as_a_player_without_holding_it(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    session = HexcrawlSession(HexParams(radius=6, obstacle_chance=0.5), 12)
    session.step("move:N")
    session.step("stop")
    path = tmp_path / "map.json"
    write_atomic(path, chunks(session.document()))
    with patch.object(files, "STREAM_FROM", 0):
        for view in ("gm", "player"):
            for ext in (".json", ".txt", ".svg"):
                assert cli("render", str(path), "--view", view, "-o", str(tmp_path / f"{view}{ext}"))[0] == 0
                expected = system("hexcrawl").export(session.to_json(), ext, view=view)
                assert (tmp_path / f"{view}{ext}").read_bytes() == expected
        loaded = dedale.load(path)
        assert isinstance(loaded.to_json()["log"], list) and loaded.to_json() == session.to_json()


def test_a_file_changed_while_it_is_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_text(json.dumps({"hexes": [1, 2, 3]}), encoding="utf-8")
    document = read_streamed(path)
    path.write_text(json.dumps({"hexes": [1, 2, 3, 4]}), encoding="utf-8")
    with pytest.raises(DedaleError, match="changed"):
        materialized(document)


def test_a_result_is_the_document_as_it_was_made() -> None:
    """A session's result streams its large arrays from the session: it still shows the map as it stood."""
    session = HexcrawlSession(HexParams(radius=3), 9)
    session.step("move:N")
    result, before = session.result(), session.to_json()
    shown = result.text()
    session.step("move:NE")
    session.step("move:S")
    assert result.json() == document_text_of(before) and result.text() == shown
    assert result.to_json() == before


def document_text_of(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def test_a_disk_that_fills_up_stops_the_writing_at_once() -> None:
    """The pieces are written from a second thread: its failure reaches the maker of the pieces, which stops."""
    class Full:
        written = 0

        def write(self, data: bytes) -> None:
            if self.written == 2:
                raise OSError(28, "No space left on device")
            self.written += 1

    made = []

    def pieces() -> Any:
        for number in range(1000):
            made.append(number)
            yield "x" * 1000

    with pytest.raises(OSError, match="No space"):
        files._write_pieces(Full(), pieces())  # type: ignore[arg-type]
    assert len(made) < 20

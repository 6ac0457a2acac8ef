"""The hexcrawl: hex geometry, the exploration rule over many seeds, communities, orders, play, faces."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schemas
from budget import examples
from dedale.core.errors import DedaleError
from dedale.core.logtext import describe
from dedale.core.session import Session
from dedale.hexcrawl.hexes import (
    DIRECTION_NAMES,
    distance,
    hex_count,
    label,
    map_hexes,
    neighbour,
    neighbours,
    offset,
    on_map,
    ring,
    spiral,
    to_pixel,
)
from dedale.hexcrawl.model import HexMap
from dedale.hexcrawl.params import MAX_RADIUS, ORDERS, HexParams
from dedale.hexcrawl.session import HexcrawlRules, HexcrawlSession
from dedale.render.hex_svg import render_svg
from dedale.render.hex_text import render_text
from dedale.systems import system

SCHEMA = json.loads(system("hexcrawl").schema())
seeds = st.integers(min_value=0, max_value=2**64 - 1)


# --- geometry ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("radius", [0, 1, 2, 5, 12, 49, 50])
def test_map_size_spiral_and_labels(radius: int) -> None:
    hexes = list(map_hexes(radius))
    assert len(hexes) == len(set(hexes)) == hex_count(radius) == 1 + 3 * radius * (radius + 1)
    assert sorted(spiral(radius)) == sorted(hexes)
    labels = {label(h, radius) for h in hexes}
    assert len(labels) == len(hexes)  # offset labels are one to one
    width = 2 if radius <= 49 else 3
    assert all(len(name) == 2 * width for name in labels)
    cols = {offset(h, radius)[0] for h in hexes}
    rows = {offset(h, radius)[1] for h in hexes}
    assert min(cols) == min(rows) == 1


def test_directions_and_rings() -> None:
    assert neighbours((0, 0)) == [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]  # N NE SE S SW NW
    for k in range(1, 8):
        assert len(ring(k)) == 6 * k and ring(k)[0] == (0, -k)  # each ring starts at its north hex
        assert all(distance(h, (0, 0)) == k for h in ring(k))
        assert all(distance(a, b) == 1 for a, b in zip(ring(k), ring(k)[1:], strict=False))
    assert ring(1) == [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]  # clockwise from north
    x, y = to_pixel((0, -1), 10)
    assert x == 0 and y < 0  # flat-topped: a north neighbour straight up
    for h in neighbours((0, 0)):
        assert math.isclose(math.dist(to_pixel(h, 10), (0, 0)), 10 * math.sqrt(3))


# --- the rules --------------------------------------------------------------------------------------
def check(session: HexcrawlSession) -> None:
    """Every hex obeys the rule: inherit exactly when the neighbour die names an explored neighbour."""
    params, hexes = session.params, session.state.hexes
    assert [h.order for h in hexes.values()] == list(range(len(hexes)))
    for record in hexes.values():
        assert on_map(record.hex, params.radius)
        if params.variant == "rule":
            named = DIRECTION_NAMES[record.neighbour_die - 1] if record.neighbour_die <= 6 else None
            other = hexes.get(neighbour(record.hex, named)) if named else None
            if other is not None and other.order < record.order:
                assert record.relief == other.relief and record.inherited_from == named
            else:
                assert record.relief == record.relief_die - 1 and record.inherited_from is None
        # The chance is rolled exactly: on a d100 for whole percents, else a d1000 or a d10000.
        chance = params.obstacle_chance
        sides = next(s for s in (100, 1000, 10_000) if abs(chance * s - round(chance * s)) < 1e-6)
        assert 1 <= record.vegetation_die <= 16 and 1 <= record.obstacle_roll <= sides
        assert (record.obstacle is not None) == (record.obstacle_roll <= round(sides * chance))
        if record.obstacle is not None:
            assert 1 <= record.obstacle.position <= 7
    communities = session.state.communities
    kinds = Counter(c.kind for c in communities)
    assert kinds["city"] == 1 and 3 <= kinds["community"] <= 10 and 1 <= kinds["fae"] <= 8
    if params.radius >= 2:
        assert all(distance((c.q, c.r), (0, 0)) < params.radius for c in communities)  # off the rim
    places = [(c.q, c.r) for c in communities]
    if hex_count(params.radius - 1) >= len(places) + len(session.state.sites):
        assert len(set(places)) == len(places)


@settings(max_examples=examples(60), deadline=None)
@given(seed=seeds, radius=st.integers(0, 9), order=st.sampled_from(["spiral", "bfs", "walk"]),
       chance=st.integers(0, 10_000).map(lambda n: n / 10_000), variant=st.sampled_from(["rule", "weighted"]))
def test_every_hex_obeys_the_rule(seed: int, radius: int, order: str, chance: float, variant: str) -> None:
    start = (0, 0) if radius == 0 else (0, -radius)
    session = Session(HexcrawlRules, HexParams(radius=radius, order=order, obstacle_chance=chance, variant=variant,
                                        start=start), seed).run_autopilot()
    assert session.is_over and len(session.state.hexes) == hex_count(radius)
    check(session)


def test_spiral_and_breadth_first_orders() -> None:
    spiral_map = Session(HexcrawlRules, HexParams(radius=6), 1).run_autopilot()
    assert list(spiral_map.state.hexes) == list(spiral(6))
    bfs = Session(HexcrawlRules, HexParams(radius=6, order="bfs", start=(2, -1)), 1).run_autopilot()
    ordered = list(bfs.state.hexes)
    assert ordered[0] == (2, -1)
    assert [distance(h, (2, -1)) for h in ordered] == sorted(distance(h, (2, -1)) for h in ordered)


def test_the_weighted_variant_follows_the_neighbours() -> None:
    session = Session(HexcrawlRules, HexParams(radius=8, variant="weighted"), 5).run_autopilot()
    hexes = session.state.hexes
    for record in hexes.values():
        weights = [1] * 8
        for other in neighbours(record.hex):
            found = hexes.get(other)
            if found is not None and found.order < record.order:
                weights[found.relief] += 4
        cumulative = [sum(weights[: i + 1]) for i in range(8)]
        assert record.neighbour_die is None and 1 <= record.weights_die <= cumulative[-1]
        assert record.relief == next(i for i, c in enumerate(cumulative) if record.weights_die <= c)


def test_die_frequencies_are_sane() -> None:
    hexes = list(Session(HexcrawlRules, HexParams(radius=40), 9).run_autopilot().state.hexes.values())  # 4,921 hexes
    n = len(hexes)
    for values, faces in (([h.neighbour_die for h in hexes], 8), ([h.relief_die for h in hexes], 8),
                          ([h.vegetation_die for h in hexes], 16)):
        counts = Counter(values)
        chi2 = sum((counts[f] - n / faces) ** 2 / (n / faces) for f in range(1, faces + 1))
        assert chi2 < 40, chi2  # far beyond the 99.9th percentile for 7 or 15 degrees of freedom
    rate = sum(h.obstacle is not None for h in hexes) / n
    assert 0.22 < rate < 0.28
    inherited = sum(h.inherited_from is not None for h in hexes) / n
    assert 0.3 < inherited < 0.75  # a 6 in 8 die, naming an explored neighbour about half the time


def moved(params: HexParams, seed: int, moves: list[str]) -> HexcrawlSession:
    """A session where the player made the moves that stay on the map, while the map is not all explored."""
    session = Session(HexcrawlRules, params, seed)
    for name in moves:
        if not session.is_over and on_map(neighbour(session.state.party, name), params.radius):
            session.step(f"move:{name}")
    return session


def played(params: HexParams, seed: int, moves: list[str]) -> HexcrawlSession:
    """The moves by hand, then the autopilot explores the rest."""
    return moved(params, seed, moves).run_autopilot()


@settings(max_examples=examples(40), deadline=None)
@given(seed=seeds, radius=st.integers(0, 6), order=st.sampled_from(list(ORDERS)),
       moves=st.lists(st.sampled_from(DIRECTION_NAMES), max_size=12))
def test_determinism_json_round_trip_and_schema(seed: int, radius: int, order: str, moves: list[str]) -> None:
    params = HexParams(radius=radius, order=order)
    first = played(params, seed, moves).to_json()
    assert json.dumps(played(params, seed, moves).to_json()) == json.dumps(first)
    document = json.loads(json.dumps(first))
    schemas.validate(document, SCHEMA)
    assert Session.from_json(HexcrawlRules, document).to_json() == first
    loaded = Session.from_json(HexcrawlRules, document)
    assert render_svg(HexMap.from_json(document)) == render_svg(loaded.rules.hex_map())


# --- the walk ---------------------------------------------------------------------------------------
def walk_rolls(session: HexcrawlSession) -> int:
    return sum(1 for entry in session.log if isinstance(entry, dict) and entry.get("for") == "autopilot.walk")


@settings(max_examples=examples(80), deadline=None)
@given(seed=seeds, radius=st.integers(0, 8), data=st.data(),
       moves=st.lists(st.sampled_from(DIRECTION_NAMES), max_size=40))
def test_the_walk_explores_every_hex_in_linear_time(seed: int, radius: int, data: st.DataObject,
                                                     moves: list[str]) -> None:
    """From any start, after any moves by hand (hexes explored here and there), the walk explores the rest
    moving from hex to neighbouring hex, with at most one pick per hex and a log linear in the hexes."""
    start = data.draw(st.sampled_from(sorted(map_hexes(radius))), label="start")
    session = moved(HexParams(radius=radius, order="walk", start=start), seed, moves)
    by_hand, logged = len(session.state.hexes), len(session.log)
    session.run_autopilot()
    hexes = session.state.hexes
    assert session.is_over and len(hexes) == hex_count(radius)
    check(session)
    ordered = list(hexes)
    for h in ordered[by_hand:]:  # the party walked there from a hex it had entered, so explored, before
        assert any(other in hexes and hexes[other].order < hexes[h].order for other in neighbours(h))
    if by_hand < len(hexes):
        assert session.state.party == ordered[-1]  # it stops on the last hex it explores
    assert walk_rolls(session) < hex_count(radius)
    # linear: a few entries a hex, and the end's one note a community (the prompts for absurd reliefs)
    assert len(session.log) - logged <= 3 * hex_count(radius) + len(session.state.communities)


def test_the_walk_is_linear_at_radius_40() -> None:
    params = HexParams(radius=40, order="walk", start=(25, -31))  # 4,921 hexes, a start near the rim
    session = moved(params, 7, ["N", "SW", "SW", "S", "SE", "SE"] * 5)  # a zigzag 10 hexes south
    assert len(session.state.hexes) > 20
    logged = len(session.log)
    session.run_autopilot()
    assert len(session.state.hexes) == hex_count(40) == 4921
    assert walk_rolls(session) < 4921 and len(session.log) - logged <= 3 * 4921


@pytest.mark.parametrize("order", ["spiral", "bfs", "random-walk"])
def test_version_1_documents_load_as_they_were_made(order: str) -> None:
    """Version 2 named the spec's uniform random walk `random-walk` (its `walk` is depth-first): a version-1
    walk replays as a random walk, a spiral or breadth-first document as it did."""
    session = played(HexParams(radius=4, order=order), 11, ["NE", "N"])
    document = json.loads(json.dumps(session.to_json()))
    assert document["version"] == HexcrawlRules.version
    document["version"] = 1
    document["params"]["order"] = "walk" if order == "random-walk" else order
    assert Session.from_json(HexcrawlRules, document).to_json() == session.to_json()


@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 2**64 - 1), radius=st.integers(0, 5))
def test_the_random_walk_steps_to_a_uniformly_chosen_neighbour_until_every_hex_is_explored(seed: int,
                                                                                            radius: int) -> None:
    """The spec's walk: every pick is among all the party's neighbours on the map (6 inside, fewer on the
    rim), visited or not, and the walk ends on the map's last unexplored hex."""
    session = Session(HexcrawlRules, HexParams(radius=radius, order="random-walk"), seed).run_autopilot()
    assert len(session.state.hexes) == hex_count(radius)
    picks = [entry for entry in session.log if isinstance(entry, dict) and entry.get("for") == "autopilot.walk"]
    assert all(pick["args"]["among"] in (3, 4, 6) for pick in picks)
    assert radius == 0 or len(picks) >= hex_count(radius) - 1
    assert session.state.party == list(session.state.hexes)[-1]


# --- play -------------------------------------------------------------------------------------------
def test_play_moves_and_explores_on_entering() -> None:
    session = Session(HexcrawlRules, HexParams(radius=3), 2)
    assert list(session.state.hexes) == [(0, 0)]
    session.step("move:N")
    session.step("move:N")
    assert session.state.party == (0, -2) and list(session.state.hexes) == [(0, 0), (0, -1), (0, -2)]
    session.step("move:S")  # back on an explored hex: nothing new
    assert len(session.state.hexes) == 3
    session.step("move:N")
    session.step("move:N")  # (0, -3): the rim
    with pytest.raises(DedaleError):
        session.step("move:N")  # off the map
    session.step("stop")
    assert session.is_over and len(session.state.hexes) == 4


def test_table_mode_asks_for_each_die() -> None:
    session = Session(HexcrawlRules, HexParams(radius=0, sites=False), 0, table=True)
    asked = []
    while session.pending is not None:
        options = session.pending.options
        asked.append(session.pending.purpose)
        session.step("enter:" + options[len(asked) % len(options)])  # varied results: names and themes differ
    assert asked[-4:] == ["hexcrawl.neighbour_die", "hexcrawl.relief_die", "hexcrawl.vegetation",
                          "hexcrawl.obstacle_roll"]
    record = session.state.hexes[(0, 0)]
    assert (record.neighbour_die, record.relief_die) == ((len(asked) - 3) % 8 + 1, (len(asked) - 2) % 8 + 1)


def test_a_community_clashing_with_its_relief_prompts_a_reason_for_each_clash() -> None:
    """The tables mark the reliefs a nature, function or people clashes with (data, not code); each clash
    prompts the table to invent why, right after its hex is explored, and nothing else does."""
    from dedale.hexcrawl.model import RELIEFS
    from dedale.hexcrawl.tables import COMMUNITY_TABLES

    seen_kinds = set()
    for seed in range(60):
        session = Session(HexcrawlRules, HexParams(radius=4), seed).run_autopilot()
        expected = []
        for c in session.state.communities:
            relief = RELIEFS[session.state.hexes[(c.q, c.r)].relief]
            for table, trait in ((COMMUNITY_TABLES[c.kind], c.nature), ("function", c.function),
                                 ("people", c.people)):
                if relief in (session.rules.tables[table].row(trait.id).get("clashes") or ()):
                    expected.append((c.name, trait.id, relief))
                    seen_kinds.add(relief)
        notes = [e for e in session.log if isinstance(e, dict) and e.get("note") == "hexcrawl.clash"]
        assert sorted((n["args"]["name"], n["args"]["trait"]["data"][2], n["args"]["relief"]["t"].rsplit(".")[-1])
                      for n in notes) == sorted(expected)
    assert {"waters", "high_mountains"} <= seen_kinds  # not only the waters
    note = next(e for e in session.log if isinstance(e, dict) and e.get("note") == "hexcrawl.clash")
    assert "invent why rather than roll again" in describe(note, "en") and "inventez pourquoi" in describe(note, "fr")


def test_a_version_2_document_loads_its_chance_as_the_whole_percent_it_rolled() -> None:
    """Version 2 rolled 0.255 as a d100 under 26 and asked for reasons on the waters only: its document loads
    (checked without the log's notes), as the 0.26 it played, and is saved again as today's version."""
    saved = json.loads((Path(__file__).parent / "data/hexcrawl/version2-odd-chance.json").read_text())
    assert saved["version"] == 2 and saved["params"]["obstacle_chance"] == 0.255
    loaded = Session.from_json(HexcrawlRules, saved)
    assert loaded.params.obstacle_chance == 0.26
    again = loaded.to_json()
    assert again["version"] == HexcrawlRules.version and again["hexes"] == saved["hexes"]
    forged = {**saved, "hexes": [{**saved["hexes"][0], "relief": (saved["hexes"][0]["relief"] + 1) % 8},
                                 *saved["hexes"][1:]]}
    with pytest.raises(DedaleError, match="does not match"):
        Session.from_json(HexcrawlRules, forged)


def test_a_players_clashes_are_checked(tmp_path: Path) -> None:
    """A player's tables name reliefs that exist, or are refused with the reliefs one can name."""
    shipped = Path(__file__).parents[1] / "src/dedale/hexcrawl/data/tables/communities.toml"
    text = shipped.read_text(encoding="utf-8").replace('clashes = ["waters"]', 'clashes = ["lava"]', 1)
    (tmp_path / "communities.toml").write_text(text, encoding="utf-8")
    with pytest.raises(DedaleError, match="clashes") as refused:
        HexParams(tables=str(tmp_path))
    assert "high_mountains" in str(refused.value)


# --- faces ------------------------------------------------------------------------------------------
def test_svg_at_radius_12_and_50() -> None:
    session = Session(HexcrawlRules, HexParams(radius=12), 3)
    session.step("move:NE")
    svg_text = render_svg(session.rules.hex_map())
    root = ElementTree.fromstring(svg_text)
    texts = " ".join(el.text or "" for el in root.iter("{http://www.w3.org/2000/svg}text"))
    assert all(c.name in texts for c in session.state.communities)
    assert svg_text.count('fill="#cfcac0"') == hex_count(12) - 2  # fog over the unexplored
    assert "stroke-dasharray" in svg_text  # the party
    big = render_svg(Session(HexcrawlRules, HexParams(radius=50), 3).run_autopilot().rules.hex_map())
    assert big.count("<polygon") >= hex_count(50)


def test_text_view() -> None:
    session = Session(HexcrawlRules, HexParams(radius=4), 3)
    session.step("move:S")
    text = render_text(session.rules.hex_map())
    assert "@" in text and "★" in text and "2 of 61 hexes explored" in text


def test_cli(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("hexcrawl", "--seed", "2", "--radius", "4", "--json")
    document = json.loads(out)
    assert code == 0 and len(document["hexes"]) == 61
    assert {"radius", "order", "obstacle_chance", "variant"} <= set(document["params"])
    for ext in (".svg", ".png", ".txt", ".pdf"):
        assert cli("hexcrawl", "--seed", "2", "--radius", "4", "-o", str(tmp_path / f"h{ext}"))[0] == 0
    for args, name in ((["--radius", "-1"], "radius"), (["--radius", "100000"], "radius"),
                       (["--obstacle-chance", "1.5"], "obstacle-chance"), (["--order", "zigzag"], "order"),
                       (["--variant", "x"], "variant"), (["--start", "99,0"], "start"), (["--start", "a"], "start")):
        code, _, err = cli("hexcrawl", *args)
        assert code == 2 and name in err and len(err.strip().splitlines()) == 1


def test_cli_play_with_direction_keys(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "h.json"
    code, out, _ = cli("hexcrawl", "play", "--seed", "1", "--radius", "2", "--save", str(save),
                       stdin="n\nNE\nne\nup\nq\n")
    assert code == 0 and "'ne' is not a choice" in out and "'up' is not a choice" in out
    document = json.loads(save.read_text())
    assert [e["choice"] for e in document["events"]] == ["move:N", "move:NE"]


@pytest.mark.parametrize("radius", [2, MAX_RADIUS])
def test_communities_are_placed_off_the_rim(radius: int) -> None:
    """Placing a community rolls a column and a row die of 2R - 1 sides (a d599 on the largest map)."""
    session = Session(HexcrawlRules, HexParams(radius=radius), 7)
    assert session.state.communities
    for community in session.state.communities:
        assert distance((community.q, community.r), (0, 0)) < radius  # off the rim
    assert any(entry.get("roll") == f"1d{2 * radius - 1}" for entry in session.log if isinstance(entry, dict))


@pytest.mark.parametrize(("chance", "sides"), [(0.25, 100), (0.255, 1000), (0.2555, 10_000), (0.07, 100)])
def test_the_obstacle_chance_is_rolled_exactly(chance: float, sides: int) -> None:
    """0.255 is not 26%: it is rolled on a d1000 (255 or less), so the chance is what was asked."""
    session = Session(HexcrawlRules, HexParams(radius=30, obstacle_chance=chance), 4).run_autopilot()
    rolls = [record.obstacle_roll for record in session.state.hexes.values()]
    assert max(rolls) > sides * 0.99 and max(rolls) <= sides
    hits = sum(record.obstacle is not None for record in session.state.hexes.values())
    assert hits == sum(roll <= round(chance * sides) for roll in rolls)
    assert abs(hits / len(rolls) - chance) < 0.03
    loaded = HexMap.from_json(json.loads(json.dumps(session.to_json())))  # a d10000's roll loads back too
    assert [record.obstacle_roll for record in loaded.hexes.values()] == rolls


def test_a_chance_no_die_rolls_exactly_is_refused() -> None:
    with pytest.raises(DedaleError, match="more than 4 decimals"):
        HexParams(obstacle_chance=0.123456)

"""The skirmish battlefield's geometry: sight, cover, moves, flight, dodge, cover spots, validation, JSON."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from dedale.core.documents import dump
from dedale.core.errors import DedaleError
from dedale.zombstone.skirmish.battlefield import (
    BASE,
    CLIMB_HEIGHT,
    CONTACT,
    COVER_REACH,
    DODGE,
    EPS,
    GRAZE,
    RADIUS,
    TERRAIN_KINDS,
    Battlefield,
    Point,
    Terrain,
    _circle,
    _slab,
    in_contact,
    is_heavy,
)

SALOON = Terrain("building", 10, 10, 4, 4, "saloon")
FENCE = Terrain("light", 20, 5, 0.3, 4, "fence")
WALL = Terrain("heavy", 5, 20, 4, 0.5, "wall")
MUD = Terrain("difficult", 25, 20, 4, 4, "mud")
TOWN = Battlefield(terrain=(SALOON, FENCE, WALL, MUD))


def near(a: Point, b: Point, tolerance: float = 1e-6) -> bool:
    return math.dist(a, b) <= tolerance


# sight


def test_a_building_blocks_sight() -> None:
    assert not TOWN.sight((5, 12), (20, 12)) and not TOWN.sight((20, 12), (5, 12))
    assert TOWN.sight((5, 5), (20, 12))  # over the saloon's corner, clear


def test_part_of_a_target_round_a_corner_is_seen() -> None:
    shooter, target = (5, 14.2), (20, 13.8)
    assert SALOON.crosses(shooter, target)  # the centre line clips the saloon's corner...
    assert TOWN.sight(shooter, target)  # ...but the lower side of the base shows
    assert not TOWN.sight(shooter, (20, 12.5))  # further up, the whole base is behind the saloon


def test_a_segment_along_a_side_or_through_a_corner_does_not_cross() -> None:
    assert not SALOON.crosses((5, 10), (20, 10))  # along the top side
    assert not SALOON.crosses((8, 12), (14, 6))  # through the corner (10, 10) only
    assert SALOON.crosses((8, 8), (16, 16)) and SALOON.crosses((9, 12), (15, 12))
    assert SALOON.crosses((12, 12), (12, 12)) and not SALOON.crosses((10, 12), (10, 12))  # a point inside, on a side


# cover


def test_light_and_heavy_cover() -> None:
    assert TOWN.covers((15, 7), (25, 7)) == [FENCE]
    assert TOWN.covers((7, 15), (7, 25)) == [WALL] and is_heavy(WALL) and not is_heavy(FENCE)
    assert TOWN.in_cover((7, 25), (7, 15)) and not TOWN.in_cover((17, 25), (7, 15))
    assert TOWN.covers((22, 30), (27, 19)) == []  # difficult ground gives no cover


def test_cover_is_listed_from_the_shooter() -> None:
    table = Battlefield(terrain=(Terrain("light", 20, 0, 0.5, 10), Terrain("heavy", 10, 0, 0.5, 10)))
    assert [p.kind for p in table.covers((5, 5), (25, 5))] == ["heavy", "light"]
    assert [p.kind for p in table.covers((25, 5), (5, 5))] == ["light", "heavy"]


def test_cover_within_an_inch_of_the_shooter_does_not_count() -> None:
    assert TOWN.covers((19.5, 7), (25, 7)) == []  # the fence right in front of the shooter
    assert TOWN.covers((21.2, 7), (15, 7)) == []  # just behind it, 0.9 inch away
    assert TOWN.covers((15, 7), (20.8, 7)) == [FENCE]  # the same fence in front of the target
    assert TOWN.covers((19.5, 7), (20.15, 7)) == []  # even when the target stands in it


def test_a_piece_the_target_stands_in_counts() -> None:
    trough = Terrain("heavy", 10, 10, 2, 2, "trough")
    table = Battlefield(terrain=(trough,))
    assert table.covers((11, 20), (11, 11)) == [trough]
    assert table.covers((11, 20), (11, 10)) == [trough]  # on its far edge


def test_a_building_hiding_part_of_the_target_is_heavy_cover() -> None:
    assert TOWN.covers((5, 14.2), (20, 13.8)) == [SALOON] and is_heavy(SALOON)
    assert TOWN.covers((5, 12), (20, 12)) == []  # wholly hidden: no sight, not cover
    shooter, target = (9.3, 14.6), (20, 13)
    assert SALOON.crosses(shooter, target) and TOWN.sight(shooter, target)
    assert TOWN.covers(shooter, target) == []  # its corner is within an inch of the shooter


# moves


def test_a_move_stops_before_a_building_a_figure_and_the_edge() -> None:
    assert near(TOWN.move((5, 12), (20, 12), 10, []), (9.5, 12))
    assert near(TOWN.move((1, 1), (10, 1), 20, [(5, 1)]), (4, 1))
    assert near(TOWN.move((5, 5), (5, -5), 10, []), (5, 0.5))
    assert TOWN.move((9.5, 12), (20, 12), 4, []) == (9.5, 12)  # already against the wall
    assert TOWN.move((4, 1), (10, 1), 4, [(5, 1)]) == (4, 1)  # already in base contact


def test_a_move_slides_past_what_it_does_not_hit() -> None:
    assert near(TOWN.move((1, 1), (10, 1), 4, [(3, 2.05)]), (5, 1))
    assert near(TOWN.move((15, 7), (25, 7), 10, []), (25, 7))  # over the fence: cover does not block


def test_difficult_ground_halves_only_the_part_of_the_move_over_it() -> None:
    """Each inch inside difficult ground costs two: the mud (x 25-29, y 20-24) slows only what crosses it."""
    assert near(TOWN.move((22, 22), (32, 22), 4, []), (25.5, 22))  # 3 inches to the mud, then 1 worth 0.5
    assert near(TOWN.move((22, 22), (32, 22), 12, []), (30, 22))  # 3, the mud's 4 worth 8, then 1
    assert near(TOWN.move((19, 22), (32, 22), 4, []), (23, 22))  # stops short of the mud: full move
    assert near(TOWN.move((26, 21), (26, 30), 4, []), (26, 23))  # starts in it: 2 inches for 4
    assert near(TOWN.move((26, 21), (26, 30), 8, []), (26, 26))  # out of it after 3 (6), then 2 more
    assert near(TOWN.move((22, 22), (23.5, 22), 4, []), (23.5, 22))  # the target 1.5 away, short of the mud


def test_a_move_never_goes_past_its_target_and_stops_in_contact() -> None:
    assert TOWN.move((1, 1), (3, 1), 10, []) == (3, 1)
    end = TOWN.move((1, 1), (5, 1), 20, [(5, 1)], stop_at=CONTACT - 0.05)
    assert near(end, (3.95, 1)) and in_contact(end, (5, 1))
    assert TOWN.move((4.5, 1), (5, 1), 20, [(5, 1)], stop_at=CONTACT - 0.05) == (4.5, 1)
    assert TOWN.move((3, 3), (3, 3), 4, []) == (3, 3)


# flight and dodge


def test_flight_stops_just_behind_heavy_cover() -> None:
    end = TOWN.flee((7, 17), (7, 12), 6, [])
    assert near(end, (7, 21)) and TOWN.in_cover(end, (7, 12))  # in base contact with the wall's far side
    assert near(TOWN.flee((7, 15), (7, 10), 6, []), (7, 21))  # the full 6 inches end there too


def test_flight_in_the_open_and_on_difficult_ground() -> None:
    assert near(TOWN.flee((30, 10), (30, 5), 6, []), (30, 16))
    assert near(TOWN.flee((27, 14), (27, 10), 6, []), (27, 20))  # 6 inches to the mud's edge
    assert near(TOWN.flee((27, 16), (27, 10), 6, []), (27, 21))  # 4 to the mud, 1 inch of it for 2
    assert near(TOWN.flee((1.5, 18), (1.5, 18), 6, []), (0.5, 18))  # on the danger: to the nearest edge
    assert near(TOWN.flee((17, 12), (20, 12), 6, []), (14.5, 12))  # against the saloon


def test_a_dodge_never_ends_in_contact_with_an_enemy() -> None:
    assert near(TOWN.dodge((30, 30), (35, 30), [], []), (32, 30))
    end = TOWN.dodge((5, 30), (10, 30), [(8, 30)], [(8, 30)])
    assert near(end, (6.9, 30), 1e-5) and not in_contact(end, (8, 30))
    friend = TOWN.dodge((5, 30), (10, 30), [(8, 30)], [])
    assert near(friend, (7, 30))  # a friend does not stop it short
    assert TOWN.dodge((5, 30), (10, 30), [(6.05, 30)], [(6.05, 30)]) == (5, 30)


# cover spots


def test_cover_spots_are_reachable_and_in_cover() -> None:
    barrels, wagon = Terrain("light", 10, 10, 3, 0.4, "barrels"), Terrain("heavy", 16, 10, 3, 0.5, "wagon")
    table = Battlefield(terrain=(barrels, wagon))
    start, danger = (14.5, 14), (14.5, 2)
    spots = table.cover_spots(start, 4, [danger, (30, 30)], [])
    assert spots and len(spots) <= 8
    kinds = [any(is_heavy(p) for p in table.covers(danger, spot)) for spot in spots]
    assert kinds == sorted(kinds, reverse=True) and kinds[0] and not kinds[-1]
    for spot in spots:
        assert table.in_cover(spot, danger) and math.dist(start, spot) <= 4 + 1e-9
        assert near(table.move(start, spot, 4, []), spot, 0.05)
    assert table.cover_spots(start, 4, [danger], []) == spots  # deterministic
    assert table.cover_spots(start, 4, [], []) == []


# validation and JSON


def piece(**changes: Any) -> dict[str, Any]:
    return {"kind": "light", "x": 1, "y": 1, "w": 2, "h": 1, "name": "the corral fence"} | changes


BAD = [
    ({"width": 0}, "error.battlefield.size", "0"),
    ({"height": "tall"}, "error.battlefield.size", '"tall"'),
    ({"width": float("inf")}, "error.battlefield.size", "inf"),
    ({"widht": 36}, "error.battlefield.field", "widht"),
    ([1, 2], "error.battlefield.malformed", "[1, 2]"),
    ({"terrain": {"kind": "light"}}, "error.battlefield.terrain_list", "light"),
    ({"terrain": [piece(), 7]}, "error.battlefield.piece", "terrain 2: 7"),
    ({"terrain": [piece(kind="lava")]}, "error.battlefield.kind", "terrain 1 (the corral fence): kind 'lava'"),
    ({"terrain": [piece(w=-1)]}, "error.battlefield.extent", "w -1"),
    ({"terrain": [piece(h=0)]}, "error.battlefield.extent", "h 0"),
    ({"terrain": [piece(x="3")]}, "error.battlefield.number", 'x "3"'),
    ({"terrain": [piece(y=True)]}, "error.battlefield.number", "y true"),
    ({"terrain": [piece(name=3)]}, "error.battlefield.name", "name 3"),
    ({"terrain": [piece(colour="red")]}, "error.battlefield.piece_field", "colour"),
    ({"terrain": [{"kind": "light", "x": 1, "y": 1, "w": 2}]}, "error.battlefield.missing", "'h'"),
    ({"terrain": [piece(x=35)]}, "error.battlefield.off_board", "(35, 1) to (37, 2)"),
    ({"width": 24, "terrain": [piece(x=-0.5)]}, "error.battlefield.off_board", "24 by 36"),
]


@pytest.mark.parametrize(("data", "key", "shown"), BAD)
def test_malformed_battlefields_say_what_is_wrong(data: Any, key: str, shown: str) -> None:
    with pytest.raises(DedaleError) as caught:
        Battlefield.from_json(data)
    assert caught.value.key == key
    assert shown in caught.value.message("en")
    assert caught.value.message("fr") != caught.value.message("en")


def test_direct_construction_is_validated_too() -> None:
    with pytest.raises(DedaleError) as caught:
        Battlefield(terrain=(Terrain("light", 1, 1, 2, 1), Terrain("lava", 1, 1, 1, 1, "pit")))
    assert caught.value.key == "error.battlefield.kind" and "terrain 2 (pit)" in caught.value.message()
    with pytest.raises(DedaleError) as caught:
        Battlefield(width=-3)
    assert "width: -3" in caught.value.message()


def test_json_round_trip() -> None:
    data = json.loads(json.dumps(TOWN.to_json()))
    assert Battlefield.from_json(data) == TOWN and data["terrain"][0]["name"] == "saloon"
    assert Battlefield.from_json({}) == Battlefield()
    assert "name" not in dump(Terrain("light", 1, 1, 1, 1).shape())


# properties over random tables and positions

coords = st.floats(-1, 37, allow_nan=False)
points = st.tuples(coords, coords)
crowds = st.lists(points, max_size=8)


@st.composite
def battlefields(draw: st.DrawFn) -> Battlefield:
    pieces = []
    for _ in range(draw(st.integers(0, 12))):
        w, h = draw(st.floats(0.2, 8)), draw(st.floats(0.2, 8))
        kind = draw(st.sampled_from(TERRAIN_KINDS))
        height = draw(st.sampled_from([1.0, 6.0])) if kind == "wall" else 1.0  # a wall to climb, or too high
        pieces.append(Terrain(kind, draw(st.floats(0, 36 - w)), draw(st.floats(0, 36 - h)), w, h, height=height))
    return Battlefield(terrain=tuple(pieces))


def rough(table: Battlefield, start: Point, end: Point) -> float:
    """How many inches of the straight path start-end lie inside rough ground (difficult, stairs, ladders, walls
    to climb, gaps; overlaps counted once)."""
    spans = sorted(span for piece in table.terrain if piece.kind in ("difficult", "stairs", "ladder", "gap")
                   or (piece.kind == "wall" and piece.height <= CLIMB_HEIGHT)
                   if (span := piece._clip(start, end, 0.0)) is not None)
    inside, reached = 0.0, 0.0
    for t0, t1 in spans:
        inside += max(0.0, t1 - max(t0, reached))
        reached = max(reached, t1)
    return inside * math.dist(start, end)


def on_the_way(start: Point, end: Point, table: Battlefield, others: list[Point]) -> bool:
    """Every point of the straight path start-end is free, or over a gap it jumps."""
    points = [(start[0] + (end[0] - start[0]) * i / 20, start[1] + (end[1] - start[1]) * i / 20) for i in range(21)]
    return all(table.free(point, others) or any(gap.over(point) for gap in table.gaps) for point in points)


@settings(max_examples=examples(100), deadline=None)
@given(battlefields(), points, points, st.floats(0, 12), crowds, st.sampled_from([0.0, CONTACT - 0.05]))
def test_moves_end_free_and_within_reach(table: Battlefield, start: Point, toward: Point, distance: float,
                                         others: list[Point], stop_at: float) -> None:
    end = table.move(start, toward, distance, others, stop_at)
    if end == start:
        return
    gone = math.dist(start, end)
    assert table.free(end, others)
    assert gone <= distance + 1e-9 and gone <= math.dist(start, toward) + 1e-9
    assert math.dist(end, toward) >= min(stop_at, math.dist(start, toward)) - 1e-9
    assert gone + rough(table, start, end) <= distance + 1e-9  # an inch over difficult ground costs two
    # along the straight line from start toward the target, and free all the way when it starts free
    cross = (end[0] - start[0]) * (toward[1] - start[1]) - (end[1] - start[1]) * (toward[0] - start[0])
    assert abs(cross) <= 1e-6 * max(1.0, math.dist(start, toward))
    if table.free(start, others):
        assert on_the_way(start, end, table, others)


@settings(max_examples=examples(100), deadline=None)
@given(battlefields(), points, points, st.floats(0, 8), crowds)
def test_flight_ends_free_further_from_the_danger(table: Battlefield, start: Point, danger: Point, distance: float,
                                                  others: list[Point]) -> None:
    end = table.flee(start, danger, distance, others)
    if end == start:
        return
    assert table.free(end, others) and math.dist(start, end) <= distance + 1e-9
    assert math.dist(end, danger) >= math.dist(start, danger) - 1e-9


@settings(max_examples=examples(100), deadline=None)
@given(battlefields(), points, points, crowds, st.lists(points, max_size=4))
def test_a_dodge_ends_free_and_out_of_contact(table: Battlefield, start: Point, direction: Point,
                                              friends: list[Point], enemies: list[Point]) -> None:
    others = friends + enemies
    end = table.dodge(start, direction, others, enemies)
    if end == start:
        return
    assert table.free(end, others) and math.dist(start, end) <= DODGE + 1e-9
    assert not any(in_contact(end, enemy) for enemy in enemies)


@settings(max_examples=examples(100), deadline=None)
@given(battlefields(), points, points)
def test_sight_and_cover_obey_their_rules(table: Battlefield, a: Point, b: Point) -> None:
    for piece in table.terrain:
        assert piece.crosses(a, b) == piece.crosses(b, a)
    if not any(piece.crosses(a, b) for piece in table.terrain if piece.kind == "building"):
        assert table.sight(a, b) and table.sight(b, a)
    found = table.covers(a, b)
    assert len(found) == len(set(found))
    for piece in found:
        assert piece.kind != "difficult" and piece.distance(a) > COVER_REACH
        assert piece.crosses(a, b) or piece.contains(b)
        if piece.kind == "building":
            assert table.sight(a, b) and piece.crosses(a, b)
    assert table.in_cover(b, a) == bool(found)


@settings(max_examples=examples(200), deadline=None)
@given(points, points)
def test_contact_is_symmetric(a: Point, b: Point) -> None:
    assert in_contact(a, b) == in_contact(b, a)
    assert in_contact(a, b) == (math.dist(a, b) <= CONTACT) and (math.dist(a, b) < BASE) <= in_contact(a, b)


@settings(max_examples=examples(60), deadline=None)
@given(battlefields(), points, st.lists(points, min_size=1, max_size=3), crowds)
def test_cover_spots_are_in_cover_and_reachable(table: Battlefield, start: Point, dangers: list[Point],
                                               others: list[Point]) -> None:
    spots = table.cover_spots(start, 4, dangers, others)
    danger = min(dangers, key=lambda point: (math.dist(start, point), point))
    assert len(spots) <= 8 and len(set(spots)) == len(spots)
    heavy = [any(is_heavy(p) for p in table.covers(danger, spot)) for spot in spots]
    assert heavy == sorted(heavy, reverse=True)
    for spot in spots:
        assert table.in_cover(spot, danger) and math.dist(start, spot) <= 4 + 1e-9
        assert spot == start or table.free(spot, others)


@settings(max_examples=examples(100), deadline=None)
@given(battlefields())
def test_battlefields_survive_json(table: Battlefield) -> None:
    assert Battlefield.from_json(json.loads(json.dumps(table.to_json()))) == table


# the hot paths skip what is plainly too far away: they must answer as the plain definitions do, to the bit
# (the same seed plays the same game)

nudges = st.tuples(st.floats(0.9, 1.15), st.floats(-math.pi, math.pi))  # how far and which way: about a base


@settings(max_examples=examples(150), deadline=None)
@given(battlefields(), points, st.lists(nudges, max_size=6), st.lists(points, max_size=4))
def test_free_is_its_definition(table: Battlefield, p: Point, near: list[Point], far: list[Point]) -> None:
    others = [(p[0] + r * math.cos(a), p[1] + r * math.sin(a)) for r, a in near] + far  # bases about p's edge
    stops = [piece for piece in table.terrain if piece.kind == "building" or (piece.kind == "wall"
                                                                               and piece.height > CLIMB_HEIGHT)]
    over_a_gap = any(piece.kind == "gap" and piece.x < p[0] < piece.right and piece.y < p[1] < piece.bottom
                     for piece in table.terrain)
    plain = (table.on_board(p) and all(piece.distance(p) >= RADIUS - EPS for piece in stops) and not over_a_gap
             and all(math.dist(p, other) >= BASE - EPS for other in others))
    assert table.free(p, others) == plain


def textbook_clip(piece: Terrain, a: Point, b: Point, margin: float) -> tuple[float, float] | None:
    """Liang-Barsky as written in the books (with min and max)."""
    left, top = piece.x - margin, piece.y - margin
    right, bottom = piece.x + piece.w + margin, piece.y + piece.h + margin
    if max(a[0], b[0]) < left or min(a[0], b[0]) > right or max(a[1], b[1]) < top or min(a[1], b[1]) > bottom:
        return None
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, a[0] - left), (dx, right - a[0]), (-dy, a[1] - top), (dy, bottom - a[1])):
        if p == 0.0:
            if q < 0.0:
                return None
        elif p < 0.0:
            t0 = max(t0, q / p)
        else:
            t1 = min(t1, q / p)
    return (t0, t1) if t0 <= t1 else None


@settings(max_examples=examples(150), deadline=None)
@given(battlefields(), points, points, st.sampled_from([-GRAZE, 0.0, GRAZE]))
def test_clipping_is_the_textbook_one(table: Battlefield, a: Point, b: Point, margin: float) -> None:
    for piece in table.terrain:
        assert repr(piece._clip(a, b, margin)) == repr(textbook_clip(piece, a, b, margin))  # -0.0 included


# stairs, ladders and walls to climb (the text: each halves the move; a wall over 4 inches cannot be climbed)
STAIRS = Terrain("stairs", 4, 2, 2, 6, "stairs")
LADDER = Terrain("ladder", 12, 2, 1, 6, "ladder")
ADOBE = Terrain("wall", 20, 2, 0.5, 10, "adobe wall", height=2)
RAMPART = Terrain("wall", 28, 2, 0.5, 10, "rampart", height=5)
CLIMBING = Battlefield(terrain=(STAIRS, LADDER, ADOBE, RAMPART))


def test_stairs_ladders_and_low_walls_cost_two_inches_an_inch() -> None:
    """Stairs and ladders by default, a wall read so (`climb="per_inch"`, Dédale's reading before)."""
    assert near(CLIMBING.move((1, 4), (12, 4), 4, []), (4.5, 4))  # 3 to the stairs, then 1 worth 0.5 up them
    assert near(CLIMBING.move((9, 4), (16, 4), 4, []), (12.5, 4))  # 3 to the ladder, then 0.5 of it
    per_inch = CLIMBING.read_as("per_inch", "per_inch")
    assert near(per_inch.move((18, 4), (24, 4), 4, []), (21.5, 4))  # 2 to the wall, over its 0.5 for 1, 1 more


def test_a_wall_over_4_inches_stops_a_move_as_a_building_does() -> None:
    end = CLIMBING.move((26, 4), (32, 4), 4, [])
    assert end[0] <= 28 - 0.5 + 1e-6  # its base stops against the rampart
    assert not CLIMBING.free((28.25, 4), []) and CLIMBING.free((20.25, 4), [])


def test_walls_are_heavy_cover_and_stairs_and_ladders_none() -> None:
    assert [p.name for p in CLIMBING.covers((17, 6), (23, 6))] == ["adobe wall"]
    assert CLIMBING.cover_kinds((17, 6), (23, 6)) == ("wall",)
    assert CLIMBING.covers((1, 5), (8, 5)) == [] and CLIMBING.covers((10, 5), (15, 5)) == []


def test_only_a_wall_has_a_height() -> None:
    assert Terrain.from_json({"kind": "wall", "x": 1, "y": 1, "w": 1, "h": 3, "height": 5}).height == 5
    assert dump(Terrain.from_json({"kind": "wall", "x": 1, "y": 1, "w": 1, "h": 3}).shape())["height"] == 1
    with pytest.raises(DedaleError, match="only a wall has a height"):
        Terrain.from_json({"kind": "heavy", "x": 1, "y": 1, "w": 1, "h": 3, "height": 5})
    with pytest.raises(DedaleError, match="height"):
        Terrain.from_json({"kind": "wall", "x": 1, "y": 1, "w": 1, "h": 3, "height": -1})


# gaps to jump (the text: a long jump halves the move, and may take both actions)
ARROYO = Battlefield(terrain=(Terrain("gap", 10, 0, 2, 36, "arroyo"),))


def test_a_move_must_clear_a_gap_and_pays_double_over_it() -> None:
    assert near(ARROYO.move((7, 5), (20, 5), 4, []), (9.95, 5))  # 3 to its edge; 1 more would end over it
    assert near(ARROYO.move((9, 5), (20, 5), 8, []), (15, 5))  # both actions: 1, the gap's 2 worth 4, then 3
    assert not ARROYO.free((11, 5), []) and ARROYO.free((10, 5), []) and ARROYO.free((12, 5), [])
    assert ARROYO.leaps((9, 5), (15, 5)) and not ARROYO.leaps((1, 5), (9.9, 5))
    assert ARROYO.covers((5, 5), (20, 5)) == []  # no cover, and no wall to sight


@given(st.floats(0, 36), st.floats(0, 36), st.floats(-math.pi, math.pi), st.sampled_from([0.5, 1.0]),
       st.sampled_from([(10.0, 10.0, 6.0, 4.0), (0.0, 0.0, 0.5, 9.0), (20.0, 3.0, 2.0, 2.0)]))
def test_a_discs_span_over_a_piece_is_the_hull_of_its_six_parts(x: float, y: float, angle: float, r: float,
                                                                 box: tuple[float, float, float, float]) -> None:
    """`_disc_span`, written out for speed, is its plain definition to the last bit: the least start and the
    greatest end of the spans over the two slabs and the four corner circles."""
    piece = Terrain("building", *box)
    ux, uy = math.cos(angle), math.sin(angle)
    x0, y0, x1, y1 = piece.x, piece.y, piece.x + piece.w, piece.y + piece.h
    spans = [_slab(x, y, ux, uy, x0 - r, y0, x1 + r, y1), _slab(x, y, ux, uy, x0, y0 - r, x1, y1 + r)]
    spans += [_circle(x, y, ux, uy, cx, cy, r) for cx in (x0, x1) for cy in (y0, y1)]
    found = [span for span in spans if span is not None]
    plain = (min(s[0] for s in found), max(s[1] for s in found)) if found else None
    assert piece._disc_span((x, y), ux, uy, r) == plain

"""Virtual tabletop files, read as the importers read them: Universal VTT's walls close every room as the
document's doors say (an importer makes a wall of each two points in a row of a `line_of_sight` outline, a door of
each portal); Foundry scenes' walls, doors (CONST.WALL_DOOR_TYPES: 0 none, 1 door, 2 secret; WALL_DOOR_STATES: 0
closed, 1 open, 2 locked; a directional wall left out for whatever stands on its `dir` side), notes and drawings;
the files' shape, the chosen grid, the crop, the party's view and the hex grid's alignment."""

from __future__ import annotations

import base64
import io
import json
import math
import re
import struct
import zipfile
from collections import Counter
from collections.abc import Hashable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

import dedale
from dedale.hexcrawl.hexes import label, map_hexes
from dedale.hexcrawl.model import HexMap
from dedale.render.hex_svg import map_svg
from dedale.render.vtt import HEX_ODD_Q, hex_grid
from dedale.systems import extension_of, system

Cell = tuple[int, int]
Edge = frozenset[Cell]
SEEDS = range(1, 41)
PASSAGES = (78, 85, 105, 121, 140, 184)  # seeds whose dungeon has a secret passage (few do; 25 and 33 are in SEEDS)


def crawler_documents() -> list[dict[str, Any]]:
    done = [dedale.generate("crawler", seed=seed).to_json() for seed in [*SEEDS, *PASSAGES]]
    done += [dedale.generate("crawler", seed=seed, size="2d6", board=4).to_json() for seed in SEEDS[:10]]
    partial = []
    for seed in range(1, 11):  # mid-session: a few rooms laid, perhaps a passage dug, the boss not reached
        session = dedale.play("crawler", seed=seed)
        for _ in range(4 + seed):
            if session.is_over:
                break
            session.auto_step()
        partial.append(session.to_json())
    return done + partial + [searching(seed) for seed in range(1, 11)]


def searching(seed: int) -> dict[str, Any]:
    """A dungeon whose player searched every wall it could (most searches find nothing: walls to check)."""
    session = dedale.play("crawler", seed=seed)
    while not session.is_over:
        search = [choice for choice in session.choices() if choice.id.startswith("search:")]
        if search:
            session.step(search[0])
        else:
            session.auto_step()
    return session.to_json()


def paper_documents() -> list[dict[str, Any]]:
    done = [dedale.generate("paper", seed=seed).to_json() for seed in SEEDS]
    partial = [dedale.generate("paper", seed=seed, max_cards=cards).to_json()
               for seed, cards in zip(range(1, 11), range(1, 30, 3), strict=True)]
    return done + partial


CRAWLER = crawler_documents()
PAPER = paper_documents()


# Each file made once: several tests read the same documents' files, and drawing their pictures is most of the
# time. Kept with its document, so that no other document takes its id while it is kept.
MADE: dict[tuple[int, str, str, str, str], tuple[dict[str, Any], bytes]] = {}


def export(document: dict[str, Any], ext: str, lang: str = "en", view: str = "gm", **options: Any) -> dict[str, Any]:
    """The file as an importer reads it: parsed anew for each reader (which may change its copy)."""
    key = (id(document), ext, lang, view, repr(sorted(options.items())))
    if key not in MADE:
        found = system(document["format"][7:])
        MADE[key] = document, found.export(document, ext, options, lang=lang, view=view)
    kept, made = MADE[key]
    assert kept is document
    return json.loads(made)


# --- from the exported file alone: blocked cell sides, open ways, regions reached ---------------------------

def unit_edges(a: dict[str, float], b: dict[str, float]) -> list[Edge]:
    """The cell sides an axis-aligned segment of whole grid units covers, each as the two cells it parts."""
    assert all(float(v).is_integer() for v in (a["x"], a["y"], b["x"], b["y"])), (a, b)
    (xa, ya), (xb, yb) = (int(a["x"]), int(a["y"])), (int(b["x"]), int(b["y"]))
    assert xa == xb or ya == yb, "walls run along the grid"
    if ya == yb:
        return [frozenset({(x, ya - 1), (x, ya)}) for x in range(min(xa, xb), max(xa, xb))]
    return [frozenset({(xa - 1, y), (xa, y)}) for y in range(min(ya, yb), max(ya, yb))]


def importer_walls(uvtt: dict[str, Any]) -> list[tuple[dict[str, float], dict[str, float]]]:
    """The walls an importer makes: each outline of n points, n - 1 walls."""
    return [(a, b) for line in uvtt["line_of_sight"] for a, b in pairwise(line)]


def blocked(uvtt: dict[str, Any]) -> set[Edge]:
    walls: set[Edge] = set()
    for a, b in importer_walls(uvtt):
        walls.update(unit_edges(a, b))
    return walls


def portal_edges(uvtt: dict[str, Any]) -> list[Edge]:
    found = []
    for portal in uvtt["portals"]:
        edges = unit_edges(*portal["bounds"])
        assert len(edges) == 1, "a door is one cell side"
        found.append(edges[0])
    return found


def components(uvtt: dict[str, Any]) -> dict[Cell, int]:
    """Flood fill over the image's cells, through every side no wall blocks (doors open)."""
    width, height = uvtt["resolution"]["map_size"]["x"], uvtt["resolution"]["map_size"]["y"]
    walls = blocked(uvtt)
    assert not walls & set(portal_edges(uvtt)), "a door is not also a wall"
    seen: dict[Cell, int] = {}
    for start in ((x, y) for x in range(width) for y in range(height)):
        if start in seen:
            continue
        mark, todo = len(seen), [start]
        seen[start] = mark
        while todo:
            x, y = todo.pop()
            for other in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if (0 <= other[0] < width and 0 <= other[1] < height and other not in seen
                        and frozenset({(x, y), other}) not in walls):
                    seen[other] = mark
                    todo.append(other)
    return seen


class Joined:
    """Union-find: which places the document says are joined."""

    def __init__(self) -> None:
        self.parent: dict[Hashable, Hashable] = {}

    def find(self, a: Hashable) -> Hashable:
        self.parent.setdefault(a, a)
        while self.parent[a] != a:
            a = self.parent[a]
        return a

    def join(self, a: Hashable, b: Hashable) -> None:
        self.parent[self.find(a)] = self.find(b)


VOID = "rock"  # every cell of no room, corridor or passage


def check_closed(uvtt: dict[str, Any], places: dict[Cell, Hashable], joined: Joined) -> None:
    """Each component of the raster holds places the document joins only (the rock a place of its own, which
    rooms around it may part), and places it joins are in one component; every wall and door side parts two
    different places."""
    width, height = uvtt["resolution"]["map_size"]["x"], uvtt["resolution"]["map_size"]["y"]

    def place(cell: Cell) -> Hashable:
        return places.get(cell, VOID)

    assert all(0 <= x < width and 0 <= y < height for x, y in places), "the picture holds every place"
    reached: dict[int, set[Hashable]] = {}
    marks: dict[Hashable, set[int]] = {}
    for cell, mark in components(uvtt).items():
        reached.setdefault(mark, set()).add(joined.find(place(cell)))
        if cell in places:
            marks.setdefault(joined.find(place(cell)), set()).add(mark)
    for found in reached.values():
        assert len(found) == 1, f"walls leak: {found} meet"
    for joined_place, found_marks in marks.items():
        assert joined_place == joined.find(VOID) or len(found_marks) == 1, f"walls cut {joined_place} apart"
    for side in [*blocked(uvtt), *portal_edges(uvtt)]:
        a, b = tuple(side)
        assert place(a) != place(b), f"a wall or a door inside one place: {sorted(side)}"
    for side in portal_edges(uvtt):
        assert any(c in places for c in side), "a door on a room's or corridor's outline"


def crawler_places(document: dict[str, Any]) -> tuple[dict[Cell, Hashable], Joined, Cell]:
    """The rooms' and passages' squares, in the picture's cells: the crop is the rooms, the passages, both
    sides of each door (the entrance's outside too) and one square around."""
    places: dict[Cell, Hashable] = {}
    joined = Joined()
    for room in document["rooms"]:
        for x in range(room["x"], room["x"] + room["w"]):
            for y in range(room["y"], room["y"] + room["h"]):
                places[x, y] = ("room", room["id"])
    for i, passage in enumerate(document["passages"]):
        for x, y in passage["cells"]:
            places[x, y] = ("passage", i)
        joined.join(("room", passage["room"]), ("passage", i))  # the secret door at its start
    for door in document["doors"]:
        a, b = door["rooms"]
        joined.join(VOID if a is None else ("room", a), ("room", b))  # the entrance leads off the board
    cells = [*places, *(tuple(c) for d in document["doors"] for c in d["cells"])]
    x0, y0 = min(x for x, _ in cells) - 1, min(y for _, y in cells) - 1
    return {(x - x0, y - y0): place for (x, y), place in places.items()}, joined, (x0, y0)


@pytest.mark.parametrize("index", range(len(CRAWLER)))
def test_crawler_walls_close_the_rooms(index: int) -> None:
    document = CRAWLER[index]
    uvtt = export(document, ".dd2vtt")
    places, joined, _ = crawler_places(document)
    check_closed(uvtt, places, joined)
    xs, ys = [x for x, _ in places], [y for _, y in places]
    size = uvtt["resolution"]["map_size"]
    assert min(xs) >= 1 and min(ys) >= 1 and max(xs) <= size["x"] - 2 and max(ys) <= size["y"] - 2
    assert len(uvtt["portals"]) == len(document["doors"]) + len(document["passages"])
    assert len(uvtt["lights"]) == len(document["rooms"])


def paper_places(document: dict[str, Any]) -> tuple[dict[Cell, Hashable], Joined, Cell]:
    """The features' squares, in the picture's cells: the crop is what is drawn (squares, both sides of each
    door and the open ends) and one square around."""
    cells = [(c["x"], c["y"]) for c in document["cells"]] + [tuple(c) for d in document["doors"] for c in d["cells"]]
    cells += [(end["x"], end["y"]) for end in document["open_ends"]]
    x0, y0 = min(x for x, _ in cells) - 1, min(y for _, y in cells) - 1
    places: dict[Cell, Hashable] = {(c["x"] - x0, c["y"] - y0): c["feature"] for c in document["cells"]}
    joined = Joined()
    for door in document["doors"]:
        (xa, ya), (xb, yb) = door["cells"]
        a, b = places.get((xa - x0, ya - y0), VOID), places.get((xb - x0, yb - y0), VOID)
        joined.join(a, b)  # doors, secret doors and openings join; the entrance joins the page's outside
    return places, joined, (x0, y0)


@pytest.mark.parametrize("index", range(len(PAPER)))
def test_paper_walls_close_the_features(index: int) -> None:
    document = PAPER[index]
    uvtt = export(document, ".uvtt")
    places, joined, _ = paper_places(document)
    check_closed(uvtt, places, joined)
    xs, ys = [x for x, _ in places], [y for _, y in places]
    size = uvtt["resolution"]["map_size"]
    assert min(xs) >= 1 and min(ys) >= 1 and max(xs) <= size["x"] - 2 and max(ys) <= size["y"] - 2
    assert len(uvtt["portals"]) == sum(d["kind"] != "opening" for d in document["doors"])
    assert len(uvtt["lights"]) == len(document["rooms"])


# --- the files' shape --------------------------------------------------------------------------------------

def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def point(value: Any) -> bool:
    return set(value) == {"x", "y"} and all(isinstance(v, int | float) for v in value.values())


@pytest.mark.parametrize(("document", "ext"), [(CRAWLER[3], ".dd2vtt"), (PAPER[2], ".uvtt"), (CRAWLER[-1], ".uvtt")])
def test_universal_vtt_shape(document: dict[str, Any], ext: str) -> None:
    uvtt = export(document, ext)
    assert uvtt["format"] == 0.3
    resolution = uvtt["resolution"]
    assert resolution["map_origin"] == {"x": 0, "y": 0} and point(resolution["map_size"])
    ppg = resolution["pixels_per_grid"]
    assert ppg == 100, "the importers' and Foundry's grid, unless another is asked for"
    assert all(len(line) >= 2 and all(point(p) for p in line) for line in uvtt["line_of_sight"])
    assert uvtt["objects_line_of_sight"] == []
    for portal in uvtt["portals"]:
        (a, b), centre = portal["bounds"], portal["position"]
        assert point(a) and point(b) and point(centre)
        assert centre == {"x": (a["x"] + b["x"]) / 2, "y": (a["y"] + b["y"]) / 2}
        assert math.isclose(portal["rotation"], 0 if a["y"] == b["y"] else math.pi / 2)
        assert portal["closed"] is True and portal["freestanding"] is False
    assert uvtt["environment"] == {"baked_lighting": False, "ambient_light": "ffffffff"}
    for light in uvtt["lights"]:
        assert point(light["position"]) and light["range"] > 0 and light["intensity"] > 0
        assert re.fullmatch("[0-9a-f]{8}", light["color"]) and light["shadows"] is True
    width, height = png_size(base64.b64decode(uvtt["image"]))
    assert (width, height) == (resolution["map_size"]["x"] * ppg, resolution["map_size"]["y"] * ppg)


def test_both_extensions_hold_the_same() -> None:
    assert export(CRAWLER[0], ".dd2vtt") == export(CRAWLER[0], ".uvtt")


@pytest.mark.parametrize("index", range(0, len(CRAWLER), 5))
def test_crawler_exports_the_dungeon_not_the_board(index: int) -> None:
    """The picture and the files hold the dungeon and a square around it, the entrance's outside with it: the
    entrance is a door inside the picture, not on its edge."""
    document = CRAWLER[index]
    uvtt = export(document, ".dd2vtt")
    scene = export(document, ".foundry.json")
    _, _, (x0, y0) = crawler_places(document)
    size = uvtt["resolution"]["map_size"]
    entrance = next(d for d in document["doors"] if d["rooms"][0] is None)
    (xa, ya), (xb, yb) = ((x - x0, y - y0) for x, y in entrance["cells"])
    assert 1 <= xa < size["x"] - 1 and 1 <= ya < size["y"] - 1, "the entrance's outside is in the picture"
    assert frozenset({(xa, ya), (xb, yb)}) in portal_edges(uvtt)
    rooms = document["rooms"]
    wide = max(r["x"] + r["w"] for r in rooms) - min(r["x"] for r in rooms)
    high = max(r["y"] + r["h"] for r in rooms) - min(r["y"] for r in rooms)
    assert size["x"] <= wide + 3 and size["y"] <= high + 3, "a margin of a square (the entrance's beyond it)"
    assert (scene["width"], scene["height"]) == (size["x"] * 100, size["y"] * 100)
    assert png_size(base64.b64decode(uvtt["image"])) == (size["x"] * 100, size["y"] * 100)


# --- Foundry ------------------------------------------------------------------------------------------------

def doors_of(scene: dict[str, Any]) -> list[dict[str, Any]]:
    return [wall for wall in scene["walls"] if wall["door"]]


def check_scene(scene: dict[str, Any], grid_type: int) -> None:
    assert scene["padding"] == 0 and scene["grid"]["type"] == grid_type
    assert (scene["grid"]["distance"], scene["grid"]["units"]) == ((5, "ft") if grid_type == 1 else (1, "hex"))
    src = scene["background"]["src"]
    assert src.startswith("data:image/png;base64,")
    assert png_size(base64.b64decode(src.split(",", 1)[1])) == (scene["width"], scene["height"])
    for wall in scene["walls"]:
        assert len(wall["c"]) == 4 and all(isinstance(v, int) for v in wall["c"])
        assert wall["door"] in (0, 1, 2) and wall["ds"] in (0, 2) and wall["dir"] in (0, 1, 2)
        assert wall["move"] == wall["sight"] == wall["light"] == wall["sound"] == 20
        assert wall["c"][:2] != wall["c"][2:], "no wall of zero length"
    for note in scene["notes"]:
        assert note["text"] and note["entryId"] is None
        assert 0 <= note["x"] <= scene["width"] and 0 <= note["y"] <= scene["height"]


def test_foundry_crawler_doors() -> None:
    for document in CRAWLER[::3] + [d for d in CRAWLER if d["passages"]]:
        scene = export(document, ".foundry.json")
        uvtt = export(document, ".dd2vtt")
        ppg = uvtt["resolution"]["pixels_per_grid"]
        check_scene(scene, 1)
        assert scene["grid"]["size"] == ppg and scene["width"] == uvtt["resolution"]["map_size"]["x"] * ppg
        doors = doors_of(scene)
        assert len(scene["walls"]) - len(doors) == len(importer_walls(uvtt))
        assert sum(d["door"] == 2 for d in doors) == len(document["passages"])
        boss = {r["id"] for r in document["rooms"] if r["boss"]}
        assert sum(d["ds"] == 2 for d in doors) == sum(bool(boss & set(d["rooms"])) for d in document["doors"])
        assert len(scene["notes"]) == len(scene["lights"]) == len(document["rooms"])
        assert not any(d["dir"] for d in doors), "the crawler's doors open both ways"


def test_foundry_paper_secret_doors() -> None:
    for document in PAPER[::3]:
        scene = export(document, ".foundry.json")
        check_scene(scene, 1)
        doors = doors_of(scene)
        assert sum(d["door"] == 2 for d in doors) == sum(d["kind"] == "secret" for d in document["doors"])
        assert not any(d["ds"] for d in doors)
        assert len(scene["notes"]) == len(document["rooms"])
        assert not any(w["dir"] for w in scene["walls"] if not w["door"])


def test_foundry_notes_in_the_language_asked() -> None:
    document = CRAWLER[0]
    english = [n["text"] for n in export(document, ".foundry.json", "en")["notes"]]
    french = [n["text"] for n in export(document, ".foundry.json", "fr")["notes"]]
    assert english != french and all(e.split(".")[0] == f.split(".")[0] for e, f in zip(english, french, strict=True))


def foundry_offset(h: tuple[int, int], radius: int) -> tuple[int, int]:
    """The (row i, column j) Foundry's HEXODDQ grid gives hex h, as `vtt.hex_grid` lays the map on it."""
    q, r = h
    return r + (q - (q & 1)) // 2 + radius + 1, q + radius + (radius & 1)


def foundry_centre(i: int, j: int, size: int) -> tuple[float, float]:
    """Foundry's HexagonalGrid#getCenterPoint for an offset on a HEXODDQ grid (columns, not even)."""
    even = (j + 1) % 2 == 0
    x = (2 / math.sqrt(3)) * ((0.75 * j + 0.5) * size)
    y = (i + (0 if even is False else 0.5)) * size
    return x, y


@pytest.mark.parametrize("radius", [0, 1, 2, 3, 7, 12])
def test_hex_grid_overlays_the_hexes(radius: int) -> None:
    document = dedale.generate("hexcrawl", seed=radius + 1, radius=radius).to_json()
    hex_map = HexMap.from_json(document)
    scene = export(document, ".foundry.json")
    check_scene(scene, HEX_ODD_Q)
    size, ox, oy, width, height = hex_grid(radius)
    assert (scene["grid"]["size"], scene["width"], scene["height"]) == (size, width, height)
    picture = map_svg(hex_map, size / math.sqrt(3), ox, oy, width, height)
    drawn = re.findall(r'<polygon points="([^"]+)" fill="#', picture)  # a hex's colour (its pattern comes after)
    for h, points in zip(map_hexes(radius), drawn, strict=True):  # the hexes, in map order
        corners = [tuple(map(float, p.split(","))) for p in points.split()]
        assert all(-0.1 <= x <= width + 0.1 and -0.1 <= y <= height + 0.1 for x, y in corners), "a hex is cut"
        cx, cy = sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6
        fx, fy = foundry_centre(*foundry_offset(h, radius), size)
        assert math.isclose(cx, fx, abs_tol=0.1) and math.isclose(cy, fy, abs_tol=0.1), h
        assert math.isclose(max(y for _, y in corners) - min(y for _, y in corners), size, abs_tol=0.2)
    for note, community in zip(scene["notes"], document["communities"], strict=True):
        fx, fy = foundry_centre(*foundry_offset((community["q"], community["r"]), radius), size)
        assert (note["x"], note["y"]) == (round(fx), round(fy)) and community["name"] in note["text"]


def test_hex_grid_rows_and_columns_follow_the_labels() -> None:
    """Foundry's rows are the labels' rows; its columns keep q's parity (odd columns lower, as odd q are)."""
    for radius in (1, 2, 5):
        for h in map_hexes(radius):
            i, j = foundry_offset(h, radius)
            assert j % 2 == h[0] % 2 and i == int(label(h, radius)[-2:])


# --- file names --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "ext"), [("scene.foundry.json", ".foundry.json"), ("map.json", ".json"),
                                           ("MAP.DD2VTT", ".dd2vtt"), ("a/b.c/x.uvtt", ".uvtt"),
                                           ("foundry.json", ".json"), ("x.png", ".png")])
def test_extension_of(name: str, ext: str) -> None:
    assert extension_of(name, system("crawler")) == ext


def test_hexcrawl_has_no_universal_vtt() -> None:
    assert ".foundry.json" in system("hexcrawl").formats and ".dd2vtt" not in system("hexcrawl").formats


# --- as an importer reads them: outlines, the party's doors, one-way doors, the GM's key -------------------

def joining_walls(uvtt: dict[str, Any]) -> list[tuple[dict[str, float], dict[str, float]]]:
    """The walls Foundry's Universal Battlemap Importer (4.0 to 6.0.1, `GetWalls`) adds between outlines besides
    their own: from an outline's last point to each other outline's first point there, and from each other's
    last point to its first point; with no offset asked, each is of zero length."""
    lines = uvtt["line_of_sight"]
    added = []
    for i, line in enumerate(lines):
        for j, other in enumerate(lines):
            if i != j and line[-1] == other[0]:
                added.append((line[-1], other[0]))
            if i != j and line[0] == other[-1]:
                added.append((other[-1], line[0]))
    return added


def test_two_point_walls_would_make_the_importer_add_walls_of_zero_length() -> None:
    """The reader above finds what the audit found in the former files: two-point walls meeting at a corner."""
    corner = {"line_of_sight": [[{"x": 0, "y": 0}, {"x": 2, "y": 0}], [{"x": 2, "y": 0}, {"x": 2, "y": 3}]]}
    assert len(joining_walls(corner)) == 2 and all(a == b for a, b in joining_walls(corner))


@pytest.mark.parametrize(("documents", "ext"), [(CRAWLER, ".dd2vtt"), (PAPER, ".uvtt")])
def test_outlines_make_no_wall_of_zero_length(documents: list[dict[str, Any]], ext: str) -> None:
    """Each outline's walls, as an importer makes them: none of zero length, none in line with the one before
    (two runs meeting would have been one), no side of a square covered twice; every Foundry wall the same."""
    for document in documents:
        uvtt = export(document, ext)
        covered: list[Edge] = []
        for line in uvtt["line_of_sight"]:
            assert len(line) >= 2
            for (a, b), (_, c) in zip(pairwise(line), pairwise(line[1:]), strict=False):
                assert (a["x"] == b["x"]) != (b["x"] == c["x"]), f"two walls in line at {b}: {line}"
            for a, b in pairwise(line):
                assert a != b, "a wall of zero length"
                covered += unit_edges(a, b)
        assert len(covered) == len(set(covered)), "a side of a square walled twice"
        assert not joining_walls(uvtt), "the Universal Battlemap Importer would add walls of zero length"
        degree = Counter(xy for a, b in importer_walls(uvtt) for xy in ((a["x"], a["y"]), (b["x"], b["y"])))
        for line in uvtt["line_of_sight"]:
            if line[0] != line[-1]:  # an open outline ends where a wall stops or branches, not at a corner
                assert all(degree[p["x"], p["y"]] != 2 for p in (line[0], line[-1])), line
        scene = export(document, ".foundry.json")
        assert all(w["c"][:2] != w["c"][2:] for w in scene["walls"])


def orient(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]) -> int:
    """Foundry's Wall#orientPoint, from foundry.utils.orient2dFast: 1 LEFT (< 0), 2 RIGHT (> 0), 0 on its line."""
    value = (a[1] - p[1]) * (b[0] - p[0]) - (a[0] - p[0]) * (b[1] - p[1])
    return 0 if value == 0 else 1 if value < 0 else 2


def blocks_from(wall: dict[str, Any], point: tuple[float, float]) -> bool:
    """Foundry's ClockwiseSweepPolygon#_testWallInclusion for a closed wall: a directional wall is left out for
    an origin on its `dir` side."""
    x1, y1, x2, y2 = wall["c"]
    return not wall["dir"] or orient((x1, y1), (x2, y2), point) != wall["dir"]


def centre(cell: Cell, origin: Cell, ppg: int) -> tuple[float, float]:
    return (cell[0] - origin[0] + 0.5) * ppg, (cell[1] - origin[1] + 0.5) * ppg


def door_at(scene: dict[str, Any], cells: list[Cell], origin: Cell, ppg: int) -> dict[str, Any]:
    (xa, ya), (xb, yb) = ((x - origin[0], y - origin[1]) for x, y in cells)
    if ya == yb:
        x = max(xa, xb)
        c = [x * ppg, ya * ppg, x * ppg, (ya + 1) * ppg]
    else:
        y = max(ya, yb)
        c = [xa * ppg, y * ppg, (xa + 1) * ppg, y * ppg]
    found = [w for w in doors_of(scene) if sorted([w["c"][:2], w["c"][2:]]) == sorted([c[:2], c[2:]])]
    assert len(found) == 1, cells
    return found[0]


ONE_WAY = [d for d in PAPER if any(door["way"] != "both" for door in d["doors"])]


def test_one_way_secret_doors_keep_their_way() -> None:
    """A one-way secret door lets a token through (and sight) from the side it opens from, not from the other;
    a two-way one blocks both while closed. (Universal VTT has no way to say it: a portal there.)"""
    assert len(ONE_WAY) >= 5
    for document in ONE_WAY:
        _, _, origin = paper_places(document)
        for view in ("gm", "party"):
            scene = export(document, ".foundry.json", view=view)
            for door in (d for d in document["doors"] if d["kind"] == "secret"):
                wall = door_at(scene, door["cells"], origin, 100)
                first, second = (centre(tuple(c), origin, 100) for c in door["cells"])
                if door["way"] == "both":
                    assert wall["dir"] == 0 and blocks_from(wall, first) and blocks_from(wall, second)
                    continue
                opens_from, other = (first, second) if door["way"] == "forward" else (second, first)
                assert not blocks_from(wall, opens_from) and blocks_from(wall, other), (door, view)


SECRET = [d for d in CRAWLER if d["passages"]] + [d for d in PAPER if any(x["kind"] == "secret" for x in d["doors"])]


@pytest.mark.parametrize("document", SECRET[::2], ids=lambda d: f"{d['format'][7:]}-{d['seed']}")
def test_party_files_show_found_secret_doors_as_doors(document: dict[str, Any]) -> None:
    """The GM's scene keeps secret doors secret (door 2: no control for the players); the party's files show
    each one found as a door (door 1, a portal), and a document holds only those found: a wall searched in vain
    is a wall in every file."""
    secrets = len(document["passages"]) if "passages" in document else sum(
        d["kind"] == "secret" for d in document["doors"])
    gm, party = export(document, ".foundry.json"), export(document, ".foundry.json", view="party")
    assert sum(w["door"] == 2 for w in gm["walls"]) == secrets > 0
    assert not any(w["door"] == 2 for w in party["walls"])
    assert len(doors_of(party)) == len(doors_of(gm))
    assert sorted(w["c"] for w in party["walls"]) == sorted(w["c"] for w in gm["walls"])
    gm_vtt, party_vtt = export(document, ".dd2vtt"), export(document, ".dd2vtt", view="party")
    assert party_vtt["portals"] == gm_vtt["portals"] and party_vtt["line_of_sight"] == gm_vtt["line_of_sight"]


def test_a_wall_searched_in_vain_is_a_wall_for_the_party() -> None:
    checked = 0
    for document in (d for d in CRAWLER if any(not s["found"] for s in d["searches"])):
        places, _, origin = crawler_places(document)
        party = export(document, ".dd2vtt", view="party")
        walls, portals = blocked(party), set(portal_edges(party))
        rooms = {r["id"]: r for r in document["rooms"]}
        for search in (s for s in document["searches"] if not s["found"]):
            r = rooms[search["room"]]
            x0, y0 = r["x"] - origin[0], r["y"] - origin[1]
            x1, y1 = x0 + r["w"], y0 + r["h"]
            side = {"N": [((x, y0), (x, y0 - 1)) for x in range(x0, x1)],
                    "S": [((x, y1 - 1), (x, y1)) for x in range(x0, x1)],
                    "W": [((x0, y), (x0 - 1, y)) for y in range(y0, y1)],
                    "E": [((x1 - 1, y), (x1, y)) for y in range(y0, y1)]}
            for inside, outside in side[search["face"]]:
                edge = frozenset({inside, outside})
                if places.get(outside) is None:  # rock beyond: nothing there but a wall
                    assert edge in walls and edge not in portals
                    checked += 1
    assert checked > 10


def key_words(document: dict[str, Any]) -> list[str]:
    """The GM's words on each room, as the GM's scene carries them."""
    return [d["text"] for d in export(document, ".foundry.json")["drawings"]]


@pytest.mark.parametrize("document", [*CRAWLER[:6], *PAPER[:6]], ids=lambda d: f"{d['format'][7:]}-{d['seed']}")
def test_the_gm_key_is_for_the_gm_alone(document: dict[str, Any]) -> None:
    """Any player may hover a note and read it: notes carry a room's number and size, as the party's own do;
    the contents go in hidden drawings (Foundry shows those to the GM alone), and nowhere in the party's files."""
    gm, party = export(document, ".foundry.json"), export(document, ".foundry.json", view="party")
    assert [n["text"] for n in gm["notes"]] == [n["text"] for n in party["notes"]]
    assert all(n["entryId"] is None for n in gm["notes"])
    keyed = [r for r in document["rooms"] if r["contents"] is not None]
    assert len(gm["drawings"]) == len(keyed) > 0
    for drawing in gm["drawings"]:
        assert drawing["hidden"] is True and drawing["text"]
        assert drawing["shape"]["type"] == "r" and drawing["shape"]["width"] > 0 and drawing["shape"]["height"] > 0
        assert not any(drawing["text"] in n["text"] for n in gm["notes"])
    assert party["drawings"] == []
    words = {w for text in key_words(document) for w in re.split(r"[ —:;,]+", text.split(" ", 1)[1])
             if len(w) > 4} - {w for n in party["notes"] for w in n["text"].split()}
    text = " ".join(strings(party) + strings(export(document, ".dd2vtt", view="party")))
    assert words and not any(w in text for w in words)


def strings(value: Any) -> list[str]:
    """Every text a file holds but its picture's."""
    if isinstance(value, dict):
        return [s for k, v in value.items() if k not in ("image", "src") for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return [value] if isinstance(value, str) else []


# --- the grid chosen, the picture's format and file, the scene's name, the open ends -----------------------

@pytest.mark.parametrize("grid", [20, 70, 100, 150])
def test_the_grid_is_chosen(grid: int) -> None:
    """Foundry v14's importer keeps its own 100-pixel grid whatever the file says: the picture is drawn at the
    grid asked for, 100 by default, and every file says it."""
    document = CRAWLER[1]
    uvtt = export(document, ".dd2vtt", grid_px=grid)
    size = uvtt["resolution"]["map_size"]
    assert uvtt["resolution"]["pixels_per_grid"] == grid
    assert png_size(base64.b64decode(uvtt["image"])) == (size["x"] * grid, size["y"] * grid)
    scene = export(document, ".foundry.json", grid_px=str(grid))  # as a form sends it
    assert scene["grid"]["size"] == grid and (scene["width"], scene["height"]) == (size["x"] * grid, size["y"] * grid)
    assert all(v % grid == 0 for wall in scene["walls"] for v in wall["c"]), "walls on the grid's lines"
    hexes = export(dedale.generate("hexcrawl", seed=2, radius=2).to_json(), ".foundry.json", grid_px=grid)
    assert hexes["grid"]["size"] == grid


@pytest.mark.parametrize("value", [0, 19, 401, -100, "abc", "1e2", 70.5, True, ""])
def test_a_grid_out_of_range_is_refused(value: Any) -> None:
    with pytest.raises(dedale.DedaleError) as refused:
        export(CRAWLER[0], ".dd2vtt", grid_px=value)
    assert refused.value.key == "error.range" and "from 20 to 400" in refused.value.message("en")


def test_a_map_too_big_for_the_grid_asked_is_drawn_smaller() -> None:
    """A page of the paper dungeon drawn wall to wall at 400 pixels a square would pass the pictures' limits:
    the files say the grid they were drawn at."""
    uvtt = export(PAPER[5], ".uvtt", grid_px=400)
    size, ppg = uvtt["resolution"]["map_size"], uvtt["resolution"]["pixels_per_grid"]
    assert ppg < 400 and png_size(base64.b64decode(uvtt["image"])) == (size["x"] * ppg, size["y"] * ppg)


def test_webp_scenes_and_a_scene_beside_its_picture() -> None:
    """A hexcrawl scene's picture as WebP (smaller than PNG), embedded or in a file of its own that the scene
    refers to by its name (the zip the web offers, the two files the CLI writes)."""
    document = dedale.generate("hexcrawl", seed=5, radius=6).to_json()
    png, webp = export(document, ".foundry.json"), export(document, ".foundry.json", image="webp")
    assert webp["background"]["src"].startswith("data:image/webp;base64,")
    picture = base64.b64decode(webp["background"]["src"].split(",", 1)[1])
    assert picture[:4] == b"RIFF" and picture[8:12] == b"WEBP"
    assert len(picture) < len(base64.b64decode(png["background"]["src"].split(",", 1)[1])) / 2
    assert {k: v for k, v in webp.items() if k != "background"} == {k: v for k, v in png.items() if k != "background"}
    for image, magic in (("png", b"\x89PNG"), ("webp", b"RIFF")):
        made = system("hexcrawl").export(document, ".foundry.zip",
                                         {"image": image, "file": "../x/the map.foundry.json"})
        with zipfile.ZipFile(io.BytesIO(made)) as archive:
            assert sorted(archive.namelist()) == sorted(["the map.foundry.json", f"the map.{image}"])
            scene = json.loads(archive.read("the map.foundry.json"))
            assert scene["background"]["src"] == f"the map.{image}"
            assert archive.read(f"the map.{image}")[:4] == magic
            assert {k: v for k, v in scene.items() if k != "background"} == {
                k: v for k, v in png.items() if k != "background"}
    squares = system("crawler").export(CRAWLER[2], ".foundry.zip", {"image": "webp"})
    with zipfile.ZipFile(io.BytesIO(squares)) as archive:
        assert sorted(archive.namelist()) == ["scene.foundry.json", "scene.webp"]


def test_scenes_are_named_as_the_session() -> None:
    assert export(CRAWLER[0], ".foundry.json")["name"] == "Dédale — crawler dungeon"
    assert export(CRAWLER[0], ".foundry.json", name="The long stair")["name"] == "The long stair"
    assert export(PAPER[0], ".foundry.json", view="party", name="Sous la colline")["name"] == "Sous la colline"
    hexes = dedale.generate("hexcrawl", seed=2, radius=2).to_json()
    assert export(hexes, ".foundry.json", name="Marches")["name"] == "Marches"


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def test_open_ends_are_marked_in_the_picture() -> None:
    """Where the map goes on, not yet explored: a ring and a question mark in the passages' blue, on a square of
    rock that is otherwise plain."""
    from PIL import Image

    from dedale.render import svg, vtt

    checked = 0
    for document in (d for d in PAPER if d["open_ends"]):
        uvtt = export(document, ".uvtt", grid_px=40)
        _, _, (x0, y0) = paper_places(document)
        picture = Image.open(io.BytesIO(base64.b64decode(uvtt["image"]))).convert("RGB")
        floor = {(c["x"], c["y"]) for c in document["cells"]}
        for end in document["open_ends"]:
            x, y = end["x"] - x0, end["y"] - y0
            square = picture.crop((x * 40 + 6, y * 40 + 6, x * 40 + 34, y * 40 + 34))
            colours = {colour for _, colour in square.getcolors(40 * 40) or []}
            assert rgb(svg.PASSAGE) in colours and (255, 255, 255) in colours, end
            checked += 1
        rock = next((x, y) for x in range(uvtt["resolution"]["map_size"]["x"]) for y in range(2)
                    if (x + x0, y + y0) not in floor and all((x + x0, y + y0) != (e["x"], e["y"])
                                                              for e in document["open_ends"]))
        plain = picture.crop((rock[0] * 40 + 6, rock[1] * 40 + 6, rock[0] * 40 + 34, rock[1] * 40 + 34))
        assert {colour for _, colour in plain.getcolors(40 * 40) or []} == {rgb(vtt.ROCK)}
    assert checked >= 5


def test_the_cli_writes_the_chosen_grid_and_a_scene_beside_its_picture(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("crawler", "--seed", "4", "-o", str(tmp_path / "c.dd2vtt"), "--grid-px", "70")
    assert code == 0 and json.loads((tmp_path / "c.dd2vtt").read_text())["resolution"]["pixels_per_grid"] == 70
    code, _, err = cli("hexcrawl", "--seed", "4", "--radius", "3", "-o", str(tmp_path / "m.foundry.json"),
                       "--picture-file", "--image", "webp")
    assert code == 0 and sorted(p.name for p in tmp_path.glob("m.*")) == ["m.foundry.json", "m.webp"], err
    assert json.loads((tmp_path / "m.foundry.json").read_text())["background"]["src"] == "m.webp"
    code, _, err = cli("paper", "--seed", "4", "--count", "2", "--workers", "1", "-o",
                       str(tmp_path / "p-{seed}.foundry.json"), "--picture-file")
    assert code == 0 and sorted(p.name for p in tmp_path.glob("p-*")) == [
        "p-4.foundry.json", "p-4.png", "p-5.foundry.json", "p-5.png"], err
    assert json.loads((tmp_path / "p-5.foundry.json").read_text())["background"]["src"] == "p-5.png"
    saved = tmp_path / "d.json"
    assert cli("crawler", "--seed", "4", "-o", str(saved))[0] == 0
    code, _, err = cli("render", str(saved), "-o", str(tmp_path / "r.foundry.json"), "--grid-px", "50",
                       "--view", "party")
    scene = json.loads((tmp_path / "r.foundry.json").read_text())
    assert code == 0 and scene["grid"]["size"] == 50 and not scene["drawings"]
    for args, said in ((["--grid-px", "19"], "grid-px: 19 is out of range; use a whole number from 20 to 400"),
                       (["--image", "gif"], "image: 'gif' is not accepted; use one of png, webp")):
        code, _, err = cli("crawler", "--seed", "4", "-o", str(tmp_path / "bad.foundry.json"), *args)
        assert code == 2 and said in err and "Traceback" not in err
        assert not (tmp_path / "bad.foundry.json").exists()
        code, _, err = cli("render", str(saved), "-o", str(tmp_path / "bad.dd2vtt"), *args)
        assert code == 2 and said in err


def test_the_web_offers_the_grid_the_picture_and_the_name(client) -> None:  # type: ignore[no-untyped-def]
    made = client.post("/api/sessions", json={"system": "hexcrawl", "seed": 3, "params": {"radius": 2},
                                              "autopilot": True, "name": "Les marches"})
    session = made.json()["id"]
    page = client.get(f"/play/{session}").text
    assert 'name="grid_px"' in page and 'formaction="/play/' + session + '/export.foundry.zip"' in page
    scene = client.get(f"/play/{session}/export.foundry.json?grid_px=80&image=webp")
    assert scene.status_code == 200 and scene.json()["grid"]["size"] == 80 and scene.json()["name"] == "Les marches"
    assert scene.json()["background"]["src"].startswith("data:image/webp;base64,")
    both = client.get(f"/play/{session}/export.foundry.zip?image=webp")
    assert both.headers["content-type"] == "application/zip"
    assert 'filename="les-marches-3-gm.foundry.zip"' in both.headers["content-disposition"]
    with zipfile.ZipFile(io.BytesIO(both.content)) as archive:
        assert sorted(archive.namelist()) == ["les-marches-3-gm.foundry.json", "les-marches-3-gm.webp"]
    api = client.get(f"/api/sessions/{session}/export/foundry.json", params={"grid_px": 60})
    assert api.status_code == 200 and api.json()["grid"]["size"] == 60
    for path in (f"/play/{session}/export.foundry.json?grid_px=5", f"/api/sessions/{session}/export/foundry.json"
                                                                     "?grid_px=500"):
        refused = client.get(path)
        assert refused.status_code == 400 and "from 20 to 400" in refused.text, refused.text
    assert client.get(f"/play/{session}/export.foundry.json?image=gif").status_code == 400

"""Virtual tabletop files: Universal VTT's walls close every room as the document's doors say, read from the
exported file alone; the files' shape; Foundry scenes' doors, notes and the hex grid's alignment."""

from __future__ import annotations

import base64
import json
import math
import re
import struct
from collections.abc import Hashable
from itertools import pairwise
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
PASSAGES = (70, 72, 83, 95, 101, 117)  # seeds whose dungeon has a secret passage (few do)


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
    return done + partial


def paper_documents() -> list[dict[str, Any]]:
    done = [dedale.generate("paper", seed=seed).to_json() for seed in SEEDS]
    partial = [dedale.generate("paper", seed=seed, max_cards=cards).to_json()
               for seed, cards in zip(range(1, 11), range(1, 30, 3), strict=True)]
    return done + partial


CRAWLER = crawler_documents()
PAPER = paper_documents()


def export(document: dict[str, Any], ext: str, lang: str = "en") -> dict[str, Any]:
    found = system(document["format"][7:])
    return json.loads(found.export(document, ext, lang=lang))


# --- from the exported file alone: blocked cell sides, open ways, regions reached ---------------------------

def unit_edges(a: dict[str, float], b: dict[str, float]) -> list[Edge]:
    """The cell sides an axis-aligned segment of whole grid units covers, each as the two cells it parts."""
    assert all(float(v).is_integer() for v in (a["x"], a["y"], b["x"], b["y"])), (a, b)
    (xa, ya), (xb, yb) = (int(a["x"]), int(a["y"])), (int(b["x"]), int(b["y"]))
    assert xa == xb or ya == yb, "walls run along the grid"
    if ya == yb:
        return [frozenset({(x, ya - 1), (x, ya)}) for x in range(min(xa, xb), max(xa, xb))]
    return [frozenset({(xa - 1, y), (xa, y)}) for y in range(min(ya, yb), max(ya, yb))]


def blocked(uvtt: dict[str, Any]) -> set[Edge]:
    walls = set()
    for line in uvtt["line_of_sight"]:
        for a, b in pairwise(line):
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


def crawler_places(document: dict[str, Any]) -> tuple[dict[Cell, Hashable], Joined]:
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
        if a is not None:  # the entrance leads off the board
            joined.join(("room", a), ("room", b))
    return places, joined


@pytest.mark.parametrize("index", range(len(CRAWLER)))
def test_crawler_walls_close_the_rooms(index: int) -> None:
    document = CRAWLER[index]
    uvtt = export(document, ".dd2vtt")
    places, joined = crawler_places(document)
    check_closed(uvtt, places, joined)
    n = document["params"]["board_zones"] * document["params"]["zone_cells"]
    assert uvtt["resolution"]["map_size"] == {"x": n, "y": n}
    assert len(uvtt["portals"]) == len(document["doors"]) + len(document["passages"])
    assert len(uvtt["lights"]) == len(document["rooms"])


def paper_places(document: dict[str, Any]) -> tuple[dict[Cell, Hashable], Joined, Cell]:
    """The features' squares, in the picture's cells: the crop is what is drawn (squares and both sides of
    each door) and one square around."""
    cells = [(c["x"], c["y"]) for c in document["cells"]] + [tuple(c) for d in document["doors"] for c in d["cells"]]
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
    assert isinstance(ppg, int) and 50 <= ppg <= 100
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


def test_crawler_entrance_is_a_door_on_the_board_edge() -> None:
    document = CRAWLER[0]
    uvtt = export(document, ".dd2vtt")
    n = uvtt["resolution"]["map_size"]["x"]
    entrance = next(d for d in document["doors"] if d["rooms"][0] is None)
    (xa, ya), (xb, yb) = entrance["cells"]
    assert not (0 <= xa < n and 0 <= ya < n)
    assert frozenset({(xa, ya), (xb, yb)}) in portal_edges(uvtt)


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
        assert wall["door"] in (0, 1, 2) and wall["ds"] in (0, 2)
        assert wall["move"] == wall["sight"] == wall["light"] == wall["sound"] == 20
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
        assert len(scene["walls"]) - len(doors) == len(uvtt["line_of_sight"])
        assert sum(d["door"] == 2 for d in doors) == len(document["passages"])
        boss = {r["id"] for r in document["rooms"] if r["boss"]}
        assert sum(d["ds"] == 2 for d in doors) == sum(bool(boss & set(d["rooms"])) for d in document["doors"])
        assert len(scene["notes"]) == len(scene["lights"]) == len(document["rooms"])


def test_foundry_paper_secret_doors() -> None:
    for document in PAPER[::3]:
        scene = export(document, ".foundry.json")
        check_scene(scene, 1)
        doors = doors_of(scene)
        assert sum(d["door"] == 2 for d in doors) == sum(d["kind"] == "secret" for d in document["doors"])
        assert not any(d["ds"] for d in doors)
        assert len(scene["notes"]) == len(document["rooms"])


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

"""Virtual tabletop files: Universal VTT (.dd2vtt, .uvtt) and Foundry VTT scenes (.foundry.json).

Both carry the map as a PNG drawn on the tabletop's own grid (a cell is `pixels_per_grid` pixels, the
image's top-left corner is the grid's origin), walls, doors and a torch a room. Universal VTT has no secret
or locked doors: every door is a portal there; the Foundry scene says which are secret or locked.

The Foundry scenes follow Foundry VTT v12's scene data (grid as an object, `background.src`, walls' sense
types, AmbientLight `config`, Note `texture`), and say so (`_stats.coreVersion`) for a later Foundry to
migrate them on import. Hex centres follow Foundry's `HexagonalGrid#getCenterPoint` (tests/test_vtt.py).
"""

from __future__ import annotations

import base64
import json
import math
from typing import Any

from dedale.crawler.model import Dungeon
from dedale.hexcrawl.hexes import to_pixel
from dedale.hexcrawl.model import HexMap
from dedale.i18n import t
from dedale.paper.model import PaperMap
from dedale.render import svg
from dedale.render.floorplan import FloorPlan, crawler_plan, paper_plan
from dedale.render.png import MAX_PIXELS, MAX_SIDE, svg_to_png

PIXELS_PER_GRID = 70
MIN_GRID = 20  # Foundry's CONST.GRID_MIN_SIZE
MARGIN = 1  # cells around a cropped map
TORCH = 8  # a torch's reach, in cells (40 feet: bright to 20, dim to 40)
TORCH_COLOUR = "eccd8b"
FEET = 5  # a square, in feet
FOUNDRY_VERSION = "12.331"
NORMAL = 20  # CONST.WALL_SENSE_TYPES.NORMAL and CONST.WALL_MOVEMENT_TYPES.NORMAL
DOOR_TYPES = {"door": 1, "locked": 1, "secret": 2}  # CONST.WALL_DOOR_TYPES: DOOR 1, SECRET 2
LOCKED = 2  # CONST.WALL_DOOR_STATES.LOCKED
SQUARE, HEX_ODD_Q = 1, 4  # CONST.GRID_TYPES
HEX_SIZE = 100  # a hex's height (flat side to flat side) on Foundry's grid, in pixels
ROCK = "#4a423a"
FLOORS = {"room": svg.ROOM, "boss": svg.BOSS, "corridor": "#e9e2d3", "passage": "#d6e6f2"}

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in the plan's cells (x1, y1 excluded)


# --- the picture --------------------------------------------------------------------------------------------

def grid_pixels(cells_wide: int, cells_high: int) -> int:
    """About 70 pixels a cell, fewer when the PNG would pass the project's limits."""
    fit = min(MAX_SIDE // max(cells_wide, cells_high, 1), math.isqrt(MAX_PIXELS // max(cells_wide * cells_high, 1)))
    return max(MIN_GRID, min(PIXELS_PER_GRID, fit))


def plan_png(plan: FloorPlan, box: Box, ppg: int, title: str) -> bytes:
    """Floors (a faint grid on them), walls, doors, special squares and room numbers."""
    x0, y0, x1, y1 = box

    def px(x: float) -> float:
        return (x - x0) * ppg

    def py(y: float) -> float:
        return (y - y0) * ppg

    body = [f'<rect width="100%" height="100%" fill="{ROCK}"/>']
    for (x, y), region in plan.cells.items():
        body.append(f'<rect x="{px(x):g}" y="{py(y):g}" width="{ppg}" height="{ppg}" '
                    f'fill="{FLOORS[plan.styles[region]]}"/>')
    lines = "".join(f"M{px(x):g} {py(y):g}h{ppg}v{ppg}" for x, y in plan.cells)
    body.append(f'<path d="{lines}" stroke="{svg.GRID}" stroke-width="1" fill="none"/>')
    walls = "".join(f"M{px(a[0]):g} {py(a[1]):g}L{px(b[0]):g} {py(b[1]):g}" for a, b in plan.walls())
    body.append(f'<path d="{walls}" stroke="{svg.INK}" stroke-width="{ppg / 9:g}" stroke-linecap="square" '
                f'fill="none"/>')
    for (x, y), symbol in plan.marks.items():
        body.append(svg.text(px(x + 0.5), py(y + 0.68), symbol, ppg * 0.45, "middle", "bold", svg.PASSAGE))
    for door in plan.doors:
        (ax, ay), (bx, by) = door.segment
        horizontal = ay == by
        long, thick = ppg * 0.6, ppg * 0.18
        w, h = (long, thick) if horizontal else (thick, long)
        cx, cy = px((ax + bx) / 2), py((ay + by) / 2)
        fill, stroke = {"door": ("white", svg.INK), "locked": (svg.ACCENT, svg.INK),
                        "secret": ("white", svg.PASSAGE)}[door.kind]
        body.append(f'<rect x="{cx - w / 2:g}" y="{cy - h / 2:g}" width="{w:g}" height="{h:g}" fill="{fill}" '
                    f'stroke="{stroke}" stroke-width="{ppg / 25:g}"/>')
        if door.kind == "secret":
            body.append(svg.text(cx, cy + ppg * 0.12, "S", ppg * 0.32, "middle", "bold", svg.PASSAGE))
    for label in plan.labels:
        cx, cy = px(label.centre[0]), py(label.centre[1])
        body.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{ppg * 0.3:g}" fill="white" stroke="{svg.INK}" '
                    f'stroke-width="{ppg / 30:g}"/>')
        body.append(svg.text(cx, cy + ppg * 0.12, label.number, ppg * 0.32, "middle", "bold"))
    return svg_to_png(svg.document((x1 - x0) * ppg, (y1 - y0) * ppg, body, title), scale=1)


def data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def crawler_map(dungeon: Dungeon, lang: str) -> tuple[FloorPlan, Box, str]:
    """The crawler's floor plan on its whole board (where the entrance is on the edge)."""
    plan = crawler_plan(dungeon, lang)
    return plan, (0, 0, plan.width, plan.height), t("render.title", lang)


def paper_map(paper: PaperMap, lang: str) -> tuple[FloorPlan, Box, str]:
    """The paper dungeon's floor plan, cropped to what is drawn and a square around it."""
    plan = paper_plan(paper, lang)
    return plan, plan.bounds(MARGIN), t("render.paper_title", lang)


# --- Universal VTT ------------------------------------------------------------------------------------------

def universal_vtt(plan: FloorPlan, box: Box, title: str) -> bytes:
    """The map in Universal VTT 0.3, in grid units from the image's top-left corner."""
    x0, y0, x1, y1 = box
    ppg = grid_pixels(x1 - x0, y1 - y0)

    def point(x: float, y: float) -> dict[str, float]:
        return {"x": x - x0, "y": y - y0}

    portals = []
    for door in plan.doors:
        a, b = door.segment
        portals.append({"position": point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), "bounds": [point(*a), point(*b)],
                        "rotation": 0.0 if a[1] == b[1] else math.pi / 2, "closed": True, "freestanding": False})
    document = {
        "format": 0.3,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": x1 - x0, "y": y1 - y0},
                       "pixels_per_grid": ppg},
        "line_of_sight": [[point(*a), point(*b)] for a, b in plan.walls()],
        "objects_line_of_sight": [],
        "portals": portals,
        "environment": {"baked_lighting": False, "ambient_light": "ffffffff"},
        "lights": [{"position": point(*label.centre), "range": TORCH, "intensity": 1, "color": "ff" + TORCH_COLOUR,
                    "shadows": True} for label in plan.labels],
        "image": base64.b64encode(plan_png(plan, box, ppg, title)).decode("ascii"),
    }
    return (json.dumps(document, ensure_ascii=False) + "\n").encode("utf-8")


# --- Foundry VTT --------------------------------------------------------------------------------------------

def _scene(name: str, width: int, height: int, grid: dict[str, Any], png: bytes) -> dict[str, Any]:
    return {"name": name, "width": width, "height": height, "padding": 0, "backgroundColor": ROCK,
            "background": {"src": data_uri(png)}, "grid": {"distance": FEET, "units": "ft"} | grid,
            "tokenVision": True, "walls": [], "notes": [], "lights": [], "tokens": [], "drawings": [], "tiles": [],
            "sounds": [], "templates": [], "flags": {}, "_stats": {"coreVersion": FOUNDRY_VERSION}}


def _note(x: float, y: float, text: str) -> dict[str, Any]:
    return {"x": round(x), "y": round(y), "entryId": None, "pageId": None, "texture": {"src": "icons/svg/book.svg"},
            "iconSize": 40, "text": text, "fontSize": 24, "textAnchor": 1, "textColor": "#ffffff", "global": False}


def _wall(a: tuple[float, float], b: tuple[float, float], door: int = 0, state: int = 0) -> dict[str, Any]:
    return {"c": [round(a[0]), round(a[1]), round(b[0]), round(b[1])], "door": door, "ds": state, "dir": 0,
            "move": NORMAL, "sight": NORMAL, "light": NORMAL, "sound": NORMAL}


def _light(x: float, y: float) -> dict[str, Any]:
    reach = TORCH * FEET
    return {"x": round(x), "y": round(y), "rotation": 0, "walls": True, "vision": False, "hidden": False,
            "config": {"bright": reach // 2, "dim": reach, "color": "#" + TORCH_COLOUR, "alpha": 0.4, "angle": 360,
                       "luminosity": 0.5, "attenuation": 0.5, "coloration": 1,
                       "animation": {"type": "torch", "speed": 3, "intensity": 3, "reverse": False}}}


def foundry_scene(plan: FloorPlan, box: Box, title: str) -> bytes:
    """A square-grid scene: the picture, its walls, doors (secret, locked), a note and a torch a room."""
    x0, y0, x1, y1 = box
    ppg = grid_pixels(x1 - x0, y1 - y0)

    def pixel(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] - x0) * ppg, (p[1] - y0) * ppg

    scene = _scene(title, (x1 - x0) * ppg, (y1 - y0) * ppg, {"type": SQUARE, "size": ppg},
                   plan_png(plan, box, ppg, title))
    scene["walls"] = [_wall(pixel(a), pixel(b)) for a, b in plan.walls()]
    scene["walls"] += [_wall(pixel(d.segment[0]), pixel(d.segment[1]), DOOR_TYPES[d.kind],
                             LOCKED if d.kind == "locked" else 0) for d in plan.doors]
    scene["notes"] = [_note(*pixel(label.centre), label.text) for label in plan.labels]
    scene["lights"] = [_light(*pixel(label.centre)) for label in plan.labels]
    return (json.dumps(scene, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def hex_grid(radius: int) -> tuple[int, float, float, int, int]:
    """Foundry's hex size (pixels, flat side to flat side) and where the map goes on its grid: hex (0, 0)'s
    centre and the scene's width and height. The grid is HEXODDQ (flat-topped, odd columns half a hex
    lower), as the map's offset labels are (`hexes.offset`); Foundry column j = q + R rounded up to even
    keeps q's parity, so odd q are Foundry's odd columns, and row i is the label's row (one row of grid
    above the first, whose top half Foundry cuts off in the even columns)."""
    cols = 2 * radius + (radius & 1)  # the last column's index

    def extent(size: int) -> tuple[int, int]:
        circumradius = size / math.sqrt(3)
        return math.ceil(circumradius * (2 + 1.5 * cols)), math.ceil(size * (2 * radius + 1.5))

    size = HEX_SIZE
    while size > MIN_GRID and (max(extent(size)) > MAX_SIDE or math.prod(extent(size)) > MAX_PIXELS):
        size -= 1
    circumradius = size / math.sqrt(3)
    width, height = extent(size)
    return size, circumradius * (1 + 1.5 * (radius + (radius & 1))), size * (radius + 1), width, height


def hex_scene(hex_map: HexMap, lang: str) -> bytes:
    """A hex-grid scene: the explored map under Foundry's grid, a note at each community; distances in hexes
    (the rules give a hex no size)."""
    from dedale.render.hex_svg import map_svg, nature

    size, ox, oy, width, height = hex_grid(hex_map.radius)
    circumradius = size / math.sqrt(3)
    title = t("render.hex_title", lang)
    png = svg_to_png(map_svg(hex_map, circumradius, ox, oy, width, height, lang), scale=1)
    scene = _scene(title, width, height, {"type": HEX_ODD_Q, "size": size, "distance": 1, "units": "hex"}, png)
    notes = []
    for community in hex_map.communities:
        x, y = to_pixel((community.q, community.r), circumradius)
        notes.append(_note(ox + x, oy + y, f"{community.name} ({community.label}): {nature(community, lang)}"))
    scene["notes"] = notes
    return (json.dumps(scene, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


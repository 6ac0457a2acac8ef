"""Virtual tabletop files: Universal VTT (.dd2vtt, .uvtt) and Foundry VTT scenes (.foundry.json).

Both carry the map as a picture drawn on the tabletop's own grid (a cell is `pixels_per_grid` pixels, 100 by
default as the importers and Foundry assume, the image's top-left corner is the grid's origin), walls as
outlines, doors and a torch a room; the map is cropped to what is drawn and a square around it. Universal VTT
has no secret, locked or one-way doors: every door is a portal there; the GM's Foundry scene says which are
secret or locked, and which open one way only (a wall's `dir`).

Whose files they are matters (`Tabletop.view`): the party's show every secret door as the door it is once found
(Foundry's door 1, a portal) and carry nothing of the GM's key; the GM's carry the key in drawings only the GM
sees (a note is read by any player who hovers it: notes carry the room's number and size only).

The Foundry scenes follow Foundry VTT v12's scene data (grid as an object, `background.src`, walls' sense
types, AmbientLight `config`, Note `texture`), and say so (`_stats.coreVersion`) for a later Foundry to
migrate them on import. Hex centres follow Foundry's `HexagonalGrid#getCenterPoint` (tests/test_vtt.py).
"""

from __future__ import annotations

import base64
import io
import json
import math
import re
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import PurePosixPath
from typing import Any

from dedale.core.errors import DedaleError
from dedale.core.extras import need
from dedale.crawler.model import Dungeon
from dedale.hexcrawl.hexes import to_pixel
from dedale.hexcrawl.model import HexMap
from dedale.i18n import t
from dedale.paper.model import PaperMap
from dedale.render import svg
from dedale.render.floorplan import DoorEdge, FloorPlan, crawler_plan, paper_plan
from dedale.render.png import MAX_PIXELS, MAX_SIDE, svg_to_png

GRID_PX = 100  # pixels a square (or a hex's height): Foundry's default grid, and the importers' (v14's keeps it)
MIN_GRID = 20  # Foundry's CONST.GRID_MIN_SIZE
MAX_GRID = 400
IMAGES = ("png", "webp")  # what a scene's picture may be: every importer checked reads both
WEBP_QUALITY = 80  # a third of the PNG, its lines and words still sharp
MARGIN = 1  # cells around a cropped map
TORCH = 8  # a torch's reach, in cells (40 feet: bright to 20, dim to 40)
TORCH_COLOUR = "eccd8b"
FEET = 5  # a square, in feet
FOUNDRY_VERSION = "12.331"
NORMAL = 20  # CONST.WALL_SENSE_TYPES.NORMAL and CONST.WALL_MOVEMENT_TYPES.NORMAL
DOOR_TYPES = {"door": 1, "locked": 1, "secret": 2}  # CONST.WALL_DOOR_TYPES: DOOR 1, SECRET 2
LOCKED = 2  # CONST.WALL_DOOR_STATES.LOCKED
LEFT, RIGHT = 1, 2  # CONST.WALL_DIRECTIONS (BOTH 0)
SQUARE, HEX_ODD_Q = 1, 4  # CONST.GRID_TYPES
ROCK = "#4a423a"
FLOORS = {"room": svg.ROOM, "boss": svg.BOSS, "corridor": "#e9e2d3", "passage": "#d6e6f2"}

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in the plan's cells (x1, y1 excluded)


@dataclass(frozen=True)
class Tabletop:
    """How a tabletop file is made: whose view, the picture's pixels a square, the scene's name (the session's;
    None: the system's), the picture's format, and the file it goes in beside a scene (None: in the scene)."""

    view: str = "gm"
    grid_px: int = GRID_PX
    name: str | None = None
    image: str = "png"
    picture: str | None = None

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Tabletop:
        """From an export's options (`grid_px`, `image`, `name`, `view`; None: the default), each checked."""
        image = options.get("image") or "png"
        if image not in IMAGES:
            raise DedaleError("error.one_of", param="image", value=image, accepted=", ".join(IMAGES))
        name = options.get("name")
        grid = options.get("grid_px")
        return cls("party" if options.get("view") == "party" else "gm",
                   GRID_PX if grid is None else check_grid_px(grid),
                   name if isinstance(name, str) and name.strip() else None, image, options.get("picture"))


def check_grid_px(value: Any) -> int:
    """A picture's pixels a square, as an option gives it (a number, or its text): a whole number the tabletops
    take (Foundry's smallest grid) and a picture can hold."""
    text = str(value).strip()
    if isinstance(value, bool) or not re.fullmatch(r"[0-9]{1,6}", text) or not MIN_GRID <= int(text) <= MAX_GRID:
        raise DedaleError("error.range", param="grid_px", value=value, low=MIN_GRID, high=MAX_GRID)
    return int(text)


# --- the picture --------------------------------------------------------------------------------------------

def grid_pixels(cells_wide: int, cells_high: int, wanted: int = GRID_PX) -> int:
    """`wanted` pixels a cell, fewer when the picture would pass the project's limits (a page of the paper
    dungeon drawn wall to wall); the files say which."""
    fit = min(MAX_SIDE // max(cells_wide, cells_high, 1), math.isqrt(MAX_PIXELS // max(cells_wide * cells_high, 1)))
    return max(MIN_GRID, min(wanted, fit))


def plan_svg(plan: FloorPlan, box: Box, ppg: int, title: str) -> str:
    """Floors (a faint grid on them), walls, doors (an arrow on a one-way one), special squares, room numbers
    and the open ends (a dashed ring and a question mark: the map goes on there)."""
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
    walls = "".join("M" + "L".join(f"{px(x):g} {py(y):g}" for x, y in line) for line in plan.polylines())
    body.append(f'<path d="{walls}" stroke="{svg.INK}" stroke-width="{ppg / 9:g}" stroke-linecap="square" '
                f'stroke-linejoin="miter" fill="none"/>')
    for (x, y), symbol in plan.marks.items():
        body.append(svg.text(px(x + 0.5), py(y + 0.68), symbol, ppg * 0.45, "middle", "bold", svg.PASSAGE))
    for door in plan.doors:
        body += _door(door, px, py, ppg)
    for label in plan.labels:
        cx, cy = px(label.centre[0]), py(label.centre[1])
        body.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{ppg * 0.3:g}" fill="white" stroke="{svg.INK}" '
                    f'stroke-width="{ppg / 30:g}"/>')
        body.append(svg.text(cx, cy + ppg * 0.12, label.number, ppg * 0.32, "middle", "bold"))
    for x, y in plan.ends:
        cx, cy = px(x + 0.5), py(y + 0.5)
        body.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{ppg * 0.32:g}" fill="white" stroke="{svg.PASSAGE}" '
                    f'stroke-width="{ppg / 18:g}" stroke-dasharray="{ppg / 9:g} {ppg / 14:g}"/>')
        body.append(svg.text(cx, cy + ppg * 0.14, "?", ppg * 0.4, "middle", "bold", svg.PASSAGE))
    return svg.document((x1 - x0) * ppg, (y1 - y0) * ppg, body, title)


def _door(door: DoorEdge, px: Any, py: Any, ppg: int) -> list[str]:
    (ax, ay), (bx, by) = door.segment
    horizontal = ay == by
    long, thick = ppg * 0.6, ppg * 0.18
    w, h = (long, thick) if horizontal else (thick, long)
    cx, cy = px((ax + bx) / 2), py((ay + by) / 2)
    fill, stroke = {"door": ("white", svg.INK), "locked": (svg.ACCENT, svg.INK),
                    "secret": ("white", svg.PASSAGE)}[door.kind]
    out = []
    if door.way != "both":  # an arrow across the door, the way it opens
        (xa, ya), (xb, yb) = door.cells
        dx, dy = (xb - xa, yb - ya) if door.way == "forward" else (xa - xb, ya - yb)
        tip, base, half = ppg * 0.42, ppg * 0.14, ppg * 0.16
        out.append(f'<polygon points="{cx + dx * tip:g},{cy + dy * tip:g} {cx + dx * base - dy * half:g},'
                   f'{cy + dy * base + dx * half:g} {cx + dx * base + dy * half:g},{cy + dy * base - dx * half:g}" '
                   f'fill="{svg.PASSAGE}"/>')
    out.append(f'<rect x="{cx - w / 2:g}" y="{cy - h / 2:g}" width="{w:g}" height="{h:g}" fill="{fill}" '
               f'stroke="{stroke}" stroke-width="{ppg / 25:g}"/>')
    if door.kind == "secret":
        out.append(svg.text(cx, cy + ppg * 0.12, "S", ppg * 0.32, "middle", "bold", svg.PASSAGE))
    return out


def encode(svg_text: str, image: str = "png") -> bytes:
    """The picture as PNG, or as WebP (a fraction of the size: Pillow, from the PNG)."""
    png = svg_to_png(svg_text, scale=1)
    if image == "png":
        return png
    pil = need("render", "PIL.Image")
    out = io.BytesIO()
    pil.open(io.BytesIO(png)).save(out, "WEBP", quality=WEBP_QUALITY, method=4)
    return out.getvalue()


def data_uri(picture: bytes, image: str = "png") -> str:
    return f"data:image/{image};base64," + base64.b64encode(picture).decode("ascii")


def crawler_map(dungeon: Dungeon, lang: str) -> tuple[FloorPlan, str]:
    """The crawler's floor plan (cropped by the files to the rooms, the entrance's outside and a square
    around), and the system's name for it."""
    return crawler_plan(dungeon, lang), t("render.title", lang)


def paper_map(paper: PaperMap, lang: str) -> tuple[FloorPlan, str]:
    """The paper dungeon's floor plan, and the system's name for it."""
    return paper_plan(paper, lang), t("render.paper_title", lang)


def _seen(plan: FloorPlan, title: str, how: Tabletop) -> tuple[FloorPlan, Box, int, str]:
    """The plan as the view sees it, its box (what is drawn and a square around), its grid and its name."""
    if how.view == "party":
        plan = plan.for_party()
    box = plan.bounds(MARGIN)
    return plan, box, grid_pixels(box[2] - box[0], box[3] - box[1], how.grid_px), how.name or title


# --- Universal VTT ------------------------------------------------------------------------------------------

def universal_vtt(plan: FloorPlan, title: str, how: Tabletop = Tabletop()) -> bytes:
    """The map in Universal VTT 0.3, in grid units from the image's top-left corner (a PNG, as the format's
    readers expect)."""
    plan, box, ppg, title = _seen(plan, title, how)
    x0, y0, x1, y1 = box

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
        "line_of_sight": [[point(*p) for p in line] for line in plan.polylines()],
        "objects_line_of_sight": [],
        "portals": portals,
        "environment": {"baked_lighting": False, "ambient_light": "ffffffff"},
        "lights": [{"position": point(*label.centre), "range": TORCH, "intensity": 1, "color": "ff" + TORCH_COLOUR,
                    "shadows": True} for label in plan.labels],
        "image": base64.b64encode(encode(plan_svg(plan, box, ppg, title))).decode("ascii"),
    }
    return (json.dumps(document, ensure_ascii=False) + "\n").encode("utf-8")


# --- Foundry VTT --------------------------------------------------------------------------------------------

def _scene(name: str, width: int, height: int, grid: dict[str, Any], src: str) -> dict[str, Any]:
    return {"name": name, "width": width, "height": height, "padding": 0, "backgroundColor": ROCK,
            "background": {"src": src}, "grid": {"distance": FEET, "units": "ft"} | grid,
            "tokenVision": True, "walls": [], "notes": [], "lights": [], "tokens": [], "drawings": [], "tiles": [],
            "sounds": [], "templates": [], "flags": {}, "_stats": {"coreVersion": FOUNDRY_VERSION}}


def _note(x: float, y: float, text: str) -> dict[str, Any]:
    return {"x": round(x), "y": round(y), "entryId": None, "pageId": None, "texture": {"src": "icons/svg/book.svg"},
            "iconSize": 40, "text": text, "fontSize": 24, "textAnchor": 1, "textColor": "#ffffff", "global": False}


def _key_drawing(x: float, y: float, width: float, height: float, text: str, ppg: int) -> dict[str, Any]:
    """The GM's words on a room, over it: a hidden drawing, which Foundry shows the GM alone."""
    return {"x": round(x), "y": round(y), "shape": {"type": "r", "width": round(width), "height": round(height)},
            "text": text, "fontSize": max(12, round(ppg * 0.2)), "fontFamily": "Signika", "textColor": "#ffffff",
            "textAlpha": 1, "fillType": 0, "strokeWidth": 0, "hidden": True, "locked": True}


def _wall(a: tuple[float, float], b: tuple[float, float], door: int = 0, state: int = 0,
          way: int = 0) -> dict[str, Any]:
    return {"c": [round(a[0]), round(a[1]), round(b[0]), round(b[1])], "door": door, "ds": state, "dir": way,
            "move": NORMAL, "sight": NORMAL, "light": NORMAL, "sound": NORMAL}


def orient(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]) -> int:
    """Foundry's `Wall#orientPoint`: which side of the wall a..b the point is on (LEFT, RIGHT, 0 on its line)."""
    value = (a[1] - p[1]) * (b[0] - p[0]) - (a[0] - p[0]) * (b[1] - p[1])  # foundry.utils.orient2dFast
    return 0 if value == 0 else LEFT if value < 0 else RIGHT


def _light(x: float, y: float) -> dict[str, Any]:
    reach = TORCH * FEET
    return {"x": round(x), "y": round(y), "rotation": 0, "walls": True, "vision": False, "hidden": False,
            "config": {"bright": reach // 2, "dim": reach, "color": "#" + TORCH_COLOUR, "alpha": 0.4, "angle": 360,
                       "luminosity": 0.5, "attenuation": 0.5, "coloration": 1,
                       "animation": {"type": "torch", "speed": 3, "intensity": 3, "reverse": False}}}


def foundry_scene(plan: FloorPlan, title: str, how: Tabletop = Tabletop()) -> tuple[bytes, bytes]:
    """A square-grid scene: the picture, its walls, doors (secret, locked, one-way), a note and a torch a room,
    the GM's key in drawings only the GM sees. With its picture, which the scene embeds unless `how.picture`
    names the file it goes in."""
    plan, box, ppg, title = _seen(plan, title, how)
    x0, y0, x1, y1 = box

    def pixel(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] - x0) * ppg, (p[1] - y0) * ppg

    picture = encode(plan_svg(plan, box, ppg, title), how.image)
    scene = _scene(title, (x1 - x0) * ppg, (y1 - y0) * ppg, {"type": SQUARE, "size": ppg}, _src(picture, how))
    scene["walls"] = [_wall(pixel(a), pixel(b)) for line in plan.polylines() for a, b in pairwise(line)]
    for door in plan.doors:
        a, b = (pixel(p) for p in door.segment)
        scene["walls"].append(_wall(a, b, DOOR_TYPES[door.kind], LOCKED if door.kind == "locked" else 0,
                                    _way(door, a, b, pixel)))
    scene["notes"] = [_note(*pixel(label.centre), label.text) for label in plan.labels]
    scene["drawings"] = [_key_drawing(*pixel(label.corner), label.size[0] * ppg, label.size[1] * ppg, label.key, ppg)
                         for label in plan.labels if label.key]
    scene["lights"] = [_light(*pixel(label.centre)) for label in plan.labels]
    return (json.dumps(scene, ensure_ascii=False, indent=1) + "\n").encode("utf-8"), picture


def _way(door: DoorEdge, a: tuple[float, float], b: tuple[float, float], pixel: Any) -> int:
    """A one-way door's `dir`: Foundry leaves out a directional wall for whatever stands on its `dir` side, so
    the side it opens from (its first cell going forward, its second going backward)."""
    if door.way == "both":
        return 0
    x, y = door.cells[0] if door.way == "forward" else door.cells[1]
    return orient(a, b, pixel((x + 0.5, y + 0.5)))


def _src(picture: bytes, how: Tabletop) -> str:
    """The scene's picture: embedded, or the file written beside it."""
    return how.picture if how.picture is not None else data_uri(picture, how.image)


def hex_grid(radius: int, wanted: int = GRID_PX) -> tuple[int, float, float, int, int]:
    """Foundry's hex size (`wanted` pixels flat side to flat side, fewer if the picture would pass the limits)
    and where the map goes on its grid: hex (0, 0)'s centre and the scene's width and height. The grid is
    HEXODDQ (flat-topped, odd columns half a hex lower), as the map's offset labels are (`hexes.offset`);
    Foundry column j = q + R rounded up to even keeps q's parity, so odd q are Foundry's odd columns, and row i
    is the label's row (one row of grid above the first, whose top half Foundry cuts off in the even columns)."""
    cols = 2 * radius + (radius & 1)  # the last column's index

    def extent(size: int) -> tuple[int, int]:
        circumradius = size / math.sqrt(3)
        return math.ceil(circumradius * (2 + 1.5 * cols)), math.ceil(size * (2 * radius + 1.5))

    size = wanted
    while size > MIN_GRID and (max(extent(size)) > MAX_SIDE or math.prod(extent(size)) > MAX_PIXELS):
        size -= 1
    circumradius = size / math.sqrt(3)
    width, height = extent(size)
    return size, circumradius * (1 + 1.5 * (radius + (radius & 1))), size * (radius + 1), width, height


def hex_scene(hex_map: HexMap, lang: str, how: Tabletop = Tabletop()) -> tuple[bytes, bytes]:
    """A hex-grid scene: the explored map under Foundry's grid, a note at each community; distances in hexes
    (the rules give a hex no size). With its picture, which the scene embeds unless `how.picture` names the
    file it goes in."""
    from dedale.render.hex_svg import map_svg, nature

    size, ox, oy, width, height = hex_grid(hex_map.radius, how.grid_px)
    circumradius = size / math.sqrt(3)
    picture = encode(map_svg(hex_map, circumradius, ox, oy, width, height, lang), how.image)
    scene = _scene(how.name or t("render.hex_title", lang), width, height,
                   {"type": HEX_ODD_Q, "size": size, "distance": 1, "units": "hex"}, _src(picture, how))
    notes = []
    for community in hex_map.communities:
        x, y = to_pixel((community.q, community.r), circumradius)
        notes.append(_note(ox + x, oy + y, f"{community.name} ({community.label}): {nature(community, lang)}"))
    scene["notes"] = notes
    return (json.dumps(scene, ensure_ascii=False, indent=1) + "\n").encode("utf-8"), picture


# --- a scene and its picture, two files --------------------------------------------------------------------

SCENE = ".foundry.json"


def picture_name(scene_name: str, image: str) -> str:
    """The picture's file beside a scene: "map.foundry.json" -> "map.webp"."""
    name = PurePosixPath(scene_name).name
    stem = name[:-len(SCENE)] if name.lower().endswith(SCENE) and len(name) > len(SCENE) else PurePosixPath(name).stem
    return f"{stem}.{image}"


def scene_files(scene_name: str, image: str, make: Callable[[str], tuple[bytes, bytes]]) -> dict[str, bytes]:
    """A scene that refers to its picture by the file's name, and the picture: {file name: bytes}.
    `make(picture's file name)` gives (scene, picture)."""
    name = PurePosixPath(scene_name).name
    picture = picture_name(name, image)
    scene, data = make(picture)
    return {name: scene, picture: data}


def zipped(files: Mapping[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()

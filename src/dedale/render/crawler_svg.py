"""The crawler board as SVG: zones and cells, rooms with their numbers, the boss room, doors, secret
passages, the entrance, and a legend of what each room holds. Optional highlights show where a choice
would lay a room (solo play)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dedale.core.grid import BY_NAME, DIRS, Cell, Dir, Rect
from dedale.crawler.model import Door, Dungeon
from dedale.i18n import t
from dedale.render import svg
from dedale.render.crawler_legend import room_details, room_title, summary

CELL = 24
MARGIN = 36
HEADER = 62  # the title, the summary, then the zone numbers clear of it
LEGEND = 380


@dataclass(frozen=True)
class Highlight:
    rect: Rect
    label: str
    choice: str | None = None  # the choice a click on it makes (in a browser), and its words
    title: str = ""
    # A mark on a wall (a door, an exit, a wall to search) rather than a place: the wall's two ends and where
    # its number goes, in cells from the board's corner
    wall: tuple[float, float, float, float] | None = None
    at: tuple[float, float] | None = None
    room: bool = True  # a place a room may go (the legend's key says so), not another kind of choice


def choice_marks(dungeon: Dungeon, listed: list[tuple[str, str, str, dict[str, Any]]]) -> list[Highlight]:
    """The marks of the choices that are places on the board, from each choice's number in the list, id,
    words and data: a room's place, a door of the room being laid (that room drawn unnumbered), a passage's
    cells, a room's exit or a wall to search. Other choices are not marked. A wall's number goes to the
    first of its spots (`_spots`) clear of the numbers placed before it and of the rooms' own."""
    rooms = {room.id: room.rect for room in dungeon.rooms}
    taken = [*_room_labels(dungeon)]
    out: list[Highlight] = []
    for label, choice, title, data in listed:
        kind = data.get("kind")
        if kind == "place":
            out.append(Highlight(Rect(*data["rect"]), label, choice, title))
            continue
        if kind == "passage":
            xs, ys = [c[0] for c in data["cells"]], [c[1] for c in data["cells"]]
            out.append(Highlight(Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1), label,
                                 choice, title, room=False))
            continue
        if kind == "door":
            (xa, ya), (xb, yb) = data["cells"]
            if not out:
                out.append(Highlight(Rect(*data["laying"]), "", room=False))
            rect, d = Rect(xb, yb, 1, 1), next(d for d in DIRS if (xb + d.dx, yb + d.dy) == (xa, ya))
        elif kind in ("exit", "search"):
            rect, d = rooms[data["room"]], BY_NAME[data["dir"]]
        else:
            continue
        wall, spots = _spots(rect, d, kind == "exit")
        n = dungeon.board_zones * dungeon.zone_cells
        at = next((spot for spot in spots if 0 <= spot[0] <= n and 0 <= spot[1] <= n
                   and all(_apart(spot, other) for other in taken)), spots[0])
        taken.append((*at, _NUMBER))
        out.append(Highlight(rect, label, choice, title, wall, at, False))
    return out


_NUMBER = 11.5 / CELL  # a choice's number's radius, in cells


def _room_labels(dungeon: Dungeon) -> list[tuple[float, float, float]]:
    """Where `_labels` draws the rooms' numbers (and the boss's label), in cells: centre and radius."""
    out = []
    for room in dungeon.rooms:
        r = room.rect
        cx, cy = r.x + r.w / 2, r.y + r.h / 2 - (_BOSS_LIFT / CELL if room.boss else 0)
        out.append((cx, cy, 10.5 / CELL))
        if room.boss:
            out.append((cx, cy + (_BOSS_BOX + 7) / CELL, 19 / CELL))
    return out


def _apart(spot: tuple[float, float], other: tuple[float, float, float]) -> bool:
    return (spot[0] - other[0]) ** 2 + (spot[1] - other[1]) ** 2 >= (_NUMBER + other[2]) ** 2


def _spots(r: Rect, d: Dir, before: bool) -> tuple[tuple[float, float, float, float], list[tuple[float, float]]]:
    """Side `d` of `r` (its two ends, in cells) and where its number may go, best first: half a cell out of
    the room, then on the wall, then half a cell in; near the wall's middle first, half a cell `before` it
    (an exit) or after it (a wall to search, a door), so that an exit and a search of one wall keep apart."""
    x0, y0 = r.x + (r.w if d is Dir.E else 0), r.y + (r.h if d is Dir.S else 0)
    ux, uy = abs(d.dy), abs(d.dx)  # along the wall
    length = r.h if ux == 0 else r.w
    first = length / 2 + (-0.5 if before else 0.5) if length > 1 else 0.5
    along = sorted((i + 0.5 for i in range(length)), key=lambda t: (abs(t - first), t))
    spots = [(x0 + ux * t + d.dx * out, y0 + uy * t + d.dy * out) for out in (0.5, 0, -0.5) for t in along]
    if length == 1:  # a door: on its wall first
        spots = [spots[1], spots[0], spots[2]]
    return (x0, y0, x0 + ux * length, y0 + uy * length), spots


def render_svg(dungeon: Dungeon, highlights: list[Highlight] | None = None, legend: bool = True,
               lang: str = "en") -> str:
    n = dungeon.board_zones * dungeon.zone_cells
    ox, oy = MARGIN, MARGIN + HEADER
    board_px = n * CELL
    body: list[str] = [
        svg.text(ox, MARGIN + 8, t("render.title", lang), 20, weight="bold"),
        svg.text(ox, MARGIN + 28, summary(dungeon, lang), 12.5),
    ]
    body.append(_grid(dungeon.board_zones, dungeon.zone_cells, ox, oy))
    body += _rooms(dungeon, ox, oy)
    body += _passages(dungeon, ox, oy)
    body += [_door(door, ox, oy) for door in dungeon.doors]
    body += _entrance(dungeon, ox, oy, lang)
    body += _labels(dungeon, ox, oy)
    highlights = highlights or []
    # Every place first, then every number above them all: a number is never under another place, so a
    # click on it makes its own choice, and a click elsewhere the place drawn there (the one lit under the
    # pointer).
    places = [h for h in highlights if h.wall is None]
    body += [_place(h, ox, oy) for h in places]
    body += [_wall(h, ox, oy) for h in highlights if h.wall is not None]
    cells = iter(label_cells([h.rect for h in places]))
    for h in highlights:
        cell = next(cells) if h.wall is None else None
        if h.label:
            body.append(_number(h, h.at or (cell[0] + 0.5, cell[1] + 0.5), ox, oy))  # type: ignore[index]
    width = ox + board_px + MARGIN
    height = oy + board_px + MARGIN
    if legend:  # a group of its own, drawn from its corner: a page may place it below the board
        # The key's last line says what the marks offered are: places a room may go, or other choices
        offered = ("render.key_place" if any(h.room for h in highlights) else
                   "render.key_choice" if highlights else None)
        lines, legend_height = _legend(dungeon, 0, 0, lang, offered)
        body.append(f'<g id="crawler-legend" transform="translate({width} {oy})" data-width="{LEGEND}" '
                    f'data-height="{legend_height}" data-map-width="{width}" data-map-height="{height}">'
                    f'{"".join(lines)}</g>')
        width += LEGEND
        height = max(height, oy + legend_height + MARGIN)
    return svg.document(width, height, body, t("render.title", lang), _DEFS)


_DEFS = (svg.hatch("boss", svg.ACCENT, 7, 1.4) + svg.dots("filling", svg.ZONE, 7, 1.0)
         + svg.hatch("passage", svg.PASSAGE, 5, 1.6, -45))


# The parts of the picture that are the same for every dungeon of a board (or a legend's length) are drawn once.
@lru_cache(maxsize=64)
def _grid(zones: int, c: int, ox: int, oy: int) -> str:
    n = zones * c
    size = n * CELL
    out = [f'<rect x="{ox}" y="{oy}" width="{size}" height="{size}" fill="white"/>']
    cell_lines = "".join(f"M{ox + i * CELL} {oy}v{size}M{ox} {oy + i * CELL}h{size}"
                         for i in range(1, n) if i % c)
    out.append(f'<path d="{cell_lines}" stroke="{svg.GRID}" stroke-width="0.6"/>')
    zone_lines = "".join(f"M{ox + i * CELL} {oy}v{size}M{ox} {oy + i * CELL}h{size}"
                         for i in range(0, n + 1, c))
    out.append(f'<path d="{zone_lines}" stroke="{svg.ZONE}" stroke-width="1.4" stroke-dasharray="6 3" fill="none"/>')
    for z in range(zones):  # zone numbers, then cell numbers, along two sides
        centre = (z * c + c / 2) * CELL
        out.append(svg.text(ox + centre, oy - 15, str(z), 11, "middle", "bold", svg.ZONE))
        out.append(svg.text(ox - 20, oy + centre + 4, str(z), 11, "middle", "bold", svg.ZONE))
    for i in range(n):
        out.append(svg.text(ox + (i + 0.5) * CELL, oy - 3, str(i), 7, "middle", fill=svg.ZONE))
        out.append(svg.text(ox - 3, oy + (i + 0.5) * CELL + 2.5, str(i), 7, "end", fill=svg.ZONE))
    return "".join(out)


def _rooms(dungeon: Dungeon, ox: int, oy: int) -> list[str]:
    out = []
    for room in dungeon.rooms:
        r = room.rect
        box = f'<rect x="{ox + r.x * CELL}" y="{oy + r.y * CELL}" width="{r.w * CELL}" height="{r.h * CELL}"'
        out.append(f'{box} fill="{svg.BOSS if room.boss else svg.ROOM}"/>')
        if room.boss or room.filling:
            out.append(f'{box} fill="url(#{"boss" if room.boss else "filling"})"/>')
        out.append(f'{box} fill="none" stroke="{svg.INK}" stroke-width="{3.6 if room.boss else 2.4}"/>')
    return out


def _passages(dungeon: Dungeon, ox: int, oy: int) -> list[str]:
    out = []
    for passage in dungeon.passages:
        xs = [c[0] for c in passage.cells]
        ys = [c[1] for c in passage.cells]
        x, y = ox + min(xs) * CELL, oy + min(ys) * CELL
        w, h = (max(xs) - min(xs) + 1) * CELL, (max(ys) - min(ys) + 1) * CELL
        out.append(f'<rect x="{x + 3}" y="{y + 3}" width="{w - 6}" height="{h - 6}" fill="white"/>')
        out.append(f'<rect x="{x + 3}" y="{y + 3}" width="{w - 6}" height="{h - 6}" fill="url(#passage)" '
                   f'stroke="{svg.PASSAGE}" stroke-width="2" stroke-dasharray="4 2"/>')
        first = passage.cells[0]
        back = (first[0] - passage.face.dx, first[1] - passage.face.dy)
        out.append(_door_mark(back, first, ox, oy, secret=True))
    return out


def _door(door: Door, ox: int, oy: int) -> str:
    return _door_mark(door.cells[0], door.cells[1], ox, oy)


def _door_mark(a: tuple[int, int], b: tuple[int, int], ox: int, oy: int, secret: bool = False) -> str:
    """A door across the wall between cells a and b: a small bar, long along the wall."""
    cx: float
    if a[1] == b[1]:  # side by side: the wall is vertical
        cx, cy = ox + max(a[0], b[0]) * CELL, oy + (a[1] + 0.5) * CELL
        w, h, size = _THICK, _LONG, _ACROSS
    else:
        cx, cy = ox + (a[0] + 0.5) * CELL, oy + max(a[1], b[1]) * CELL
        w, h, size = _LONG, _THICK, _ALONG
    stroke = f'{svg.PASSAGE}" stroke-dasharray="3 1.5' if secret else svg.INK
    return f'<rect x="{cx - w / 2:g}" y="{cy - h / 2:g}" {size} fill="white" stroke="{stroke}" stroke-width="1.8"/>'


_LONG, _THICK = CELL * 0.62, 7.0  # a door mark's size, written once for either way it lies
_ACROSS = f'width="{_THICK:g}" height="{_LONG:g}"'
_ALONG = f'width="{_LONG:g}" height="{_THICK:g}"'


def _entrance(dungeon: Dungeon, ox: int, oy: int, lang: str) -> list[str]:
    door = next((d for d in dungeon.doors if d.rooms[0] is None), None)
    if door is None:
        return []
    (xa, ya), (xb, yb) = door.cells
    dx, dy = xb - xa, yb - ya
    tip_x, tip_y = ox + (xb + 0.5 - dx * 0.5) * CELL, oy + (yb + 0.5 - dy * 0.5) * CELL
    tail_x, tail_y = tip_x - dx * CELL * 1.1, tip_y - dy * CELL * 1.1
    px, py = -dy, dx  # perpendicular, for the arrow head
    head = (f"{tip_x:g},{tip_y:g} {tip_x - dx * 9 + px * 6:g},{tip_y - dy * 9 + py * 6:g} "
            f"{tip_x - dx * 9 - px * 6:g},{tip_y - dy * 9 - py * 6:g}")
    mid_x, mid_y = (tip_x + tail_x) / 2, (tip_y + tail_y) / 2
    label = (svg.text(mid_x + 8, mid_y + 4, t("render.entrance", lang), 10, "start", "bold", svg.ENTRANCE)
             if dx == 0 else
             svg.text(mid_x, mid_y - 8, t("render.entrance", lang), 10, "middle", "bold", svg.ENTRANCE))
    return [f'<line x1="{tail_x:g}" y1="{tail_y:g}" x2="{tip_x - dx * 8:g}" y2="{tip_y - dy * 8:g}" '
            f'stroke="{svg.ENTRANCE}" stroke-width="3.5"/>',
            f'<polygon points="{head}" fill="{svg.ENTRANCE}"/>', label]


def _labels(dungeon: Dungeon, ox: int, oy: int) -> list[str]:
    out = []
    for room in dungeon.rooms:
        r = room.rect
        cx, cy = ox + (r.x + r.w / 2) * CELL, oy + (r.y + r.h / 2) * CELL
        if room.boss:
            cy -= _BOSS_LIFT
        out.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="10.5" fill="white" stroke="{svg.INK}" stroke-width="1.4"/>')
        out.append(svg.text(cx, cy + 4.2, str(room.number), 11.5, "middle", "bold"))
        if room.boss:
            out.append(f'<rect x="{cx - 19:g}" y="{cy + _BOSS_BOX:g}" width="38" height="14" rx="3" fill="white" '
                       f'stroke="{svg.INK}" stroke-width="1"/>')
            out.append(svg.text(cx, cy + _BOSS_BOX + 11, "BOSS", 10, "middle", "bold"))
    return out


# A boss room's number, lifted, and its "BOSS" label below it, both clear of doors in a room two cells high
_BOSS_LIFT, _BOSS_BOX = 8, 12


def label_cells(rects: list[Rect]) -> list[Cell]:
    """A cell for each place's number, no two the same: the one fewest other places cover (where the place
    shows alone, when it does), nearest its middle. Places laid over one another (four 2x5 strips through one
    spot) so keep their numbers apart and readable."""
    cover: dict[Cell, int] = {}
    for rect in rects:
        for cell in rect.cells():
            cover[cell] = cover.get(cell, 0) + 1
    taken: set[Cell] = set()
    chosen = []
    for rect in rects:
        middle = (rect.x + (rect.w - 1) / 2, rect.y + (rect.h - 1) / 2)
        free = [cell for cell in rect.cells() if cell not in taken] or rect.cells()
        cell = min(free, key=lambda c: (cover[c], abs(c[0] - middle[0]) + abs(c[1] - middle[1]), c[1], c[0]))
        taken.add(cell)
        chosen.append(cell)
    return chosen


def _place(h: Highlight, ox: int, oy: int) -> str:
    """A place a room may go: faint, so that places over one another stay apart; the page lights the one
    pointed at (style.css, app.js)."""
    r = h.rect
    x, y = ox + r.x * CELL, oy + r.y * CELL
    return (svg.clickable("place", h.choice, h.title) + f'<rect x="{x + 2}" y="{y + 2}" width="{r.w * CELL - 4}" '
            f'height="{r.h * CELL - 4}" fill="{svg.CANDIDATE}" fill-opacity="0.08" stroke="{svg.CANDIDATE}" '
            f'stroke-width="1.5" stroke-dasharray="2 3"/></g>')


def _wall(h: Highlight, ox: int, oy: int) -> str:
    """A wall that is a choice (a door, an exit, a wall to search), drawn along it."""
    assert h.wall is not None
    return svg.clickable("wall", h.choice, h.title) + svg.choice_wall(
        ox + h.wall[0] * CELL, oy + h.wall[1] * CELL, ox + h.wall[2] * CELL, oy + h.wall[3] * CELL)


def _number(h: Highlight, at: tuple[float, float], ox: int, oy: int) -> str:
    """A place's number, in its own cell (`label_cells`), or on its wall."""
    cx, cy = ox + at[0] * CELL, oy + at[1] * CELL
    # As wide as a cell, less a hair: numbers of neighbouring cells or doors never overlap, and zoomed in
    # on a phone they are targets a finger can take
    return svg.clickable("number", h.choice, h.title) + svg.choice_number(cx, cy, CELL / 2 - 0.5, h.label)


def _legend(dungeon: Dungeon, x0: int, y0: int, lang: str, offered: str | None = None) -> tuple[list[str], int]:
    # The rooms under their heading; none yet (the first is being laid): no heading, the key alone
    out = [svg.text(x0, y0 + 4, t("render.legend", lang), 14, weight="bold")] if dungeon.rooms else []
    y = y0 + (26 if dungeon.rooms else 10)
    for room in dungeon.rooms:
        out.append(f'<circle cx="{x0 + 9}" cy="{y - 4}" r="9" fill="{svg.BOSS if room.boss else svg.ROOM}" '
                   f'stroke="{svg.INK}" stroke-width="1.2"/>')
        out.append(svg.text(x0 + 9, y, str(room.number), 10, "middle", "bold"))
        for i, line in enumerate(svg.wrap(room_title(room, lang), 48)):
            y += 14 if i else 0
            out.append(svg.text(x0 + 24, y, line, 11.5, weight="bold"))
        details = room_details(room, lang)
        for line in svg.wrap(details, 52) if details else []:
            y += 14
            out.append(svg.text(x0 + 24, y, line, 11))
        y += 22
    y += 4
    out.append(_key(x0, y, lang, offered))
    return out, y + (len(_KEYS) + bool(offered)) * 20 - y0


_KEYS = ("render.key_room", "render.key_filling", "render.key_boss", "render.key_door", "render.key_passage",
         "render.entrance")


@lru_cache(maxsize=256)
def _key(x0: int, y: int, lang: str, offered: str | None = None) -> str:
    """The key to the picture's marks, its first line at `y` (and the marks of the choices offered, while
    there are: `offered` is its words' key)."""
    shapes = [
        _swatch(x0, y, svg.ROOM),
        _swatch(x0, y, "url(#filling)"),
        f'<rect x="{x0}" y="{y - 10}" width="22" height="14" fill="{svg.BOSS}" stroke="{svg.INK}" stroke-width="2.4"/>'
        f'<rect x="{x0}" y="{y - 10}" width="22" height="14" fill="url(#boss)"/>',
        f'<rect x="{x0 + 7}" y="{y - 9}" width="8" height="12" fill="white" stroke="{svg.INK}" stroke-width="1.5"/>',
        f'<rect x="{x0}" y="{y - 8}" width="22" height="10" fill="url(#passage)" stroke="{svg.PASSAGE}" '
        f'stroke-width="2" stroke-dasharray="4 2"/>',
        f'<line x1="{x0}" y1="{y - 3}" x2="{x0 + 16}" y2="{y - 3}" stroke="{svg.ENTRANCE}" stroke-width="3.5"/>'
        f'<polygon points="{x0 + 22},{y - 3} {x0 + 14},{y - 8} {x0 + 14},{y + 2}" fill="{svg.ENTRANCE}"/>',
    ]
    keys = list(_KEYS)
    if offered == "render.key_place":
        shapes.append(f'<rect x="{x0}" y="{y - 10}" width="22" height="14" fill="{svg.CANDIDATE}" '
                      f'fill-opacity="0.15" stroke="{svg.CANDIDATE}" stroke-width="1.5" stroke-dasharray="2 3"/>')
    elif offered:  # a door, an exit, a wall, a passage: its number on it
        shapes.append(svg.clickable("number", None) + svg.choice_number(x0 + 11, y - 3, 9, "1"))
    if offered:
        keys.append(offered)
    out = []
    for i, (shape, key) in enumerate(zip(shapes, keys, strict=True)):
        dy = i * 20
        out.append(f'<g transform="translate(0 {dy})">{shape}</g>')
        out.append(svg.text(x0 + 30, y + dy + 1, t(key, lang), 11))
    return "".join(out)


def _swatch(x: int, y: int, fill: str) -> str:
    return f'<rect x="{x}" y="{y - 10}" width="22" height="14" fill="{fill}" stroke="{svg.INK}" stroke-width="1.6"/>'

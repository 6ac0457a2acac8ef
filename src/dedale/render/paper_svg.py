"""The paper dungeon as SVG, drawn like squared paper: the grid, corridors and rooms with their walls,
doors, secret doors (an arrow for one-way ones), stairs up and down, exits, traps, dead ends, open ends,
numbered rooms with a legend of their contents, and optionally the card that made each feature.

Rooms are told from corridors by more than their colour, so that a room of one square by two reads as a
room: a deeper fill, a thicker wall and an inner outline. Every mark of the legend is drawn by the same
function as on the map (`cell_mark`, `door_mark`, `secret_mark`, `open_end_mark`, `room_number`,
`room_floor`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dedale.core.documents import UNSET
from dedale.core.seeds import readable
from dedale.i18n import t
from dedale.paper.contents import contents_labels
from dedale.paper.model import Door, Exit, PaperMap, Room
from dedale.render import svg

CELL = 18
MARGIN = 30
HEADER = 48
LEGEND = 340
GRID_LINE = "#bcd4ea"  # the blue of squared paper
CORRIDOR = "#ece9e2"
ROOM = "#ecd39c"
WALL, ROOM_WALL = 1.8, 2.8


@dataclass(frozen=True)
class Mark:
    """A choice that is a place on the map: its number in the list of choices, its id and words, where its
    number goes and the wall it is on (in squares from the page's corner)."""

    label: str
    choice: str
    title: str
    at: tuple[float, float]
    wall: tuple[float, float, float, float] | None = None


def choice_marks(listed: list[tuple[str, str, str, dict[str, Any]]]) -> list[Mark]:
    """The marks of the choices that are places, from each choice's number, id, words and data: an open end
    (its number on its square), a wall to search (on the wall; both its sides may search it: their numbers
    then a square apart along it) and a room's exit square (outside the wall: the exits of a corner's two
    walls keep apart). Other choices are not marked."""
    out = []
    searches: dict[tuple[float, ...], list[int]] = {}  # a wall: the marks of its searches
    for label, choice, title, data in listed:
        kind = data.get("kind")
        if kind == "end":
            x, y = data["cell"]
            out.append(Mark(label, choice, title, (x + 0.5, y + 0.5)))
        elif kind in ("search", "wall"):
            (xa, ya), (xb, yb) = data["cells"]
            mx, my = (xa + xb + 1) / 2, (ya + yb + 1) / 2  # the middle of the wall between the two squares
            wall = (mx, my - 0.5, mx, my + 0.5) if ya == yb else (mx - 0.5, my, mx + 0.5, my)
            if kind == "search":
                searches.setdefault(wall, []).append(len(out))
            out.append(Mark(label, choice, title, (mx, my) if kind == "search" else (xb + 0.5, yb + 0.5), wall))
    for (x0, y0, x1, y1), both in searches.items():
        for index, step in zip(both, (-0.5, 0.5) if len(both) > 1 else (), strict=False):
            m = out[index]
            out[index] = Mark(m.label, m.choice, m.title, (m.at[0] + (x1 - x0) * step, m.at[1] + (y1 - y0) * step),
                              m.wall)
    return out


def render_svg(paper: PaperMap, cards: bool = False, lang: str = "en", marks: list[Mark] | None = None) -> str:
    """The drawing, cropped to the squares in use and a few around them (the page's edge shows where it
    is in view), with the `marks` of the choices offered."""
    x0, y0, x1, y1 = view(paper)
    width, height = (x1 - x0) * CELL, (y1 - y0) * CELL
    ox, oy = MARGIN - x0 * CELL, MARGIN + HEADER - y0 * CELL  # where square (0, 0) is drawn
    body = [svg.text(MARGIN, MARGIN + 6, t("render.paper_title", lang), 20, weight="bold"),
            svg.text(MARGIN, MARGIN + 26, _summary(paper, lang), 12.5)]
    body += _paper(paper, ox, oy, (x0, y0, x1, y1))
    body += _edges(ox, oy, (x0, y0, x1, y1))
    body += _squares(paper, ox, oy)
    body.append(_walls(paper, ox, oy))
    body += [_door(door, ox, oy) for door in paper.doors if door.kind in ("door", "secret", "entrance")]
    body += _open_ends(paper, ox, oy)
    body += [lost_exit_mark(ox + (e.cell[0] + e.outside[0] + 1) * CELL / 2,
                            oy + (e.cell[1] + e.outside[1] + 1) * CELL / 2) for e in _lost_exits(paper)]
    body += _room_numbers(paper, ox, oy)
    if cards:
        body += _cards(paper, ox, oy)
    marks = marks or []
    body += [_wall_mark(m, ox, oy) for m in marks if m.wall]  # every wall, then every number above them
    body += [svg.clickable("number", m.choice, m.title)
             + svg.choice_number(ox + m.at[0] * CELL, oy + m.at[1] * CELL, CELL / 2 - 0.5, m.label) for m in marks]
    top = MARGIN + HEADER
    legend, legend_height = _legend(paper, lang, bool(marks))
    body.append(f'<g id="paper-legend" transform="translate({MARGIN * 2 + width} {top})" '
                f'data-width="{LEGEND}" data-height="{legend_height}" data-map-width="{MARGIN * 2 + width}" '
                f'data-map-height="{top + height + MARGIN}">{"".join(legend)}</g>')
    defs = svg.hatch("pit", svg.INK, 3, 0.8)
    return svg.document(MARGIN * 2 + width + LEGEND, top + max(height, legend_height) + MARGIN, body,
                        t("render.paper_title", lang), defs)


def _wall_mark(m: Mark, ox: int, oy: int) -> str:
    assert m.wall is not None
    x0, y0, x1, y1 = m.wall
    return svg.clickable("wall", m.choice, m.title) + svg.choice_wall(ox + x0 * CELL, oy + y0 * CELL,
                                                                      ox + x1 * CELL, oy + y1 * CELL)


def view(paper: PaperMap, around: int = 3) -> tuple[int, int, int, int]:
    """The squares to draw: those in use (and the open ends), `around` more on each side, within the page."""
    cells = [*paper.cells, *(e.cell for e in paper.open_ends)]
    if not cells:
        return 0, 0, paper.width, paper.height
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    return (max(min(xs) - around, 0), max(min(ys) - around, 0), min(max(xs) + 1 + around, paper.width),
            min(max(ys) + 1 + around, paper.height))


def _summary(paper: PaperMap, lang: str) -> str:
    seed = "" if paper.seed is None else t("render.seed", lang, seed=readable(paper.seed)) + " · "
    state = t(f"render.paper_{paper.ended or 'open'}", lang)
    return seed + t("render.paper_summary", lang, cards=paper.cards_used, rooms=len(paper.rooms), state=state)


def _paper(paper: PaperMap, ox: int, oy: int, box: tuple[int, int, int, int]) -> list[str]:
    x0, y0, x1, y1 = box
    left, top, w, h = ox + x0 * CELL, oy + y0 * CELL, (x1 - x0) * CELL, (y1 - y0) * CELL
    lines = "".join(f"M{ox + i * CELL} {top}v{h}" for i in range(x0, x1 + 1))
    lines += "".join(f"M{left} {oy + j * CELL}h{w}" for j in range(y0, y1 + 1))
    edges = "".join(f"M{ox + x * CELL} {top}v{h}" for x in (0, paper.width) if x in (x0, x1))
    edges += "".join(f"M{left} {oy + y * CELL}h{w}" for y in (0, paper.height) if y in (y0, y1))
    return [f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="white"/>',
            f'<path d="{lines}" stroke="{GRID_LINE}" stroke-width="0.6" fill="none"/>',
            f'<path d="{edges}" stroke="{GRID_LINE}" stroke-width="3" fill="none"/>']


def _edges(ox: int, oy: int, box: tuple[int, int, int, int]) -> list[str]:
    """Each column's and row's number, light, along the top and left edges of the squares drawn: a square the
    text view or a log names can be found."""
    x0, y0, x1, y1 = box
    return ([svg.text(ox + (x + 0.5) * CELL, oy + y0 * CELL - 3, str(x), 6.5, "middle", fill=svg.ZONE)
             for x in range(x0, x1)]
            + [svg.text(ox + x0 * CELL - 3, oy + (y + 0.5) * CELL + 2.3, str(y), 6.5, "end", fill=svg.ZONE)
               for y in range(y0, y1)])


def _squares(paper: PaperMap, ox: int, oy: int) -> list[str]:
    """Each feature's squares in one rectangle (rooms are rectangles, corridors straight runs), then the
    marks of the special squares."""
    out = []
    for feature in paper.features:
        cells = feature.cells
        if cells:
            xs, ys = [c[0] for c in cells], [c[1] for c in cells]
            x, y = ox + min(xs) * CELL, oy + min(ys) * CELL
            w, h = (max(xs) - min(xs) + 1) * CELL, (max(ys) - min(ys) + 1) * CELL
            out.append(room_floor(x, y, w, h) if feature.room is not UNSET else
                       f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{CORRIDOR}"/>')
    for (x, y), (kind, _) in paper.cells.items():
        if kind not in ("room", "corridor"):
            out.append(cell_mark(kind, ox + x * CELL, oy + y * CELL))
    return out


def room_floor(x: float, y: float, w: float, h: float) -> str:
    """A room's floor, its inner outline inside the wall."""
    return (f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{ROOM}"/>'
            f'<rect x="{x + 3.5:g}" y="{y + 3.5:g}" width="{w - 7:g}" height="{h - 7:g}" fill="none" '
            f'stroke="{svg.INK}" stroke-width="0.7" stroke-opacity="0.6"/>')


def cell_mark(kind: str, px: float, py: float) -> str:
    """The mark of a special square (a trap, stairs, an exit, a dead end) whose top left corner is (px, py)."""
    half = CELL / 2
    if kind == "trap":
        return (f'<circle cx="{px + half:g}" cy="{py + half:g}" r="{half - 2:g}" fill="url(#pit)" '
                f'stroke="{svg.ACCENT}" stroke-width="1.2"/>'
                + svg.text(px + half, py + half + 3.5, "T", 9, "middle", "bold", svg.ACCENT))
    if kind in ("stairs_up", "stairs_down"):
        steps = "".join(f"M{px + 2:g} {py + 2 + i * 2.5:g}h{CELL - 4}" for i in range(5))
        return (f'<path d="{steps}" stroke="{svg.INK}" stroke-width="0.8"/>'
                + svg.text(px + half, py + half + 3.5, "▲" if kind == "stairs_up" else "▼", 9, "middle", "bold",
                           svg.PASSAGE))
    if kind == "exit":
        return (f'<rect x="{px + 1:g}" y="{py + 1:g}" width="{CELL - 2}" height="{CELL - 2}" fill="{svg.ENTRANCE}"/>'
                + svg.text(px + half, py + half + 3.5, "E", 9, "middle", "bold", "white"))
    if kind == "dead_end":
        return svg.text(px + half, py + half + 3.5, "×", 11, "middle", "bold", svg.INK)
    return ""


def _walls(paper: PaperMap, ox: int, oy: int) -> str:
    """A wall between a square and its neighbour when that is empty, off the page, or another feature with
    no open way between them (doors are drawn on top; secret doors keep their wall)."""
    ways = {frozenset(door.squares) for door in paper.doors if door.kind != "secret"}
    cells = paper.cells
    path: list[str] = []
    room_path: list[str] = []
    for (x, y), (_, feature) in cells.items():
        for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
            other = (x + dx, y + dy)
            found = cells.get(other)
            if found is not None and (found[1] == feature or frozenset(((x, y), other)) in ways):
                continue
            px, py = ox + (x + (dx > 0)) * CELL, oy + (y + (dy > 0)) * CELL
            (room_path if cells[(x, y)][0] == "room" else path).append(
                f"M{px} {py}h{CELL}" if dy else f"M{px} {py}v{CELL}")
    return "".join(f'<path d="{"".join(lines)}" stroke="{svg.INK}" stroke-width="{width}" stroke-linecap="square" '
                   'fill="none"/>' for lines, width in ((path, WALL), (room_path, ROOM_WALL)) if lines)


def _door(door: Door, ox: int, oy: int) -> str:
    (xa, ya), (xb, yb) = door.cells
    long, thick = CELL * 0.6, 5.0
    cx: float
    if ya == yb:
        cx, cy, w, h = ox + max(xa, xb) * CELL, oy + (ya + 0.5) * CELL, thick, long
    else:
        cx, cy, w, h = ox + (xa + 0.5) * CELL, oy + max(ya, yb) * CELL, long, thick
    if door.kind != "secret":
        return door_mark(cx, cy, w, h)
    mark = secret_mark(cx, cy)
    if door.way == "both":
        return mark
    dx, dy = (xb - xa, yb - ya) if door.way == "forward" else (xa - xb, ya - yb)
    tip_x, tip_y = cx + dx * 7, cy + dy * 7
    arrow = (f'<path d="M{cx - dx * 5:g} {cy - dy * 5:g}L{tip_x:g} {tip_y:g}" stroke="{svg.PASSAGE}" '
             f'stroke-width="1.6"/><polygon points="{tip_x + dx * 3:g},{tip_y + dy * 3:g} '
             f'{tip_x - dy * 3:g},{tip_y + dx * 3:g} {tip_x + dy * 3:g},{tip_y - dx * 3:g}" fill="{svg.PASSAGE}"/>')
    return arrow + mark


def door_mark(cx: float, cy: float, w: float, h: float) -> str:
    return (f'<rect x="{cx - w / 2:g}" y="{cy - h / 2:g}" width="{w:g}" height="{h:g}" fill="white" '
            f'stroke="{svg.INK}" stroke-width="1.2"/>')


def secret_mark(cx: float, cy: float) -> str:
    return svg.text(cx, cy + 3.5, "S", 9.5, "middle", "bold", svg.PASSAGE)


def open_end_mark(cx: float, cy: float) -> str:
    return (f'<circle cx="{cx:g}" cy="{cy:g}" r="4" fill="white" stroke="{svg.PASSAGE}" stroke-width="1.4" '
            f'stroke-dasharray="2 1.5"/>')


def lost_exit_mark(cx: float, cy: float) -> str:
    """An exit step C gave a room that no square of its walls could take: a struck circle where it was rolled."""
    return (f'<circle cx="{cx:g}" cy="{cy:g}" r="4" fill="white" stroke="{svg.ACCENT}" stroke-width="1.4"/>'
            f'<path d="M{cx - 2.8:g} {cy + 2.8:g}L{cx + 2.8:g} {cy - 2.8:g}" stroke="{svg.ACCENT}" '
            f'stroke-width="1.4"/>')


def _lost_exits(paper: PaperMap) -> list[Exit]:
    return [e for room in paper.rooms for e in room.exits if e.result == "lost"]


def room_number(cx: float, cy: float, number: int) -> str:
    return (f'<circle cx="{cx:g}" cy="{cy:g}" r="7.5" fill="white" stroke="{svg.INK}" stroke-width="1"/>'
            + svg.text(cx, cy + 3.3, str(number), 8.5, "middle", "bold"))


def _open_ends(paper: PaperMap, ox: int, oy: int) -> list[str]:
    return [open_end_mark(ox + (e.cell[0] + 0.5) * CELL, oy + (e.cell[1] + 0.5) * CELL) for e in paper.open_ends]


def _room_numbers(paper: PaperMap, ox: int, oy: int) -> list[str]:
    return [room_number(ox + (room.rect.x + room.rect.w / 2) * CELL, oy + (room.rect.y + room.rect.h / 2) * CELL,
                        room.id) for room in paper.rooms]


def _cards(paper: PaperMap, ox: int, oy: int) -> list[str]:
    out = []
    for feature in paper.features:
        card, cells = feature.card, feature.cells
        if card is None or not cells or feature.room is not UNSET:
            continue
        x, y = cells[0]
        out.append(svg.text(ox + x * CELL + 1, oy + y * CELL + 6, card.shown, 5.5, fill=svg.ZONE))
    return out


def legend_marks() -> list[tuple[str, str]]:
    """Each mark of the key as the map draws it, in a square whose top left corner is (0, 0), and its words."""
    half, long = CELL / 2, CELL * 0.6
    wall = f'<path d="M{half:g} 0v{CELL}" stroke="{svg.INK}" stroke-width="{WALL}"/>'
    down = f'<g transform="translate({CELL + 2} 0)">{cell_mark("stairs_down", 0, 0)}</g>'
    return [(room_floor(0, 0, 2 * CELL, CELL), "render.paper_room"),
            (f'<rect width="{2 * CELL}" height="{CELL}" fill="{CORRIDOR}"/>', "render.paper_corridor"),
            (wall + door_mark(half, half, 5, long), "render.paper_door"),
            (wall + secret_mark(half, half), "render.paper_secret"),
            (cell_mark("stairs_up", 0, 0) + down, "render.paper_stairs"),
            (cell_mark("exit", 0, 0), "render.paper_exit"), (cell_mark("trap", 0, 0), "render.paper_trap"),
            (cell_mark("dead_end", 0, 0), "render.paper_dead_end"),
            (open_end_mark(half, half), "render.paper_open_end")]


def _legend(paper: PaperMap, lang: str, offered: bool = False) -> tuple[list[str], int]:
    """The rooms' contents, then the key, drawn from (0, 0): the page may place it beside the map or below."""
    out = [svg.text(0.5, 4, t("render.legend", lang), 14, weight="bold")]
    y = 24
    for room in paper.rooms:
        out.append(f'<g transform="translate(0 {y - 12})">{room_number(8, 8, room.id)}</g>')
        for i, line in enumerate(svg.wrap(room_line(room, lang), 50)):
            out.append(svg.text(22, y + i * 13, line, 10.5))
        y += 13 * len(svg.wrap(room_line(room, lang), 50)) + 6
    y += 8
    lost = [(lost_exit_mark(CELL / 2, CELL / 2), "render.paper_lost_exit")] if _lost_exits(paper) else []
    choice = [(svg.clickable("number", None) + svg.choice_number(CELL / 2, CELL / 2, CELL / 2 - 0.5, "1"),
               "render.key_choice")] if offered else []
    for mark, label in [*legend_marks(), *lost, *choice]:
        out.append(f'<g transform="translate(0 {y - 13})">{mark}</g>')
        out.append(svg.text(44, y, t(label, lang), 10.5))
        y += CELL + 4
    return out, y


def room_line(room: Room, lang: str) -> str:
    """'4x3 — Monster: Goblins', for the legend and the text view."""
    r = room.rect
    if room.contents is None:
        return f"{r.w}x{r.h}"
    if room.contents.id is UNSET:  # the starting room, or one whose exits are being placed (not yet rolled)
        return f"{r.w}x{r.h} — {t('render.paper_start' if room.size_dice is None else 'render.paper_unrolled', lang)}"
    what, *details = contents_labels(room.contents, lang)
    return f"{r.w}x{r.h} — {what}" + (f": {', '.join(details)}" if details else "")

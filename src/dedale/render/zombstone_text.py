"""A Zombstone skirmish as plain text for the terminal: the table as a character grid, two characters an inch
across and one a line down (a 36-inch table fits in 80 columns), with rulers every 6 inches; then each side's
roster and a key.

Terrain: `#` buildings (named inside when they have room), `=` heavy cover, `:` light cover, `.` difficult
ground, `/` stairs, `H` ladders, `|` walls, `~` gaps to jump. A figure is its letter (lawmen upper case,
zombies lower case) in the half-inch it stands in, followed by a mark when it is wounded (`*`), fleeing (`!`)
or out of play (`+`); a hidden figure is its token's number.
Figures that fled for good are only in the roster.
"""

from __future__ import annotations

import math

from dedale.i18n import t
from dedale.render import svg
from dedale.render.zombstone_svg import describe, side_name, status_name, summary
from dedale.zombstone.skirmish.catalogue import SIDES
from dedale.zombstone.skirmish.view import FigureView, GameView

TERRAIN_MARKS = {"building": "#", "heavy": "=", "light": ":", "difficult": ".", "stairs": "/", "ladder": "H",
                 "wall": "|", "gap": "~"}
PRIORITY = ("gap", "difficult", "stairs", "ladder", "light", "heavy", "wall", "building")  # the later one shows
STATE_MARKS = {"out": "+", "fleeing": "!"}
WOUND_MARK = "*"
# where a figure goes when its half-inch is taken: beside it first, then above and below
NEAR = ((0, 0), (1, 0), (-1, 0), (0, -1), (0, 1), (2, 0), (-2, 0), (1, -1), (1, 1), (-1, -1), (-1, 1))
NAME_WIDTH = 26
WIDTH = 96  # the longest line of words
STATUS_WIDTH = 12


def render_text(view: GameView, lang: str = "en") -> str:
    lines = [t("render.zombstone.title", lang, scenario=view.scenario)]
    lines += [part for line in summary(view, lang) for part in svg.wrap(line, WIDTH)]
    lines.append("")
    lines += _grid(view)
    lines.append("")
    for side in SIDES:
        lines += _roster(view, side, lang)
        lines.append("")
    climbing = any(piece.kind in ("stairs", "ladder", "wall", "gap") for piece in view.battlefield.terrain)
    keys = ("terrain", *(["climbing"] if climbing else []), "figures", "marks", "cartridges")
    lines += [t(f"render.zombstone.text_{key}", lang) for key in keys]
    return "\n".join(lines) + "\n"


def grid_size(view: GameView) -> tuple[int, int]:
    """The grid's columns and rows inside its frame: two characters an inch across, one line an inch down."""
    return 2 * math.ceil(view.battlefield.width), math.ceil(view.battlefield.height)


def _grid(view: GameView) -> list[str]:
    columns, rows = grid_size(view)
    cells = [[" "] * columns for _ in range(rows)]
    for piece in sorted(view.battlefield.terrain, key=lambda p: PRIORITY.index(p.kind)):
        # a character covers half an inch by an inch: marked when the piece covers part of it
        for row in range(rows):
            if not piece.y < row + 1 or not row < piece.y + piece.h:
                continue
            for col in range(columns):
                if piece.x < (col + 1) / 2 and col / 2 < piece.x + piece.w:
                    cells[row][col] = TERRAIN_MARKS[piece.kind]
    for piece in view.battlefield.terrain:
        if piece.kind == "building" and piece.name:
            _name(cells, piece.name, piece.x, piece.y, piece.w, piece.h)
    _figures(view, cells)
    top = [" "] * (columns + 3)
    for inch in range(0, columns // 2 + 1, 6):
        top[2 * inch:2 * inch + len(str(inch))] = str(inch)
    lines = ["    " + "".join(top).rstrip()]
    lines.append("   ┌" + "".join("┬" if col % 12 == 0 and col else "─" for col in range(columns)) + "┐")
    for row in range(rows):
        ruler = f"{row:>2} ├" if row % 6 == 0 and row else "   │"
        lines.append(ruler + "".join(cells[row]) + "│")
    lines.append("   └" + "─" * columns + "┘")
    return lines


def _name(cells: list[list[str]], name: str, x: float, y: float, w: float, h: float) -> None:
    """A building's name on its middle line, within its walls, cut short when it is longer."""
    row = int(y + h / 2)
    first, last = math.ceil(2 * x) + 1, math.floor(2 * (x + w)) - 2
    room = last - first + 1
    if room < 4 or not 0 <= row < len(cells):
        return
    shown = name if len(name) <= room else name[:room - 1] + "…"
    start = first + (room - len(shown)) // 2
    for i, char in enumerate(shown):
        if 0 <= start + i < len(cells[row]):
            cells[row][start + i] = char


def _figures(view: GameView, cells: list[list[str]]) -> None:
    """Each figure's character in its half-inch (or the nearest free one), the figures in play placed first; then
    the marks after them, where no figure stands."""
    rows, columns = len(cells), len(cells[0])
    taken: dict[tuple[int, int], FigureView] = {}
    for figure in sorted((f for f in view.figures if f.on_table), key=lambda f: not f.in_play):
        col = min(max(int(figure.x * 2), 0), columns - 1)
        row = min(max(int(figure.y), 0), rows - 1)
        spot = next(((col + dx, row + dy) for dx, dy in NEAR if 0 <= col + dx < columns and 0 <= row + dy < rows
                     and (col + dx, row + dy) not in taken), None)
        if spot is not None:
            taken[spot] = figure
            cells[spot[1]][spot[0]] = symbol(view, figure)
    for (col, row), figure in taken.items():
        mark = _mark(figure)
        if mark and col + 1 < columns and (col + 1, row) not in taken:
            cells[row][col + 1] = mark


def symbol(view: GameView, figure: FigureView) -> str:
    """The figure's character on the grid: its letter, or its token's number while hidden."""
    if figure.hidden:
        token = view.token(figure)
        return str(token) if token < 10 else "?"
    return view.label(figure)


def _mark(figure: FigureView) -> str:
    if figure.hidden:
        return ""
    if figure.state in STATE_MARKS:
        return STATE_MARKS[figure.state]
    return WOUND_MARK if figure.wounded else ""


def cartridges(view: GameView, figure: FigureView) -> str:
    """White cartridges then red: ● and ◆ left, ○ and ◇ lost (the first ones ticked first); none shown of a
    masked figure."""
    if figure.masked:
        return ""
    profile = view.profile(figure)
    marks = []
    for i in range(profile.cartridges):
        red = i >= profile.cartridges - profile.red
        lost = i < figure.ticked
        marks.append(("◇" if lost else "◆") if red else ("○" if lost else "●"))
    return "".join(marks)


def _roster(view: GameView, side: str, lang: str) -> list[str]:
    figures = view.side(side)
    heading = side_name(side, lang, capital=True) + " — " + t(
        "render.zombstone.standing", lang, standing=sum(f.in_play for f in figures), total=len(figures),
        worth=view.worth_shown(side), cards=view.hands[side])
    lines = [heading]
    width = max((view.profile(f).cartridges for f in figures if not f.masked), default=0)
    for figure in figures:
        name = view.name(figure, lang)
        if len(name) > NAME_WIDTH:
            name = name[:NAME_WIDTH - 1] + "…"
        status = "" if figure.masked else status_name(view.profile(figure).status, lang)
        lines.append(f"  {view.label(figure)}  {name:<{NAME_WIDTH}} {status:<{STATUS_WIDTH}} "
                     f"{cartridges(view, figure):<{width}}  {describe(view, figure, lang)}")
    return lines

"""The crawler board as plain text for the terminal: box-drawn walls, gaps for doors, room numbers.

Each cell is two characters wide with walls between cells; the view is cropped to the zones in use.
The boss room is shaded, secret passages dotted, zone corners marked with `·`.
"""

from __future__ import annotations

from dedale.core.grid import Cell
from dedale.crawler.board import Zone
from dedale.crawler.model import Dungeon
from dedale.i18n import t
from dedale.render.crawler_legend import room_details, room_title, summary

# Box-drawing junctions by the wall segments meeting there: (up, right, down, left).
_JUNCTION = {
    (0, 0, 0, 0): " ", (1, 0, 1, 0): "│", (0, 1, 0, 1): "─", (0, 1, 1, 0): "┌", (0, 0, 1, 1): "┐",
    (1, 1, 0, 0): "└", (1, 0, 0, 1): "┘", (1, 1, 1, 0): "├", (1, 0, 1, 1): "┤", (0, 1, 1, 1): "┬",
    (1, 1, 0, 1): "┴", (1, 1, 1, 1): "┼", (1, 0, 0, 0): "│", (0, 0, 1, 0): "│", (0, 1, 0, 0): "─",
    (0, 0, 0, 1): "─",
}
_ARROWS = {(0, -1): "↑", (0, 1): "↓", (1, 0): "→", (-1, 0): "←"}
PASSAGE = -1


def render_text(dungeon: Dungeon, focus: list[Zone] | None = None, lang: str = "en") -> str:
    """The view; `focus` adds zones to the crop (where a room is about to be laid, in solo play)."""
    owner: dict[Cell, int] = {}
    for room in dungeon.rooms:
        for cell in room.rect.cells():
            owner[cell] = room.id
    for passage in dungeon.passages:
        for cell in passage.cells:
            owner[cell] = PASSAGE
    openings = {frozenset(door.cells) for door in dungeon.doors}
    for passage in dungeon.passages:
        first = passage.cells[0]
        openings.add(frozenset({first, (first[0] - passage.face.dx, first[1] - passage.face.dy)}))
    x0, y0, x1, y1 = _crop(dungeon, focus or [])
    lines = [summary(dungeon, lang), ""]
    lines += _map(dungeon, owner, openings, x0, y0, x1, y1)
    lines.append("")
    for room in dungeon.rooms:
        mark = "BOSS" if room.boss else "    "
        lines.append(f"{room.number:>3} {mark} {room_title(room, lang)}")
        if details := room_details(room, lang):
            lines.append(f"         {details}")
    if dungeon.passages:
        lines.append("")
        lines.append(t("render.text_passages", lang, count=len(dungeon.passages)))
    return "\n".join(lines) + "\n"


def _crop(dungeon: Dungeon, focus: list[Zone]) -> tuple[int, int, int, int]:
    """The cell range of the zones in use (the whole board when there are none)."""
    c, n = dungeon.zone_cells, dungeon.board_zones * dungeon.zone_cells
    zones = {room.zone for room in dungeon.rooms} | set(focus)
    if not zones:
        return 0, 0, n, n
    xs, ys = [z[0] for z in zones], [z[1] for z in zones]
    return min(xs) * c, min(ys) * c, (max(xs) + 1) * c, (max(ys) + 1) * c


def _map(dungeon: Dungeon, owner: dict[Cell, int], openings: set[frozenset[Cell]],
         x0: int, y0: int, x1: int, y1: int) -> list[str]:
    c = dungeon.zone_cells

    def wall(a: Cell, b: Cell) -> bool:
        return owner.get(a) != owner.get(b) and frozenset({a, b}) not in openings

    def shade(*cells: Cell) -> str:
        """The shading of a gap inside one shaded area (boss room, passage), else a space."""
        who = {owner.get(cell) for cell in cells}
        if len(who) != 1:
            return " "
        (one,) = who
        return "░" if one == PASSAGE else "▒" if one is not None and dungeon.rooms[one - 1].boss else " "

    rows: list[list[str]] = []
    for gy in range(y0, y1 + 1):  # the wall row above cell row gy, then the cells of row gy
        line, cells = [], []
        for gx in range(x0, x1 + 1):
            up = wall((gx - 1, gy - 1), (gx, gy - 1))
            down = wall((gx - 1, gy), (gx, gy))
            left = wall((gx - 1, gy - 1), (gx - 1, gy))
            right = wall((gx, gy - 1), (gx, gy))
            junction = _JUNCTION[(int(up), int(right), int(down), int(left))]
            if junction == " ":
                junction = shade((gx - 1, gy - 1), (gx, gy - 1), (gx - 1, gy), (gx, gy))
            if junction == " " and gx % c == 0 and gy % c == 0:
                junction = "·"
            line.append(junction)
            cells.append("│" if down else shade((gx - 1, gy), (gx, gy)))
            if gx < x1:
                line.append("──" if right else shade((gx, gy - 1), (gx, gy)) * 2)
                cells.append(_cell(dungeon, owner, (gx, gy)))
        rows.append(line)
        if gy < y1:
            rows.append(cells)
    _entrance(dungeon, rows, x0, y0)
    zones = "    " + "".join(f"{x:<{3 * c}}" for x in range(x0, x1, c))  # x where each zone starts
    digits = "    " + "".join(f"  {x % 10}" for x in range(x0, x1))  # and the last digit of every x
    out = [zones.rstrip(), digits.rstrip()]
    for i, row in enumerate(rows):
        y = y0 + (i - 1) // 2
        label = f"{y:>3} " if i % 2 == 1 else "    "
        out.append((label + "".join(row)).rstrip())
    return out


def _cell(dungeon: Dungeon, owner: dict[Cell, int], cell: Cell) -> str:
    who = owner.get(cell)
    if who is None:
        return "  "
    if who == PASSAGE:
        return "░░"
    room = dungeon.rooms[who - 1]
    if cell == (room.rect.x, room.rect.y):
        return f"{room.number:>2}"
    return "▒▒" if room.boss else "  "


def _entrance(dungeon: Dungeon, rows: list[list[str]], x0: int, y0: int) -> None:
    """An arrow in the wall gap of the dungeon entrance."""
    door = next((d for d in dungeon.doors if d.rooms[0] is None), None)
    if door is None:
        return
    (xa, ya), (xb, yb) = door.cells
    arrow = _ARROWS[(xb - xa, yb - ya)]
    if ya != yb:  # through a horizontal wall: the wall row between the two cells
        row, col = 2 * (max(ya, yb) - y0), 2 * (xb - x0) + 1
        if 0 <= row < len(rows) and 0 <= col < len(rows[row]):
            rows[row][col] = arrow + " "
    else:
        row, col = 2 * (yb - y0) + 1, 2 * (max(xa, xb) - x0)
        if 0 <= row < len(rows) and 0 <= col < len(rows[row]):
            rows[row][col] = arrow

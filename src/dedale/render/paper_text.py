"""The paper dungeon as plain text, one character a square, cropped to the squares in use:

    #  a room square (its number on its first squares)   .  corridor     ^  trap
    <  stairs up     >  stairs down     E  exit          x  dead end     ?  open end

A room's line names the exits that could not be drawn (the picture's struck circles).
"""

from __future__ import annotations

from dedale.i18n import t
from dedale.paper.model import PaperMap
from dedale.render.paper_svg import room_line

GLYPHS = {"room": "#", "corridor": ".", "trap": "^", "stairs_up": "<", "stairs_down": ">", "exit": "E",
          "dead_end": "x"}


def render_text(paper: PaperMap, lang: str = "en") -> str:
    grid = {cell: GLYPHS[kind] for cell, (kind, _) in paper.cells.items()}
    for room in paper.rooms:  # the room's number over its first squares
        x, y = room.rect.x, room.rect.y
        for i, digit in enumerate(str(room.id)[: room.rect.w]):
            grid[(x + i, y)] = digit
    for end in paper.open_ends:
        grid[end.cell] = "?"
    xs = [x for x, _ in grid] or [0]
    ys = [y for _, y in grid] or [0]
    x0, x1, y0, y1 = max(min(xs) - 1, 0), min(max(xs) + 1, paper.width - 1), max(min(ys) - 1, 0), max(ys)
    lines = [_summary(paper, lang), ""]
    lines.append("     " + "".join(str(x % 10) if x % 5 == 0 else " " for x in range(x0, x1 + 1)))
    for y in range(y0, y1 + 1):
        row = "".join(grid.get((x, y), " ") for x in range(x0, x1 + 1))
        lines.append(f"{y:>3}  {row}".rstrip())
    lines.append("")
    lines += [f"{room.id:>3}  {room_line(room, lang)}" + "".join(
        "; " + t("render.paper_lost_exit_at", lang, wall=t(f"paper.wall.{e.wall}", lang), position=e.position)
        for e in room.exits if e.result == "lost") for room in paper.rooms]
    lines.append("")
    lines.append(t("render.paper_key", lang))
    return "\n".join(lines) + "\n"


def _summary(paper: PaperMap, lang: str) -> str:
    from dedale.render.paper_svg import _summary as summary

    return summary(paper, lang)

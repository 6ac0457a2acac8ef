"""The paper dungeon's picture as a player reads it: the legend's marks are the map's own, and small rooms
read as rooms, not as pieces of corridor."""

from __future__ import annotations

from dedale.core.session import Session
from dedale.paper.model import PaperMap
from dedale.paper.params import PaperParams
from dedale.paper.session import PaperRules
from dedale.render.paper_svg import (
    CELL,
    CORRIDOR,
    HEADER,
    MARGIN,
    ROOM,
    ROOM_WALL,
    WALL,
    cell_mark,
    legend_marks,
    render_svg,
    room_floor,
    view,
)

SPECIAL = ("trap", "stairs_up", "stairs_down", "exit", "dead_end")


def paper(seed: int) -> PaperMap:
    return Session(PaperRules, PaperParams(), seed).run_autopilot().rules.paper_map()


def origin(found: PaperMap) -> tuple[int, int]:
    x0, y0, _, _ = view(found)
    return MARGIN - x0 * CELL, MARGIN + HEADER - y0 * CELL


def test_legend_marks_are_drawn_by_the_maps_functions() -> None:
    found = paper(3)
    svg_text = render_svg(found)
    legend = svg_text[svg_text.index('<g id="paper-legend"'):]
    marks = "".join(mark for mark, _ in legend_marks())
    for kind in SPECIAL:  # each special square's mark, as the map draws it, is in the key
        assert cell_mark(kind, 0, 0) in marks, kind
    for mark, _ in legend_marks():
        assert mark in legend
    ox, oy = origin(found)
    kinds = {kind for kind, _ in found.cells.values()}
    assert {"trap", "exit", "dead_end"} <= kinds
    for (x, y), (kind, _) in found.cells.items():  # and the map draws them with the same function
        if kind in SPECIAL:
            assert cell_mark(kind, ox + x * CELL, oy + y * CELL) in svg_text, kind


def test_small_rooms_read_as_rooms() -> None:
    found = paper(3)
    small = [room for room in found.rooms if sorted((room.rect.w, room.rect.h)) == [1, 2]]
    assert small
    svg_text = render_svg(found)
    ox, oy = origin(found)
    for room in small:  # a room's floor and inner outline, not a corridor's plain fill
        r = room.rect
        assert room_floor(ox + r.x * CELL, oy + r.y * CELL, r.w * CELL, r.h * CELL) in svg_text
    assert ROOM != CORRIDOR and ROOM_WALL > WALL
    assert f'stroke-width="{ROOM_WALL}"' in svg_text


def test_the_columns_and_rows_are_numbered_along_the_edges() -> None:
    """Each column of the squares drawn has its number above the top edge, each row its number left of the
    left edge (issue 30: a square the text view or a log names can be found on the picture)."""
    import re

    found = paper(3)
    ox, oy = origin(found)
    x0, y0, x1, y1 = view(found)
    picture = render_svg(found)
    texts = {(float(x), float(y)): label for x, y, label in re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>(\d+)<',
                                                                        picture)}
    top = {label for (x, y), label in texts.items() if y < oy + y0 * CELL and ox + x0 * CELL < x < ox + x1 * CELL}
    left = {label for (x, y), label in texts.items() if x < ox + x0 * CELL and oy + y0 * CELL < y < oy + y1 * CELL}
    assert top >= {str(x) for x in range(x0, x1)} and left >= {str(y) for y in range(y0, y1)}


def test_a_room_whose_exits_are_being_placed_is_not_the_starting_room() -> None:
    """Issue 30: the legend says "starting room" of the starting room alone; a room whose contents are not
    rolled yet (its exits being placed) says so."""
    session = Session(PaperRules, PaperParams(), 7)
    session.step("end:1")  # a room: its exits are placed first (wall:... choices), its contents rolled after
    assert any(c.id.startswith("wall:") for c in session.choices())
    picture = render_svg(session.rules.paper_map())
    assert picture.count("starting room") == 1 and "contents not yet rolled" in picture


def test_the_text_view_names_an_exit_that_could_not_be_drawn() -> None:
    """Issues 30 and 31: the picture strikes an exit that could not be drawn; the text view names it, in English
    and in French, in its room's line (seed 33: room 2's exit on its left wall), where no square is free to mark
    it (every square of the room's walls has an exit or ends at the page's edge)."""
    from dedale.render.paper_text import render_text

    found = paper(33)
    lost = [(room.id, e) for room in found.rooms for e in room.exits if e.result == "lost"]
    assert len(lost) == 1
    for lang, named in (("en", "; an exit that could not be drawn (left wall, square 1)"),
                        ("fr", "; une sortie impossible à dessiner (mur gauche, case 1)")):
        lines = render_text(found, lang).splitlines()
        assert [line for line in lines if line.endswith(named)] == [
            line for line in lines if line.startswith(f"{lost[0][0]:>3}  ")], lang  # in its room's line only

"""Every invariant `crawler.md` states, checked on a finished (or in-progress) crawler session."""

from __future__ import annotations

from collections import Counter

from dedale.core.grid import DIRS, Dir, Rect
from dedale.crawler.board import Board
from dedale.crawler.model import Room
from dedale.crawler.session import CrawlerSession
from dedale.crawler.tiles import BOSS, ROOM_TILES, tile_name


def _corner_ok(rect: Rect, cell: tuple[int, int], side: Dir) -> bool:
    """A door cell is not one of the room's corner cells, unless that side is only 2 cells long."""
    assert rect.contains(cell)
    assert cell in rect.side(side), (rect, cell, side)
    length = rect.w if side in (Dir.N, Dir.S) else rect.h
    return length <= 2 or cell not in (rect.side(side)[0], rect.side(side)[-1])


def _zone_corner(board: Board, cell: tuple[int, int]) -> bool:
    """One of the 4 corner cells of its zone (a zone of 2 cells a side has no other: none counts)."""
    c = board.cells
    return c > 2 and {cell[0] % c, cell[1] % c} <= {0, c - 1}


def _edges(board: Board, room: Room) -> list[Dir]:
    return board.touched_edges(room.zone, room.rect)


def check(session: CrawlerSession) -> None:
    params, board = session.params, session.rules.board
    layout = session.rules.layout
    rooms, doors, passages = layout.rooms, layout.doors, layout.passages
    n = session.state.size
    dungeon_cells = board.size

    # The room counter: ids and numbers are 1..k in order; never more rooms than N.
    assert [r.id for r in rooms] == [r.number for r in rooms] == list(range(1, len(rooms) + 1))
    assert len(rooms) <= n

    # Rooms lie wholly in their zone, never overlap each other or passages; at most 3 rooms a zone.
    occupied: dict[tuple[int, int], str] = {}
    for room in rooms:
        z = board.zone_rect(room.zone)
        r = room.rect
        assert z.x <= r.x and r.x + r.w <= z.x + z.w and z.y <= r.y and r.y + r.h <= z.y + z.h, room
        for cell in r.cells():
            assert cell not in occupied, (cell, room)
            occupied[cell] = f"room {room.id}"
    for passage in passages:
        for cell in passage.cells:
            assert cell not in occupied, (cell, passage)
            occupied[cell] = "passage"
    assert max(Counter(r.zone for r in rooms).values(), default=0) <= 3

    # Tiles: a room's size is its tile's, rotated or not (the boss: its size, or a fallback size).
    room_sizes = {tile_name(f): ROOM_TILES[f] for f in ROOM_TILES}
    for room in rooms:
        size = (room.rect.w, room.rect.h)
        if room.tile == BOSS:
            assert room.boss
            allowed = [params.boss_size, *room_sizes.values()]
            assert size in allowed or size[::-1] in allowed
        else:
            assert not room.boss
            assert size in (room_sizes[room.tile], room_sizes[room.tile][::-1])

    # The boss: at most one, and it ends the dungeon.
    bosses = [r for r in rooms if r.boss]
    assert len(bosses) <= 1
    if session.state.outcome == "boss":
        assert bosses == [rooms[-1]]
    if session.state.outcome == "stuck":
        assert not bosses
    if bosses:
        _check_boss_rule(session, bosses[0])

    # Doors: one to each room from the room it was entered from; edge-adjacent cells; never a corner cell: of
    # its zone (`door_corners` zone, the text's reading), or of its room (room: 2-cell sides excepted).
    by_zone = params.door_corners == "zone"

    def door_cell_ok(rect: Rect, cell: tuple[int, int], side: Dir) -> bool:
        return not _zone_corner(board, cell) if by_zone else _corner_ok(rect, cell, side)

    assert len(doors) == len(rooms)
    by_room = {door.rooms[1]: door for door in doors}
    passage_ends = {p.cells[-1]: p for p in passages}
    for room in rooms:
        door = by_room[room.id]
        a, b = door.cells
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
        d = next(d for d in DIRS if d.step(a) == b)
        assert door.rooms[0] == room.entered_from
        assert room.rect.contains(b) and door_cell_ok(room.rect, b, d.opposite), (room, door)
        if room.entered_from is None:  # the entrance, on the board's edge, from off the board
            assert room.id == 1
            assert not (0 <= a[0] < dungeon_cells and 0 <= a[1] < dungeon_cells)
            zone, side = params.start
            assert room.zone == zone and d.opposite == side
            continue
        origin = layout.room(room.entered_from)
        if a in passage_ends:  # beyond a secret passage: the door joins the passage's end
            passage = passage_ends[a]
            assert passage.room == origin.id and passage.to_room == room.id
            assert board.zone_of(a) == origin.zone and room.zone == board.neighbour(origin.zone, passage.face)
            assert not (by_zone and _zone_corner(board, a)), (passage, door)
        else:
            assert origin.rect.contains(a) and door_cell_ok(origin.rect, a, d), (origin, door)
        if room.filling:
            assert room.zone == origin.zone and origin.rect.contains(a)
        elif a not in passage_ends:
            assert room.zone == board.neighbour(origin.zone, d) and origin.rect.contains(a)

    # Entry and exit: a room laid beyond an exit touches its entry edge and another edge leading on.
    for room in rooms:
        if room.filling:
            continue
        door = by_room[room.id]
        entry = next(d for d in DIRS if d.step(door.cells[0]) == door.cells[1]).opposite
        edges = _edges(board, room)
        assert entry in edges, room
        if not room.boss:
            assert any(e != entry and board.leads(room.zone, e) for e in edges), room

    # Secret passages: straight, 1-3 long, from a free face through a door cell, to the zone edge,
    # towards a zone on the board; at most two a room and one a face (failed searches count).
    for passage in passages:
        origin = layout.room(passage.room)
        face = passage.face
        assert face not in _edges(board, origin)
        assert 1 <= passage.length <= 3
        start = (passage.cells[0][0] - face.dx, passage.cells[0][1] - face.dy)
        assert not _zone_corner(board, start) if by_zone else _corner_ok(origin.rect, start, face)
        for i, cell in enumerate(passage.cells):
            assert cell == face.step(start, i + 1)
            assert board.zone_of(cell) == origin.zone
        assert face.step(passage.cells[-1]) not in [c for c in board.zone_rect(origin.zone).cells()]
        assert board.leads(origin.zone, face)
    cur = session.state.current
    digging = cur.search if session.state.phase == "passage" and cur is not None else None
    for room_id, faces in session.state.searches.items():
        assert len(faces) <= 2
        found = [p for p in passages if p.room == room_id]
        waiting = int(digging is not None and digging[0] == room_id)  # found, its cell not chosen yet
        assert len(found) + waiting == sum(faces.values())
        assert len({p.face for p in found}) == len(found)


def _check_boss_rule(session: CrawlerSession, boss: Room) -> None:
    """An early boss (before room N) comes from a successful check (N >= 7, the check on) or from the
    stuck ending; otherwise the boss is room N."""
    n = session.state.size
    log = session.log
    if boss.number == n:
        return
    checks = [e for e in log if e.get("for") == "crawler.boss_check" and e["args"]["room"] == boss.number
              and e["decided"]["key"] == "crawler.boss_yes"]
    stuck = any(e.get("note") == "crawler.stuck_boss" for e in log)
    stock_out = any(e.get("note") == "crawler.stock_empty" for e in log)
    assert checks or stuck or stock_out, boss
    if checks:
        assert session.params.early_boss and n >= 7
        assert checks[-1]["roll"] == ("2d6" if n <= 12 else "3d6")
        assert checks[-1]["total"] <= boss.number

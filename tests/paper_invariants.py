"""Every invariant `paper-dungeon.md` states, checked on a paper dungeon session."""

from __future__ import annotations

import itertools
from collections import deque

from dedale.core.grid import DIRS
from dedale.paper.layout import wall_squares
from dedale.paper.model import Drawn
from dedale.paper.rules import adjust_size
from dedale.paper.session import PaperSession

CORRIDOR_KINDS = {"corridor", "trap_corridor", "crossroads", "bend_right", "bend_left", "t_junction", "stairs_up",
                  "stairs_down", "exit", "dead_end"}


def check(session: PaperSession) -> None:
    state, params, page = session.state, session.params, session.rules.page
    cells = page.cells

    # Nothing outside the page.
    assert all(page.on_page(cell) for cell in cells)

    # No card twice between reshuffles; Kings reshuffle and do not count against the budget.
    seen: set[tuple[str, str]] = set()
    kings_aside = 0
    for draw in state.draws:
        if draw.reshuffle:
            seen.clear()
            continue
        card = (draw.rank, draw.suit)
        assert card not in seen, card
        seen.add(card)
    non_kings = sum(1 for d in state.draws if not d.reshuffle and d.rank != "K")
    assert non_kings == state.cards_used <= params.max_cards
    if params.kings == "set-aside":
        for draw in state.draws:
            if draw.reshuffle:
                assert kings_aside == 4  # the fourth King reshuffles
                kings_aside = 0
            elif draw.rank == "K":
                kings_aside += 1
    else:
        kings = [i for i, d in enumerate(state.draws) if not d.reshuffle and d.rank == "K"]
        assert all(state.draws[i + 1] == Drawn(reshuffle=True) for i in kings)

    # Rooms: rule B always holds; the room as laid is no larger than its size; its squares are its own.
    for room in state.rooms:
        if room.size_dice is not None:
            assert tuple(room.size) == adjust_size(*room.size_dice)
            along = room.rect.w if room.heading.dx == 0 else room.rect.h
            depth = room.rect.h if room.heading.dx == 0 else room.rect.w
            assert along <= room.size[0] and depth <= room.size[1]
            assert len(room.exits) == room.exits_roll - 1 or (state.work and state.work.room == room.id)
            assert room.contents_roll is not None or (state.work and state.work.room == room.id)
        for cell in room.rect.cells():
            assert cells[cell] == ("room", room.feature)
        before, inside = map(tuple, room.door)  # the door: the square outside, the room's
        assert room.rect.contains(inside) and not room.rect.contains(before)
        for exit_ in room.exits:  # an exit is on its wall, never on a corner of a wall longer than 2
            cell = tuple(exit_.cell)
            assert cell in wall_squares(room.rect, room.heading, exit_.wall)
            outside = tuple(exit_.outside)
            placed = exit_.result in ("open", "joined")
            door = any({cell, outside} == set(d.squares) for d in state.doors)
            assert placed == door or exit_.result in ("taken", "lost")  # a square's door may be another's
            if exit_.result == "off_page":
                assert not page.on_page(outside)

    # Corridors: one square wide and straight, X squares unless cut short by the map or the page.
    for feature in state.features:
        if feature.kind not in CORRIDOR_KINDS or not feature.cells:
            continue
        run = [(x, y) for x, y in feature.cells]
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in itertools.pairwise(run))
        assert len({c[0] for c in run}) == 1 or len({c[1] for c in run}) == 1
        assert len(run) <= feature.dice.x
        if feature.outcome == "complete":
            assert len(run) == feature.dice.x
        if feature.kind == "trap_corridor":
            assert sum(cells[c][0] == "trap" for c in run) == 1

    # Doors join edge-adjacent squares in use (the entrance comes from off the page; a room's exit door
    # may open on an open end not explored yet).
    ends = {end.cell for end in state.open_ends} | ({state.work.end.cell} if state.work else set())
    for door in state.doors:
        a, b = door.squares
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
        assert b in cells or (door.kind == "door" and b in ends)
        assert a in cells or (door.kind == "entrance" and not page.on_page(a))

    # Open ends: free squares on the page, next to the square they come from.
    for end in state.open_ends:
        assert page.free(end.cell) and end.back in cells and end.heading.step(end.back) == end.cell

    # Every feature is connected to the start (one-way secret doors count as a way).
    assert _connected(session)


def _connected(session: PaperSession) -> bool:
    cells = session.rules.page.cells
    ways: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for door in session.state.doors:
        a, b = door.squares
        ways.setdefault(a, []).append(b)
        ways.setdefault(b, []).append(a)
    start = session.state.rooms[0].door[1][0], session.state.rooms[0].door[1][1]
    seen = {start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell not in cells:  # off the page (the entrance) or an open end: nothing beyond
            continue
        feature = cells[cell][1]
        for d in DIRS:
            other = d.step(cell)
            if other in cells and other not in seen and cells[other][1] == feature:
                seen.add(other)
                queue.append(other)
        for other in ways.get(cell, []):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return seen >= set(cells)

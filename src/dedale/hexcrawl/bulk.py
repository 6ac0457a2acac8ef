"""Exploring the rest of a large map in the spiral or breadth-first order, with numpy: the same dice, in the
same order, as `HexcrawlSession._explore` one hex at a time, and the same table and log.

The order is known before any die is rolled, so a block of hexes is explored at once:
1. its SplitMix64 outputs are computed in bulk (`core.draws`); a hex takes 4 of them (neighbour, relief,
   vegetation, obstacle chance; 3 in the weighted variant, whose one die replaces the first two), and 2 more
   (the obstacle and its place) when the chance hits, so a short loop finds where each hex's dice start;
2. the dice are read off those outputs, for every hex at once;
3. a hex that inherits its relief points at the neighbour it copies, explored before it (in the table, or
   earlier in the block): following those pointers to a hex that rolled its own relief is a few passes of
   pointer doubling. The weighted variant's relief depends on its neighbours' reliefs: one short loop.
An output `below` would reject (about one in 10**16) is left to `_explore`, which draws again as the rules do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from dedale.core import draws
from dedale.core.rng import SeededSource
from dedale.hexcrawl.hexes import DIRECTIONS

if TYPE_CHECKING:
    from dedale.hexcrawl.session import HexcrawlSession

BLOCK = 1 << 17  # hexes explored at once: a few MB of outputs
DQ = np.array([dq for _, dq, _ in DIRECTIONS])
DR = np.array([dr for _, _, dr in DIRECTIONS])


def explore_rest(session: HexcrawlSession) -> None:
    """Explore every hex left, in the parameters' order (spiral or bfs), as `_explore` would one by one."""
    params, table = session.params, session.state.hexes
    radius = params.radius
    q, r = spiral(radius) if params.order == "spiral" else breadth_first(params.start, radius)
    cells = (q + radius) * table.side + (r + radius)
    left = cells[np.frombuffer(table.cell_order, dtype=np.intc)[cells] < 0]
    block = Block(session)
    while len(left):
        left = left[block.explore(left[:BLOCK]):]


def spiral(radius: int) -> tuple[np.ndarray, np.ndarray]:
    """`hexes.spiral` as arrays of q and r: the centre, then each ring from its north hex, clockwise: ring k is
    six sides of k hexes, each from a corner along a direction."""
    rings = np.arange(1, radius + 1, dtype=np.int32)
    lengths = np.repeat(rings, 6)  # the sides, ring by ring
    corner_q = np.tile(np.array([0, 1, 1, 0, -1, -1], dtype=np.int32), radius) * lengths
    corner_r = np.tile(np.array([-1, -1, 0, 1, 1, 0], dtype=np.int32), radius) * lengths
    along_q = np.tile(np.array([1, 0, -1, -1, 0, 1], dtype=np.int32), radius)  # SE S SW NW N NE
    along_r = np.tile(np.array([0, 1, 1, 0, -1, -1], dtype=np.int32), radius)
    first = np.cumsum(lengths) - lengths  # where each side starts, after the centre
    step = np.arange(int(lengths.sum()), dtype=np.int32) - np.repeat(first.astype(np.int32), lengths)
    q = np.repeat(corner_q, lengths) + np.repeat(along_q, lengths) * step
    r = np.repeat(corner_r, lengths) + np.repeat(along_r, lengths) * step
    return np.concatenate(([0], q)).astype(np.int64), np.concatenate(([0], r)).astype(np.int64)


def breadth_first(start: tuple[int, int], radius: int) -> tuple[np.ndarray, np.ndarray]:
    """`session._breadth_first` as arrays: level by level, each level's hexes in the order the queue finds
    them (each hex of the level before, in order, then its neighbours in the die's order)."""
    side = 2 * radius + 1
    seen = np.zeros(side * side, dtype=bool)
    level_q, level_r = np.array([start[0]]), np.array([start[1]])
    seen[(start[0] + radius) * side + start[1] + radius] = True
    found_q, found_r = [level_q], [level_r]
    while len(level_q):
        q = (level_q[:, None] + DQ).ravel()
        r = (level_r[:, None] + DR).ravel()
        inside = (np.abs(q) <= radius) & (np.abs(r) <= radius) & (np.abs(q + r) <= radius)
        q, r = q[inside], r[inside]
        cells = (q + radius) * side + r + radius
        new = ~seen[cells]
        q, r, cells = q[new], r[new], cells[new]
        _, first = np.unique(cells, return_index=True)
        first.sort()
        level_q, level_r = q[first], r[first]
        seen[cells[first]] = True
        found_q.append(level_q)
        found_r.append(level_r)
    return np.concatenate(found_q), np.concatenate(found_r)


Neighbours = tuple[np.ndarray, np.ndarray, np.ndarray]  # for each hex of a block: relief, place, on the map


class Block:
    """Explores a block of hexes at once."""

    def __init__(self, session: HexcrawlSession) -> None:
        assert isinstance(session._source, SeededSource)
        self.session, self.gen = session, session._source.gen
        self.table = table = session.state.hexes
        self.radius, self.side = session.params.radius, table.side
        self.cell_order = np.frombuffer(table.cell_order, dtype=np.intc)  # never resized: a view may last
        self.place = np.full(len(table.cell_order), -1, dtype=np.intc)  # a cell's place in the block, or -1

    def explore(self, cells: np.ndarray) -> int:
        """Explore the hexes of `cells` (in order) up to the first output `below` might reject, or that hex
        alone, as the rules draw. Returns how many were explored."""
        params, session = self.session.params, self.session
        weighted = params.variant == "weighted"
        count = len(cells)
        q, r = cells // self.side - self.radius, cells % self.side - self.radius
        base = 3 if weighted else 4  # the dice every hex rolls; the obstacle and its place come after
        outputs = draws.peek(self.gen, count * (base + 2))
        chance_sides, threshold = params.obstacle_die
        # the chance, if a hex's dice began here
        hits = (outputs[base - 1:] % np.uint64(chance_sides)) < np.uint64(threshold)
        steps = (base + 2 * hits).tolist()
        starts = [0] * count
        at = 0
        for k in range(count):
            starts[k] = at
            at += steps[at]
        first = np.asarray(starts)
        self.place[cells] = np.arange(count)
        try:
            if weighted:
                around = [self.neighbours(q + dq, r + dr) for dq, dr in zip(DQ, DR, strict=True)]
                weights_sides = 8 + 4 * sum(((relief >= 0) | (place >= 0)).astype(np.int64)
                                            for relief, place, _ in around)
            sides = [8, len(session.vegetation), chance_sides, len(session.obstacles), 7]
            sides += np.unique(weights_sides).tolist() if weighted else []
            doubtful = outputs[:at] >= np.uint64(min(map(draws.limit, sides)))
            if doubtful.any():  # rare: explore up to that hex in bulk, then that hex as the rules draw
                stop = int(np.searchsorted(first, int(np.argmax(doubtful)), side="right")) - 1
                if stop > 0:
                    return self.explore(cells[:stop])
                session._explore((int(q[0]), int(r[0])))
                return 1

            def die(offset: int, faces: int | np.ndarray) -> np.ndarray:
                return draws.faces(outputs[first + offset], faces)

            if weighted:
                weights_die = die(0, weights_sides)
                neighbour_die = relief_die = inherited = np.zeros(count, dtype=np.int64)
                relief = _weighted_reliefs(weights_die, around)
            else:
                weights_die = np.zeros(count, dtype=np.int64)
                neighbour_die, relief_die = die(0, 8), die(1, 8)
                named = np.minimum(neighbour_die, 6) - 1
                relief, inherited = _inherited_reliefs(neighbour_die, relief_die,
                                                       self.neighbours(q + DQ[named], r + DR[named]))
        finally:
            self.place[cells] = -1
        vegetation_die = die(base - 2, len(session.vegetation))
        obstacle_roll = die(base - 1, chance_sides)
        hit = obstacle_roll <= threshold
        obstacle_die = np.where(hit, die(base, len(session.obstacles)), 0)
        position = np.where(hit, die(base + 1, 7), 0)
        draws.skip(self.gen, at)
        self.commit(cells, q, r, [neighbour_die, relief_die, weights_die, relief, inherited, vegetation_die,
                                  np.asarray(session.vegetation_index)[vegetation_die - 1], obstacle_roll,
                                  obstacle_die, np.asarray([0, *session.obstacle_index])[obstacle_die], position])
        return count

    def neighbours(self, nq: np.ndarray, nr: np.ndarray) -> Neighbours:
        """For each hex of the block, its neighbour at (nq, nr): its relief if explored before the block (else
        -1), its place in the block if explored earlier in it (else -1), and whether it is on the map."""
        radius = self.radius
        on = (np.abs(nq) <= radius) & (np.abs(nr) <= radius) & (np.abs(nq + nr) <= radius)
        cells = np.where(on, (nq + radius) * self.side + nr + radius, 0)
        orders = np.where(on, self.cell_order[cells], -1)
        relief = np.full(len(cells), -1, dtype=np.int64)
        relief[orders >= 0] = np.frombuffer(self.table.relief, dtype=np.uint8)[orders[orders >= 0]]
        place = np.where(on, self.place[cells], -1).astype(np.int64)
        place[place >= np.arange(len(cells))] = -1  # explored later in the block: not yet
        return relief, place, on

    def commit(self, cells: np.ndarray, q: np.ndarray, r: np.ndarray, row: list[np.ndarray]) -> None:
        """Append the block's hexes to the table and the log (with the notes for communities whose hex's
        relief clashes with what they are)."""
        session = self.session
        table, log = self.table, session.state.log
        start = len(table)
        self.cell_order[cells] = np.arange(start, start + len(cells))
        for column, values in zip((table.q, table.r, *table.columns()), (q, r, *row), strict=True):
            column.frombytes(values.astype(_DTYPES[column.typecode]).tobytes())
        homes = [(hq + self.radius) * self.side + hr + self.radius for hq, hr in session.state.settled]
        done = 0
        for k in np.flatnonzero(np.isin(cells, homes)).tolist():  # its notes come after its hex, as one by one
            log.add_hexes(start + done, start + k + 1)
            done = k + 1
            session._note_clashes((int(q[k]), int(r[k])), int(row[3][k]))
        log.add_hexes(start + done, start + len(cells))


_DTYPES = {"h": np.int16, "B": np.uint8, "H": np.uint16}


def _inherited_reliefs(neighbour_die: np.ndarray, relief_die: np.ndarray,
                       named: Neighbours) -> tuple[np.ndarray, np.ndarray]:
    """The rule: the relief of the neighbour the die names when it was explored before, else the relief die's.
    Returns the reliefs and where each came from (the die's face, or 0)."""
    known, place, _ = named
    names = neighbour_die <= 6
    relief = np.where(names & (known >= 0), known, relief_die - 1)
    up = np.where(names & (place >= 0), place, np.arange(len(relief)))
    while True:  # pointer doubling: each hex's pointer jumps to its pointer's, until all rest on a root
        further = up[up]
        if np.array_equal(further, up):
            break
        up = further
    return relief[up], np.where(names & ((known >= 0) | (place >= 0)), neighbour_die, 0)


def _weighted_reliefs(weights_die: np.ndarray, around: list[Neighbours]) -> np.ndarray:
    """The simulator's weighting, hex by hex: each relief weighs 1, plus 4 for each neighbour explored before
    with it; the die's face falls in one relief's share."""
    before = [(relief.tolist(), place.tolist()) for relief, place, _ in around]
    reliefs: list[int] = []
    for k, face in enumerate(weights_die.tolist()):
        weights = [1] * 8
        for relief, place in before:
            found = relief[k] if relief[k] >= 0 else reliefs[place[k]] if place[k] >= 0 else -1
            if found >= 0:
                weights[found] += 4
        chosen = 0
        while face > weights[chosen]:
            face -= weights[chosen]
            chosen += 1
        reliefs.append(chosen)
    return np.asarray(reliefs, dtype=np.int64)

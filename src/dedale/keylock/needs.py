"""Keys needed (`keylock.md`, hardest to reach): the fewest keys a player must pick up to get through a lock.

A player's route is summed up by the locks it passes, a set closed under parents. Its keys: where a set's
locks on the route need at most r keys, any r of that set's keys it can reach will do (they are
interchangeable), so a route costs, over every set, the most keys its locks there need. A route is
*feasible* when a player holding only the keys found behind it (or at Start) can pass all of it. Keys
needed for a lock L: the least cost of a feasible route through L. A cost is counted in bits, one a (set,
count) pair: a lock needing r keys of a set stands for the bits of counts 1 to r, so a route's cost is the
number of bits in the union of its locks' bits.

- The forced route F(L): every route through L passes L's ancestors and, where a lock needs every key of
  its set (a unique or permanent lock), the places of those keys, and so on. So F(L) is F(parent) with the
  F of those places. It lies within every feasible route through L: its cost is a lower bound, and the
  figure itself when F(L) is feasible (always, without multi-key sets). So is the figure of any lock in it.
- A feasible route G(L): F(L) when feasible; otherwise G(parent), the G of the places of the keys L needs
  when it needs every key of its set, and for a multi-key lock the G of the places of its keys, one at a time
  by the fewest bits added, among the keys the walk picked up before passing L. A union of feasible routes
  is feasible, so its cost is an upper bound. When the bounds meet, that is the figure.
- Otherwise a search (`search.py`) finds the least cost, exactly unless it runs out of its budget.

Locks are worked out in the walk's order, which passes a lock after everything it needs. Routes are Python
integers used as bit sets (cost bits, and a bit for each lock holding a multi-key set's key, to tell which
keys a route reaches); a lock's are dropped once every lock built on them is done. Without multi-key sets
this is one pass of bitwise ors, quadratic only in the worst case and fast at the largest diagrams.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dedale.keylock.model import Diagram, Node
from dedale.keylock.search import Search

SEARCH_BUDGET = 300_000  # locks the searches of one diagram may look at (about a second)
LOCK_BUDGET = 30_000  # and the search of one lock


@dataclass
class Needs:
    exact: dict[int, int] = field(default_factory=dict)  # lock id: keys needed
    unproven: dict[int, tuple[int, int]] = field(default_factory=dict)  # lock id: (at least, the fewest found)

    def figure(self, lock: int) -> int:
        """The keys needed, or the fewest found when the search could not prove it the least."""
        return self.exact[lock] if lock in self.exact else self.unproven[lock][1]


def keys_needed(diagram: Diagram, visit_order: list[int]) -> Needs:
    """Keys needed for every lock; `visit_order` is the walk's (every node, each after what it needs)."""
    return _Plan(diagram, visit_order).run()


class _Plan:
    def __init__(self, diagram: Diagram, visit_order: list[int]) -> None:
        nodes = diagram.nodes
        parent = self.parent = [n.parent or 0 for n in nodes]
        self.required = [n.required or 0 for n in nodes]
        self.visited_at = [0] * len(nodes)
        for step, node_id in enumerate(visit_order):
            self.visited_at[node_id] = step
        self.locks = [i for i in visit_order if nodes[i].type == "lock"]
        keys_of: dict[int | None, list[int]] = {}
        for node in nodes:
            if node.type == "key":
                keys_of.setdefault(node.set, []).append(node.id)
        self.set_keys = [keys_of.get(n.set, []) if n.type == "lock" else [] for n in nodes]
        # The places of the keys a lock needs when it needs all of its set's (a unique or permanent lock);
        # a lock that chooses among its set's keys (a multi-key lock) may use those the walk found before it.
        self.forced_places: dict[int, list[int]] = {}
        self.choices: dict[int, list[int]] = {}
        for lock in self.locks:
            keys, need = self.set_keys[lock], self.required[lock]
            if need >= len(keys):
                self.forced_places[lock] = [parent[k] for k in keys] if need else []
            else:
                self.choices[lock] = [parent[k] for k in keys if self.visited_at[k] < self.visited_at[lock]]
        self.place_bit = self._place_bits()
        self.count_bits = self._count_bits(nodes)
        self.alone = self._alone(nodes)
        self.search = Search(diagram)

    def _place_bits(self) -> dict[int, int]:
        """A bit for each lock holding a key of a multi-key lock's set, numbered in the walk's order."""
        holders = {self.parent[k] for lock in self.choices for k in self.set_keys[lock]} - {0}
        return {lock: 1 << index for index, lock in enumerate(sorted(holders, key=self.visited_at.__getitem__))}

    def _count_bits(self, nodes: list[Node]) -> list[tuple[int, ...]]:
        """Each lock's cost bits, (set, 1) to (set, r), numbered in the walk's order as they first appear."""
        numbered: dict[int | None, list[int]] = {}
        bits: list[tuple[int, ...]] = [()] * len(nodes)
        total = 0
        for lock in self.locks:
            counts = numbered.setdefault(nodes[lock].set, [])
            while len(counts) < self.required[lock]:
                counts.append(total)
                total += 1
            bits[lock] = tuple(counts[: self.required[lock]])
        return bits

    def _alone(self, nodes: list[Node]) -> list[bool]:
        """Whether a lock needs more keys of its set than any other lock of its set. A cheapest route through
        it, without it, is a feasible route through its parent (and its keys' places) that lacks its last
        cost bit: keys needed for it is at least one more than for those."""
        most: dict[int | None, tuple[int, int]] = {}  # by set: the most keys a lock needs, how many locks do
        for lock in self.locks:
            top, count = most.get(nodes[lock].set, (0, 0))
            need = self.required[lock]
            most[nodes[lock].set] = (need, 1) if need > top else (top, count + (need == top))
        alone = [False] * len(nodes)
        for lock in self.locks:
            alone[lock] = self.required[lock] > 0 and most[nodes[lock].set] == (self.required[lock], 1)
        return alone

    def _builds_on(self, lock: int) -> list[int]:
        """The locks whose routes make `lock`'s: its parent and the places of the keys it may need."""
        return [self.parent[lock], *self.forced_places.get(lock, ()), *self.choices.get(lock, ())]

    def run(self) -> Needs:
        uses = [0] * len(self.parent)  # how many locks still to come build on each lock's routes
        for lock in self.locks:
            for earlier in self._builds_on(lock):
                uses[earlier] += 1
        # By lock: the bits of its forced route and of a feasible one (cost, places), whether the forced
        # route is feasible, and a lower bound of its keys needed.
        self.forced: dict[int, tuple[int, int]] = {0: (0, 0)}
        self.feasible: dict[int, tuple[int, int]] = {0: (0, 0)}
        self.forced_ok: dict[int, bool] = {0: True}
        self.least: dict[int, int] = {0: 0}
        needs, budget = Needs(), SEARCH_BUDGET
        for lock in self.locks:
            low, high = self._bounds(lock)
            if low < high and budget > 0:
                allowed = min(budget, LOCK_BUDGET)
                found = self.search.least(lock, high, allowed)
                budget -= allowed - max(self.search.budget, 0)
                if found.cost < high:
                    high, self.feasible[lock] = found.cost, self._bits(found.route)
                if found.proven:
                    low = high
            if low == high:
                needs.exact[lock] = self.search.known[lock] = low
            else:
                needs.unproven[lock] = (low, high)
            self.least[lock] = low
            for earlier in (*self._builds_on(lock), lock):
                if earlier != lock:
                    uses[earlier] -= 1
                if not uses[earlier] and earlier:
                    del self.forced[earlier], self.feasible[earlier], self.forced_ok[earlier]
        return needs

    def _bounds(self, lock: int) -> tuple[int, int]:
        """The lower bound and a feasible route's cost (keeping its bits, and the forced route's, for the
        locks to come)."""
        up = self.parent[lock]
        cost, places = self.forced[up]
        ok, least = self.forced_ok[up], self.least[up]
        forced_places = self.forced_places.get(lock, ())
        for holder in forced_places:
            more_cost, more_places = self.forced[holder]
            cost, places = cost | more_cost, places | more_places
            ok, least = ok and self.forced_ok[holder], max(least, self.least[holder])
        if lock in self.choices:
            ok = ok and self._reachable(lock, places) >= self.required[lock]
        for bit in self.count_bits[lock]:
            cost |= 1 << bit
        places |= self.place_bit.get(lock, 0)
        self.forced[lock], self.forced_ok[lock] = (cost, places), ok
        low = max(least + self.alone[lock], cost.bit_count())
        if ok:  # the forced route is feasible: the cheapest
            self.feasible[lock] = self.forced[lock]
            return low, low
        cost, places = self.feasible[up]
        for holder in forced_places:
            more_cost, more_places = self.feasible[holder]
            cost, places = cost | more_cost, places | more_places
        if lock in self.choices:
            cost, places = self._choose(lock, cost, places)
        for bit in self.count_bits[lock]:
            cost |= 1 << bit
        self.feasible[lock] = (cost, places | self.place_bit.get(lock, 0))
        return low, cost.bit_count()

    def _reachable(self, lock: int, places: int) -> int:
        """The keys of `lock`'s set a route passing `places` reaches."""
        return sum(1 for key in self.set_keys[lock]
                   if not self.parent[key] or places & self.place_bit[self.parent[key]])

    def _choose(self, lock: int, cost: int, places: int) -> tuple[int, int]:
        """Add the places of keys `lock` needs, the cheapest first, among those the walk found before it."""
        holders = set(self.choices[lock]) - {0}
        while self._reachable(lock, places) < self.required[lock]:
            holder = min((h for h in holders if not places & self.place_bit[h]),
                         key=lambda h: ((self.feasible[h][0] & ~cost).bit_count(), self.visited_at[h]))
            more_cost, more_places = self.feasible[holder]
            cost, places = cost | more_cost, places | more_places
        return cost, places

    def _bits(self, route: frozenset[int]) -> tuple[int, int]:
        cost = places = 0
        for lock in route:
            for bit in self.count_bits[lock]:
                cost |= 1 << bit
            places |= self.place_bit.get(lock, 0)
        return cost, places

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
  figure itself when F(L) is feasible (always, without multi-key sets). So is the figure of any lock in it;
  and a lock needing more keys of its set than any other of its set costs one more than its parent.
- A feasible route G(L): F(L) when feasible; otherwise G(parent), the G of the places of the keys L needs
  when it needs every key of its set, and for a multi-key lock the G of the places of its keys, one at a time
  by the fewest bits added, among the keys the walk picked up before passing L. A union of feasible routes
  is feasible, so its cost is an upper bound. When the bounds meet, that is the figure.
- Otherwise a search (`search.py`) finds the least cost, exactly unless it runs out of its budget.

Locks are worked out in the walk's order, which passes a lock after everything it needs. Routes are Python
integers used as bit sets (the cost bits, and a bit for each lock holding a key of a multi-key set, to tell
which keys a route reaches); a lock's are dropped once every lock built on them is done. Without multi-key
sets this is one pass of bitwise ors: quadratic in the worst case, but fast at the largest diagrams.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from dedale.keylock.model import Diagram, Node
from dedale.keylock.search import Search

SEARCH_BUDGET = 120_000  # locks the searches of one diagram may look at (a tenth of a second)
LOCK_BUDGET = 10_000  # and the search of one lock


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
        self.diagram = diagram
        nodes = diagram.nodes
        size = len(nodes)
        parent = self.parent = [n.parent or 0 for n in nodes]
        required = self.required = [n.required or 0 for n in nodes]
        visited_at = self.visited_at = [0] * size
        for step, node_id in enumerate(visit_order):
            visited_at[node_id] = step
        self.locks = [i for i in visit_order if nodes[i].type == "lock"]
        keys_of: dict[int | None, list[int]] = {}
        for node in nodes:
            if node.type == "key":
                keys_of.setdefault(node.set, []).append(node.id)
        # By node id (lists rather than dicts: read once or twice a lock, tens of thousands of times):
        self.set_keys: list[list[int]] = [[]] * size  # a lock's set's keys
        # The places of the keys a lock needs when it needs every key of its set (a unique or permanent lock).
        self.forced_places: list[tuple[int, ...]] = [()] * size
        self.count_bits: list[list[int]] = [[]] * size  # a lock's cost bits, numbered as they first appear
        # By multi-key lock: the places of the keys the walk found before it, among which it chooses.
        self.choices: dict[int, list[int]] = {}
        numbered: dict[int | None, list[int]] = {}  # by set: the bits of counts 1, 2...
        made = 0
        set_keys, forced_places, count_bits = self.set_keys, self.forced_places, self.count_bits
        place_of = parent.__getitem__
        for lock in self.locks:
            need, key_set = required[lock], nodes[lock].set
            keys = set_keys[lock] = keys_of.get(key_set, [])
            if need >= len(keys):
                forced_places[lock] = tuple(map(place_of, keys)) if need else ()
            else:
                self.choices[lock] = [parent[k] for k in keys if visited_at[k] < visited_at[lock]]
            counts = numbered.get(key_set)
            if counts is None:
                counts = numbered[key_set] = []
            while len(counts) < need:
                counts.append(made)
                made += 1
            count_bits[lock] = counts[:need]
        holders = {parent[k] for lock in self.choices for k in self.set_keys[lock]} - {0}
        self.place_bit = {lock: index for index, lock in enumerate(sorted(holders, key=visited_at.__getitem__))}
        # By multi-key lock's set: its keys at Start, and the bits of their other places, by how many keys each holds
        self.reach: dict[int | None, tuple[int, dict[int, int]]] = {}
        masks: dict[int, int]
        for lock in self.choices:
            if nodes[lock].set not in self.reach:
                at_start, masks = 0, {}
                for place, count in Counter(parent[key] for key in self.set_keys[lock]).items():
                    if place == 0:
                        at_start = count
                    elif place in self.place_bit:
                        masks[count] = masks.get(count, 0) | 1 << self.place_bit[place]
                self.reach[nodes[lock].set] = (at_start, masks)
        self.search: Search | None = None

    def _alone(self, nodes: list[Node]) -> list[bool]:
        """By node: whether it is a lock needing more keys of its set than any other lock of it. A cheapest
        route through such a lock, without it, is a feasible route through its parent (and its keys' places)
        lacking its last cost bit: keys needed for it is at least one more than for those."""
        most: dict[int | None, tuple[int, int]] = {}  # by set: the most keys a lock needs, how many locks do
        for lock in self.locks:
            top, count = most.get(nodes[lock].set, (0, 0))
            need = self.required[lock]
            most[nodes[lock].set] = (need, 1) if need > top else (top, count + (need == top))
        alone = [False] * len(nodes)
        for lock in self.locks:
            alone[lock] = bool(self.required[lock]) and most[nodes[lock].set] == (self.required[lock], 1)
        return alone

    def run(self) -> Needs:
        return self._forced_only() if not self.choices else self._bounded()

    def _forced_only(self) -> Needs:
        """Without multi-key locks every forced route is feasible: a lock's keys needed is its forced route's
        cost (what `_bounded` finds, in one pass of bitwise ors)."""
        parent, forced_places, count_bits = self.parent, self.forced_places, self.count_bits
        cost_of = [0] * len(parent)  # by lock, while locks to come build on it
        uses = [0] * len(parent)
        for lock in self.locks:
            uses[parent[lock]] += 1
            for holder in forced_places[lock]:
                uses[holder] += 1
        needs = Needs()
        for lock in self.locks:
            up = parent[lock]
            cost = cost_of[up]
            for holder in forced_places[lock]:
                cost |= cost_of[holder]
                uses[holder] -= 1
                if not uses[holder]:  # let the big integers go
                    cost_of[holder] = 0
            for bit in count_bits[lock]:
                cost |= 1 << bit
            needs.exact[lock] = cost.bit_count()
            uses[up] -= 1
            if not uses[up]:
                cost_of[up] = 0
            if uses[lock]:
                cost_of[lock] = cost
        return needs

    def _bounded(self) -> Needs:
        """Bounds for every lock, and the search where they do not meet."""
        size = len(self.parent)
        self.alone = self._alone(self.diagram.nodes)
        # By lock: the locks whose routes make its own, its parent and the places of the keys it may need;
        # and how many locks still to come build on each lock's routes.
        builds_on = {lock: [self.parent[lock], *self.forced_places[lock], *self.choices.get(lock, ())]
                     for lock in self.locks}
        uses = [0] * size
        for earlier_locks in builds_on.values():
            for earlier in earlier_locks:
                uses[earlier] += 1
        # By node id, for the locks done and still built on: the bits of its forced route's cost and places,
        # whether that route is feasible, a feasible route's bits, and a lower bound of its keys needed.
        self.forced_cost: list[int] = [0] * size
        self.forced_places_bits: list[int] = [0] * size
        self.forced_ok = [True] * size
        self.feasible_cost: list[int] = [0] * size
        self.feasible_places: list[int] = [0] * size
        self.least = [0] * size
        needs, budget = Needs(), SEARCH_BUDGET
        for lock in self.locks:
            low, high = self._bounds(lock)
            if low < high and budget > 0:
                if self.search is None:
                    self.search = Search(self.diagram)
                allowed = min(budget, LOCK_BUDGET)
                found = self.search.least(lock, high, allowed)
                budget -= allowed - max(self.search.budget, 0)
                if found.cost < high:
                    high = found.cost
                    self.feasible_cost[lock], self.feasible_places[lock] = self._bits(found.route)
                if found.proven:
                    low = high
            if low == high:
                needs.exact[lock] = low
                if self.search is not None:
                    self.search.known[lock] = low
            else:
                needs.unproven[lock] = (low, high)
            self.least[lock] = low
            for earlier in builds_on[lock]:
                uses[earlier] -= 1
            for earlier in (*builds_on[lock], lock):
                if not uses[earlier] and earlier:  # let the big integers go
                    self.forced_cost[earlier] = self.forced_places_bits[earlier] = 0
                    self.feasible_cost[earlier] = self.feasible_places[earlier] = 0
        return needs

    def _bounds(self, lock: int) -> tuple[int, int]:
        """The lower bound and a feasible route's cost (keeping its bits, and the forced route's, for the
        locks to come)."""
        up, forced_cost, forced_places_bits, forced_ok, least_of = (
            self.parent[lock], self.forced_cost, self.forced_places_bits, self.forced_ok, self.least)
        cost, places, ok, least = forced_cost[up], forced_places_bits[up], forced_ok[up], least_of[up]
        forced_places = self.forced_places[lock]
        for holder in forced_places:
            cost |= forced_cost[holder]
            places |= forced_places_bits[holder]
            ok, least = ok and forced_ok[holder], max(least, least_of[holder])
        if lock in self.choices:
            ok = ok and self._reachable(lock, places) >= self.required[lock]
        cost |= self._cost_mask(lock)
        places |= self._place_mask(lock)
        forced_cost[lock], forced_places_bits[lock], forced_ok[lock] = cost, places, ok
        low = max(least + self.alone[lock], cost.bit_count())
        if ok:  # the forced route is feasible: the cheapest
            self.feasible_cost[lock], self.feasible_places[lock] = cost, places
            return low, low
        cost, places = self.feasible_cost[up], self.feasible_places[up]
        for holder in forced_places:
            cost |= self.feasible_cost[holder]
            places |= self.feasible_places[holder]
        if lock in self.choices:
            cost, places = self._choose(lock, cost, places)
        cost |= self._cost_mask(lock)
        places |= self._place_mask(lock)
        self.feasible_cost[lock], self.feasible_places[lock] = cost, places
        return low, cost.bit_count()

    def _passes(self, places: int, lock: int) -> bool:
        """Whether a route passing `places` passes `lock` (Start, or a lock holding a multi-key set's key)."""
        index = self.place_bit.get(lock)
        return lock == 0 or (index is not None and places >> index & 1 == 1)

    def _reachable(self, lock: int, places: int) -> int:
        """The keys of `lock`'s set a route passing `places` reaches."""
        at_start, masks = self.reach[self.diagram.nodes[lock].set]
        return at_start + sum(count * (places & mask).bit_count() for count, mask in masks.items())

    def _choose(self, lock: int, cost: int, places: int) -> tuple[int, int]:
        """Add the places of keys `lock` needs, the cheapest first, among those the walk found before it."""
        holders = set(self.choices[lock]) - {0}
        while self._reachable(lock, places) < self.required[lock]:
            holder = min((h for h in holders if not self._passes(places, h)),
                         key=lambda h: ((self.feasible_cost[h] & ~cost).bit_count(), self.visited_at[h]))
            cost |= self.feasible_cost[holder]
            places |= self.feasible_places[holder]
        return cost, places

    def _bits(self, route: frozenset[int]) -> tuple[int, int]:
        cost = places = 0
        for lock in route:
            cost |= self._cost_mask(lock)
            places |= self._place_mask(lock)
        return cost, places

    # Masks made when needed, not kept: a bit numbered in the tens of thousands is an integer of kilobytes.
    def _cost_mask(self, lock: int) -> int:
        mask = 0
        for bit in self.count_bits[lock]:
            mask |= 1 << bit
        return mask

    def _place_mask(self, lock: int) -> int:
        index = self.place_bit.get(lock)
        return 0 if index is None else 1 << index

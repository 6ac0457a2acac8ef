"""The search for keys needed when the bounds of `needs.py` do not meet: a branch and bound over routes.

A route is a set of locks closed under parents and under the places of the keys its unique and permanent
locks need (a union of forced routes F). The search starts from F(L). If a player holding only what it
finds there cannot pass all of it, some multi-key lock M of the route is stuck, and every feasible route
holding this one also passes the place of a key of a stuck set that this one lacks: the first stuck lock
such a route gets through needs one. When every key of M's set lying within the route (not behind M) is
already reached, that first lock may be taken to be M, and only the places of M's set's keys are tried;
otherwise those of every stuck set. Each branch adds one place with its F. The branches are kept apart: the
i-th adds the i-th place and never the ones before it, so no route is met twice. A branch is cut when its
cost, or the keys needed for a lock it passes (known for the locks worked out before), reaches the best
feasible route found.

Finding the least cost is NP-hard in general (vertex cover reduces to it, a two-key multi-key set an edge),
so the search has a budget, counted in locks looked at. When it runs out, the best route found so far is
all the search gives, unproven.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from dedale.keylock.model import Diagram

MAX_DEPTH = 400  # places added along one branch: well within Python's recursion limit
Option = tuple[int, frozenset[int], set[int]]  # a place a branch may add: its bound, the locks it adds, their cost bits


@dataclass
class Found:
    cost: int
    route: frozenset[int]  # the locks of the cheapest feasible route found (empty: none better than given)
    proven: bool  # whether no route is cheaper


class _OutOfBudget(Exception):
    pass


class Search:
    def __init__(self, diagram: Diagram) -> None:
        self.diagram = diagram
        self.nodes = diagram.nodes
        self.parent = [n.parent or 0 for n in diagram.nodes]
        self.required = [n.required or 0 for n in diagram.nodes]
        self.set_of = [n.set for n in diagram.nodes]
        self.keys_of: dict[int | None, list[int]] = {}
        self.key_sets_under: dict[int, list[int | None]] = {}  # by node: the sets of the keys right behind it
        for node in self.nodes:
            if node.type == "key":
                self.keys_of.setdefault(node.set, []).append(node.id)
                self.key_sets_under.setdefault(self.parent[node.id], []).append(node.set)
        self.sets_under = {place: frozenset(sets) for place, sets in self.key_sets_under.items()}
        self.set_places = {key_set: tuple(self.parent[key] for key in keys) for key_set, keys in self.keys_of.items()}
        # A route's cost bits, one a (set, count) pair, as numbers: a set's counts 1, 2... from its `first_bit` on.
        most: dict[int | None, int] = {}
        for node in self.nodes:
            if node.type == "lock":
                most[node.set] = max(most.get(node.set, 0), self.required[node.id])
        self.first_bit: dict[int | None, int] = {}
        numbered = 0
        for key_set, count in most.items():
            self.first_bit[key_set] = numbered
            numbered += count
        self.forced: dict[int, frozenset[int]] = {}
        self.key_places: dict[int, frozenset[int]] = {}  # by lock: the places of its set's keys not behind it
        self.known: dict[int, int] = {}  # keys needed, for the locks worked out so far
        self.budget = 0
        self.best = Found(0, frozenset(), True)

    def least(self, lock: int, high: int, budget: int) -> Found:
        """The cheapest feasible route through `lock`, given that one costs `high`."""
        self.best, self.budget = Found(high, frozenset(), True), budget
        try:
            start = self.forced_route(lock)
            self._branch(start, self._most(start), frozenset(), 0)
        except _OutOfBudget:
            self.best.proven = False
        return self.best

    def forced_route(self, lock: int) -> frozenset[int]:
        """F(lock): the lock, its ancestors, and the F of the places of the keys its unique and permanent
        locks need."""
        found = self.forced.get(lock)
        if found is None:
            route: set[int] = set()
            stack = [lock]
            while stack:
                current = stack.pop()
                while current and current not in route:
                    route.add(current)
                    keys = self.keys_of.get(self.nodes[current].set, [])
                    if 0 < self.required[current] >= len(keys):
                        stack.extend(self.parent[k] for k in keys)
                    current = self.parent[current]
            self._spend(len(route))
            found = self.forced[lock] = frozenset(route)
        return found

    def _most(self, route: frozenset[int]) -> dict[int | None, int]:
        """The most keys of each set a lock of `route` needs: the route costs their sum."""
        most: dict[int | None, int] = {}
        for lock in route:
            key_set = self.nodes[lock].set
            most[key_set] = max(most.get(key_set, 0), self.required[lock])
        return most

    def _spend(self, amount: int) -> None:
        self.budget -= amount
        if self.budget < 0:
            raise _OutOfBudget

    def _branch(self, route: frozenset[int], most: dict[int | None, int], banned: frozenset[int],
                depth: int) -> None:
        self.budget -= 2 * len(route)  # its cost, then a player's exploration of it
        if self.budget < 0 or depth > MAX_DEPTH:
            raise _OutOfBudget
        cost = sum(most.values())
        if cost >= self.best.cost:
            return
        groups = self._places(route)
        if groups is None:
            self.best = Found(cost, route, True)
            return
        options: dict[int, Option] = {}
        set_of, required, first_bit = self.set_of, self.required, self.first_bit
        before, known = most.get, self.known.get
        forced = self.forced
        for place in sorted(set().union(*groups) - banned):  # adding a place: its bound, its locks, its cost bits
            added = (forced.get(place) or self.forced_route(place)) - route
            self.budget -= len(added)
            if self.budget < 0:
                raise _OutOfBudget
            if added & banned:
                continue
            bits: set[int] = set()
            bound = cost  # then the most keys needed known for one of its locks
            for lock in added:
                key_set = set_of[lock]
                if (need := required[lock]) > (had := before(key_set, 0)):
                    bits.update(range(first_bit[key_set] + had, first_bit[key_set] + need))
                bound = max(bound, known(lock, 0))
            options[place] = (max(bound, cost + len(bits)), added, bits)
        if self._least(cost, groups, options) >= self.best.cost:
            return
        fewest = min(groups, key=lambda group: (len(group & options.keys()), sorted(group)))
        children = sorted((options[place][0], place) for place in fewest if place in options)
        skipped: set[int] = set(banned)
        for bound, place in children:
            if bound >= self.best.cost:
                break
            _, added, _ = options[place]
            if not added & skipped:
                merged = dict(most)
                for lock in added:
                    if required[lock] > merged.get(set_of[lock], 0):
                        merged[set_of[lock]] = required[lock]
                self._branch(route | added, merged, frozenset(skipped), depth + 1)
            skipped.add(place)

    @staticmethod
    def _least(cost: int, groups: list[frozenset[int]], options: dict[int, Option]) -> int:
        """A lower bound of any feasible route holding this one: each group needs one of its places, at the
        least of their costs; groups whose places add no cost bit in common add up."""
        least, total = cost, cost
        used: set[int] = set()
        fits = []  # by group: the fewest bits one of its places adds, and all they may add
        for group in groups:
            lowest, fewest, union = sys.maxsize, sys.maxsize, set()
            for place in group:
                if (option := options.get(place)) is not None:
                    bound, _, bits = option
                    lowest, fewest = min(lowest, bound), min(fewest, len(bits))
                    union |= bits
            if lowest == sys.maxsize:
                return sys.maxsize  # no feasible route holds this one
            least = max(least, lowest)
            fits.append((fewest, union))
        for extra, bits in sorted(fits, key=lambda fit: (-fit[0], len(fit[1]))):
            if not bits & used:
                total += extra
                used |= bits
        return max(least, total)

    def _places(self, route: frozenset[int]) -> list[frozenset[int]] | None:
        """None if a player holding only keys found within `route` passes all of it; otherwise groups of
        places (locks outside it): every feasible route holding it passes one place of each group."""
        set_of, required, key_sets_under, sets_under = self.set_of, self.required, self.key_sets_under, self.sets_under
        set_places, parent = self.set_places, self.parent.__getitem__
        # the route's locks by parent (each parent's in the route's order)
        behind: dict[int, list[int]] = {}
        for lock in route:
            behind.setdefault(parent(lock), []).append(lock)
        # A player's keys of a set: those behind the nodes explored so far (`done`). Most keys found open no lock of
        # the route: they are counted when a lock of the route asks, and kept up to date once a lock of their set
        # waits.
        held: dict[int | None, int] = {}
        waiting: dict[int | None, list[int]] = {}  # the locks that had to wait for keys, by set, as they came
        # The same by the keys they need: keys are found one at a time, so a lock opens when they are as many.
        opening: dict[int | None, dict[int, list[int]]] = {}
        frontier, passed, done = [0], {0}, set()
        self.budget -= len(key_sets_under.get(0, ()))
        if self.budget < 0:
            raise _OutOfBudget
        while frontier:
            here = frontier.pop()
            done.add(here)
            if held and (under := sets_under.get(here)) and not held.keys().isdisjoint(under):
                for key_set in key_sets_under[here]:
                    if key_set in held:
                        count = held[key_set] = held[key_set] + 1
                        if (by_need := opening.get(key_set)) and (opened := by_need.pop(count, None)):
                            frontier += opened
                            passed.update(opened)
            for lock in behind.get(here, ()):
                key_set = set_of[lock]
                count = held.get(key_set, -1)
                if count < 0:
                    count = sum(map(done.__contains__, set_places.get(key_set, ())))
                if count >= required[lock]:
                    frontier.append(lock)
                    passed.add(lock)
                else:
                    held[key_set] = count
                    waiting.setdefault(key_set, []).append(lock)
                    opening.setdefault(key_set, {}).setdefault(required[lock], []).append(lock)
        if len(passed) == len(route) + 1:
            return None
        stuck = [lock for locks in waiting.values() for lock in locks
                 if lock not in passed and required[lock] < len(set_places.get(set_of[lock], ()))]
        every: set[int] = set()
        groups: dict[int | None, frozenset[int]] = {}
        for lock in stuck:
            places = self._key_places(lock)
            outside = places - route - {0}
            every |= outside
            if (places - outside) <= passed:  # otherwise a key behind another stuck lock might do instead
                groups[set_of[lock]] = outside
        return list(groups.values()) or [frozenset(every)]

    def _key_places(self, lock: int) -> frozenset[int]:
        """The places of the keys of `lock`'s set that do not lie behind it (worked out once a lock)."""
        found = self.key_places.get(lock)
        if found is None:
            places = (self.parent[key] for key in self.keys_of[self.set_of[lock]])
            found = self.key_places[lock] = frozenset(place for place in places if not self._behind(place, lock))
        return found

    def _behind(self, place: int, lock: int) -> bool:
        """Whether `place` is `lock` or lies behind it."""
        while place:
            if place == lock:
                return True
            place = self.parent[place]
        return False

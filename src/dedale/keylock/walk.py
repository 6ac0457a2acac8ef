"""The walk of the analysis (`keylock.md`): a player leaves Start, always heads for the nearest object it
can visit and has not visited (lines walked; ties by placement order, then id), picks up keys and passes
open locks, until nothing is left. Done in one pass, without a search from scratch at every step.

What the walker may visit next is always a child of a node already visited: a key, or a lock whose keys
are in hand. Every visited node `v` keeps `nearest[v]`, the closest such object in its own subtree, as one
number `distance * size + rank` (rank: placement order, then id), so that comparing numbers compares
(distance, order, id). A node's number is the least of its children's numbers plus one line: each visited
node keeps its children's numbers in a heap, where an entry is stale once that child's number changed and
is dropped when it comes to the top. A change climbs only as far as it changes something. The nearest
object from the walker is then the least of `nearest[a] + distance to a` over its ancestors `a`, and the
climb stops as soon as an ancestor is too far to beat what it has found.
"""

from __future__ import annotations

from dataclasses import dataclass
from heapq import heapify, heappop, heappush

from dedale.core.errors import DedaleError
from dedale.keylock.model import Diagram, Walked


@dataclass
class Walk:
    steps: int
    revisits: int
    order: list[int]  # node ids in the order visited, Start first
    lines_walked_again: list[int]  # a line is named by its lower node
    first_passed: dict[int, int]  # lock id: the steps walked when the walk got through it

    def figures(self) -> Walked:
        """What a document says of it."""
        return Walked(self.steps, self.revisits, self.order, self.lines_walked_again)


def walk(diagram: Diagram) -> Walk:
    nodes, children = diagram.nodes, diagram.children
    size = len(nodes)
    parent = [-1 if n.parent is None else n.parent for n in nodes]
    required = [n.required or 0 for n in nodes]
    set_of = [n.set for n in nodes]
    is_key = [n.type == "key" for n in nodes]
    by_rank = diagram.by_rank
    rank = [0] * size
    for position, node_id in enumerate(by_rank):
        rank[node_id] = position
    far = (size + 1) * size * 2  # more than any distance * size + rank in the tree
    nearest = [far] * size  # a candidate: its rank; a visited node: its subtree's best; otherwise far
    heaps: list[list[int]] = [[] for _ in range(size)]  # entries (nearest[kid] + size) * size + kid
    held: dict[int | None, int] = {}  # keys in hand, by set
    closed: dict[int | None, list[int]] = {}  # locks next to the visited part, waiting for keys, by set

    def improve(node: int) -> None:
        """`nearest[node]` changed: tell its parent, and on up while the parent's own best changes."""
        while node:
            up = parent[node]
            heap = heaps[up]
            if nearest[node] < far:
                heappush(heap, (nearest[node] + size) * size + node)
            while heap:
                top = heap[0]
                if nearest[top % size] + size == top // size:
                    break
                heappop(heap)
            best = heap[0] // size if heap else far
            if best == nearest[up]:
                return
            nearest[up] = best
            node = up

    def arrive(node: int) -> None:
        """The walker is at `node` for the first time: its children become candidates or wait for keys."""
        heap = heaps[node]
        for kid in children.get(node, ()):
            if is_key[kid] or held.get(set_of[kid], 0) >= required[kid]:
                nearest[kid] = rank[kid]
                heap.append((rank[kid] + size) * size + kid)
            else:
                closed.setdefault(set_of[kid], []).append(kid)
        heapify(heap)
        nearest[node] = heap[0] // size if heap else far
        improve(node)
        if is_key[node]:
            key_set = set_of[node]
            held[key_set] = count = held.get(key_set, 0) + 1
            waiting = closed.get(key_set)
            if waiting:
                closed[key_set] = [lock for lock in waiting if required[lock] > count]
                for lock in waiting:
                    if required[lock] <= count:
                        nearest[lock] = rank[lock]
                        improve(lock)

    # A line is walked again exactly when the walker climbs it: it first goes down it, and can only go
    # down it again after climbing it.
    climbed = [False] * size
    order, first_passed = [0], {}
    steps, position = 0, 0
    arrive(0)
    for _ in range(size - 1 - len(diagram.never_open())):  # every node but the locks no one can open
        found, meeting, distance, ancestor = nearest[position], position, 1, position
        while ancestor and (distance + 1) * size <= found:  # an ancestor's subtree might hold a nearer one
            ancestor = parent[ancestor]
            through = distance * size + nearest[ancestor]
            if through < found:  # the nearest so far, and where the way to it turns down
                found, meeting = through, ancestor
            distance += 1
        if found >= far:
            raise DedaleError("error.keylock_unsolvable", count=size - len(order))
        while position != meeting:
            climbed[position] = True
            position = parent[position]
        position = by_rank[found % size]
        steps += found // size
        order.append(position)
        if not is_key[position]:
            first_passed[position] = steps
        arrive(position)
    again = [line for line in range(1, size) if climbed[line]]
    return Walk(steps, steps - (len(order) - 1), order, again, first_passed)  # less the first walk to each

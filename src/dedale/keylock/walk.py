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
from dedale.keylock.model import Diagram


@dataclass
class Walk:
    steps: int
    revisits: int
    order: list[int]  # node ids in the order visited, Start first
    lines_walked_again: list[int]  # a line is named by its lower node
    first_passed: dict[int, int]  # lock id: the steps walked when the walk got through it

    def to_json(self) -> dict[str, object]:
        return {"steps": self.steps, "revisits": self.revisits, "order": self.order,
                "lines_walked_again": self.lines_walked_again}


def walk(diagram: Diagram) -> Walk:
    nodes, kids = diagram.nodes, diagram.kids
    size = len(nodes)
    parent = [-1 if n.parent is None else n.parent for n in nodes]
    required = [n.required or 0 for n in nodes]
    set_of = [n.set for n in nodes]
    is_key = [n.type == "key" for n in nodes]
    by_rank = sorted(range(size), key=lambda i: (nodes[i].order or 0, i))
    rank = [0] * size
    for position, node_id in enumerate(by_rank):
        rank[node_id] = position
    depth = [0] * size
    for node_id in _top_down(diagram):
        for kid in kids(node_id):
            depth[kid] = depth[node_id] + 1

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
        for kid in kids(node):
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

    walked = [0] * size
    order, first_passed = [0], {}
    steps, position = 0, 0
    arrive(0)
    for _ in range(size - 1):
        found, distance, ancestor = nearest[position], 1, position
        while ancestor and (distance + 1) * size <= found:  # an ancestor's subtree might hold a nearer one
            ancestor = parent[ancestor]
            through = distance * size + nearest[ancestor]
            if through < found:
                found = through
            distance += 1
        if found >= far:
            raise DedaleError("error.keylock_unsolvable", count=size - len(order))
        target = by_rank[found % size]
        steps += _walk_lines(position, target, parent, depth, walked)
        position = target
        order.append(target)
        if not is_key[target]:
            first_passed[target] = steps
        arrive(target)
    again = [line for line in range(1, size) if walked[line] > 1]
    return Walk(steps, steps - (size - 1), order, again, first_passed)


def _walk_lines(start: int, end: int, parent: list[int], depth: list[int], walked: list[int]) -> int:
    """Walk from `start` to `end` along the tree, counting each line; the number of lines walked."""
    a, b, lines = start, end, 0
    while a != b:
        if depth[a] >= depth[b]:
            walked[a] += 1
            a = parent[a]
        else:
            walked[b] += 1
            b = parent[b]
        lines += 1
    return lines


def _top_down(diagram: Diagram) -> list[int]:
    """Node ids, each after its parent."""
    found, index = [0], 0
    while index < len(found):
        found.extend(diagram.kids(found[index]))
        index += 1
    return found

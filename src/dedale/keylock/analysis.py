"""The designer's analysis of a diagram (beyond the seed's tool, `keylock.md`):

- the walk: a player starts at Start, moves along the tree's lines (a step a line), picks up every key it
  reaches and passes every open lock, always heading for the nearest object it can reach and has not
  visited (tree distance; ties by placement order); its steps, its order of visits, and its back-and-forth
  (steps along lines already walked);
- the hardest locks to reach, ranked by the keys that must be collected before they open, then by the
  walk's steps before it first passes them: the first is the suggested end;
- the empty locks, with nothing behind them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from dedale.keylock.model import Diagram


def analyse(diagram: Diagram) -> dict[str, Any]:
    walk, first_passed = _walk(diagram)
    needs = _needs(diagram)
    locks = [n.id for n in diagram.nodes if n.type == "lock"]
    ranked = sorted(locks, key=lambda i: (-len(needs[i]), -first_passed[i], i))
    return {
        "empty_locks": [i for i in locks if not diagram.kids(i)],
        "end_candidates": ranked,
        "keys_needed": {str(i): len(needs[i]) for i in locks},
        "walk": walk,
    }


def _walk(diagram: Diagram) -> tuple[dict[str, Any], dict[int, int]]:
    nodes = diagram.nodes
    visited = [False] * len(nodes)
    visited[0] = True
    keys: Counter[int | None] = Counter()  # by set (a node's set is None for Start only)
    walked: Counter[int] = Counter()  # a line is named by its lower node
    position, steps, order = 0, 0, [0]
    first_passed: dict[int, int] = {}

    def can_visit(node_id: int) -> bool:
        node = nodes[node_id]
        return node.type == "key" or keys[node.set] >= (node.required or 0)

    for _ in range(len(nodes) - 1):
        target, came_from = _nearest(diagram, position, visited, can_visit)
        path = []
        current = target
        while current != position:
            path.append(current)
            current = came_from[current]
        for a in path:  # each step walks the line between a node and the one before it on the path
            b = came_from[a]
            walked[a if nodes[a].parent == b else b] += 1
        steps += len(path)
        position = target
        visited[target] = True
        order.append(target)
        if nodes[target].type == "key":
            keys[nodes[target].set] += 1
        else:
            first_passed[target] = steps
    revisits = sum(count - 1 for count in walked.values())
    again = sorted(line for line, count in walked.items() if count > 1)
    return {"steps": steps, "revisits": revisits, "order": order, "lines_walked_again": again}, first_passed


def _nearest(diagram: Diagram, start: int, visited: list[bool],
             can_visit: Any) -> tuple[int, dict[int, int]]:
    """Breadth-first from `start` over visited nodes: the nearest object one can visit (ties: placement
    order), and the way back from it."""
    nodes = diagram.nodes
    came_from = {start: start}
    frontier = [start]
    while frontier:
        found = []
        following = []
        for v in frontier:
            parent = nodes[v].parent
            for w in ([parent] if parent is not None else []) + diagram.kids(v):
                if w in came_from:
                    continue
                if visited[w]:
                    came_from[w] = v
                    following.append(w)
                elif can_visit(w):  # an unvisited child of a visited node
                    came_from[w] = v
                    found.append(w)
        if found:
            return min(found, key=lambda w: (nodes[w].order, w)), came_from
        frontier = following
    raise AssertionError("the diagram is solvable by construction")


def _needs(diagram: Diagram) -> dict[int, set[int]]:
    """For each node, the keys that must be collected to reach it (and, for a lock, to pass it): its
    parent's, and for a lock those of the keys it needs (for a multi-key lock, its cheapest keys known).
    Worked out in waves: every key whose parent is known, then every lock whose parent and keys are."""
    nodes = diagram.nodes
    keys_of: dict[int | None, list[int]] = {}  # by set
    for node in nodes:
        if node.type == "key":
            keys_of.setdefault(node.set, []).append(node.id)
    needs: dict[int, set[int]] = {0: set()}
    pending = [n for n in nodes[1:]]
    while pending:
        for node in pending:
            if node.type == "key" and node.parent in needs:
                needs[node.id] = needs[node.parent]
        waiting = []
        for node in pending:
            if node.id in needs:
                continue
            options = [k for k in keys_of.get(node.set, []) if k in needs]
            if node.type == "lock" and node.parent in needs and len(options) >= (node.required or 0):
                chosen = sorted(options, key=lambda k: (len(needs[k] | {k}), nodes[k].order))[: node.required]
                needs[node.id] = needs[node.parent].union(*(needs[k] | {k} for k in chosen))
            else:
                waiting.append(node)
        if len(waiting) == len(pending):
            raise AssertionError("the diagram is solvable by construction")
        pending = waiting
    return needs

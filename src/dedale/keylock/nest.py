"""Nesting (`keylock.md`, using the diagram): a generated diagram can be a linear obstacle on a line of a
larger one, one way in and one way out, provided its keys serve nowhere else.

The line from a node's parent P to the node C becomes: P, then the inner diagram (what its Start held now
hangs from P), with C behind the inner diagram's suggested end. Everything C held still follows C; the
inner diagram's sets and nodes are renumbered after the outer's, so its keys open only its own locks."""

from __future__ import annotations

from dedale.core.errors import DedaleError
from dedale.keylock.analysis import analyse
from dedale.keylock.model import Diagram, KeySet, Node


def nest(outer: Diagram, inner: Diagram, edge: int) -> Diagram:
    if not 0 < edge < len(outer.nodes):
        raise DedaleError("error.edge", value=edge, high=len(outer.nodes) - 1)
    if not any(n.type == "lock" for n in inner.nodes):
        raise DedaleError("error.nest_no_lock")
    set_offset, node_offset = len(outer.sets), len(outer.nodes) - 1
    order_offset = max(n.order or 0 for n in outer.nodes)
    sets = [*outer.sets, *(KeySet(s.id + set_offset, s.kind, s.keys, s.locks, s.requirements) for s in inner.sets)]
    entry = outer.nodes[edge].parent
    nodes = [Node(n.id, n.type, n.set, n.parent, n.order, n.required) for n in outer.nodes]
    for n in inner.nodes[1:]:
        assert n.parent is not None and n.set is not None  # a generated diagram's keys and locks are placed
        parent = entry if n.parent == 0 else n.parent + node_offset
        nodes.append(Node(n.id + node_offset, n.type, n.set + set_offset, parent,
                          (n.order or 0) + order_offset, n.required))
    exit_lock = analyse(inner)["end_candidates"][0] + node_offset
    nodes[edge].parent = exit_lock
    return Diagram(sets, nodes, outer.seed)

"""A key-lock diagram: its key-lock sets and its tree of nodes (field names fixed by the JSON contract)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeGuard

from dedale.core.errors import DedaleError
from dedale.core.session import check_format

KINDS = ("unique", "multi", "permanent")


@dataclass
class KeySet:
    id: int
    kind: str
    keys: int
    locks: int
    requirements: list[int]  # keys needed by each lock, in order ([1] for unique and permanent sets)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "keys": self.keys, "locks": self.locks,
                "requirements": self.requirements}


@dataclass(slots=True)
class Node:
    id: int
    type: str  # "start", "key" or "lock"
    set: int | None
    parent: int | None = None
    order: int | None = None  # the step at which it was placed (start: 0)
    required: int | None = None  # a lock's keys needed

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type, "set": self.set, "parent": self.parent,
                                "order": self.order}
        if self.type == "lock":
            data["required"] = self.required
        return data


@dataclass
class Diagram:
    sets: list[KeySet]
    nodes: list[Node]  # by id; node 0 is Start
    seed: int | None = None
    children: dict[int, list[int]] = field(default_factory=dict)  # by placement order, then id
    by_rank: list[int] = field(init=False, repr=False)  # node ids by placement order, then id

    def __post_init__(self) -> None:
        orders = [node.order or 0 for node in self.nodes]
        self.by_rank = sorted(range(len(self.nodes)), key=orders.__getitem__)  # stable: ties by id
        if not self.children:
            for node_id in self.by_rank:
                parent = self.nodes[node_id].parent
                if parent is not None:
                    self.children.setdefault(parent, []).append(node_id)

    def kids(self, node: int) -> list[int]:
        return self.children.get(node, [])

    def never_open(self) -> list[int]:
        """The locks needing more keys than their set has (the original text's multi-key draw can make
        them): no player can open them, and nothing was placed behind them."""
        keys = {s.id: s.keys for s in self.sets}
        return [n.id for n in self.nodes if n.type == "lock" and (n.required or 0) > keys.get(n.set or 0, 0)]

    @classmethod
    def from_json(cls, data: Any) -> Diagram:
        """Load a key-lock document (no replay: a nested diagram has no seed to replay), checking that it
        is a tree rooted at Start whose locks and keys name existing sets."""
        check_format(data, "keylock")
        try:
            sets = [KeySet(int(s["id"]), str(s["kind"]), int(s["keys"]), int(s["locks"]),
                           [int(r) for r in s["requirements"]]) for s in data["sets"]]
            nodes = [Node(int(n["id"]), str(n["type"]), n["set"], n["parent"], n["order"], n.get("required"))
                     for n in data["nodes"]]
        except (KeyError, TypeError, ValueError):
            raise DedaleError("error.bad_document", field="sets/nodes") from None
        _check_tree(sets, nodes)
        return cls(sets, nodes, data.get("seed"))


def _check_tree(sets: list[KeySet], nodes: list[Node]) -> None:
    set_ids = {s.id for s in sets}
    if not nodes or nodes[0].type != "start" or nodes[0].parent is not None:
        raise DedaleError("error.bad_document", field="nodes[0] (Start)")
    for index, node in enumerate(nodes):
        if node.id != index or node.type not in ("start", "key", "lock") or (index and node.type == "start"):
            raise DedaleError("error.bad_document", field=f"nodes[{index}]")
        if index and (node.set not in set_ids or not _whole(node.parent)
                      or not 0 <= node.parent < len(nodes) or nodes[node.parent].type == "key"):
            raise DedaleError("error.bad_document", field=f"nodes[{index}]")
        if not (node.order is None or _whole(node.order)) or not (node.required is None or _whole(node.required)):
            raise DedaleError("error.bad_document", field=f"nodes[{index}]")
    reaches_start = [True] + [False] * (len(nodes) - 1)  # every node reaches Start: no cycles
    climbing_from = [-1] * len(nodes)
    for node in nodes:
        path, current = [], node.id
        while not reaches_start[current]:
            if climbing_from[current] == node.id:
                raise DedaleError("error.bad_document", field=f"nodes[{node.id}].parent")
            climbing_from[current] = node.id
            path.append(current)
            current = nodes[current].parent or 0
        for passed in path:
            reaches_start[passed] = True


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)

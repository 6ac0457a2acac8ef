"""A key-lock diagram: its key-lock sets and its tree of nodes. The sets, the nodes and the analysis are the
document's own shapes (`core.documents`): declared once, they are its codec and its JSON Schema."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeGuard

from dedale.core.documents import UNSET, DocumentKind, LogEntry, Meta, Shape, UnsetType, load
from dedale.core.errors import DedaleError
from dedale.core.session import check_format

Kind = Literal["unique", "multi", "permanent"]
KINDS: tuple[Kind, ...] = ("unique", "multi", "permanent")
Count = Annotated[int, Meta(ge=1)]


class KeySet(Shape):
    id: Count
    kind: Kind
    keys: Count
    locks: Count
    # keys needed by each lock, in order ([1] for unique and permanent sets)
    requirements: Annotated[list[Count], Meta(min_length=1)]


class Node(Shape):
    id: Annotated[int, Meta(ge=0)]
    type: Literal["start", "key", "lock"]
    set: int | None
    parent: int | None = None
    order: Annotated[int, Meta(ge=0)] | None = None  # the step at which it was placed (start: 0)
    required: Count | UnsetType = UNSET  # a lock's keys needed (locks only)


class Walked(Shape):
    """The walk's figures (`walk.py`)."""

    steps: Annotated[int, Meta(ge=0)]
    revisits: Annotated[int, Meta(ge=0)]
    order: list[int]
    lines_walked_again: list[int] | UnsetType = UNSET


class Analysis(Shape, omit_defaults=True):
    """The designer's analysis (`analysis.py`)."""

    empty_locks: list[int]
    end_candidates: list[int]
    keys_needed: Annotated[dict[str, int], Meta(
        description="By lock id: the fewest keys a player must pick up to get through it")] | UnsetType = UNSET
    never_open: Annotated[list[int], Meta(description=(
        "Only with the original text's multi-key draw (multi_draw seed): the locks needing more keys than "
        "their set has, which no player can open"))] | UnsetType = UNSET
    keys_needed_unproven: Annotated[dict[str, Annotated[list[Annotated[int, Meta(ge=0)]], Meta(
        min_length=2, max_length=2)]], Meta(description=(
            "Only when the search could not prove some figures within its budget: by lock id, [at least, the "
            "fewest found] (keys_needed gives the fewest found)"))] | UnsetType = UNSET
    walk: Walked | UnsetType = UNSET


class KeylockResult(Shape, kw_only=True):
    """A key-lock document's own fields: a nested diagram says so, and has no seed to replay."""

    nested: bool | UnsetType = UNSET
    sets: list[KeySet]
    nodes: Annotated[list[Node], Meta(min_length=1)]
    analysis: Analysis | UnsetType = UNSET  # written by the analysis (`analyse`), always there


@dataclass
class Diagram:
    sets: list[KeySet]
    nodes: list[Node]  # by id; node 0 is Start
    seed: int | str | None = None  # a document writes a long seed as its text (`core.seeds`)
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
        if "sets" not in data or "nodes" not in data:
            raise DedaleError("error.bad_document", field="sets/nodes")
        result = load(KeylockResult, {"sets": data["sets"], "nodes": data["nodes"]})
        _check_tree(result.sets, result.nodes)
        return cls(result.sets, result.nodes, data.get("seed"))


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


class KeylockLogEntry(LogEntry, omit_defaults=True):
    weight: float | UnsetType = UNSET  # a weighted pick's weight (the generator's own picks)


DOCUMENT = DocumentKind(
    KeylockResult, title="Dédale key-lock diagram",
    description="A key-lock level-design diagram: seed, parameters, the key-lock sets, the tree of nodes (each with "
                "the step it was placed at), the designer's analysis, and the log of every pick with its weight.",
    versions={1: "keys needed estimated", 2: "keys needed are the least (version 1 estimated them)",
              3: "the walk's revisits are the lines walked again (version 2 also took off the locks that never "
                 "open)",
              4: "a seed may be long (its text)"},
    log_entry=KeylockLogEntry,
    log_kinds=({"required": ["roll", "dice", "total", "for"]}, {"required": ["pick", "weight", "total", "for"]},
               {"required": ["note"]}),
    required=("analysis",), envelope={"events": {"maxItems": 0}})

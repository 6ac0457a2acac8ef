"""The key-lock generator (`keylock.md`): the list of objects, then the tree grown like a player exploring.

Step 1 makes the sets in the spec's order (unique, multi, permanent), each set's keys then its locks.
Step 2 places one object a step behind an accessible node (Start, or an open lock), both picked at random
with the seed's weights:
- an object weighs K (the number of sets), times 1/spread once its counterpart is in the tree;
- an accessible node weighs 1/(N+1) + spread * N, N being the objects already behind it.
A key in the tree counts as obtained; a lock opens when enough keys of its set are in the tree. Each step
the tree is all the player can reach, so every diagram is solvable.

Step 2's picks are sequential (each depends on the weights the last changed): each is a walk down a Fenwick
tree (`fenwick.py`), O(log n), so a diagram grows in O(n log n).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Protocol

from dedale.core.errors import DedaleError
from dedale.core.rng import Roller
from dedale.keylock.fenwick import Fenwick
from dedale.keylock.model import KeySet, Kind, Node
from dedale.keylock.params import MAX_OBJECTS, KeylockParams


class Picker(Protocol):
    """Weights by index, and the index a point of [0, total) falls on."""

    @property
    def total(self) -> float: ...

    def weight(self, index: int) -> float: ...

    def set(self, index: int, weight: float) -> None: ...

    def find(self, point: float) -> int: ...


def make_sets(params: KeylockParams, roller: Roller) -> tuple[list[KeySet], list[Node]]:
    """Step 1: the sets and their objects (keys then locks), in the spec's order. The cap on the objects
    made is checked as each set is drawn, before its objects are made."""
    sets: list[KeySet] = []
    nodes = [Node(0, "start", None, None, 0)]

    def add(kind: Kind, keys: int, requirements: list[int]) -> None:
        number = len(sets) + 1
        sets.append(KeySet(number, kind, keys, len(requirements), requirements))
        first = len(nodes)
        nodes.extend([Node(first + i, "key", number) for i in range(keys)])
        first = len(nodes)
        nodes.extend([Node(first + i, "lock", number, required=r) for i, r in enumerate(requirements)])

    def check(more: int) -> None:
        """Refuse the counts once the objects made and `more` (this set's, the fewest of the sets still to
        draw) pass the cap."""
        made = len(nodes) - 1 + more
        if made > MAX_OBJECTS:
            raise DedaleError("error.too_many_made", value=made, high=MAX_OBJECTS)

    for _ in range(params.unique):
        add("unique", 1, [1])
    for number in range(params.multi):
        keys = _uniform(roller, params.multi_max_keys, "keylock.multi_keys", set=number + 1)
        locks = _uniform(roller, params.multi_max_locks, "keylock.multi_locks", set=number + 1)
        seed_draw = params.multi_draw == "seed"
        locks = locks if seed_draw else min(locks, keys)
        check(keys + locks + 2 * (params.multi - number - 1 + params.permanent))
        add("multi", keys, _requirements(roller, keys, locks, number + 1, spend=not seed_draw))
    for number in range(params.permanent):
        locks = _uniform(roller, params.permanent_max_locks, "keylock.permanent_locks", set=number + 1)
        check(1 + locks + 2 * (params.permanent - number - 1))
        add("permanent", 1, [1] * locks)
    return sets, nodes


def _uniform(roller: Roller, high: int, purpose: str, **args: int) -> int:
    """Uniform in 1..high: a die of `high` faces (none to roll for 1)."""
    return roller.pick(high, purpose, **args) + 1


def _requirements(roller: Roller, keys: int, locks: int, number: int, spend: bool = True) -> list[int]:
    """Lock i needs r_i = r_(i-1) + 1 + e_i keys, e_i drawn from 0 to the surplus (keys - locks, or none). With
    `spend` each e_i is taken off the surplus: strictly increasing, never more than the set's keys. Without
    (`multi_draw="seed"`, the original text's draw) each is drawn from the whole surplus, and a lock may so need
    more keys than its set has: it never opens."""
    surplus, needed, requirements = max(keys - locks, 0), 0, []
    for _ in range(locks):
        extra = roller.pick(surplus + 1, "keylock.extra", set=number)
        if spend:
            surplus -= extra
        needed += 1 + extra
        requirements.append(needed)
    return requirements


def grow(sets: list[KeySet], nodes: list[Node], params: KeylockParams, roller: Roller,
         picker: Callable[[int], Picker] = Fenwick) -> None:
    """Step 2: place every object, setting each node's `parent` and `order`, and log the two picks of each step
    (the object, then the node it goes behind, each with its weight and the total)."""
    count = len(nodes) - 1
    picks, weights, totals = array("i", bytes(8 * count)), array("d", bytes(16 * count)), array("d", bytes(16 * count))
    grow_picks(sets, nodes, params, roller, picks, weights, totals, picker)
    log = roller.log
    for step in range(1, count + 1):
        at = 2 * step - 2
        args = {"step": step}  # the step's two entries share it: twenty thousand dicts fewer
        node, parent = picks[at], picks[at + 1]
        log.append({"pick": node, "weight": weights[at], "total": totals[at], "for": "keylock.object",
                    "args": args})
        log.append({"pick": parent, "weight": weights[at + 1], "total": totals[at + 1], "for": "keylock.node",
                    "args": args})
        nodes[node].parent, nodes[node].order = parent, step


def grow_picks(sets: list[KeySet], nodes: list[Node], params: KeylockParams, roller: Roller,
               picks: array[int], weights: array[float], totals: array[float],
               picker: Callable[[int], Picker] = Fenwick) -> None:
    """The picks of step 2, two a step in `picks`, `weights` and `totals`: the object, then the node it goes
    behind. The loop reads plain lists rather than the nodes (twenty thousand steps)."""
    count, spread = len(nodes) - 1, params.spread
    weight = float(len(sets))  # K
    boosted = weight / spread
    to_place, accessible = picker(count), picker(count + 1)  # objects by index (id - 1); nodes by id
    for index in range(count):
        to_place.set(index, weight)
    accessible.set(0, 1.0)  # Start, with nothing behind it yet
    set_to_place, find_to_place, weight_of, set_accessible, find_accessible = (
        to_place.set, to_place.find, to_place.weight, accessible.set, accessible.find)
    fraction = roller.fraction
    is_key = [node.type == "key" for node in nodes]
    set_of = [node.set or 0 for node in nodes]
    required = [node.required or 0 for node in nodes]
    parent_of = [-1] * (count + 1)  # -1: not placed yet
    behind = [0] * (count + 1)
    node_weight = [1.0] * (count + 1)  # 1 / (N + 1) + spread * N, N the objects behind the node
    keys_in_tree = {s.id: 0 for s in sets}
    placed = {s.id: [False, False] for s in sets}  # (a key placed, a lock placed)
    members: dict[int, list[int]] = {s.id: [] for s in sets}  # node ids by set (every object has one)
    for node_id in range(1, count + 1):
        members[set_of[node_id]].append(node_id)
    is_open = [True] + [False] * count

    for at in range(0, 2 * count, 2):
        total = to_place.total
        node = find_to_place(fraction() * total) + 1
        picks[at], weights[at], totals[at] = node, weight_of(node - 1), total
        total = accessible.total
        parent = find_accessible(fraction() * total)
        picks[at + 1], weights[at + 1], totals[at + 1] = parent, node_weight[parent], total
        parent_of[node] = parent
        set_to_place(node - 1, 0.0)
        behind[parent] = below = behind[parent] + 1
        node_weight[parent] = 1 / (below + 1) + spread * below
        set_accessible(parent, node_weight[parent])
        s, key = set_of[node], is_key[node]
        if not placed[s][not key]:  # the first key of its set boosts the set's locks; the first lock, its keys
            placed[s][not key] = True
            for other in members[s]:
                if parent_of[other] < 0 and is_key[other] != key:
                    set_to_place(other - 1, boosted)
        if key:
            keys_in_tree[s] += 1
            opened = [lock for lock in members[s] if not is_key[lock] and parent_of[lock] >= 0
                      and not is_open[lock] and required[lock] <= keys_in_tree[s]]
        else:
            opened = [node] if required[node] <= keys_in_tree[s] else []
        for lock in opened:
            is_open[lock] = True
            set_accessible(lock, node_weight[lock])

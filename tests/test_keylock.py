"""Key-lock diagrams: the growth rules replayed step by step, the weighted picks against a plain
reference, the designer's analysis, nesting, and the faces."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from dedale.core.errors import DedaleError
from dedale.core.rng import Roller, SeededSource
from dedale.core.session import Session
from dedale.keylock.analysis import analyse
from dedale.keylock.fenwick import Fenwick
from dedale.keylock.generator import grow, make_sets
from dedale.keylock.model import Diagram, KeySet, Node
from dedale.keylock.nest import nest
from dedale.keylock.params import KeylockParams
from dedale.keylock.session import KeylockRules, KeylockSession
from dedale.render.keylock_dot import render_dot
from dedale.render.keylock_svg import layout, render_svg
from dedale.systems import system

SCHEMA = json.loads(system("keylock").schema())
seeds = st.integers(min_value=0, max_value=2**64 - 1)


class Reference:
    """The plain weighted pick the Fenwick tree must agree with: a list, summed from the start."""

    def __init__(self, size: int) -> None:
        self.weights = [0.0] * size

    @property
    def total(self) -> float:
        return sum(self.weights)

    def weight(self, index: int) -> float:
        return self.weights[index]

    def set(self, index: int, weight: float) -> None:
        self.weights[index] = weight

    def find(self, point: float) -> int:
        for index, weight in enumerate(self.weights):
            if point < weight:
                return index
            point -= weight
        return max(i for i, w in enumerate(self.weights) if w > 0)


@st.composite
def params_strategy(draw: st.DrawFn) -> KeylockParams:
    unique, multi, permanent = draw(st.integers(0, 12)), draw(st.integers(0, 5)), draw(st.integers(0, 5))
    return KeylockParams(unique=unique or int(not (multi or permanent)), multi=multi, permanent=permanent,
                         multi_max_locks=draw(st.integers(1, 5)), multi_max_keys=draw(st.integers(1, 6)),
                         permanent_max_locks=draw(st.integers(1, 5)),
                         spread=draw(st.sampled_from([0.001, 0.01, 0.1, 0.5, 1.0, 3.0])))


def diagram_of(params: KeylockParams, seed: int, picker: type = Fenwick) -> Diagram:
    roller = Roller(SeededSource(seed), [])
    sets, nodes = make_sets(params, roller)
    grow(sets, nodes, params, roller, picker)
    return Diagram(sets, nodes, seed)


def check(diagram: Diagram, params: KeylockParams) -> None:
    sets, nodes = diagram.sets, diagram.nodes
    kinds = Counter(s.kind for s in sets)
    assert (kinds["unique"], kinds["multi"], kinds["permanent"]) == (params.unique, params.multi, params.permanent)
    assert [s.kind for s in sets] == sorted((s.kind for s in sets), key=["unique", "multi", "permanent"].index)
    for s in sets:  # counts and requirements as the spec draws them
        members = [n for n in nodes if n.set == s.id]
        assert sum(n.type == "key" for n in members) == s.keys and sum(n.type == "lock" for n in members) == s.locks
        assert [n.required for n in members if n.type == "lock"] == s.requirements
        if s.kind == "multi":
            assert 1 <= s.keys <= params.multi_max_keys and 1 <= s.locks <= min(params.multi_max_locks, s.keys)
            assert all(a < b for a, b in zip(s.requirements, s.requirements[1:], strict=False))
            assert s.requirements[-1] <= s.keys
        else:
            assert s.keys == 1 and s.requirements == [1] * s.locks
            assert s.locks <= (params.permanent_max_locks if s.kind == "permanent" else 1)
    # Replaying `order`: every node's parent was accessible when it was placed.
    keys_in_tree: Counter[int] = Counter()
    placed = {0}
    for node in sorted(nodes[1:], key=lambda n: n.order):
        parent = nodes[node.parent]
        assert parent.id in placed
        assert parent.type == "start" or (parent.type == "lock" and keys_in_tree[parent.set] >= parent.required)
        placed.add(node.id)
        if node.type == "key":
            keys_in_tree[node.set] += 1
    assert sorted(n.order for n in nodes) == list(range(len(nodes)))
    # Every lock opens in the end.
    assert all(keys_in_tree[n.set] >= n.required for n in nodes if n.type == "lock")


@settings(max_examples=examples(150), deadline=None)
@given(params=params_strategy(), seed=seeds)
def test_the_growth_rules(params: KeylockParams, seed: int) -> None:
    diagram = diagram_of(params, seed)
    check(diagram, params)
    analysis = analyse(diagram)  # the walk asserts every object can be reached: solvable
    assert sorted(analysis["walk"]["order"]) == list(range(len(diagram.nodes)))


@settings(max_examples=examples(60), deadline=None)
@given(params=params_strategy(), seed=seeds)
def test_the_fast_and_the_reference_picks_agree(params: KeylockParams, seed: int) -> None:
    fast, plain = diagram_of(params, seed), diagram_of(params, seed, Reference)
    assert [(n.parent, n.order) for n in fast.nodes] == [(n.parent, n.order) for n in plain.nodes]


def test_fenwick_slices_are_the_weights() -> None:
    rng = random.Random(3)
    fast, plain = Fenwick(300), Reference(300)
    for _ in range(3000):
        index, weight = rng.randrange(300), rng.choice([0.0, 0.25, 1.0, 3.0, 100.0, rng.random()])
        fast.set(index, weight)
        plain.set(index, weight)
    assert abs(fast.total - plain.total) < 1e-9
    for index in range(300):
        assert abs(fast.prefix(index + 1) - fast.prefix(index) - plain.weight(index)) < 1e-9
    for _ in range(2000):
        point = rng.random() * plain.total
        assert fast.find(point) == plain.find(point)
    assert all(plain.weight(fast.find(p * fast.total)) > 0 for p in (0.0, 0.5, 0.999999999))


def test_weights_follow_the_seed() -> None:
    """Picks are logged with the weight picked and the total; counterparts weigh K / spread."""
    params = KeylockParams(unique=4, multi=0, permanent=0, spread=0.5)
    roller = Roller(SeededSource(1), [])
    sets, nodes = make_sets(params, roller)
    grow(sets, nodes, params, roller)
    picks = [e for e in roller.log if e.get("for") == "keylock.object"]
    assert picks[0]["weight"] == 4.0 and picks[0]["total"] == 32.0
    first = nodes[picks[0]["pick"]]
    counterpart = next(n for n in nodes if n.set == first.set and n.id != first.id)
    later = next(e for e in picks[1:] if e["pick"] == counterpart.id)
    assert later["weight"] == 8.0  # K / spread once its counterpart is in the tree
    nodes_picks = [e for e in roller.log if e.get("for") == "keylock.node"]
    assert nodes_picks[0]["weight"] == 1.0  # 1 / (0 + 1) + spread * 0


def test_determinism_round_trip_and_schema() -> None:
    for seed in range(20):
        document = json.loads(json.dumps(Session(KeylockRules, KeylockParams(), seed).to_json()))
        jsonschema.validate(document, SCHEMA)
        assert Session.from_json(KeylockRules, document).to_json() == document
        assert document == Session(KeylockRules, KeylockParams(), seed).to_json()


def hand_made() -> Diagram:
    """Start holds key 1 and lock 1; lock 1 holds key 2 and lock 2; lock 2 holds nothing."""
    sets = [KeySet(1, "unique", 1, 1, [1]), KeySet(2, "unique", 1, 1, [1])]
    nodes = [Node(0, "start", None, None, 0), Node(1, "lock", 1, 0, 1, 1), Node(2, "key", 2, 1, 2),
             Node(3, "key", 1, 0, 3), Node(4, "lock", 2, 1, 4, 1)]
    return Diagram(sets, nodes)


def test_the_walk_and_the_analysis_by_hand() -> None:
    analysis = analyse(hand_made())
    # Start -> key 1 (#3): 1 step; back and through lock 1 (#1): 2 steps; key 2 (#2): 1; back, lock 2 (#4): 2.
    assert analysis["walk"]["order"] == [0, 3, 1, 2, 4]
    assert analysis["walk"]["steps"] == 6 and analysis["walk"]["revisits"] == 2
    assert analysis["empty_locks"] == [4]
    assert analysis["end_candidates"] == [4, 1] and analysis["keys_needed"] == {"1": 1, "4": 2}


def test_nesting_keeps_the_diagram_solvable() -> None:
    outer, inner = diagram_of(KeylockParams(), 1), diagram_of(KeylockParams(unique=2, multi=0, permanent=1), 2)
    edge = next(n.id for n in outer.nodes if n.type == "lock")
    nested = nest(outer, inner, edge)
    assert len(nested.nodes) == len(outer.nodes) + len(inner.nodes) - 1
    assert len(nested.sets) == len(outer.sets) + len(inner.sets)
    inner_end = analyse(inner)["end_candidates"][0] + len(outer.nodes) - 1
    assert nested.nodes[edge].parent == inner_end
    walk = analyse(nested)["walk"]  # raises if some object could not be reached
    assert sorted(walk["order"]) == list(range(len(nested.nodes)))
    with pytest.raises(DedaleError):
        nest(outer, inner, 0)


def test_layout_has_no_crossing_lines() -> None:
    diagram = diagram_of(KeylockParams(unique=12, multi=3, permanent=3), 5)  # about 50 objects
    place = layout(diagram)
    assert len({place[n.id] for n in diagram.nodes}) == len(diagram.nodes)
    for node in diagram.nodes:  # a subtree lies within its own span, after its elder siblings'
        kids = diagram.kids(node.id)
        xs = [place[k][0] for k in kids]
        assert xs == sorted(xs) and all(place[k][1] == place[node.id][1] + 1 for k in kids)
    svg_text = render_svg(diagram, analyse(diagram))
    root = ElementTree.fromstring(svg_text)
    assert len(root.findall(".//{http://www.w3.org/2000/svg}polygon")) == sum(n.type == "key" for n in diagram.nodes)
    assert "END" in svg_text and "n0 -> n" in render_dot(diagram, analyse(diagram))


def test_cli(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("keylock", "--seed", "4", "--json")
    document = json.loads(out)
    assert code == 0 and {"unique", "multi", "multi_max_locks", "multi_max_keys", "permanent",
                          "permanent_max_locks", "spread"} <= set(document["params"])
    for ext in (".svg", ".png", ".dot", ".txt", ".pdf", ".json"):
        assert cli("keylock", "--seed", "4", "-o", str(tmp_path / f"k{ext}"))[0] == 0
    assert (tmp_path / "k.dot").read_text().startswith("digraph")
    for command in ("analyse", "analyze"):
        code, out, _ = cli("keylock", command, str(tmp_path / "k.json"))
        assert code == 0 and "The walk:" in out and "suggested ends" in out
    code, out, _ = cli("keylock", "analyse", str(tmp_path / "k.json"), "--json")
    assert json.loads(out) == document["analysis"]
    (tmp_path / "bad.json").write_text(json.dumps({"format": "dedale/keylock", "sets": [], "nodes": [{"id": 3}]}))
    for args, name in ((["--spread", "0"], "spread"), (["--spread", "-1"], "spread"), (["--unique", "-2"], "unique"),
                       (["--unique", "0", "--multi", "0", "--permanent", "0"], "no key"),
                       (["--unique", "60000"], "use a whole number from 0 to 10000"),
                       (["--unique", "6000", "--multi", "6000"], "at least 24002 keys and locks; at most 20000"),
                       (["analyse", str(tmp_path / "bad.json")], "malformed"),
                       (["analyse", str(tmp_path / "none.json")], "cannot read")):
        code, _, err = cli("keylock", *args)
        assert code == 2 and name in err and len(err.strip().splitlines()) == 1, (args, err)
    code, _, _ = cli("keylock", "nest", str(tmp_path / "k.json"), str(tmp_path / "k.json"), "--edge", "2",
                     "-o", str(tmp_path / "n.json"))
    assert code == 0 and json.loads((tmp_path / "n.json").read_text())["nested"] is True


@settings(max_examples=examples(120), deadline=None)
@given(params=params_strategy(), seed=seeds)
def test_the_original_multi_key_draw_and_the_locks_it_leaves_shut(params: KeylockParams, seed: int) -> None:
    """`multi_draw="seed"`: a set's locks are drawn apart from its keys (not capped), each lock's extra keys
    from the whole surplus; a lock needing more keys than its set has never opens, nothing is placed behind
    it, and the analysis lists it apart while the walk visits everything else."""
    params = dataclasses.replace(params, multi_draw="seed", multi=max(params.multi, 1))
    diagram = diagram_of(params, seed)
    nodes = diagram.nodes
    for s in diagram.sets:
        if s.kind == "multi":
            assert 1 <= s.locks <= params.multi_max_locks and 1 <= s.keys <= params.multi_max_keys
            steps = [b - a for a, b in zip([0, *s.requirements], s.requirements, strict=False)]
            assert all(1 <= step <= 1 + max(s.keys - s.locks, 0) for step in steps)
    keys = {s.id: s.keys for s in diagram.sets}
    shut = [n.id for n in nodes if n.type == "lock" and (n.required or 0) > keys[n.set or 0]]
    assert diagram.never_open() == shut
    assert not any(n.parent in shut for n in nodes)  # nothing behind a lock no one opens
    analysis = analyse(diagram)
    assert analysis.get("never_open", []) == shut
    assert sorted(analysis["walk"]["order"]) == sorted(set(range(len(nodes))) - set(shut))
    assert set(map(int, analysis["keys_needed"])) == {n.id for n in nodes if n.type == "lock"} - set(shut)
    assert not set(analysis["end_candidates"]) & set(shut)


def diagram_and_analysis(session: KeylockSession) -> tuple[Diagram, dict[str, Any]]:
    assert session.rules.diagram is not None
    return session.rules.diagram, session.rules.analysis


def test_the_capped_draw_is_the_default_and_leaves_documents_as_they_were() -> None:
    document = Session(KeylockRules, KeylockParams(), 3).to_json()
    assert "multi_draw" not in document["params"] and "never_open" not in document["analysis"]
    seeded = Session(KeylockRules, KeylockParams(multi=3, multi_max_locks=5, multi_max_keys=3, multi_draw="seed"), 0)
    assert seeded.to_json()["params"]["multi_draw"] == "seed"
    assert seeded.to_json()["analysis"]["never_open"] == [14, 17, 18, 19]
    assert Session.from_json(KeylockRules, seeded.to_json()).to_json() == seeded.to_json()
    picture = render_svg(*diagram_and_analysis(seeded))
    assert picture.count(">⊘<") == 4 + 1  # each lock that never opens, and the legend
    assert ">⊘<" not in render_svg(*diagram_and_analysis(Session(KeylockRules, KeylockParams(), 3)))

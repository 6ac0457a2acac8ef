"""The key-lock analysis against references that are obviously right: keys needed against an exhaustive
search over every set of keys a player might pick up, the one-pass walk against a fresh breadth-first search
at every step; the search's budget, unsolvable documents, the cap on the objects made, old documents."""

from __future__ import annotations

import itertools
import json
from itertools import combinations
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from dedale.core.documents import dump
from dedale.core.errors import DedaleError
from dedale.core.rng import Roller, SeededSource
from dedale.core.session import Session
from dedale.keylock import needs
from dedale.keylock.analysis import analyse
from dedale.keylock.generator import grow, make_sets
from dedale.keylock.model import Diagram, KeySet, Node
from dedale.keylock.nest import nest
from dedale.keylock.params import MAX_OBJECTS, KeylockParams
from dedale.keylock.session import KeylockRules
from dedale.keylock.walk import walk
from dedale.render.png import svg_size, svg_to_png
from dedale.systems import system

seeds = st.integers(min_value=0, max_value=2**64 - 1)


def diagram_of(params: KeylockParams, seed: int) -> Diagram:
    roller = Roller(SeededSource(seed), [])
    sets, nodes = make_sets(params, roller)
    grow(sets, nodes, params, roller)
    return Diagram(sets, nodes, seed)


def passed_with(diagram: Diagram, keys: set[int]) -> set[int]:
    """The locks a player gets through picking up only `keys`: it explores until nothing changes."""
    held: dict[int | None, int] = {}
    passed: set[int] = set()
    picked: set[int] = set()
    changed = True
    while changed:
        changed = False
        frontier = [0]
        while frontier:
            for kid in diagram.kids(frontier.pop()):
                node = diagram.nodes[kid]
                if node.type == "key":
                    if kid in keys and kid not in picked:
                        picked.add(kid)
                        held[node.set] = held.get(node.set, 0) + 1
                        changed = True
                elif kid in passed or held.get(node.set, 0) >= (node.required or 0):
                    changed |= kid not in passed
                    passed.add(kid)
                    frontier.append(kid)
    return passed


def fewest_keys(diagram: Diagram) -> dict[str, int]:
    """Keys needed by exhaustion: for every lock, the size of the smallest set of keys that gets a player
    through it."""
    keys = [n.id for n in diagram.nodes if n.type == "key"]
    locks = {n.id for n in diagram.nodes if n.type == "lock"}
    fewest: dict[str, int] = {}
    for size in range(len(keys) + 1):
        for chosen in combinations(keys, size):
            for lock in passed_with(diagram, set(chosen)):
                fewest.setdefault(str(lock), size)
        if len(fewest) == len(locks):
            break
    return fewest


@st.composite
def small_params(draw: st.DrawFn) -> KeylockParams:
    """Diagrams of at most a dozen keys, multi-key sets always there: their choices are what is hard."""
    unique, permanent = draw(st.integers(0, 4)), draw(st.integers(0, 2))
    return KeylockParams(unique=unique, multi=draw(st.integers(1, 3)), permanent=permanent,
                         multi_max_keys=draw(st.integers(1, 4)), multi_max_locks=draw(st.integers(1, 3)),
                         permanent_max_locks=draw(st.integers(1, 3)),
                         spread=draw(st.sampled_from([0.001, 0.01, 0.1, 1.0, 10.0])))


@settings(max_examples=examples(250), deadline=None)
@given(params=small_params(), seed=seeds)
def test_keys_needed_are_the_least_an_exhaustive_search_finds(params: KeylockParams, seed: int) -> None:
    diagram = diagram_of(params, seed)
    analysis = analyse(diagram)
    assert analysis["keys_needed"] == fewest_keys(diagram)
    assert "keys_needed_unproven" not in analysis


@pytest.mark.parametrize(("seed", "lock", "least"), [(198, 10, 2), (10629, 11, 3), (10900, 11, 3)])
def test_the_seeds_the_greedy_estimate_got_wrong(seed: int, lock: int, least: int) -> None:
    diagram = diagram_of(KeylockParams(), seed)
    analysis = analyse(diagram)
    assert analysis["keys_needed"][str(lock)] == least
    assert analysis["keys_needed"] == fewest_keys(diagram)


def choice_matters() -> Diagram:
    """A multi-key lock M (#1, one of two keys) whose cheapest key in isolation is not the one its child X
    (#2) wants: key a (#4) lies behind lock Y (#6), key b (#5) behind lock Z (#8), and X's key (#10) too.
    Through M alone either key costs 2; through X, b's way costs 3 (b, Z's key, X's key), a's 4."""
    sets = [KeySet(1, "multi", 2, 1, [1]), KeySet(2, "unique", 1, 1, [1]), KeySet(3, "unique", 1, 1, [1]),
            KeySet(4, "unique", 1, 1, [1])]
    nodes = [Node(0, "start", None, None, 0), Node(1, "lock", 1, 0, 1, 1), Node(2, "lock", 2, 1, 2, 1),
             Node(3, "key", 3, 0, 3), Node(4, "key", 1, 6, 4), Node(5, "key", 1, 8, 5), Node(6, "lock", 3, 0, 6, 1),
             Node(7, "key", 4, 0, 7), Node(8, "lock", 4, 0, 8, 1), Node(9, "key", 2, 8, 9)]
    return Diagram(sets, nodes)


def test_a_multi_key_lock_chooses_for_what_lies_behind_it() -> None:
    diagram = choice_matters()
    assert analyse(diagram)["keys_needed"] == fewest_keys(diagram) == {"1": 2, "2": 3, "6": 1, "8": 1}


def test_a_multi_key_set_may_keep_keys_behind_its_own_locks() -> None:
    """Set 1 has three keys and locks needing 1 and 2: one key at Start, one behind the first lock."""
    sets = [KeySet(1, "multi", 3, 2, [1, 2])]
    nodes = [Node(0, "start", None, None, 0), Node(1, "key", 1, 0, 1), Node(2, "key", 1, 4, 3),
             Node(3, "key", 1, 5, 5), Node(4, "lock", 1, 0, 2, 1), Node(5, "lock", 1, 4, 4, 2)]
    diagram = Diagram(sets, nodes)
    assert analyse(diagram)["keys_needed"] == fewest_keys(diagram) == {"4": 1, "5": 2}


def test_a_stuck_set_may_get_its_key_from_another_stuck_lock() -> None:
    """L (#3) lies behind M (#1, two keys of set 1) and its key behind N (#2, one key of set 2). One key of
    set 1 lies at Start, one behind N, one behind X (#8, whose key is behind Y): the cheapest way through L
    does not go by X but opens N with the key behind U (#13), which also gives M its second key."""
    sets = [KeySet(1, "multi", 3, 1, [2]), KeySet(2, "multi", 2, 1, [1]),
            *(KeySet(i, "unique", 1, 1, [1]) for i in range(3, 9))]
    places = [(1, "lock", 1, 0), (2, "lock", 2, 0), (3, "lock", 3, 1), (4, "key", 3, 2), (5, "key", 1, 0),
              (6, "key", 1, 2), (7, "key", 1, 8), (8, "lock", 4, 0), (9, "key", 4, 10), (10, "lock", 5, 0),
              (11, "key", 5, 0), (12, "key", 2, 13), (13, "lock", 6, 0), (14, "key", 6, 0), (15, "key", 2, 16),
              (16, "lock", 7, 0), (17, "key", 7, 18), (18, "lock", 8, 0), (19, "key", 8, 0)]
    nodes = [Node(0, "start", None, None, 0), *(Node(i, kind, key_set, parent, i, 2 if i == 1 else 1)
                                                 if kind == "lock" else Node(i, kind, key_set, parent, i)
                                                 for i, kind, key_set, parent in places)]
    diagram = Diagram(sets, nodes)
    assert analyse(diagram)["keys_needed"] == fewest_keys(diagram)
    assert fewest_keys(diagram)["3"] == 5


@settings(max_examples=examples(40), deadline=None)
@given(params=small_params(), seed=seeds)
def test_out_of_budget_the_figures_are_bounds(params: KeylockParams, seed: int) -> None:
    """With no search at all, every figure the bounds cannot settle is flagged, and brackets the least."""
    diagram = diagram_of(params, seed)
    least = fewest_keys(diagram)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(needs, "SEARCH_BUDGET", 0)
        analysis = analyse(diagram)
    unproven = analysis.get("keys_needed_unproven", {})
    for lock, figure in analysis["keys_needed"].items():
        if lock in unproven:
            low, high = unproven[lock]
            assert low <= least[lock] <= high == figure and low < high
        else:
            assert figure == least[lock]
    document = Session(KeylockRules).to_json()
    jsonschema.validate({**document, "analysis": analysis}, json.loads(system("keylock").schema()))


def reference_walk(diagram: Diagram) -> dict[str, Any] | str:
    """The walk as the rules say it, step by step: a breadth-first search from where the walker stands over
    the nodes visited, to the nearest object it can visit (ties: placement order, then id), until nothing is
    left but the locks that never open; "unsolvable" if anything else is left."""
    nodes = diagram.nodes
    visited, held = {0}, {}
    walked: dict[int, int] = {}
    position, steps, order = 0, 0, [0]
    while len(visited) < len(nodes) - len(diagram.never_open()):
        came_from, frontier, found = {position: position}, [position], []
        while frontier and not found:
            following = []
            for v in frontier:
                for w in [nodes[v].parent, *diagram.kids(v)]:
                    if w is None or w in came_from:
                        continue
                    came_from[w] = v
                    node = nodes[w]
                    if w in visited:
                        following.append(w)
                    elif node.type == "key" or held.get(node.set, 0) >= (node.required or 0):
                        found.append(w)
            frontier = following
        if not found:
            return "unsolvable"
        target = min(found, key=lambda w: (nodes[w].order or 0, w))
        current = target
        while current != position:
            previous = came_from[current]
            line = current if nodes[current].parent == previous else previous
            walked[line] = walked.get(line, 0) + 1
            steps += 1
            current = previous
        position = target
        visited.add(target)
        order.append(target)
        if nodes[target].type == "key":
            held[nodes[target].set] = held.get(nodes[target].set, 0) + 1
    return {"steps": steps, "revisits": sum(count - 1 for count in walked.values()), "order": order,
            "lines_walked_again": sorted(line for line, count in walked.items() if count > 1)}


@st.composite
def walk_params(draw: st.DrawFn) -> KeylockParams:
    return KeylockParams(unique=draw(st.integers(0, 30)), multi=draw(st.integers(0, 6)),
                         permanent=draw(st.integers(1, 6)), multi_max_keys=draw(st.integers(1, 6)),
                         multi_max_locks=draw(st.integers(1, 4)), permanent_max_locks=draw(st.integers(1, 4)),
                         spread=draw(st.sampled_from([0.0001, 0.01, 0.5, 3.0, 1000.0])),
                         multi_draw=draw(st.sampled_from(["capped", "seed"])))  # seed: locks that never open


def walked(diagram: Diagram) -> dict[str, Any] | str:
    """The one-pass walk, or "unsolvable" where it refuses the diagram."""
    try:
        return dump(walk(diagram).figures())
    except DedaleError as error:
        assert error.key == "error.keylock_unsolvable"
        return "unsolvable"


@settings(max_examples=examples(120), deadline=None)
@given(params=walk_params(), seed=seeds, inner_seed=seeds)
def test_the_one_pass_walk_is_the_step_by_step_walk(params: KeylockParams, seed: int, inner_seed: int) -> None:
    diagram = diagram_of(params, seed)
    assert walked(diagram) == reference_walk(diagram) != "unsolvable"
    inner = diagram_of(KeylockParams(unique=2, multi=1, permanent=1), inner_seed)
    nested = nest(diagram, inner, len(diagram.nodes) - 1)  # orders no longer follow parents
    assert walked(nested) == reference_walk(nested) != "unsolvable"


@settings(max_examples=examples(150), deadline=None)
@given(seed=seeds, unique=st.integers(0, 6), multi=st.integers(1, 5), keys=st.integers(1, 5),
       locks=st.integers(1, 6), permanent=st.integers(0, 3), spread=st.sampled_from([0.0001, 0.01, 1.0]))
def test_revisits_are_the_lines_walked_again_with_the_authors_draw(seed: int, unique: int, multi: int, keys: int,
                                                                   locks: int, permanent: int, spread: float) -> None:
    """Issue 31: with the author's multi-key draw (`multi_draw="seed"`) some locks never open, and the walk never
    goes to them. A document's `revisits` is worked out again from the document alone (its tree and the walk's
    order): each visit follows the tree's path from the last one, and a line walked n times is walked again n - 1
    times. No line to a lock that never opens is walked, nor counted among the lines walked once."""
    params = KeylockParams(unique=unique, multi=multi, multi_max_keys=keys, multi_max_locks=locks,
                           permanent=permanent, spread=spread, multi_draw="seed")
    document = Session(KeylockRules, params, seed).to_json()
    parent = {node["id"]: node["parent"] for node in document["nodes"]}
    walked, never = document["analysis"]["walk"], set(document["analysis"].get("never_open", []))

    def up(node: int) -> list[int]:  # the node and its ancestors: the lines from it to Start, named by lower node
        path = [node]
        while parent[path[-1]] is not None:
            path.append(parent[path[-1]])
        return path

    times: dict[int, int] = {}
    for here, there in itertools.pairwise(walked["order"]):
        a, b = up(here), up(there)
        common = set(a) & set(b)
        for line in [n for n in a if n not in common] + [n for n in b if n not in common]:
            times[line] = times.get(line, 0) + 1
    assert not never & set(times)
    assert sorted(times) == sorted(walked["order"][1:])  # every line walked leads to a node visited
    assert walked["steps"] == sum(times.values())
    assert walked["revisits"] == sum(n - 1 for n in times.values())
    assert walked["lines_walked_again"] == sorted(line for line, n in times.items() if n > 1)


def test_the_one_pass_walk_on_odd_documents() -> None:
    """A document's own set numbers and a lock needing more keys than there are (never passed), and a
    diagram no one can finish."""
    sets = [KeySet(1000, "unique", 1, 1, [1]), KeySet(-7, "multi", 2, 1, [10**12])]
    odd = Diagram(sets, [Node(0, "start", None, None, 0), Node(1, "key", 1000, 0, 1), Node(2, "lock", 1000, 0, 2, 1),
                         Node(3, "key", -7, 2, 3), Node(4, "lock", -7, 2, 4, 10**12)])
    stuck = Diagram([KeySet(1, "unique", 1, 1, [1])],
                    [Node(0, "start", None, None, 0), Node(1, "lock", 1, 0, 1, 1), Node(2, "key", 1, 1, 2)])
    # Start -> key 1 -> back -> lock 2 -> key 3: line 1 is walked twice, lock 4 never opens.
    assert walked(odd) == reference_walk(odd) == {"steps": 4, "revisits": 1, "order": [0, 1, 2, 3],
                                                  "lines_walked_again": [1]}
    assert walked(stuck) == reference_walk(stuck) == "unsolvable"


def test_an_unsolvable_document_is_refused(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A lock whose key lies behind it: no walk gets there, and the analysis says so."""
    document = Session(KeylockRules, KeylockParams(unique=2, multi=0, permanent=0), 3).to_json()
    nodes = document["nodes"]
    lock = next(n for n in nodes if n["type"] == "lock")
    key = next(n for n in nodes if n["type"] == "key" and n["set"] == lock["set"])
    key["parent"] = lock["id"]
    with pytest.raises(DedaleError, match="cannot be solved"):
        analyse(Diagram.from_json(document))
    (tmp_path / "stuck.json").write_text(json.dumps(document))
    code, _, err = cli("keylock", "analyse", str(tmp_path / "stuck.json"))
    assert code == 2 and "cannot be solved" in err and len(err.strip().splitlines()) == 1


def test_malformed_documents_are_refused() -> None:
    document = Session(KeylockRules, KeylockParams(unique=4), 1).to_json()
    first, second = [n["id"] for n in document["nodes"] if n["type"] == "lock"][:2]
    for change in ({"order": "3"}, {"required": 1.5}, {"parent": True}, {"parent": second}):
        broken = json.loads(json.dumps(document))
        broken["nodes"][first].update(change)
        broken["nodes"][second]["parent"] = first  # with the last change, a cycle
        with pytest.raises(DedaleError, match="malformed"):
            Diagram.from_json(broken)


def test_the_cap_counts_the_objects_made() -> None:
    """Counts that could make more than the cap but make fewer are accepted; those that make more are not."""
    assert MAX_OBJECTS == 20_000  # the bound: what a designer reads
    fits = KeylockParams(unique=9_000, multi=400, multi_max_keys=3, multi_max_locks=3, permanent=0)
    assert fits.most_objects > MAX_OBJECTS
    _, nodes = make_sets(fits, Roller(SeededSource(1), []))
    assert len(nodes) - 1 <= MAX_OBJECTS
    too_many = KeylockParams(unique=9_800, multi=200, multi_max_keys=4, multi_max_locks=2, permanent=0)
    with pytest.raises(DedaleError, match="with this seed"):
        make_sets(too_many, Roller(SeededSource(1), []))
    with pytest.raises(DedaleError, match="at least 20002 keys and locks; at most 20000"):
        KeylockParams(unique=10_000, multi=0, permanent=1)
    assert KeylockParams(unique=10_000, multi=0, permanent=0).least_objects == MAX_OBJECTS  # the bound itself
    # A set's largest draw is bounded too: a die of more faces than 2**64 was never rolled (it hung).
    with pytest.raises(DedaleError, match="multi_max_keys: 10000000000000000000000 is out of range; use a whole "
                                          "number from 1 to 20000"):
        KeylockParams(multi_max_keys=10**22)


def test_a_version_1_document_loads_with_its_analysis_worked_out_again() -> None:
    document = Session(KeylockRules, KeylockParams(), 198).to_json()
    assert document["version"] == KeylockRules.version and document["analysis"]["keys_needed"]["10"] == 2
    old = {**document, "version": 1, "analysis": {**document["analysis"], "keys_needed": {"10": 3}}}
    loaded = Session.from_json(KeylockRules, json.loads(json.dumps(old)))
    assert loaded.to_json() == document
    assert system("keylock").load(old)[1] == document["analysis"]  # the picture's, too


def test_a_version_2_document_loads_with_its_walk_worked_out_again() -> None:
    """Version 2 took the locks that never open off the walk's revisits (here one, so one revisit too few)."""
    params = KeylockParams(unique=0, multi=1, multi_max_locks=2, multi_max_keys=1, permanent=1,
                           permanent_max_locks=1, multi_draw="seed", spread=0.0001)
    document = Session(KeylockRules, params, 0).to_json()
    assert len(document["analysis"]["never_open"]) == 1 and document["analysis"]["walk"]["revisits"] == 3
    walked = document["analysis"]["walk"]
    old = {**document, "version": 2, "analysis": {**document["analysis"], "walk": {**walked, "revisits": 2}}}
    assert Session.from_json(KeylockRules, json.loads(json.dumps(old))).to_json() == document
    with pytest.raises(DedaleError, match="analysis"):  # a version 3 document's analysis is checked, as today's
        Session.from_json(KeylockRules, json.loads(json.dumps({**old, "version": 3})))


def test_pictures_of_large_diagrams_are_refused_clearly(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A PDF past its limit, a PNG past cairo's (an SVG a million pixels wide writes its width 3.1e+06)."""
    monkeypatch.setattr("dedale.keylock.params.MAX_PDF_OBJECTS", 10)
    code, _, err = cli("keylock", "--seed", "1", "-o", str(tmp_path / "k.pdf"))
    assert code == 2 and "too large for a PDF" in err and not (tmp_path / "k.pdf").exists()
    assert svg_size('<svg xmlns="http://www.w3.org/2000/svg" width="3.11625e+06" height="2086">') == (3116250, 2086)
    with pytest.raises(DedaleError, match="too big for a PNG"):
        svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="3.11625e+06" height="2086"></svg>')

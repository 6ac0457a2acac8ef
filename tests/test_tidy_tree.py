"""The tidy-tree layout and the key-lock picture drawn with it: rows keep their order and spacing, a parent is
centred beside its children, no line passes through a node, no two nodes or marks overlap, and a
200-object diagram prints legibly on one A3 page."""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from dedale.core.rng import Roller, SeededSource
from dedale.keylock.analysis import analyse
from dedale.keylock.fenwick import Fenwick
from dedale.keylock.generator import grow, make_sets
from dedale.keylock.model import Diagram
from dedale.keylock.params import KeylockParams
from dedale.render.keylock_svg import TEXT, Geometry, fill, geometry, half_size, node_labels, render_svg, text_width
from dedale.render.tidy_tree import tidy_layout

Box = tuple[float, float, float, float]  # left, top, right, bottom


@st.composite
def trees(draw: st.DrawFn) -> list[list[int]]:
    """A random tree as children lists: each node after the root hangs from an earlier one."""
    size = draw(st.integers(1, 120))
    kids: list[list[int]] = [[] for _ in range(size)]
    for node in range(1, size):
        kids[draw(st.integers(max(0, node - draw(st.sampled_from([1, 3, node]))), node - 1))].append(node)
    return kids


def check_tidy(kids: list[list[int]], x: list[float], depth: list[int]) -> None:
    rows: dict[int, list[int]] = defaultdict(list)
    stack = [0]
    while stack:  # depth first, left to right: the order every row must keep
        node = stack.pop()
        rows[depth[node]].append(node)
        stack.extend(reversed(kids[node]))
    assert min(x) == 0
    for row in rows.values():
        assert all(x[b] - x[a] >= 1 - 1e-9 for a, b in pairwise(row)), row
    for node, children in enumerate(kids):
        assert all(depth[child] == depth[node] + 1 for child in children)
        if children:
            assert x[node] == pytest.approx((x[children[0]] + x[children[-1]]) / 2)


@given(trees())
@settings(max_examples=examples(100), deadline=None)
def test_tidy_layout_keeps_rows_apart_and_parents_centred(kids: list[list[int]]) -> None:
    x, depth = tidy_layout(kids)
    check_tidy(kids, x, depth)


def test_tidy_layout_is_narrower_than_one_column_a_leaf() -> None:
    # A deep subtree beside shallow ones: the shallow ones tuck under it instead of taking columns of their own.
    kids = [[1, 2], [3, 4, 5, 6], [7], [], [], [], [], [8, 9, 10, 11], [], [], [], []]
    x, depth = tidy_layout(kids)
    check_tidy(kids, x, depth)
    assert max(x) == 5.5 < sum(not k for k in kids) - 1


def test_tidy_layout_takes_a_chain_thousands_deep() -> None:  # no recursion
    kids = [[n + 1] for n in range(5000)] + [[]]
    x, depth = tidy_layout(kids)
    assert set(x) == {0.0} and depth[-1] == 5000


def diagram_of(params: KeylockParams, seed: int) -> Diagram:
    roller = Roller(SeededSource(seed), [])
    sets, nodes = make_sets(params, roller)
    grow(sets, nodes, params, roller, Fenwick)
    return Diagram(sets, nodes, seed)


def node_boxes(diagram: Diagram, shape: Geometry) -> list[Box]:
    boxes = []
    for node in diagram.nodes:
        (x, y), (w, h) = shape.centres[node.id], half_size(diagram, node)
        boxes.append((x - w, y - h, x + w, y + h))
    return boxes


def label_boxes(diagram: Diagram, shape: Geometry) -> list[Box]:
    boxes = []
    for label in node_labels(diagram, analyse(diagram), shape.centres, "en"):
        width = text_width(label.text, TEXT, label.bold)
        boxes.append((label.x, label.y - 0.8 * TEXT, label.x + width, label.y + 0.25 * TEXT))
    return boxes


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def crosses(line: tuple[float, float, float, float], box: Box) -> bool:
    """Whether a horizontal or vertical segment enters a box (touching its edge is not entering)."""
    x1, y1, x2, y2 = line
    left, top, right, bottom = box
    if y1 == y2:
        return top < y1 < bottom and min(x1, x2) < right and left < max(x1, x2)
    return left < x1 < right and min(y1, y2) < bottom and top < max(y1, y2)


def check_picture(diagram: Diagram) -> None:
    shape = geometry(diagram, analyse(diagram), "en")
    nodes, labels = node_boxes(diagram, shape), label_boxes(diagram, shape)
    for i, a in enumerate(nodes):
        assert not any(overlap(a, b) for b in nodes[i + 1:]), diagram.nodes[i]
    for i, a in enumerate(labels):
        assert not any(overlap(a, b) for b in labels[i + 1:] + nodes), a
    for line in shape.lines:
        assert not any(crosses(line, box) for box in nodes + labels), line


sizes = st.builds(KeylockParams, unique=st.integers(1, 100), multi=st.integers(0, 20), permanent=st.integers(0, 20),
                  multi_max_keys=st.integers(1, 6), spread=st.sampled_from([0.001, 0.01, 0.1, 1.0]))


@given(sizes, st.integers(0, 2**32))
@settings(max_examples=examples(25), deadline=None)
def test_keylock_picture_has_no_line_through_a_node_nor_overlapping_marks(params: KeylockParams, seed: int) -> None:
    diagram = diagram_of(params, seed)
    kids = [diagram.kids(node.id) for node in diagram.nodes]
    check_tidy(kids, *tidy_layout(kids))
    check_picture(diagram)


@pytest.mark.parametrize("seed", range(3))
def test_a_200_object_diagram_is_drawn_cleanly(seed: int) -> None:
    diagram = diagram_of(KeylockParams(unique=60, multi=12, permanent=12, multi_max_keys=5), seed)
    assert 190 <= len(diagram.nodes) - 1 <= 230
    check_picture(diagram)


def test_sets_keep_distinct_paints_for_48_sets() -> None:
    assert len({fill(s) for s in range(1, 49)}) == 48
    diagram = diagram_of(KeylockParams(unique=30, multi=0, permanent=0), 1)
    svg_text = render_svg(diagram, analyse(diagram))
    assert 'id="stripes0"' in svg_text and 'fill="url(#stripes0)"' in svg_text  # set 13's, defined and used
    assert '<g id="keylock-legend" transform=' in svg_text  # a page may lift the legend out

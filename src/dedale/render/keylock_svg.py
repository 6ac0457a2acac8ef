"""Key-lock diagrams drawn as a tidy tree read from left to right: Start on the left, each object one column
right of its parent, a parent centred beside its children, subtrees pushed together as far as they go
(render/tidy_tree.py). A parent's line runs to a bar in the gap between columns, from which each child's line
leaves, so no line crosses another or passes through a node. Locks are squares and keys diamonds,
labelled with their set's number; each set has a colour and a fill, and the legend names every set by number
and kind, so colour is never needed: the unique sets in one line and a row of numbered swatches, then every
multi-key and permanent set on a line of its own. A multi-key lock holds the keys it needs too (11×3). Each node's other
marks stand right of it, above its line: its number (#7, for analyse and nest), ∅ for an empty lock, ⊘ for one
that never opens (the original multi-key draw), END for the suggested end.

Read from left to right because a tree's breadth is what grows with its size: a row of the tree is only a
node's height, where a column must hold a node's marks too, so a 200-object diagram fits an A3 page with
its text at about 6 points (benchmarks/pictures_print.py)."""

from __future__ import annotations

from typing import Any, NamedTuple

from dedale.core.seeds import readable
from dedale.i18n import t
from dedale.keylock.model import Diagram, Node
from dedale.render import svg
from dedale.render.tidy_tree import tidy_layout

COLUMN = 72  # from a parent to its children, at least (a column is as wide as its widest marks need)
ROW = 28  # between neighbours in a column
LOCK = 11  # half a lock's side (a multi-key lock is wider)
KEY = 13  # half a key's diagonal
START = (28.0, 11.0)  # half Start's width and height
BAR = 8  # the bar joining siblings stands this far left of the widest of their column
MARK_GAP = 4
MARGIN = 24
HEADER = 52
TEXT = 12  # every text of the tree and the legend
LEGEND_GAP = 30
LEGEND_WIDTH = 340  # at least
SWATCHES = 12  # unique sets' swatches a row
# Okabe-Ito and friends, distinct for most colour visions; sets 13-24 add white stripes, 25-36 white dots,
# 37-48 a white grid: 48 sets before a colour and fill come back (the set's number is on every node anyway).
SET_COLOURS = ("#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#999999",
               "#882255", "#44aa99", "#117733", "#aa4499")
FILLS = ("solid", "stripes", "dots", "grid")


class Label(NamedTuple):
    x: float
    y: float  # the baseline
    text: str
    bold: bool
    fill: str


class Mark(NamedTuple):
    text: str
    bold: bool
    fill: str


def layout(diagram: Diagram) -> dict[int, tuple[float, int]]:
    """Each node's place across its column (in rows, the first at 0) and its depth (its column)."""
    across, depth = tidy_layout([diagram.kids(node.id) for node in diagram.nodes])
    return {node.id: (across[node.id], depth[node.id]) for node in diagram.nodes}


def colour(set_id: int | None) -> str:
    return "white" if set_id is None else SET_COLOURS[(set_id - 1) % len(SET_COLOURS)]


def fill(set_id: int | None) -> str:
    """A set's paint: its colour, with the fill its number picks (a pattern defined by `_patterns`)."""
    if set_id is None:
        return "white"
    style = FILLS[(set_id - 1) // len(SET_COLOURS) % len(FILLS)]
    return colour(set_id) if style == "solid" else f"url(#{style}{(set_id - 1) % len(SET_COLOURS)})"


def _patterns(set_ids: set[int | None]) -> str:
    out = []
    for set_id in sorted(s for s in set_ids if s is not None and fill(s).startswith("url")):
        pattern_id = fill(set_id)[5:-1]
        back = f'<rect width="6" height="6" fill="{colour(set_id)}"/>'
        mark = {"s": '<path d="M0 0V6" stroke="white" stroke-width="2.2"/>',
                "d": '<circle cx="3" cy="3" r="1.3" fill="white"/>',
                "g": '<path d="M0 0V6M0 0H6" stroke="white" stroke-width="1.6"/>'}[pattern_id[0]]
        turn = "" if pattern_id[0] == "d" else ' patternTransform="rotate(45)"'
        out.append(f'<pattern id="{pattern_id}" width="6" height="6" patternUnits="userSpaceOnUse"{turn}>'
                   f"{back}{mark}</pattern>")
    return "".join(dict.fromkeys(out))


class Geometry(NamedTuple):
    centres: dict[int, tuple[float, float]]
    lines: list[tuple[float, float, float, float]]  # horizontal and vertical segments, x1 y1 x2 y2
    width: float  # of the tree with its labels
    height: float


def inside(diagram: Diagram, node: Node) -> str:
    """What a node's shape holds: its set's number, and the keys a multi-key lock needs (11×3)."""
    if node.type == "lock" and diagram.sets[(node.set or 1) - 1].kind == "multi":
        return f"{node.set}×{node.required}"
    return str(node.set)


def half_size(diagram: Diagram, node: Node) -> tuple[float, float]:
    """Half a node's box, across and down."""
    if node.type == "start":
        return START
    if node.type == "key":
        return KEY, KEY
    return max(LOCK, text_width(inside(diagram, node), TEXT, True) / 2 + 2), LOCK


def marks(diagram: Diagram, analysis: dict[str, Any], lang: str) -> dict[int, list[Mark]]:
    """Each node's marks, left to right: its number, ∅ if it is an empty lock, ⊘ if it never opens, END if it is
    the suggested end."""
    empty, end = set(analysis.get("empty_locks", [])), (analysis.get("end_candidates") or [None])[0]
    never = set(analysis.get("never_open", []))
    out = {}
    for node in diagram.nodes[1:]:
        row = [Mark(f"#{node.id}", False, svg.ZONE)]
        if node.id in empty:
            row.append(Mark("∅", True, svg.INK))
        if node.id in never:
            row.append(Mark("⊘", True, svg.ACCENT))
        if node.id == end:
            row.append(Mark(t("render.keylock_end", lang), True, svg.ACCENT))
        out[node.id] = row
    return out


def marks_width(row: list[Mark]) -> float:
    return sum(text_width(mark.text, TEXT, mark.bold) for mark in row) + MARK_GAP * (len(row) - 1)


def geometry(diagram: Diagram, analysis: dict[str, Any], lang: str, left: float = 0, top: float = 0) -> Geometry:
    place = layout(diagram)
    deepest = max(depth for _, depth in place.values())
    halves = [float(KEY)] * (deepest + 2)  # the widest node of each column, half of it
    reaches = [0.0] * (deepest + 1)  # how far right of its nodes' centres a column's marks reach
    for node_id, row in marks(diagram, analysis, lang).items():
        depth, half = place[node_id][1], half_size(diagram, diagram.nodes[node_id])[0]
        halves[depth] = max(halves[depth], half)
        reaches[depth] = max(reaches[depth], half + 3 + marks_width(row))
    bars = [half + BAR for half in halves]  # a column's bar stands this far left of its nodes' centres
    starts = [left + START[0]]  # each column as wide as its marks need, ending clear of the next one's bar
    for depth, reach in enumerate(reaches):
        starts.append(starts[-1] + max(COLUMN, reach + 6 + bars[depth + 1]))
    oy = top + ROW / 2
    centres = {n: (starts[depth], oy + across * ROW) for n, (across, depth) in place.items()}
    lines = []
    for node in diagram.nodes:
        kids = diagram.kids(node.id)
        if not kids:
            continue
        x, y = centres[node.id]
        depth = place[node.id][1]
        bar = starts[depth + 1] - bars[depth + 1]
        ends = [centres[kid][1] for kid in kids] + [y]
        lines.append((x + half_size(diagram, node)[0], y, bar, y))
        lines.append((bar, min(ends), bar, max(ends)))
        lines += [(bar, centres[kid][1], centres[kid][0] - half_size(diagram, diagram.nodes[kid])[0],
                   centres[kid][1]) for kid in kids]
    return Geometry(centres, lines, starts[-1] - bars[-1] - left, (max(a for a, _ in place.values()) + 1) * ROW)


def node_labels(diagram: Diagram, analysis: dict[str, Any], centres: dict[int, tuple[float, float]],
                lang: str) -> list[Label]:
    """Each node's marks, right of it and above its line (which leaves it at mid-height)."""
    out = []
    for node_id, row in marks(diagram, analysis, lang).items():
        x, y = centres[node_id]
        x += half_size(diagram, diagram.nodes[node_id])[0] + 3
        for mark in row:
            out.append(Label(x, y - 3.5, mark.text, mark.bold, mark.fill))
            x += text_width(mark.text, TEXT, mark.bold) + MARK_GAP
    return out


def text_width(content: str, size: float, bold: bool = False) -> float:
    """A generous width of DejaVu Sans text (its widest digits and signs), to keep labels apart."""
    return len(content) * size * (0.78 if bold else 0.72)


def render_svg(diagram: Diagram, analysis: dict[str, Any], lang: str = "en") -> str:
    top = MARGIN + HEADER
    shape = geometry(diagram, analysis, lang, MARGIN, top)
    empty, end = set(analysis.get("empty_locks", [])), (analysis.get("end_candidates") or [None])[0]
    body = [svg.text(MARGIN, MARGIN + 6, t("render.keylock_title", lang), 20, weight="bold"),
            svg.text(MARGIN, MARGIN + 26, _summary(diagram, analysis, lang), 12.5),
            '<g id="keylock-tree">']
    path = "".join(f"M{x1:g} {y1:g}{'H' if y1 == y2 else 'V'}{x2 if y1 == y2 else y2:g}"
                   for x1, y1, x2, y2 in shape.lines)
    body.append(f'<path d="{path}" stroke="{svg.INK}" stroke-width="1.4" fill="none"/>')
    for node in diagram.nodes:
        x, y = shape.centres[node.id]
        if node.type == "start":
            w, h = START
            body.append(f'<rect x="{x - w:g}" y="{y - h:g}" width="{2 * w}" height="{2 * h}" rx="{h}" fill="white" '
                        f'stroke="{svg.INK}" stroke-width="2"/>')
            body.append(svg.text(x, y + 4, t("render.keylock_start", lang), TEXT, "middle", "bold"))
            continue
        paint = fill(node.set)
        if node.type == "key":
            body.append(f'<polygon points="{x:g},{y - KEY:g} {x + KEY:g},{y:g} {x:g},{y + KEY:g} {x - KEY:g},{y:g}" '
                        f'fill="{paint}" stroke="{svg.INK}" stroke-width="1.4"/>')
        else:
            dash = ' stroke-dasharray="4 3"' if node.id in empty else ""
            stroke = 3.5 if node.id == end else 1.4
            w, h = half_size(diagram, node)
            body.append(f'<rect x="{x - w:g}" y="{y - h:g}" width="{2 * w:g}" height="{2 * h:g}" '
                        f'fill="{paint}" stroke="{svg.INK}" stroke-width="{stroke}"{dash}/>')
        held = inside(diagram, node)
        body.append(f'<text x="{x:g}" y="{y + 4.2:g}" font-size="{TEXT}" text-anchor="middle" font-weight="bold" '
                    f'fill="white" stroke="white" stroke-width="3" stroke-linejoin="round">{held}</text>')
        body.append(svg.text(x, y + 4.2, held, TEXT, "middle", "bold"))
    body += [svg.text(label.x, label.y, label.text, TEXT, weight="bold" if label.bold else "normal", fill=label.fill)
             for label in node_labels(diagram, analysis, shape.centres, lang)]
    body.append("</g>")
    legend_x = MARGIN + shape.width + LEGEND_GAP
    legend, legend_height = _legend(diagram, analysis, lang)
    longest = max((len(set_line(diagram, k.id, lang)) for k in diagram.sets if k.kind != "unique"), default=0)
    legend_width = max(LEGEND_WIDTH, 23 + longest * TEXT * 0.6, SWATCHES * swatch_width(diagram))  # a long set
    summary_width = len(_summary(diagram, analysis, lang)) * 12.5 * 0.6  # a line of mostly lower-case letters
    map_width = max(MARGIN + shape.width, summary_width) + MARGIN
    body.append(f'<g id="keylock-legend" transform="translate({legend_x:g} {top:g})" '
                f'data-width="{legend_width:g}" data-height="{legend_height:g}" data-map-width="{map_width:g}" '
                f'data-map-height="{top + shape.height + MARGIN:g}">{"".join(legend)}</g>')
    height = top + max(shape.height, legend_height) + MARGIN
    width = max(legend_x + legend_width, summary_width) + MARGIN
    defs = _patterns({node.set for node in diagram.nodes} | {s.id for s in diagram.sets})
    return svg.document(width, height, body, t("render.keylock_title", lang), defs)


def _summary(diagram: Diagram, analysis: dict[str, Any], lang: str) -> str:
    seed = "" if diagram.seed is None else t("render.seed", lang, seed=readable(diagram.seed)) + " · "
    walk = analysis.get("walk", {})
    return seed + t("render.keylock_summary", lang, objects=len(diagram.nodes) - 1, sets=len(diagram.sets),
                    steps=walk.get("steps", "?"), revisits=walk.get("revisits", "?"))


def set_line(diagram: Diagram, set_id: int, lang: str) -> str:
    """'2 multi: 4 keys, locks need 1, 3' (a multi-key or permanent set, in the legend and the text view)."""
    s = diagram.sets[set_id - 1]
    if s.kind == "multi":
        return t("render.keylock_multi", lang, id=s.id, keys=s.keys, needs=", ".join(map(str, s.requirements)))
    return t("render.keylock_permanent", lang, id=s.id, locks=s.locks)


def unique_line(diagram: Diagram, lang: str) -> str | None:
    """'1-12, 15 unique: one key, one lock each' (None without unique sets)."""
    ids = [s.id for s in diagram.sets if s.kind == "unique"]
    return t("render.keylock_uniques", lang, ids=runs(ids)) if ids else None


def runs(ids: list[int]) -> str:
    """'1–12, 15, 17–18': increasing numbers as runs."""
    spans: list[list[int]] = []  # first and last of each run
    for i in ids:
        if spans and i == spans[-1][1] + 1:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    out = [str(a) if a == b else f"{a}–{b}" for a, b in spans]
    return ", ".join(out)


def swatch_width(diagram: Diagram) -> float:
    """A unique set's swatch and the gap after it: its number at the tree's size (bold digits: 0.7 em)."""
    return len(str(len(diagram.sets))) * TEXT * 0.7 + 8


def _legend(diagram: Diagram, analysis: dict[str, Any], lang: str) -> tuple[list[str], float]:
    """The legend, drawn from (0, 0): the page may place it beside the tree or below it."""
    out = [svg.text(0.5, 4, t("render.keylock_sets", lang), 14, weight="bold")]
    y = 26.0
    uniques = unique_line(diagram, lang)
    if uniques is not None:
        for line in svg.wrap(uniques, 52):
            out.append(svg.text(0.5, y, line, TEXT))
            y += 16
        width = swatch_width(diagram)
        ids = [s.id for s in diagram.sets if s.kind == "unique"]
        for n, set_id in enumerate(ids):
            x, top = 0.5 + (n % SWATCHES) * width, y - 12 + (n // SWATCHES) * 20
            middle = x + (width - 3) / 2
            out.append(f'<rect x="{x:g}" y="{top:g}" width="{width - 3:g}" height="17" fill="{fill(set_id)}" '
                       f'stroke="{svg.INK}"/>')
            out.append(f'<text x="{middle:g}" y="{top + 13:g}" font-size="{TEXT}" text-anchor="middle" '
                       f'font-weight="bold" fill="white" stroke="white" stroke-width="3" stroke-linejoin="round">'
                       f'{set_id}</text>' + svg.text(middle, top + 13, str(set_id), TEXT, "middle", "bold"))
        y += 20 * -(-len(ids) // SWATCHES) + 4
    for s in diagram.sets:
        if s.kind != "unique":
            out.append(f'<rect x="0.5" y="{y - 12:g}" width="15" height="15" fill="{fill(s.id)}" '
                       f'stroke="{svg.INK}"/>')
            out.append(svg.text(23, y, set_line(diagram, s.id, lang), TEXT))
            y += 18
    y += 10
    never = [("⊘", "render.keylock_never")] if analysis.get("never_open") else []
    for mark, key in (("◇", "render.keylock_key"), ("□", "render.keylock_lock"), ("#7", "render.keylock_node_id"),
                      ("×3", "render.keylock_needs"), ("∅", "render.keylock_empty"), *never,
                      (t("render.keylock_end", lang), "render.keylock_end_key")):
        out.append(svg.text(10, y, mark, TEXT, "middle", "bold"))
        out.append(svg.text(32, y, t(key, lang), TEXT))
        y += 18
    candidates = analysis.get("end_candidates", [])[:5]
    if candidates:
        y += 8
        text = t("render.keylock_candidates", lang, locks=", ".join(f"#{i}" for i in candidates))
        for line in svg.wrap(text, 44):
            out.append(svg.text(0.5, y, line, TEXT))
            y += 16
    return out, y

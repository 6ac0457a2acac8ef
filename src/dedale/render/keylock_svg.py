"""Key-lock diagrams drawn as a layered tree: Start on top, each object one row below its parent, subtrees
side by side (so no lines cross). Locks are squares and keys diamonds, labelled with their set's number;
each set has its colour, and the legend names every set by number and kind so colour is never needed.
Multi-key locks show how many keys they need; empty locks are dashed; the suggested end is marked."""

from __future__ import annotations

from typing import Any

from dedale.i18n import t
from dedale.keylock.model import Diagram
from dedale.render import svg

COLUMN = 52
ROW = 76
SIDE = 30  # a lock's side; a key's diamond fits the same box
MARGIN = 30
HEADER = 56
LEGEND = 300
# Okabe-Ito and friends: distinct for most colour visions, and never the only clue.
SET_COLOURS = ("#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#999999",
               "#882255", "#44aa99", "#117733", "#aa4499")


def layout(diagram: Diagram) -> dict[int, tuple[float, int]]:
    """Each node's column (leaves side by side, a parent centred over its children) and row (depth)."""
    place: dict[int, tuple[float, int]] = {}
    next_leaf = 0.0
    stack: list[tuple[int, int, bool]] = [(0, 0, False)]
    while stack:  # depth first, iteratively: deep chains would overflow Python's stack
        node, depth, done = stack.pop()
        kids = diagram.kids(node)
        if not kids:
            place[node] = (next_leaf, depth)
            next_leaf += 1
        elif done:
            place[node] = ((place[kids[0]][0] + place[kids[-1]][0]) / 2, depth)
        else:
            stack.append((node, depth, True))
            stack.extend((kid, depth + 1, False) for kid in reversed(kids))
    return place


def colour(set_id: int | None) -> str:
    return "white" if set_id is None else SET_COLOURS[(set_id - 1) % len(SET_COLOURS)]


def render_svg(diagram: Diagram, analysis: dict[str, Any], lang: str = "en") -> str:
    place = layout(diagram)
    width = (max(x for x, _ in place.values()) + 1) * COLUMN
    depth = max(d for _, d in place.values())
    ox, oy = MARGIN + COLUMN / 2, MARGIN + HEADER + SIDE / 2 + 12

    def at(node: int) -> tuple[float, float]:
        x, d = place[node]
        return ox + x * COLUMN, oy + d * ROW

    empty, end = set(analysis.get("empty_locks", [])), (analysis.get("end_candidates") or [None])[0]
    body = [svg.text(MARGIN, MARGIN + 6, t("render.keylock_title", lang), 20, weight="bold"),
            svg.text(MARGIN, MARGIN + 26, _summary(diagram, analysis, lang), 12.5)]
    lines = "".join(f"M{at(n.parent)[0]:.1f} {at(n.parent)[1]:.1f}L{at(n.id)[0]:.1f} {at(n.id)[1]:.1f}"
                    for n in diagram.nodes if n.parent is not None)
    body.append(f'<path d="{lines}" stroke="{svg.INK}" stroke-width="1.6" fill="none"/>')
    half = SIDE / 2
    for node in diagram.nodes:
        x, y = at(node.id)
        fill = colour(node.set)
        if node.type == "start":
            body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{half + 4}" fill="white" stroke="{svg.INK}" '
                        f'stroke-width="2"/>')
            body.append(svg.text(x, y + 4, t("render.keylock_start", lang), 10, "middle", "bold"))
            continue
        if node.type == "key":
            body.append(f'<polygon points="{x:.1f},{y - half - 3:.1f} {x + half + 3:.1f},{y:.1f} {x:.1f},'
                        f'{y + half + 3:.1f} {x - half - 3:.1f},{y:.1f}" fill="{fill}" stroke="{svg.INK}" '
                        f'stroke-width="1.5"/>')
        else:
            dash = ' stroke-dasharray="4 3"' if node.id in empty else ""
            stroke = 4 if node.id == end else 1.5
            body.append(f'<rect x="{x - half:.1f}" y="{y - half:.1f}" width="{SIDE}" height="{SIDE}" fill="{fill}" '
                        f'stroke="{svg.INK}" stroke-width="{stroke}"{dash}/>')
            kind = diagram.sets[(node.set or 1) - 1].kind
            if kind == "multi":
                body.append(svg.text(x + half + 3, y + half + 2, f"×{node.required}", 10, "start", "bold"))
            if node.id == end:
                body.append(svg.text(x, y - half - 6, t("render.keylock_end", lang), 10, "middle", "bold",
                                     svg.ACCENT))
            if node.id in empty:
                body.append(svg.text(x - half - 3, y + half + 2, "∅", 11, "end", "bold", svg.ZONE))
        body.append(f'<text x="{x:.1f}" y="{y + 4.5:.1f}" font-size="13" text-anchor="middle" font-weight="bold" '
                    f'fill="white" stroke="white" stroke-width="3" stroke-linejoin="round">{node.set}</text>')
        body.append(svg.text(x, y + 4.5, str(node.set), 13, "middle", "bold"))
        body.append(svg.text(x, y + half + 15, f"#{node.id}", 8.5, "middle", fill=svg.ZONE))  # for analyse, nest
    legend, legend_height = _legend(diagram, analysis, MARGIN * 2 + width, MARGIN + HEADER, lang)
    body += legend
    height = MARGIN * 2 + HEADER + max(depth * ROW + SIDE + 40, legend_height)
    return svg.document(MARGIN * 2 + width + LEGEND, height, body, t("render.keylock_title", lang))


def _summary(diagram: Diagram, analysis: dict[str, Any], lang: str) -> str:
    seed = "" if diagram.seed is None else t("render.seed", lang, seed=diagram.seed) + " · "
    walk = analysis.get("walk", {})
    return seed + t("render.keylock_summary", lang, objects=len(diagram.nodes) - 1, sets=len(diagram.sets),
                    steps=walk.get("steps", "?"), revisits=walk.get("revisits", "?"))


def set_line(diagram: Diagram, set_id: int, lang: str) -> str:
    """'2 multi: 4 keys, locks need 1, 3' (the legend and the text view)."""
    s = diagram.sets[set_id - 1]
    if s.kind == "multi":
        return t("render.keylock_multi", lang, id=s.id, keys=s.keys, needs=", ".join(map(str, s.requirements)))
    return t(f"render.keylock_{s.kind}", lang, id=s.id, locks=s.locks)


def _legend(diagram: Diagram, analysis: dict[str, Any], x0: float, y0: float, lang: str) -> tuple[list[str], float]:
    out = [svg.text(x0, y0 + 4, t("render.keylock_sets", lang), 13, weight="bold")]
    y = y0 + 24
    for s in diagram.sets[:40]:
        out.append(f'<rect x="{x0}" y="{y - 11}" width="14" height="14" fill="{colour(s.id)}" stroke="{svg.INK}"/>')
        out.append(svg.text(x0 + 22, y, set_line(diagram, s.id, lang), 11))
        y += 17
    if len(diagram.sets) > 40:
        out.append(svg.text(x0 + 22, y, t("render.keylock_more", lang, more=len(diagram.sets) - 40), 11))
        y += 17
    y += 10
    for mark, key in (("◇", "render.keylock_key"), ("□", "render.keylock_lock"), ("#7", "render.keylock_node_id"),
                      ("×3", "render.keylock_needs"),
                      ("∅", "render.keylock_empty"), ("END", "render.keylock_end_key")):
        out.append(svg.text(x0 + 8, y, mark, 11, "middle", "bold"))
        out.append(svg.text(x0 + 26, y, t(key, lang), 11))
        y += 16
    candidates = analysis.get("end_candidates", [])[:5]
    if candidates:
        y += 8
        text = t("render.keylock_candidates", lang, locks=", ".join(f"#{i}" for i in candidates))
        for line in svg.wrap(text, 44):
            out.append(svg.text(x0, y, line, 11))
            y += 15
    return out, y - y0

"""A key-lock diagram as Graphviz DOT: `dot -Tsvg diagram.dot`."""

from __future__ import annotations

from typing import Any

from dedale.i18n import t
from dedale.keylock.model import Diagram
from dedale.render.keylock_svg import colour


def render_dot(diagram: Diagram, analysis: dict[str, Any], lang: str = "en") -> str:
    empty, candidates = set(analysis.get("empty_locks", [])), analysis.get("end_candidates", [])
    lines = ["digraph keylock {", '  node [fontname="DejaVu Sans", style=filled];']
    for node in diagram.nodes:
        if node.type == "start":
            lines.append(f'  n0 [label="{t("render.keylock_start", lang)}", shape=circle, fillcolor=white];')
            continue
        label = str(node.set)
        if node.type == "lock" and diagram.sets[(node.set or 1) - 1].kind == "multi":
            label += f" ×{node.required}"
        shape = "diamond" if node.type == "key" else "box"
        extra = ", style=\"filled,dashed\"" if node.id in empty else ""
        extra += ", penwidth=3" if candidates and node.id == candidates[0] else ""
        lines.append(f'  n{node.id} [label="{label}", shape={shape}, fillcolor="{colour(node.set)}"{extra}];')
    lines += [f"  n{n.parent} -> n{n.id};" for n in diagram.nodes if n.parent is not None]
    lines.append("}")
    return "\n".join(lines) + "\n"

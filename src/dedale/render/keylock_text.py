"""A key-lock diagram as an indented tree for the terminal, with the designer's analysis."""

from __future__ import annotations

from typing import Any

from dedale.i18n import t
from dedale.keylock.model import Diagram
from dedale.render.keylock_svg import _summary, set_line, unique_line

PAGE_VISITS = 24  # visits a page lists beside the diagram (the text download has them all)


def render_text(diagram: Diagram, analysis: dict[str, Any], lang: str = "en") -> str:
    empty, candidates = set(analysis.get("empty_locks", [])), analysis.get("end_candidates", [])
    never = set(analysis.get("never_open", []))
    lines = [_summary(diagram, analysis, lang), "", t("render.keylock_start", lang)]
    stack = [(kid, "", i == len(diagram.kids(0)) - 1) for i, kid in reversed(list(enumerate(diagram.kids(0))))]
    while stack:
        node_id, prefix, last = stack.pop()
        node = diagram.nodes[node_id]
        mark = "◆" if node.type == "key" else "■"
        text = f"{mark} {t(f'render.keylock_{node.type}_of', lang, set=node.set)} #{node.id}"
        if node.type == "lock" and diagram.sets[(node.set or 1) - 1].kind == "multi":
            text += f" ×{node.required}"
        if node.id in empty:
            text += "  ∅"
        if node.id in never:
            text += "  ⊘ " + t("render.keylock_never", lang)
        if candidates and node.id == candidates[0]:
            text += "  ← " + t("render.keylock_end", lang)
        lines.append(f"{prefix}{'└── ' if last else '├── '}{text}")
        kids = diagram.kids(node_id)
        below = prefix + ("    " if last else "│   ")
        stack.extend((kid, below, i == len(kids) - 1) for i, kid in reversed(list(enumerate(kids))))
    lines.append("")
    uniques = unique_line(diagram, lang)
    lines += [] if uniques is None else [f"  {uniques}"]
    lines += [f"  {set_line(diagram, s.id, lang)}" for s in diagram.sets if s.kind != "unique"]
    lines.append("")
    lines.append(analysis_text(diagram, analysis, lang))
    return "\n".join(lines) + "\n"


def analysis_text(diagram: Diagram, analysis: dict[str, Any], lang: str = "en", visits: int | None = None) -> str:
    """The designer's analysis in lines; the order of visits cut after `visits` of them, saying how many more
    (a page shows it beside the diagram, with a link to the whole: the text download)."""
    walk = analysis["walk"]
    order = walk["order"][1:]
    more = 0 if visits is None else max(0, len(order) - visits)
    ids = lambda items: ", ".join(f"#{i}" for i in items) or t("render.keylock_none", lang)  # noqa: E731
    unproven = analysis.get("keys_needed_unproven", {})
    return "\n".join([
        t("render.keylock_walk", lang, steps=walk["steps"], revisits=walk["revisits"]),
        t("render.keylock_walk_order", lang, order=ids(order[:len(order) - more]))
        + (t("render.keylock_walk_more", lang, more=more) if more else ""),
        t("render.keylock_candidates", lang, locks=ids(analysis["end_candidates"][:5])),
        *([t("render.keylock_unproven", lang, count=len(unproven))] if unproven else []),
        t("render.keylock_empty_list", lang, locks=ids(analysis["empty_locks"])),
        *([t("render.keylock_never_list", lang, locks=ids(analysis["never_open"]))]
          if "never_open" in analysis else []),
    ])

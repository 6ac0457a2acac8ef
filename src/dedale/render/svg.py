"""Small SVG helpers shared by the renderers, and the palette they share.

The palette is Okabe and Ito's, readable with every common colour-vision deficiency; pictures never rely
on colour alone (every kind of thing also has a pattern, a shape or a label) and stay legible in
black-and-white print.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#2b2118"
PAPER = "#fbf8f1"
GRID = "#d8d1c2"
ZONE = "#8c8273"
ROOM = "#efe2c4"
BOSS = "#f3b79a"  # a pale vermillion, always with a hatch
PASSAGE = "#0072b2"  # Okabe-Ito blue
ENTRANCE = "#009e73"  # Okabe-Ito bluish green
ACCENT = "#d55e00"  # Okabe-Ito vermillion
CANDIDATE = "#cc79a7"  # Okabe-Ito reddish purple: where a choice may put something (not a passage's blue)


def text(x: float, y: float, content: str, size: float = 12, anchor: str = "start", weight: str = "normal",
         fill: str = INK, extra: str = "") -> str:
    # Pictures hold hundreds of texts, most in a few columns: what is the same in a column is written once.
    if "&" in content or "<" in content or ">" in content or '"' in content or "'" in content:
        content = escape(content)  # only then: most texts need none
    if x > 0 and size > 0:  # cached by value, so not for 0 (-0.0 equals 0 but is written "-0") nor NaN
        head, tail = _text_frame(x, size, anchor, weight, fill, extra)
        return f"{head}{y:g}{tail}{content}</text>"
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}"{extra}>{content}</text>')


@lru_cache(maxsize=1024)
def _text_frame(x: float, size: float, anchor: str, weight: str, fill: str, extra: str) -> tuple[str, str]:
    """A text element before its `y` and after it, up to its content."""
    return (f'<text x="{x:g}" y="',
            f'" font-size="{size:g}" text-anchor="{anchor}" font-weight="{weight}" fill="{fill}"{extra}>')


def document(width: float, height: float, body: list[str], title: str, defs: str = "") -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" font-family="{FONT}">'
            f"<title>{escape(title)}</title><defs>{defs}</defs>"
            f'<rect width="100%" height="100%" fill="{PAPER}"/>' + "".join(body) + "</svg>")


def hatch(pattern_id: str, colour: str, spacing: float = 6, width: float = 1.2, angle: int = 45) -> str:
    return (f'<pattern id="{pattern_id}" width="{spacing:g}" height="{spacing:g}" patternUnits="userSpaceOnUse" '
            f'patternTransform="rotate({angle})"><line x1="0" y1="0" x2="0" y2="{spacing:g}" '
            f'stroke="{colour}" stroke-width="{width:g}"/></pattern>')


def dots(pattern_id: str, colour: str, spacing: float = 6, radius: float = 0.9) -> str:
    return (f'<pattern id="{pattern_id}" width="{spacing:g}" height="{spacing:g}" patternUnits="userSpaceOnUse">'
            f'<circle cx="{spacing / 2:g}" cy="{spacing / 2:g}" r="{radius:g}" fill="{colour}"/></pattern>')


NO_BREAK = frozenset("\u00a0\u202f\u2007")  # no-break, narrow no-break and figure spaces
BREAKS = re.compile("[^\\S\u00a0\u202f\u2007]+")  # white space a line may break at


def wrap(content: str, width: int) -> list[str]:
    """Split text into lines of at most `width` characters, at spaces (never at a no-break space: French puts
    one before its colons)."""
    words = content.split() if NO_BREAK.isdisjoint(content) else [w for w in BREAKS.split(content) if w]
    if len(content) <= width:  # one line (most labels): its words joined by single spaces, as below
        return [" ".join(words)] if words else [""]
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines or [""]


def clickable(kind: str, choice: str | None, title: str = "") -> str:
    """The opening of a mark's group: with a choice, one a click on it makes in a browser (app.js), its words
    as its tooltip; lit where pointed at (style.css)."""
    if not choice:
        return f'<g class="{kind}">'
    return f'<g class="choice {kind}" data-choice="{escape(choice)}"><title>{escape(title)}</title>'


def choice_number(cx: float, cy: float, r: float, label: str) -> str:
    """A choice's number on a picture, as the list of choices numbers it (the group `clickable` opened)."""
    return (f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="white" stroke="{CANDIDATE}" stroke-width="1.5"/>'
            + text(cx, cy + 4, label, 11, "middle", "bold", fill=INK) + "</g>")


def choice_wall(x0: float, y0: float, x1: float, y1: float) -> str:
    """A wall that is a choice (a door, an exit, a wall to search), drawn along it."""
    return (f'<path d="M{x0:g} {y0:g}L{x1:g} {y1:g}" stroke="{CANDIDATE}" stroke-width="6" stroke-opacity="0.6"/>'
            "</g>")

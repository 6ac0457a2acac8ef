"""The hexcrawl map as plain text: each hex two characters (its relief, then what stands there), odd
columns half a line lower, as flat-topped hexes sit. Unexplored hexes stay blank, but the communities,
known before play, show through."""

from __future__ import annotations

from dedale.hexcrawl.hexes import Hex, label, map_hexes, offset
from dedale.hexcrawl.model import RELIEFS, HexMap
from dedale.i18n import t
from dedale.render.hex_svg import nature

RELIEF_MARKS = ("≈", "·", "_", "=", "∩", "‗", "∧", "▲")
PLACE_MARKS = {"city": "★", "community": "●", "fae": "◆", "satellite": "■", "ruin": "†"}
PRIORITY = ("city", "community", "fae", "satellite", "ruin")


def render_text(hex_map: HexMap, lang: str = "en") -> str:
    radius = hex_map.radius
    places: dict[Hex, str] = {}
    for place in sorted([*hex_map.communities, *hex_map.sites], key=lambda p: PRIORITY.index(p["kind"]),
                        reverse=True):
        places[(place["q"], place["r"])] = PLACE_MARKS[place["kind"]]
    tokens: dict[tuple[int, int], str] = {}
    for h in map_hexes(radius):
        record = hex_map.hexes.get(h)
        first = "  " if record is None else RELIEF_MARKS[record.relief]
        second = places.get(h, "!" if record is not None and record.obstacle else " ")
        if h == hex_map.party:
            second = "@"
        col, row = offset(h, radius)
        tokens[(3 * (col - 1), 2 * (row - 1) + (h[0] & 1))] = (first + second)[:2] if record else " " + second
    seen = [xy for xy, token in tokens.items() if token.strip()] or list(tokens)
    x0, x1 = min(x for x, _ in seen), max(x for x, _ in seen)
    y0, y1 = min(y for _, y in seen), max(y for _, y in seen)
    lines = [_summary(hex_map, lang), ""]
    for y in range(y0, y1 + 1):
        chars = [" "] * (x1 - x0 + 2)
        for x in range(x0, x1 + 1, 3):
            token = tokens.get((x, y))
            if token:
                chars[x - x0:x - x0 + 2] = token
        lines.append("".join(chars).rstrip())
    lines.append("")
    lines.append("  ".join(f"{mark} {t(f'hexcrawl.relief.{name}', lang)}" for mark, name in zip(RELIEF_MARKS, RELIEFS,
                                                                                             strict=True)))
    lines.append(t("render.hex_text_key", lang))
    for c in hex_map.communities:
        where = label((c["q"], c["r"]), radius)
        lines.append(f"  {PLACE_MARKS[c['kind']]} {c['name']} ({where}): {nature(c, lang)}")
    return "\n".join(lines) + "\n"


def _summary(hex_map: HexMap, lang: str) -> str:
    from dedale.render.hex_svg import _summary as summary

    return summary(hex_map, lang)

"""The hexcrawl map as plain text: each hex two characters (its relief, then what stands there), odd
columns half a line lower, as flat-topped hexes sit. Unexplored hexes stay blank, but the communities,
known before play, show through."""

from __future__ import annotations

from dedale.hexcrawl.hexes import Hex, label, on_map
from dedale.hexcrawl.model import RELIEFS, Community, HexMap, Site
from dedale.i18n import t
from dedale.render.hex_svg import nature

RELIEF_MARKS = ("≈", "·", "_", "=", "∩", "‗", "∧", "▲")
PLACE_MARKS = {"city": "★", "community": "●", "fae": "◆", "satellite": "■", "ruin": "†"}
PRIORITY = ("city", "community", "fae", "satellite", "ruin")


def render_text(hex_map: HexMap, lang: str = "en") -> str:
    radius = hex_map.radius
    places: dict[Hex, str] = {}
    listed: list[Community | Site] = [*hex_map.communities, *hex_map.sites]
    for place in sorted(listed, key=lambda p: PRIORITY.index(p.kind),
                        reverse=True):
        places[(place.q, place.r)] = PLACE_MARKS[place.kind]
    if hex_map.party is not None:
        places[hex_map.party] = "@"
    # A hex (q, r) sits at column x = 3 (q + R) and line y = 2r + q + 2R (odd columns half a line lower). Only
    # what shows is framed: the explored hexes, the places and the party (the whole map when nothing shows).
    hexes = hex_map.hexes
    shown = [*hexes, *(h for h in places if on_map(h, radius))]
    if shown:
        xs, ys = [q for q, _ in shown], [q + 2 * r for q, r in shown]
        low_q, high_q, low_y, high_y = min(xs), max(xs), min(ys), max(ys)
    else:
        low_q, high_q, low_y, high_y = -radius, radius, -2 * radius, 2 * radius
    lines = [_summary(hex_map, lang), ""]
    for y in range(low_y, high_y + 1):
        first = low_q + ((y - low_q) & 1)  # the line's hexes are every other column, of y's parity
        tokens = []
        for q in range(first, high_q + 1, 2):
            r = (y - q) >> 1
            if -radius <= r <= radius and -radius <= q + r <= radius:
                record = hexes.get((q, r))
                if record is None:
                    tokens.append(" " + places.get((q, r), " "))
                else:
                    tokens.append(RELIEF_MARKS[record.relief]
                                  + places.get((q, r), " " if record.obstacle is None else "!"))
            else:
                tokens.append("  ")
        lines.append((" " * 3 * (first - low_q) + "    ".join(tokens)).rstrip())
    lines.append("")
    lines.append("  ".join(f"{mark} {t(f'hexcrawl.relief.{name}', lang)}" for mark, name in zip(RELIEF_MARKS, RELIEFS,
                                                                                             strict=True)))
    lines.append(t("render.hex_text_key", lang))
    for c in hex_map.communities:
        where = label((c.q, c.r), radius)
        lines.append(f"  {PLACE_MARKS[c.kind]} " + t("render.hex_community", lang, name=c.name, where=where,
                                                       nature=nature(c, lang)))
    return "\n".join(lines) + "\n"


def _summary(hex_map: HexMap, lang: str) -> str:
    from dedale.render.hex_svg import _summary as summary

    return summary(hex_map, lang)

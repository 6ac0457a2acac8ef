"""The hexcrawl map as SVG: hexes coloured and patterned by relief, vegetation and obstacle symbols,
communities and sites marked and named, offset labels, fog over unexplored hexes, the party's hex, and a
legend of every colour and symbol shown. Details give way to legibility as the map grows: at small hex sizes
only the relief colours, the communities and the party remain.

Sized for print: the map of radius 12 fitted on an A4 page sets its hex numbers at 6 points. A hex's number
and vegetation symbol take the first of their places in the hex that no mark of a place or an obstacle covers
(`hex_details`); the map's top and left edges give every column's and row's number, so a hex is found even
where its own number is not drawn (hidden by choice, or under a name). Communities' names are placed where
they cover no other name and no place's mark, and as few hex numbers and symbols as can be (`name_labels`).
While a player moves, each hex a move reaches is outlined and carries the move's number in the list of
choices."""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache
from html import escape
from typing import NamedTuple

from dedale.core.documents import dump
from dedale.core.seeds import readable
from dedale.core.tables import item_label
from dedale.hexcrawl.hexes import corners, label, map_hexes, position_offset, to_pixel
from dedale.hexcrawl.model import RELIEFS, Community, HexMap, Site
from dedale.hexcrawl.tables import COMMUNITY_TABLES
from dedale.i18n import t
from dedale.render import svg

# Relief: a colour (sea to snow) and a pattern, so that no relief is told by colour alone.
RELIEF_COLOURS = ("#6fa8dc", "#e8dca8", "#cfe3a6", "#93c47d", "#d3b77c", "#b9a37a", "#9c8c7a", "#eeeeee")
FOG = "#cfcac0"
VEGETATION_MARKS = {
    "dense_forest": "♣♣", "woods": "♣", "groves": "♠", "clearings": "○", "sands": "∴", "rocky_ground": "▴",
    "marsh": "≈", "wasteland": "×", "moor": "ʌ", "grassland": "\"", "pasture": "ᵥ", "farmland": "#",
    "meadow": "✿", "heath": "*", "copses": "♤", "peat_bog": "≋"}
OBSTACLE_MARKS = {"mountain_chain": "▲", "huge_cliff": "⊥", "geothermal": "♨", "lake": "●", "wide_river": "∿",
                  "canyon": "∨", "dead_lands": "☠", "wild_magic": "✶"}
Place = Community | Site
COMMUNITY_MARKS = {"city": "★", "community": "●", "fae": "◆", "satellite": "■", "ruin": "†"}
MARGIN = 18
HEADER = 46
LEGEND_GAP = 18
LEGEND_COLUMNS = (170, 290)  # reliefs and vegetation; places, obstacles and communities
NUMBER = 0.5  # a hex number's size, of the hex's circumradius
GLYPH = 0.55  # the vegetation's symbol
NAME, CITY_NAME = 10.5, 13.0  # communities' names (pixels)


class Box(NamedTuple):
    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box) -> bool:
        return self.left < other.right and other.left < self.right and self.top < other.bottom \
            and other.top < self.bottom


class NameLabel(NamedTuple):
    x: float
    y: float  # the baseline
    text: str
    size: float
    box: Box


def hex_size(radius: int) -> float:
    """The hexes' circumradius in pixels: 18 up to radius 12, then smaller so the map stays about 1,100
    pixels wide (never under 4)."""
    return 18.0 if radius <= 12 else max(4.0, 1100 / (3 * radius + 2))


def mark(marks: dict[str, str], hex_map: HexMap, table: str, key: str, lang: str) -> str:
    """The symbol of a table row; a player's own rows get their label's first letter."""
    return marks.get(key) or (hex_map.row_label(table, key, lang) or key)[:1].upper()


Link = tuple[str, str, str]  # a choice a click on a hex makes: its id, its words, its number in the list


def render_svg(hex_map: HexMap, links: dict[tuple[int, int], Link] | None = None, lang: str = "en",
               numbers: bool = True) -> str:
    """The map; `links` marks hexes with the choice a click on them makes (play in a browser); `numbers`
    False leaves each hex's number out (the edges keep the columns' and rows'). The legend is a group of its
    own (`hexcrawl-legend`), drawn from its top left corner."""
    radius = hex_map.radius
    size = hex_size(radius)
    half_w, half_h = size * (1.5 * radius + 1), size * svg_sqrt3() * (radius + 0.5)
    ox, oy = MARGIN + half_w, MARGIN + HEADER + half_h
    body = [svg.text(MARGIN, MARGIN + 6, t("render.hex_title", lang), 20, weight="bold"),
            svg.text(MARGIN, MARGIN + 26, _summary(hex_map, lang), 12.5)]
    body += hexes_body(hex_map, ox, oy, size, links, lang, numbers)
    body += edge_labels(radius, ox, oy, size)
    width = MARGIN + 2 * half_w + LEGEND_GAP
    legend, legend_height = _legend(hex_map, lang)
    body.append(f'<g id="hexcrawl-legend" transform="translate({width:g} {MARGIN + HEADER:g})" '
                f'data-width="{sum(LEGEND_COLUMNS)}" data-height="{legend_height:g}" '
                f'data-map-width="{map_width(hex_map, lang):g}" '
                f'data-map-height="{MARGIN * 2 + HEADER + 2 * half_h:g}">{"".join(legend)}</g>')
    height = MARGIN * 2 + HEADER + max(2 * half_h, legend_height)
    return svg.document(width + sum(LEGEND_COLUMNS) + MARGIN, height, body, t("render.hex_title", lang),
                        _patterns())


def map_width(hex_map: HexMap, lang: str) -> float:
    """The map's picture alone (a page sets its legend below it): the map, or its title and summary if a
    small map is narrower."""
    width = MARGIN + 2 * hex_size(hex_map.radius) * (1.5 * hex_map.radius + 1) + LEGEND_GAP
    header = MARGIN + max(len(t("render.hex_title", lang)) * 20 * 0.68, len(_summary(hex_map, lang)) * 12.5 * 0.6)
    return max(width, header + MARGIN)


def map_svg(hex_map: HexMap, size: float, ox: float, oy: float, width: float, height: float, lang: str = "en") -> str:
    """The hexes alone (no title, no legend), placed as a virtual tabletop's grid wants them."""
    return svg.document(width, height, hexes_body(hex_map, ox, oy, size, lang=lang), t("render.hex_title", lang),
                        _patterns())


def hexes_body(hex_map: HexMap, ox: float, oy: float, size: float, links: dict[tuple[int, int], Link] | None = None,
               lang: str = "en", numbers: bool = True) -> list[str]:
    """The hexes of circumradius `size`, hex (0, 0) centred at (ox, oy): reliefs, marks, places, the party.
    A hex number a community's name covers is left out (the edges give it)."""
    radius = hex_map.radius
    detailed = size >= 12
    cells: list[str] = []
    details: list[str] = []
    spots = hex_details(hex_map, ox, oy, size)
    names = name_labels(hex_map, ox, oy, size, spots)
    hidden = {h for name in names for h in _near(name.box, ox, oy, size)
              if (spot := spots.get(h)) is not None and spot.number is not None and spot.number.overlaps(name.box)}
    for h, points in zip(map_hexes(radius), _outlines(radius, size, ox, oy), strict=True):
        record = hex_map.hexes.get(h)
        if record is None:
            cells.append(f'<polygon points="{points}" fill="{FOG}" stroke="#b8b2a6" stroke-width="0.5"/>')
            continue
        relief = record.relief
        cells.append(f'<polygon points="{points}" fill="{RELIEF_COLOURS[relief]}" stroke="#8a8478" '
                     f'stroke-width="{0.6 if detailed else 0.3}"/>')
        if detailed:
            x, y = to_pixel(h, size)
            x, y = ox + x, oy + y
            spot = spots[h]
            cells.append(f'<polygon points="{points}" fill="url(#relief{relief})"/>')
            details.append(svg.text(spot.glyph[0], spot.glyph[1],
                                    mark(VEGETATION_MARKS, hex_map, "vegetation", record.vegetation, lang),
                                    size * GLYPH, "middle", fill="#2f4a1f"))
            if numbers and spot.number is not None and h not in hidden:
                box = spot.number
                details.append(svg.text((box.left + box.right) / 2, box.bottom, label(h, radius), size * NUMBER,
                                        "middle", fill="#3f3a33"))
            if record.obstacle is not None:
                dx, dy = position_offset(record.obstacle.position)
                symbol = mark(OBSTACLE_MARKS, hex_map, "obstacles", record.obstacle.kind, lang)
                details.append(svg.text(x + dx * size * 0.55, y + dy * size * 0.55 + size * 0.15, symbol,
                                        size * NUMBER, "middle", "bold", svg.ACCENT))
    body = cells + details
    body += _places(hex_map, ox, oy, size, names)
    half_w, half_h = size * (1.5 * radius + 1), size * svg_sqrt3() * (radius + 0.5)
    if links:
        body += _destinations(links, ox, oy, size, hex_map.party, Box(ox - half_w, oy - half_h, ox + half_w,
                                                                      oy + half_h), map_width(hex_map, lang),
                              [n.box for n in names])
    if hex_map.party is not None:
        x, y = to_pixel(hex_map.party, size)
        body.append(f'<circle cx="{ox + x:.1f}" cy="{oy + y:.1f}" r="{size * 0.62:.1f}" fill="none" '
                    f'stroke="{svg.ACCENT}" stroke-width="{max(1.5, size / 7):.1f}" stroke-dasharray="4 2"/>')
    return body


PHONE_BOARD = 360  # CSS pixels a phone gives a map drawn at its width
FINGER = 24  # CSS pixels: the least target a finger hits


DISC_SPOTS = ((0.0, 0.0), (0.0, -0.45), (0.0, 0.45), (-0.5, 0.0), (0.5, 0.0))  # in radii, best first


def _destinations(links: dict[tuple[int, int], Link], ox: float, oy: float, size: float, party: tuple[int, int] | None,
                  bounds: Box, drawn: float, names: list[Box]) -> list[str]:
    """Each hex a move reaches, outlined, and the move's number in the list on a disc: both are the click's
    target. Where a hex is FINGER pixels high once the map is drawn at a phone's width, the disc is small, in
    the hex where it hides the fewest names; else it is that wide and the discs fan out from the party's hex,
    each just beyond its own hex, so they cover no hex a move reaches and no other disc (the party's
    neighbours are 60 degrees apart, the discs further apart than they are wide)."""
    out = []
    step = size * svg_sqrt3()  # from a hex's centre to its neighbour's
    across = drawn * FINGER / PHONE_BOARD + 0.5  # the picture `drawn` wide fits a phone's board (+ rounding)
    fan = across > step and party is not None
    if not fan:
        across = max(12.0, size * 0.84)
    for h, (choice, words, number) in links.items():
        x, y = to_pixel(h, size)
        x, y = ox + x, oy + y
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in corners(x, y, size * 0.96))
        line = ""
        if fan and party is not None:
            px, py = to_pixel(party, size)
            px, py = ox + px, oy + py
            reach = (1.5 * step + across / 2 + 2) / step  # in steps from the party's hex
            cx = min(max(px + (x - px) * reach, bounds.left + across / 2), bounds.right - across / 2)
            cy = min(max(py + (y - py) * reach, bounds.top + across / 2), bounds.bottom - across / 2)
            line = (f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{cx:.1f}" y2="{cy:.1f}" stroke="{svg.PASSAGE}" '
                    f'stroke-width="2"/>')
        else:
            r = across / 2
            cx, cy = min(((x + dx * size, y + dy * size) for dx, dy in DISC_SPOTS),
                         key=lambda c: sum(Box(c[0] - r, c[1] - r, c[0] + r, c[1] + r).overlaps(box) for box in names))
        out.append(f'<g class="choice destination" data-choice="{escape(choice)}"><title>{escape(words)}</title>'
                   f'<polygon points="{points}" fill="{svg.PASSAGE}" fill-opacity="0.12" stroke="{svg.PASSAGE}" '
                   f'stroke-width="2.5" stroke-dasharray="5 3"/>{line}'
                   f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{across / 2:.1f}" fill="white" fill-opacity="0.9" '
                   f'stroke="{svg.PASSAGE}" stroke-width="{2 if fan else 1.5}"/>'
                   + svg.text(cx, cy + across * 0.2, number, across * 0.55, "middle", "bold", svg.PASSAGE) + "</g>")
    return out


def edge_labels(radius: int, ox: float, oy: float, size: float) -> list[str]:
    """Every column's number above the map and every row's at its left (rows as the even columns sit),
    as many as fit side by side: a hex's label is its column's then its row's."""
    width = max(2, len(str(2 * radius + 1)))
    font = max(6.0, size * NUMBER)
    half_h = size * svg_sqrt3() * (radius + 0.5)
    every = max(1, -(-int(width * font * 0.65 + 2) // int(size * 1.5)))  # columns 1.5 radii apart
    out = []
    for q in range(-radius, radius + 1, every):
        out.append(svg.text(ox + size * 1.5 * q, oy - half_h - 3, f"{q + radius + 1:0{width}d}", font, "middle",
                            fill="#6b645a"))
    rows = 2 * radius + 1
    every = max(1, -(-int(font + 2) // int(size * svg_sqrt3())))
    for row in range(1, rows + 1, every):
        out.append(svg.text(ox - size * (1.5 * radius + 1) - 2, oy + size * svg_sqrt3() * (row - radius - 1)
                            + font * 0.35, f"{row:0{width}d}", font, "end", fill="#6b645a"))
    return out


@lru_cache(maxsize=8)
def _outlines(radius: int, size: float, ox: float, oy: float) -> tuple[str, ...]:
    """Each hex's corners as SVG points, in `map_hexes` order: the same for every map of this radius drawn at
    this place, so worked out once (a web page draws its map anew at every click: 4,921 hexes at radius 40).
    A hex's corners from its centre are worked out once too (the same numbers as corners(x, y, size))."""
    (a0, b0), (a1, b1), (a2, b2), (a3, b3), (a4, b4), (a5, b5) = corners(0.0, 0.0, size)
    outlines = []
    for h in map_hexes(radius):
        x, y = to_pixel(h, size)
        x, y = ox + x, oy + y
        outlines.append(f"{x + a0:.1f},{y + b0:.1f} {x + a1:.1f},{y + b1:.1f} {x + a2:.1f},{y + b2:.1f} "
                        f"{x + a3:.1f},{y + b3:.1f} {x + a4:.1f},{y + b4:.1f} {x + a5:.1f},{y + b5:.1f}")
    return tuple(outlines)


def svg_sqrt3() -> float:
    return 3 ** 0.5


def _summary(hex_map: HexMap, lang: str) -> str:
    seed = "" if hex_map.seed is None else t("render.seed", lang, seed=readable(hex_map.seed)) + " · "
    total = 1 + 3 * hex_map.radius * (hex_map.radius + 1)
    return seed + t("render.hex_summary", lang, radius=hex_map.radius, explored=len(hex_map.hexes), total=total,
                    communities=len(hex_map.communities))


def place_marks(hex_map: HexMap, ox: float, oy: float, size: float) -> list[tuple[Place, float, float, float]]:
    """Each community and site with its mark's centre and size, at its place in the hex."""
    out = []
    places: list[Place] = [*hex_map.sites, *hex_map.communities]
    for place in places:
        x, y = to_pixel((place.q, place.r), size)
        dx, dy = position_offset(place.position)
        font = max(7.0, size * (0.8 if place.kind == "city" else 0.55))
        out.append((place, ox + x + dx * size * 0.5, oy + y + dy * size * 0.5, font))
    return out


def name_labels(hex_map: HexMap, ox: float, oy: float, size: float,
                spots: dict[tuple[int, int], Spots] | None = None) -> list[NameLabel]:
    """Communities' names, the city's first, each at the first of the places around its mark that covers no
    placed name, no mark and nothing beyond the map, and there the fewest hex numbers and symbols."""
    marks = place_marks(hex_map, ox, oy, size)
    blocked = [Box(x - font * 0.5, y - font * 0.5, x + font * 0.5, y + font * 0.5) for _, x, y, font in marks]
    half_w, half_h = size * (1.5 * hex_map.radius + 1), size * svg_sqrt3() * (hex_map.radius + 0.5)
    bounds = Box(ox - half_w, oy - half_h, ox + half_w, oy + half_h)
    covered = _hex_details(hex_map, ox, oy, size, spots)
    out: list[NameLabel] = []
    named = [(place, x, y, font) for place, x, y, font in marks if isinstance(place, Community)]
    for place, x, y, font in sorted(named, key=lambda m: m[0].kind != "city"):
        text = place.name
        text_size = CITY_NAME if place.kind == "city" else NAME
        width, gap = len(text) * text_size * 0.68, font * 0.5 + 2  # DejaVu Sans Bold, generously
        best: tuple[int, NameLabel] | None = None
        span = Box(x - width - 3 * gap, y - 3 * gap - text_size, x + width + 3 * gap, y + 3 * gap + text_size)
        nearby = [other for other in covered if span.overlaps(other)]  # all that any place below can cover
        for reach in (1.0, 2.2):
            for sx, sy in ((1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1)):
                left = x + gap * reach if sx > 0 else x - gap * reach - width if sx < 0 else x - width / 2
                top = y - text_size / 2 + sy * (gap * reach + text_size / 2)
                box = Box(left, top, left + width, top + text_size)
                if any(box.overlaps(other) for other in blocked) or not _inside(box, bounds):
                    continue
                cost = sum(box.overlaps(other) for other in nearby) + (3 if reach > 1 else 0)  # near its mark
                if best is None or cost < best[0]:
                    best = cost, NameLabel(left, top + text_size * 0.8, text, text_size, box)
        if best is None:  # nowhere free: to the right, as before
            box = Box(x + gap, y - text_size / 2, x + gap + width, y + text_size / 2)
            best = 0, NameLabel(box.left, box.top + text_size * 0.8, text, text_size, box)
        out.append(best[1])
        blocked.append(best[1].box)
    return out


def _inside(box: Box, bounds: Box) -> bool:
    return bounds.left <= box.left and box.right <= bounds.right and bounds.top <= box.top \
        and box.bottom <= bounds.bottom


def _near(box: Box, ox: float, oy: float, size: float) -> Iterator[tuple[int, int]]:
    """The hexes whose centre is within a radius of `box` (all a box may cover something of), on the map
    or not."""
    step, across = size * svg_sqrt3(), 1.5 * size
    for q in range(math.floor((box.left - ox - size) / across), math.ceil((box.right - ox + size) / across) + 1):
        low, high = (box.top - oy - size) / step - q / 2, (box.bottom - oy + size) / step - q / 2
        for r in range(math.floor(low), math.ceil(high) + 1):
            yield q, r


class Spots(NamedTuple):
    number: Box | None  # where the hex's number stands (None: not drawn, at this size or for want of room)
    glyph: tuple[float, float]  # where its vegetation symbol stands (its middle and baseline)


# Places of a hex's number (baselines) and of its vegetation symbol (middle, baseline), in radii from its
# centre, best first: the number above, the symbol below, unless a mark stands there.
NUMBER_SPOTS = (-0.36, 0.74, 0.2)
GLYPH_SPOTS = ((0.0, 0.6), (0.0, -0.3), (0.0, 0.2), (-0.55, 0.2), (0.55, 0.2))


def hex_details(hex_map: HexMap, ox: float, oy: float, size: float) -> dict[tuple[int, int], Spots]:
    """Where each explored hex's number and vegetation symbol stand: the first of their places in the hex
    that no place's mark, no obstacle's and (for the symbol) not the number covers."""
    if size < 12:
        return {}
    marks: dict[tuple[int, int], list[Box]] = {}
    for place, px, py, font in place_marks(hex_map, ox, oy, size):
        marks.setdefault((place.q, place.r), []).append(Box(px - font / 2, py - font / 2, px + font / 2,
                                                            py + font / 2))
    digits = len(label((0, 0), hex_map.radius))
    number, glyph = size * NUMBER, size * GLYPH
    half = digits * number * 0.32  # DejaVu Sans' digits are 0.64 em wide
    out = {}
    for h, record in hex_map.hexes.items():
        x, y = to_pixel(h, size)
        x, y = ox + x, oy + y
        taken = list(marks.get(h, ()))
        if record.obstacle is not None:
            dx, dy = position_offset(record.obstacle.position)
            cx, cy = x + dx * size * 0.55, y + dy * size * 0.55
            taken.append(Box(cx - size * 0.25, cy - size * 0.25, cx + size * 0.25, cy + size * 0.25))
        first = Box(x - half, y + NUMBER_SPOTS[0] * size - number * 0.75, x + half, y + NUMBER_SPOTS[0] * size)
        if not taken:  # most hexes: both in their first places
            out[h] = Spots(first if size >= 16 else None, (x + GLYPH_SPOTS[0][0] * size, y + GLYPH_SPOTS[0][1] * size))
            continue
        spot = None
        if size >= 16:
            boxes = [first, *(Box(x - half, y + by * size - number * 0.75, x + half, y + by * size)
                              for by in NUMBER_SPOTS[1:])]
            spot = next((box for box in boxes if not any(box.overlaps(other) for other in taken)), None)
            if spot is not None:  # else none is drawn: the edges give the hex's column and row
                taken.append(spot)
        placed = [(x + gx * size, y + gy * size) for gx, gy in GLYPH_SPOTS]
        glyph_box = [Box(gx - glyph * 0.5, gy - glyph * 0.75, gx + glyph * 0.5, gy) for gx, gy in placed]
        best = min(range(len(placed)), key=lambda i: sum(glyph_box[i].overlaps(other) for other in taken))
        out[h] = Spots(spot, placed[best])
    return out


def _hex_details(hex_map: HexMap, ox: float, oy: float, size: float,
                 spots: dict[tuple[int, int], Spots] | None = None) -> list[Box]:
    """Where a hex's number and vegetation symbol stand, and its obstacle's: a name had better cover none."""
    if size < 12:
        return []
    out = []
    glyph = size * GLYPH
    for h, spot in (hex_details(hex_map, ox, oy, size) if spots is None else spots).items():
        if spot.number is not None:
            out.append(spot.number)
        gx, gy = spot.glyph
        out.append(Box(gx - glyph * 0.5, gy - glyph * 0.75, gx + glyph * 0.5, gy))
        record = hex_map.hexes[h]
        if record.obstacle is not None:
            x, y = to_pixel(h, size)
            dx, dy = position_offset(record.obstacle.position)
            cx, cy = ox + x + dx * size * 0.55, oy + y + dy * size * 0.55
            out.append(Box(cx - size * 0.25, cy - size * 0.25, cx + size * 0.25, cy + size * 0.25))
    return out


def _places(hex_map: HexMap, ox: float, oy: float, size: float, names: list[NameLabel]) -> list[str]:
    """Communities and sites at their place in the hex, then the communities' names on a white halo."""
    out = []
    for place, px, py, font in place_marks(hex_map, ox, oy, size):
        kind = place.kind
        out.append(svg.text(px, py + font * 0.35, COMMUNITY_MARKS[kind], font, "middle", "bold",
                            svg.INK if kind != "fae" else "#7a3e9d", ' stroke="white" stroke-width="0.6"'))
    for name in names:
        where = f'x="{name.x:.1f}" y="{name.y:.1f}" font-size="{name.size:g}"'
        text = escape(name.text)
        out.append(f'<text {where} font-weight="bold" fill="white" stroke="white" stroke-width="3" '
                   f'stroke-linejoin="round">{text}</text>'
                   f'<text {where} font-weight="bold" fill="{svg.INK}">{text}</text>')
    return out


def _patterns() -> str:
    """One pattern a relief, drawn over its colour."""
    ink = "#4d4a44"
    shapes = [
        '<path d="M0 3 q1.5 -2 3 0 t3 0" stroke="#1f4e79" stroke-width="0.6" fill="none"/>',  # waters: waves
        f'<circle cx="3" cy="3" r="0.6" fill="{ink}"/>',  # shores: dots
        "",  # plains: plain
        '<path d="M0 0 L6 6" stroke="#2f6b2f" stroke-width="0.5"/>',  # river valley: diagonals
        f'<path d="M1 4 q2 -3 4 0" stroke="{ink}" stroke-width="0.5" fill="none"/>',  # hills: arcs
        f'<path d="M0 3 H6" stroke="{ink}" stroke-width="0.5"/>',  # plateaus: level lines
        f'<path d="M1 5 L3 1.5 L5 5" stroke="{ink}" stroke-width="0.5" fill="none"/>',  # low mountains
        f'<path d="M1 5 L3 1 L5 5 Z" fill="{ink}"/>',  # high mountains
    ]
    return "".join(f'<pattern id="relief{i}" width="6" height="6" patternUnits="userSpaceOnUse" '
                   f'patternTransform="scale(1.5)" opacity="0.5">{shape}</pattern>' for i, shape in enumerate(shapes))


def _legend(hex_map: HexMap, lang: str) -> tuple[list[str], float]:
    """Every colour and symbol of the map in two columns, drawn from (0, 0): reliefs and vegetation, then
    places, obstacles and communities."""
    out = [svg.text(0.5, 4, t("render.hex_reliefs", lang), 13, weight="bold")]
    y = 22.0
    for i, relief in enumerate(RELIEFS):
        out.append(f'<rect x="0.5" y="{y - 10:g}" width="20" height="13" fill="{RELIEF_COLOURS[i]}" stroke="#8a8478"/>'
                   f'<rect x="0.5" y="{y - 10:g}" width="20" height="13" fill="url(#relief{i})"/>')
        out.append(svg.text(28, y, t(f"hexcrawl.relief.{relief}", lang), 11))
        y += 17
    records = hex_map.hexes.values()
    vegetation = sorted({record.vegetation for record in records},
                        key=lambda key: hex_map.row_label("vegetation", key, lang))
    if vegetation:
        y += 8
        out.append(svg.text(0.5, y, t("render.hex_vegetation", lang), 13, weight="bold"))
        y += 18
        for key in vegetation:
            out.append(svg.text(10, y, mark(VEGETATION_MARKS, hex_map, "vegetation", key, lang), 12, "middle",
                                fill="#2f4a1f"))
            out.append(svg.text(28, y, hex_map.row_label("vegetation", key, lang), 11))
            y += 16
    first_column, x0 = y, LEGEND_COLUMNS[0]
    out.append(svg.text(x0, 4, t("render.hex_places", lang), 13, weight="bold"))
    y = 22
    for kind, key in (("city", "hexcrawl.kind.city"), ("community", "hexcrawl.kind.community"),
                      ("fae", "hexcrawl.kind.fae"), ("satellite", "render.hex_satellite"), ("ruin", "render.hex_ruin")):
        out.append(svg.text(x0 + 10, y, COMMUNITY_MARKS[kind], 12, "middle", "bold"))
        out.append(svg.text(x0 + 28, y, t(key, lang), 11))
        y += 16
    obstacles = sorted({record.obstacle.kind for record in records if record.obstacle is not None})
    if obstacles:
        y += 8
        out.append(svg.text(x0, y, t("render.hex_obstacles", lang), 13, weight="bold"))
        y += 18
        for key in obstacles:
            out.append(svg.text(x0 + 10, y, mark(OBSTACLE_MARKS, hex_map, "obstacles", key, lang), 12, "middle",
                                "bold", svg.ACCENT))
            out.append(svg.text(x0 + 28, y, hex_map.row_label("obstacles", key, lang), 11))
            y += 16
    y += 8
    out.append(svg.text(x0, y, t("render.hex_communities", lang), 13, weight="bold"))
    y += 18
    for community in hex_map.communities:
        line = t("render.hex_community", lang, name=community.name, where=community.label,
                 nature=nature(community, lang))
        for part in svg.wrap(line, 42):
            out.append(svg.text(x0, y, part, 10.5))
            y += 14
    return out, max(first_column, y)


def nature(community: Community, lang: str) -> str:
    """A community's nature in words (a row of its kind's table)."""
    return item_label("hexcrawl", COMMUNITY_TABLES[community.kind], dump(community.nature), lang)

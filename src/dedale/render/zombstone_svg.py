"""A Zombstone skirmish as SVG: the table at 18 pixels an inch with its inch grid and rulers, terrain patterned
and named by kind, each figure on its one-inch base (a disc for the lawmen, a square for the zombies; rings for
Stars and Supporting roles; its cartridges as pips beneath), this turn's and last turn's lines of fire with a
burst where someone was hit, and beside the table a key and each side's roster. Optional links mark what the
player may click: a destination, or a figure to shoot, aim at or act with.

Nothing is told by colour alone: the sides differ by shape, statuses by rings, states by marks (a drop for a
wound, a warning sign for a flight, a cross for a fallen figure), terrain by pattern and name.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from dedale.i18n import t
from dedale.render import svg
from dedale.render import zombstone_marks as marks
from dedale.zombstone.chances import whole_percent
from dedale.zombstone.skirmish.battlefield import RADIUS
from dedale.zombstone.skirmish.catalogue import SIDES, STATUSES
from dedale.zombstone.skirmish.view import FigureView, FireView, GameView
from dedale.zombstone.skirmish.wording import compass

Point = tuple[float, float]

PX = 18  # pixels an inch
R = RADIUS * PX  # a base's radius in pixels
MARGIN = 28
HEADER = 62
RULER = 20
GAP = 34  # between the table and the key
LEGEND = 420
ROW = 23  # a roster line
NAME_CHARS = 25  # of a name, on a roster line, before its status (bold, 10.5 pixels)
NAME_LINE = 12  # a long name's second line

# The sides: Okabe-Ito blue and bluish green, and a shape each.
SIDE_COLOURS = {"lawmen": svg.PASSAGE, "zombies": svg.ENTRANCE}
FLEEING = "#e69f00"  # Okabe-Ito orange
ACTING = "#f0e442"  # Okabe-Ito yellow: the figure the game waits on
FALLEN = "#bdb6aa"
MUTED = "#8c8273"
GROUND = "#f2e8d0"  # dust
GROUND_GRID = "#ddceac"
BUILDING = "#5a4636"
ROOF = "#7d6651"
TERRAIN_FILLS = {"heavy": "#cda977", "light": "#ecdcb3", "difficult": "#e2d0a4", "stairs": "#e2d0a4",
                 "ladder": "#e2d0a4", "wall": "#b9a48a", "gap": "#8a7560"}
TERRAIN_PATTERNS = {"heavy": "url(#heavy)", "light": "url(#light)", "difficult": "url(#difficult)",
                    "stairs": "url(#stairs)", "ladder": "url(#ladder)", "wall": "url(#wall)", "gap": "url(#gap)"}
TERRAIN_STROKES = {"heavy": f'stroke="{svg.INK}" stroke-width="1.2"',
                   "light": f'stroke="{BUILDING}" stroke-width="1" stroke-dasharray="3 2"',
                   "difficult": f'stroke="{ROOF}" stroke-width="0.8" stroke-dasharray="1 2"',
                   "stairs": f'stroke="{ROOF}" stroke-width="0.9"', "ladder": f'stroke="{ROOF}" stroke-width="0.9"',
                   "wall": f'stroke="{svg.INK}" stroke-width="1.6"',
                   "gap": f'stroke="{svg.INK}" stroke-width="1" stroke-dasharray="4 2"'}
TERRAIN_ORDER = ("gap", "difficult", "stairs", "ladder", "light", "heavy", "wall", "building")  # bottom to top
RINGS = {"star": (2.3, 4.8), "supporting": (2.6,), "extra": ()}  # status rings, pixels outside the base
CHOICE_ORDER = ("shoot", "melee", "aim")  # badges beside one figure, nearest first; other kinds after these


def render_svg(view: GameView, links: dict[str, dict[str, Any]] | None = None, lang: str = "en") -> str:
    """The battlefield; `links` maps choice ids to what they point at (`to`: [x, y] for a destination, or
    `figure`: a figure id) and their words (`label`), drawn as clickable marks (solo play in a browser). While
    the duel opening High Noon is played, its table instead."""
    if view.waiting and view.waiting["kind"] == "bet" and "duel" in view.waiting["about"]:
        return _duel_table(view.waiting["about"]["duel"], lang)
    width, height = view.battlefield.width * PX, view.battlefield.height * PX
    ox, oy = MARGIN + RULER, MARGIN + HEADER + RULER
    title = t("render.zombstone.title", lang, scenario=view.scenario)
    body = [svg.text(MARGIN, MARGIN + 6, title, 20, weight="bold")]
    body += [svg.text(MARGIN, MARGIN + 26 + 16 * i, line, 12.5) for i, line in enumerate(summary(view, lang))]
    body += _table(view, ox, oy)
    body += _terrain(view, ox, oy)
    body += _fire(view, ox, oy)
    strips = _strips(view, ox, oy)
    destinations, rings = _choices(view, links or {}, ox, oy, list(strips.values()), lang)
    body += destinations  # under the figures, which stay readable; the rings around targets over them
    body += _figures(view, ox, oy, strips, lang)
    body += rings
    x0, y0 = ox + width + GAP, MARGIN + HEADER
    map_width, map_height = ox + width + MARGIN, oy + height + MARGIN
    legend, bottom = _legend(view, 0, 0, bool(links), lang)
    roster, bottom = _roster(view, 0, bottom + 34, lang)
    # the key and roster, a group of its own drawn from its corner: a page may place it below the table
    body.append(f'<g id="zombstone-legend" transform="translate({x0:g} {y0:g})" data-width="{LEGEND}" '
                f'data-height="{bottom:g}" data-map-width="{map_width:g}" data-map-height="{map_height:g}">'
                f'{"".join(legend + roster)}</g>')
    return svg.document(x0 + LEGEND + MARGIN, max(map_height, y0 + bottom + MARGIN), body, title, _patterns())


# --- words ----------------------------------------------------------------------------------------------

def side_name(side: str, lang: str, capital: bool = False) -> str:
    name = t(f"skirmish.side.{side}", lang)
    return name[:1].upper() + name[1:] if capital else name


def summary(view: GameView, lang: str) -> list[str]:
    """The turn and what the game waits for, or how it ended; a line for the duel of a High Noon."""
    parts = [t("render.zombstone.turn", lang, turn=view.turn, turns=view.turns)]
    if view.over:
        parts.append(outcome(view, lang))
    else:
        if view.initiative:
            parts.append(t("render.zombstone.initiative", lang, side=side_name(view.initiative, lang)))
        if view.waiting:
            who = side_name(view.waiting["side"], lang)
            acting = view.acting
            parts.append(t("render.zombstone.waiting", lang, side=who) if acting is None else
                         t("render.zombstone.waiting_for", lang, side=who, figure=view.name(acting, lang)))
    lines = [" · ".join(parts)]
    if view.duel is not None:
        lines.append(_duel(view, lang))
    return lines


def outcome(view: GameView, lang: str) -> str:
    if view.winner is None:
        return t("skirmish.ending_draw", lang)
    winner = side_name(view.winner, lang)
    if view.decided_by in ("stars", "escort", "hold", "survival"):  # the scenario's own condition
        return t("skirmish.ending_decided", lang, winner=winner, how=t(f"skirmish.decided.{view.decided_by}", lang))
    if view.ending == "turns":
        return t("skirmish.ending_turns", lang, winner=winner, lawmen=view.worth("lawmen"),
                 zombies=view.worth("zombies"))
    return t("skirmish.ending_eliminated", lang, winner=winner)


def _duel(view: GameView, lang: str) -> str:
    duel = view.duel or {}
    words = "zombstone.hand" if duel["kind"] == "simple" else "duel.hand"  # Guts rolls', or poker hands
    hands = [t(f"{words}.{hand}", lang) for hand in duel["hands"]]
    if duel["folded"]:
        return t("render.zombstone.duel_folded", lang, side=side_name(duel["folded"], lang))
    if duel["winner"]:
        seat = SIDES.index(duel["winner"])  # the duel's seats are the sides, lawmen first
        return t("render.zombstone.duel_won", lang, side=side_name(duel["winner"], lang), hand=hands[seat],
                 other=hands[1 - seat])
    return t("render.zombstone.duel_split", lang)


def describe(view: GameView, figure: FigureView, lang: str) -> str:
    """The figure's state in words: fallen or fled, fleeing, wounded, hidden, Fame and hire; else ready."""
    words = [] if figure.state == "ready" else [t(f"render.zombstone.state_{figure.state}", lang)]
    if figure.wounded and figure.on_table:
        words.append(t("render.zombstone.wounded", lang))
    if figure.hidden and figure.on_table:
        words.append(t("render.zombstone.hidden", lang, token=view.token(figure)))
    if figure.fame:
        words.append(t("render.zombstone.fame", lang, fame=figure.fame))
    if figure.hired:
        words.append(t("render.zombstone.hired", lang))
    return ", ".join(words) or t("render.zombstone.state_ready", lang)


def status_name(status: str, lang: str) -> str:
    return t(f"render.zombstone.status_{status}", lang)


# --- the table -------------------------------------------------------------------------------------------

def _table(view: GameView, ox: float, oy: float) -> list[str]:
    """The table's ground, its inch grid (every sixth line stronger) and rulers along the top and left edges."""
    bf = view.battlefield
    width, height = bf.width * PX, bf.height * PX
    out = [f'<rect x="{ox}" y="{oy}" width="{width:g}" height="{height:g}" fill="{GROUND}"/>']
    fine: list[str] = []
    strong: list[str] = []
    for i in range(1, math.ceil(bf.width)):
        (strong if i % 6 == 0 else fine).append(f"M{ox + i * PX} {oy}v{height:g}")
    for i in range(1, math.ceil(bf.height)):
        (strong if i % 6 == 0 else fine).append(f"M{ox} {oy + i * PX}h{width:g}")
    out.append(f'<path d="{"".join(fine)}" stroke="{GROUND_GRID}" stroke-width="0.5"/>')
    out.append(f'<path d="{"".join(strong)}" stroke="{GROUND_GRID}" stroke-width="1.2"/>')
    ticks = []
    for i in range(math.floor(bf.width) + 1):
        ticks.append(f"M{ox + i * PX} {oy}v{-7 if i % 6 == 0 else -3}")
        if i % 6 == 0:
            out.append(svg.text(ox + i * PX, oy - 9, str(i), 9, "middle", fill=MUTED))
    for i in range(math.floor(bf.height) + 1):
        ticks.append(f"M{ox} {oy + i * PX}h{-7 if i % 6 == 0 else -3}")
        if i % 6 == 0 and i:
            out.append(svg.text(ox - 9, oy + i * PX + 3, str(i), 9, "end", fill=MUTED))
    out.append(f'<path d="{"".join(ticks)}" stroke="{MUTED}" stroke-width="0.8"/>')
    out.append(f'<rect x="{ox}" y="{oy}" width="{width:g}" height="{height:g}" fill="none" stroke="{svg.INK}" '
               f'stroke-width="1.6"/>')
    return out


def _terrain(view: GameView, ox: float, oy: float) -> list[str]:
    pieces = sorted(view.battlefield.terrain, key=lambda p: TERRAIN_ORDER.index(p.kind))
    shapes, labels = [], []
    for piece in pieces:
        x, y, w, h = ox + piece.x * PX, oy + piece.y * PX, piece.w * PX, piece.h * PX
        where = f'x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"'
        if piece.kind == "building":
            inset = min(3.0, w / 4, h / 4)
            shapes.append(f'<g class="terrain building"><rect {where} fill="{BUILDING}" stroke="{svg.INK}" '
                          f'stroke-width="1.4"/><rect x="{x + inset:g}" y="{y + inset:g}" width="{w - 2 * inset:g}" '
                          f'height="{h - 2 * inset:g}" fill="none" stroke="{ROOF}" stroke-width="1"/></g>')
        else:
            stroke = TERRAIN_STROKES[piece.kind]
            cross = f'<rect {where} fill="url(#heavy-cross)"/>' if piece.kind == "heavy" else ""  # cross-hatched
            shapes.append(f'<g class="terrain {piece.kind}"><rect {where} fill="{TERRAIN_FILLS[piece.kind]}"/>{cross}'
                          f'<rect {where} fill="{TERRAIN_PATTERNS[piece.kind]}" {stroke}/></g>')
        if piece.name:
            labels.append(_terrain_label(piece.kind, piece.name, x, y, w, h))
    return shapes + labels


def _terrain_label(kind: str, name: str, x: float, y: float, w: float, h: float) -> str:
    """A building's name inside it, wrapped; another piece's inside when it fits, else beside it (along a tall
    thin piece, turned) or below it."""
    if kind == "building":
        size = 9.5
        lines = svg.wrap(name, max(4, int((w - 6) / (size * 0.6))))
        top = y + h / 2 - (len(lines) - 1) * size * 0.6 + size * 0.35
        return "".join(svg.text(x + w / 2, top + i * size * 1.2, line, size, "middle", "bold", "white")
                       for i, line in enumerate(lines))
    size = 8.5
    long = len(name) * size * 0.58
    style = ' font-style="italic"' if kind == "difficult" else ""
    if long <= w - 4 and h >= size + 4:
        return _halo(x + w / 2, y + h / 2 + size * 0.35, name, size, style)
    if h > 2 * w and long <= h:
        cx, cy = x + w + size * 0.9, y + h / 2
        return _halo(cx, cy, name, size, f'{style} transform="rotate(-90 {cx:g} {cy:g})"')
    return _halo(x + w / 2, y + h + size + 1, name, size, style)


def _halo(x: float, y: float, content: str, size: float, extra: str = "") -> str:
    """Small text on a halo of the ground's colour, readable over the grid and the lines of fire."""
    return (svg.text(x, y, content, size, "middle", fill=GROUND,
                     extra=f' stroke="{GROUND}" stroke-width="2.6" stroke-linejoin="round"{extra}')
            + svg.text(x, y, content, size, "middle", fill=svg.INK, extra=extra))


# --- the lines of fire -------------------------------------------------------------------------------------

def _fire(view: GameView, ox: float, oy: float) -> list[str]:
    """Last turn's confrontations faint, this turn's bold: shots as arrows from shooter to target, melees as
    dashed strokes with a crossed mark where the bases meet; a burst where the loser stood."""
    bursts, lines, marks = [], [], []
    for fire in view.fire:
        x1, y1, x2, y2 = (ox + fire.line[0] * PX, oy + fire.line[1] * PX, ox + fire.line[2] * PX,
                          oy + fire.line[3] * PX)
        colour = SIDE_COLOURS[view.figures[fire.attacker].side]
        opacity = 0.9 if fire.current else 0.4
        if fire.won is not None:
            bx, by = (x2, y2) if fire.won == "attacker" else (x1, y1)
            bursts.append(_burst(bx, by, R + 5.5, opacity))
        lines.append(_fire_line(fire, x1, y1, x2, y2, colour, opacity))
        if fire.kind == "melee":
            marks.append(_melee_mark((x1 + x2) / 2, (y1 + y2) / 2, colour, opacity))
    return bursts + lines + marks


def _fire_line(fire: FireView, x1: float, y1: float, x2: float, y2: float, colour: str, opacity: float) -> str:
    """A line from base edge to base edge, with an arrowhead touching the target's base."""
    width = 2.2 if fire.current else 1.3
    length = math.hypot(x2 - x1, y2 - y1)
    kind = "fire current" if fire.current else "fire last"
    head = 7.5 if fire.current else 5.5
    if length <= 2 * (R + 1) + head:  # bases in contact: the mark between them says it
        return f'<g class="{kind} {fire.kind}" data-from="{fire.attacker}" data-to="{fire.target}"/>'
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    sx, sy = x1 + ux * (R + 1), y1 + uy * (R + 1)
    tx, ty = x2 - ux * (R + 1), y2 - uy * (R + 1)
    bx, by = tx - ux * head, ty - uy * head
    px, py = -uy * head * 0.5, ux * head * 0.5
    dash = ' stroke-dasharray="5 3"' if fire.kind == "melee" else ""
    return (f'<g class="{kind} {fire.kind}" data-from="{fire.attacker}" data-to="{fire.target}" opacity="{opacity}">'
            f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="{colour}" stroke-width="{width}" '
            f'stroke-linecap="round"{dash}/><polygon points="{tx:.1f},{ty:.1f} {bx + px:.1f},{by + py:.1f} '
            f'{bx - px:.1f},{by - py:.1f}" fill="{colour}"/></g>')


def _burst(x: float, y: float, radius: float, opacity: float) -> str:
    """A hit: a ten-pointed star, its spikes showing around the base it lies under."""
    points = []
    for i in range(20):
        r = radius if i % 2 == 0 else radius * 0.62
        angle = math.pi * i / 10
        points.append(f"{x + r * math.sin(angle):.1f},{y - r * math.cos(angle):.1f}")
    return (f'<polygon class="hit" points="{" ".join(points)}" fill="{svg.ACCENT}" fill-opacity="{opacity * 0.8:.2f}" '
            f'stroke="{svg.ACCENT}" stroke-width="0.8" stroke-opacity="{opacity:.2f}"/>')


def _melee_mark(x: float, y: float, colour: str, opacity: float, size: float = 1.0) -> str:
    """Two crossed strokes in a small disc: where a melee was fought (or, smaller, a charge's destination)."""
    arm = 2.4 * size
    return (f'<g class="melee-mark" opacity="{opacity}"><circle cx="{x:.1f}" cy="{y:.1f}" r="{4.5 * size:g}" '
            f'fill="white" stroke="{colour}" stroke-width="1.3"/><path d="M{x - arm:.1f} {y - arm:.1f}'
            f'l{2 * arm:g} {2 * arm:g}M{x + arm:.1f} {y - arm:.1f}l{-2 * arm:g} {2 * arm:g}" stroke="{svg.INK}" '
            f'stroke-width="1.1"/></g>')


# --- the figures -------------------------------------------------------------------------------------------

def _figures(view: GameView, ox: float, oy: float, strips: dict[int, marks.Box], lang: str) -> list[str]:
    """The fallen first, so the living stand over them; the acting figure on a yellow glow."""
    out = []
    acting = view.acting
    if acting is not None and acting.on_table:
        out.append(f'<circle class="acting" cx="{ox + acting.x * PX:.1f}" cy="{oy + acting.y * PX:.1f}" '
                   f'r="{R + 9:g}" fill="{ACTING}" fill-opacity="0.75" stroke="{FLEEING}" stroke-width="1.5"/>')
    shown = [f for f in view.figures if f.on_table]
    for figure in sorted(shown, key=lambda f: (f.in_play, not f.hidden)):
        out.append(_figure(view, figure, ox + figure.x * PX, oy + figure.y * PX, lang, strips.get(figure.id)))
    return out


def _strips(view: GameView, ox: float, oy: float) -> dict[int, marks.Box]:
    """Where each figure in play shows its cartridges: a strip clear of the other figures (`zombstone_marks`)."""
    shown = [f for f in view.figures if f.on_table]
    discs = {f.id: marks.Disc(ox + f.x * PX, oy + f.y * PX, _extent(view, f) + 1) for f in shown}
    placed: list[marks.Box] = []
    strips = {}
    for figure in shown:
        if not figure.in_play or figure.hidden:
            continue
        profile = view.profile(figure)
        half_w, half_h = _strip_size(profile.cartridges)
        others = [d for f, d in discs.items() if f != figure.id]
        strips[figure.id] = marks.place_strip((discs[figure.id].x, discs[figure.id].y), _extent(view, figure), half_w,
                                              half_h, others, placed)
    return strips


def _extent(view: GameView, figure: FigureView) -> float:
    """How far a figure's piece reaches from its centre, status rings included (pixels)."""
    if figure.masked or figure.hidden:
        return R
    return R + (RINGS[view.profile(figure).status] or (0.0,))[-1]


def _strip_size(total: int, size: float = 1.0) -> tuple[float, float]:
    """Half the width and height of a strip of `total` cartridges (as `_pips` draws it)."""
    step, r = 3.4 * size, 1.4 * size
    return ((total - 1) * step + 2 * r + 2) / 2, r + 1


def _figure(view: GameView, figure: FigureView, cx: float, cy: float, lang: str, strip: marks.Box | None) -> str:
    if figure.hidden:  # a numbered token: on the table it gives away neither who nor how hurt
        tip = t("render.zombstone.hidden", lang, token=view.token(figure))
        return (f'<g class="figure token" data-figure="{figure.id}"><title>{escape(tip)}</title>'
                + _token(figure.side, cx, cy, view.token(figure)) + "</g>")
    profile = view.profile(figure)
    tip = t("render.zombstone.tooltip", lang, name=view.name(figure, lang), label=view.label(figure),
            status=status_name(profile.status, lang), left=view.cartridges_left(figure), total=profile.cartridges,
            state=describe(view, figure, lang))
    body = _piece(figure.side, cx, cy, profile.status, view.label(figure), figure.state, figure.wounded)
    if strip is not None:
        body += _pips(strip.x, strip.y, profile.cartridges, profile.red, figure.ticked)
    return f'<g class="figure {figure.state}" data-figure="{figure.id}"><title>{escape(tip)}</title>{body}</g>'


def _shape(side: str, cx: float, cy: float, r: float, attrs: str) -> str:
    """A side's outline at radius `r`: a disc for the lawmen, a rounded square for the zombies."""
    if side == "lawmen":
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:g}" {attrs}/>'
    half = r * 0.92
    return (f'<rect x="{cx - half:.1f}" y="{cy - half:.1f}" width="{2 * half:.1f}" height="{2 * half:.1f}" '
            f'rx="{r * 0.3:.1f}" {attrs}/>')


def _piece(side: str, cx: float, cy: float, status: str, label: str, state: str = "ready",
           wounded: bool = False) -> str:
    """A figure on its base: the side's shape and colour (grey and crossed out when fallen, grey and dashed
    when fled for good), its status rings, its letter, a drop of blood when wounded, a warning sign when
    fleeing."""
    out = state in ("out", "gone")
    colour = FALLEN if out else SIDE_COLOURS[side]
    ring = MUTED if out else svg.INK
    dash = ' stroke-dasharray="2 1.5"' if state == "gone" else ""
    parts = [_shape(side, cx, cy, R + extra, f'fill="none" stroke="{ring}" stroke-width="1.3"{dash}')
             for extra in RINGS[status]]
    parts.append(_shape(side, cx, cy, R, f'fill="{colour}" stroke="{ring}" stroke-width="1"{dash}'))
    if state == "out":  # crossed out under its letter, which stays readable on a halo: who fell there
        d = R * 0.8
        parts.append(f'<path d="M{cx - d:.1f} {cy - d:.1f}L{cx + d:.1f} {cy + d:.1f}M{cx + d:.1f} {cy - d:.1f}'
                     f'L{cx - d:.1f} {cy + d:.1f}" stroke="{svg.INK}" stroke-width="1.8" stroke-linecap="round"/>')
        parts.append(svg.text(cx, cy + 3.7, label, 10.5, "middle", "bold", FALLEN,
                              extra=f' stroke="{FALLEN}" stroke-width="3" stroke-linejoin="round"'))
    parts.append(svg.text(cx, cy + 3.7, label, 10.5, "middle", "bold", svg.INK if out else "white"))
    if wounded and not out:
        x, y = cx + R * 0.8, cy + R * 0.55
        parts.append(f'<path class="wound" d="M{x:.1f} {y - 5:.1f}C{x + 3.6:.1f} {y - 0.8:.1f} {x + 3.6:.1f} '
                     f'{y + 3.2:.1f} {x:.1f} {y + 3.2:.1f}C{x - 3.6:.1f} {y + 3.2:.1f} {x - 3.6:.1f} {y - 0.8:.1f} '
                     f'{x:.1f} {y - 5:.1f}Z" fill="{svg.ACCENT}" stroke="white" stroke-width="0.9"/>')
    if state == "fleeing":
        x, y = cx - R * 0.85, cy - R * 0.75
        parts.append(f'<g class="fleeing"><polygon points="{x:.1f},{y - 5.5:.1f} {x + 5.5:.1f},{y + 4:.1f} '
                     f'{x - 5.5:.1f},{y + 4:.1f}" fill="{FLEEING}" stroke="{svg.INK}" stroke-width="0.9" '
                     f'stroke-linejoin="round"/>' + svg.text(x, y + 3.2, "!", 7.5, "middle", "bold") + "</g>")
    return "".join(parts)


def _token(side: str, cx: float, cy: float, number: int) -> str:
    return (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{R:g}" fill="{svg.ROOM}" stroke="{SIDE_COLOURS[side]}" '
            f'stroke-width="2" stroke-dasharray="3 1.6"/>' + svg.text(cx, cy + 3.7, str(number), 10.5, "middle",
                                                                        "bold"))


def _pips(cx: float, cy: float, total: int, red: int, ticked: int, size: float = 1.0) -> str:
    """The cartridges in a row on a pale strip: white ones, then red; those lost shrunk to grey dots."""
    step, r = 3.4 * size, 1.4 * size
    left = cx - (total - 1) * step / 2
    parts = [f'<rect x="{left - r - 1:.1f}" y="{cy - r - 1:.1f}" width="{(total - 1) * step + 2 * r + 2:.1f}" '
             f'height="{2 * r + 2:.1f}" rx="{r + 1:.1f}" fill="white" fill-opacity="0.85" stroke="{MUTED}" '
             f'stroke-width="0.4"/>']
    for i in range(total):
        x = left + i * step
        if i < ticked:
            parts.append(f'<circle cx="{x:.1f}" cy="{cy:.1f}" r="{r * 0.55:.2f}" fill="{MUTED}"/>')
        else:
            fill = svg.ACCENT if i >= total - red else "white"
            parts.append(f'<circle cx="{x:.1f}" cy="{cy:.1f}" r="{r:.2f}" fill="{fill}" stroke="{svg.INK}" '
                         f'stroke-width="{0.4 * size + 0.2:.2f}"/>')
    return f'<g class="cartridges" pointer-events="none">{"".join(parts)}</g>'


# --- the choices -------------------------------------------------------------------------------------------

def _choices(view: GameView, links: dict[str, dict[str, Any]], ox: float, oy: float, strips: list[marks.Box],
             lang: str) -> tuple[list[str], list[str]]:
    """Every choice is a disc of its own, `marks.TARGET` across (a finger's width on a phone): destinations
    labelled with where they go (a dotted path from the acting figure; drawn off their spot, joined to it, when
    the spot is taken); each shot, aimed shot or melee a badge beside its target, joined to it, saying whom and
    its chance. No mark lies on another, on a figure or on a cartridge strip (`zombstone_marks`)."""
    centres = {f.id: (ox + f.x * PX, oy + f.y * PX) for f in view.figures if f.on_table}
    around: dict[int, list[tuple[str, dict[str, Any]]]] = {}
    moves: list[tuple[str, str, dict[str, Any], Point]] = []
    for choice, data in links.items():
        words = str(data.get("label", choice))
        to = _point(data.get("to"))
        figure = data.get("figure")
        if to is not None:
            moves.append((choice, words, data, (ox + to[0] * PX, oy + to[1] * PX)))
        elif isinstance(figure, int) and not isinstance(figure, bool) and figure in centres:
            around.setdefault(figure, []).append((choice, data))
    taken = [marks.Disc(*centres[f.id], _extent(view, f) + 1) for f in view.figures if f.id in centres]
    acting = view.acting
    start = centres.get(acting.id) if acting is not None else None
    bf = view.battlefield
    bounds = (ox, oy, ox + bf.width * PX, oy + bf.height * PX)
    joins, badges = [], []
    for figure_id, choices in around.items():  # the badges first: each keeps close to its target
        centre = centres[figure_id]
        ordered = sorted(choices, key=lambda c: _kind_rank(c[0]))
        near = _extent(view, view.figures[figure_id]) + 1 + marks.TARGET
        placed = marks.place_marks([centre] * len(ordered), marks.TARGET, taken, strips, bounds, start, near)
        for (choice, data), (x, y) in zip(ordered, placed, strict=True):
            joins.append(f'<line class="join" x1="{centre[0]:.1f}" y1="{centre[1]:.1f}" x2="{x:.1f}" y2="{y:.1f}" '
                         f'stroke="{svg.ACCENT}" stroke-width="1.2" pointer-events="none"/>')
            badges.append(_badge(view, choice, data, view.figures[figure_id], (x, y)))
    moves.sort(key=lambda move: _move_rank(move[2]))
    placed = marks.place_marks([spot for *_, spot in moves], marks.TARGET, taken, strips, bounds, start)
    guides, spots = [], []
    for (choice, words, data, spot), (x, y) in zip(moves, placed, strict=True):
        if start is not None:
            guides.append(f'<line x1="{start[0]:.1f}" y1="{start[1]:.1f}" x2="{spot[0]:.1f}" y2="{spot[1]:.1f}" '
                          f'stroke="{svg.PASSAGE}" stroke-width="1" stroke-dasharray="1 2.5" stroke-opacity="0.8" '
                          f'pointer-events="none"/>')
        colour = svg.ACCENT if data.get("charge") else svg.PASSAGE  # a move into contact: vermillion
        if (x, y) != spot:  # drawn off its spot: a dot where the figure would stand, a line to it (under the marks)
            guides.append(f'<g class="spot" data-for="{escape(choice)}" pointer-events="none"><line '
                          f'x1="{spot[0]:.1f}" y1="{spot[1]:.1f}" x2="{x:.1f}" y2="{y:.1f}" stroke="{colour}" '
                          f'stroke-width="0.9"/><circle cx="{spot[0]:.1f}" cy="{spot[1]:.1f}" r="{marks.DOT:g}" '
                          f'fill="{colour}"/></g>')
        spots.append(f'<g class="choice move" data-choice="{escape(choice)}">'
                     f'<title>{escape(words)}</title>{_mark(x, y, colour)}'
                     f'{_destination_label(view, data, start, spot, x, y, colour, lang)}</g>')
    return guides + spots, joins + badges


def _move_rank(data: dict[str, Any]) -> int:
    """Which destinations keep their own spot first: charges, moves toward an enemy, into cover, the rest."""
    return 0 if data.get("charge") else 1 if "figure" in data else 2 if data.get("cover") else 3


def _destination_label(view: GameView, data: dict[str, Any], start: Point | None, spot: Point, x: float, y: float,
                       colour: str, lang: str) -> str:
    """What a destination says: an arrow and the letter of the enemy it heads for, a shield of cover, or the
    compass way (from the acting figure; 0 for staying put)."""
    figure = data.get("figure")
    if isinstance(figure, int) and not isinstance(figure, bool) and 0 <= figure < len(view.figures):
        target = view.figures[figure]
        letter = str(view.token(target)) if target.hidden else view.label(target)
        if data.get("charge"):  # the melee's cross above the letter: a charge is not told by colour alone
            return _melee_mark(x, y - 4, colour, 1, 0.7) + svg.text(x, y + 7, "→" + letter, 7, "middle", "bold", colour)
        return _mark_text(x, y, "→" + letter, colour)
    if data.get("cover"):
        return _cover_icon(x, y)
    if start is None:
        return ""
    if math.dist(start, spot) < 0.25 * PX:
        return _mark_text(x, y, "0", colour)
    return _mark_text(x, y, way_initials(t(f"dir.{compass(start, spot)}", lang)), colour)


def _mark(x: float, y: float, colour: str, r: float = marks.TARGET) -> str:
    """A destination: a dashed disc, pale so that what it says reads over a line of fire."""
    return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:g}" fill="white" fill-opacity="0.9" stroke="{colour}" '
            f'stroke-width="1.8" stroke-dasharray="3 2"/>')


def _mark_text(x: float, y: float, content: str, colour: str) -> str:
    return svg.text(x, y + 3, content, 8, "middle", "bold", colour)


def _cover_icon(x: float, y: float) -> str:
    """A small square of heavy cover: a destination into cover."""
    where = f'x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8"'
    return (f'<rect {where} fill="{TERRAIN_FILLS["heavy"]}" stroke="{svg.INK}" stroke-width="0.7"/>'
            f'<rect {where} fill="url(#heavy)"/>')


def way_initials(way: str) -> str:
    """A compass way as its initials: north-east NE, sud-ouest SO."""
    return "".join(part[:1].upper() for part in way.split("-"))


def _kind_rank(choice: str) -> int:
    kind = choice.split(":", 1)[0]
    return CHOICE_ORDER.index(kind) if kind in CHOICE_ORDER else len(CHOICE_ORDER)


def _badge(view: GameView, choice: str, data: dict[str, Any], target: FigureView, at: Point) -> str:
    """A shot, aimed shot or melee at `target`: a disc beside it with the target's letter and, for a shot, its
    chance to hit (`chance` in the link, a fraction of one)."""
    kind = choice.split(":", 1)[0]
    x, y = at
    letter = str(view.token(target)) if target.hidden else view.label(target)
    chance = data.get("chance")
    words = str(data.get("label", choice))
    if isinstance(chance, int | float) and not isinstance(chance, bool):
        inside = (svg.text(x, y - 1.5, letter, 8, "middle", "bold", svg.ACCENT)
                  + svg.text(x, y + 7, f"{whole_percent(chance)}%", 6.5, "middle", "bold", svg.INK))
    else:
        inside = svg.text(x, y + 3, letter, 9, "middle", "bold", svg.ACCENT)
    return (f'<g class="choice {escape(kind)}" data-choice="{escape(choice)}"><title>{escape(words)}</title>'
            f'{_badge_mark(kind, x, y)}{inside}</g>')


def _badge_mark(kind: str, x: float, y: float, r: float = marks.TARGET) -> str:
    """What a badge looks like: cross-hairs for an aimed shot, a solid ring for a melee, dashed for a shot."""
    colour = svg.ACCENT if kind in CHOICE_ORDER else svg.PASSAGE
    disc = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:g}" fill="white" fill-opacity="0.92" stroke="{colour}" '
    if kind == "aim":
        ticks = "".join(f"M{x + dx * (r - 3):.1f} {y + dy * (r - 3):.1f}L{x + dx * (r + 3):.1f} {y + dy * (r + 3):.1f}"
                        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)))
        return disc + f'stroke-width="1.4"/><path d="{ticks}" stroke="{colour}" stroke-width="1.8"/>'
    if kind == "melee":
        return disc + 'stroke-width="2.6"/>'
    return disc + 'stroke-width="2" stroke-dasharray="4 2"/>'


def _point(value: Any) -> tuple[float, float] | None:
    """A destination [x, y], or None when the link has none (or a malformed one)."""
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in value):
        return None
    return float(value[0]), float(value[1])


# --- the key and the roster ----------------------------------------------------------------------------------

def _legend(view: GameView, x0: float, y0: float, choices: bool, lang: str) -> tuple[list[str], float]:
    """The key in two columns: terrain and fire on the left, figures on the right."""
    out = [svg.text(x0, y0 + 4, t("render.zombstone.key", lang), 14, weight="bold")]
    top = y0 + 24
    left: list[tuple[str, str]] = []
    kinds = {piece.kind for piece in view.battlefield.terrain}  # stairs, ladders and walls when the table has some
    for kind in ("building", "heavy", "light", "difficult",
                 *(k for k in ("stairs", "ladder", "wall", "gap") if k in kinds)):
        left.append((_swatch(kind), t(f"render.zombstone.terrain_{kind}", lang)))
    arrow = f'<line x1="-11" y1="0" x2="5" y2="0" stroke="{svg.INK}" stroke-width="{{w}}"/>' \
            f'<polygon points="11,0 4,-3.5 4,3.5" fill="{svg.INK}"/>'
    left.append((f'<g>{arrow.format(w=2.2)}</g>', t("render.zombstone.fire_current", lang)))
    left.append((f'<g opacity="0.4">{arrow.format(w=1.3)}</g>', t("render.zombstone.fire_last", lang)))
    left.append((_melee_mark(0, 0, svg.INK, 1), t("render.zombstone.fire_melee", lang)))
    left.append((_burst(0, 0, 9, 0.9), t("render.zombstone.fire_hit", lang)))
    left.append(("", t("render.zombstone.grid", lang)))
    right: list[tuple[str, str]] = []
    for side, label in (("lawmen", "A"), ("zombies", "a")):
        right.append((_piece(side, 0, 0, "extra", label), side_name(side, lang, capital=True)))
    for status in STATUSES:
        right.append((_piece("lawmen", 0, 0, status, "A"), status_name(status, lang)))
    right.append((_piece("zombies", 0, 0, "extra", "a", wounded=True), t("render.zombstone.wounded", lang)))
    for state in ("fleeing", "out"):
        right.append((_piece("lawmen", 0, 0, "extra", "A", state), t(f"render.zombstone.state_{state}", lang)))
    right.append((_token("zombies", 0, 0, 1), t("render.zombstone.token", lang)))
    right.append((_pips(0, 0, 6, 2, 2, 1.4), t("render.zombstone.cartridges", lang)))
    if view.acting is not None:
        right.append((f'<circle r="{R + 2:g}" fill="{ACTING}" fill-opacity="0.75" stroke="{FLEEING}" '
                      f'stroke-width="1.5"/>', t("render.zombstone.acting", lang)))
    if choices:
        north = _mark_text(0, 0, way_initials(t("dir.N", lang)), svg.PASSAGE)
        left.append((_mark(0, 0, svg.PASSAGE, R) + north, t("render.zombstone.choice_move", lang)))
        left.append((_mark(0, 0, svg.PASSAGE, R) + _mark_text(0, 0, "→a", svg.PASSAGE),
                     t("render.zombstone.choice_toward", lang)))
        left.append((_mark(0, 0, svg.PASSAGE, R) + _cover_icon(0, 0), t("render.zombstone.choice_cover", lang)))
        left.append((f'<line x1="-11" y1="4" x2="0" y2="0" stroke="{svg.PASSAGE}" stroke-width="0.9"/>'
                     f'<circle cx="-11" cy="4" r="2" fill="{svg.PASSAGE}"/>' + _mark(3, -2, svg.PASSAGE, R),
                     t("render.zombstone.choice_off", lang)))
        right.append((_badge_mark("shoot", 0, 0, R) + svg.text(0, 3, "a", 8, "middle", "bold", svg.ACCENT),
                      t("render.zombstone.choice_shoot", lang)))
        right.append((_badge_mark("aim", 0, 0, R) + svg.text(0, 3, "a", 8, "middle", "bold", svg.ACCENT),
                      t("render.zombstone.choice_aim", lang)))
    step = 25
    for column, items in ((0, left), (1, right)):
        for i, (shape, words) in enumerate(items):
            x, y = x0 + column * LEGEND / 2 + 12, top + i * step
            if shape:
                out.append(f'<g transform="translate({x:g} {y - 4:g})">{shape}</g>')
            lines = svg.wrap(words, 31 if shape else 36)[:2]  # a long label on two lines, within its row
            for j, line in enumerate(lines):
                out.append(svg.text(x + (17 if shape else -12), y + (j * 11 - 5.5 if len(lines) > 1 else 0), line,
                                    10.5))
    return out, top + (max(len(left), len(right)) - 1) * step


def _swatch(kind: str) -> str:
    if kind == "building":
        return f'<rect x="-11" y="-7" width="22" height="14" fill="{BUILDING}" stroke="{svg.INK}" stroke-width="1.2"/>'
    where = 'x="-11" y="-7" width="22" height="14"'
    cross = f'<rect {where} fill="url(#heavy-cross)"/>' if kind == "heavy" else ""
    return (f'<rect {where} fill="{TERRAIN_FILLS[kind]}"/>{cross}<rect {where} fill="{TERRAIN_PATTERNS[kind]}" '
            f'stroke="{svg.INK}" stroke-width="0.8"/>')


def _roster(view: GameView, x0: float, y0: float, lang: str) -> tuple[list[str], float]:
    """Each side: its standing, then a line a character: its piece, name, status, cartridges and state."""
    out = []
    y = y0
    for side in SIDES:
        figures = view.side(side)
        heading = side_name(side, lang, capital=True)
        out.append(svg.text(x0, y, heading, 14, weight="bold"))
        out.append(svg.text(x0 + len(heading) * 10 + 8, y, t(
            "render.zombstone.standing", lang, standing=sum(f.in_play for f in figures), total=len(figures),
            worth=view.worth_shown(side), cards=view.hands[side]), 10.5, fill=MUTED))
        y += 24
        for index, figure in enumerate(figures):
            line, high = _roster_line(view, figure, x0, y, lang, index % 2 == 0)
            out.append(line)
            y += high
        y += 14
    return out, y


def _roster_line(view: GameView, figure: FigureView, x0: float, y: float, lang: str, band: bool) -> tuple[str, float]:
    """A character's piece (its token while hidden), whole name (on two lines when long), status, cartridges
    and state, every other line on a pale band; of a masked figure (the other side's hidden one, in a seat's
    view) only what the table shows: its token and state. With the height it takes."""
    ink = svg.INK if figure.in_play else MUTED
    piece = _token(figure.side, 0, 0, view.token(figure)) if figure.hidden and figure.on_table else ""
    known = ""
    if not figure.masked:  # (a masked figure that fled for good has no token left on the table: nothing to draw)
        profile = view.profile(figure)
        piece = piece or _piece(figure.side, 0, 0, profile.status, view.label(figure), figure.state, figure.wounded)
        known = (svg.text(x0 + 206, y, status_name(profile.status, lang), 10, fill=ink)
                 + _pips(x0 + 293, y - 4, profile.cartridges, profile.red, figure.ticked, 1.4))
    names = svg.wrap(view.name(figure, lang), NAME_CHARS)
    high = ROW + NAME_LINE * (len(names) - 1)
    shade = (f'<rect x="{x0:g}" y="{y - 13:g}" width="{LEGEND:g}" height="{high:g}" fill="{GROUND}" '
             f'fill-opacity="0.6"/>' if band else "")
    name = "".join(svg.text(x0 + 30, y + i * NAME_LINE, line, 10.5, fill=ink,
                            weight="bold" if figure.in_play else "normal") for i, line in enumerate(names))
    return (f'<g class="roster" data-figure="{figure.id}">{shade}'
            f'<g transform="translate({x0 + 12:g} {y - 4:g}) scale(0.8)">{piece}</g>'
            + name + known + svg.text(x0 + 318, y, describe(view, figure, lang), 10, fill=ink) + "</g>"), high


def _patterns() -> str:
    return (svg.hatch("heavy", BUILDING, 5, 0.9, 45) + svg.hatch("heavy-cross", BUILDING, 5, 0.9, -45)
            + svg.hatch("light", ROOF, 4.5, 1.1, 45)
            + svg.dots("difficult", ROOF, 4, 0.7)
            + svg.hatch("stairs", ROOF, 3.5, 1.2, 0) + svg.hatch("ladder", ROOF, 5, 1.6, 90)
            + svg.hatch("wall", svg.INK, 4, 0.8, 0) + svg.hatch("gap", svg.INK, 3, 0.6, -30))


def _duel_table(duel: dict[str, Any], lang: str) -> str:
    """The duel's felt, seen from the side whose hole cards the view shows (the lawmen's when both are)."""
    from dedale.render.duel_svg import render_svg as felt

    hole = duel["hole"]
    me = 1 if "??" in hole[0] and "??" not in hole[1] else 0
    names = [side_name(side, lang, capital=True) for side in SIDES]
    return felt({"duel": duel, "seed": None, "player": me, "names": names}, lang)

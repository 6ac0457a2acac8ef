"""Print-and-play PDFs of the crawler, at 1:1 like the seed's plywood tiles (a cell is 3 cm): a sheet of
every tile type with cut marks, and a generated board split across A4 pages with crop and alignment marks,
after (for `-o board.tiles.pdf`) an overview: the board with its legend beside it on one A4 page, across, the SVG
picture itself (render/crawler_svg.py) fitted to the page.

The look follows the SVG board (render/crawler_svg.py) and its palette, but sizes are physical: strokes
and type are set in points rather than scaled up from the picture, where they would print centimetres
thick. The layout (which tile goes where, which part of the board each page shows) is worked out by pure
functions, apart from the drawing, so it can be checked without reading a PDF.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dedale.core.errors import DedaleError
from dedale.core.extras import need
from dedale.core.seeds import readable
from dedale.crawler.model import Door, Dungeon
from dedale.crawler.tiles import BOSS, PASSAGES, ROOM_TILES, TILE_NAMES, tile_name
from dedale.i18n import t
from dedale.render import svg

if TYPE_CHECKING:
    import cairocffi as cairo

# Lengths are in centimetres, the drawing unit: every page's context is scaled by CM.
CM = 72 / 2.54  # PDF points per centimetre
PT = 1 / CM  # a point, in centimetres
PAGE_W, PAGE_H = 21.0, 29.7  # A4 portrait
CELL = 3.0
MARGIN = 1.0
BAND = 1.2  # kept free under the printed area, for the footer lines below the marks
AREA_W, AREA_H = PAGE_W - 2 * MARGIN, PAGE_H - 2 * MARGIN - BAND  # what a page prints: tiles or board
MARK_GAP, MARK_LEN = 0.15, 0.45  # cut and crop marks stand off the corner, then run this long
GUTTER = 1.0  # between tiles: more than a cut mark reaches, so no mark touches a neighbouring tile
OVERLAP = 1.0  # what each board page repeats of the page before it, to tape them together
ENTRANCE = 2.0  # kept beyond the board's edge for the entrance arrow
DOOR_THICK = 0.45  # a door's bar, across the wall
FONT = svg.FONT.split(",")[0]
LINE = 0.32  # between footer lines


@dataclass(frozen=True)
class Placed:
    """A tile on the sheet: its page (from 0), its top-left corner in cm from the page's, and its size in
    cells as laid (w and h swapped from the tile's own when it is turned)."""

    tile: str
    page: int
    x: float
    y: float
    w: int
    h: int


@dataclass(frozen=True)
class Box:
    """A rectangle in cm, in board coordinates (the board's north-west corner at 0, 0)."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class BoardPage:
    """One sheet of the board: its place among the sheets (from 0) and the window of the board it shows
    (AREA_W x AREA_H cm from its corner x, y)."""

    row: int
    column: int
    x: float
    y: float


def tile_types(boss_size: tuple[int, int]) -> list[tuple[str, tuple[int, int]]]:
    """Every tile a table needs, with its size in cells: the D8 rooms, the boss room, the passages."""
    rooms = [(tile_name(face), ROOM_TILES[face]) for face in sorted(ROOM_TILES)]
    passages = [(name, (1, int(name[1:]))) for name in PASSAGES]
    return [*rooms, (BOSS, boss_size), *passages]


def pack_tiles(boss_size: tuple[int, int] = (5, 5), copies: int = 1) -> list[Placed]:
    """Shelf packing, widest short side first: a tile goes on the first shelf of any page it fits on
    (stood up if that fits, to save width), else opens a shelf, long side across, on the first page with
    the height left. One set of the default tiles takes three pages, the fewest: the two 5x5 tiles and
    the 4x4 need a page each."""
    if copies < 1:
        raise ValueError("copies must be at least 1")
    tiles = sorted((item for item in tile_types(boss_size) for _ in range(copies)),
                   key=lambda item: (-min(item[1]), -max(item[1])))
    shelves: list[_Shelf] = []
    placed: list[Placed] = []
    for name, (a, b) in tiles:
        short, long = sorted((a, b))
        spot = next(((shelf, w, h) for shelf in shelves for w, h in ((short, long), (long, short))
                     if h * CELL <= shelf.height and shelf.used + w * CELL <= AREA_W), None)
        if spot is None:
            w, h = next(((w, h) for w, h in ((long, short), (short, long))
                         if w * CELL <= AREA_W and h * CELL <= AREA_H), (0, 0))
            if not w:
                raise DedaleError("pdf.too_big", tile=name, w=a, h=b,
                                  w_cm=f"{a * CELL:g}", h_cm=f"{b * CELL:g}")
            spot = (_open_shelf(shelves, h * CELL), w, h)
        shelf, w, h = spot
        placed.append(Placed(name, shelf.page, MARGIN + shelf.used, MARGIN + shelf.y, w, h))
        shelf.used += w * CELL + GUTTER
    return placed


@dataclass
class _Shelf:
    page: int
    y: float  # from the top of the page's printed area
    height: float
    used: float = 0.0  # width taken, with the gutter after each tile


def _open_shelf(shelves: list[_Shelf], height: float) -> _Shelf:
    pages = max((shelf.page for shelf in shelves), default=-1) + 1
    for page in range(pages + 1):
        top = max((s.y + s.height + GUTTER for s in shelves if s.page == page), default=0.0)
        if top + height <= AREA_H:
            shelves.append(_Shelf(page, top, height))
            return shelves[-1]
    raise AssertionError("a fresh page holds any tile that passed the size check")


def tiles_pdf(boss_size: tuple[int, int] = (5, 5), lang: str = "en", copies: int = 1) -> bytes:
    """Every tile type at 1:1, `copies` of each, with cut marks, on as few A4 pages as the packing finds."""
    placed = pack_tiles(boss_size, copies)
    pages = max(p.page for p in placed) + 1
    labels = {name: name for name in TILE_NAMES[:7]}
    labels[BOSS] = t("pdf.tile_boss", lang, size="{}x{}".format(*boss_size))
    labels.update({name: t("pdf.tile_passage", lang, length=name[1:]) for name in PASSAGES})

    def draw(ctx: cairo.Context, page: int) -> None:
        for tile in placed:
            if tile.page == page:
                _tile(ctx, tile, labels[tile.tile])
        _footer(ctx, [f"{t('pdf.tiles_title', lang)} · {t('pdf.page', lang, page=page + 1, pages=pages)}",
                      t("pdf.print_note", lang)])

    return _pdf(t("pdf.tiles_title", lang), pages, draw)


def board_crop(dungeon: Dungeon) -> Box:
    """The part of the board worth printing: the box around the zones that hold rooms or passages,
    widened beyond the board's edge for the entrance arrow. With no room yet, the whole board."""
    zone = dungeon.zone_cells
    corners = [cell for r in (room.rect for room in dungeon.rooms)
               for cell in ((r.x, r.y), (r.x + r.w - 1, r.y + r.h - 1))]
    corners += [cell for passage in dungeon.passages for cell in passage.cells]
    if not corners:
        corners = [(0, 0), (dungeon.board_zones * zone - 1, dungeon.board_zones * zone - 1)]
    zx = [x // zone for x, _ in corners]
    zy = [y // zone for _, y in corners]
    x0, y0 = min(zx) * zone * CELL, min(zy) * zone * CELL
    x1, y1 = (max(zx) + 1) * zone * CELL, (max(zy) + 1) * zone * CELL
    door = _entrance_door(dungeon)
    if door is not None:
        dx, dy = door.direction.dx, door.direction.dy  # inwards: the arrow lies on the other side
        x0, x1 = x0 - ENTRANCE * (dx > 0), x1 + ENTRANCE * (dx < 0)
        y0, y1 = y0 - ENTRANCE * (dy > 0), y1 + ENTRANCE * (dy < 0)
    return Box(x0, y0, x1 - x0, y1 - y0)


def board_pages(crop: Box) -> list[BoardPage]:
    """The sheets covering `crop`, row by row; each repeats OVERLAP cm of the one to its left and above."""
    columns, rows = _sheets(crop.w, AREA_W), _sheets(crop.h, AREA_H)
    return [BoardPage(r, c, crop.x + c * (AREA_W - OVERLAP), crop.y + r * (AREA_H - OVERLAP))
            for r in range(rows) for c in range(columns)]


def _sheets(length: float, window: float) -> int:
    return max(1, math.ceil((length - OVERLAP) / (window - OVERLAP) - 1e-9))


def board_pdf(dungeon: Dungeon, lang: str = "en", overview: bool = False) -> bytes:
    """The board at 1:1, cropped to the zones in use and split across A4 pages, to trim and tape; with
    `overview`, after a first page showing the whole board and its legend."""
    crop = board_crop(dungeon)
    pages = board_pages(crop)
    grid = (pages[-1].row + 1, pages[-1].column + 1)
    first = None
    if overview:
        from dedale.render.crawler_svg import render_svg

        first = render_svg(dungeon, lang=lang)
    return _pdf(t("pdf.board_title", lang), len(pages),
                lambda ctx, i: _board_page(ctx, dungeon, crop, pages[i], grid, lang), first)


def overview_scale(svg_width: float, svg_height: float) -> float:
    """Points per SVG pixel of the overview: the picture fitted within the margins of an A4 page, across."""
    return min((PAGE_H - 2 * MARGIN) * CM / svg_width, (PAGE_W - 2 * MARGIN) * CM / svg_height)


def _pdf(title: str, pages: int, draw: Callable[[cairo.Context, int], None], first: str | None = None) -> bytes:
    """The pages, A4 upright; `first`: an SVG picture on a page of its own before them, A4 across."""
    # Imported here: it loads the cairo library, which the text view does not need (nor installs: dedale[render]).
    cairo = need("render", "cairocffi")

    out = io.BytesIO()
    surface = cairo.PDFSurface(out, PAGE_W * CM, PAGE_H * CM)
    surface.set_metadata(cairo.PDF_METADATA_TITLE, title)
    if first is not None:
        surface.set_size(PAGE_H * CM, PAGE_W * CM)
        _svg_page(surface, first)
        surface.show_page()
        surface.set_size(PAGE_W * CM, PAGE_H * CM)
    ctx = cairo.Context(surface)
    ctx.scale(CM, CM)
    for page in range(pages):
        ctx.save()
        draw(ctx, page)
        ctx.restore()
        surface.show_page()
    surface.finish()
    return out.getvalue()


def _svg_page(surface: cairo.PDFSurface, picture: str) -> None:
    """An SVG picture drawn by cairosvg on the surface's page (A4 across), fitted within its margins, centred."""
    from dedale.render.png import svg_size

    surfaces: Any = need("render", "cairosvg.surface")
    parser: Any = need("render", "cairosvg.parser")

    class OnPage(surfaces.PDFSurface):
        """cairosvg's PDF surface drawing on a page of ours rather than making a document of its own."""

        def _create_surface(self, width: float, height: float) -> tuple[cairo.PDFSurface, float, float]:
            return self.output, width, height

    width, height = svg_size(picture)
    scale = overview_scale(width, height)
    page_w, page_h = PAGE_H * CM / scale, PAGE_W * CM / scale  # the page in the picture's pixels
    view = f"{(width - page_w) / 2:g} {(height - page_h) / 2:g} {page_w:g} {page_h:g}"
    head, rest = picture.split(">", 1)
    head = re.sub(r' width="[^"]*" height="[^"]*" viewBox="[^"]*"',
                  f' width="{PAGE_H * CM:g}" height="{PAGE_W * CM:g}" viewBox="{view}"', head, count=1)
    rest = rest.replace('<rect width="100%" height="100%"', f'<rect width="{width:g}" height="{height:g}"', 1)
    OnPage(parser.Tree(bytestring=(head + ">" + rest).encode("utf-8")), surface, 72)  # at 72 dpi, a pixel a point


# Tiles


def _tile(ctx: cairo.Context, tile: Placed, label: str) -> None:
    x, y, w, h = tile.x, tile.y, tile.w * CELL, tile.h * CELL
    if tile.tile in PASSAGES:
        _inner_grid(ctx, x, y, tile.w, tile.h)
        _passage(ctx, x, y, w, h)
        _stroke_rect(ctx, x, y, w, h, svg.INK, 0.8 * PT)
    else:
        _room(ctx, x, y, tile.w, tile.h, boss=tile.tile == BOSS, filling=False)
    _corner_marks(ctx, x, y, w, h)
    _label(ctx, x + 0.2, y + 0.2, label, w - 0.4)


def _label(ctx: cairo.Context, x: float, y: float, content: str, max_width: float) -> None:
    """The tile's type, small in its top-left corner, on white so it reads over a hatch."""
    size = _font(ctx, 8, bold=True, content=content, max_width=max_width - 0.2)
    _, y_bearing, width, height, _, _ = ctx.text_extents(content)
    ctx.rectangle(x, y, width + 0.2, height + 0.16)
    _fill(ctx, "#ffffff")
    _text(ctx, x + 0.1, y + 0.08 - y_bearing, content, size, bold=True)


def _corner_marks(ctx: cairo.Context, x: float, y: float, w: float, h: float) -> None:
    """Short lines continuing each edge beyond each corner, clear of the edge: where to cut."""
    for cx, sx in ((x, -1), (x + w, 1)):
        for cy, sy in ((y, -1), (y + h, 1)):
            ctx.move_to(cx + sx * MARK_GAP, cy)
            ctx.line_to(cx + sx * (MARK_GAP + MARK_LEN), cy)
            ctx.move_to(cx, cy + sy * MARK_GAP)
            ctx.line_to(cx, cy + sy * (MARK_GAP + MARK_LEN))
    _stroke(ctx, svg.INK, 0.5 * PT)


def _footer(ctx: cairo.Context, lines: list[str]) -> None:
    top = MARGIN + AREA_H + MARK_GAP + MARK_LEN + 0.35
    for i, line in enumerate(lines):
        _text(ctx, PAGE_W / 2, top + i * LINE, line, 7, svg.ZONE, anchor="middle", max_width=AREA_W)


# The board


def _board_page(ctx: cairo.Context, dungeon: Dungeon, crop: Box, page: BoardPage,
                grid: tuple[int, int], lang: str) -> None:
    rows, columns = grid
    ctx.save()
    ctx.translate(MARGIN - page.x, MARGIN - page.y)
    ctx.rectangle(page.x, page.y, AREA_W, AREA_H)
    ctx.clip()
    bleed = 0.1  # lets the strokes on the crop's edge print whole
    ctx.rectangle(crop.x - bleed, crop.y - bleed, crop.w + 2 * bleed, crop.h + 2 * bleed)
    ctx.clip()
    _board(ctx, dungeon, lang)
    ctx.restore()
    _corner_marks(ctx, MARGIN, MARGIN, AREA_W, AREA_H)
    guide_x = MARGIN + AREA_W - OVERLAP if page.column < columns - 1 else None
    guide_y = MARGIN + AREA_H - OVERLAP if page.row < rows - 1 else None
    _guides(ctx, guide_x, guide_y)
    _cell_numbers(ctx, dungeon, crop, page, guide_x, guide_y)
    where = t("pdf.board_page", lang, row=page.row + 1, column=page.column + 1, rows=rows, columns=columns)
    parts = [t("render.title", lang)]
    if dungeon.seed is not None:
        parts.append(t("render.seed", lang, seed=readable(dungeon.seed)))
    parts.append(where)
    cells = _cells_shown(dungeon, crop, page)
    if cells is not None:
        parts.append(t("pdf.cells", lang, x0=cells[0], x1=cells[1], y0=cells[2], y1=cells[3]))
    _footer(ctx, [" · ".join(parts), t("pdf.print_note", lang),
                  t("pdf.assemble", lang, overlap=f"{OVERLAP:g}")])


def _cells_shown(dungeon: Dungeon, crop: Box, page: BoardPage) -> tuple[int, int, int, int] | None:
    """First and last cell columns, then rows, of the board that the page shows (None: only the margin
    kept for the entrance)."""
    end = dungeon.board_zones * dungeon.zone_cells * CELL
    x0, x1 = max(page.x, crop.x, 0), min(page.x + AREA_W, crop.x + crop.w, end)
    y0, y1 = max(page.y, crop.y, 0), min(page.y + AREA_H, crop.y + crop.h, end)
    if x0 >= x1 or y0 >= y1:
        return None
    return (math.floor(x0 / CELL), math.ceil(x1 / CELL) - 1, math.floor(y0 / CELL), math.ceil(y1 / CELL) - 1)


def _guides(ctx: cairo.Context, guide_x: float | None, guide_y: float | None) -> None:
    """Triangles in the margins pointing at where the next page's edge goes (right and below)."""
    reach = MARK_GAP + MARK_LEN
    tips = []
    if guide_x is not None:
        tips += [(guide_x, MARGIN, 0, -1), (guide_x, MARGIN + AREA_H, 0, 1)]
    if guide_y is not None:
        tips += [(MARGIN, guide_y, -1, 0), (MARGIN + AREA_W, guide_y, 1, 0)]
    for x, y, dx, dy in tips:
        ctx.move_to(x + dx * 0.1, y + dy * 0.1)
        ctx.line_to(x + dx * reach - dy * 0.2, y + dy * reach + dx * 0.2)
        ctx.line_to(x + dx * reach + dy * 0.2, y + dy * reach - dx * 0.2)
        ctx.close_path()
    _fill(ctx, svg.ACCENT)


def _cell_numbers(ctx: cairo.Context, dungeon: Dungeon, crop: Box, page: BoardPage,
                  guide_x: float | None, guide_y: float | None) -> None:
    """Cell columns above the window and rows left of it, as along the SVG board, clear of the marks."""
    n = dungeon.board_zones * dungeon.zone_cells
    for i in range(n):
        centre = (i + 0.5) * CELL
        x, y = MARGIN + centre - page.x, MARGIN + centre - page.y
        if (crop.x < centre < crop.x + crop.w and MARGIN + 0.5 < x < MARGIN + AREA_W - 0.5
                and (guide_x is None or abs(x - guide_x) > 0.5)):
            _text(ctx, x, MARGIN - 0.3, str(i), 7, svg.ZONE, anchor="middle")
        if (crop.y < centre < crop.y + crop.h and MARGIN + 0.5 < y < MARGIN + AREA_H - 0.5
                and (guide_y is None or abs(y - guide_y) > 0.5)):
            _text(ctx, MARGIN - 0.25, y, str(i), 7, svg.ZONE, anchor="end", centre=True)


def _board(ctx: cairo.Context, dungeon: Dungeon, lang: str) -> None:
    """The whole board in board coordinates, in the SVG's order; the caller clips it to a page."""
    n, zone = dungeon.board_zones * dungeon.zone_cells, dungeon.zone_cells
    size = n * CELL
    for i in range(1, n):
        if i % zone:
            ctx.move_to(i * CELL, 0)
            ctx.line_to(i * CELL, size)
            ctx.move_to(0, i * CELL)
            ctx.line_to(size, i * CELL)
    _stroke(ctx, svg.GRID, 0.5 * PT)
    for i in range(0, n + 1, zone):
        ctx.move_to(i * CELL, 0)
        ctx.line_to(i * CELL, size)
        ctx.move_to(0, i * CELL)
        ctx.line_to(size, i * CELL)
    ctx.set_dash([0.4, 0.2])
    _stroke(ctx, svg.ZONE, 1.2 * PT)
    ctx.set_dash([])
    for room in dungeon.rooms:
        r = room.rect
        _room(ctx, r.x * CELL, r.y * CELL, r.w, r.h, room.boss, room.filling)
    for passage in dungeon.passages:
        xs, ys = [c[0] for c in passage.cells], [c[1] for c in passage.cells]
        x0, y0 = min(xs) * CELL, min(ys) * CELL
        _passage(ctx, x0, y0, (max(xs) + 1) * CELL - x0, (max(ys) + 1) * CELL - y0)
        first = passage.cells[0]
        _door_bar(ctx, (first[0] - passage.face.dx, first[1] - passage.face.dy), first, secret=True)
    for door in dungeon.doors:
        _door_bar(ctx, *door.cells)
    _entrance(ctx, dungeon, lang)
    for room in dungeon.rooms:
        _room_number(ctx, lang, room.rect.x + room.rect.w / 2, room.rect.y + room.rect.h / 2,
                     room.number, room.boss)


def _door_bar(ctx: cairo.Context, a: tuple[int, int], b: tuple[int, int], secret: bool = False) -> None:
    """A door across the wall between cells a and b: a small bar, long along the wall."""
    long, thick = CELL * 0.62, DOOR_THICK
    if a[1] == b[1]:  # side by side: the wall is vertical
        cx, cy, w, h = max(a[0], b[0]) * CELL, (a[1] + 0.5) * CELL, thick, long
    else:
        cx, cy, w, h = (a[0] + 0.5) * CELL, max(a[1], b[1]) * CELL, long, thick
    ctx.rectangle(cx - w / 2, cy - h / 2, w, h)
    _fill(ctx, "#ffffff", keep=True)
    if secret:
        ctx.set_dash([0.2, 0.1])
    _stroke(ctx, svg.PASSAGE if secret else svg.INK, 1.5 * PT)
    ctx.set_dash([])


def _entrance(ctx: cairo.Context, dungeon: Dungeon, lang: str) -> None:
    door = _entrance_door(dungeon)
    if door is None:
        return
    dx, dy = door.direction.dx, door.direction.dy
    xb, yb = door.cells[1]
    edge_x, edge_y = (xb + 0.5 - dx * 0.5) * CELL, (yb + 0.5 - dy * 0.5) * CELL
    tip_x, tip_y = edge_x - dx * DOOR_THICK * 0.7, edge_y - dy * DOOR_THICK * 0.7  # short of the door's bar
    tail = ENTRANCE - 0.25 - DOOR_THICK * 0.7
    ctx.move_to(tip_x - dx * tail, tip_y - dy * tail)
    ctx.line_to(tip_x - dx * 0.4, tip_y - dy * 0.4)
    _stroke(ctx, svg.ENTRANCE, 0.14)
    ctx.move_to(tip_x, tip_y)
    ctx.line_to(tip_x - dx * 0.55 - dy * 0.35, tip_y - dy * 0.55 + dx * 0.35)
    ctx.line_to(tip_x - dx * 0.55 + dy * 0.35, tip_y - dy * 0.55 - dx * 0.35)
    ctx.close_path()
    _fill(ctx, svg.ENTRANCE)
    mid_x, mid_y = tip_x - dx * tail / 2, tip_y - dy * tail / 2
    label = t("render.entrance", lang)
    if dx == 0:
        _text(ctx, mid_x + 0.3, mid_y, label, 10, svg.ENTRANCE, bold=True, centre=True)
    else:
        _text(ctx, mid_x, mid_y - 0.35, label, 10, svg.ENTRANCE, bold=True, anchor="middle",
              max_width=ENTRANCE - 0.2)


def _room_number(ctx: cairo.Context, lang: str, cx: float, cy: float, number: int, boss: bool) -> None:
    """The room's number in a circle at its centre (cell units in, cm out); the boss's with a badge."""
    x, y = cx * CELL, cy * CELL - (0.45 if boss else 0)
    ctx.arc(x, y, 0.6, 0, 2 * math.pi)
    _fill(ctx, "#ffffff", keep=True)
    _stroke(ctx, svg.INK, 1.2 * PT)
    _text(ctx, x, y, str(number), 14, bold=True, anchor="middle", centre=True)
    if boss:
        ctx.rectangle(x - 0.9, y + 0.75, 1.8, 0.6)
        _fill(ctx, "#ffffff", keep=True)
        _stroke(ctx, svg.INK, 1 * PT)
        _text(ctx, x, y + 1.05, t("pdf.boss", lang), 9, bold=True, anchor="middle", centre=True,
              max_width=1.6)


def _entrance_door(dungeon: Dungeon) -> Door | None:
    return next((d for d in dungeon.doors if d.rooms[0] is None), None)


# Shapes shared by the tiles and the board


def _room(ctx: cairo.Context, x: float, y: float, cols: int, rows: int, boss: bool, filling: bool) -> None:
    """A room as a tile shows it: filled, hatched for the boss, dotted when laid by filling, its cells
    drawn lightly, and a heavy outline (the boss's heavier)."""
    w, h = cols * CELL, rows * CELL
    ctx.rectangle(x, y, w, h)
    _fill(ctx, svg.BOSS if boss else svg.ROOM)
    if boss:
        _hatch(ctx, x, y, w, h, svg.ACCENT, 0.6, rising=True)
    elif filling:
        _dots(ctx, x, y, w, h)
    _inner_grid(ctx, x, y, cols, rows)
    _stroke_rect(ctx, x, y, w, h, svg.INK, (3.5 if boss else 2.5) * PT)


def _passage(ctx: cairo.Context, x: float, y: float, w: float, h: float) -> None:
    """A secret passage: hatched in blue within a dashed blue border, set in from its cells as in the SVG."""
    inset = CELL / 8
    x, y, w, h = x + inset, y + inset, w - 2 * inset, h - 2 * inset
    ctx.rectangle(x, y, w, h)
    _fill(ctx, "#ffffff")
    _hatch(ctx, x, y, w, h, svg.PASSAGE, 0.4, rising=False)
    ctx.set_dash([0.3, 0.15])
    _stroke_rect(ctx, x, y, w, h, svg.PASSAGE, 1.5 * PT)
    ctx.set_dash([])


def _inner_grid(ctx: cairo.Context, x: float, y: float, cols: int, rows: int) -> None:
    for i in range(1, cols):
        ctx.move_to(x + i * CELL, y)
        ctx.line_to(x + i * CELL, y + rows * CELL)
    for j in range(1, rows):
        ctx.move_to(x, y + j * CELL)
        ctx.line_to(x + cols * CELL, y + j * CELL)
    _stroke(ctx, svg.ZONE, 0.4 * PT)


def _hatch(ctx: cairo.Context, x: float, y: float, w: float, h: float, colour: str, spacing: float,
           rising: bool) -> None:
    """Diagonal lines `spacing` cm apart, rising (/) or falling (\\), on lines fixed to the board so the
    hatch runs on across pages."""
    ctx.save()
    ctx.rectangle(x, y, w, h)
    ctx.clip()
    step = spacing * math.sqrt(2)  # along an axis, between lines x + y = k (or x - y = k)
    low, high = (x + y, x + w + y + h) if rising else (x - y - h, x + w - y)
    k = math.floor(low / step) * step
    while k <= high:
        if rising:
            ctx.move_to(k - y, y)
            ctx.line_to(k - y - h, y + h)
        else:
            ctx.move_to(k + y, y)
            ctx.line_to(k + y + h, y + h)
        k += step
    _stroke(ctx, colour, 1.2 * PT)
    ctx.restore()


def _dots(ctx: cairo.Context, x: float, y: float, w: float, h: float, spacing: float = 0.6) -> None:
    """The filling rooms' dots, on a grid fixed to the board like the hatches."""
    i0, j0 = math.floor(x / spacing), math.floor(y / spacing)
    for i in range(i0, math.ceil((x + w) / spacing)):
        for j in range(j0, math.ceil((y + h) / spacing)):
            cx, cy = (i + 0.5) * spacing, (j + 0.5) * spacing
            if x < cx < x + w and y < cy < y + h:
                ctx.move_to(cx + 0.06, cy)
                ctx.arc(cx, cy, 0.06, 0, 2 * math.pi)
    _fill(ctx, svg.ZONE)


# Cairo plumbing


def _rgb(colour: str) -> tuple[float, float, float]:
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return r, g, b


def _fill(ctx: cairo.Context, colour: str, keep: bool = False) -> None:
    ctx.set_source_rgb(*_rgb(colour))
    if keep:
        ctx.fill_preserve()
    else:
        ctx.fill()


def _stroke(ctx: cairo.Context, colour: str, width: float) -> None:
    ctx.set_source_rgb(*_rgb(colour))
    ctx.set_line_width(width)
    ctx.stroke()


def _stroke_rect(ctx: cairo.Context, x: float, y: float, w: float, h: float, colour: str,
                 width: float) -> None:
    ctx.rectangle(x, y, w, h)
    _stroke(ctx, colour, width)


def _font(ctx: cairo.Context, size: float, bold: bool, content: str = "",
          max_width: float | None = None) -> float:
    """Select the font at `size` points, shrunk so `content` fits `max_width` cm; returns the size used."""
    import cairocffi as cairo

    weight = cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL
    ctx.select_font_face(FONT, cairo.FONT_SLANT_NORMAL, weight)
    ctx.set_font_size(size * PT)
    if max_width is not None:
        advance = ctx.text_extents(content)[4]
        if advance > max_width:
            size *= max_width / advance
            ctx.set_font_size(size * PT)
    return size


def _text(ctx: cairo.Context, x: float, y: float, content: str, size: float, colour: str = svg.INK,
          bold: bool = False, anchor: str = "start", centre: bool = False,
          max_width: float | None = None) -> None:
    """Text at (x, y) like svg.text: y is the baseline, or the middle of the ink when `centre`."""
    _font(ctx, size, bold, content, max_width)
    _, y_bearing, _, height, advance, _ = ctx.text_extents(content)
    shift = {"start": 0.0, "middle": 0.5, "end": 1.0}[anchor] * advance
    ctx.move_to(x - shift, y - (y_bearing + height / 2 if centre else 0))
    ctx.set_source_rgb(*_rgb(colour))
    ctx.show_text(content)
    ctx.new_path()

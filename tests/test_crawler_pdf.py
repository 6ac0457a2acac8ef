"""The print-and-play PDFs: valid documents with the right pages, tiles at exactly 3 cm a cell that neither
overlap nor leave the margins, and board pages that cover the cropped board with their overlap."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
from collections import Counter

import pytest

from dedale.core.errors import DedaleError
from dedale.core.session import Session
from dedale.crawler.model import Dungeon
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerRules
from dedale.i18n import catalogue
from dedale.render.crawler_pdf import (
    AREA_H,
    AREA_W,
    CELL,
    CM,
    ENTRANCE,
    GUTTER,
    MARGIN,
    MARK_GAP,
    MARK_LEN,
    OVERLAP,
    PAGE_H,
    PAGE_W,
    Box,
    board_crop,
    board_pages,
    board_pdf,
    overview_scale,
    pack_tiles,
    tile_types,
    tiles_pdf,
)
from dedale.render.crawler_svg import render_svg
from dedale.render.png import svg_size

EPS = 1e-9


def pages_in(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


@pytest.fixture(scope="module")
def dungeon() -> Dungeon:
    return Session(CrawlerRules, CrawlerParams(), seed=8).run_autopilot().rules.dungeon()


def test_tiles_pdf_is_a_pdf_of_three_pages() -> None:
    pdf = tiles_pdf()
    assert pdf.startswith(b"%PDF")
    assert pages_in(pdf) == 3  # the fewest: the two 5x5 tiles and the 4x4 cannot share a page


def test_tile_set_has_the_eleven_types() -> None:
    names = [name for name, _ in tile_types((5, 5))]
    assert names == ["5x5", "4x4", "5x3", "3x3", "3x2", "2x2", "5x2", "boss", "p1", "p2", "p3"]
    assert dict(tile_types((4, 3)))["boss"] == (4, 3)
    assert [size for name, size in tile_types((5, 5)) if name.startswith("p")] == [(1, 1), (1, 2), (1, 3)]


@pytest.mark.parametrize(("boss_size", "copies"), [((5, 5), 1), ((3, 4), 2), ((6, 8), 1), ((2, 2), 3)])
def test_packed_tiles_are_whole_apart_and_inside_the_margins(boss_size: tuple[int, int], copies: int) -> None:
    placed = pack_tiles(boss_size, copies)
    sizes = dict(tile_types(boss_size))
    assert Counter(p.tile for p in placed) == {name: copies for name in sizes}
    for p in placed:
        assert sorted((p.w, p.h)) == sorted(sizes[p.tile])  # turned at most, never resized
        assert MARGIN - EPS <= p.x <= PAGE_W - MARGIN - p.w * CELL + EPS
        assert MARGIN - EPS <= p.y <= MARGIN + AREA_H - p.h * CELL + EPS
    for a, b in itertools.combinations(placed, 2):
        if a.page == b.page:  # a gutter between them, wider than the cut marks reach
            assert (a.x + a.w * CELL + GUTTER <= b.x + EPS or b.x + b.w * CELL + GUTTER <= a.x + EPS
                    or a.y + a.h * CELL + GUTTER <= b.y + EPS or b.y + b.h * CELL + GUTTER <= a.y + EPS)
    assert sorted({p.page for p in placed}) == list(range(max(p.page for p in placed) + 1))
    assert pages_in(tiles_pdf(boss_size, copies=copies)) == max(p.page for p in placed) + 1


def test_scale_is_one_to_one() -> None:
    assert (PAGE_W, PAGE_H) == (21.0, 29.7) and CELL == 3.0
    assert MARK_GAP + MARK_LEN < GUTTER and MARK_GAP + MARK_LEN < MARGIN
    media = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", tiles_pdf())
    assert media is not None
    assert abs(float(media[1]) - 595.2756) < 0.01 and abs(float(media[2]) - 841.8898) < 0.01


def test_a_tile_too_big_for_a4_is_refused() -> None:
    with pytest.raises(DedaleError) as caught:
        pack_tiles((7, 7))
    assert caught.value.key == "pdf.too_big"
    assert "21x21 cm" in caught.value.message()


def test_pdf_words_are_translated() -> None:
    english = {key for key in catalogue("en") if key.startswith("pdf.")}
    assert english and english <= set(catalogue("fr"))
    assert tiles_pdf(lang="fr").startswith(b"%PDF")


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) is not installed")
def test_tile_labels_are_printed() -> None:
    text = subprocess.run(["pdftotext", "-", "-"], input=tiles_pdf(), capture_output=True, check=True).stdout
    for label in ("5x5", "4x4", "5x3", "3x3", "3x2", "2x2", "5x2", "boss 5x5", "secret passage 1",
                  "secret passage 2", "secret passage 3"):
        assert label.encode() in text


def test_crop_is_the_zones_in_use_plus_the_entrance(dungeon: Dungeon) -> None:
    crop = board_crop(dungeon)
    zone = dungeon.zone_cells * CELL
    # seed 8: rooms in zone columns 1-3 and every zone row, entered from the south
    assert crop == Box(1 * zone, 0, 3 * zone, 5 * zone + ENTRANCE)
    for room in dungeon.rooms:
        r = room.rect
        assert crop.x <= r.x * CELL and (r.x + r.w) * CELL <= crop.x + crop.w
        assert crop.y <= r.y * CELL and (r.y + r.h) * CELL <= crop.y + crop.h


def test_an_empty_dungeon_prints_its_whole_board() -> None:
    empty = Dungeon(board_zones=2, zone_cells=4, size=None, outcome=None, rooms=[], doors=[], passages=[])
    assert board_crop(empty) == Box(0, 0, 24, 24)
    assert pages_in(board_pdf(empty)) == 2  # 24 cm wide: two columns, one row


def test_board_pages_cover_the_crop_with_their_overlap(dungeon: Dungeon) -> None:
    crop = board_crop(dungeon)
    pages = board_pages(crop)
    rows, columns = pages[-1].row + 1, pages[-1].column + 1
    assert len(pages) == rows * columns
    xs, ys = sorted({p.x for p in pages}), sorted({p.y for p in pages})
    assert (len(xs), len(ys)) == (columns, rows)
    for edges, start, length, window in ((xs, crop.x, crop.w, AREA_W), (ys, crop.y, crop.h, AREA_H)):
        assert edges[0] == start
        assert all(abs((b - a) - (window - OVERLAP)) < EPS for a, b in itertools.pairwise(edges))
        assert edges[-1] + window >= start + length - EPS  # covered...
        assert edges[-1] + OVERLAP < start + length  # ...and one page fewer would not do
    pdf = board_pdf(dungeon)
    assert pdf.startswith(b"%PDF")
    assert pages_in(pdf) == len(pages) == 9


def test_board_pdf_in_french_entered_from_the_west() -> None:
    params = CrawlerParams(start_zone=(0, 2), start_side="W")
    dungeon = Session(CrawlerRules, params, seed=7).run_autopilot().rules.dungeon()
    crop = board_crop(dungeon)
    assert crop.x == -ENTRANCE and crop.w % (dungeon.zone_cells * CELL) == ENTRANCE
    assert pages_in(board_pdf(dungeon, "fr")) == len(board_pages(crop))


def test_board_pdf_opens_with_the_board_and_its_legend_on_one_a4_page_across(dungeon: Dungeon) -> None:
    pdf = board_pdf(dungeon, overview=True)
    assert pages_in(pdf) == len(board_pages(board_crop(dungeon))) + 1
    boxes = re.findall(rb"/MediaBox \[ ?0 0 ([\d.]+) ([\d.]+) ?\]", pdf)
    sizes = [(round(float(w)), round(float(h))) for w, h in boxes]
    assert sizes[0] == (842, 595) and set(sizes[1:]) == {(595, 842)}  # A4 across, then upright
    svg_text = render_svg(dungeon)
    assert '<g id="crawler-legend" transform="translate(' in svg_text  # a page may lift the legend out
    width, height = svg_size(svg_text)
    scale = overview_scale(width, height)
    assert width * scale <= (PAGE_H - 2 * MARGIN) * CM + EPS and height * scale <= (PAGE_W - 2 * MARGIN) * CM + EPS
    assert min(float(s) for s in re.findall(r'font-size="([\d.]+)"', svg_text)) * scale >= 5  # the cell numbers
    if shutil.which("pdftotext"):
        first = subprocess.run(["pdftotext", "-l", "1", "-", "-"], input=pdf, capture_output=True,
                               check=True).stdout.decode()
        assert "Rooms" in first and all(f"{kind}" in first for kind in ("Cellar", "Boss room"))

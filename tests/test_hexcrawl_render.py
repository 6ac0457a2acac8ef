"""The hexcrawl's picture as a player reads it: every symbol in the legend, names that cover no other name and
no place's mark, and text that prints at 6 points or more when the README's map fills an A4 page."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from dedale.core.session import Session
from dedale.hexcrawl.hexes import position_offset, to_pixel
from dedale.hexcrawl.params import HexParams
from dedale.hexcrawl.session import HexcrawlRules
from dedale.render.hex_svg import (
    HEADER,
    MARGIN,
    VEGETATION_MARKS,
    Box,
    hex_size,
    name_labels,
    place_marks,
    render_svg,
    svg_sqrt3,
)
from dedale.systems import system

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
from pictures_print import A4, font_sizes, page_scale


def explored(seed: int, radius: int = 12):  # type: ignore[no-untyped-def]
    return Session(HexcrawlRules, HexParams(radius=radius), seed).run_autopilot().rules.hex_map()


def origin(radius: int) -> tuple[float, float, float]:
    size = hex_size(radius)
    return MARGIN + size * (1.5 * radius + 1), MARGIN + HEADER + size * svg_sqrt3() * (radius + 0.5), size


@pytest.mark.parametrize("seed", range(12))
def test_names_cover_no_other_name_nor_a_mark(seed: int) -> None:
    hex_map = explored(seed)
    ox, oy, size = origin(12)
    labels = name_labels(hex_map, ox, oy, size)
    assert sorted(label.text for label in labels) == sorted(c.name for c in hex_map.communities)
    marks = [Box(x - f / 2, y - f / 2, x + f / 2, y + f / 2) for _, x, y, f in place_marks(hex_map, ox, oy, size)]
    for i, label in enumerate(labels):
        assert not any(label.box.overlaps(other.box) for other in labels[i + 1:]), label
        assert not any(label.box.overlaps(mark) for mark in marks), label


def test_city_name_is_beside_its_star() -> None:
    hex_map = explored(3)
    ox, oy, size = origin(12)
    city = next(label for label in name_labels(hex_map, ox, oy, size) if label.size > 11)
    _, x, y, font = next(m for m in place_marks(hex_map, ox, oy, size) if m[0].kind == "city")
    near = Box(x - 3 * font, y - 3 * font, x + 3 * font, y + 3 * font)
    assert city.box.overlaps(near)


def test_legend_shows_every_vegetation_symbol() -> None:
    hex_map = explored(3)
    svg_text = render_svg(hex_map)
    legend = svg_text[svg_text.index('<g id="hexcrawl-legend"'):]
    shown = {record.vegetation for record in hex_map.hexes.values()}
    assert len(shown) > 5
    for key in shown:
        assert f">{VEGETATION_MARKS[key]}</text>" in legend.replace("&quot;", '"'), key
        assert hex_map.row_label("vegetation", key, "en") in legend


def test_readme_map_prints_at_six_points_on_a4() -> None:
    svg_text = render_svg(explored(3))
    scale = page_scale(svg_text, A4)
    assert min(font_sizes(svg_text)) * scale >= 6.0
    assert re.search(r'font-size="9"[^>]*>1301<', svg_text)  # hex numbers drawn, at half the hex's radius (not
    # 0911's: the city, its mark and its name fill that hex)


# --- issue 30: hex numbers off the marks and names, the edges' columns and rows, the destinations -----------
NUMBER_TEXT = re.compile(r'<text x="([\d.]+)" y="([\d.]+)" font-size="9" text-anchor="middle" font-weight="normal" '
                         r'fill="#3f3a33">(\d{4})</text>')


def drawn_numbers(svg_text: str) -> list[tuple[str, Box]]:
    """Each hex number drawn, with its box (DejaVu Sans' digits: 0.64 em wide, 0.73 em high)."""
    return [(text, Box(float(x) - 4 * 9 * 0.32, float(y) - 9 * 0.73, float(x) + 4 * 9 * 0.32, float(y)))
            for x, y, text in NUMBER_TEXT.findall(svg_text)]


@pytest.mark.parametrize("seed", range(8))
def test_hex_numbers_cover_no_mark_nor_name(seed: int) -> None:
    hex_map = explored(seed)
    ox, oy, size = origin(12)
    svg_text = render_svg(hex_map)
    numbers = drawn_numbers(svg_text)
    assert len(numbers) > 400  # most hexes keep their number
    marks = [Box(x - f / 2, y - f / 2, x + f / 2, y + f / 2) for _, x, y, f in place_marks(hex_map, ox, oy, size)]
    for h, record in hex_map.hexes.items():
        if record.obstacle is not None:
            x, y = to_pixel(h, size)
            dx, dy = position_offset(record.obstacle.position)
            cx, cy = ox + x + dx * size * 0.55, oy + y + dy * size * 0.55
            marks.append(Box(cx - size * 0.22, cy - size * 0.22, cx + size * 0.22, cy + size * 0.22))
    names = [label.box for label in name_labels(hex_map, ox, oy, size)]
    for text, box in numbers:
        assert not any(box.overlaps(other) for other in marks), text
        assert not any(box.overlaps(other) for other in names), text


def test_the_edges_give_every_column_and_row_and_the_numbers_may_be_left_out(cli) -> None:  # type: ignore[no-untyped-def]
    hex_map = explored(3)
    edges = re.compile(r'font-size="9" text-anchor="(middle|end)" font-weight="normal" fill="#6b645a">(\d\d)<')
    for svg_text in (render_svg(hex_map), render_svg(hex_map, numbers=False)):
        found = edges.findall(svg_text)
        assert sorted(n for anchor, n in found if anchor == "middle") == [f"{i:02d}" for i in range(1, 26)]
        assert sorted(n for anchor, n in found if anchor == "end") == [f"{i:02d}" for i in range(1, 26)]
    assert not drawn_numbers(render_svg(hex_map, numbers=False))


def test_the_cli_leaves_the_numbers_out_when_asked(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for flags, numbered in (([], True), (["--unnumbered"], False)):
        out = tmp_path / f"map{len(flags)}.svg"
        cli("hexcrawl", "--seed", "3", "--radius", "4", "-o", str(out), *flags)
        assert bool(drawn_numbers(out.read_text(encoding="utf-8"))) == numbered


@pytest.mark.parametrize(("radius", "seed", "moves"), [(4, 5, 6), (12, 3, 3), (12, 7, 30), (20, 2, 5)])
def test_every_destination_is_numbered_as_listed_a_finger_wide_on_a_phone_and_alone(radius: int, seed: int,
                                                                                    moves: int) -> None:
    session = Session(HexcrawlRules, HexParams(radius=radius), seed)
    for _ in range(moves):
        session.step(session.choices()[0].id)
    listed = session.choices()
    svg_text = system("hexcrawl").picture(session, listed, "en")
    width = float(re.search(r'data-map-width="([\d.]+)"', svg_text)[1])  # type: ignore[index]
    groups = re.findall(r'<g class="choice destination" data-choice="([^"]+)">(.*?)</g>', svg_text)
    moving = [(n, c) for n, c in enumerate(listed, 1) if c.data.get("kind") == "move"]
    assert [choice for choice, _ in groups] == [c.id for _, c in moving]
    size = hex_size(radius)
    discs, hexes = [], []
    for (n, _), (_, inner) in zip(moving, groups, strict=True):
        assert re.search(rf">{n}</text>$", inner), (n, inner)
        cx, cy, r = (float(v) for v in re.search(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', inner).groups())  # type: ignore[union-attr]
        points = [tuple(map(float, p.split(","))) for p in re.search(r'points="([^"]+)"', inner)[1].split()]  # type: ignore[index]
        hx, hy = sum(p[0] for p in points) / 6, sum(p[1] for p in points) / 6
        target = max(2 * r, size * svg_sqrt3())  # the disc or the hex's own height
        assert target * 360 / width >= 24, (radius, r)  # CSS pixels once the map fits a phone's 360
        discs.append((cx, cy, r))
        hexes.append((hx, hy))
    for i, (cx, cy, r) in enumerate(discs):
        for j, (ox, oy, other) in enumerate(discs):
            if i != j:
                assert ((cx - ox) ** 2 + (cy - oy) ** 2) ** 0.5 >= r + other  # no two discs overlap
        for j, (hx, hy) in enumerate(hexes):  # nor a disc another move's hex (its inscribed circle)
            if i != j:
                assert ((cx - hx) ** 2 + (cy - hy) ** 2) ** 0.5 >= r + size * 0.866 * 0.96, (i, j)


# --- issue 30: French words and typography ---------------------------------------------------------------------
def french_gaps(words: str) -> list[str]:
    """Where French text puts a breaking space before its high signs (: ; ? !), or inside « »."""
    return re.findall(r".{0,20} [:;?!].{0,10}|« |\s»", words)


def test_the_french_map_names_every_terrain_in_french_and_spaces_its_colons() -> None:
    session = Session(HexcrawlRules, HexParams(radius=6), 98).run_autopilot()
    hex_map = session.rules.hex_map()
    picture, text = render_svg(hex_map, lang="fr"), system("hexcrawl").export(session.to_json(), ".txt", lang="fr")
    words = text.decode("utf-8")
    for relief in ("eaux", "rivages", "plaines", "vallée fluviale", "collines", "plateaux", "montagnes basses",
                   "hautes montagnes"):
        assert f">{relief}<" in picture and relief in words
    for table, key in [*(("vegetation", r.vegetation) for r in hex_map.hexes.values()),
                       *(("obstacles", r.obstacle.kind) for r in hex_map.hexes.values() if r.obstacle is not None)]:
        french, english = hex_map.row_label(table, key, "fr"), hex_map.row_label(table, key, "en")
        assert f">{french}<" in picture, key
        assert french == english or f">{english}<" not in picture, key
    for community in hex_map.communities:
        assert f"{community.name} ({community.label})\u00a0: " in picture
        assert f"{community.name} ({community.label})\u00a0: " in words
    for shown in (picture, words):
        assert not french_gaps(shown), french_gaps(shown)[:3]


@pytest.mark.parametrize(("radius", "lang"), [(0, "en"), (1, "fr"), (3, "en"), (5, "fr")])
def test_a_small_maps_picture_alone_holds_its_title_and_summary(radius: int, lang: str) -> None:
    """The page sets the legend apart (web/legend.py) and shows the map cut to its own width: its title and
    summary, measured in DejaVu Sans as the browser draws them, fit."""
    fonts = pytest.importorskip("PIL.ImageFont")
    from dedale.i18n import t
    from dedale.render.hex_svg import _summary
    from dedale.web.legend import split

    folder = Path("/usr/share/fonts/truetype/dejavu")
    if not folder.exists():
        pytest.skip("no DejaVu fonts to measure with")
    hex_map = Session(HexcrawlRules, HexParams(radius=radius), 4).run_autopilot().rules.hex_map()
    alone = split(render_svg(hex_map, lang=lang)).map
    width = float(re.search(r'viewBox="0 0 ([\d.]+) ', alone)[1])  # type: ignore[index]
    bold = fonts.truetype(str(folder / "DejaVuSans-Bold.ttf"), 20)
    plain = fonts.truetype(str(folder / "DejaVuSans.ttf"), 12.5)
    assert MARGIN + bold.getlength(t("render.hex_title", lang)) <= width
    assert MARGIN + plain.getlength(_summary(hex_map, lang)) <= width

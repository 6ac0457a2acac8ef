"""The hexcrawl's picture as a player reads it: every symbol in the legend, names that cover no other name and
no place's mark, and text that prints at 6 points or more when the README's map fills an A4 page."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from dedale.core.session import Session
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
    assert re.search(r'font-size="9"[^>]*>0911<', svg_text)  # hex numbers drawn, at half the hex's radius

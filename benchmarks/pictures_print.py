"""Pictures printed on paper (issue 17): the smallest text of a picture fitted whole on one page, in points.

- Key-lock: diagrams of about 200 objects fitted on A3 (the better of portrait and landscape), smallest text
  (the nodes' numbers and marks) and the sets' numbers on the nodes. Target: at least 6 pt.
- Hexcrawl: the README's map (radius 12) fitted on A4, its smallest text (the hex numbers). Target: at
  least 6 pt.
- Crawler: the README's dungeon on the board PDF's first page (A4 across, the board and its legend), for
  reference.

Runnable alone: `python benchmarks/pictures_print.py` prints the rows.
"""

from __future__ import annotations

import re

import dedale

A3 = (841.89, 1190.55)  # points, portrait
A4 = (595.28, 841.89)
TARGET_PT = 6.0
KEYLOCK_200 = ({"unique": 60, "multi": 12, "permanent": 12, "multi_max_keys": 5}, (0, 1, 2, 3, 4))


def page_scale(svg_text: str, page: tuple[float, float]) -> float:
    """Points per SVG unit when the picture is fitted whole on the page, turned the better way."""
    match = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg_text)
    assert match, "a picture has a viewBox"
    width, height = float(match[1]), float(match[2])
    short, long = page
    return max(min(short / width, long / height), min(long / width, short / height))


def font_sizes(svg_text: str) -> list[float]:
    return [float(size) for size in re.findall(r'font-size="([\d.]+)"', svg_text)]


def keylock_rows() -> list[tuple[str, str, bool]]:
    params, seeds = KEYLOCK_200
    smallest, numbers, objects = [], [], []
    for seed in seeds:
        result = dedale.generate("keylock", seed=seed, **params)
        svg_text = result.svg()
        scale = page_scale(svg_text, A3)
        smallest.append(min(font_sizes(svg_text)) * scale)
        numbers.append(12 * scale)
        objects.append(len(result.to_json()["nodes"]) - 1)
    ok = min(smallest) >= TARGET_PT
    return [(f"key-lock on A3, {min(objects)}-{max(objects)} objects: smallest text",
             f"{min(smallest):.1f}-{max(smallest):.1f} pt (sets' numbers {min(numbers):.1f}-{max(numbers):.1f} pt; "
             f"target >= {TARGET_PT:g} pt): {'ok' if ok else 'below'}", ok)]


def hexcrawl_rows() -> list[tuple[str, str, bool]]:
    svg_text = dedale.generate("hexcrawl", seed=3).svg()  # the README's map
    smallest = min(font_sizes(svg_text)) * page_scale(svg_text, A4)
    ok = smallest >= TARGET_PT
    return [("hexcrawl radius 12 on A4: smallest text (hex numbers)",
             f"{smallest:.1f} pt (target >= {TARGET_PT:g} pt): {'ok' if ok else 'below'}", ok)]


def crawler_rows() -> list[tuple[str, str, bool]]:
    from dedale.render.crawler_pdf import overview_scale
    from dedale.render.png import svg_size

    svg_text = dedale.generate("crawler", seed=4).svg()  # the README's dungeon, the PDF's first page
    scale = overview_scale(*svg_size(svg_text))
    smallest, legend = min(font_sizes(svg_text)) * scale, 11 * scale
    return [("crawler overview (board and legend) on A4: smallest text (the cell numbers)",
             f"{smallest:.1f} pt, the legend {legend:.1f} pt (reference: the board as on screen, unchanged)", True)]


def measure() -> list[tuple[str, str, bool]]:
    return keylock_rows() + hexcrawl_rows() + crawler_rows()


if __name__ == "__main__":
    for label, figure, _ in measure():
        print(f"{label}: {figure}")

"""PNG from SVG, through cairosvg, within what cairo can draw and memory holds."""

from __future__ import annotations

import re

from dedale.core.errors import DedaleError
from dedale.core.extras import need

MAX_SIDE = 16_384  # pixels; cairo refuses a surface over 32,767
MAX_PIXELS = 32_000_000  # 128 MB of colour: a picture larger than that is no longer a picture to look at
_SIZE = re.compile(r'<svg[^>]*?\swidth="([0-9.e+]+)"[^>]*?\sheight="([0-9.e+]+)"')  # 3.1e+06: past a million


def svg_size(svg_text: str) -> tuple[float, float]:
    """The width and height an SVG of the renderers declares (in its user units: pixels, points)."""
    found = _SIZE.search(svg_text[:2000])
    return (float(found.group(1)), float(found.group(2))) if found else (0.0, 0.0)


def svg_to_png(svg_text: str, scale: float = 1.5) -> bytes:
    """The picture at `scale`, or a clear refusal when it would be too big to draw."""
    width, height = (round(side * scale) for side in svg_size(svg_text))
    if max(width, height) > MAX_SIDE or width * height > MAX_PIXELS:
        raise DedaleError("error.picture_too_big", width=width, height=height, side=MAX_SIDE,
                          million=MAX_PIXELS // 1_000_000)
    # Imported here: it loads the cairo library, which the text view does not need (nor installs: dedale[render]).
    cairosvg = need("render", "cairosvg")
    return cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), scale=scale)

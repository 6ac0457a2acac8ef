"""PNG from SVG, through cairosvg."""

from __future__ import annotations


def svg_to_png(svg_text: str, scale: float = 1.5) -> bytes:
    import cairosvg  # imported here: it loads the cairo library, which the text view does not need

    return cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), scale=scale)

"""A picture's legend apart from its map, for the page: on a phone the legend goes below the map at its own
size instead of shrinking with it. The renderers draw their legend as one group, `<g id="SYSTEM-legend">`,
from its own corner, with its size and the map's (`data-width`, `data-height`, `data-map-width`,
`data-map-height`); this cuts the picture in two along those, as text (a large map's SVG is a few
megabytes: no parsing)."""

from __future__ import annotations

import re
from typing import NamedTuple

_GROUP = re.compile(r'<g id="[\w-]+-legend" transform="translate\([^)]*\)" data-width="([\d.]+)" '
                    r'data-height="([\d.]+)" data-map-width="([\d.]+)" data-map-height="([\d.]+)">')
_TAG = re.compile(r"<g[\s>]|</g>")
_HEAD = re.compile(r"<svg [^>]*>")
_SIZE = re.compile(r'width="[\d.]+" height="[\d.]+" viewBox="0 0 [\d.]+ [\d.]+"')
_DEFS = re.compile(r"<defs>.*?</defs>", re.S)
PAD = 10


class Parts(NamedTuple):
    map: str
    legend: str | None  # None: the picture has no legend of its own


def split(picture: str) -> Parts:
    """The map (the picture without its legend, cropped to the map's own size) and the legend as a picture
    of its own (with the map's patterns, which its swatches use)."""
    found = _GROUP.search(picture)
    head = _HEAD.search(picture)
    if found is None or head is None:
        return Parts(picture, None)
    depth, end = 0, None
    for tag in _TAG.finditer(picture, found.start()):
        depth += 1 if tag.group() != "</g>" else -1
        if depth == 0:
            end = tag.end()
            break
    if end is None:
        return Parts(picture, None)
    width, height, map_width, map_height = found.groups()
    inner = picture[found.end():end - len("</g>")]
    opening = head.group()
    cropped = _SIZE.sub(f'width="{map_width}" height="{map_height}" viewBox="0 0 {map_width} {map_height}"', opening)
    map_part = picture[:head.start()] + cropped + picture[head.end():found.start()] + picture[end:]
    # A legend is drawn from its corner, its heading's letters rising above it: room around it.
    wide, high = float(width) + 2 * PAD, float(height) + 3 * PAD
    legend_open = _SIZE.sub(f'width="{wide:g}" height="{high:g}" viewBox="{-PAD} {-2 * PAD} {wide:g} {high:g}"',
                            opening)
    defs = _DEFS.search(picture)
    legend = f'{legend_open}{defs.group() if defs else ""}{inner}</svg>'
    return Parts(map_part, legend)

"""A picture's legend cut apart from its map for the page (web/legend.py): the map keeps every mark but the
legend and is cropped to its own size; the legend is a picture of its own, with the patterns it uses."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest

import dedale
from dedale.web.legend import split


@pytest.mark.parametrize(("system", "params"), [("crawler", {}), ("hexcrawl", {}), ("keylock", {}), ("paper", {})])
def test_the_legend_and_the_map_are_two_pictures(system: str, params: dict[str, int]) -> None:
    picture = dedale.generate(system, seed=3, **params).svg()
    group = re.search(r'<g id="[\w-]+-legend" [^>]*data-map-width="([\d.]+)" data-map-height="([\d.]+)">', picture)
    assert group is not None
    parts = split(picture)
    assert parts.legend is not None and "-legend" not in parts.map
    for part in (parts.map, parts.legend):
        ElementTree.fromstring(part)  # each well-formed
    assert f'viewBox="0 0 {group.group(1)} {group.group(2)}"' in parts.map
    assert "<defs>" in parts.legend and parts.legend.count("<text") >= 5
    assert len(parts.map) + len(parts.legend) < len(picture) + 2000  # nothing drawn twice but the patterns


def test_a_picture_without_a_legend_of_its_own_is_left_whole() -> None:
    picture = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10"><g/></svg>'
    assert split(picture) == (picture, None)

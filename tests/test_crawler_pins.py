"""A regression pin: the documents and pictures of a handful of dungeons, kept whole in data/crawler/pins/. Work
on speed or structure must leave every document and picture as it was; a change that means to alter them (another
order of rolls, a new field) pins them again and says so in its commit. A failure lists what moved.

History: the pins were first SHA-256 digests, taken before the crawler was made faster (issue 15); issue 17
(version 2) added the `why` of a fallback's log note and choice, and drew the legend as a group of its own that
gives the map's size (data-map-*). The files were written from the code those digests pinned, digests equal.
Issue 31 (version 4) made the text's reading of the corner ban the default (no door on a zone's corner cells,
`door_corners` zone): every layout moved, and the params name the reading. The version-3 `default-0` document, made
with the room reading, is kept as data/crawler/version3-room-corners.json and still replays (test_crawler_document).

`python tests/test_crawler_pins.py --write` writes them again (only from code known to be right)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from dedale.core.session import Session
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerRules
from dedale.render.crawler_svg import render_svg
from pins import check_document, check_text, write_document  # tests/ (conftest.py; a script's own folder)

PINNED = Path(__file__).parent / "data" / "crawler" / "pins"
PINS: list[tuple[str, dict[str, Any], int, str]] = [  # name, parameters, seed, language of the picture
    ("default-0", {}, 0, "en"),
    ("default-1", {}, 1, "en"),
    ("default-7-fr", {}, 7, "fr"),
    ("board-8-size-30", {"board_zones": 8, "size_rule": "30"}, 3, "en"),
    ("stock-size-20", {"stock": {"5x5": 1, "3x3": 2, "p1": 1}, "size_rule": "20"}, 2, "en"),
    ("dungeon-roll", {"contents": "dungeon-roll", "early_boss": False}, 5, "en"),
]


def made(params: dict[str, Any], seed: int, lang: str) -> tuple[dict[str, Any], str]:
    session = Session(CrawlerRules, CrawlerParams(**params), seed).run_autopilot()
    return session.to_json(), render_svg(session.rules.dungeon(), lang=lang)


@pytest.mark.parametrize(("name", "params", "seed", "lang"), PINS, ids=[pin[0] for pin in PINS])
def test_documents_and_pictures_are_as_pinned(name: str, params: dict[str, Any], seed: int, lang: str) -> None:
    document, picture = made(params, seed, lang)
    check_document(PINNED / f"{name}.json", document)
    check_text(PINNED / f"{name}.svg", picture)


def test_a_moved_value_is_named() -> None:
    """The failure names where the document moved, not just that a digest differs."""
    document, _ = made({}, 0, "en")
    document["rooms"][1]["w"] += 1
    with pytest.raises(AssertionError, match=r"\$\.rooms\[1\]\.w: \d+ -> \d+"):
        check_document(PINNED / "default-0.json", document)


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    PINNED.mkdir(parents=True, exist_ok=True)
    for name, params, seed, lang in PINS:
        document, picture = made(params, seed, lang)
        write_document(PINNED / f"{name}.json", document)
        (PINNED / f"{name}.svg").write_text(picture, encoding="utf-8")

"""A regression pin: the documents and pictures of a handful of dungeons, by hash, as they were before the crawler
was made faster (issue 15). Speed work must leave every document byte for byte as it was; a change that means to
alter documents (another order of rolls, a new field) updates these hashes and says so. Issue 17 (version 2): a
fallback's log note and choice now carry why the rolled room cannot go beyond the exit (`why`); nothing else
changed (with `why` taken out and version 1, every document hashes as before). The pictures changed with the
legend drawn as a group of its own (issue 17), and again when that group gave the map's size (data-map-*)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerSession
from dedale.render.crawler_svg import render_svg

PINS: list[tuple[dict[str, Any], int, str, str, str]] = [  # parameters, seed, language, document, picture
    ({}, 0, "en", "592cc5ae77ed7e23", "892db03597e4e056"),
    ({}, 1, "en", "2c04f897cfb5daf8", "34457da3fac8c99d"),
    ({}, 7, "fr", "11a10af7972be7b5", "c2bf5d2a03ceca47"),
    ({"board_zones": 8, "size_rule": "30"}, 3, "en", "391004b14e9b7adf", "5f93ec2b9cb3a376"),
    ({"stock": {"5x5": 1, "3x3": 2, "p1": 1}, "size_rule": "20"}, 2, "en", "bb5b4a3a1d401a7f", "ce89fbb850e8b562"),
    ({"contents": "dungeon-roll", "early_boss": False}, 5, "en", "1f6abcf33eb807da", "09db701cb25aa4cb"),
]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize(("params", "seed", "lang", "document", "picture"), PINS)
def test_documents_and_pictures_are_as_pinned(params: dict[str, Any], seed: int, lang: str, document: str,
                                              picture: str) -> None:
    session = CrawlerSession(CrawlerParams(**params), seed).run_autopilot()
    assert digest(json.dumps(session.to_json())) == document
    assert digest(render_svg(session.dungeon(), lang=lang)) == picture

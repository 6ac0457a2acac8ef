"""Point at what you see (issue 30): in the crawler and the paper dungeon, every choice that is a place is drawn
on the play picture with its number in the list of choices and makes that choice when clicked (`data-choice`);
no number covers another or a room's number; the choices' words name what the picture shows, not cells."""

from __future__ import annotations

import random
import re
from itertools import combinations
from typing import Any
from xml.etree import ElementTree

import pytest

from dedale.core.session import Session
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerRules
from dedale.paper.params import PaperParams
from dedale.paper.session import PaperRules
from dedale.systems import system

SVG = "{http://www.w3.org/2000/svg}"
PLACES = {"crawler": {"place", "door", "passage", "exit", "search"}, "paper": {"end", "search", "wall"}}
RULES: dict[str, tuple[Any, Any]] = {"crawler": (CrawlerRules, CrawlerParams), "paper": (PaperRules, PaperParams)}


def circles(picture: str) -> tuple[dict[str, tuple[float, float, float, str]], list[tuple[float, float, float]]]:
    """The choices' numbers (by choice: centre, radius, text) and the rooms' numbers drawn on the map."""
    root = ElementTree.fromstring(picture)
    numbers = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "choice number":
            c = g.find(f"{SVG}circle")
            assert c is not None
            numbers[g.get("data-choice", "")] = (float(c.get("cx", "")), float(c.get("cy", "")),
                                                 float(c.get("r", "")), "".join(g.itertext()))
    rooms = [(float(c.get("cx", "")), float(c.get("cy", "")), float(c.get("r", "")))
             for c in root.findall(f"{SVG}circle") if float(c.get("r", "0")) >= 7]
    return numbers, rooms


def apart(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return bool((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 >= (a[2] + b[2]) ** 2 - 1e-6)


@pytest.mark.parametrize("name", ["crawler", "paper"])
def test_every_choice_that_is_a_place_is_numbered_on_the_map_apart_from_the_others(name: str) -> None:
    rules, params = RULES[name]
    seen: set[str] = set()
    for seed in range(8):
        session, rng = Session(rules, params(), seed), random.Random(seed)
        while not session.is_over:
            listed = session.choices()
            numbers, rooms = circles(system(name).picture(session, listed, "en"))
            marked = []
            for index, choice in enumerate(listed, 1):
                kind = choice.data["kind"]
                if kind not in PLACES[name]:
                    assert choice.id not in numbers
                    continue
                seen.add(kind)
                number = numbers[choice.id]
                assert number[3].endswith(str(index)), (seed, choice.id, number, index)
                assert not re.search(r"\(\d+, \d+\)", choice.label("en")), choice.label("en")  # cells: not shown
                marked.append(number)
            for a, b in combinations(marked, 2):
                assert apart(a, b), (seed, "numbers over one another", a, b)
            for a in marked:
                assert all(apart(a, room) for room in rooms), (seed, "a number over a room's", a)
            searches = [c for c in listed if c.data["kind"] == "search"]
            session.step(rng.choice(searches) if searches and rng.random() < 0.4 else rng.choice(listed))
    assert seen == PLACES[name]


@pytest.mark.parametrize("file", ["crawler/version2-door-words.json", "paper/version2-open-end-words.json"])
def test_a_document_worded_by_coordinates_still_loads_and_plays_on(file: str) -> None:
    """Version 2 named doors, open ends and exits by coordinates in its log: such a saved game loads (checked
    without its log's words), validates, and plays on as it was made."""
    import json
    from pathlib import Path

    import jsonschema

    import dedale

    saved = json.loads((Path(__file__).parent / "data" / file).read_text(encoding="utf-8"))
    assert saved["version"] == 2
    jsonschema.validate(saved, dedale.schema(saved["generator"]))
    session = dedale.load(saved).play()
    assert [e["choice"] for e in session.events] == [e["choice"] for e in saved["events"]]  # as decisions today
    assert session.is_over == saved["over"]
    again = session.to_json()
    assert again["version"] == session.rules.version and again["rooms"] == saved["rooms"]

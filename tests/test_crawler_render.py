"""The crawler's pictures and text view: what they must show, in both languages."""

from __future__ import annotations

import json
import re
from html import escape
from itertools import pairwise
from xml.etree import ElementTree

from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from dedale.core.grid import Rect
from dedale.core.session import Session
from dedale.crawler.contents import load_tables
from dedale.crawler.model import Dungeon, Room
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerRules
from dedale.render import svg
from dedale.render.crawler_svg import Highlight, label_cells, render_svg
from dedale.render.crawler_text import render_text
from dedale.render.png import svg_to_png

SVG = "{http://www.w3.org/2000/svg}"


def dungeon(seed: int = 4) -> Dungeon:
    return Session(CrawlerRules, CrawlerParams(), seed).run_autopilot().rules.dungeon()


def kind(room: Room, lang: str = "en") -> str:
    """The room's kind in words, from the shipped tables."""
    table = "boss_rooms" if room.boss else "room_kinds"
    return next(row.label(lang) for row in load_tables(None)[table].rows if row.id == room.contents["kind"]["id"])


def texts(svg_text: str) -> list[str]:
    return [el.text or "" for el in ElementTree.fromstring(svg_text).iter(f"{SVG}text")]


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**64 - 1))
def test_svg_shows_every_room_door_and_passage(seed: int) -> None:
    d = dungeon(seed)
    root = ElementTree.fromstring(render_svg(d))
    labels = texts(render_svg(d))
    for room in d.rooms:
        assert str(room.number) in labels
        assert kind(room) in " ".join(labels)
    rects = root.findall(f".//{SVG}rect")
    door_bars = [r for r in rects if r.get("fill") == "white" and r.get("stroke-width") == "1.8"]
    assert len(door_bars) == len(d.doors) + len(d.passages)  # one bar a door, one secret door a passage
    if any(r.boss for r in d.rooms):
        assert "BOSS" in labels and any(r.get("fill") == "url(#boss)" for r in rects)
    assert "Entrance" in labels


def test_filling_and_boss_are_not_told_by_colour_alone() -> None:
    d = next(d for d in map(dungeon, range(50)) if any(r.filling for r in d.rooms))
    svg_text = render_svg(d)
    assert 'fill="url(#filling)"' in svg_text and 'fill="url(#boss)"' in svg_text  # patterns, not hues
    assert "by filling" in " ".join(texts(svg_text))


def test_highlights_for_solo_play() -> None:
    svg_text = render_svg(dungeon(), [Highlight(Rect(0, 0, 2, 2), "7")])
    assert "7" in texts(svg_text) and f'stroke="{svg.CANDIDATE}"' in svg_text
    assert "where a room may go" in " ".join(texts(svg_text))  # the key says what the dashed places are
    assert svg.CANDIDATE != svg.PASSAGE and "where a room may go" not in " ".join(texts(render_svg(dungeon())))


def test_a_places_number_is_above_every_place_so_a_click_on_it_is_its_own() -> None:
    """Places laid over one another (a 5x2 and a 2x5 through one spot): every place's rectangle is drawn
    before any number, so no number is ever under another place, and each number carries its own choice."""
    over = [Highlight(Rect(10, 20, 5, 2), "1", "place:a", "one"), Highlight(Rect(11, 19, 2, 5), "2", "place:b", "two"),
            Highlight(Rect(10, 19, 3, 3), "3", "place:c", "three")]
    root = ElementTree.fromstring(render_svg(dungeon(), over))
    marks = [(g.get("class"), g.get("data-choice")) for g in root.iter(f"{SVG}g") if g.get("data-choice")]
    assert marks == [("choice place", "place:a"), ("choice place", "place:b"), ("choice place", "place:c"),
                     ("choice number", "place:a"), ("choice number", "place:b"), ("choice number", "place:c")]
    numbers = [g for g in root.iter(f"{SVG}g") if g.get("class") == "choice number"]
    assert ["".join(g.itertext()).strip() for g in numbers] == ["one1", "two2", "three3"]


def test_png_is_a_picture() -> None:
    png = svg_to_png(render_svg(dungeon()))
    assert png.startswith(b"\x89PNG") and len(png) > 20_000


def test_text_view_shows_rooms_walls_doors_and_the_entrance() -> None:
    d = dungeon(105)  # a secret passage, and an early boss
    text = render_text(d)
    for room in d.rooms:
        assert f"│{room.number:>2}" in text or f"│{room.number}" in text
    assert "↑" in text and "┌" in text and "░░" in text  # entrance, walls, the secret passage
    assert "BOSS" in text and "rooms laid: 11 of 15" in text


def test_french_pictures_and_text() -> None:
    d = dungeon(4)
    assert "Entrée" in texts(render_svg(d, lang="fr")) and "salles posées" in render_text(d, lang="fr")
    tables = load_tables(None)
    french = {row.label("fr") for name in ("room_kinds", "boss_rooms") for row in tables[name].rows}
    assert {kind(r, "fr") for r in d.rooms} <= french
    assert all(kind(r, "fr") in render_text(d, lang="fr") for r in d.rooms)
    assert "Salle du boss" in render_text(d, lang="fr")


def test_a_loaded_document_renders_like_the_session() -> None:
    session = Session(CrawlerRules, CrawlerParams(), 4).run_autopilot()
    loaded = Dungeon.from_json(json.loads(json.dumps(session.to_json())))
    assert render_svg(loaded) == render_svg(session.rules.dungeon())
    assert render_text(loaded) == render_text(session.rules.dungeon())


numbers = st.one_of(st.floats(), st.integers(-10**7, 10**7), st.sampled_from([0, 0.0, -0.0, 1, 1.0, True]))


@settings(max_examples=examples(500), deadline=None)
@given(x=numbers, y=numbers, size=numbers, content=st.text(max_size=30),
       anchor=st.sampled_from(["start", "middle", "end"]), weight=st.sampled_from(["normal", "bold"]))
def test_svg_text_is_the_plain_markup(x: float, y: float, size: float, content: str, anchor: str, weight: str) -> None:
    """svg.text keeps what is the same in a column of texts: its markup stays that of the plain formatting,
    numbers as format(v, "g") (-0.0 as "-0" even after 0 was written) and the content escaped."""
    expected = (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}" font-weight="{weight}" '
                f'fill="{svg.INK}">{escape(content)}</text>')
    assert svg.text(x, y, content, size, anchor, weight) == expected


@settings(max_examples=examples(500), deadline=None)
@given(content=st.text(alphabet=st.sampled_from(list("ab ×\t\n\u00a0é")), max_size=70), width=st.integers(1, 60))
def test_svg_wrap_lines(content: str, width: int) -> None:
    """Lines of at most `width` characters (a longer word alone), the words in order, one space between; a
    no-break space joins the words around it."""
    lines = svg.wrap(content, width)
    words = lambda s: [w for w in re.split("[^\\S\u00a0]+", s) if w]  # noqa: E731
    assert words(" ".join(lines)) == words(content)
    assert all(len(line) <= width or " " not in line for line in lines)
    assert all(line == " ".join(words(line)) for line in lines)
    joined = [f"{a} {words(b)[0]}" for a, b in pairwise(lines) if b]
    assert all(len(line) > width for line in joined)  # each line as long as it could be


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(1, 5), st.integers(1, 5)),
                min_size=1, max_size=12))
def test_each_place_a_room_may_go_has_its_number_in_a_cell_of_its_own(places: list[tuple[int, int, int, int]]) -> None:
    rects = [Rect(*place) for place in places]
    cells = label_cells(rects)
    assert all(rect.contains(cell) for rect, cell in zip(rects, cells, strict=True))
    # No two numbers in one cell, unless a place has no cell left that another number does not hold.
    for index, (rect, cell) in enumerate(zip(rects, cells, strict=True)):
        others = set(cells[:index])
        assert cell not in others or set(rect.cells()) <= others


def test_places_over_one_another_keep_their_numbers_apart_on_the_board() -> None:
    from dedale.systems import system

    session = Session(CrawlerRules, CrawlerParams(), 4)
    listed = session.choices()
    assert len(listed) == 5  # a 5x2 and four 2x5 strips, all over one spot of zone 2,4
    picture = system("crawler").picture(session, listed, "en")
    badges = re.findall(r'<g class="choice number" data-choice="[^"]+"><title>[^<]*</title><circle cx="([\d.]+)" '
                        r'cy="([\d.]+)"', picture)
    assert len(badges) == 5 and len(set(badges)) == 5


def test_every_choice_that_is_a_place_is_drawn_numbered_as_listed_and_named_without_coordinates() -> None:
    """Doors, passages, exits and walls to search, as well as rooms' places (issue 30): each has a mark that
    makes it (`data-choice`) and its number in the list, on the board or on its edge; its words name what the
    picture shows (a wall, a room), not cells, and a door from off the board is the entrance."""
    import random

    from dedale.systems import system

    seen: set[str] = set()
    for seed in range(6):
        session, rng = Session(CrawlerRules, CrawlerParams(), seed), random.Random(seed)
        n = session.params.board_zones * session.params.zone_cells
        while not session.is_over:
            listed = session.choices()
            picture = system("crawler").picture(session, listed, "en")
            root = ElementTree.fromstring(picture)
            numbers = {g.get("data-choice"): g for g in root.iter(f"{SVG}g") if g.get("class") == "choice number"}
            for index, choice in enumerate(listed, 1):
                kind = choice.data["kind"]
                if kind not in ("place", "door", "passage", "exit", "search"):
                    assert choice.id not in numbers
                    continue
                seen.add(kind)
                mark = numbers[choice.id]
                assert "".join(mark.itertext()).endswith(str(index)), (choice.id, index)
                circle = mark.find(f"{SVG}circle")
                assert circle is not None
                x, y = (float(circle.get(a, "")) for a in ("cx", "cy"))
                assert MARGIN_PX - 12 <= x <= MARGIN_PX + n * 24 + 12 and y <= HEADER_PX + n * 24 + 12
                words = choice.label("en")
                assert "(" not in words or kind in ("exit", "place"), words
                if kind == "door":
                    cells = choice.data["cells"][0]
                    off = not (0 <= cells[0] < n and 0 <= cells[1] < n)
                    assert ("entrance" in words) == off, words
            chosen = rng.choice(listed)
            searches = [c for c in listed if c.data["kind"] == "search"]
            session.step(rng.choice(searches) if searches and rng.random() < 0.4 else chosen)
    assert seen == {"place", "door", "passage", "exit", "search"}


MARGIN_PX, HEADER_PX = 36, 36 + 62


def test_room_numbers_and_the_boss_label_keep_off_the_doors() -> None:
    """Issue 30: a room's number, and the boss room's "BOSS", never cover a door (a boss room two cells high
    had its label over the door in its south wall: seed 116 of an 8-zone board, seed 191 of a small stock)."""
    drawn = [({"board_zones": 8, "size_rule": "30"}, seed) for seed in (116, 3, 40)]
    drawn += [({"stock": {"5x5": 1, "3x3": 2, "p1": 1}, "size_rule": "20"}, seed) for seed in (191, 2)]
    for params, seed in drawn:
        found = Session(CrawlerRules, CrawlerParams(**params), seed).run_autopilot().rules.dungeon()
        root = ElementTree.fromstring(render_svg(found, legend=False))
        marks = [e for e in root
                 if e.tag == f"{SVG}rect" and e.get("fill") == "white" and e.get("stroke-width") == "1.8"]
        assert len(marks) >= len(found.doors)
        labels = [e for e in root if (e.tag == f"{SVG}circle" and e.get("r") == "10.5")
                  or (e.tag == f"{SVG}rect" and e.get("width") == "38")]
        assert any(e.get("width") == "38" for e in labels)  # the boss's label is among them
        for door in marks:
            x, y, w, h = (float(door.get(a, "")) for a in ("x", "y", "width", "height"))
            for label in labels:
                if label.tag == f"{SVG}circle":
                    cx, cy, r = (float(label.get(a, "")) for a in ("cx", "cy", "r"))
                    nx, ny = min(max(cx, x), x + w), min(max(cy, y), y + h)
                    assert (nx - cx) ** 2 + (ny - cy) ** 2 >= r * r, (params, seed, "a number on a door")
                else:
                    bx, by = float(label.get("x", "")), float(label.get("y", ""))
                    assert not (x < bx + 38 and bx < x + w and y < by + 14 and by < y + h), (params, seed, "BOSS")


def test_no_rooms_no_rooms_heading() -> None:
    """Issue 30: while the first room is being laid, the legend has no "Rooms" heading over nothing."""
    from dedale.systems import system

    session = Session(CrawlerRules, CrawlerParams(), 4)
    picture = system("crawler").picture(session, session.choices(), "en")
    assert ">Rooms<" not in picture and "where a room may go" in picture
    while not session.rules.dungeon().rooms:  # its place, then its door
        session.step(session.choices()[0])
    assert ">Rooms<" in system("crawler").picture(session, session.choices(), "en")

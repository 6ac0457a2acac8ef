"""The skirmish picture's clickable marks, measured in the SVG itself over several games: no destination lies
on another, on a target's rings or on a figure's letter; no ring runs over another figure's letter; no
cartridge strip covers another figure's letter. Destinations that share a spot are drawn apart, each saying
where it goes."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from xml.etree import ElementTree

import pytest

import dedale
from dedale.render import zombstone_marks as marks
from dedale.render.zombstone_svg import R
from dedale.systems import system
from dedale.zombstone.skirmish.session import SkirmishSession

SVG = "{http://www.w3.org/2000/svg}"
TOLERANCE = 1.0  # pixels two marks may share (rounding in the SVG's coordinates)
ARC = re.compile(r"M([-\d.]+) ([-\d.]+)A([\d.]+) [\d.]+ 0 (\d) 1 ([-\d.]+) ([-\d.]+)")
GAMES = [("ok_corral", seed) for seed in range(4)] + [("high_noon", seed) for seed in range(3)]


def asks_with_choices(scenario: str, seed: int, most: int = 6) -> Iterator[SkirmishSession]:
    """The session at its first `most` asks whose choices point at the table (moves, targets, dodges)."""
    session = dedale.play("zombstone", seed=seed, scenario=scenario, side="lawmen")
    found = 0
    while not session.is_over and found < most:
        if session.rules.ask.kind in ("action", "dodge", "free_move"):
            found += 1
            yield session
        session.auto_step()


def picture(session: SkirmishSession) -> ElementTree.Element:
    return ElementTree.fromstring(system("zombstone").picture(session, session.choices(), "en"))


def classes(element: ElementTree.Element) -> list[str]:
    return (element.get("class") or "").split()


def letters(root: ElementTree.Element) -> dict[int, tuple[float, float]]:
    """Each figure's letter (or token number): the centre of its text, by figure id."""
    found = {}
    for group in root.iter(f"{SVG}g"):
        if classes(group)[:1] == ["figure"]:
            text = next(group.iter(f"{SVG}text"))
            found[int(group.get("data-figure", "-1"))] = (float(text.get("x", 0)), float(text.get("y", 0)) - 3.7)
    return found


def destinations(root: ElementTree.Element) -> list[tuple[float, float]]:
    """The centres of the destinations' discs (each a base's size)."""
    found = []
    for group in root.iter(f"{SVG}g"):
        if classes(group) == ["choice", "move"]:
            disc = next(c for c in group.iter(f"{SVG}circle") if float(c.get("r", 0)) == R)
            found.append((float(disc.get("cx", 0)), float(disc.get("cy", 0))))
    return found


def ring_points(root: ElementTree.Element) -> list[tuple[str, list[tuple[float, float]]]]:
    """Points along each ring's clickable band (its transparent path), with the ring's choice."""
    found = []
    for group in root.iter(f"{SVG}g"):
        kind = classes(group)
        if kind[:1] != ["choice"] or kind == ["choice", "move"]:
            continue
        band = next(p for p in group.iter(f"{SVG}path") if p.get("stroke-opacity") == "0")
        points: list[tuple[float, float]] = []
        for x0, y0, r, large, x1, y1 in ARC.findall(band.get("d", "")):
            points += _arc(float(x0), float(y0), float(r), large == "1", float(x1), float(y1))
        found.append((group.get("data-choice", ""), points))
    return found


def _arc(x0: float, y0: float, r: float, large: bool, x1: float, y1: float) -> list[tuple[float, float]]:
    """Points along a clockwise SVG arc from (x0, y0) to (x1, y1)."""
    chord = math.dist((x0, y0), (x1, y1))
    if chord < 1e-6:
        return [(x0, y0)]
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    h = math.sqrt(max(r * r - chord * chord / 4, 0.0))
    ux, uy = (x1 - x0) / chord, (y1 - y0) / chord
    sign = -1 if large else 1  # clockwise on screen: the centre lies right of the chord for a small arc
    cx, cy = mx - sign * uy * h, my + sign * ux * h
    a0, a1 = math.atan2(y0 - cy, x0 - cx), math.atan2(y1 - cy, x1 - cx)
    sweep = (a1 - a0) % (2 * math.pi)
    return [(cx + r * math.cos(a0 + sweep * i / 24), cy + r * math.sin(a0 + sweep * i / 24)) for i in range(25)]


def strips(root: ElementTree.Element) -> list[tuple[int, tuple[float, float, float, float]]]:
    """Each cartridge strip's rectangle (x0, y0, x1, y1), by the figure it belongs to."""
    found = []
    for group in root.iter(f"{SVG}g"):
        if classes(group)[:1] == ["figure"]:
            for strip in group.iter(f"{SVG}g"):
                if classes(strip) == ["cartridges"]:
                    rect = next(strip.iter(f"{SVG}rect"))
                    x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
                    found.append((int(group.get("data-figure", "-1")),
                                  (x, y, x + float(rect.get("width", 0)), y + float(rect.get("height", 0)))))
    return found


@pytest.mark.parametrize(("scenario", "seed"), GAMES)
def test_clickable_marks_and_strips_cover_no_letter_and_no_other_mark(scenario: str, seed: int) -> None:
    checked = 0
    for session in asks_with_choices(scenario, seed):
        root = picture(session)
        spots, rings, figures = destinations(root), ring_points(root), letters(root)
        for choice, dot in spot_dots(root):  # a spot's dot is never under another destination
            assert sum(math.dist(dot, a) < R - TOLERANCE for a in spots) == 0, choice
        for i, a in enumerate(spots):
            for b in spots[i + 1:]:
                assert math.dist(a, b) >= 2 * R - TOLERANCE, (a, b)
            for letter in figures.values():
                assert math.dist(a, letter) >= R + marks.LETTER - TOLERANCE, (a, letter)
            for choice, points in rings:
                assert all(math.dist(a, p) >= R + marks.STROKE - TOLERANCE for p in points), (a, choice)
        for choice, points in rings:
            target = int(choice.split(":")[1])
            others = [c for f, c in figures.items() if f != target]
            assert points and all(math.dist(p, c) >= marks.LETTER + marks.STROKE - TOLERANCE
                                  for p in points for c in others), choice
        for owner, (x0, y0, x1, y1) in strips(root):
            for figure, (cx, cy) in figures.items():
                if figure != owner:  # the nearest point of the strip to the letter
                    near = (min(max(cx, x0), x1), min(max(cy, y0), y1))
                    assert math.dist(near, (cx, cy)) >= marks.LETTER - TOLERANCE, (owner, figure)
        checked += len(spots) + len(rings)
    assert checked


def test_moves_that_end_together_are_drawn_apart_each_labelled() -> None:
    """Four moves toward four enemies often end within an inch: each gets its own disc saying whom it heads
    for, a dot and a line marking the spot it stands for."""
    session = next(s for s in asks_with_choices("ok_corral", 1, 3) if s.rules.ask.kind == "action")
    root = picture(session)
    toward = [g for g in root.iter(f"{SVG}g") if classes(g) == ["choice", "move"]
              and any((t.text or "").startswith("→") for t in g.iter(f"{SVG}text"))]
    assert len(toward) >= 3
    assert len({(t.text or "") for g in toward for t in g.iter(f"{SVG}text")}) == len(toward)  # each its target
    moved_off = {g.get("data-for") for g in root.iter(f"{SVG}g") if classes(g) == ["spot"]}
    assert moved_off & {g.get("data-choice") for g in toward}  # drawn off its spot, joined to it


def spot_dots(root: ElementTree.Element) -> list[tuple[str, tuple[float, float]]]:
    """Where the destinations drawn off their spot stand for: each spot's dot, with its choice."""
    return [(g.get("data-for", ""), (float(dot.get("cx", 0)), float(dot.get("cy", 0))))
            for g in root.iter(f"{SVG}g") if classes(g) == ["spot"] for dot in g.iter(f"{SVG}circle")]


def test_free_arcs_avoid_what_must_stay_clear() -> None:
    centre, r = (0.0, 0.0), 15.0
    assert marks.ring_gaps(centre, r, []) == [(0.0, 2 * math.pi)]
    clear = [marks.Disc(20, 0, marks.LETTER), marks.Disc(0, 19, marks.LETTER)]
    arcs = marks.ring_gaps(centre, r, clear)
    for a, b in arcs:
        for i in range(21):
            angle = a + (b - a) * i / 20
            point = (r * math.cos(angle), r * math.sin(angle))
            assert all(math.dist(point, (d.x, d.y)) >= d.r + marks.STROKE - 1e-6 for d in clear)
    free = sum(b - a for a, b in arcs)
    assert 0 < free < 2 * math.pi

"""The skirmish picture's clickable marks, measured in the SVG itself over several games: every mark (a
destination, a shot's or a melee's badge) is a disc of one size, and none lies on another or on a figure;
no cartridge strip covers another figure's letter. Destinations that share a spot are drawn apart, each
saying where it goes; several choices at one figure are badges side by side (issue 30)."""

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
from dedale.zombstone.chances import whole_percent
from dedale.zombstone.skirmish.session import SkirmishSession

SVG = "{http://www.w3.org/2000/svg}"
TOLERANCE = 1.0  # pixels two marks may share (rounding in the SVG's coordinates)
LETTER = 6.5  # a figure's letter, as a disc around its base's centre
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


def clickable(root: ElementTree.Element) -> list[tuple[str, tuple[float, float]]]:
    """Each clickable mark's choice and the centre of its disc (the first circle it draws)."""
    found = []
    for group in root.iter(f"{SVG}g"):
        if group.get("data-choice"):
            disc = next(group.iter(f"{SVG}circle"))
            assert float(disc.get("r", 0)) == marks.TARGET
            found.append((group.get("data-choice", ""), (float(disc.get("cx", 0)), float(disc.get("cy", 0)))))
    return found


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
        found, figures = clickable(root), letters(root)
        for choice, dot in spot_dots(root):  # a spot's dot is never under another destination
            assert not any(math.dist(dot, a) < marks.TARGET - TOLERANCE for _, a in found), choice
        for i, (choice, a) in enumerate(found):
            for other, b in found[i + 1:]:
                assert math.dist(a, b) >= 2 * marks.TARGET - TOLERANCE, (choice, other)
            for letter in figures.values():  # clear of every figure's base
                assert math.dist(a, letter) >= marks.TARGET + R - TOLERANCE, (choice, letter)
        for owner, (x0, y0, x1, y1) in strips(root):
            for figure, (cx, cy) in figures.items():
                if figure != owner:  # the nearest point of the strip to the letter
                    near = (min(max(cx, x0), x1), min(max(cy, y0), y1))
                    assert math.dist(near, (cx, cy)) >= LETTER - TOLERANCE, (owner, figure)
        checked += len(found)
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


@pytest.mark.parametrize(("scenario", "seed"), GAMES[:3])
def test_each_shot_says_its_chance_in_words_and_on_its_badge(scenario: str, seed: int) -> None:
    """A person's shot tells its chance to hit (the rules' exact odds, against a dodge) in its label and on its
    badge; aiming, one more reroll die, never lowers it."""
    offered = 0
    for session in asks_with_choices(scenario, seed):
        listed = session.choices()
        shown = {choice: "".join(g.itertext()) for choice, g in badges(picture(session)).items()}
        chances = {}
        for choice in listed:
            if not choice.id.startswith(("shoot:", "aim:")):
                continue
            found = re.search(r": (<1|>99|\d+)% to hit", choice.label("en"))
            assert found, choice.label("en")
            assert found.group(1) == whole_percent(choice.data["chance"])
            assert f"{found.group(1)}%" in shown[choice.id]
            chances[choice.id] = choice.data["chance"]
            offered += 1
        for choice, chance in chances.items():
            if choice.startswith("shoot:") and (aimed := chances.get("aim:" + choice[6:])) is not None:
                assert aimed >= chance
    assert offered


def badges(root: ElementTree.Element) -> dict[str, ElementTree.Element]:
    return {g.get("data-choice", ""): g for g in root.iter(f"{SVG}g")
            if g.get("data-choice", "").startswith(("shoot:", "aim:"))}


def test_a_chance_in_whole_percents_is_never_a_false_0_or_100() -> None:
    assert [whole_percent(p) for p in (0, 0.004, 0.5, 0.996, 1)] == ["0", "<1", "50", ">99", "100"]

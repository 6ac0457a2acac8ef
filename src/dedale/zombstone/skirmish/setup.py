"""Before the first turn: the bands take the table. Each side's characters stand in its deployment zone in
rows, the first row nearest the enemy, in band order (the project's choice: deployment is not a decision
here). In a duel scenario the two duellists face each other across the middle of the table and the others
deploy in cover from the enemy duellist within reach of their own, each band on its own half of the table (in
rows in their zone when no cover is left)."""

from __future__ import annotations

import math
from functools import lru_cache

from dedale.core.cards import JOKERS, Deck, standard_deck
from dedale.core.errors import DedaleError
from dedale.zombstone.skirmish.battlefield import HEAVY_KINDS, Battlefield
from dedale.zombstone.skirmish.model import Figure, Side
from dedale.zombstone.skirmish.table import Table

SPACING = 1.6  # inches between the figures of a deployment
GRID = 0.5  # inches between the points tried for a deployment in cover
APART = 3.0  # inches a duel's band keeps from the middle of the table, on its own side


def setup(t: Table) -> None:
    game = t.game
    if t.aim_cost == "joker":  # an Aimed shot costs a Joker: the inspiration deck is one of 54
        game.deck = Deck([*standard_deck(), *JOKERS])
    for side in ("lawmen", "zombies"):
        band = t.catalogue.band(t.scenario.bands[side])
        game.sides[side] = Side(side, band.id, had_stars=any(
            t.catalogue.profile(m).status == "star" for m in band.members))
        for member in band.members:
            game.figures.append(Figure(len(game.figures), member, side, 0.0, 0.0))
    placed: set[int] = set()
    if t.scenario.duel is not None:
        for side in game.sides:
            figure = duellist(t, side)
            figure.place(_duel_spot(t, side))
            placed.add(figure.id)
    for side in game.sides:
        _deploy(t, side, [f for f in game.figures if f.side == side and f.id not in placed])
    t.changed()  # who stands where, and who hides
    t.roller.note("skirmish.deployed", scenario=t.scenario.id)


def duellist(t: Table, side: str) -> Figure:
    assert t.scenario.duel is not None
    return next(f for f in t.game.figures if f.side == side and f.profile == t.scenario.duel.duellists[side])


def _on_the_right(t: Table, side: str) -> bool:
    x, _, w, _ = t.scenario.deploy[side]
    return x + w / 2 > t.field.width / 2


def _duel_spot(t: Table, side: str) -> tuple[float, float]:
    assert t.scenario.duel is not None
    half = t.scenario.duel.apart / 2
    return (t.field.width / 2 + (half if _on_the_right(t, side) else -half), t.field.height / 2)


def _in_cover(t: Table, side: str, own: tuple[float, float], within: float,
              danger: tuple[float, float]) -> tuple[tuple[float, float], ...]:
    """Where a figure may deploy around its duellist (the text: "à couvert", within `within` inches of it): the
    points of a half-inch grid in cover from the enemy duellist, on the band's own half of the table (the bands
    apart: not both behind the middle's cover), heavy cover first, then the nearest the duellist."""
    return _cover_around(t.field, _on_the_right(t, side), own, within, danger)


@lru_cache(maxsize=16)  # the duellists stand where the scenario puts them: every game of a table asks the same
def _cover_around(field: Battlefield, right: bool, own: tuple[float, float], within: float,
                  danger: tuple[float, float]) -> tuple[tuple[float, float], ...]:
    """`_in_cover` on the band's half of the field (the right half, or the left)."""
    middle = field.width / 2
    found = []
    steps = int(within / GRID)
    for i in range(-steps, steps + 1):
        for j in range(-steps, steps + 1):
            spot = (own[0] + i * GRID, own[1] + j * GRID)
            away = math.dist(spot, own)
            if (away > within or (spot[0] < middle + APART if right else spot[0] > middle - APART)
                    or not field.free(spot, ())):
                continue
            kinds = field.cover_kinds(danger, spot)
            if kinds:
                found.append((not any(kind in HEAVY_KINDS for kind in kinds), away, spot))
    return tuple(spot for _, _, spot in sorted(found))


def _deploy(t: Table, side: str, figures: list[Figure]) -> None:
    duel = t.scenario.duel
    taken = [f.pos for f in t.game.figures if f.side != side or f not in figures]
    taken = [p for p in taken if p != (0.0, 0.0)]
    spots: list[tuple[float, float]] = []
    if duel is not None:
        own, other = duellist(t, side), duellist(t, "zombies" if side == "lawmen" else "lawmen")
        spots += _in_cover(t, side, own.pos, duel.cover_within, other.pos)
    x0, y0, w, h = t.scenario.deploy[side]
    columns = [x0 + 0.5 + i * SPACING for i in range(int((w - 1) // SPACING) + 1)]
    rows = [y0 + 0.5 + j * SPACING for j in range(int((h - 1) // SPACING) + 1)]
    columns.sort(reverse=not _on_the_right(t, side))  # the first column is the one nearest the enemy
    rows.sort(key=lambda y: abs(y - (y0 + h / 2)))
    spots += [(x, y) for x in columns for y in rows]
    for figure in figures:
        spot = next((p for p in spots if t.field.free(p, taken) and _spaced(p, taken)), None)
        if spot is None:
            raise DedaleError("error.skirmish.deploy_full", side=side, scenario=t.scenario.id)
        figure.place(spot)
        taken.append(spot)
        figure.hidden = duel is not None and duel.hidden


def _spaced(spot: tuple[float, float], taken: list[tuple[float, float]]) -> bool:
    """No figure deploys nearer than SPACING to another (room for each one's marks on the map)."""
    return all(math.dist(spot, other) >= SPACING - 1e-9 for other in taken)

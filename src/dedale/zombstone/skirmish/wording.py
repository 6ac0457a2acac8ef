"""A move as the log tells it: how far, which way, and where it ended (nearer an enemy, in contact with one,
behind a named piece of cover, or how far the nearest enemy stands), never as coordinates. The words are
message keys (`i18n.word`), so the log reads in every language."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from dedale.i18n import Word, word
from dedale.zombstone.skirmish.battlefield import Battlefield, Point, distance
from dedale.zombstone.skirmish.model import Figure
from dedale.zombstone.skirmish.table import OTHER, Table

WAYS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # clockwise from north (y grows southwards)
COVER_NEAR = 1.5  # inches from a piece's edge within which a figure in cover is said to be behind it


def compass(start: Point, to: Point) -> str:
    """The nearest of the eight compass ways from `start` to `to`."""
    angle = math.degrees(math.atan2(to[0] - start[0], start[1] - to[1]))
    return WAYS[round(angle / 45) % len(WAYS)]


def inches(a: Point, b: Point) -> float:
    """The distance as the log says it: to a tenth of an inch."""
    return round(distance(a, b), 1)


def moved(t: Table, figure: Figure, start: Point, data: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of the note `skirmish.moved`: the figure has just gone from `start` to where it stands, by
    the move option whose data is `data` (its target for a move toward an enemy, `cover` for one into cover)."""
    way = word(f"dir.{compass(start, figure.pos)}")
    return {"figure": t.who(figure), "inches": inches(start, figure.pos), "way": way,
            "arrival": _arrival(t, figure, data)}


def _arrival(t: Table, figure: Figure, data: Mapping[str, Any]) -> Word:
    target = data.get("figure")
    if isinstance(target, int):
        enemy = t.game.figure(target)
        if data.get("charge"):
            return word("skirmish.arrival.charge", target=t.who(enemy))
        return word("skirmish.arrival.toward", target=t.who(enemy), left=inches(figure.pos, enemy.pos))
    if data.get("cover"):
        piece = cover_near(t.field, figure.pos)
        return word("skirmish.arrival.cover_by", piece=piece) if piece else word("skirmish.arrival.cover")
    enemies = t.visible(OTHER[figure.side])
    if not enemies:
        return word("skirmish.arrival.alone")
    nearest = min(enemies, key=lambda e: distance(figure.pos, e.pos))
    return word("skirmish.arrival.near", target=t.who(nearest), left=inches(figure.pos, nearest.pos))


def cover_near(field: Battlefield, point: Point) -> str | None:
    """The name of the nearest named piece that gives cover (or blocks sight) close to `point`, if any."""
    near = [(piece.distance(point), piece.name) for piece in field.terrain
            if piece.name and piece.kind != "difficult" and piece.distance(point) <= COVER_NEAR]
    return min(near)[1] if near else None

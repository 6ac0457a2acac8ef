"""The whole skirmish, from deployment to its end: the setup, a duel scenario's showdown, then turns until the
game is decided or the turn limit (`victory.time_up`)."""

from __future__ import annotations

from dedale.zombstone.skirmish.setup import setup
from dedale.zombstone.skirmish.showdown import showdown
from dedale.zombstone.skirmish.table import Flow, Table
from dedale.zombstone.skirmish.turn import turn
from dedale.zombstone.skirmish.victory import time_up


def play(t: Table) -> Flow[None]:
    """The whole game, from deployment to its end."""
    setup(t)
    if t.scenario.duel is not None:
        yield from showdown(t)
    yield from turns(t)


def turns(t: Table, until: int | None = None) -> Flow[None]:
    """Turns until the game is decided, at the turn limit at the latest, or until turn `until` is over (a
    look-ahead's rollout, `lookahead.py`, also starts here after the turn it was in: the limit is checked
    first)."""
    while True:
        if not t.over and t.game.turn >= t.scenario.turns:
            time_up(t)
        if t.over or (until is not None and t.game.turn >= until):
            return
        yield from turn(t)

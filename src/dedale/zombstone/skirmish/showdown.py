"""A duel scenario's opening (`zombstone.md`, "The duel" and "High Noon"). The poker duel (the scenario's
`duel.kind` "holdem", unless the table's `duel` chooses another): the duellists play one deal of Texas Hold'em
(`duel.py`); folding is a failed Guts test, the duellist flees; the winner takes the stakes, the whole pot, and
spends them before shooting ($7 a Fame point, hiring a character deployed within 10 inches, or the band's funds;
the table's `winnings` "won": only what it won from the other). The simple duel ("simple"): each
duellist rolls its Guts, the better hand gains a Fame point. Either way the winner shoots first, and its
side moves freely once and has the initiative on the first turn.

The project's choices: the poker deck is a fresh deck of its own (not the inspiration cards); a hired
character is any character of a band of the winner's side it can afford, within its band's status limits;
the first shot is a shot like any other (the target reacts), at the other duellist if it is seen and in
range, even fleeing. In the simple duel the first seat rolls first and the other answers seeing its dice,
both playing to win, as in a confrontation; equal hands roll again.
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from collections.abc import Callable
from functools import partial

from dedale.core.cards import Deck
from dedale.core.rng import NeedInput
from dedale.i18n import word
from dedale.zombstone.confront import policies
from dedale.zombstone.hands import HANDS
from dedale.zombstone.policy import total_ways
from dedale.zombstone.skirmish import duel as poker
from dedale.zombstone.skirmish.battlefield import distance
from dedale.zombstone.skirmish.catalogue import LIMITS
from dedale.zombstone.skirmish.fight import (
    attacker_plan,
    confront,
    defender_keep,
    defender_terminal,
    flee,
    roll_hand,
    spec_for,
    spec_of,
)
from dedale.zombstone.skirmish.model import Figure
from dedale.zombstone.skirmish.setup import duellist
from dedale.zombstone.skirmish.table import Ask, Flow, Option, Table
from dedale.zombstone.skirmish.turn import move_options, reveal
from dedale.zombstone.skirmish.wording import moved

HIRE_REACH = 10.0
SEATS = ("lawmen", "zombies")  # seat 0 acts first


def showdown(t: Table) -> Flow[None]:
    assert t.scenario.duel is not None
    duellists = [duellist(t, side) for side in SEATS]
    if t.duel_kind == "simple":
        seat: int | None = yield from _guts_duel(t, duellists)
    else:
        seat = yield from _poker(t, duellists)
    if seat is None:
        return
    winner, other = duellists[seat], duellists[1 - seat]
    gun = t.gun(winner)
    if gun is not None and other.in_play and t.sight(winner.pos, other.pos) \
            and distance(winner.pos, other.pos) <= gun.range:
        yield from confront(t, winner, other, False, False, [t.profile(winner).hand])
    if not t.over:
        yield from _free_moves(t, winner.side)
        t.game.initiative = winner.side


def _poker(t: Table, duellists: list[Figure]) -> Flow[int | None]:
    """The deal, a fold's flight, and the winner's spending: the winner's seat (None for a split pot)."""
    deck = Deck()
    game = yield from _dealt(t, lambda: poker.start(t.roller, deck), deck)
    while not game.over:
        seat = game.to_act
        assert seat is not None  # someone is to act until the deal is over
        options = tuple(Option(a.id, f"duel.action.{a.kind}", {"amount": a.amount, "cost": a.cost})
                        for a in poker.actions(game))
        answer = yield from t.decide(Ask(SEATS[seat], "bet", options, {"duel": game, "seat": seat,
                                                                        "figure": duellists[seat].id}))
        yield from _dealt(t, partial(poker.act, game, answer, t.roller, deck), deck, game)
    t.game.duel = {"pot": sum(game.payout), "winner": None if game.winner is None else SEATS[game.winner],
                   "folded": None if game.folded is None else SEATS[game.folded], "hands": game.hands,
                   "board": [c.code for c in game.board], "hole": [[c.code for c in h] for h in game.hole],
                   "winnings": poker.winnings(game, t.winnings)}
    if game.folded is not None:
        loser = duellists[game.folded]
        t.roller.note("skirmish.duel_fold", figure=t.who(loser))
        flee(t, loser, duellists[1 - game.folded].pos)
    if game.winner is not None:
        yield from _winnings(t, duellists[game.winner], poker.winnings(game, t.winnings))
    return game.winner


def _guts_duel(t: Table, duellists: list[Figure]) -> Flow[int]:
    """The seed's first idea: a Guts roll each, the better hand gains a Fame point (equal hands: both roll
    again). The winner's seat."""
    rolls = 1
    keys = yield from _guts_rolls(t, *duellists)
    while keys[0] == keys[1]:
        t.roller.note("skirmish.guts_duel.tie")
        rolls += 1
        keys = yield from _guts_rolls(t, *duellists)
    seat = int(keys[1] > keys[0])
    winner = duellists[seat]
    winner.fame += 1
    t.game.duel = {"kind": "simple", "winner": SEATS[seat], "folded": None,  # a poker duel's record has no kind
                   "hands": [HANDS[key[0]] for key in keys], "rolls": rolls}
    t.roller.note("skirmish.guts_duel.won", figure=t.who(winner))
    return seat


def _better(better: tuple[int, ...], key: tuple[int, ...]) -> bool:
    """A contest: any better hand may win it, Nothing with a higher face included (`fight.improving` leaves
    that out), so any card making one would be offered."""
    return better > key


def _guts_rolls(t: Table, first: Figure, second: Figure) -> Flow[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Both duellists' Guts rolls: the first seat's, then the other's, who sees it; each plays to win."""
    a_of, d_of = spec_of(t, first, 0), spec_of(t, second, 0)
    a_spec, d_spec = spec_for(t, first, 0), spec_for(t, second, 0)
    a_plan = attacker_plan(a_of, d_of, True)
    a_key = yield from roll_hand(t, first, a_spec, lambda r: (policies(a_spec, d_spec, True)[2], total_ways(d_spec),
                                                              "edge"),
                                 lambda r, i: a_plan[r][i], "skirmish.guts_duel.roll", [t.profile(first).hand], _better)
    d_terminal = defender_terminal(d_of, a_key, True)
    d_key = yield from roll_hand(t, second, d_spec, lambda r: (d_terminal, 1, "edge"),
                                 lambda r, i: defender_keep(d_of, a_key, True, r, i), "skirmish.guts_duel.roll",
                                 [t.profile(second).hand], _better)
    return a_key, d_key


def _dealt(t: Table, action: Callable[[], poker.Duel | None], deck: Deck,
           game: poker.Duel | None = None) -> Flow[poker.Duel]:
    """Deal (`game` None: `action` returns the new duel) or act on `game`; in table mode a card nobody has
    entered undoes the partial deal, to deal it again once entered."""
    def attempt() -> poker.Duel | None:
        if not t.roller.source.table:  # seeded: no card can be missing, so there is nothing to undo
            return action()
        saved = copy.deepcopy((deck.__dict__, {} if game is None else game.__dict__))
        try:
            return action()
        except NeedInput:
            deck.__dict__.update(saved[0])
            if game is not None:
                game.__dict__.update(saved[1])
            raise

    result = yield from t.randomly(attempt)
    found = game or result
    assert found is not None
    return found


def _winnings(t: Table, winner: Figure, winnings: int) -> Flow[None]:
    """Announced before the shot: Fame points at $7, a hired character, or the band's funds."""
    side = t.game.sides[winner.side]
    options = [Option("winnings:bank", "skirmish.option.bank", {"amount": winnings})]
    for points in range(1, winnings // poker.FAME_PRICE + 1):
        options.append(Option(f"winnings:fame:{points}", "skirmish.option.fame_points",
                              {"points": points, "left": winnings - points * poker.FAME_PRICE}, {"fame": points}))
    for profile in _hireable(t, winner.side, winnings):
        options.append(Option(f"winnings:hire:{profile}", "skirmish.option.hire",
                              {"profile": profile, "cost": t.catalogue.profile(profile).cost}, {"hire": profile}))
    answer = yield from t.decide(Ask(winner.side, "winnings", tuple(options), {"figure": winner.id,
                                                                                "winnings": winnings}))
    chosen = next(o for o in options if o.id == answer)
    if "fame" in chosen.data:
        winner.fame += chosen.data["fame"]
        side.funds += chosen.args["left"]
    elif "hire" in chosen.data:
        _hire(t, winner, chosen.data["hire"])
        side.funds += winnings - t.catalogue.profile(chosen.data["hire"]).cost
    else:
        side.funds += winnings
    t.roller.note("skirmish.winnings", figure=t.who(winner), choice=answer, funds=side.funds)


def _hireable(t: Table, side: str, money: int) -> list[str]:
    present = Counter(t.profile(f).status for f in t.game.figures if f.side == side)
    found = {m for band in t.catalogue.bands.values() if band.side == side for m in band.members}
    return sorted((p for p in found if t.catalogue.profile(p).cost <= money
                   and present[t.catalogue.profile(p).status] < LIMITS.get(t.catalogue.profile(p).status, math.inf)),
                  key=lambda p: (-t.catalogue.profile(p).cost, p))


def _hire(t: Table, winner: Figure, profile: str) -> None:
    """The new character is deployed within 10 inches of the winner, as near as there is room."""
    taken = [f.pos for f in t.game.figures if f.in_play]
    for reach in (1.5, 3.0, 5.0, 7.5, HIRE_REACH):
        for step in range(16):
            angle = step * math.pi / 8
            spot = (winner.x + reach * math.cos(angle), winner.y + reach * math.sin(angle))
            if t.field.free(spot, taken):
                hired = Figure(len(t.game.figures), profile, winner.side, *spot, hired=True)
                t.game.figures.append(hired)
                t.changed()
                t.roller.note("skirmish.hired", figure=t.who(hired))
                return
    t.roller.note("skirmish.no_room")


def _free_moves(t: Table, side: str) -> Flow[None]:
    """High Noon: the winner's side has a free move phase (each character may move once). An AI, which moves
    into cover or stays, is not shown the compass ways (cover spots come before them, so none is lost)."""
    groups = ("toward", "cover", "compass") if t.controllers.get(side) is None else ("toward", "cover")
    t.roller.note("skirmish.free_moves", side=word(f"skirmish.side.{side}"))
    for figure in t.game.in_play(side):
        if t.over or figure.state != "ready":
            continue
        options = (Option("free_move:stay", "skirmish.option.stay", {}, {"to": figure.pos}),
                   *move_options(t, figure, groups))
        answer = yield from t.decide(Ask(side, "free_move", options, {"figure": figure.id}))
        chosen = next(o for o in options if o.id == answer)
        start = figure.pos
        figure.place(chosen.data["to"])
        if answer != "free_move:stay":
            t.roller.note("skirmish.free_moved", **moved(t, figure, start, chosen.data))
        reveal(t)

"""The look-ahead AI (`ai` "lookahead"): the standard AI (`ai.py`) looking ahead at its two decisions that
shape a turn, which figure to activate and what it does with each action. Every option worth weighing is
played out, many times, from a copy of the game: the rest of the activation, then `HORIZON` more activations
of either side, by the rules themselves (`turn.act`, `turn.activate`, `turn.activations`, `game.turns`) with
the standard AI deciding for both sides; each playout (a rollout) is judged by who won, or else by the
dollars each side has left standing, and the option whose rollouts are worth most is chosen (the standard
AI's own choice unless another is worth clearly more). The rollouts are shared out by halving, so that a
decision costs about `ROLLOUTS` of them however many options it has, most of them spent on the options in
contention. The horizon is counted in activations, not turns, so that a rollout costs about the same early
and late in a turn. Every other decision (rerolls, cards, reactions, the duel's bets) is the standard AI's.

A rollout sees only what the AI's side may see (`hidden.py`): it is played on a copy in which the other
side's inspiration cards are dealt again from the cards the side has not seen (its hand and the draw pile),
and the other side's hidden tokens swap who they are among themselves; the dice and the cards it draws come
from its own random stream, not from the game's (whose coming results it would otherwise know). That stream
is seeded from the game's: from the word the game's stream would give next, hashed (the game's stream is
not drawn from), or in table mode from the results entered so far: the same state gives the same decision,
although a replay never asks for it again (it is an event of the game's, `core.session`). The same seeds are
used for every option of a decision (common random numbers: the options are compared on the same dice).
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from dedale.core.cards import Card, Deck
from dedale.core.rng import Roller, SeededSource, SplitMix64, Stream, TableSource
from dedale.zombstone.skirmish.ai import AI
from dedale.zombstone.skirmish.game import turns
from dedale.zombstone.skirmish.model import Game, Side
from dedale.zombstone.skirmish.table import OTHER, Ask, Controller, Flow, Table
from dedale.zombstone.skirmish.turn import act, activate, activations

LEVELS = ("standard", "lookahead")
ROLLOUTS: Final = 160  # rollouts a decision, shared among its options round by round (`Lookahead.choose`)
LEAST: Final = 2  # rollouts an option at least in a round, however many options are left
HORIZON: Final = 12  # activations played after the one under way before a rollout is judged
# A rollout's cost grows faster than the figures in play (each activation weighs them all, against all the
# others, and the busier table plays more confrontations): past this many figures, a decision plays fewer
# rollouts, by the cube of the ratio, so that it costs about the same, under a second, on every table. OK
# Corral's 13 figures play four fifths of `ROLLOUTS`, High Noon's 16 about two fifths, the jail's 18 under a third
FIGURES: Final = 12
EDGE: Final = 0.02  # how much more another option must be worth than the standard AI's choice
_GOLDEN: Final = 0x9E3779B97F4A7C15


def controller(level: str, style: str) -> Controller:
    """The AI of a level (`LEVELS`) playing a policy (`ai.POLICIES`)."""
    return Lookahead(style, ROLLOUTS) if level == "lookahead" else AI(style)


@dataclass(frozen=True)
class Lookahead:
    style: str = "default"
    rollouts: int = ROLLOUTS
    horizon: int = HORIZON

    @property
    def name(self) -> str:
        return f"lookahead:{self.style}"

    def choose(self, t: Table, ask: Ask) -> str:
        """The rollouts are shared out by halving: a round plays every option still weighed on the same new
        seeds, then the worse half is dropped (the standard AI's choice is kept to the end, as the one to
        beat), until the last round; so most rollouts go to the options in contention, and a decision costs
        about `rollouts` whatever its number of options (fewer with more than `FIGURES` figures in play)."""
        base = AI(self.style)
        chosen = base.choose(t, ask)
        if ask.kind not in ("activate", "action") or t.over:
            return chosen
        options = _candidates(ask, chosen)
        if len(options) < 2:
            return chosen
        rounds = math.ceil(math.log2(len(options)))
        budget = rollouts_for(t, self.rollouts)
        seeds = _seeds(t)
        total, played = dict.fromkeys(options, 0.0), 0  # played: the rollouts of each option still weighed
        weighed = options
        for round_ in range(rounds):
            each = max(LEAST, budget // (rounds * len(weighed)))
            batch = [next(seeds) for _ in range(each)]  # the same seeds for every option (common random numbers)
            for option in weighed:
                total[option] += sum(self.rollout(t, ask, option, seed) for seed in batch)
            played += each
            if round_ < rounds - 1:
                ahead = sorted(weighed, key=total.__getitem__, reverse=True)[:math.ceil(len(weighed) / 2)]
                weighed = [o for o in weighed if o in ahead or o == chosen]
        best = max(weighed, key=total.__getitem__)  # the first of the best: the standard AI's choice comes first
        return best if (total[best] - total[chosen]) / played > EDGE else chosen

    def rollout(self, t: Table, ask: Ask, option: str, seed: int) -> float:
        """One playout of `option` from a copy of the game as `ask.side` may know it: 1 won, 0 lost, else the
        dollars standing (`_standing`) once `horizon` more activations have been played."""
        source = SeededSource(seed)
        roller = Roller(source, [])
        game = _seen_by(t.game, ask.side, source.gen)
        both = _Rollout(AI(self.style), option if ask.kind == "action" else None, self.horizon)
        copied = Table(game, t.catalogue, t.scenario, roller, {"lawmen": both, "zombies": both}, t.rounds,
                       activation=activate, **t.readings())
        try:
            for _ in _playout(copied, ask, option):
                raise AssertionError("a rollout between two AIs asked for a decision")
        except _Horizon:
            return _standing(copied, ask.side)
        return 0.5 if game.winner is None else float(game.winner == ask.side)


def rollouts_for(t: Table, rollouts: int) -> int:
    """The rollouts a decision plays on this table: `rollouts`, fewer past `FIGURES` figures in play."""
    return int(rollouts * min(1.0, (FIGURES / len(t.standing(None))) ** 3))


class _Horizon(Exception):
    """A rollout has played as far ahead as it looks."""


@dataclass
class _Rollout:
    """Both sides of a rollout: the option under trial at its first decision (the action asked), then the
    standard AI, until an activation is asked for after the last one the horizon allows."""

    base: AI
    option: str | None
    left: int

    @property
    def name(self) -> str:
        return self.base.name

    def choose(self, t: Table, ask: Ask) -> str:
        if self.option is not None:
            option, self.option = self.option, None
            ask.every()  # an AI's options come in groups listed when looked at: the option is found among them
            return option
        if ask.kind == "activate":
            if self.left == 0:
                raise _Horizon
            self.left -= 1
        return self.base.choose(t, ask)


def _playout(t: Table, ask: Ask, option: str) -> Flow[None]:
    """The decision's option, the rest of the turn (the other side activates next), then the turns after it."""
    if ask.kind == "activate":
        yield from activate(t, t.game.figure(int(option.removeprefix("activate:"))))
    else:
        figure = t.game.figure(ask.about["figure"])
        # the cards the Hand may still play are not in the ask: counted from its whole Hand
        yield from act(t, figure, ask.about["actions"], ask.about["moves"], [t.profile(figure).hand])
    if not t.over:
        yield from activations(t, OTHER[ask.side])
    yield from turns(t)


def _candidates(ask: Ask, chosen: str) -> list[str]:
    """The options weighed: the standard AI's choice first, then every melee, shot and aimed shot, the moves
    toward an enemy and into cover, and ending the activation (for an activation: every figure). The compass
    moves are left out, but when the standard AI chose one."""
    if ask.kind == "activate":
        found = [o.id for o in ask.options]
    else:
        found = [o.id for o in (*ask.options, *ask.more("shots"), *ask.more("toward"), *ask.more("cover"))]
    return [chosen, *(o for o in dict.fromkeys(found) if o != chosen)]


def _seeds(t: Table) -> Iterator[int]:
    """The rollouts' seeds: SplitMix64 steps from a seed hashed from the word the game's stream would give next
    (drawn from a copy of it), or in table mode from the results entered so far and the log's length."""
    source = t.roller.source
    if isinstance(source, TableSource):
        seen = "\n".join([*source.entries[:source.pos], str(len(t.roller.log))]).encode()
    else:
        seen = copy.deepcopy(source.gen).next64().to_bytes(8, "little")
    start = int.from_bytes(hashlib.blake2b(seen, digest_size=8, person=b"lookahead").digest(), "little")
    for number in itertools.count():
        yield SplitMix64((start + number * _GOLDEN) & ((1 << 64) - 1)).next64()


def _seen_by(game: Game, side: str, stream: Stream) -> Game:
    """A copy of the game to play out (its log left behind) as `side` may know it: the other side's cards dealt
    again from those `side` has not seen, and the other side's hidden tokens shuffled among themselves."""
    other = OTHER[side]
    unseen = sorted([*game.deck.pile, *game.sides[other].hand], key=game.deck.cards.index)  # in no telling order
    held = len(game.sides[other].hand)
    dealt: list[Card] = [unseen.pop(stream.below(len(unseen))) for _ in range(held)]
    deck = Deck(game.deck.cards, unseen, list(game.deck.discards))
    sides = {name: Side(s.side, s.band, dealt if name == other else list(s.hand), s.had_stars, s.funds)
             for name, s in game.sides.items()}
    figures = [copy.copy(f) for f in game.figures]
    tokens = [f for f in figures if f.side == other and f.hidden]
    who = sorted((f.profile, f.ticked, f.wounded, f.fame, f.hired) for f in tokens)  # as if unknown: in no order
    for figure in tokens:
        figure.profile, figure.ticked, figure.wounded, figure.fame, figure.hired = who.pop(stream.below(len(who)))
    return Game(scenario=game.scenario, figures=figures, sides=sides, deck=deck, turn=game.turn,
                initiative=game.initiative, fire=list(game.fire), last_fire=list(game.last_fire), winner=game.winner,
                ending=game.ending, decided_by=game.decided_by, duel=game.duel)


def _standing(t: Table, side: str) -> float:
    """An unfinished rollout's worth: a half, plus half the share of its dollars the side has kept standing
    (a wounded or fleeing character worth half) less the other side's."""
    def kept(name: str) -> float:
        figures = [f for f in t.game.figures if f.side == name]
        whole = sum(t.profile(f).cost for f in figures) or 1
        return sum(t.profile(f).cost * (0.5 if f.wounded or f.state == "fleeing" else 1.0)
                   for f in figures if f.in_play) / whole
    return 0.5 + 0.4 * (kept(side) - kept(OTHER[side]))


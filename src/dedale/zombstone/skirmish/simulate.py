"""Battle runs for balancing bands: many games between two AIs, each with its own seed derived from the
run's seed and its number (so the results do not depend on how many workers play them), summed up as win
rates with 95% confidence intervals (Wilson's), how the games were decided, melees and shots a game,
average turns and survivors. Each side's AI may be of its own level (a matchup: `matchups`, `matchup_name`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from dedale.core.batch import IN_PROCESS, Where, run_batch
from dedale.core.errors import DedaleError
from dedale.core.rng import Roller, SeededSource, SplitMix64
from dedale.zombstone.skirmish.catalogue import SIDES, Catalogue, load_catalogue
from dedale.zombstone.skirmish.game import play
from dedale.zombstone.skirmish.lookahead import LEVELS as AI_LEVELS
from dedale.zombstone.skirmish.lookahead import controller
from dedale.zombstone.skirmish.model import Game
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.table import OTHER, Controller, Table
from dedale.zombstone.skirmish.turn import activate

Z95 = 1.959963984540054
MELEE = "skirmish.how.melee"  # a confrontation's kind as the log words it
DECIDED = ("elimination", "flight", "stars", "escort", "hold", "survival", "dollars")
# The AI levels a battle run may pit against each other (`lookahead.LEVELS`): a level's name, and how it makes a
# side's AI for a policy; `dedale zombstone balance` plays each.
LEVELS: dict[str, Callable[[str], Controller]] = {level: partial(controller, level) for level in AI_LEVELS}


def matchups(text: str) -> list[dict[str, str]]:
    """The matchups `--ai` names, each the level of each side: `LEVEL` (both sides), `LEVEL,LEVEL,...` (one
    matchup each), or `lawmen=LEVEL,zombies=LEVEL` (one matchup; a side not named plays the standard AI).
    Anything else is refused, naming what is accepted."""
    parts = [part.strip() for part in text.split(",")]
    if not any("=" in part for part in parts):
        for level in parts:
            _check_level(level, text)
        return [dict.fromkeys(SIDES, level) for level in dict.fromkeys(parts)]  # each once, in order
    found: dict[str, str] = {}
    for part in parts:
        side, equals, level = (piece.strip() for piece in part.partition("="))
        if not equals or not side:
            raise DedaleError("error.skirmish.ai_spelling", value=text, levels=", ".join(LEVELS))
        if side not in SIDES:
            raise DedaleError("error.skirmish.ai_side", value=side, accepted=", ".join(SIDES))
        if side in found:
            raise DedaleError("error.skirmish.ai_twice", side=side, value=text)
        _check_level(level, text)
        found[side] = level
    return [{side: found.get(side, "standard") for side in SIDES}]


def _check_level(level: str, text: str) -> None:
    if not level:
        raise DedaleError("error.skirmish.ai_spelling", value=text, levels=", ".join(LEVELS))
    if level not in LEVELS:
        raise DedaleError("error.one_of", param="ai", value=level, accepted=", ".join(LEVELS))


def matchup_name(levels: Mapping[str, str]) -> str:
    """A matchup as `--ai` spells it: its level when both sides play the same, else each side's."""
    if len(set(levels.values())) == 1:
        return next(iter(levels.values()))
    return ",".join(f"{side}={levels[side]}" for side in SIDES)


def game_seed(run_seed: int, number: int) -> int:
    """The seed of game `number` of a run: a SplitMix64 step from the run's seed, so any worker finds it."""
    return SplitMix64((run_seed + number * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)).next64()


@dataclass(frozen=True, slots=True)  # a million of them in a long run
class Outcome:
    seed: int
    winner: str | None
    ending: str
    decided_by: str  # the condition that decided it (`victory.py`)
    turns: int
    melees: int
    shots: int
    survivors: dict[str, int]  # characters still in play at the end
    dollars: dict[str, int]  # what they are worth


def play_game(params: SkirmishParams, seed: int, catalogue: Catalogue | None = None,
              levels: Mapping[str, str] | None = None,
              watch: Callable[[str, Controller], Controller] | None = None) -> Outcome:
    """One game between two AIs, from deployment to its end (on the params' data, or on `catalogue`), each
    side's AI of its level (`LEVELS`: the params' `ai` unless `levels` names another); `watch` may wrap each
    side's AI in one that answers the same and looks on (`ai_report.Watcher`)."""
    catalogue = catalogue or load_catalogue(params.data)
    game = Game()
    roller = Roller(SeededSource(seed), game.log)
    controllers: dict[str, Controller | None] = {}
    for side in SIDES:
        ai = LEVELS[(levels or {}).get(side, params.ai)](params.policy(side))
        controllers[side] = ai if watch is None else watch(side, ai)
    t = Table(game, catalogue, catalogue.scenario(params.scenario), roller, controllers, params.rounds,
              activation=activate, **params.readings())
    for _ in play(t):  # two AIs never suspend the game
        raise AssertionError("an AI game asked for a decision")
    standing = {side: game.in_play(side) for side in SIDES}
    fights = [e["args"]["how"]["t"] for e in game.log if e.get("note") == "skirmish.confront"]
    melees = fights.count(MELEE)
    return Outcome(seed, game.winner, game.ending or "draw", game.decided_by or "dollars", game.turn, melees,
                   len(fights) - melees, {s: len(f) for s, f in standing.items()},
                   {s: sum(t.profile(f).cost for f in fs) for s, fs in standing.items()})


def play_numbered(params: SkirmishParams, run_seed: int, number: int,
                  levels: Mapping[str, str] | None = None) -> Outcome:
    """Game `number` of the run of seed `run_seed` (what a worker is sent: a number, not a list of seeds)."""
    return play_game(params, game_seed(run_seed, number), levels=levels)


def run(params: SkirmishParams, games: int, seed: int, where: Where = IN_PROCESS,
        progress: Callable[[int], None] | None = None, levels: Mapping[str, str] | None = None) -> list[Outcome]:
    """`games` games, in order, wherever they are played (core/batch); `progress` is told how many are done;
    each side's AI of its level in `levels` (the params' `ai` for a side it does not name)."""
    work = partial(play_numbered, params, seed, levels=None if levels is None else dict(levels))
    return list(run_batch(work, range(games), where, progress))


def side_levels(params: SkirmishParams, levels: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each side's AI level in a run: `levels`', else the params' `ai`."""
    return {side: (levels or {}).get(side, params.ai) for side in SIDES}


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The 95% confidence interval of a rate of `hits` in `n` (Wilson's score interval)."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
    spread = Z95 / (1 + Z95 ** 2 / n) * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n))
    return (max(0.0, centre - spread), min(1.0, centre + spread))


def win_rates(outcomes: list[Outcome]) -> dict[str, dict[str, float]]:
    """Each side's wins, and the draws, among the outcomes: how many, the rate and its 95% interval."""
    n, found = len(outcomes), {}
    for side in (*SIDES, None):
        hits = sum(1 for o in outcomes if o.winner == side)
        low, high = wilson(hits, n)
        found[side or "draw"] = {"games": hits, "rate": hits / n if n else 0.0, "low": low, "high": high}
    return found


def summary(params: SkirmishParams, seed: int, outcomes: list[Outcome],
            levels: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The run as a JSON document: each side's AI level, win rates with their intervals, turns, survivors, and
    every game."""
    n = len(outcomes)
    return {
        "format": "dedale/zombstone-simulation", "version": 1, "seed": seed, "params": params.to_json(),
        "levels": side_levels(params, levels), "games": n, "wins": win_rates(outcomes),
        "turns": sum(o.turns for o in outcomes) / n if n else 0.0,
        "endings": {e: sum(1 for o in outcomes if o.ending == e) for e in ("eliminated", "condition", "turns", "draw")},
        "decided_by": {d: sum(1 for o in outcomes if o.decided_by == d) for d in DECIDED},
        "melees": sum(o.melees for o in outcomes) / n if n else 0.0,
        "shots": sum(o.shots for o in outcomes) / n if n else 0.0,
        "survivors": {s: sum(o.survivors[s] for o in outcomes) / n if n else 0.0 for s in SIDES},
        "dollars": {s: sum(o.dollars[s] for o in outcomes) / n if n else 0.0 for s in SIDES},
        "outcomes": [asdict(o) for o in outcomes],
    }


def sign_test(better: int, worse: int) -> float:
    """The two-sided p-value of an exact sign test: `better` pairs against `worse` (ties left out), under the
    hypothesis that either is as likely."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(better, worse) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


@dataclass(frozen=True)
class HeadToHead:
    """A level against the standard AI on the same games: each game played with the level on one side and the
    standard AI on the other, and again with the standard AI on both; a pair counts for the level when its
    side won with it and not without, against it the other way round."""

    level: str
    side: str
    games: int
    better: int
    worse: int
    wins: int  # the level's side's wins with the level
    standard_wins: int  # the same side's wins, the standard AI playing it

    @property
    def p_value(self) -> float:
        return sign_test(self.better, self.worse)


def head_to_head(params: SkirmishParams, level: str, games: int, seed: int,
                 where: Where = IN_PROCESS) -> dict[str, HeadToHead]:
    """`level` against the standard AI on each side, over `games` games of the run of seed `seed`, each paired
    with the same game between two standard AIs (played once, for both sides)."""
    standard = run(params, games, seed, where, levels=dict.fromkeys(SIDES, "standard"))
    found = {}
    for side in SIDES:
        with_level = run(params, games, seed, where, levels={side: level, OTHER[side]: "standard"})
        won = [o.winner == side for o in with_level]
        was = [o.winner == side for o in standard]
        found[side] = HeadToHead(level, side, games, sum(a and not b for a, b in zip(won, was, strict=True)),
                                 sum(b and not a for a, b in zip(won, was, strict=True)), sum(won), sum(was))
    return found

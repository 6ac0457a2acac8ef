"""How the AI plays, watched over many games (`make bench`, benchmarks/zombstone_ai_report.py): the faults a player
notices, counted where they happen, each side's AI wrapped by a `Watcher` that sees every ask and answer.
Targets (issue 40): idle gunmen at most `IDLE`, Last Breaths that did nothing at most `WASTED`.

- **idle gunmen:** activations of a figure with a gun in which it did nothing (its first action ended it) while
  an enemy was in range and sight (an enemy gun had it in range and sight, or it had a shot), among those in
  which a shot, or a move after which it could shoot, was open to it (the target);
- **waiting gunmen:** those in which it did nothing otherwise, a move and a shot open (no target): mostly a gunman
  in cover waiting for a brawler without a gun, which comes to it anyway (`ai.AI._advance`). Tried in High Noon
  (1,000 games, seed 777), the Earps won 40.6% waiting; 33.3% leaving cover to shoot from where no brawler could
  charge them next and no gun reached them; 38.0% from where no gun could reach them even after its move;
- **still hordes:** activations of a horde figure (`ai._horde`) that neither moved nor fought (but those holding the
  scenario's place);
- **aimed shots** a game (and shots), **Jokers** played (each pays an Aimed shot) against those drawn;
- **Last Breaths** paid for whose free activation attacked nobody and took no place.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import partial

from dedale.core.batch import IN_PROCESS, Where, run_batch
from dedale.core.rng import LogEntry
from dedale.zombstone.skirmish import skills
from dedale.zombstone.skirmish.ai import _firing_spot, _goal, _horde, _moves, _shots, _under_fire
from dedale.zombstone.skirmish.catalogue import SIDES
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.simulate import game_seed, play_game
from dedale.zombstone.skirmish.table import Ask, Controller, Table
from dedale.zombstone.skirmish.victory import inside

ATTACKS = ("shoot:", "aim:", "melee:")
IDLE = 0.05  # of the activations in which a shot, or a move and a shot, was open
WASTED = 0.10  # of the Last Breaths paid for


@dataclass
class Watcher:
    """A side's AI, answering as it does, and counting what its answers do (`ai_report`)."""

    inner: Controller
    side: str
    counts: Counter[str] = field(default_factory=Counter)
    breathing: dict[int, bool] = field(default_factory=dict)  # a figure in its Last Breath: whether it did anything
    log: list[LogEntry] = field(default_factory=list)  # the game's, as the side last answered in it

    @property
    def name(self) -> str:
        return self.inner.name

    def choose(self, t: Table, ask: Ask) -> str:
        answer = self.inner.choose(t, ask)
        self.log = t.game.log
        if ask.kind == "action":
            self._action(t, ask, answer)
        elif ask.kind == "last_breath" and answer != "last_breath:no":
            self.counts["last_breaths"] += 1
            self.breathing[ask.about["figure"]] = False
        return answer

    def _action(self, t: Table, ask: Ask, answer: str) -> None:
        figure = t.game.figure(ask.about["figure"])
        if answer.startswith(("shoot:", "aim:")):
            self.counts["shots"] += 1
        if figure.id in self.breathing:
            goal = _goal(t, figure)
            chosen = ask.option(answer)
            place = goal is not None and chosen is not None and "to" in chosen.data and inside(chosen.data["to"], goal)
            self.breathing[figure.id] |= answer.startswith(ATTACKS) or place
            return
        if answer.startswith("aim:"):
            self.counts["aimed"] += 1
            self.counts["jokers_played"] += not skills.aims_free(t.profile(figure).skills) and t.aim_cost == "joker"
        if ask.about["actions"] != 2:  # only an activation's first action tells whether it did anything
            return
        self.counts["activations"] += 1
        idle = answer == "end"
        if _horde(t, figure):
            if (goal := _goal(t, figure)) is not None and inside(figure.pos, goal):
                return  # holding the scenario's place: standing still is what it is there for
            self.counts["horde"] += 1
            self.counts["horde_still"] += idle
            return
        shot = bool(_shots(ask))
        ways = ("toward", "cover", "compass")
        if shot or (ask.about["moves"] > 0 and _firing_spot(
                t, ask, figure, None, [o for way in ways for o in _moves(ask, way)]) is not None):
            self.counts["gun_open"] += 1
            in_sight = shot or _under_fire(t, figure)
            self.counts["gun_open_idle"] += idle and in_sight
            self.counts["gun_open_waited"] += idle and not in_sight

    def finish(self) -> Counter[str]:
        """At the game's end, its counts: each Last Breath that did nothing counted, and the Jokers the side drew."""
        self.counts["last_breaths_wasted"] += sum(1 for did in self.breathing.values() if not did)
        self.breathing.clear()
        drawn = {"t": f"skirmish.side.{self.side}"}
        self.counts["jokers_drawn"] += sum(1 for e in self.log if e.get("for") == "skirmish.upkeep_draw"
                                           and e["args"]["side"] == drawn and str(e.get("draw")).startswith("JK"))
        return self.counts


def watched_game(params: SkirmishParams, run_seed: int, number: int) -> dict[str, Counter[str]]:
    """Game `number` of a run between the params' AIs: each side's counts (`Watcher`)."""
    watchers: dict[str, Watcher] = {}
    play_game(params, game_seed(run_seed, number), watch=lambda side, ai: watchers.setdefault(side, Watcher(ai, side)))
    return {side: watcher.finish() for side, watcher in watchers.items()}


def ai_report(params: SkirmishParams, games: int, seed: int, where: Where = IN_PROCESS) -> dict[str, Counter[str]]:
    """Each side's counts summed over `games` games of the run of seed `seed`."""
    total: dict[str, Counter[str]] = {side: Counter() for side in SIDES}
    for found in run_batch(partial(watched_game, params, seed), range(games), where):
        for side, counts in found.items():
            total[side].update(counts)
    return total


def rows(scenario: str, total: dict[str, Counter[str]], games: int) -> list[tuple[str, str, bool]]:
    """The report of a scenario, a row each measure: its label, its figure, and whether it meets its target."""
    both: Counter[str] = sum(total.values(), Counter())

    def share(part: str, whole: str, target: float | None = None) -> tuple[str, bool]:
        rate = both[part] / both[whole] if both[whole] else 0.0
        met = target is None or rate <= target
        aim = "" if target is None else f"; target <= {target:.0%}: " + ("ok" if met else "OVER TARGET")
        return f"{rate:.1%} ({both[part]:,} of {both[whole]:,}{aim})", met
    measures = [("gunmen idle with an enemy in range and sight", share("gun_open_idle", "gun_open", IDLE)),
                ("gunmen waiting, a move and a shot open", share("gun_open_waited", "gun_open")),
                ("hordes standing still", share("horde_still", "horde")),
                ("aimed shots", share("aimed", "shots")),
                ("Jokers played of those drawn", share("jokers_played", "jokers_drawn")),
                ("Last Breaths that did nothing", share("last_breaths_wasted", "last_breaths", WASTED))]
    found = [(f"zombstone {scenario}: {label}", figure, met) for label, (figure, met) in measures]
    found.insert(4, (f"zombstone {scenario}: aimed shots a game", f"{both['aimed'] / games:.2f}", True))
    return found

"""The skirmish AI against the one before issue 32 (`ai_first.py`, kept for the documents made then), head to
head: in each shipped scenario, GAMES games with today's AI playing the lawmen and the first one the zombies,
then GAMES with the sides swapped, on today's scenario settings. Target: today's AI wins more than 50% as
either side, or more than it wins against itself as that side (`dedale zombstone balance`).

    python benchmarks/zombstone_ai_match.py [games]
"""

from __future__ import annotations

import sys

from dedale.zombstone.skirmish import simulate
from dedale.zombstone.skirmish.ai_first import AI as FirstAI
from dedale.zombstone.skirmish.catalogue import SIDES, load_catalogue
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.simulate import game_seed, play_game, wilson

GAMES = 2_000
SEED = 32


def rates(scenario: str, games: int, levels: dict[str, str]) -> dict[str, float]:
    params = SkirmishParams(scenario=scenario, side=None)
    outcomes = [play_game(params, game_seed(SEED, n), levels=levels) for n in range(games)]
    found = {side: sum(1 for o in outcomes if o.winner == side) / games for side in SIDES}
    found["decided"] = sum(1 for o in outcomes if o.decided_by != "dollars") / games
    return found


def main(games: int) -> None:
    simulate.LEVELS["earlier"] = FirstAI  # for this run only
    print(f"{games} games a scenario and a side, against the AI before issue 32")
    for scenario, found in load_catalogue().scenarios.items():
        if not found.shipped:
            continue
        as_lawmen = rates(scenario, games, {"lawmen": "standard", "zombies": "earlier"})
        as_zombies = rates(scenario, games, {"lawmen": "earlier", "zombies": "standard"})
        for side, run in (("lawmen", as_lawmen), ("zombies", as_zombies)):
            low, high = wilson(round(run[side] * games), games)
            print(f"{scenario:<14} today's AI as the {side:<7} against the earlier: wins {run[side]:6.1%} "
                  f"(95%: {low:.1%}-{high:.1%}); decided at the table {run['decided']:.0%}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES)

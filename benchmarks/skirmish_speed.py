"""The skirmish's speed (issues 15 and 27): AI games a second on one core, as `benchmarks/run.py` measures OK
Corral, each scenario in a fresh process: 40 games first (the dice engine's policies for the rolls a game meets
are computed once a process), then the best of five rounds of 40 games, timed in the process's CPU time (a
second of one core: what else the machine runs meanwhile is not counted). Target: at least 60 OK Corral games a
second; High Noon (a poker duel first, then a smaller table) is shown for reference."""

from __future__ import annotations

import json
import subprocess
import sys

TARGET = 60.0  # OK Corral games a second, one core
WARM_UP = 40
ROUNDS = 5
GAMES = 40
RUNS = (("ok_corral", TARGET), ("high_noon", None))

PLAY = """
import json, sys, time
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.simulate import game_seed, play_game
params = SkirmishParams(scenario=sys.argv[1], side=None)
warm, rounds, games = (int(arg) for arg in sys.argv[2:5])
start = time.process_time()
for number in range(warm):
    play_game(params, game_seed(7, number))
warm_up = time.process_time() - start
best = 0.0
for round_ in range(rounds):
    start = time.process_time()
    for number in range(games):
        play_game(params, game_seed(round_, 1000 + number))
    best = max(best, games / (time.process_time() - start))
print(json.dumps({"per_second": best, "warm_up": warm_up}))
"""


def games_per_second(scenario: str) -> tuple[float, float]:
    """The best rate of `scenario`'s rounds in a fresh process, and how long its warm-up took (s)."""
    run = subprocess.run([sys.executable, "-c", PLAY, scenario, str(WARM_UP), str(ROUNDS), str(GAMES)],
                         check=True, capture_output=True, text=True)
    found = json.loads(run.stdout)
    return found["per_second"], found["warm_up"]


def measure() -> list[tuple[str, str, bool]]:
    rows = []
    for scenario, target in RUNS:
        rate, warm_up = games_per_second(scenario)
        ok = target is None or rate >= target
        verdict = "for reference" if target is None else f"target >= {target:g}: " + ("ok" if ok else "UNDER TARGET")
        rows.append((f"zombstone: {scenario} AI games a second, one core",
                     f"{rate:,.1f} ({verdict}; the first {WARM_UP} games took {warm_up:.1f} s)", ok))
    return rows


if __name__ == "__main__":
    for label, figure, _ in measure():
        print(f"{label:<48} {figure}")

"""The hexcrawl's growth (issue 27): maps of radius 50, 150 and 300 (the command line's largest), each in a fresh
process, the best of a few rounds (taken in turn, one size after the other, so that each size sees the
machine's load alike). Times are the process's CPU time: on a shared machine its wall time also counts the
moments it waited for a core.

- explore: the map made and explored whole by the autopilot (the default spiral);
- JSON: its document built and written to a file, as `dedale hexcrawl -o map.json` writes it (and the file's
  size);
- memory: the process's peak resident memory, less what it held before the map was made.

Target: growth no worse than n log n, for each figure, from one size to the next (n: the hexes); each ratio is
printed beside n log n's. Runnable alone: `python benchmarks/hexcrawl_scale.py`.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

ROUNDS = {50: 7, 150: 5, 300: 3}  # the smaller maps' few hundredths of a second vary the most
RUN = """
import json, resource, sys, tempfile, time
from pathlib import Path
from dedale.core.session import Session
from dedale.hexcrawl.params import HexParams
from dedale.hexcrawl.session import HexcrawlRules
from dedale.systems import system
Session(HexcrawlRules, HexParams(radius=1), 0).run_autopilot()  # imports and tables loaded before the clock starts
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.process_time()
session = Session(HexcrawlRules, HexParams(radius=int(sys.argv[1])), 1).run_autopilot()
explored = time.process_time()
with tempfile.TemporaryDirectory() as folder:
    path = Path(folder) / "map.json"
    system("hexcrawl").write(path, session.to_json(), ".json")
    written = time.process_time()
    size = path.stat().st_size
print(json.dumps({"explore": explored - start, "json": written - explored, "bytes": size,
                  "mib": (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024}))
"""


def hexes(radius: int) -> int:
    return 1 + 3 * radius * (radius + 1)


def one_run(radius: int) -> dict[str, float]:
    return json.loads(subprocess.run([sys.executable, "-c", RUN, str(radius)], check=True, capture_output=True,
                                     text=True).stdout)


def best(rounds: dict[int, int]) -> dict[int, dict[str, float]]:
    """For each radius, the best times and the largest memory of its rounds, each a fresh process."""
    runs: dict[int, list[dict[str, float]]] = {radius: [] for radius in rounds}
    for turn in range(max(rounds.values())):
        for radius, count in rounds.items():
            if turn < count:
                runs[radius].append(one_run(radius))
    return {radius: {"explore": min(run["explore"] for run in made), "json": min(run["json"] for run in made),
                     "bytes": max(run["bytes"] for run in made), "mib": max(run["mib"] for run in made)}
            for radius, made in runs.items()}


def measure(rounds: dict[int, int] | None = None) -> list[tuple[str, str, bool]]:
    rows = []
    previous: tuple[int, dict[str, float]] | None = None
    for radius, run in best(rounds or ROUNDS).items():
        n = hexes(radius)
        figure = (f"explore {run['explore']:6.3f} s, JSON {run['json']:6.2f} s ({run['bytes'] / 2**20:4.0f} MiB), "
                  f"memory {run['mib']:5.0f} MiB")
        ok = True
        if previous is not None:
            m, before = previous
            bound = n * math.log(n) / (m * math.log(m))
            # a small map may need no memory beyond what the process held after its warm-up: no ratio to judge
            ratios = {name: run[name] / before[name] for name in ("explore", "json", "mib") if before[name] > 0}
            ok = all(ratio <= bound for ratio in ratios.values())
            shown = {name: f"x{ratios[name]:.1f}" if name in ratios else "(none before)" for name in ("explore", "json",
                                                                                                    "mib")}
            figure += (f"; x{n / m:.1f} hexes: explore {shown['explore']}, JSON {shown['json']}, memory "
                       f"{shown['mib']} (n log n: x{bound:.1f}: {'ok' if ok else 'OVER TARGET'})")
        rows.append((f"hexcrawl: radius {radius} ({n:,} hexes)", figure, ok))
        previous = n, run
    return rows


if __name__ == "__main__":
    for label, figure, _ in measure():
        print(f"{label:<40} {figure}")

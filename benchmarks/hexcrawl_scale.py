"""The hexcrawl at radius 1000 (3,003,001 hexes, issue 15), each figure from fresh processes of the command line
(imports included), the best time and the largest peak memory of a few rounds:

- `dedale hexcrawl --radius 1000`: the whole map explored by the autopilot and its text view printed;
- `dedale hexcrawl --radius 1000 -o map.json`: the document written to a file, piece by piece (its size too);
- `dedale render map.json -o map.txt`: that file read back and drawn as text, for reference.

Targets: at most 10 s and 1 GiB each for the first two.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

RADIUS = 1000
SECONDS, MIB = 10.0, 1024.0
RUN = """
import json, resource, sys, time
start = time.perf_counter()
from dedale.cli import main
try:
    main(sys.argv[1:])
except SystemExit as stop:
    if stop.code:
        raise
print(json.dumps({"seconds": time.perf_counter() - start,
                  "mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}), file=sys.stderr)
"""


def run(*args: str, rounds: int) -> tuple[float, float]:
    """The best time (s) and the largest peak memory (MiB) of `rounds` fresh processes running `dedale ARGS`."""
    figures = []
    for _ in range(rounds):
        done = subprocess.run([sys.executable, "-c", RUN, *args], check=True, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        figures.append(json.loads(done.stderr.strip().splitlines()[-1]))
    return min(f["seconds"] for f in figures), max(f["mib"] for f in figures)


def row(label: str, seconds: float, mib: float, target: bool, extra: str = "") -> tuple[str, str, bool]:
    ok = not target or (seconds <= SECONDS and mib <= MIB)
    verdict = ("ok" if ok else "OVER TARGET") if target else "for reference"
    return (label, f"{seconds:6.2f} s, peak {mib:5.0f} MiB{extra} (target <= {SECONDS:g} s, {MIB:g} MiB: {verdict})"
            if target else f"{seconds:6.2f} s, peak {mib:5.0f} MiB{extra} ({verdict})", ok)


def measure(rounds: int = 2) -> list[tuple[str, str, bool]]:
    hexes = f"{1 + 3 * RADIUS * (RADIUS + 1):,} hexes"
    common = ("hexcrawl", "--seed", "1", "--radius", str(RADIUS))
    with tempfile.TemporaryDirectory() as folder:
        document = Path(folder) / "map.json"
        rows = [row(f"hexcrawl: radius {RADIUS} ({hexes}), text view", *run(*common, rounds=rounds), True)]
        seconds, mib = run(*common, "-o", str(document), rounds=rounds)
        size = document.stat().st_size / 2**30
        rows.append(row(f"hexcrawl: radius {RADIUS}, -o map.json", seconds, mib, True, f", {size:.2f} GiB file"))
        rows.append(row("hexcrawl: render that map.json as text",
                        *run("render", str(document), "-o", str(Path(folder) / "map.txt"), rounds=1), False))
    return rows


if __name__ == "__main__":
    for label, figure, _ in measure():
        print(f"{label:<48} {figure}")

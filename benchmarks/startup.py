"""The command line's start-up (`make bench`): `dedale crawler --seed 1` and `dedale --help`, each the median
wall time of ten fresh processes less the interpreter's own start (`python -c pass`), so that the figure is
what Dédale's imports and work cost. Target: at most 150 ms each."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

RUNS = 10
TARGET_MS = 150.0
COMMANDS = {"dedale crawler --seed 1": ["crawler", "--seed", "1"], "dedale --help": ["--help"]}
MAIN = "import sys; from dedale.cli import main; sys.exit(main())"  # what the `dedale` script runs


def median_ms(args: list[str]) -> float:
    """The median wall time of RUNS processes, after one that fills the disk cache and writes the bytecode."""
    subprocess.run(args, check=True, capture_output=True)
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def measure() -> dict[str, float]:
    """Each command's start-up in ms, the interpreter's own start taken off."""
    bare = median_ms([sys.executable, "-c", "pass"])
    return {name: median_ms([sys.executable, "-c", MAIN, *argv]) - bare for name, argv in COMMANDS.items()}


if __name__ == "__main__":
    for name, ms in measure().items():
        print(f"{name}: {ms:.0f} ms (target <= {TARGET_MS:g} ms)")

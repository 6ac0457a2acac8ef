"""Batches on local worker processes (issues 15 and 27): OK Corral games a second played by `dedale zombstone
simulate`, and crawler dungeons a second made by `dedale crawler --count N --json`, on 1 worker (this process
alone) and on 2 (the standard library's process pool); and the designer's sweep of 2,000 games (`dedale
zombstone balance`: Wyatt Earp's Potential from -4 to 5, 200 games at each) on the default workers, one a
core. Each run is a fresh `dedale` process, timed whole, as a user waits for it: start-up, the first half
second in this process, the pool's start and stop, the workers' own warm-up (a skirmish process works out the
dice policies its games meet). The best of ROUNDS runs (the machine may be shared). Targets: byte-identical
output whatever the workers, 2 workers faster than 1 (on a machine with 2 cores or more), and the sweep under
a minute. What is printed is hashed as it comes, not kept."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time

ROUNDS = 2
MAIN = "import sys; from dedale.cli import main; sys.exit(main())"  # what the `dedale` script runs
JOBS = {  # label -> (the command's arguments, how many items it makes, what an item is)
    "simulate OK Corral": (["zombstone", "simulate", "--scenario", "ok_corral", "--games", "1000", "--seed", "1",
                            "--json"], 1000, "games"),
    "crawler --count": (["crawler", "--seed", "1", "--count", "10000", "--json"], 10000, "dungeons"),
}
SWEEP = ["zombstone", "balance", "--profile", "wyatt_earp", "--field", "potential",
         "--values=" + ",".join(str(value) for value in range(-4, 6)), "--games", "200", "--seed", "1", "--json"]
SWEEP_GAMES = 2000
SWEEP_TARGET = 60.0  # seconds


def timed(args: list[str]) -> tuple[float, str]:
    """The wall time of a fresh `dedale` process and the digest of what it printed."""
    digest = hashlib.sha256()
    start = time.perf_counter()
    with subprocess.Popen([sys.executable, "-c", MAIN, *args], stdout=subprocess.PIPE) as running:
        assert running.stdout is not None
        while block := running.stdout.read(1 << 20):
            digest.update(block)
    if running.returncode:
        raise subprocess.CalledProcessError(running.returncode, args)
    return time.perf_counter() - start, digest.hexdigest()


def measure() -> list[tuple[str, str, bool]]:
    rows = []
    for label, (args, items, unit) in JOBS.items():
        best: dict[int, float] = {}
        digests = set()
        for _ in range(ROUNDS):
            for workers in (1, 2):
                seconds, digest = timed([*args, "--workers", str(workers)])
                best[workers] = min(best.get(workers, float("inf")), seconds)
                digests.add(digest)
        identical = len(digests) == 1
        faster = best[2] < best[1] or (os.cpu_count() or 1) < 2
        rows.append((f"batch: {label}, 1 worker", f"{items / best[1]:8,.1f} {unit}/s ({items:,} in {best[1]:.1f} s; "
                     "for reference)", True))
        verdict = "ok" if identical and faster else "NOT IDENTICAL" if not identical else "NOT FASTER"
        rows.append((f"batch: {label}, 2 workers", f"{items / best[2]:8,.1f} {unit}/s ({items:,} in {best[2]:.1f} s, "
                     f"x{best[1] / best[2]:.2f}; target: identical output, faster than 1 worker: {verdict})",
                     identical and faster))
    sweep = min(timed(SWEEP)[0] for _ in range(ROUNDS))
    met = sweep < SWEEP_TARGET
    rows.append((f"batch: balance sweep, {os.cpu_count()} cores", f"{sweep:8.1f} s for {SWEEP_GAMES:,} games "
                 f"({SWEEP_GAMES / sweep:,.0f} games/s; target < {SWEEP_TARGET:g} s: {'ok' if met else 'OVER TARGET'})",
                 met))
    return rows


if __name__ == "__main__":
    for label, figure, _ in measure():
        print(f"{label:<48} {figure}")

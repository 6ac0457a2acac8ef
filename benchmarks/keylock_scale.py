"""Key-lock diagrams as they grow (issue 27): made (the sets, then the tree grown with the seed's weighted
picks), analysed (the walk, keys needed, the hardest locks), and both, at 1,000, 10,000 and 20,000 objects
(the most the command line accepts), each in a fresh process. Target: growth no worse than n log n, so the
time's ratio between two sizes is printed beside the ratio of n log n; a row is over target when its ratio is
above that one. Unique pairs only (as the key-lock rows of `run.py`): every figure of keys needed is exact
without a search. For reference, the default mix scaled up (a unique pair, a multi-key set and a permanent key
in the proportions 3:1:1), where keys needed needs the search, within its budget: the share it proves.

Each size is the best of five processes (the machine's speed varies; made and analysed each the best of its
own, their sum from the same process). Runnable alone: `python benchmarks/keylock_scale.py`.

The peer, measured in the same processes: one linear pass over the same diagram (every node's parent, type
and set, and the tree's lines breadth first: what any analysis reads). Its time a node grows with the
diagram too, as the data outgrows the processor's caches (about x1.2 from 10,000 to 20,000 objects on a 1 MiB
L2), which no algorithm in Python escapes. So each row is judged twice: against n log n in seconds, and
against n log n times what the peer's time a node grew ("n log n, memory"). Counted in instructions
(`valgrind --tool=cachegrind`), the walk grows x2.15 from 10,000 to 20,000 objects, n log n's x2.15.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

SIZES = (1_000, 10_000, 20_000)
ROUNDS = 5

ONE_RUN = """
import json, resource, sys, time
from dedale.core.rng import Roller, SeededSource
from dedale.keylock.analysis import analyse
from dedale.keylock.generator import grow, make_sets
from dedale.keylock.model import Diagram
from dedale.keylock.params import KeylockParams

def make(params):  # as `KeylockRules.start` makes a diagram
    roller = Roller(SeededSource(1), [])
    sets, nodes = make_sets(params, roller)
    grow(sets, nodes, params, roller)
    return Diagram(sets, nodes, 1)

def linear_pass(diagram):
    nodes, children = diagram.nodes, diagram.children
    facts = [(n.parent, n.type, n.set) for n in nodes]
    level, seen = [0], 0
    while level:
        level = [kid for node_id in level for kid in children.get(node_id, ()) if facts[kid][0] == node_id]
        seen += len(level)
    return seen

analyse(make(KeylockParams()))  # what a first diagram loads, not counted
params = KeylockParams(**json.loads(sys.argv[1]))
start = time.process_time()
diagram = make(params)
made = time.process_time()
analysis = analyse(diagram)
analysed = time.process_time()
passes = []
for _ in range(20):
    before = time.process_time()
    linear_pass(diagram)
    passes.append(time.process_time() - before)
print(json.dumps({"objects": len(diagram.nodes) - 1, "made": made - start, "analysed": analysed - made,
                  "linear": min(passes),
                  "mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "unproven": len(analysis.get("keys_needed_unproven", {})), "locks": len(analysis["keys_needed"])}))
"""


def one_run(params: dict[str, int]) -> dict[str, float]:
    run = subprocess.run([sys.executable, "-c", ONE_RUN, json.dumps(params)], check=True, capture_output=True,
                         text=True)
    return json.loads(run.stdout)


def best(params: dict[str, int]) -> dict[str, float]:
    runs = [one_run(params) for _ in range(ROUNDS)]
    return {**runs[0], "made": min(run["made"] for run in runs), "analysed": min(run["analysed"] for run in runs),
            "linear": min(run["linear"] for run in runs),
            "both": min(run["made"] + run["analysed"] for run in runs), "mib": max(run["mib"] for run in runs)}


def n_log_n(objects: float) -> float:
    return objects * math.log(objects)


def measure() -> list[tuple[str, str, bool]]:
    rows = []
    runs = [best({"unique": objects // 2, "multi": 0, "permanent": 0}) for objects in SIZES]
    previous: dict[str, float] | None = None
    for run in runs:
        figure = (f"made {run['made'] * 1000:6.0f} ms, analysed {run['analysed'] * 1000:5.0f} ms, both "
                  f"{run['both'] * 1000:6.0f} ms, peak {run['mib']:4.0f} MiB, peer {run['linear'] * 1000:5.1f} ms")
        ok = True
        if previous is not None:
            grown = run["objects"] / previous["objects"]
            bound = n_log_n(run["objects"]) / n_log_n(previous["objects"])
            memory = max(1.0, run["linear"] / previous["linear"] / grown)  # the peer's time a node, grown
            ratios = {part: run[part] / previous[part] for part in ("made", "analysed", "both")}
            in_seconds = all(ratio <= bound for ratio in ratios.values())
            ok = all(ratio <= bound * memory for ratio in ratios.values())
            figure += (f"; x{ratios['made']:.2f}, x{ratios['analysed']:.2f}, x{ratios['both']:.2f} the size before "
                       f"(n log n: x{bound:.2f}: {'ok' if in_seconds else 'over'}; n log n, memory: "
                       f"x{bound * memory:.2f}: {'ok' if ok else 'OVER TARGET'})")
        rows.append((f"keylock: {run['objects']:,.0f} objects", figure, ok))
        previous = run
    for sets in (80, 800, 1_500):  # about 1,000, 10,000 and 18,600 objects
        run = best({"unique": 3 * sets, "multi": sets, "permanent": sets})
        proven = 1 - run["unproven"] / run["locks"]
        rows.append((f"keylock: {run['objects']:,.0f} objects, mixed sets",
                     f"made {run['made'] * 1000:6.0f} ms, analysed {run['analysed'] * 1000:5.0f} ms, "
                     f"{proven:.1%} of keys needed proven (for reference)", True))
    return rows


if __name__ == "__main__":
    for label, figure, _ in measure():
        print(f"{label:<48} {figure}")

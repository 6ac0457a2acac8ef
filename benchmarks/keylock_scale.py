"""Key-lock diagrams at scale (issue 15): a diagram made, analysed and written as JSON, in a fresh process,
at 10,000 and 100,000 objects. Target at 100,000: at most 2 s and 500 MiB (peak resident memory).

- unique pairs only (as `run.py`'s key-lock rows): every figure of keys needed is exact without a search;
- for reference, the default mix scaled up (a unique pair, a multi-key set and a permanent key in the
  proportions 3:1:1), where keys needed needs the search, within its budget: the share it proves.

Each row is the best of three processes (the machine's speed varies); the analysis alone is timed apart
(run a second time in the same process, after the memory is measured). Runnable alone:
`python benchmarks/keylock_scale.py`.
"""

from __future__ import annotations

import json
import subprocess
import sys

TARGET_SECONDS = 2.0
TARGET_MIB = 500
ROUNDS = 3

ONE_RUN = """
import json, resource, sys, time
from dedale.keylock.analysis import analyse
from dedale.keylock.params import KeylockParams
from dedale.keylock.session import KeylockSession

params = KeylockParams(**json.loads(sys.argv[1]))
start = time.perf_counter()
session = KeylockSession(params, 1)
made = time.perf_counter()
text = json.dumps(session.to_json(), ensure_ascii=False)
written = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
indented = time.perf_counter()
json.dumps(session.to_json(), ensure_ascii=False, indent=2)
indented = time.perf_counter() - indented
again = time.perf_counter()
analysis = analyse(session.diagram)
analysed = time.perf_counter() - again
print(json.dumps({"objects": len(session.diagram.nodes) - 1, "made": made - start, "json": written - made,
                  "analysis": analysed, "indented": indented, "mib": peak,
                  "unproven": len(analysis.get("keys_needed_unproven", {})),
                  "locks": len(analysis["keys_needed"])}))
"""


def one_run(params: dict[str, int]) -> dict[str, float]:
    run = subprocess.run([sys.executable, "-c", ONE_RUN, json.dumps(params)], check=True, capture_output=True,
                         text=True)
    return json.loads(run.stdout)


def best(params: dict[str, int]) -> dict[str, float]:
    runs = [one_run(params) for _ in range(ROUNDS)]
    fastest = min(runs, key=lambda run: run["made"] + run["json"])
    return {**fastest, "analysis": min(run["analysis"] for run in runs), "mib": max(run["mib"] for run in runs),
            "indented": min(run["indented"] for run in runs)}


def measure() -> list[tuple[str, str, bool]]:
    rows = []
    for objects in (10_000, 100_000):
        run = best({"unique": objects // 2, "multi": 0, "permanent": 0})
        total = run["made"] + run["json"]
        target = objects == 100_000
        ok = total <= TARGET_SECONDS and run["mib"] <= TARGET_MIB
        verdict = ("ok" if ok else "OVER TARGET") if target else "for reference"
        rows.append((f"keylock: {run['objects']:,.0f} objects made, analysed, JSON",
                     f"{total * 1000:7.0f} ms (analysis {run['analysis'] * 1000:.0f} ms, JSON {run['json'] * 1000:.0f} "
                     f"ms), peak {run['mib']:.0f} MiB (target <= {TARGET_SECONDS * 1000:g} ms, {TARGET_MIB} MiB at "
                     f"100,000: {verdict})", ok or not target))
        if target:
            rows.append(("keylock: the same, JSON indented (--json, -o)",
                         f"{(run['made'] + run['indented']) * 1000:7.0f} ms: the indented JSON alone "
                         f"{run['indented'] * 1000:.0f} ms (for reference)", True))
    for sets in (800, 8_000):
        run = best({"unique": 3 * sets, "multi": sets, "permanent": sets})
        proven = 1 - run["unproven"] / run["locks"]
        rows.append((f"keylock: {run['objects']:,.0f} objects, mixed sets",
                     f"{(run['made'] + run['json']) * 1000:7.0f} ms (analysis {run['analysis'] * 1000:.0f} ms), peak "
                     f"{run['mib']:.0f} MiB, {proven:.1%} of keys needed proven (for reference)", True))
    return rows


if __name__ == "__main__":
    for label, figure, _ in measure():
        print(f"{label:<48} {figure}")

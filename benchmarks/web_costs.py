"""The dearest requests the web app's limits allow (issue 11: every request's cost is bounded), each timed
through the app as a browser's request would be (in process, one core): the largest key-lock diagram
made and drawn, the largest hexcrawl explored by its walk, an undo in a session holding as many steps as
a session may hold (an undo replays them all), the largest upload replayed, a whole skirmish played by the
autopilot. Reported for reference: the best of three, in ms.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from dedale.web import service

KEYLOCK = {"unique": 200, "multi": 50, "multi_max_keys": 20, "multi_max_locks": 10, "permanent": 20}


def best_ms(work: Callable[[], object], rounds: int = 3) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def measure() -> dict[str, float]:
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient` is deprecated")
    sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
    from webclient import web_client  # the tests' client: a browser on this machine, with its form token

    with tempfile.TemporaryDirectory() as folder, web_client(Path(folder) / "costs.db") as client:

        def post(path: str, body: dict[str, object] | None = None) -> dict[str, object]:
            response = client.post(path, json=body)
            assert response.status_code < 300, response.text[:300]
            return response.json()

        def new(system: str, params: dict[str, object], autopilot: bool = False) -> str:
            return str(post("/api/sessions", {"system": system, "seed": 7, "params": params,
                                              "autopilot": autopilot})["id"])

        figures = {"keylock at the limits: made": best_ms(lambda: new("keylock", KEYLOCK))}
        diagram = new("keylock", KEYLOCK)
        for fmt in ("svg", "pdf"):
            figures[f"keylock at the limits: {fmt.upper()}"] = best_ms(
                lambda fmt=fmt: client.get(f"/api/sessions/{diagram}/export/{fmt}"))
        walk = {"radius": 40, "order": "walk"}
        figures["hexcrawl radius 40, walked to the end"] = best_ms(lambda: new("hexcrawl", walk, autopilot=True))
        moves = new("hexcrawl", {"radius": 40})
        with client.app.state.sessions.changing(moves) as session:  # type: ignore[attr-defined]
            for number in range(service.MAX_EVENTS):
                session.step("move:N" if number % 2 else "move:S")

        def undo_and_redo() -> None:
            post(f"/api/sessions/{moves}/undo")
            post(f"/api/sessions/{moves}/step", {"choice": "move:N"})

        figures[f"undo with {service.MAX_EVENTS:,} steps (and redo)"] = best_ms(undo_and_redo)
        document = client.get(f"/api/sessions/{new('hexcrawl', walk, autopilot=True)}/export/json").content
        figures[f"upload of {len(document) / 2**20:.1f} MiB (radius 40, walked)"] = best_ms(
            lambda: client.post("/api/upload", content=document, headers={"Content-Type": "application/json"}))
        figures["OK Corral played by the autopilot"] = best_ms(
            lambda: new("zombstone", {"scenario": "ok_corral"}, autopilot=True))
        return figures


if __name__ == "__main__":
    print(json.dumps(measure()))

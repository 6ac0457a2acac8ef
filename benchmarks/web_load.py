"""The web app under load (issue 7): 20 clients on loopback, each playing crawler sessions click by click as a
fast human would (100 ms between clicks), against one `dedale serve` process. A click is what the browser
sends: the htmx POST of a choice, answered by the play panel (board SVG, choices, log). Reported: the p50 and
p95 latency of a click, and of the same step through the JSON API for reference. Target: p95 at most 25 ms.
"""

from __future__ import annotations

import http.client
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from webserver import Server  # the tests' `dedale serve` process

CLIENTS = 20
THINK = 0.1
DURATION = 15.0
CHOICE = re.compile(r'name="choice" value="([^"]+)"')
TOKEN = re.compile(r'"X-CSRF-Token": "([0-9a-f]+)"')


class Player:
    """One browser: a kept-alive connection, a session, a click every 100 ms. As a browser does, it keeps
    the cookie and the form token the first page gives it, and names the page's origin in every click."""

    def __init__(self, port: int, api: bool, seed: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.api, self.seed = api, seed
        self.latencies: list[float] = []
        self.connection.request("GET", "/")
        home = self.connection.getresponse()
        cookie = (home.getheader("set-cookie") or "").split(";", 1)[0]
        token = TOKEN.search(home.read().decode("utf-8"))
        self.browser = {"Cookie": cookie, "X-CSRF-Token": token.group(1) if token else "",
                        "Origin": f"http://127.0.0.1:{port}"}

    def request(self, method: str, path: str, body: str, content_type: str, headers: dict[str, str] | None = None
                ) -> str:
        self.connection.request(method, path, body, {"Content-Type": content_type, **(headers or {})})
        response = self.connection.getresponse()
        text = response.read().decode("utf-8")
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status} {text[:200]}")
        return text

    def new_session(self) -> tuple[str, list[str]]:
        self.seed += 1000
        state = json.loads(self.request("POST", "/api/sessions", json.dumps({"system": "crawler", "seed": self.seed}),
                                        "application/json"))
        return state["id"], [c["id"] for c in state["choices"]]

    def click(self, session_id: str, choice: str) -> list[str]:
        start = time.perf_counter()
        if self.api:
            text = self.request("POST", f"/api/sessions/{session_id}/step", json.dumps({"choice": choice}),
                                "application/json")
            choices = [c["id"] for c in json.loads(text)["choices"]]
        else:
            text = self.request("POST", f"/play/{session_id}/step", f"choice={choice}",
                                "application/x-www-form-urlencoded", {"HX-Request": "true", **self.browser})
            choices = CHOICE.findall(text)
        self.latencies.append(time.perf_counter() - start)
        return choices

    def play(self, until: float) -> None:
        session_id, choices = self.new_session()
        turn = 0
        while time.perf_counter() < until:
            time.sleep(THINK)
            if not choices:
                session_id, choices = self.new_session()
                continue
            turn += 1
            choices = self.click(session_id, choices[(self.seed + turn) % len(choices)])


def load(port: int, api: bool) -> list[float]:
    players = [Player(port, api, seed) for seed in range(CLIENTS)]
    until = time.perf_counter() + DURATION
    threads = [threading.Thread(target=p.play, args=(until,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [latency for p in players for latency in p.latencies]


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def measure() -> dict[str, dict[str, float]]:
    """{"click": {...}, "api": {...}}, each with p50 and p95 in ms and the number of steps."""
    with tempfile.TemporaryDirectory() as folder, Server(Path(folder) / "bench.db") as server:
        load(server.port, api=False)  # warm up: imports, tables, first sessions
        results = {}
        for name, api in (("click", False), ("api", True)):
            latencies = load(server.port, api)
            results[name] = {"p50": percentile(latencies, 50) * 1000, "p95": percentile(latencies, 95) * 1000,
                             "steps": len(latencies)}
        return results


if __name__ == "__main__":
    print(json.dumps(measure()))

"""The web app under load (issues 7 and 15): clients on loopback, each playing crawler sessions click by click
as a fast human would (100 ms on average between an answer and the next click, each pause drawn between 50 and
150 ms), against one `dedale serve` (its worker processes over one SQLite file). A click is what the browser
sends: the htmx POST of a choice, answered by the play panel (board SVG, choices, log). Reported: the p50 and
p95 latency of a click and the clicks served a second at 100 clients (target: p95 at most 25 ms); for
reference, the same with clients pausing exactly 100 ms (metronomes: after any hiccup they click in waves, all
a hiccup held back at once, which no group of people does), an API step, and 20 clients; with the CPU the
server used (all its workers) and the load generator's own.

The load generator is light, so that it leaves the cores to the server: one asyncio loop in this process
speaking HTTP/1.1 on kept-alive sockets, no HTTP library, the clients' starts spread over a think time.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from webserver import Server  # the tests' `dedale serve` process

CLIENTS = 100
REFERENCE_CLIENTS = 20
THINK = 0.1
HUMAN = 0.5  # each pause between (1 - HUMAN) and (1 + HUMAN) times THINK, drawn from the client's own seed
DURATION = 15.0
WARM_UP = 5.0
TARGET_P95_MS = 25.0
CHOICE = re.compile(rb'name="choice" value="([^"]+)"')
TOKEN = re.compile(rb'"X-CSRF-Token": "([0-9a-f]+)"')
COOKIE = re.compile(rb"^set-cookie: (dedale_browser=[^;]+)", re.IGNORECASE | re.MULTILINE)
LENGTH = re.compile(rb"^content-length: *([0-9]+)", re.IGNORECASE | re.MULTILINE)


class Connection:
    """One kept-alive HTTP/1.1 connection, as a browser holds one: opened again when the server closes it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, path: str, body: bytes = b"", headers: str = "") -> tuple[int, bytes, bytes]:
        """(status, head, body); a connection the server closed meanwhile is opened again once."""
        for attempt in range(2):
            if self.streams is None:
                self.streams = await asyncio.open_connection("127.0.0.1", self.port)
            reader, writer = self.streams
            writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nContent-Length: {len(body)}\r\n"
                         f"{headers}\r\n".encode("latin-1") + body)
            try:
                head = await reader.readuntil(b"\r\n\r\n")
                length = LENGTH.search(head)
                content = await reader.readexactly(int(length.group(1)) if length else 0)
            except (asyncio.IncompleteReadError, ConnectionError):
                writer.close()
                self.streams = None
                if attempt:
                    raise
                continue
            if b"connection: close" in head.lower():
                writer.close()
                self.streams = None
            return int(head[9:12]), head, content
        raise AssertionError("unreachable")


class Player:
    """One browser: a connection, a session, a click every 100 ms. As a browser does, it keeps the cookie
    and the form token the first page gives it, and names the page's origin in every click."""

    def __init__(self, port: int, api: bool, seed: int, jitter: float) -> None:
        self.connection = Connection(port)
        self.api, self.seed, self.port = api, seed, port
        self.pauses = random.Random(seed)
        self.jitter = jitter
        self.latencies: list[float] = []
        self.browser = ""

    async def call(self, method: str, path: str, body: bytes = b"", headers: str = "") -> bytes:
        status, _, content = await self.connection.request(method, path, body, headers)
        if status >= 400:
            raise RuntimeError(f"{method} {path}: {status} {content[:200]!r}")
        return content

    async def open_home(self) -> None:
        _, head, home = await self.connection.request("GET", "/")
        cookie, token = COOKIE.search(head), TOKEN.search(home)
        assert cookie is not None and token is not None, "the home page gave no browser cookie or form token"
        self.browser = (f"Cookie: {cookie.group(1).decode()}\r\nX-CSRF-Token: {token.group(1).decode()}\r\n"
                        f"Origin: http://127.0.0.1:{self.port}\r\nHX-Request: true\r\n")

    async def new_session(self) -> tuple[str, list[str]]:
        self.seed += 1000
        body = json.dumps({"system": "crawler", "seed": self.seed}).encode()
        state = json.loads(await self.call("POST", "/api/sessions", body, "Content-Type: application/json\r\n"))
        return state["id"], [c["id"] for c in state["choices"]]

    async def click(self, session_id: str, choice: str) -> list[str]:
        start = time.perf_counter()
        if self.api:
            text = await self.call("POST", f"/api/sessions/{session_id}/step", json.dumps({"choice": choice}).encode(),
                                   "Content-Type: application/json\r\n")
            choices = [c["id"] for c in json.loads(text)["choices"]]
        else:
            text = await self.call("POST", f"/play/{session_id}/step", f"choice={choice}".encode(),
                                   "Content-Type: application/x-www-form-urlencoded\r\n" + self.browser)
            choices = [found.decode() for found in CHOICE.findall(text)]
        self.latencies.append(time.perf_counter() - start)
        return choices

    async def play(self, delay: float, until: float) -> None:
        await asyncio.sleep(delay)
        session_id, choices = await self.new_session()
        turn = 0
        while time.perf_counter() < until:
            await asyncio.sleep(THINK * self.pauses.uniform(1 - self.jitter, 1 + self.jitter))
            if not choices:
                session_id, choices = await self.new_session()
                continue
            turn += 1
            choices = await self.click(session_id, choices[(self.seed + turn) % len(choices)])


@dataclass
class Load:
    """What a run of the clients measured."""

    latencies: list[float]
    seconds: float  # wall time of the clicking
    server_cpu: float  # seconds of CPU the server's processes used meanwhile
    client_cpu: float  # and this load generator

    def percentile_ms(self, q: int) -> float:
        values = self.latencies
        return (statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]) * 1000

    @property
    def per_second(self) -> float:
        return len(self.latencies) / self.seconds


def process_tree_cpu(pid: int) -> float:
    """CPU seconds (user and system) used so far by a process and its living descendants (Linux's /proc)."""
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue  # a process that ended meanwhile
            parents[int(entry)] = int(fields[1])
            used[int(entry)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    tree, grown = {pid}, True
    while grown:
        more = {child for child, parent in parents.items() if parent in tree} - tree
        tree |= more
        grown = bool(more)
    return sum(used.get(member, 0.0) for member in tree)


async def _run(port: int, clients: int, api: bool, duration: float, jitter: float) -> list[float]:
    players = [Player(port, api, seed, jitter) for seed in range(clients)]
    for player in players:  # people arrive one by one, not all in the same millisecond (a burst of
        await player.open_home()  # connections is taken whole by whichever worker wakes first)
    until = time.perf_counter() + duration
    # starts spread over a think time, as people who did not all click at the same instant
    await asyncio.gather(*(player.play(i * THINK / clients, until) for i, player in enumerate(players)))
    return [latency for player in players for latency in player.latencies]


def load(server: Server, clients: int, api: bool = False, duration: float = DURATION, jitter: float = HUMAN) -> Load:
    cpu_before, own_before, start = process_tree_cpu(server.pid), time.process_time(), time.perf_counter()
    latencies = asyncio.run(_run(server.port, clients, api, duration, jitter))
    seconds = time.perf_counter() - start
    return Load(latencies, seconds, process_tree_cpu(server.pid) - cpu_before, time.process_time() - own_before)


def row(label: str, found: Load, target: bool) -> tuple[str, str, bool]:
    p95 = found.percentile_ms(95)
    ok = p95 <= TARGET_P95_MS or not target
    verdict = ("ok" if ok else "OVER TARGET") if target else "for reference"
    cores = os.cpu_count() or 1
    text = (f"p50 {found.percentile_ms(50):5.1f} ms, p95 {p95:5.1f} ms, {found.per_second:4.0f} a second "
            f"(server CPU {found.server_cpu / found.seconds / cores:4.0%} of {cores} cores, "
            f"{found.server_cpu / len(found.latencies) * 1000:.2f} ms a click; load generator "
            f"{found.client_cpu / found.seconds / cores:4.0%}) (target p95 <= {TARGET_P95_MS:g} ms: {verdict})")
    return label, text, ok


def measure(workers: int | None = None) -> list[tuple[str, str, bool]]:
    """The rows: clicks at 100 clients (the target); for reference, the same by metronomes, an API step at 100
    and clicks at 20."""
    with tempfile.TemporaryDirectory() as folder, Server(Path(folder) / "bench.db", workers=workers) as server:
        load(server, CLIENTS, duration=WARM_UP)  # warm up: imports, tables, the first sessions of every worker
        return [row(f"web: {CLIENTS} clients, a click (htmx panel)", load(server, CLIENTS), True),
                row(f"web: {CLIENTS} metronome clients, a click", load(server, CLIENTS, jitter=0.0), False),
                row(f"web: {CLIENTS} clients, an API step", load(server, CLIENTS, api=True), False),
                row(f"web: {REFERENCE_CLIENTS} clients, a click", load(server, REFERENCE_CLIENTS), False)]


if __name__ == "__main__":
    for label, text, _ in measure(int(sys.argv[1]) if len(sys.argv) > 1 else None):
        print(f"{label:<44} {text}")

"""The web app under load (issues 7, 15 and 27): 20 players on loopback against one `dedale serve` (one
process), each clicking through sessions of every system at the web's own limits: the largest whole numbers
each system's form accepts (the crawler's 99 rooms; a key-lock diagram of as many objects as the web allows),
every Zombstone scenario in turn. A player pauses THINK seconds on average between an answer and the next
click (each pause drawn between half and one and a half times that), plays a session for at most
SESSION_CLICKS clicks (never the choices that end it early: stop, explore the rest, finish, all in), then starts
one of the next system.

A click is what the browser sends: the htmx POST of a choice, answered by the play panel (picture, choices,
log), or a new session: its form posted, then the play page it leads to. Reported: the p50 and p95 latency of
a choice's click for each system, of a new session, and of every click (target: p95 at most 100 ms). A
key-lock diagram has no choices: its one click, a new diagram, is reported for reference (issue 27's target
for it, made and analysed within 200 ms, is the diagram's alone), with the CPU the server used.

The load generator is light, so that it leaves the cores to the server: one asyncio loop in this process
speaking HTTP/1.1 on kept-alive sockets, no HTTP library, the players' starts spread over a pause.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from dedale.core.params import fields_of
from dedale.crawler.params import MAX_ROOMS, MAX_SIDE
from dedale.systems import names, system
from dedale.zombstone.skirmish.catalogue import load_catalogue

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).parent))
from web_costs import KEYLOCK  # the most objects a key-lock diagram may have on the web
from webserver import Server  # the tests' `dedale serve` process

PLAYERS = 20
THINK = 1.0
HUMAN = 0.5  # each pause between (1 - HUMAN) and (1 + HUMAN) times THINK, drawn from the player's own seed
SESSION_CLICKS = 25
DURATION = 40.0
WARM_UP = 10.0
TARGET_P95_MS = 100.0
EARLY_ENDS = ("stop", "explore-rest", "finish", "allin")  # what ends a session at once: its clicks are the others
CHOICE = re.compile(rb'name="choice" value="([^"]+)"')
TOKEN = re.compile(rb'"X-CSRF-Token": "([0-9a-f]+)"')
COOKIE = re.compile(rb"^set-cookie: (dedale_browser=[^;]+)", re.IGNORECASE | re.MULTILINE)
LENGTH = re.compile(rb"^content-length: *([0-9]+)", re.IGNORECASE | re.MULTILINE)
LOCATION = re.compile(rb"^location: *(\S+)", re.IGNORECASE | re.MULTILINE)


def at_the_limits(name: str) -> dict[str, str]:
    """A system's form filled with the largest whole numbers it accepts (the web's bounds)."""
    if name == "keylock":  # each count at its bound would make more objects than the web allows
        return {key: str(value) for key, value in KEYLOCK.items()}
    values = {field.option: str(field.high(web=True)) for field in fields_of(system(name).params)
              if field.kind == "int" and field.spec.web and field.high(web=True) is not None}
    if name == "crawler":  # as many zones as the web allows, of as many cells as still draw legibly
        values |= {"size": str(MAX_ROOMS), "zone": str(MAX_SIDE // int(values["board"]))}
    return values


class Connection:
    """One kept-alive HTTP/1.1 connection, as a browser holds one: opened again when the server closes it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, path: str, body: bytes = b"", headers: str = "") -> tuple[int, bytes, bytes]:
        """(status, head, body); a connection the server closed meanwhile is opened again once."""
        for attempt in range(2):
            if self.streams is None:
                self.streams = await asyncio.open_connection("127.0.0.1", self.port, limit=2**24)
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
    """One browser: a connection, the cookie and form token of the first page, the page's origin named in
    every click; sessions of each system in turn, from its own."""

    def __init__(self, port: int, number: int, timings: dict[str, list[float]]) -> None:
        self.connection = Connection(port)
        self.port, self.number = port, number
        self.rng = random.Random(number)
        self.timings = timings
        self.systems = names()
        self.turn = number  # which system it starts with, then the next
        self.scenarios = list(load_catalogue().scenarios)
        self.browser = ""

    async def call(self, method: str, path: str, body: bytes = b"", headers: str = "") -> tuple[bytes, bytes]:
        status, head, content = await self.connection.request(method, path, body, headers + self.browser)
        if status >= 400:
            raise RuntimeError(f"{method} {path} {body[:200]!r}: {status} {content[-1500:]!r}")
        return head, content

    async def open_home(self) -> None:
        _, head, home = await self.connection.request("GET", "/")
        cookie, token = COOKIE.search(head), TOKEN.search(home)
        assert cookie is not None and token is not None, "the home page gave no browser cookie or form token"
        self.browser = (f"Cookie: {cookie.group(1).decode()}\r\nX-CSRF-Token: {token.group(1).decode()}\r\n"
                        f"Origin: http://127.0.0.1:{self.port}\r\n")

    async def new_session(self, name: str) -> tuple[str, list[str]]:
        """The system's form posted, then the play page it leads to (timed together, as a browser shows it)."""
        values = at_the_limits(name) | {"seed": str(self.rng.randrange(10**9))}
        if name == "zombstone":
            values["scenario"] = self.scenarios[self.turn // len(self.systems) % len(self.scenarios)]
        start = time.perf_counter()
        head, _ = await self.call("POST", f"/new/{name}", urlencode(values).encode(),
                                  "Content-Type: application/x-www-form-urlencoded\r\n")
        location = LOCATION.search(head)
        assert location is not None, f"no session made: {head!r}"
        _, page = await self.call("GET", location.group(1).decode())
        self.timings["keylock" if name == "keylock" else "new session"].append(time.perf_counter() - start)
        return location.group(1).decode().rsplit("/", 1)[1], [found.decode() for found in CHOICE.findall(page)]

    async def click(self, name: str, session_id: str, choice: str) -> list[str]:
        start = time.perf_counter()
        _, panel = await self.call("POST", f"/play/{session_id}/step", urlencode({"choice": choice}).encode(),
                                   "Content-Type: application/x-www-form-urlencoded\r\nHX-Request: true\r\n")
        self.timings[name].append(time.perf_counter() - start)
        return [found.decode() for found in CHOICE.findall(panel)]

    def pick(self, choices: list[str]) -> str:
        playing = [choice for choice in choices if choice not in EARLY_ENDS]
        return self.rng.choice(playing or choices)

    async def play(self, delay: float, until: float) -> None:
        await asyncio.sleep(delay)
        while time.perf_counter() < until:
            name = self.systems[self.turn % len(self.systems)]
            self.turn += 1
            session_id, choices = await self.new_session(name)
            for _ in range(SESSION_CLICKS):
                await asyncio.sleep(THINK * self.rng.uniform(1 - HUMAN, 1 + HUMAN))
                if not choices or time.perf_counter() >= until:
                    break
                choices = await self.click(name, session_id, self.pick(choices))


@dataclass
class Load:
    """What a run of the players measured: each kind of click's latencies (seconds)."""

    timings: dict[str, list[float]]
    seconds: float  # wall time of the clicking
    server_cpu: float  # seconds of CPU the server used meanwhile

    @property
    def clicks(self) -> list[float]:
        """Every click but the key-lock diagrams': the choices', the new sessions'."""
        return [latency for name in [*names(), "new session"] if name != "keylock" for latency in self.timings[name]]


def percentile_ms(values: list[float], q: int) -> float:
    return (statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]) * 1000


def process_cpu(pid: int) -> float:
    """CPU seconds (user and system) a process used so far (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _run(port: int, players: int, duration: float) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = defaultdict(list)
    crowd = [Player(port, number, timings) for number in range(players)]
    for player in crowd:
        await player.open_home()
    until = time.perf_counter() + duration
    # starts spread over a pause, as people who did not all click at the same instant
    await asyncio.gather(*(player.play(i * THINK / players, until) for i, player in enumerate(crowd)))
    return timings


def load(server: Server, players: int = PLAYERS, duration: float = DURATION) -> Load:
    cpu_before, start = process_cpu(server.pid), time.perf_counter()
    timings = asyncio.run(_run(server.port, players, duration))
    seconds = time.perf_counter() - start
    return Load(timings, seconds, process_cpu(server.pid) - cpu_before)


def row(label: str, values: list[float], target: float | None) -> tuple[str, str, bool]:
    if not values:
        return label, "no clicks measured", False
    p95 = percentile_ms(values, 95)
    ok = target is None or p95 <= target
    verdict = "for reference" if target is None else f"target p95 <= {target:g} ms: " + ("ok" if ok else "OVER TARGET")
    return label, f"p50 {percentile_ms(values, 50):6.1f} ms, p95 {p95:6.1f} ms, {len(values):5,} ({verdict})", ok


def measure() -> list[tuple[str, str, bool]]:
    """A row for each system's clicks, new sessions, all of them, new key-lock diagrams, what the server used."""
    with tempfile.TemporaryDirectory() as folder, Server(Path(folder) / "bench.db") as server:
        load(server, duration=WARM_UP)  # warm up: imports, tables, the first sessions of each system
        found = load(server)
    rows = [row(f"web: {PLAYERS} players, a click: {name}", found.timings[name], TARGET_P95_MS)
            for name in names() if name != "keylock"]
    rows.append(row(f"web: {PLAYERS} players, a new session (but key-lock)", found.timings["new session"],
                    TARGET_P95_MS))
    rows.append(row(f"web: {PLAYERS} players, every click", found.clicks, TARGET_P95_MS))
    rows.append(row(f"web: {PLAYERS} players, a new key-lock diagram", found.timings["keylock"], None))
    cores = os.cpu_count() or 1
    clicked = sum(len(values) for values in found.timings.values())
    rows.append((f"web: {PLAYERS} players, the server",
                 f"{clicked / found.seconds:5.1f} requests a second, one process: CPU "
                 f"{found.server_cpu / found.seconds:4.0%} of one core ({cores} here), "
                 f"{found.server_cpu / clicked * 1000:.1f} ms a request (for reference)", True))
    return rows


if __name__ == "__main__":
    for label, text, _ in measure():
        print(f"{label:<52} {text}")

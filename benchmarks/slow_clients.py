"""A whole request among slow clients (issue 39), against `dedale serve` with its own limits (128 connections,
32 an address): 140 connections from seven addresses of 127.0.0.0/8 and 40 from 127.0.0.1, the player's own
address, more than the server and an address may hold, half of them having sent nothing, the others part of
their headers. Reported, for reference: the time a request sent whole from 127.0.0.1 (the home page, on a
connection of its own) takes to be answered, the median and the worst of TRIES, in ROUNDS of the load opened
anew (the slow connections are closed by the server after 10 s), and the same request on a server with no load.
"""

from __future__ import annotations

import contextlib
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from webserver import Server  # the tests' `dedale serve` process

ROUNDS = 3
TRIES = 5
SLOW = [f"127.0.0.{2 + n % 7}" for n in range(140)] + ["127.0.0.1"] * 40
GET = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def answered_ms(port: int) -> float:
    """A request sent whole on a connection of its own, from 127.0.0.1: the time until its whole answer."""
    start = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as conn:
        conn.sendall(GET)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    took = (time.perf_counter() - start) * 1000
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    return took


def slow_connections(port: int) -> list[socket.socket]:
    """The load: every address of SLOW connected, every other one having sent part of its headers."""
    opened = []
    for n, source in enumerate(SLOW):
        conn = socket.socket()
        conn.bind((source, 0))
        conn.connect(("127.0.0.1", port))
        with contextlib.suppress(OSError):  # closed already, to make room for a later one
            conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " if n % 2 else b"")
        opened.append(conn)
    return opened


def measure() -> dict[str, float]:
    """The median and worst answer under the load, and the median without it, in ms."""
    with tempfile.TemporaryDirectory() as folder, Server(Path(folder) / "slow.db") as server:
        alone = [answered_ms(server.port) for _ in range(TRIES)]
        loaded = []
        for _ in range(ROUNDS):
            load = slow_connections(server.port)
            loaded += [answered_ms(server.port) for _ in range(TRIES)]
            for conn in load:
                conn.close()
            time.sleep(0.5)  # the server sees them gone
    return {"median": statistics.median(loaded), "worst": max(loaded), "alone": statistics.median(alone)}


def report() -> str:
    figures = measure()
    return (f"median {figures['median']:.1f} ms, worst {figures['worst']:.1f} ms of {ROUNDS * TRIES} "
            f"(no load: median {figures['alone']:.1f} ms) (for reference)")


if __name__ == "__main__":
    print(f"a whole request among {len(SLOW)} slow connections: {report()}")

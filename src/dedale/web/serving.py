"""`dedale serve`: uvicorn running the app, in one process or in several worker processes on one SQLite file.

With workers, the parent process (uvicorn's supervisor, which serves no request) holds the file's advisory
lock, so a second server on the file still refuses to start, and has made its tables and its secret (the key
every worker signs the pages' form tokens with) before any worker opens it. Each worker opens the file
without the lock, its settings given through the environment (uvicorn starts workers afresh), and ends when
its parent ends, even when the parent is killed: a server killed is killed whole. Who writes what is settled
in the file (`core/store.py`: a revision a session, compared and set at every commit).
"""

from __future__ import annotations

import errno
import json
import os
import signal
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dedale.core.errors import DedaleError
from dedale.core.store import Store
from dedale.web.app import CACHE_ENTRIES, create_app
from dedale.web.collector import Collector

SETTINGS = "DEDALE_WORKER"  # the environment variable a worker reads its settings from
MAX_WORKERS = 32
# Each process: at most 128 connections or requests at once (more get 503: a kept-alive connection counts
# too, and a hundred players hold a hundred), idle connections closed after 5 s.
CONNECTIONS = 128
KEEP_ALIVE = 5
REBALANCE_EVERY = 50  # answers of a worker, then a connection closed: at 450 clicks a second, 9 a second


def default_workers() -> int:
    """A worker a core this process may run on, at most 8 (each keeps its own sessions in memory)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(8, cores))


def run(db: Path, host: str, port: int, allow_hosts: Sequence[str], workers: int,
        announce: Callable[[], None]) -> None:
    """Serve until stopped; `announce` once the file is open (an error about it comes first)."""
    import uvicorn

    check_port(host, port)
    held = None if workers == 1 else Store(db)  # the lock, the tables, the secret: before any worker opens it
    try:
        target: Any = "dedale.web.serving:worker_app"
        if held is None:
            target = create_app(db, host, allow_hosts)
        else:
            held.secret()
            os.environ[SETTINGS] = json.dumps({"db": str(db), "host": host, "allow_hosts": list(allow_hosts),
                                               "parent": os.getpid(), "cache_entries": CACHE_ENTRIES // workers})
        announce()
        if held is None:  # this process serves
            _warm()
        uvicorn.run(target, factory=held is not None, workers=workers, host=host, port=port, log_level="warning",
                    access_log=False, limit_concurrency=CONNECTIONS, timeout_keep_alive=KEEP_ALIVE)
    finally:
        if held is not None:
            held.close()


def check_port(host: str, port: int) -> None:
    """Refuse a port another program listens on, before saying where the app is (uvicorn would fail after
    that, with a traceback): bound as uvicorn binds it, and let go."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            key = "error.port_busy" if error.errno == errno.EADDRINUSE else "error.port_refused"
            raise DedaleError(key, host=host, port=port, other=port + 1, reason=error.strerror) from None


class Rebalance:
    """With several workers, every `every`-th answer of a worker closes its connection (`Connection: close`),
    and whichever worker is free first accepts the client's next one. A kept-alive connection otherwise stays
    with the worker that happened to accept it: measured at 100 players on two workers, one of them sometimes
    had two thirds of the clicks, and the p95 of a click was then 61 ms rather than 27. A busier worker
    answers more, so closes more: the players drift to the less busy one. A browser opens the next connection
    by itself; it costs the server a fraction of a millisecond."""

    def __init__(self, app: ASGIApp, every: int = REBALANCE_EVERY) -> None:
        self.app, self.every = app, every
        self.answered = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self.answered += 1
        if self.answered % self.every:
            await self.app(scope, receive, send)
            return

        async def closing(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), (b"connection", b"close")]}
            await send(message)

        await self.app(scope, receive, closing)


def worker_app() -> FastAPI:
    """A worker's app (uvicorn's factory, called in each worker process)."""
    settings = json.loads(os.environ[SETTINGS])
    _end_with_parent(settings["parent"])
    app = create_app(settings["db"], settings["host"], settings["allow_hosts"], exclusive=False,
                     cache_entries=settings["cache_entries"])
    app.add_middleware(Rebalance)
    _warm()
    return app


def _warm() -> None:
    """What a request would otherwise wait for, imported before serving: pokerkit takes a quarter of a second,
    which the first hand a duel judges would add to a player's click. Then the garbage collector's short
    pauses (`collector.py`), with all that start-up made set aside."""
    import pokerkit  # noqa: F401

    Collector().start()


def _end_with_parent(parent: int) -> None:
    """Ask Linux to kill this worker when its parent ends (elsewhere a killed parent leaves its workers to be
    stopped by hand); if the parent has already ended, end now."""
    if sys.platform.startswith("linux"):
        import ctypes

        set_parent_death_signal = 1  # prctl's PR_SET_PDEATHSIG
        ctypes.CDLL(None, use_errno=True).prctl(set_parent_death_signal, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)

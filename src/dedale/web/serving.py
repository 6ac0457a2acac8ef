"""`dedale serve`: uvicorn running the app in this one process, on one SQLite file it holds alone (its
advisory lock: a second server on the file refuses to start; `web/store.py`)."""

from __future__ import annotations

import errno
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from dedale.core.errors import DedaleError
from dedale.web.app import create_app
from dedale.web.connections import Limits, protocol

KEEP_ALIVE = 5  # an idle connection closed after 5 s (deadlines, connections at once: `connections.Limits`)
# Stopped (Ctrl-C, SIGTERM), the server waits this long for requests still running, then ends them: a page
# following a game live holds its stream open for 10 minutes (`service.live`), and uvicorn would wait for it.
STOP_WITHIN = 3
# How long a thread may hold the interpreter while another waits for it (CPython's default: 5 ms). A click
# takes turns with whatever else is being served, after each of its reads of the file too: beside key-lock
# diagrams being made, a click's median was 22 ms at 5 ms, 14 ms at 1 ms; at 20 players, a new session's p95
# 800-900 ms, then 70-100 ms.
SWITCH_SECONDS = 0.001
LIMITS = Limits()


def run(db: Path, host: str, port: int, allow_hosts: Sequence[str], announce: Callable[[], None],
        limits: Limits = LIMITS) -> None:
    """Serve until stopped; `announce` once the file is open (an error about it comes first). `limits`: how
    long a request may take to arrive, and how many connections are held at once (`connections.py`)."""
    import uvicorn

    check_port(host, port)
    app = create_app(db, host, allow_hosts)
    announce()
    _warm()
    sys.setswitchinterval(SWITCH_SECONDS)
    # no WebSocket: the app has none, and a connection handed over to one would leave its address's count; no
    # limit_concurrency: the protocol counts the connections, and closes slow ones to make room (`connections.py`)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, http=protocol(limits), ws="none",
                timeout_keep_alive=KEEP_ALIVE, timeout_graceful_shutdown=STOP_WITHIN)


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


def _warm() -> None:
    """What a request would otherwise wait for, imported before serving: pokerkit takes a quarter of a second,
    which the first hand a duel judges would add to a player's click."""
    import pokerkit  # noqa: F401

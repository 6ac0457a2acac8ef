"""A real `dedale serve` process for the browser and crash tests: started on a free port of 127.0.0.1 with
its SQLite file, waited for, stopped (or killed) and restarted on the same file."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

# `python -m dedale.cli` has no __main__: call the console script's entry point. The process started is the
# Python interpreter itself (no shell, no wrapper), so its pid is the server's and SIGKILL really kills it.
ENTRY = "import sys; from dedale.cli import main; main(sys.argv[1:])"
START_TIMEOUT = 60.0


def free_port() -> int:
    """A port nobody listens on now (the kernel's pick for port 0); a race is possible, start() retries."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """One `dedale serve` process at a time on `db`; start() again after stop() or kill() to restart."""

    def __init__(self, db: Path, log: Path | None = None) -> None:
        self.db = db
        self.log = log or db.with_suffix(".server.log")
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None, "the server is not running"
        return self.process.pid

    def start(self) -> Server:
        for _ in range(3):  # another process may take the free port between free_port() and the bind
            self.port = free_port()
            with self.log.open("ab") as log:
                self.process = subprocess.Popen(self.command(), stdout=log, stderr=log, stdin=subprocess.DEVNULL)
            if self._wait_ready():
                return self
        raise RuntimeError(f"the server did not start; its log:\n{self.log.read_text(errors='replace')}")

    def command(self) -> list[str]:
        """The server's command line, on `self.port`."""
        return [sys.executable, "-c", ENTRY, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--db",
                str(self.db)]

    def _wait_ready(self) -> bool:
        """True once the home page answers; False if the process died (a port taken, say)."""
        assert self.process is not None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                    if response.status == 200:
                        return True
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.05)
        self.stop()
        return False

    def stop(self) -> None:
        """A clean stop (SIGTERM: uvicorn shuts down), a kill if it does not."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def kill(self) -> int:
        """SIGKILL, no chance to clean up (a crash); the exit status, -9 when it was this that ended it."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        status = self.process.wait(timeout=10)
        self.process = None
        return status

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def api(base: str, method: str, path: str, body: dict[str, Any] | None = None, timeout: float = 30) -> Any:
    """Call the JSON API; an HTTP error raises (urllib.error.HTTPError), a 204 gives None."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        raw = response.read()
    return json.loads(raw) if raw else None


# A server of `dedale serve`'s own making (`serving.run`) with limits made short or small for a test.
TUNED = ("import sys, json; from pathlib import Path; from dedale.web.connections import Limits; "
         "from dedale.web.serving import run; "
         "run(Path(sys.argv[1]), '127.0.0.1', int(sys.argv[2]), (), lambda: None, Limits(**json.loads(sys.argv[3])))")


class Tuned(Server):
    """A server whose `connections.Limits` are these (its deadlines short, its places few)."""

    def __init__(self, db: Path, **limits: Any) -> None:
        super().__init__(db)
        self.limits = limits

    def command(self) -> list[str]:
        return [sys.executable, "-c", TUNED, str(self.db), str(self.port), json.dumps(self.limits)]

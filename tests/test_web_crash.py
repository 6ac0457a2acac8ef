"""A crash test: the server process is killed (SIGKILL, no shutdown) while steps are being played, and a new
one on the same SQLite file must still have every step it acknowledged, replay the sessions, let them go on
to the end, and the file must pass SQLite's integrity check.

Three crawler sessions are played through the HTTP API, their steps interleaved; then one thread a session
posts steps as fast as it can and the server is killed under that burst. Two rounds: kill, restart, check,
play on, kill again.
"""

from __future__ import annotations

import http.client
import random
import shutil
import signal
import sqlite3
import threading
import time
import urllib.error
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webserver import Server, api

SEEDS = (11, 22, 33)
STEPS_BEFORE_BURST = 3  # a session, interleaved, before each burst
BURST_ACKS = 4  # acknowledged burst steps (all sessions) before the kill: the kill lands mid-burst
# The most steps a session takes in a burst: two rounds (3 + 10 steps each) stay short of a crawl of 35 steps
# or more, so the kill finds every session in play, whatever the machine's pace.
BURST_MOST = 10
ROUNDS = 2


@dataclass
class Played:
    """What the client knows of one session: the choices the server acknowledged (HTTP 200), in order, and
    the one it sent without an answer (the server may or may not have committed it before dying)."""

    id: str
    state: dict[str, Any]
    acked: list[str] = field(default_factory=list)
    in_flight: str | None = None


def step(base: str, played: Played, rng: random.Random) -> None:
    choices = played.state["choices"]
    choice = choices[rng.randrange(len(choices))]["id"]
    played.in_flight = choice
    played.state = api(base, "POST", f"/api/sessions/{played.id}/step", {"choice": choice}, timeout=10)
    played.acked.append(choice)
    played.in_flight = None


def burst(base: str, played: Played, rng: random.Random, acks: list[int], lock: threading.Lock,
          refused: list[str]) -> None:
    """Step until the server dies, the game ends (a game the web keys is not fixed by its seed) or BURST_MOST
    steps. A refusal (an HTTP error) is a bug, kept to fail on."""
    for _ in range(BURST_MOST):
        if not played.state["choices"]:
            return
        try:
            step(base, played, rng)
        except urllib.error.HTTPError as error:
            refused.append(f"{played.id}: HTTP {error.code} {error.read()[:200]!r}")
            return
        except (OSError, http.client.HTTPException):  # refused, reset, closed: the server is gone
            return
        with lock:
            acks[0] += 1


def kill_mid_burst(server: Server, sessions: list[Played], rng: random.Random) -> None:
    acks, lock, refused = [0], threading.Lock(), list[str]()
    threads = [threading.Thread(target=burst, args=(server.url, p, random.Random(rng.random()), acks, lock, refused),
                                daemon=True) for p in sessions]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 120  # only a burst that never gets going fails
    while acks[0] < BURST_ACKS and time.monotonic() < deadline and any(t.is_alive() for t in threads):
        time.sleep(0.001)
    assert acks[0] >= BURST_ACKS, "the burst did not get going"
    # The threads are still posting: SIGKILL the server process itself (not a shell around it).
    assert server.kill() == -signal.SIGKILL
    for thread in threads:
        thread.join(timeout=20)
        assert not thread.is_alive()
    assert not refused, refused
    assert not all(p.state["over"] for p in sessions), "the kill should land while sessions are still played"


def integrity(db: Path) -> None:
    """SQLite's own check, and the events of each session numbered 0, 1, 2, ... without a gap."""
    connection = sqlite3.connect(db)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        for session, count, last in connection.execute(
                "SELECT session, COUNT(*), MAX(seq) FROM events GROUP BY session"):
            assert last == count - 1, f"{session}: {count} events numbered up to {last}"
    finally:
        connection.close()


def integrity_as_left(db: Path, folder: Path) -> None:
    """The integrity check on a copy of the file and its WAL as the kill left them: opening the file itself
    would recover and checkpoint the WAL here, and the restarted server would not have to."""
    folder.mkdir()
    for suffix in ("", "-wal"):
        source = db.with_name(db.name + suffix)
        if source.exists():
            shutil.copyfile(source, folder / source.name)
    integrity(folder / db.name)


def check_survived(base: str, played: Played) -> None:
    """Every acknowledged step is there, in order; at most the one in flight beyond them; it replays."""
    state = api(base, "GET", f"/api/sessions/{played.id}")
    events = api(base, "GET", f"/api/sessions/{played.id}/export/json")["events"]
    acked = len(played.acked)
    assert state["steps"] == len(events) >= acked
    assert [e.get("choice") for e in events[:acked]] == played.acked
    assert all(set(e) == {"choice"} for e in events)
    if len(events) > acked:  # committed, the answer lost in the kill: only the request that was in flight
        assert len(events) == acked + 1 and events[-1]["choice"] == played.in_flight
    else:  # as the server last said it: the same choices offered
        assert state["over"] == played.state["over"] and state["choices"] == played.state["choices"]
    assert state["over"] or state["choices"], "a session not over offers choices"
    # From now on the server's history is the truth (the in-flight step may have been kept).
    played.acked = [e["choice"] for e in events]
    played.in_flight = None
    played.state = state


def test_kill_during_play_loses_no_acknowledged_step(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    rng = random.Random(20240607)
    server = Server(db).start()
    try:
        # crawls of 18 rooms (35 to 45 steps): the kill lands mid-play however fast the server goes
        sessions = [Played(s["id"], s) for s in (api(server.url, "POST", "/api/sessions", {
            "system": "crawler", "seed": seed, "params": {"size": "18"}}) for seed in SEEDS)]
        for number in range(ROUNDS):
            for _ in range(STEPS_BEFORE_BURST):  # interleaved: a step of each session in turn
                for played in sessions:
                    if not played.state["over"]:
                        step(server.url, played, rng)
            kill_mid_burst(server, sessions, rng)
            integrity_as_left(db, tmp_path / f"after-kill-{number}")
            server.start()
            listed = {r["id"]: r["steps"] for r in api(server.url, "GET", "/api/sessions")}
            for played in sessions:
                assert listed[played.id] >= len(played.acked)
                check_survived(server.url, played)

        # Playing on to the end still works after the crashes.
        for played in sessions:
            if not played.state["over"]:
                state = api(server.url, "POST", f"/api/sessions/{played.id}/autopilot", {"to_end": True})
                assert state["over"] is True and state["steps"] > len(played.acked)
            document = api(server.url, "GET", f"/api/sessions/{played.id}/export/json")
            assert document["over"] is True
            assert [e.get("choice") for e in document["events"][:len(played.acked)]] == played.acked
    finally:
        server.stop()
    integrity(db)

"""Short pauses for the garbage collector of a server process.

A worker keeps the sessions in play in memory: hundreds of thousands of objects. CPython's full collection
scans every one of them while every request of the process waits: measured at 100 players on two cores,
150 to 200 ms, nine times in 20 s, which was most of the slowest 5% of the clicks. So the objects that have
lived through a full collection are frozen (`gc.freeze`), and the next full collection scans only what was
made since: 20 to 40 ms. A frozen object is still freed as soon as nothing refers to it, as a session dropped
from memory is; only garbage in reference cycles among frozen objects waits, for a true full collection.
Measured after a minute at 100 players, a worker held 700,000 frozen objects and none of them was such
garbage, and a true full collection paused it 0.5 s. So one runs only when the frozen objects have grown
`GROWTH` times since the last, and at most every `FULL_EVERY_SECONDS`: checked every `CHECK_SECONDS` by a
thread of its own (a collection cannot be started from the collector's own callback).
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Any

GROWTH = 2.0
FULL_EVERY_SECONDS = 600.0
CHECK_SECONDS = 1.0


class Collector:
    """The policy above, for this process: `start()` once the process has loaded what it serves with."""

    def __init__(self, growth: float = GROWTH, full_every: float = FULL_EVERY_SECONDS,
                 check_every: float = CHECK_SECONDS) -> None:
        self.growth, self.full_every, self.check_every = growth, full_every, check_every
        self.frozen_after_full = 0  # the frozen objects after the last true full collection, and when
        self.last_full = 0.0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="dedale-collector", daemon=True)

    def start(self) -> None:
        self.full_collection()  # what start-up made, scanned once, then never again
        gc.callbacks.append(self._after_collection)
        self.thread.start()

    def stop(self) -> None:
        """Back to CPython's own collector (for tests)."""
        self.stopped.set()
        self.thread.join()
        gc.callbacks.remove(self._after_collection)
        gc.unfreeze()

    def due(self) -> bool:
        return (time.monotonic() - self.last_full >= self.full_every
                and gc.get_freeze_count() > self.growth * self.frozen_after_full)

    def full_collection(self) -> None:
        """Every object scanned: the cycles among frozen objects collected. (Should another thread's automatic
        collection be under way, CPython skips this one: the cycles then wait for the next.)"""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.frozen_after_full, self.last_full = gc.get_freeze_count(), time.monotonic()

    def _after_collection(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info["generation"] == 2:
            gc.freeze()

    def _watch(self) -> None:
        while not self.stopped.wait(self.check_every):
            if self.due():
                self.full_collection()

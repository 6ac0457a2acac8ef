"""The server's garbage collector (web/collector.py): what lived through a full collection is frozen and not
scanned again, yet still freed when dropped; cycles among frozen objects wait for a true full collection,
which runs only when the frozen objects have grown enough, and not too often."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Iterator

import pytest

from dedale.web.collector import Collector


class Node:
    """An object in a reference cycle, which only the cyclic collector frees."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def collector() -> Iterator[Collector]:
    started = Collector(full_every=3600.0, check_every=3600.0)
    started.start()
    yield started
    started.stop()


class Leaf:
    """An object in no cycle: its reference count frees it."""


def frozen(thing: object) -> bool:
    """Set aside by gc.freeze: tracked, yet in none of the generations a collection scans."""
    return gc.is_tracked(thing) and not any(found is thing for found in gc.get_objects())


def test_what_start_up_made_is_frozen_and_back_to_normal_after_stop() -> None:
    made = Leaf()
    started = Collector(check_every=3600.0)
    started.start()
    assert frozen(made) and started._after_collection in gc.callbacks
    started.stop()
    assert not frozen(made) and gc.get_freeze_count() == 0
    assert started._after_collection not in gc.callbacks and not started.thread.is_alive()


def test_survivors_of_a_full_collection_are_frozen(collector: Collector) -> None:
    kept = Leaf()
    assert not frozen(kept)
    gc.collect(1)
    assert not frozen(kept)  # a younger generation's collection leaves it to be scanned
    gc.collect()  # as CPython's own full collections do, whenever they come
    assert frozen(kept)


def test_a_frozen_object_is_still_freed_when_dropped(collector: Collector) -> None:
    kept = Leaf()
    gc.collect()
    gone = weakref.ref(kept)
    assert frozen(kept)
    del kept
    assert gone() is None  # at once, by its reference count


def test_cycles_among_frozen_objects_wait_for_a_true_full_collection(collector: Collector) -> None:
    node = Node()
    gc.collect()
    gone = weakref.ref(node)
    del node
    gc.collect()
    assert gone() is not None  # frozen: not scanned by the ordinary full collections
    collector.full_collection()
    assert gone() is None


def test_a_true_full_collection_is_due_when_the_frozen_objects_have_grown_and_not_too_often() -> None:
    started = Collector(growth=1.5, full_every=0.2, check_every=3600.0)
    started.start()
    try:
        kept = [Node() for _ in range(int(started.frozen_after_full))]  # doubled, past 1.5 times
        gc.collect()
        assert not started.due()  # grown, but the last was just now
        started.last_full = time.monotonic() - 0.2
        assert started.due()
        started.full_collection()
        assert not started.due()
        del kept
    finally:
        started.stop()


def test_the_watching_thread_runs_the_true_full_collection_when_due() -> None:
    started = Collector(growth=0.0, full_every=0.0, check_every=0.01)
    started.start()
    try:
        node = Node()
        gc.collect()
        gone = weakref.ref(node)
        del node
        deadline = time.monotonic() + 10
        while gone() is not None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert gone() is None
    finally:
        started.stop()


def test_a_server_process_starts_it_once_warm(monkeypatch: pytest.MonkeyPatch) -> None:
    from dedale.web import serving

    started: list[bool] = []

    class Recorded:
        def start(self) -> None:
            started.append(True)

    monkeypatch.setattr(serving, "Collector", Recorded)
    serving._warm()
    assert started == [True]

"""Batches: one picklable function mapped over items (seeds, game numbers), the results yielded in the items'
order, on Dask. The results never depend on where an item runs (each carries its own seed), so the same batch
gives the same output in this process, on local worker processes or on a cluster.

A batch starts in this process, timing its items for `PROBE_SECONDS` (and at least `PROBE_ITEMS`). One that
ends by then, or whose rest would not gain more than a cluster's start-up (`STARTUP_SECONDS`) from the local
workers, stays here: small batches never pay for Dask. Otherwise a `dask.distributed` LocalCluster of worker
processes starts, and the rest goes to it (or to the scheduler named), in chunks of about `CHUNK_SECONDS` of
work each (sized from the items timed so far), at most `WINDOW` chunks a worker in flight: results come back
in order and memory stays bounded however long the batch. Dask is imported only when a batch goes to it."""

from __future__ import annotations

import os
import re
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from dedale.core.errors import DedaleError

if TYPE_CHECKING:
    from distributed import Client, Future

T = TypeVar("T")
R = TypeVar("R")

PROBE_SECONDS = 0.5  # the work done in this process before deciding where the rest goes
PROBE_ITEMS = 3  # at least: their median is not the first item's, which may fill a process's caches
# A LocalCluster's start and stop, and its workers' slower first items (imports, caches): measured on two
# cores, 0.5-0.6 s, 0.1 s and about half a second.
STARTUP_SECONDS = 1.0
CHUNK_SECONDS = 0.25  # of work a task: Dask's own cost of a task, a few ms, is then about 1%
CHUNKS_PER_WORKER = 4  # at least, so that a slow chunk does not leave the others idle at the end
WINDOW = 3  # chunks a worker in flight: enough to keep it busy while results are read in order
CONNECT_SECONDS = 5  # to reach a scheduler, and for it to have a worker
ADDRESS = re.compile(r"tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})")
MAX_WORKERS_PER_CORE = 4
# A scheduler's HTTP server (health, metrics) on any free port of this machine: Dask's 8787 may be taken,
# and a warning would say so on stderr.
QUIET_HTTP = {"dashboard_address": "127.0.0.1:0"}


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@dataclass(frozen=True)
class Where:
    """Where a batch runs: at most `workers` local processes (None: one a core; 1: this process alone), or
    the workers of the running Dask scheduler at `scheduler` (tcp://HOST:PORT)."""

    workers: int | None = None
    scheduler: str | None = None

    def __post_init__(self) -> None:
        most = MAX_WORKERS_PER_CORE * cores()
        if self.workers is not None and not 1 <= self.workers <= most:
            raise DedaleError("error.range", param="workers", value=self.workers, low=1, high=most)
        if self.workers is not None and self.scheduler is not None:
            raise DedaleError("error.workers_and_scheduler")
        address = ADDRESS.fullmatch(self.scheduler or "")
        if self.scheduler is not None and not (address and 0 < int(address[2]) < 65536):
            raise DedaleError("error.scheduler_address", value=self.scheduler)

    @property
    def local_workers(self) -> int:
        return cores() if self.workers is None else self.workers


IN_PROCESS = Where(workers=1)


def run_batch(work: Callable[[T], R], items: Sequence[T], where: Where = IN_PROCESS,
              progress: Callable[[int], None] | None = None) -> Iterator[R]:
    """`work(item)` for every item, yielded in the items' order; `progress` is told how many are done.
    `work` must be picklable (a module's function, or a `functools.partial` of one) when the batch may leave
    this process; and, as with any use of multiprocessing, a script that runs a batch on local workers keeps
    its own work under `if __name__ == "__main__":` (the worker processes import the script)."""
    total = len(items)
    with ExitStack() as stack:
        # A scheduler that cannot be reached is refused before any work (and so before any output).
        client = stack.enter_context(_connected(where.scheduler)) if where.scheduler else None
        durations: list[float] = []
        began = time.perf_counter()
        done = yield from _here(work, items, 0, progress, lambda: len(durations) >= PROBE_ITEMS and (
            time.perf_counter() - began >= PROBE_SECONDS), durations)
        if done == total:
            return
        per_item = sorted(durations)[done // 2]  # the median: the first items may fill caches the others use
        workers = min(where.local_workers, total - done)
        if client is None and _worth_a_cluster(per_item * (total - done), workers):
            # Waited for: this process working meanwhile would hold the GIL that the cluster's start (the
            # scheduler and the client live in this process) needs at each of its many small steps, which
            # made a start of half a second take ten.
            client = stack.enter_context(_local_cluster(workers))
        if client is None:
            yield from _here(work, items, done, progress, lambda: False)
        else:
            yield from _on_dask(client, work, items, done, per_item, progress)


def _here(work: Callable[[T], R], items: Sequence[T], first: int, progress: Callable[[int], None] | None,
          stop: Callable[[], bool], durations: list[float] | None = None) -> Generator[R, None, int]:
    """Items `first`.. in this process, in order, until `stop()` (asked before each) says so; each one's time
    added to `durations` if given. Returns how many items of the batch are done."""
    for number in range(first, len(items)):
        if stop():
            return number
        start = time.perf_counter()
        result = work(items[number])
        if durations is not None:
            durations.append(time.perf_counter() - start)
        yield result
        if progress:
            progress(number + 1)
    return len(items)


def _worth_a_cluster(rest: float, workers: int) -> bool:
    """Whether `workers` local processes would save more than their cluster's start-up on `rest` seconds."""
    return workers > 1 and rest * (1 - 1 / workers) > STARTUP_SECONDS


def _run_chunk(work: Callable[[T], R], chunk: Sequence[T]) -> tuple[list[R], float]:
    """A chunk's results, and the seconds its work took on the worker (which size the next chunks)."""
    start = time.perf_counter()
    return [work(item) for item in chunk], time.perf_counter() - start


def _on_dask(client: Client, work: Callable[[T], R], items: Sequence[T], first: int, per_item: float,
             progress: Callable[[int], None] | None) -> Iterator[R]:
    """Items `first`.. on the client's workers, chunk by chunk, a window of chunks in flight, in order. A
    chunk holds about CHUNK_SECONDS of work, from the time per item measured so far: here at first, then on
    the workers as chunks come back."""
    total = len(items)
    slots = max(1, sum(client.nthreads().values()))
    balanced = -(-(total - first) // (CHUNKS_PER_WORKER * slots))  # the most a chunk may hold
    pending: deque[Future] = deque()
    following = first  # the first item not yet sent

    def submit() -> None:
        nonlocal following
        if following < total:
            size = max(1, min(round(CHUNK_SECONDS / max(per_item, 1e-9)), balanced))
            chunk = items[following:following + size]
            pending.append(client.submit(_run_chunk, work, chunk, pure=False))
            following += len(chunk)

    for _ in range(WINDOW * slots):
        submit()
    done = first
    try:
        while pending:
            results, seconds = pending.popleft().result()  # the next in order, however the others finish
            per_item = seconds / len(results)
            submit()
            yield from results
            done += len(results)
            if progress:
                progress(done)
    finally:
        for future in pending:  # stopped early (an error, Ctrl-C): nothing left running on the workers
            future.cancel()


@contextmanager
def _local_cluster(workers: int) -> Iterator[Client]:
    """A client of a LocalCluster of `workers` single-threaded processes on this machine alone (no dashboard,
    quiet), closed on leaving. Its processes are forked from a fork server where there is one: measured on two
    cores, the cluster then stops in 0.1 s rather than the 1-2 s of processes spawned afresh."""
    import logging
    import multiprocessing

    import dask
    from distributed import Client, LocalCluster

    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    with ExitStack() as stack:
        stack.enter_context(dask.config.set({"distributed.worker.multiprocessing-method": method}))
        # Quiet: a task's error comes back as its exception; the logs would only add a worker's complaints as
        # the cluster stops.
        cluster = stack.enter_context(LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None,
            scheduler_kwargs=QUIET_HTTP, silence_logs=logging.CRITICAL))
        yield stack.enter_context(Client(cluster, set_as_default=False))


@contextmanager
def _connected(address: str) -> Iterator[Client]:
    """A client of the scheduler at `address`, with at least one worker running this version of Dédale."""
    import socket

    from distributed import Client

    host, _, port = address.partition("://")[2].rpartition(":")
    try:
        # A plain connection first: a port nobody listens on is refused at once, where Dask's own client
        # would retry until its timeout.
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError):
        raise DedaleError("error.scheduler_unreachable", value=address, seconds=CONNECT_SECONDS) from None
    with client:
        try:
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except TimeoutError:
            raise DedaleError("error.scheduler_no_workers", value=address, seconds=CONNECT_SECONDS) from None
        _check_versions(client, address)
        yield client


def _dedale_version() -> str:
    from dedale import __version__

    return __version__


def _check_versions(client: Client, address: str) -> None:
    """Every worker runs the version of Dédale this process runs: the same seeds, the same results."""
    from dedale import __version__

    try:
        found: dict[str, Any] = client.run(_dedale_version)
    except Exception:  # a worker that cannot even load this function has no Dédale at all
        found = {"?": "none"}
    other = sorted({str(version) for version in found.values()} - {__version__})
    if other:
        raise DedaleError("error.scheduler_version", value=address, found=", ".join(other), version=__version__)

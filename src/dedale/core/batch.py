"""Batches: one picklable function mapped over items (seeds, game numbers), the results yielded in the items'
order. The results never depend on where an item runs (each carries its own seed), so the same batch gives
the same output in this process, on local worker processes or on a Dask cluster.

Local workers are the standard library's process pool, started once the batch has run in this process for
`ALONE_SECONDS` (a shorter batch never pays for one); `--scheduler` sends the whole batch to a Dask cluster
through Dask's own `concurrent.futures` executor. Either way one code path, `Executor.map`, over chunks of
items: a chunk holds about `CHUNK_SECONDS` of work as last timed (a single item before any is), and at most
two windows of `WINDOW` chunks a worker are in flight, so memory stays bounded however long the batch. Dask
is imported only when a batch goes to a cluster (the `cluster` extra)."""

from __future__ import annotations

import math
import multiprocessing
import os
import re
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from dedale.core import version
from dedale.core.errors import DedaleError

if TYPE_CHECKING:
    from distributed import Client

T = TypeVar("T")
R = TypeVar("R")

ALONE_SECONDS = 0.5  # of work done in this process before a pool starts (about what its start costs)
CHUNK_SECONDS = 0.2  # of work a chunk: a task's own cost (a few ms on Dask, less locally) is then about 1%
CHUNKS_PER_WORKER = 4  # at least, so that a slow chunk does not leave the others idle at the end
WINDOW = 2  # chunks a worker in a window; two windows in flight keep the workers busy while one is read
CONNECT_SECONDS = 5  # to reach a scheduler, and for it to have a worker
ADDRESS = re.compile(r"tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})")
MAX_WORKERS_PER_CORE = 4


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
    its own work under `if __name__ == "__main__":` (the worker processes may import the script)."""
    if where.scheduler is not None:
        # A scheduler that cannot be used is refused before any work (and so before any output).
        with _cluster(where.scheduler) as (executor, slots):
            yield from _mapped(executor, slots, work, items, 0, None, progress)
        return
    # The first items run here, for up to ALONE_SECONDS: a batch done by then never pays for a pool, and
    # the last one's time sizes the pool's first chunks. So does the last item, and all with one worker.
    done, per_item, alone_until = 0, None, time.perf_counter() + ALONE_SECONDS
    while done < len(items) and (min(where.local_workers, len(items) - done) == 1
                                 or time.perf_counter() < alone_until):
        start = time.perf_counter()
        result = work(items[done])
        per_item, done = time.perf_counter() - start, done + 1
        yield result
        if progress:
            progress(done)
    if done < len(items):
        workers = min(where.local_workers, len(items) - done)
        with _pool(workers, work) as executor:
            yield from _mapped(executor, workers, work, items, done, per_item, progress)


def _run_chunk(work: Callable[[T], R], chunk: Sequence[T]) -> tuple[list[R], float]:
    """A chunk's results, and the seconds its work took on the worker (which size the next chunks)."""
    start = time.perf_counter()
    return [work(item) for item in chunk], time.perf_counter() - start


def _mapped(executor: Executor, slots: int, work: Callable[[T], R], items: Sequence[T], first: int,
            per_item: float | None, progress: Callable[[int], None] | None) -> Iterator[R]:
    """`work` over items `first`.. on the executor's `slots` workers, in order; `per_item` is an item's
    seconds if known. `Executor.map` submits all it is given at once and holds every result until it is
    read, so it is given a window of chunks at a time: the next window is submitted before the current one
    is read (the workers never wait for the reader), and no more than two windows' results are ever held.
    Chunks are made here for both executors (Dask's ignores `chunksize`), so map's own `chunksize` stays 1."""
    total = len(items)
    balanced = math.ceil((total - first) / (CHUNKS_PER_WORKER * slots))  # the most a chunk may hold
    following = first  # the first item not yet sent

    def window() -> Iterator[tuple[list[R], float]]:
        nonlocal following
        size = 1 if per_item is None else max(1, min(balanced, round(CHUNK_SECONDS / max(per_item, 1e-9))))
        chunks: list[Sequence[T]] = []
        for _ in range(WINDOW * slots):
            if following < total:
                chunks.append(items[following:following + size])
                following += len(chunks[-1])
        return executor.map(partial(_run_chunk, work), chunks)

    in_flight: deque[Iterator[tuple[list[R], float]]] = deque()
    done = first
    while following < total or in_flight:
        while len(in_flight) < 2 and following < total:
            in_flight.append(window())
        for results, seconds in in_flight.popleft():
            per_item = seconds / len(results)  # as the workers timed it: sizes the windows sent from now on
            yield from results
            done += len(results)
            if progress:
                progress(done)


def _quiet() -> None:
    """A local worker leaves Ctrl-C to this process, which stops the batch (one message, not one a worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _pool(workers: int, work: Callable[..., Any]) -> Iterator[Executor]:
    """A process pool of `workers`, its queued chunks cancelled on leaving (an error, Ctrl-C, a reader that
    stopped), so that only the chunks already running are waited for."""
    method = _start_method()
    context = multiprocessing.get_context(method)
    if method == "forkserver":  # only this process's first server is started, with these modules
        context.set_forkserver_preload(_preloaded(work))
    executor = ProcessPoolExecutor(workers, context, initializer=_quiet)
    try:
        yield executor
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _start_method() -> str:
    """How local workers start. As forks of this process where the platform forks by default (Linux before
    Python 3.14) and no other thread runs here: they begin with Dédale imported and its caches as this
    process's first items left them. A pool of two ran its first two items (best of 5 on two busy cores)
    in 0.04 s for crawler dungeons and 0.25 s for skirmish games as forks of this process, 0.48 and 0.49 s
    as forks of a fork server, 0.68 and 0.75 s spawned. But a fork copies the locks of other threads as they
    are, held or not: with another Python thread running (a Dask client's, a test runner's) the workers are
    forks of a fork server instead, a process without threads that imports the work's module once
    (`_preloaded`); spawned where there is neither. A native library's own threads (NumPy's BLAS) are
    stopped and restarted around a fork by the library itself."""
    methods = multiprocessing.get_all_start_methods()  # the platform's default first
    if methods[0] == "fork" and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _preloaded(work: Callable[..., Any]) -> list[str]:
    """The modules a fork server imports once for all its workers: the work's own (which bring the rules it
    runs), and the main script's, as multiprocessing does by default (`__main__`)."""
    function = work.func if isinstance(work, partial) else work
    module = getattr(function, "__module__", None) or type(function).__module__
    return ["__main__", module]


@contextmanager
def _cluster(address: str) -> Iterator[tuple[Executor, int]]:
    """Dask's executor on the scheduler at `address`, with at least one worker running this version of
    Dédale, and the number of its worker threads. Closing the client on leaving releases every task not yet
    run."""
    import socket

    from dedale.core.extras import need

    client_class = need("cluster", "distributed").Client
    host, _, port = address.partition("://")[2].rpartition(":")
    try:
        # A plain connection first: a port nobody listens on is refused at once, where Dask's own client
        # would retry until its timeout.
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
        client = client_class(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError):
        raise DedaleError("error.scheduler_unreachable", value=address, seconds=CONNECT_SECONDS) from None
    with client:
        try:
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except TimeoutError:
            raise DedaleError("error.scheduler_no_workers", value=address, seconds=CONNECT_SECONDS) from None
        _check_versions(client, address)
        # Not pure: a chunk is not hashed to find an earlier result (every chunk is new work).
        yield client.get_executor(pure=False), max(1, sum(client.nthreads().values()))


def _dedale_version() -> str:
    return version.__version__


def _check_versions(client: Client, address: str) -> None:
    """Every worker runs the version of Dédale this process runs: the same seeds, the same results."""
    running = version.__version__
    try:
        found: dict[str, Any] = client.run(_dedale_version)
    except Exception:  # a worker that cannot even load this function has no Dédale at all
        found = {"?": "none"}
    other = sorted({str(each) for each in found.values()} - {running})
    if other:
        raise DedaleError("error.scheduler_version", value=address, found=", ".join(other), version=running)

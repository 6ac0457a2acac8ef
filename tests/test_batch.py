"""Batches (core/batch): the same output in this process, on a local process pool and on a real Dask cluster
(a `dask scheduler` and a `dask worker` this module starts); results in order, a bounded number of chunks in
flight; a scheduler that cannot be used, or a missing `cluster` extra, is one line and exit 2."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dedale
from budget import examples
from dedale.core import batch, version
from dedale.core.batch import Where, run_batch
from dedale.core.errors import DedaleError

STARTED_WITHIN = 120  # seconds for the scheduler and its worker to be up on a busy machine: a bound, not a figure
STOPPED_WITHIN = 15


def dask_installed() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


needs_dask = pytest.mark.skipif(not dask_installed(), reason="Dask is not installed (pip install 'dedale[cluster]')")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """The process and any child of its session, stopped: politely, then for good."""
    for sent, wait in ((signal.SIGTERM, STOPPED_WITHIN), (signal.SIGKILL, STOPPED_WITHIN)):
        if process.poll() is not None:
            break
        try:
            os.killpg(process.pid, sent)
        except ProcessLookupError:
            break
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            continue


def _written_address(path: Path, scheduler: subprocess.Popen[bytes]) -> str:
    """The address the scheduler writes to its file once it listens (read again until whole)."""
    deadline = time.monotonic() + STARTED_WITHIN
    while scheduler.poll() is None and time.monotonic() < deadline:
        try:
            return str(json.loads(path.read_text())["address"])
        except (OSError, ValueError, KeyError):
            time.sleep(0.1)
    raise AssertionError(f"the scheduler did not start: {(path.parent / 'scheduler.log').read_text()}")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Dask cluster on this machine alone: `dask scheduler` and one `dask worker` (one process, one
    thread), started here as the documentation says, the worker importing this tree's Dédale (and these
    tests' functions); its scheduler's address. Both stopped on leaving, whatever happened."""
    from distributed import Client

    folder = tmp_path_factory.mktemp("dask")
    address_file = folder / "scheduler.json"
    tests = Path(__file__).parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(dedale.__file__).parents[1]), str(tests)])}
    dask = [sys.executable, "-m", "dask"]
    started: list[subprocess.Popen[bytes]] = []
    try:
        # Safety nets should this process die without its teardown: an idle scheduler stops after 10 minutes,
        # a worker without its scheduler after 30 s.
        with open(folder / "scheduler.log", "wb") as log:
            started.append(subprocess.Popen(
                [*dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                 "--scheduler-file", str(address_file), "--idle-timeout", "600s"],
                stdout=log, stderr=subprocess.STDOUT, env=env, cwd=folder, start_new_session=True))
        address = _written_address(address_file, started[0])
        with open(folder / "worker.log", "wb") as log:
            started.append(subprocess.Popen(
                [*dask, "worker", address, "--host", "127.0.0.1", "--nworkers", "1", "--nthreads", "1",
                 "--no-nanny", "--no-dashboard", "--local-directory", str(folder), "--death-timeout", "30s"],
                stdout=log, stderr=subprocess.STDOUT, env=env, cwd=folder, start_new_session=True))
        with Client(address, timeout=STARTED_WITHIN, set_as_default=False) as client:
            client.wait_for_workers(1, timeout=STARTED_WITHIN)
        yield address
    finally:
        for process in reversed(started):
            _stop(process)


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every local batch of two items or more goes to the process pool (none stays in this process)."""
    monkeypatch.setattr(batch, "ALONE_SECONDS", 0.0)


def square(number: int) -> int:
    return number * number


def process(_: object) -> int:
    return os.getpid()


def refuse(number: int) -> int:
    if number == 3:
        raise DedaleError("error.count", value=number, high=2)
    return number


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- the same output wherever it runs ---------------------------------------------------------------------------
@needs_dask
@pytest.mark.parametrize("command", [
    ("crawler", "--count", "20", "--seed", "5", "--json"),
    ("zombstone", "simulate", "--games", "10", "--seed", "11", "--json"),
    ("zombstone", "balance", "--profile", "wyatt_earp", "--field", "potential", "--values", "1,3", "--games", "5",
     "--seed", "9", "--json"),
])
def test_a_batch_prints_the_same_bytes_in_this_process_on_two_local_workers_and_on_a_cluster(
        cli, pool: None, cluster: str, command: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    runs = [cli(*command, "--workers", "1"), cli(*command, "--workers", "2"), cli(*command, "--scheduler", cluster)]
    assert [code for code, _, _ in runs] == [0, 0, 0], [err for _, _, err in runs]
    assert runs[0][1] == runs[1][1] == runs[2][1]
    assert runs[0][1].strip()


@needs_dask
def test_generation_writes_the_same_files_in_this_process_on_two_local_workers_and_on_a_cluster(
        cli, pool: None, cluster: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    outputs = []
    places = {"one": ["--workers", "1"], "two": ["--workers", "2"], "cluster": ["--scheduler", cluster]}
    for name, where in places.items():
        # the language and the drawing's options travel with the job: the workers draw in French, with cards
        (tmp_path / name).mkdir()
        code, out, err = cli("paper", "--seed", "5", "--count", "12", "--json", "--cards", "--lang", "fr", "-o",
                             str(tmp_path / name / "map-{seed}.svg"), *where)
        assert code == 0, err
        files = {path.name: path.read_bytes() for path in sorted((tmp_path / name).iterdir())}
        outputs.append((out, files))
    assert outputs[0] == outputs[1] == outputs[2]
    lines, files = outputs[0]
    assert [json.loads(line)["seed"] for line in lines.splitlines()] == list(range(5, 17))
    assert list(files) == [f"map-{seed}.svg" for seed in sorted(range(5, 17), key=str)]
    in_english = cli("paper", "--seed", "9", "-o", str(tmp_path / "en.svg"))
    assert in_english[0] == 0 and files["map-9.svg"] != (tmp_path / "en.svg").read_bytes()
    assert b"<svg" in files["map-9.svg"]


@pytest.mark.parametrize("method", ["fork", "forkserver"])
def test_local_workers_give_the_results_in_order_however_they_start(pool: None, monkeypatch: pytest.MonkeyPatch,
                                                                     method: str) -> None:
    if method == "fork" and threading.active_count() > 1:
        pytest.skip("another thread runs in this test process: what _start_method does not fork")
    monkeypatch.setattr(batch, "_start_method", lambda: method)
    # the standard library's functions: a fork server need not import this module (and pytest) to run them
    done: list[int] = []
    found = list(run_batch(partial(pow, exp=2), range(300), Where(workers=2), done.append))
    assert found == [n * n for n in range(300)]
    assert done == sorted(set(done)) and done[-1] == 300
    # /proc/self names the process that reads it: none of the items ran here
    assert str(os.getpid()) not in run_batch(os.readlink, ["/proc/self"] * 10, Where(workers=2))


@needs_dask
def test_the_results_come_back_in_order_from_the_cluster(cluster: str) -> None:
    done: list[int] = []
    assert list(run_batch(square, range(200), Where(scheduler=cluster), done.append)) == [n * n for n in range(200)]
    assert done == sorted(set(done)) and done[-1] == 200
    assert os.getpid() not in run_batch(process, range(10), Where(scheduler=cluster))  # none ran here


@pytest.mark.parametrize("where", [Where(workers=2), pytest.param("cluster", marks=needs_dask)])
def test_an_error_on_a_worker_is_the_same_error_here(pool: None, request: pytest.FixtureRequest,
                                                     where: Where | str) -> None:
    if where == "cluster":
        where = Where(scheduler=request.getfixturevalue("cluster"))
    assert isinstance(where, Where)
    with pytest.raises(DedaleError) as raised:
        list(run_batch(refuse, range(10), where))
    assert raised.value.key == "error.count" and raised.value.args_ == {"value": 3, "high": 2}


def test_a_reader_that_stops_early_leaves_no_batch_behind(pool: None) -> None:
    results = run_batch(square, range(10_000), Where(workers=2))
    assert [next(results) for _ in range(5)] == [0, 1, 4, 9, 16]
    results.close()  # the pool shut down, its queued chunks cancelled
    assert list(run_batch(square, range(50), Where(workers=2))) == [n * n for n in range(50)]


# --- how chunks travel: a stand-in executor, so that any shape of batch can be tried ----------------------------
class CountingExecutor(Executor):
    """An executor that runs each call as it is submitted, counting the chunks submitted and their sizes."""

    def __init__(self) -> None:
        self.sizes: list[int] = []  # of the chunks submitted, in order

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.sizes.append(len(args[0]))
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(1, 400), st.data(), st.integers(1, 8), st.none() | st.floats(1e-6, 1.0))
def test_chunks_keep_the_order_and_at_most_two_windows_in_flight(total: int, data: st.DataObject, slots: int,
                                                                  per_item: float | None) -> None:
    first = data.draw(st.integers(0, total - 1))
    executor, done = CountingExecutor(), [first]

    def read(count: int) -> None:  # told after each chunk is read: what was submitted and not yet read is bounded
        done.append(count)
        assert len(executor.sizes) - (len(done) - 1) <= 2 * batch.WINDOW * slots

    found = list(batch._mapped(executor, slots, square, range(total), first, per_item, read))
    assert found == [n * n for n in range(first, total)]
    assert done == sorted(set(done)) and done[-1] == total  # progress only grows, up to the whole batch
    assert sum(executor.sizes) == total - first
    # every worker gets its share: no chunk larger than an even split into CHUNKS_PER_WORKER a worker
    assert max(executor.sizes) <= -(-(total - first) // (batch.CHUNKS_PER_WORKER * slots))


def test_a_chunk_holds_about_a_fifth_of_a_second_of_work_as_timed_here_then_on_the_workers() -> None:
    executor = CountingExecutor()
    list(batch._mapped(executor, 2, square, range(100_000), 0, 0.001, None))
    first = 2 * batch.WINDOW * 2  # the two windows sent before any chunk is read
    assert executor.sizes[:first] == [round(batch.CHUNK_SECONDS / 0.001)] * first  # from the time per item given
    # then from the workers' own times: squares take far less than 1 ms, so chunks grow to an even share
    assert max(executor.sizes[first:]) == 100_000 // (batch.CHUNKS_PER_WORKER * 2)


def test_without_a_time_the_first_chunks_hold_one_item() -> None:
    executor = CountingExecutor()
    list(batch._mapped(executor, 2, square, range(1000), 0, None, None))
    assert executor.sizes[:2 * batch.WINDOW * 2] == [1] * (2 * batch.WINDOW * 2)


@given(st.lists(st.integers(-1000, 1000), max_size=50))
def test_in_this_process_a_batch_is_a_map(numbers: list[int]) -> None:
    done: list[int] = []
    assert list(run_batch(square, numbers, progress=done.append)) == [n * n for n in numbers]
    assert done == list(range(1, len(numbers) + 1))


# --- where a batch runs ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("items", "where"), [(1, Where(workers=4)), (1000, Where(workers=1)), (1000, Where())])
def test_one_item_one_worker_or_a_batch_done_in_time_starts_no_pool(pool: None, monkeypatch: pytest.MonkeyPatch,
                                                                    items: int, where: Where) -> None:
    def no_pool(workers: int, work: object) -> None:
        raise AssertionError("a pool was started")

    if where.workers is None:  # any number of workers: a batch that ends within ALONE_SECONDS stays here
        monkeypatch.setattr(batch, "ALONE_SECONDS", float("inf"))
    monkeypatch.setattr(batch, "_pool", no_pool)
    assert list(run_batch(square, range(items), where)) == [n * n for n in range(items)]


def test_with_another_thread_running_local_workers_are_not_forks_of_this_process() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert batch._start_method() != "fork"
    finally:
        stop.set()
        other.join()


def test_dask_is_not_loaded_by_a_run_that_does_not_use_it() -> None:
    code = ("import sys; from dedale.core import batch; batch.ALONE_SECONDS = 0; from dedale.cli import main; "
            "main(['crawler', '--seed', '1', '--count', '5', '--json', '--workers', '2']); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr.strip() == "[]", done.stderr
    assert len(done.stdout.splitlines()) == 5


# --- what is refused ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", [("crawler", "--seed", "1", "--count", "3"),
                                     ("zombstone", "simulate", "--seed", "1", "--games", "3")])
@pytest.mark.parametrize(("args", "said"), [
    (("--workers", "0"), "workers: 0 is out of range"),
    (("--workers", "100000"), "workers: 100000 is out of range"),
    (("--scheduler", "localhost:8786"), "'localhost:8786' is not a scheduler's address; use tcp://HOST:PORT"),
    (("--scheduler", "tcp://localhost:99999"), "use tcp://HOST:PORT"),
    (("--scheduler", "tcp://127.0.0.1:8786", "--workers", "2"), "give one or the other"),
])
def test_bad_workers_or_scheduler_is_one_line_and_exit_2(cli, tmp_path: Path, command: tuple[str, ...],  # type: ignore[no-untyped-def]
                                                         args: tuple[str, ...], said: str) -> None:
    code, out, err = cli(*command, *args, "-o", str(tmp_path / "out.json"))
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err
    assert out == "" and list(tmp_path.iterdir()) == []


@needs_dask
@pytest.mark.parametrize("command", [("crawler", "--seed", "1", "--count", "3", "--json"),
                                     ("zombstone", "simulate", "--seed", "1", "--games", "3", "--json")])
def test_a_scheduler_nobody_runs_is_named_before_any_output(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                            command: tuple[str, ...]) -> None:
    address = f"tcp://127.0.0.1:{free_port()}"
    code, out, err = cli(*command, "--scheduler", address, "-o", str(tmp_path / "out.json"))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert f"no Dask scheduler answered at {address}" in err and "tcp://HOST:PORT" in err
    assert out == "" and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [("crawler", "--seed", "1", "--count", "3", "--json"),
                                     ("zombstone", "simulate", "--seed", "1", "--games", "3", "--json")])
def test_without_the_cluster_extra_a_scheduler_is_one_line_naming_it(cli, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                                                                     tmp_path: Path, command: tuple[str, ...]) -> None:
    for module in ("dask", "distributed"):
        monkeypatch.setitem(sys.modules, module, None)  # an import of it fails, as when it is not installed
    code, out, err = cli(*command, "--scheduler", "tcp://127.0.0.1:8786", "-o", str(tmp_path / "out.json"))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "pip install 'dedale[cluster]'" in err and "Traceback" not in err
    assert out == "" and list(tmp_path.iterdir()) == []


@needs_dask
def test_workers_running_another_version_are_refused(monkeypatch: pytest.MonkeyPatch, cluster: str) -> None:
    running = dedale.__version__
    monkeypatch.setattr(version, "__version__", "0.0.1")  # this process's version, not the worker's
    with pytest.raises(DedaleError) as raised:
        list(run_batch(square, range(3), Where(scheduler=cluster)))
    assert raised.value.key == "error.scheduler_version" and raised.value.args_["found"] == running


@needs_dask
def test_a_scheduler_without_workers_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import LocalCluster

    monkeypatch.setattr(batch, "CONNECT_SECONDS", 0.5)
    with LocalCluster(n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1", dashboard_address=None,
                      scheduler_kwargs={"dashboard_address": "127.0.0.1:0"}) as empty, \
            pytest.raises(DedaleError) as raised:
        list(run_batch(square, range(3), Where(scheduler=empty.scheduler_address)))
    assert raised.value.key == "error.scheduler_no_workers"

"""Batches on Dask (core/batch): the same results in this process, on local worker processes and on a cluster,
in order, with a bounded number of chunks in flight; small batches stay in this process; a scheduler that
cannot be used is one line and exit 2."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dedale.core import batch
from dedale.core.batch import Where, run_batch
from dedale.core.errors import DedaleError


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A LocalCluster of two worker threads behind a TCP scheduler (quick to start; still a real scheduler,
    with every task and result pickled over TCP): its address."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://",
                      dashboard_address=None, scheduler_kwargs=batch.QUIET_HTTP) as running:
        yield running.scheduler_address


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every batch goes to Dask after its first item; the list gets the number of items each batch sent there."""
    monkeypatch.setattr(batch, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(batch, "PROBE_ITEMS", 1)
    monkeypatch.setattr(batch, "STARTUP_SECONDS", 0.0)
    counts: list[int] = []
    on_dask = batch._on_dask

    def counted(client: Any, work: Any, items: Any, first: int, *rest: Any) -> Iterator[Any]:
        counts.append(len(items) - first)
        yield from on_dask(client, work, items, first, *rest)

    monkeypatch.setattr(batch, "_on_dask", counted)
    return counts


def square(number: int) -> int:
    return number * number


def slow_square(number: int) -> int:
    time.sleep(0.001)
    return number * number


def refuse(number: int) -> int:
    if number == 3:
        raise DedaleError("error.count", value=number, high=2)
    return number


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- the same output wherever it runs ---------------------------------------------------------------------------
def test_simulate_gives_the_same_bytes_on_one_worker_two_local_workers_and_a_cluster(
        cli, sent: list[int], cluster: str) -> None:  # type: ignore[no-untyped-def]
    args = ("zombstone", "simulate", "--games", "10", "--seed", "11", "--json")
    runs = [cli(*args, "--workers", "1"), cli(*args, "--workers", "2"), cli(*args, "--scheduler", cluster)]
    assert [code for code, _, _ in runs] == [0, 0, 0]
    assert runs[0][1] == runs[1][1] == runs[2][1]
    assert json.loads(runs[0][1])["games"] == 10
    assert sent == [9, 9]  # the first game in this process, the others on the workers


def test_generation_gives_the_same_lines_and_files_on_one_worker_two_local_workers_and_a_cluster(
        cli, sent: list[int], cluster: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    outputs = []
    places = {"one": ["--workers", "1"], "two": ["--workers", "2"], "cluster": ["--scheduler", cluster]}
    for name, where in places.items():
        # the language and the drawing's options travel with the job: the workers draw in French, with cards
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
    assert sent == [11, 11]


def test_the_results_come_back_in_order_from_the_workers(sent: list[int], cluster: str) -> None:
    done: list[int] = []
    found = list(run_batch(square, range(200), Where(scheduler=cluster), done.append))
    assert found == [n * n for n in range(200)]
    assert done == sorted(done) and done[-1] == 200
    assert sent == [199]


def test_an_error_on_a_worker_is_the_same_error_here(sent: list[int], cluster: str) -> None:
    with pytest.raises(DedaleError) as raised:
        list(run_batch(refuse, range(10), Where(scheduler=cluster)))
    assert raised.value.key == "error.count" and raised.value.args_ == {"value": 3, "high": 2}


# --- how chunks travel: a stand-in client, so that any shape of batch can be tried ------------------------------
class InlineClient:
    """What `_on_dask` asks of a Dask client: its workers' threads, and futures (run when their result is
    asked for), counting the chunks in flight."""

    def __init__(self, slots: int) -> None:
        self.slots, self.in_flight, self.most = slots, 0, 0
        self.sizes: list[int] = []  # of the chunks sent

    def nthreads(self) -> dict[str, int]:
        return {f"worker-{n}": 1 for n in range(self.slots)}

    def submit(self, function: Callable[..., Any], work: Any, chunk: Any, pure: bool) -> InlineFuture:
        assert not pure  # two chunks of the same items are two tasks
        self.in_flight += 1
        self.sizes.append(len(chunk))
        self.most = max(self.most, self.in_flight)
        return InlineFuture(self, lambda: function(work, chunk))


class InlineFuture:
    def __init__(self, client: InlineClient, run: Callable[[], Any]) -> None:
        self.client, self.run = client, run

    def result(self) -> Any:
        self.client.in_flight -= 1
        return self.run()

    def cancel(self) -> None:
        self.client.in_flight -= 1


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 400), st.data(), st.integers(1, 8), st.floats(1e-6, 1.0))
def test_chunks_keep_the_order_and_a_bounded_window(total: int, data: st.DataObject, slots: int,
                                                    per_item: float) -> None:
    first = data.draw(st.integers(0, total - 1))
    client, done = InlineClient(slots), [first]
    found = list(batch._on_dask(client, square, range(total), first, per_item, done.append))  # type: ignore[arg-type]
    assert found == [n * n for n in range(first, total)]
    assert done == sorted(set(done)) and done[-1] == total  # progress only grows, up to the whole batch
    assert client.most <= batch.WINDOW * slots and client.in_flight == 0
    # every worker gets its share: no chunk larger than an even split into CHUNKS_PER_WORKER a worker
    assert max(client.sizes) <= -(-(total - first) // (batch.CHUNKS_PER_WORKER * slots))


def test_a_chunk_holds_about_a_quarter_second_of_work_as_timed_here_then_on_the_workers() -> None:
    client = InlineClient(2)
    list(batch._on_dask(client, square, range(100_000), 0, 0.001, None))  # type: ignore[arg-type]
    first = batch.WINDOW * 2
    assert client.sizes[:first] == [round(batch.CHUNK_SECONDS / 0.001)] * first  # from the time per item given
    # then from the workers' own times: squares take far less than 1 ms, so chunks grow to an even share
    assert max(client.sizes[first:]) == 100_000 // (batch.CHUNKS_PER_WORKER * 2)


@given(st.lists(st.integers(-1000, 1000), max_size=50))
def test_in_this_process_a_batch_is_a_map(numbers: list[int]) -> None:
    done: list[int] = []
    assert list(run_batch(square, numbers, progress=done.append)) == [n * n for n in numbers]
    assert done == list(range(1, len(numbers) + 1))


# --- where a batch runs ------------------------------------------------------------------------------------------
def test_a_small_batch_stays_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_cluster(workers: int) -> None:
        raise AssertionError("a small batch started a cluster")

    monkeypatch.setattr(batch, "_local_cluster", no_cluster)
    assert list(run_batch(square, range(1000), Where(workers=2))) == [n * n for n in range(1000)]


def test_a_failed_cluster_start_is_raised_after_the_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    import distributed

    def failure(**_: Any) -> None:
        raise RuntimeError("no processes here")

    monkeypatch.setattr(batch, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(batch, "STARTUP_SECONDS", 0.0)
    monkeypatch.setattr(distributed, "LocalCluster", failure)
    done: list[int] = []
    with pytest.raises(RuntimeError, match="no processes here"):
        for _ in run_batch(slow_square, range(100_000), Where(workers=2), done.append):
            pass
    assert done[-1] == batch.PROBE_ITEMS  # the probe's items, then the start that failed


def test_a_cluster_starts_only_when_the_workers_save_more_than_its_start_up() -> None:
    assert not batch._worth_a_cluster(1000.0, 1)
    assert not batch._worth_a_cluster(2 * batch.STARTUP_SECONDS, 2)  # half of it saved: no more than the start
    assert batch._worth_a_cluster(2 * batch.STARTUP_SECONDS + 0.1, 2)
    assert batch._worth_a_cluster(1.5 * batch.STARTUP_SECONDS, 4)


def test_dask_is_not_loaded_by_a_run_that_does_not_use_it() -> None:
    code = ("import sys; from dedale.cli import main; main(['crawler', '--seed', '1', '--count', '5', '--json']); "
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


@pytest.mark.parametrize("command", [("crawler", "--seed", "1", "--count", "3"),
                                     ("zombstone", "simulate", "--seed", "1", "--games", "3")])
def test_a_scheduler_nobody_runs_is_named(cli, tmp_path: Path, command: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    address = f"tcp://127.0.0.1:{free_port()}"
    code, out, err = cli(*command, "--scheduler", address, "-o", str(tmp_path / "out.json"))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert f"no Dask scheduler answered at {address}" in err and "tcp://HOST:PORT" in err
    assert out == "" and list(tmp_path.iterdir()) == []


def test_workers_running_another_version_are_refused(monkeypatch: pytest.MonkeyPatch, cluster: str) -> None:
    monkeypatch.setattr(batch, "_dedale_version", lambda: "0.0.1")
    with pytest.raises(DedaleError) as raised:
        list(run_batch(square, range(3), Where(scheduler=cluster)))
    assert raised.value.key == "error.scheduler_version" and raised.value.args_["found"] == "0.0.1"


def test_a_scheduler_without_workers_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import LocalCluster

    monkeypatch.setattr(batch, "CONNECT_SECONDS", 0.5)
    with LocalCluster(n_workers=0, processes=False, protocol="tcp://", dashboard_address=None,
                      scheduler_kwargs=batch.QUIET_HTTP) as empty, \
            pytest.raises(DedaleError) as raised:
        list(run_batch(square, range(3), Where(scheduler=empty.scheduler_address)))
    assert raised.value.key == "error.scheduler_no_workers"

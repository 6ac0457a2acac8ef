"""The SQLite store: sessions as seed, parameters and appended events; state rebuilt by replay."""

from __future__ import annotations

import sqlite3
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from dedale.core.errors import DedaleError
from dedale.core.session import Session
from dedale.crawler.session import CrawlerRules
from dedale.web.service import build
from dedale.web.store import Sessions, Store


@pytest.fixture
def sessions(tmp_path: Path) -> Sessions:
    return Sessions(Store(tmp_path / "s.db"), build, cache_size=2)


def _new(sessions: Sessions, seed: int = 5) -> str:
    session = Session(CrawlerRules, CrawlerRules.params_from_json({}), seed)
    return sessions.add(session, f"crawler {seed}")


def test_the_file_is_in_wal_mode(tmp_path: Path) -> None:
    Store(tmp_path / "s.db")
    assert sqlite3.connect(tmp_path / "s.db").execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_step_is_one_appended_event_and_a_replay_gives_the_same_session(sessions: Sessions) -> None:
    session_id = _new(sessions)
    for _ in range(6):
        with sessions.changing(session_id) as session:
            session.step(session.choices()[-1].id)
    record, events = sessions.store.get(session_id)
    assert record.steps == len(events) == 6 and record.seed == 5
    sessions.forget(session_id)
    replayed = sessions.get(session_id)
    assert replayed.events == events
    assert replayed.to_json() == sessions.build(record, events).to_json()


def test_an_undo_truncates_the_stored_events(sessions: Sessions) -> None:
    session_id = _new(sessions)
    for _ in range(3):
        with sessions.changing(session_id) as session:
            session.step(session.choices()[0].id)
    with sessions.changing(session_id) as session:
        session.undo()
    assert len(sessions.store.get(session_id)[1]) == 2


def test_a_refused_choice_changes_nothing(sessions: Sessions) -> None:
    session_id = _new(sessions)
    with pytest.raises(DedaleError), sessions.changing(session_id) as session:
        session.step("no-such-choice")
    assert sessions.store.get(session_id)[1] == [] and sessions.get(session_id).events == []


def test_a_failure_mid_change_drops_the_cached_session(sessions: Sessions) -> None:
    """What was not committed is not kept in memory either: the next read replays what was."""
    session_id = _new(sessions)
    with pytest.raises(RuntimeError), sessions.changing(session_id) as session:
        session.step(session.choices()[0].id)
        raise RuntimeError("the disk is gone")
    assert sessions.get(session_id).events == [] and sessions.store.get(session_id)[1] == []


def test_the_cache_is_bounded_and_evicted_sessions_come_back_by_replay(sessions: Sessions) -> None:
    ids = [_new(sessions, seed) for seed in range(4)]
    assert len(sessions.cache) == 2
    assert all(sessions.get(i).seed == seed for seed, i in enumerate(ids))


def test_list_rename_and_delete(sessions: Sessions) -> None:
    first, second = _new(sessions, 1), _new(sessions, 2)
    sessions.store.rename(first, "The pit")
    listed = {r.id: r for r in sessions.store.list()}
    assert listed[first].name == "The pit" and listed[second].name == "crawler 2"
    sessions.store.delete(second)
    assert [r.id for r in sessions.store.list()] == [first]
    with pytest.raises(DedaleError) as raised:
        sessions.store.get(second)
    assert raised.value.key == "error.no_session"
    with pytest.raises(DedaleError):
        sessions.store.rename(second, "x")
    with pytest.raises(DedaleError):
        sessions.store.delete(second)


def test_deleting_a_session_deletes_its_events(sessions: Sessions, tmp_path: Path) -> None:
    session_id = _new(sessions)
    with sessions.changing(session_id) as session:
        session.step(session.choices()[0].id)
    sessions.store.delete(session_id)
    assert sqlite3.connect(tmp_path / "s.db").execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0


def test_seeds_up_to_two_to_the_64_are_kept(sessions: Sessions) -> None:
    session = Session(CrawlerRules, CrawlerRules.params_from_json({}), 2**64 - 1)
    session_id = sessions.add(session, "big")
    assert sessions.store.get(session_id)[0].seed == 2**64 - 1


def test_a_reopened_file_has_every_session(tmp_path: Path) -> None:
    first = Sessions(Store(tmp_path / "s.db"), build)
    session_id = _new(first)
    with first.changing(session_id) as session:
        session.step(session.choices()[0].id)
        expected = session.to_json()
    first.store.close()
    again = Sessions(Store(tmp_path / "s.db"), build)
    assert again.get(session_id).to_json() == expected


def test_concurrent_steps_on_one_session_are_serialised(sessions: Sessions) -> None:
    """Two clicks at once on the same session: each applies to the state the other left, none is lost."""
    session_id = _new(sessions)
    errors: list[Exception] = []

    def click() -> None:
        for _ in range(5):
            try:
                with sessions.changing(session_id) as session:
                    if not session.is_over:
                        session.step(session.choices()[0].id)
            except Exception as exc:  # a lost race would show here
                errors.append(exc)

    threads = [threading.Thread(target=click) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stored = sessions.store.get(session_id)[1]
    assert not errors and stored == sessions.get(session_id).events
    sessions.forget(session_id)
    assert sessions.get(session_id).events == stored


def test_the_cache_holds_about_so_many_entries_and_keeps_the_newest(tmp_path: Path) -> None:
    """Bounded by what sessions hold (events and log entries), not only by their number: a long session takes
    the room of many short ones."""
    sessions = Sessions(Store(tmp_path / "s.db"), build, cache_size=100, cache_entries=60)
    ids = [_new(sessions, seed) for seed in range(5)]  # a new crawl holds a few log entries
    with sessions.changing(ids[-1]) as session:
        session.run_autopilot()  # dozens of entries: the others make way
    kept = sum(1 + len(s.session.events) + len(s.session.log) for s in sessions.cache.values())
    assert list(sessions.cache)[-1] == ids[-1] and len(sessions.cache) < 5
    assert kept <= 60 or len(sessions.cache) == 1
    assert all(sessions.get(i).seed == seed for seed, i in enumerate(ids))  # the others come back by replay


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 1), st.sampled_from(["step", "step", "step", "undo", "look"]),
                          st.integers(0, 7)), min_size=1, max_size=25))
def test_sessions_in_memory_always_follow_the_file(tmp_path: Path, moves: list[tuple[int, str, int]]) -> None:
    """Two writers on one file, each with its own sessions in memory (as a step written behind a server's
    back), stepping and undoing one session in any order: each always acts on the file's latest state (a copy
    at another revision is replayed), so what each sees is what a replay of the file gives."""
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    store = Store(folder / "s.db")
    writers = [Sessions(store, build) for _ in range(2)]
    session_id = _new(writers[0], 3)
    for writer, move, pick in moves:
        with writers[writer].changing(session_id) as session:
            if move == "step" and not session.is_over:
                session.step(session.choices()[pick % len(session.choices())].id)
            elif move == "undo" and session.events:
                session.undo()
        record, events = store.get(session_id)
        replayed = build(record, events).to_json()
        assert writers[writer].get(session_id).to_json() == replayed
        assert writers[1 - writer].get(session_id).to_json() == replayed

"""Sessions kept in SQLite (WAL): a session is its system, seed, parameters and events, appended one
transaction a step; its state is rebuilt by replaying them (and kept in memory while in use).

A process killed at any moment loses no completed step: a step completes when its event is committed,
and a committed WAL transaction survives the process (`synchronous=NORMAL` trades only the last steps
before a power cut for speed).
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dedale.core.errors import DedaleError
from dedale.core.session import Event, Session
from dedale.i18n import word

# Windows has no advisory lock, but the appends' checks still refuse a second writer's steps
LOCKS = sys.platform != "win32"
if LOCKS:
    import fcntl

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    system TEXT NOT NULL,
    name TEXT NOT NULL,
    seed TEXT NOT NULL,            -- up to 2^64 - 1: more than SQLite's signed integers hold
    params TEXT NOT NULL,          -- JSON
    table_dice INTEGER NOT NULL,
    lang TEXT NOT NULL,            -- unused: sessions have no language (kept so that older files still open)
    created REAL NOT NULL,
    updated REAL NOT NULL          -- and ADDED's columns
);
CREATE TABLE IF NOT EXISTS events (
    session TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,           -- JSON
    PRIMARY KEY (session, seq)
);
CREATE TABLE IF NOT EXISTS seats (
    session TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,         -- 0, 1: a player's; -1: a spectator's (sees, never chooses)
    token TEXT NOT NULL PRIMARY KEY  -- the SHA-256 of the link's token: the token itself is never kept
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,          -- "secret": the key the web app signs its form tokens with
    value TEXT NOT NULL
);
"""

COLUMNS = "id, system, name, seed, params, table_dice, created, updated, over, hides, seating"
WITH_STEPS = f"SELECT {COLUMNS}, (SELECT COUNT(*) FROM events e WHERE e.session = s.id) FROM sessions s"
# Columns added since the first files, to a new file as to an old one: whether the session has ended, and
# whether something is hidden from its player (its seed is then not shown in lists).
ADDED = {"over": "INTEGER NOT NULL DEFAULT 0", "hides": "INTEGER NOT NULL DEFAULT 0",
         "seating": "TEXT NOT NULL DEFAULT 'solo'"}  # solo, hot-seat (one screen) or linked (seat links)


@dataclass
class Record:
    id: str
    system: str
    name: str
    seed: int
    params: dict[str, Any]
    table_dice: bool
    created: float
    updated: float
    over: bool = False
    hides: bool = False
    seating: str = "solo"
    steps: int = 0


class Store:
    """The SQLite file. One connection, used under a lock (SQLite serialises writers anyway).

    With `exclusive` (a server's store), the process holds the file alone: an advisory lock that a second
    server on the same file meets, and refuses to start. Whatever the lock, an append or an undo first
    checks that the session has the events the caller saw (two writers would otherwise interleave them).
    """

    def __init__(self, path: Path | str, exclusive: bool = True) -> None:
        self.path = Path(path)
        self.exclusive = exclusive
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._holder: int | None = None
        self.open()

    def open(self) -> None:
        """Open the file (and take its lock), unless it is open: a store may be closed and opened again, as an
        app is stopped and started (a test client does it at every request)."""
        with self._lock:
            if self._db is not None:
                return
            self._holder = _hold(self.path, self.exclusive)
            try:
                db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("PRAGMA foreign_keys=ON")
                db.executescript(SCHEMA)
                present = {row[1] for row in db.execute("PRAGMA table_info(sessions)")}
                for column, kind in ADDED.items():
                    if column not in present:
                        db.execute(f"ALTER TABLE sessions ADD COLUMN {column} {kind}")
            except sqlite3.Error as exc:
                self._release()
                problem = word("error.db_not_sqlite") if "not a database" in str(exc) else str(exc)
                raise DedaleError("error.db", path=str(self.path), problem=problem) from None
            self._db = db

    @property
    def db(self) -> sqlite3.Connection:
        assert self._db is not None, "the store is closed"
        return self._db

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def create(self, system: str, seed: int, params: dict[str, Any], table_dice: bool,
               name: str, events: Sequence[Event] = (), over: bool = False,
               hides: bool = False, seating: str = "solo") -> str:
        session_id = secrets.token_urlsafe(9)
        now = time.time()
        with self._transaction() as db:
            db.execute(f"INSERT INTO sessions ({COLUMNS}, lang) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '')",
                       (session_id, system, name, str(seed), json.dumps(params), int(table_dice), now, now,
                        int(over), int(hides), seating))
            db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                           [(session_id, i, json.dumps(e)) for i, e in enumerate(events)])
        return session_id

    def append(self, session_id: str, first: int, events: list[Event], over: bool = False,
               hides: bool = False) -> None:
        """Record events `first`, `first + 1`, ... in one transaction (the session must have `first`), and
        whether the session is now over and hides something from its player."""
        with self._transaction() as db:
            self._expect(db, session_id, first)
            db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                           [(session_id, first + i, json.dumps(e)) for i, e in enumerate(events)])
            self._changed(db, session_id, over, hides)

    def truncate(self, session_id: str, keep: int, had: int, over: bool = False, hides: bool = False) -> None:
        """Forget events from number `keep` on (undo), the session having had `had` of them."""
        with self._transaction() as db:
            self._expect(db, session_id, had)
            db.execute("DELETE FROM events WHERE session = ? AND seq >= ?", (session_id, keep))
            self._changed(db, session_id, over, hides)

    @staticmethod
    def _changed(db: sqlite3.Connection, session_id: str, over: bool, hides: bool) -> None:
        db.execute("UPDATE sessions SET updated = ?, over = ?, hides = ? WHERE id = ?",
                   (time.time(), int(over), int(hides), session_id))

    @staticmethod
    def _expect(db: sqlite3.Connection, session_id: str, events: int) -> None:
        """The session exists and has `events` events, or it changed since it was read (409). Events are
        numbered from 0 without gaps: the last number says how many there are, read from the key's index."""
        last = db.execute("SELECT MAX(seq) FROM events WHERE session = ?", (session_id,)).fetchone()[0]
        found = 0 if last is None else last + 1
        if found != events:
            if db.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is None:
                raise DedaleError("error.no_session", value=session_id)
            raise DedaleError("error.conflict", value=session_id, expected=events, found=found)

    def add_seat(self, session_id: str, seat: int) -> str:
        """A new link's token for `seat` of the session (-1: a spectator's), at least 128 random bits; only
        its hash is kept, so the token is shown once, to whoever asked for the link."""
        token = secrets.token_urlsafe(24)
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is None:
                raise DedaleError("error.no_session", value=session_id)
            db.execute("INSERT INTO seats VALUES (?, ?, ?)", (session_id, seat, _digest(token)))
        return token

    def seating(self, session_id: str) -> str:
        """Who plays the session (solo, hot-seat, linked): asked at every request, so one indexed lookup."""
        with self._lock:
            row = self.db.execute("SELECT seating FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            raise DedaleError("error.no_session", value=session_id)
        return str(row[0])

    def set_seating(self, session_id: str, seating: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE sessions SET seating = ? WHERE id = ?", (seating, session_id))

    def seat_of(self, session_id: str, token: str) -> int | None:
        """The seat a token opens in this session, or None."""
        with self._lock:
            row = self.db.execute("SELECT seat FROM seats WHERE session = ? AND token = ?",
                                  (session_id, _digest(token))).fetchone()
        return None if row is None else int(row[0])

    def version(self, session_id: str) -> tuple[int, float]:
        """How many events the session has and when it last changed: what a live page watches."""
        with self._lock:
            # the last event's number from the key's index: no count of the events, ten times a second
            row = self.db.execute("SELECT (SELECT MAX(seq) FROM events WHERE session = s.id), updated "
                                  "FROM sessions s WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            raise DedaleError("error.no_session", value=session_id)
        return 0 if row[0] is None else int(row[0]) + 1, float(row[1])

    def secret(self) -> bytes:
        """This file's secret key (made once, kept in the file): what the web app signs its form tokens
        with, so that tokens outlive a restart of the server."""
        with self._transaction() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()
            if row is None:
                row = (secrets.token_hex(32),)
                db.execute("INSERT INTO meta VALUES ('secret', ?)", row)
        return bytes.fromhex(row[0])

    def get(self, session_id: str) -> tuple[Record, list[Event]]:
        with self._lock:
            row = self.db.execute(f"SELECT {COLUMNS} FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None:
                raise DedaleError("error.no_session", value=session_id)
            events = [json.loads(e) for (e,) in self.db.execute(
                "SELECT event FROM events WHERE session = ? ORDER BY seq", (session_id,))]
        return _record(row, len(events)), events

    def record(self, session_id: str) -> Record:
        """A session's name, seed, parameters and number of steps, without its events."""
        with self._lock:
            row = self.db.execute(f"{WITH_STEPS} WHERE s.id = ?", (session_id,)).fetchone()
        if row is None:
            raise DedaleError("error.no_session", value=session_id)
        return _record(row[:-1], row[-1])

    def list(self) -> list[Record]:
        with self._lock:
            rows = self.db.execute(f"{WITH_STEPS} ORDER BY updated DESC").fetchall()
        return [_record(row[:-1], row[-1]) for row in rows]

    def rename(self, session_id: str, name: str) -> None:
        with self._transaction() as db:
            if db.execute("UPDATE sessions SET name = ? WHERE id = ?", (name, session_id)).rowcount == 0:
                raise DedaleError("error.no_session", value=session_id)

    def delete(self, session_id: str) -> None:
        with self._transaction() as db:
            if db.execute("DELETE FROM sessions WHERE id = ?", (session_id,)).rowcount == 0:
                raise DedaleError("error.no_session", value=session_id)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
            self._release()

    def _release(self) -> None:
        if self._holder is not None:
            os.close(self._holder)  # only once SQLite's connection is closed: closing drops its locks too
            self._holder = None


def _digest(token: str) -> str:
    import hashlib

    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _record(row: tuple[Any, ...], steps: int) -> Record:
    return Record(row[0], row[1], row[2], int(row[3]), json.loads(row[4]), bool(row[5]), row[6], row[7],
                  bool(row[8]), bool(row[9]), str(row[10]), steps)


class Sessions:
    """The store with live sessions kept in memory (rebuilt by replay when not), one lock a session."""

    def __init__(self, store: Store, build: Any, cache_size: int = 256) -> None:
        self.store = store
        self.build = build  # (record, events) -> Session: the system's replay
        self.cache: OrderedDict[str, Session] = OrderedDict()
        self.cache_size = cache_size
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def lock(self, session_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(session_id, threading.Lock())

    def get(self, session_id: str) -> Session:
        with self._guard:
            session = self.cache.get(session_id)
            if session is not None:
                self.cache.move_to_end(session_id)
                return session
        record, events = self.store.get(session_id)
        session = self.build(record, events)
        self._keep(session_id, session)
        return session

    def _keep(self, session_id: str, session: Session) -> None:
        with self._guard:
            self.cache[session_id] = session
            self.cache.move_to_end(session_id)
            while len(self.cache) > self.cache_size:
                self.cache.popitem(last=False)

    def forget(self, session_id: str) -> None:
        with self._guard:
            self.cache.pop(session_id, None)

    def add(self, session: Session, name: str, seating: str = "solo") -> str:
        session_id = self.store.create(session.system, session.seed, session.params.to_json(), session.table,
                                       name, session.events, session.is_over, session.hides(), seating)
        self._keep(session_id, session)
        return session_id

    @contextmanager
    def changing(self, session_id: str) -> Iterator[Session]:
        """Change a session under its lock; its new events are committed at the end, or, if anything
        fails, the session is dropped from memory (to be rebuilt from what was committed)."""
        with self.lock(session_id):
            session = self.get(session_id)
            before = len(session.events)
            try:
                yield session
                if len(session.events) < before:  # an undo
                    self.store.truncate(session_id, len(session.events), before, session.is_over, session.hides())
                elif len(session.events) > before:
                    self.store.append(session_id, before, session.events[before:], session.is_over,
                                      session.hides())
            except DedaleError:  # refused (an illegal choice): the session is as it was
                if len(session.events) != before:
                    self.forget(session_id)
                raise
            except BaseException:
                self.forget(session_id)
                raise


def _hold(path: Path, exclusive: bool) -> int | None:
    """Check that `path` can be the sessions' file (made if need be); with `exclusive`, take its advisory
    lock and keep the file open (the lock lasts while it is open), or say that another server holds it."""
    if os.path.isdir(path):
        raise DedaleError("error.db", path=str(path), problem=word("error.db_folder"))
    if os.path.lexists(path.parent) and not os.path.isdir(path.parent):
        raise DedaleError("error.db", path=str(path), problem=word("error.db_parent"))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not exclusive or not LOCKS:
            return None
        holder = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise DedaleError("error.db", path=str(path), problem=exc.strerror or str(exc)) from None
    try:  # flock, not fcntl: SQLite's own locks are fcntl locks on the same file, and the two do not meet
        fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(holder)
        raise DedaleError("error.db_in_use", path=str(path)) from None
    return holder

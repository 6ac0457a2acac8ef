"""Sessions kept in SQLite (WAL): a session is its system, seed, parameters and events, appended one
transaction a step; its state is rebuilt by replaying them (and kept in memory while in use).

A process killed at any moment loses no completed step: a step completes when its event is committed,
and a committed WAL transaction survives the process (`synchronous=NORMAL` trades only the last steps
before a power cut for speed).

One server a file: it holds the file's advisory lock, and a second server on the same file refuses to
start. Each change to a session's events bumps its `revision`, and a change is committed only if the session
is still at the revision it was made from (compare and set): a step written behind the server's back (a
hand-made edit, a second server where there is no advisory lock) is a 409, never a lost step. A session kept
in memory is used only while its revision is the file's.
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
from dataclasses import dataclass, field
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
CREATE TABLE IF NOT EXISTS owners (
    session TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    digest TEXT NOT NULL,          -- the SHA-256 of an owner's token, or of a browser's ring (`seats.py`; saved
                                   -- before rings: of a browser's id), never the secret itself
    PRIMARY KEY (session, digest)
);
CREATE INDEX IF NOT EXISTS owners_by_digest ON owners(digest);
CREATE TABLE IF NOT EXISTS held (
    ring TEXT NOT NULL,            -- the SHA-256 of a browser's ring (`seats.py`)
    session TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,         -- the seat a link opened for that browser (as `seats`' seat)
    PRIMARY KEY (ring, session, seat)
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,          -- "secret": the key the web app signs its form tokens with
    value TEXT NOT NULL
);
"""

COLUMNS = "id, system, name, seed, params, table_dice, created, updated, over, hides, seating, secret, chosen, waiting"
# A record as read: whether the session is archived, not its document (which may be megabytes: `Store.get` reads it)
READ = f"{COLUMNS}, document IS NOT NULL"
WITH_STEPS = (f"SELECT {READ}, COALESCE(s.made, (SELECT COUNT(*) FROM events e WHERE e.session = s.id)) "
              "FROM sessions s")
# Columns added since the first files, to a new file as to an old one: whether the session has ended, and
# whether something is hidden from its player (its seed is then not shown in lists); who plays it; how many
# times its events changed; the secret key of a session saved before seeds were long, in hexadecimal
# (`Session.secret`: NULL without one); whether its seed was chosen (typed, or given by a permalink or a file:
# whoever knows it can remake everything); whether it waits for its second seat before anything is dealt; the
# document of an archived session (`Session.opened`: saved by an earlier version, kept as it was, never
# replayed); the choices made in it as its players count them (`Session.made`: its events but the AIs' own; NULL
# in a session saved before, whose events were all the players'). (Files of earlier versions may also have an
# unused `undone` column.)
ADDED = {"over": "INTEGER NOT NULL DEFAULT 0", "hides": "INTEGER NOT NULL DEFAULT 0",
         "seating": "TEXT NOT NULL DEFAULT 'solo'",  # solo, hot-seat (one screen) or linked (seat links)
         "revision": "INTEGER NOT NULL DEFAULT 0", "secret": "TEXT", "chosen": "INTEGER NOT NULL DEFAULT 0",
         "waiting": "INTEGER NOT NULL DEFAULT 0", "document": "TEXT", "made": "INTEGER"}
# A linked session of a file written before sessions had owners is owned by its first seat-0 token: the
# creator's, whether the game was made linked or shared later (either way the creator's seat came first).
# Only such sessions are linked and ownerless, so this is done at every opening (an older server may have
# written some since).
OLD_OWNERS = """
INSERT INTO owners SELECT seats.session, seats.token FROM seats JOIN sessions ON sessions.id = seats.session
WHERE seats.rowid IN (SELECT MIN(rowid) FROM seats WHERE seat = 0 GROUP BY session)
  AND sessions.seating = 'linked' AND NOT EXISTS (SELECT 1 FROM owners WHERE owners.session = seats.session)
"""
BUSY_SECONDS = 10.0  # how long a write waits for another process's write to finish


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
    steps: int = 0  # the choices made in it, as its players count them
    revision: int = 0  # that of the events read with it (`Store.get`)
    secret: bytes | None = field(default=None, repr=False)  # never shown: it gives away what the rules hide
    chosen: bool = False  # its seed was chosen: it keeps no secret from whoever knows it
    waiting: bool = False  # a game for two browsers whose second seat has not joined: nothing is dealt yet
    archived: bool = False  # kept as an earlier version saved it (`Session.opened`), never played on
    document: str | None = field(default=None, repr=False)  # that document (JSON), read with its events alone


@dataclass(frozen=True)
class Version:
    """Where a session's events stand: how many there are, and how many changes they went through."""

    events: int
    revision: int


class Store:
    """The SQLite file, through two connections: one writes, a transaction at a time under a lock (SQLite
    serialises writers anyway, those of other processes too), the other reads (in WAL mode a read never
    waits for a write, so pages go on being read while a step is committed).

    The process holds the file alone: an advisory lock that a second server on the same file meets, and
    refuses to start. Whatever the lock, an append or an undo first checks that the session has the events
    and the revision the caller saw (two writers would otherwise interleave them, or both change one state).
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()  # the writing connection's
        self._read_lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None
        self._holder: int | None = None
        self.open()

    def open(self) -> None:
        """Open the file (and take its lock), unless it is open: a store may be closed and opened again, as an
        app is stopped and started (a test client does it at every request)."""
        with self._lock, self._read_lock:
            if self._db is not None:
                return
            self._holder = _hold(self.path)
            try:
                db = _connect(self.path)
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(SCHEMA)
                present = {row[1] for row in db.execute("PRAGMA table_info(sessions)")}
                for column, kind in ADDED.items():
                    if column not in present:
                        db.execute(f"ALTER TABLE sessions ADD COLUMN {column} {kind}")
                db.execute(OLD_OWNERS)
                reader = _connect(self.path)
                reader.execute("PRAGMA query_only=ON")
            except sqlite3.Error as exc:
                self._release()
                problem = word("error.db_not_sqlite") if "not a database" in str(exc) else str(exc)
                raise DedaleError("error.db", path=str(self.path), problem=problem) from None
            self._db, self._reader = db, reader

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

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The reading connection, in one snapshot of the file for what is read meanwhile."""
        with self._read_lock:
            assert self._reader is not None, "the store is closed"
            self._reader.execute("BEGIN")
            try:
                yield self._reader
            finally:
                self._reader.execute("COMMIT")

    def _read_one(self, query: str, args: tuple[Any, ...]) -> Any:
        with self._read_lock:
            assert self._reader is not None, "the store is closed"
            return self._reader.execute(query, args).fetchone()

    def create(self, system: str, seed: int, params: dict[str, Any], table_dice: bool,
               name: str, events: Sequence[Event] = (), over: bool = False,
               hides: bool = False, seating: str = "solo", owners: Sequence[str] = (),
               secret: bytes | None = None, chosen: bool = False, waiting: bool = False,
               document: dict[str, Any] | None = None, made: int = 0) -> str:
        """A new session, owned by whoever holds one of the `owners` secrets (a token, a browser's ring)."""
        session_id = secrets.token_urlsafe(9)
        now = time.time()
        with self._transaction() as db:
            db.execute(f"INSERT INTO sessions ({COLUMNS}, document, made, lang) VALUES ({', '.join('?' * 16)}, '')",
                       (session_id, system, name, str(seed), json.dumps(params), int(table_dice), now, now,
                        int(over), int(hides), seating, None if secret is None else secret.hex(), int(chosen),
                        int(waiting), None if document is None else json.dumps(document), made))
            db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                           [(session_id, i, json.dumps(e)) for i, e in enumerate(events)])
            db.executemany("INSERT INTO owners VALUES (?, ?)", [(session_id, _digest(o)) for o in set(owners)])
        return session_id

    def rewrite(self, session_id: str, keep: int, had: int, events: Sequence[Event], over: bool = False,
                hides: bool = False, revision: int | None = None, made: int | None = None) -> int:
        """In one transaction, the session having had `had` events (at `revision`, when one is given): forget
        those from number `keep` on, and record `events` from there (an undo forgets, a step appends, a
        decision that waited for its dice is recorded again once made), and how many choices it now has made
        (`made`: None, as many as it has events); its new revision."""
        with self._transaction() as db:
            now = self._expect(db, session_id, had, revision) + 1
            db.execute("DELETE FROM events WHERE session = ? AND seq >= ?", (session_id, keep))
            db.executemany("INSERT INTO events VALUES (?, ?, ?)",
                           [(session_id, keep + i, json.dumps(e)) for i, e in enumerate(events)])
            return self._changed(db, session_id, over, hides, now, made)

    @staticmethod
    def _changed(db: sqlite3.Connection, session_id: str, over: bool, hides: bool, revision: int,
                 made: int | None = None) -> int:
        db.execute("UPDATE sessions SET updated = ?, over = ?, hides = ?, revision = ?, made = ? WHERE id = ?",
                   (time.time(), int(over), int(hides), revision, made, session_id))
        return revision

    @staticmethod
    def _expect(db: sqlite3.Connection, session_id: str, events: int, revision: int | None) -> int:
        """The session exists, has `events` events and is at `revision` (its revision now), or it changed
        since it was read (409). Events are numbered from 0 without gaps: the last number says how many there
        are, read from the key's index."""
        row = db.execute("SELECT (SELECT MAX(seq) FROM events WHERE session = s.id), revision FROM sessions s "
                         "WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            raise DedaleError("error.no_session", value=session_id)
        found = 0 if row[0] is None else row[0] + 1
        if found != events:
            raise DedaleError("error.conflict", value=session_id, expected=events, found=found)
        if revision is not None and row[1] != revision:  # changed behind this server's back since it was read
            raise DedaleError("error.raced", value=session_id)
        return int(row[1])

    def add_seat(self, session_id: str, seat: int) -> str:
        """A new link's token for `seat` of the session (-1: a spectator's), at least 128 random bits; only
        its hash is kept, so the token is shown once, to whoever asked for the link."""
        token = new_token()
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is None:
                raise DedaleError("error.no_session", value=session_id)
            db.execute("INSERT INTO seats VALUES (?, ?, ?)", (session_id, seat, _digest(token)))
        return token

    def add_owner(self, session_id: str, secret: str) -> None:
        """One more secret that owns the session (a browser's id, a token): only its hash is kept."""
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is None:
                raise DedaleError("error.no_session", value=session_id)
            db.execute("INSERT OR IGNORE INTO owners VALUES (?, ?)", (session_id, _digest(secret)))

    def hold(self, ring: str, session_id: str, seat: int) -> None:
        """A browser's ring holds a seat of the session (a link it opened): only the ring's hash is kept."""
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is None:
                raise DedaleError("error.no_session", value=session_id)
            db.execute("INSERT OR IGNORE INTO held VALUES (?, ?, ?)", (_digest(ring), session_id, seat))

    def held_seats(self, session_id: str, rings: Sequence[str]) -> list[int]:
        """The seats these rings hold in the session."""
        digests = [_digest(ring) for ring in rings]
        with self._read_lock:
            assert self._reader is not None, "the store is closed"
            rows = self._reader.execute(f"SELECT seat FROM held WHERE session = ? AND ring IN "
                                        f"({', '.join('?' * len(digests))})", (session_id, *digests)).fetchall()
        return [int(row[0]) for row in rows]

    def holding(self, rings: Sequence[str]) -> set[str]:
        """The sessions where these rings hold a seat."""
        digests = [_digest(ring) for ring in rings]
        with self._read_lock:
            assert self._reader is not None, "the store is closed"
            rows = self._reader.execute(f"SELECT DISTINCT session FROM held WHERE ring IN "
                                        f"({', '.join('?' * len(digests))})", digests).fetchall()
        return {str(row[0]) for row in rows}

    def rekey(self, olds: Sequence[str], new: str) -> None:
        """Whatever the `olds` secrets (a browser's earlier rings, its id of before rings) own or hold is the
        `new` ring's, and no longer theirs: one ring a browser, minted anew whenever it gains a game."""
        digests, digest = [_digest(old) for old in olds], _digest(new)
        if not digests:
            return
        marks = ", ".join("?" * len(digests))
        with self._transaction() as db:
            db.execute(f"INSERT OR IGNORE INTO owners SELECT session, ? FROM owners WHERE digest IN ({marks})",
                       (digest, *digests))
            db.execute(f"DELETE FROM owners WHERE digest IN ({marks})", digests)
            db.execute(f"INSERT OR IGNORE INTO held SELECT ?, session, seat FROM held WHERE ring IN ({marks})",
                       (digest, *digests))
            db.execute(f"DELETE FROM held WHERE ring IN ({marks})", digests)

    def owns_any(self, secret: str) -> bool:
        """Whether the secret owns any session (a browser's id of before rings, to move to its ring)."""
        return self._read_one("SELECT 1 FROM owners WHERE digest = ? LIMIT 1", (_digest(secret),)) is not None

    def set_seated(self, session_id: str) -> None:
        """The second seat has joined: the game may be dealt (a change its pages, following it, see)."""
        with self._transaction() as db:
            db.execute("UPDATE sessions SET waiting = 0, revision = revision + 1, updated = ? WHERE id = ?",
                       (time.time(), session_id))

    def owns(self, session_id: str, secrets_held: Sequence[str]) -> bool | None:
        """Whether one of these secrets owns the session; None when it has no owner (saved before owners)."""
        digests = [_digest(s) for s in secrets_held]
        row = self._read_one(f"SELECT (SELECT MAX(digest IN ({', '.join('?' * len(digests))})) FROM owners "
                             "WHERE session = s.id) FROM sessions s WHERE id = ?", (*digests, session_id))
        if row is None:
            raise DedaleError("error.no_session", value=session_id)
        return None if row[0] is None else bool(row[0])

    def owned(self, secrets_held: Sequence[str]) -> dict[str, bool]:
        """Every session that has an owner, and whether one of these secrets is one of them (a session left
        out has none)."""
        digests = [_digest(s) for s in secrets_held]
        with self._read_lock:
            assert self._reader is not None, "the store is closed"
            rows = self._reader.execute(f"SELECT session, MAX(digest IN ({', '.join('?' * len(digests))}))"
                                        " FROM owners GROUP BY session", digests).fetchall()
        return {session: bool(mine) for session, mine in rows}

    def seating(self, session_id: str) -> str:
        """Who plays the session (solo, hot-seat, linked): asked at every request, so one indexed lookup."""
        row = self._read_one("SELECT seating FROM sessions WHERE id = ?", (session_id,))
        if row is None:
            raise DedaleError("error.no_session", value=session_id)
        return str(row[0])

    def set_seating(self, session_id: str, seating: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE sessions SET seating = ? WHERE id = ?", (seating, session_id))

    def seat_of(self, session_id: str, token: str) -> int | None:
        """The seat a token opens in this session, or None."""
        row = self._read_one("SELECT seat FROM seats WHERE session = ? AND token = ?", (session_id, _digest(token)))
        return None if row is None else int(row[0])

    def version(self, session_id: str) -> Version:
        """Where the session's events stand: what a live page watches, and what a session kept in memory is
        checked against (the last event's number from the key's index: no count of the events)."""
        row = self._read_one("SELECT (SELECT MAX(seq) FROM events WHERE session = s.id), revision "
                             "FROM sessions s WHERE id = ?", (session_id,))
        if row is None:
            raise DedaleError("error.no_session", value=session_id)
        return Version(0 if row[0] is None else int(row[0]) + 1, int(row[1]))

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
        """A session's record and events, read together (its `revision` is that of those events)."""
        with self._reading() as db:
            row = db.execute(f"SELECT {READ}, revision, document FROM sessions WHERE id = ?",
                             (session_id,)).fetchone()
            if row is None:
                raise DedaleError("error.no_session", value=session_id)
            events = [json.loads(e) for (e,) in db.execute(
                "SELECT event FROM events WHERE session = ? ORDER BY seq", (session_id,))]
        return _record(row[:-2], len(events), row[-2], row[-1]), events

    def record(self, session_id: str) -> Record:
        """A session's name, seed, parameters and number of steps, without its events."""
        row = self._read_one(f"{WITH_STEPS} WHERE s.id = ?", (session_id,))
        if row is None:
            raise DedaleError("error.no_session", value=session_id)
        return _record(row[:-1], row[-1])

    def saved_before_events(self) -> list[str]:
        """The sessions saved before every decision was an event (no count of the choices made in them), but
        those kept as saved (archived) and those waiting for their second seat."""
        with self._read_lock:
            assert self._reader is not None, "the store is closed"
            rows = self._reader.execute("SELECT id FROM sessions WHERE made IS NULL AND document IS NULL "
                                        "AND waiting = 0").fetchall()
        return [str(row[0]) for row in rows]

    def set_made(self, session_id: str, made: int) -> None:
        with self._transaction() as db:
            db.execute("UPDATE sessions SET made = ? WHERE id = ?", (made, session_id))

    def list(self) -> list[Record]:
        with self._read_lock:
            assert self._reader is not None, "the store is closed"
            rows = self._reader.execute(f"{WITH_STEPS} ORDER BY updated DESC").fetchall()
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
        with self._lock, self._read_lock:
            for connection in (self._reader, self._db):
                if connection is not None:
                    connection.close()
            self._db = self._reader = None
            self._release()

    def _release(self) -> None:
        if self._holder is not None:
            os.close(self._holder)  # only once SQLite's connection is closed: closing drops its locks too
            self._holder = None


def new_token() -> str:
    """A link's or an owner's token: 192 random bits."""
    return secrets.token_urlsafe(24)


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=BUSY_SECONDS)
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA foreign_keys=ON")
    return db


def _digest(token: str) -> str:
    import hashlib

    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _record(row: tuple[Any, ...], steps: int, revision: int = 0, document: str | None = None) -> Record:
    return Record(row[0], row[1], row[2], int(row[3]), json.loads(row[4]), bool(row[5]), row[6], row[7],
                  bool(row[8]), bool(row[9]), str(row[10]), steps, revision,
                  None if row[11] is None else bytes.fromhex(row[11]), bool(row[12]), bool(row[13]), bool(row[14]),
                  document)


@dataclass
class _Lock:
    """A session's lock, and how many threads hold it or wait for it (a thread holding it again counts again)."""

    lock: threading.RLock = field(default_factory=threading.RLock)
    users: int = 0


@dataclass
class _Kept:
    session: Session
    revision: int
    weight: int


class Sessions:
    """The store with live sessions kept in memory, one lock a session while in use. A session kept is used
    only while the file says it is at the same revision (else something changed it behind the server's back:
    it is rebuilt by replay).

    At most `cache_size` sessions are kept, and about `cache_entries` events and log entries in all (about
    1 KiB each: a crawl of 20 rooms holds a hundred, the largest hexcrawl the web allows 20,000)."""

    def __init__(self, store: Store, build: Any, cache_size: int = 4096, cache_entries: int = 200_000) -> None:
        self.store = store
        self.build = build  # (record, events) -> Session: the system's replay
        self.cache: OrderedDict[str, _Kept] = OrderedDict()
        self.cache_size, self.cache_entries = cache_size, cache_entries
        self._weight = 0
        self._locks: dict[str, _Lock] = {}
        self._guard = threading.Lock()

    @contextmanager
    def lock(self, session_id: str) -> Iterator[None]:
        """Hold the session's lock (again, in the thread that holds it). A lock exists only while a thread holds
        it or waits for it: the ids asked for are any text a client sends, and a lock kept for each of them
        grew the server by 121 MB over 2,000 unknown ids of 50,000 characters, never given back."""
        with self._guard:
            held = self._locks.get(session_id)
            if held is None:
                held = self._locks[session_id] = _Lock()
            held.users += 1
        try:
            with held.lock:
                yield
        finally:
            with self._guard:
                held.users -= 1
                if not held.users:
                    del self._locks[session_id]

    def bring_up_to_date(self) -> int:
        """Every session saved before decisions were events, rebuilt now and kept in today's form: its replay asks
        today's policies and AI for the decisions it left out, which are those that made them only until an AI
        changes (rebuilt lazily, a session opened after that would no longer replay). One that no longer replays
        is left as it was, its page saying why. How many were brought up to date."""
        done = 0
        for session_id in self.store.saved_before_events():
            with self.lock(session_id):
                try:
                    session = self._current(session_id)[0]
                except DedaleError:
                    continue
                self.store.set_made(session_id, session.made())
                self.forget(session_id)  # kept in the file: the memory is for the sessions in play
                done += 1
        return done

    def get(self, session_id: str) -> Session:
        return self._current(session_id)[0]

    def _current(self, session_id: str) -> tuple[Session, int]:
        """The session as the file has it now, and its revision."""
        try:
            now = self.store.version(session_id)
        except DedaleError:  # deleted
            self.forget(session_id)
            raise
        kept = self._kept(session_id)
        if kept is not None and kept.revision == now.revision:
            return kept.session, kept.revision
        with self.lock(session_id):  # one thread replays it (changing() holds the lock already)
            kept = self._kept(session_id)
            if kept is not None and kept.revision == now.revision:
                return kept.session, kept.revision
            record, events = self.store.get(session_id)
            session = self.build(record, events)
            revision = record.revision
            if session.events != events:  # saved before decisions were events: kept now as today's
                revision = self.store.rewrite(session_id, 0, len(events), session.events, session.is_over,
                                              session.hides(), revision, session.made())
            self._keep(session_id, session, revision)
            return session, revision

    def _kept(self, session_id: str) -> _Kept | None:
        with self._guard:
            kept = self.cache.get(session_id)
            if kept is not None:
                self.cache.move_to_end(session_id)
            return kept

    def _keep(self, session_id: str, session: Session, revision: int) -> None:
        with self._guard:
            old = self.cache.pop(session_id, None)
            self._weight -= 0 if old is None else old.weight
            kept = _Kept(session, revision, 1 + len(session.events) + len(session.log))
            self.cache[session_id] = kept
            self._weight += kept.weight
            while len(self.cache) > self.cache_size or (self._weight > self.cache_entries and len(self.cache) > 1):
                self._weight -= self.cache.popitem(last=False)[1].weight

    def forget(self, session_id: str) -> None:
        with self._guard:
            old = self.cache.pop(session_id, None)
            self._weight -= 0 if old is None else old.weight

    def add(self, session: Session, name: str, seating: str = "solo", owners: Sequence[str] = (),
            chosen: bool = False) -> str:
        session_id = self.store.create(session.system, session.seed, session.params.to_json(), session.table,
                                       name, session.events, session.is_over, session.hides(), seating, owners,
                                       session.secret, chosen,
                                       document=None if session.archived is None else session.to_json(),
                                       made=session.made())
        self._keep(session_id, session, 0)
        return session_id

    @contextmanager
    def changing(self, session_id: str) -> Iterator[Session]:
        """Change a session under its lock, from the file's latest revision; its new events are committed at
        the end if the file is still at that revision (else a 409), or, if anything fails, the session is
        dropped from memory (to be rebuilt from what was committed)."""
        with self.lock(session_id):
            session, revision = self._current(session_id)
            before = len(session.events)
            waited = _waiting_decision(session.events)
            try:
                yield session
                keep = min(before, len(session.events))  # an undo keeps fewer
                if waited is not None and waited < keep and "choice" in session.events[waited]:
                    keep = waited  # a decision that waited for its dice, made now: recorded again, whole
                if keep < before or len(session.events) > before:
                    revision = self.store.rewrite(session_id, keep, before, session.events[keep:],
                                                  session.is_over, session.hides(), revision, session.made())
            except DedaleError:  # refused (an illegal choice): the session is as it was
                if len(session.events) != before:
                    self.forget(session_id)
                raise
            except BaseException:
                self.forget(session_id)
                raise
            self._keep(session_id, session, revision)


def _waiting_decision(events: list[Event]) -> int | None:
    """The number of the last event if it is a decision waiting for dice entered at the table (its policy has
    not chosen yet: the events after it are those dice), else None; only the last decision can wait."""
    for number in range(len(events) - 1, -1, -1):
        if "by" in events[number]:
            return None if "choice" in events[number] else number
        if "enter" not in events[number]:
            return None
    return None


def _hold(path: Path) -> int | None:
    """Check that `path` can be the sessions' file (made if need be), take its advisory lock and keep the
    file open (the lock lasts while it is open), or say that another server holds it."""
    if os.path.isdir(path):
        raise DedaleError("error.db", path=str(path), problem=word("error.db_folder"))
    if os.path.lexists(path.parent) and not os.path.isdir(path.parent):
        raise DedaleError("error.db", path=str(path), problem=word("error.db_parent"))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not LOCKS:
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

"""Files a user names: written through a temporary file and a rename (a failed run never leaves a half-written
file), JSON read as strictly as an upload."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Collection, Iterable
from pathlib import Path
from queue import Queue
from threading import Thread
from typing import Any, BinaryIO

from dedale.core.errors import DedaleError
from dedale.core.jsontext import parse_json

STREAM_FROM = 64 << 20  # bytes


def write_atomic(path: Path, data: bytes | Iterable[str]) -> None:
    """Write `data` (bytes, or pieces of text written one after the other in UTF-8: a document too large to
    hold) through a temporary file and a rename: a failed run never leaves a half-written file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                if isinstance(data, bytes):
                    out.write(data)
                else:
                    _write_pieces(out, data)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; a result file is an ordinary file
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as exc:
        raise DedaleError("error.write", path=str(path), problem=exc.strerror or str(exc)) from None


def _write_pieces(out: BinaryIO, pieces: Iterable[str]) -> None:
    """Write the pieces from a second thread, so that the system's share of writing a large file (its copies,
    done with the interpreter's lock released) goes on while the next pieces are made."""
    waiting: Queue[bytes | None] = Queue(maxsize=4)
    failed: list[BaseException] = []

    def drain() -> None:
        try:
            while (piece := waiting.get()) is not None:
                out.write(piece)
        except BaseException as exc:  # kept for the maker of the pieces, which stops at its next piece
            failed.append(exc)
            while waiting.get() is not None:
                pass

    writer = Thread(target=drain, daemon=True)
    writer.start()
    try:
        for piece in pieces:
            if failed:
                break
            waiting.put(piece.encode("utf-8"))
    finally:
        waiting.put(None)
        writer.join()
    if failed:
        raise failed[0]


def read_json(path: Path, streamed: Collection[str] = ()) -> Any:
    """A JSON file, read as strictly as an upload (`core.jsontext`). In a file of more than STREAM_FROM bytes,
    the top-level arrays named in `streamed` stay in the file, read item by item when asked for
    (`core.jsonread`): a hexcrawl of radius 1000 is 3 GB of JSON."""
    try:
        if streamed and path.stat().st_size >= STREAM_FROM:
            from dedale.core.jsonread import read_document

            document = read_document(path, streamed)
            if document is not None:
                return document
        raw = path.read_bytes()
    except OSError as exc:
        raise DedaleError("error.read", path=str(path), problem=exc.strerror or str(exc)) from None
    return parse_json(raw, str(path))

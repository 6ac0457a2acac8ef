"""Files a user names: written through a temporary file and a rename (a failed run never leaves a half-written
file) and only over a regular file; read within a bound, JSON as strictly as an upload."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dedale.core.errors import DedaleError
from dedale.core.jsontext import check_size, parse_json
from dedale.i18n import word

MAX_DATA_BYTES = 1 << 20  # a table or data file (TOML): the largest shipped is under 12 KiB


def check_target(path: Path) -> None:
    """`path` may be written: its name is text, and what is there, if anything, is a regular file. The rename
    that ends a write replaces whatever is at the path: run as root, a device such as /dev/null would become a
    file. A symbolic link is followed to see what it names."""
    if not _is_text(str(path)):
        raise DedaleError("error.path_text", path=str(path))
    try:
        mode = os.stat(path).st_mode
    except OSError:  # nothing there (or a dangling link): a new file, in a folder that must exist (a misspelt
        # folder would otherwise be made silently); any other problem, the write says
        folder = path.parent
        if not folder.is_dir():
            raise DedaleError("error.no_folder", path=str(path), folder=str(folder)) from None
        return
    if not stat.S_ISREG(mode):
        raise DedaleError("error.write_not_a_file", path=str(path), kind=_kind(mode))


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` through a temporary file and a rename: a failed run never leaves a half-written file."""
    check_target(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; a result file is an ordinary file
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as exc:
        raise DedaleError("error.write", path=str(path), problem=exc.strerror or str(exc)) from None


def read_bounded(path: Path, check: Callable[[int, str], None]) -> bytes:
    """The bytes of a file or a pipe, `check(size, name)` raising once there are too many (before a regular
    file is read, as a pipe is read): a device, a folder or a socket is refused, and never opened (/dev/zero
    would be read until memory runs out)."""
    try:
        if not _readable(mode := os.stat(path).st_mode):
            raise DedaleError("error.read_not_a_file", path=str(path), kind=_kind(mode))
        fd = os.open(path, os.O_RDONLY)
        try:
            info = os.fstat(fd)
            if not _readable(info.st_mode):  # replaced since it was looked at
                raise DedaleError("error.read_not_a_file", path=str(path), kind=_kind(info.st_mode))
            check(info.st_size, str(path))
            # A regular file in one read of its size (no copy of a large document); then what a pipe sends, or
            # what the file has grown by since, counted as it comes.
            chunks = [os.read(fd, info.st_size)] if info.st_size else []
            size = len(chunks[0]) if chunks else 0
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
                size += len(chunk)
                check(size, str(path))
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)
        finally:
            os.close(fd)
    except OSError as exc:
        raise DedaleError("error.read", path=str(path), problem=exc.strerror or str(exc)) from None


def read_json(path: Path) -> Any:
    """A JSON file, read as strictly as an upload (`core.jsontext`); one too large is refused before it is
    read."""
    return parse_json(read_bounded(path, check_size), str(path))


def read_data(path: Path) -> bytes:
    """A table or data file the user gives (TOML), at most `MAX_DATA_BYTES`."""
    return read_bounded(path, _check_data_size)


def _check_data_size(size: int, source: str) -> None:
    if size > MAX_DATA_BYTES:
        raise DedaleError("error.data_size", path=source, high=MAX_DATA_BYTES >> 10)


def _readable(mode: int) -> bool:
    return stat.S_ISREG(mode) or stat.S_ISFIFO(mode)


def _kind(mode: int) -> dict[str, Any]:
    """What a file that is not a regular one is, as a word for a message."""
    kind = "folder" if stat.S_ISDIR(mode) else "device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else \
        "fifo" if stat.S_ISFIFO(mode) else "socket" if stat.S_ISSOCK(mode) else "other"
    return word(f"file_kind.{kind}")


def _is_text(name: str) -> bool:
    """A name that is text: not bytes that are not UTF-8, which Python keeps as lone surrogates."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True

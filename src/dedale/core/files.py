"""Files a user names: written through a temporary file and a rename (a failed run never leaves a half-written
file), JSON read as strictly as an upload."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from dedale.core.errors import DedaleError
from dedale.core.jsontext import check_size, parse_json


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` through a temporary file and a rename: a failed run never leaves a half-written file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
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


def read_json(path: Path) -> Any:
    """A JSON file, read as strictly as an upload (`core.jsontext`); one too large is refused before it is
    read."""
    try:
        check_size(path.stat().st_size, str(path))
        raw = path.read_bytes()
    except OSError as exc:
        raise DedaleError("error.read", path=str(path), problem=exc.strerror or str(exc)) from None
    return parse_json(raw, str(path))

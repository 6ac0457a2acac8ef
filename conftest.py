"""pytest over the whole tree (the tests, and the docstrings' examples in `src/`): a module setup.py compiled is
imported from its compiled file, so its `.py` is not collected for examples (pytest would import it again under
the same name, and stop). With DEDALE_PURE_PYTHON=1 the `.py` is what runs, and is collected."""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if collection_path.suffix != ".py" or os.environ.get("DEDALE_PURE_PYTHON") == "1":
        return None
    compiled = (collection_path.with_name(collection_path.stem + suffix) for suffix in EXTENSION_SUFFIXES)
    return True if any(path.exists() for path in compiled) else None

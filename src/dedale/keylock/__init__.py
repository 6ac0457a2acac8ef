"""Key-lock diagrams: level-design trees of unique, multi and permanent keys, solvable by construction.

Rules: docs/rules/keylock.md
"""

from __future__ import annotations

import importlib
from types import ModuleType


def extension(name: str) -> ModuleType | None:
    """One of the package's C extensions (`_grow`, `_walk`), built where a C compiler was at hand when the
    package was installed; None without, and the same work is done in Python."""
    try:
        return importlib.import_module(f"dedale.keylock.{name}")
    except ImportError:
        return None

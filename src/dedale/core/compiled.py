"""Running without what was compiled. `setup.py` compiles a few modules where a C compiler is at hand: the
key-lock's two C loops, and the skirmish modules mypyc compiles from their own Python (imported in place of the
`.py` beside them). With DEDALE_PURE_PYTHON=1 in the environment, `dedale` imports none of them: a module
compiled from Python is imported from its `.py`, and a C loop is not found, so its Python twin runs. The results
are the same; the point is a Python traceback, a debugger, or a comparison (`tests/test_zombstone_compiled.py`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec, PathFinder
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

SWITCH = "DEDALE_PURE_PYTHON"


class _AsPython(PathFinder):
    """Finds the package's compiled modules before the import system does, and gives their Python instead."""

    @classmethod
    def find_spec(cls, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not fullname.startswith("dedale.") or path is None:
            return None
        spec = PathFinder.find_spec(fullname, path, target)
        if spec is None or spec.origin is None or not spec.origin.endswith(tuple(EXTENSION_SUFFIXES)):
            return None
        source = Path(spec.origin).with_name(fullname.rpartition(".")[2] + ".py")
        if not source.exists():  # a C loop: not there, as without a compiler
            raise ModuleNotFoundError(f"{fullname} is compiled, and {SWITCH}=1", name=fullname)
        return spec_from_file_location(fullname, source)


def run_as_python() -> None:
    """From now on, the package's compiled modules are imported as Python (those imported already stay)."""
    if _AsPython not in sys.meta_path:
        sys.meta_path.insert(0, _AsPython)

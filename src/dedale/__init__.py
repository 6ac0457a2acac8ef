"""Dédale: procedural tabletop systems to play through or generate, every roll seeded and logged.

>>> import dedale
>>> dungeon = dedale.generate("crawler", seed=4, size="2d6")
>>> dungeon.to_json()["format"], dungeon.to_json()["seed"]
('dedale/crawler', 4)
>>> session = dedale.play("crawler", seed=4)
>>> session.step(session.choices()[0])
>>> session.run_autopilot().is_over
True

See docs/api.md for each system's calls. Importing `dedale` loads nothing heavy: the calls below load what
they use when first called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dedale.core.errors import DedaleError
from dedale.core.session import Faces as _Faces
from dedale.core.session import Session as _Session
from dedale.core.version import __version__

# Type checkers read the names from here, each with its own type; at run time `__getattr__` loads them when
# first asked for. They never see that `__getattr__`, which would answer any name, misspelt ones too, with `Any`.
if TYPE_CHECKING:
    from dedale.api import Result, generate, generate_many, load, play, schema, system_names
    from dedale.core.session import Choice, Session

__all__ = ["Choice", "DedaleError", "Result", "Session", "__version__", "generate", "generate_many", "load", "play",
           "schema", "system_names"]

_LAZY = {"Result": "dedale.api", "generate": "dedale.api", "generate_many": "dedale.api", "load": "dedale.api",
         "play": "dedale.api", "schema": "dedale.api", "system_names": "dedale.api", "Choice": "dedale.core.session",
         "Session": "dedale.core.session"}

if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        if name in _LAZY:
            from importlib import import_module

            return getattr(import_module(_LAZY[name]), name)
        raise AttributeError(f"module 'dedale' has no attribute {name!r}")


def _faces() -> _Faces:
    from dedale.api import FACES

    return FACES


# A session's `result()` and Jupyter picture are the library's (the rules know no face: core/session.py). Any
# import of a session's module runs this file first: they work however the session was made, the library's
# modules loaded when first asked for.
_Session.faces = _Faces(lambda session: _faces().result(session), lambda session: _faces().picture(session))


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])

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

Vocabulary (the words the code, the documents and the docs share):

- **system:** one procedural game (the crawler, the paper dungeon, the hexcrawl, the key-lock diagrams,
  Zombstone's skirmish and duel), a `System` in the registry (`system_names()`), Dédale's own or a package's;
- **rules:** a system's game, choice by choice (`core.rules.Rules`); played by the one generic `Session`;
- **session:** a game being played: its seed, its parameters and its events (`play`);
- **choice:** one legal decision offered now, with an id (`move:N`) and a label in each language;
- **event:** a decision recorded (`{"choice": ...}`, with `by` for an autopilot or an AI and `seat` for a game
  of two): the session is its seed plus its events, and replays them to be rebuilt; never reruns an AI;
- **seed:** what every roll and draw comes from; a short whole number, or 128+ bits written in base 32;
- **document:** a session saved as JSON (`to_json()`): seed, parameters, events, the result and the log; free of
  language (ids and message keys, never words), following its system's JSON Schema (`schema`);
- **result:** a finished session's document, with its pictures and files (`Result`: `svg`, `text`, `export`);
- **log:** every roll and draw, in order, each as a message key and its arguments;
- **autopilot:** a policy that makes a player's choices (`generate` plays a session to its end by one);
- **AI:** an opponent the rules name for a seat (the skirmish's other side, the duel's bettor);
- **seat:** one player's place in a game of two (0 and 1); a seat sees only what the rules let it
  (its own cards, not the other's);
- **table mode:** the players roll real dice and draw real cards, and enter each result (`play(table=True)`);
- **GM's view, party view:** the whole document, or what the party has discovered (the rooms laid, the hexes
  explored), none of the GM's key (contents, the seed, the events, the log);
- **reading:** a way to read a point the text leaves open, offered as a parameter with the text's as default;
- **face:** what shows Dédale to a person (the command line, the web app, a notebook's picture); faces hold no
  rule.
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

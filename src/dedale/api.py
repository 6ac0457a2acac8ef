"""The library's front door (re-exported by `dedale`): generate a result, play a session choice by choice,
load a saved document, and draw any of them. The CLI and the web app are faces over the same calls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dedale.core.errors import check_lang
from dedale.core.session import Faces, Session
from dedale.systems import System, extension_of, json_text, names, system, system_of


class Result:
    """A result document (what `dedale SYSTEM --json` prints) with the ways to draw it. In Jupyter it shows
    itself as its picture.

    >>> dungeon = generate("crawler", seed=4, size="2d6")
    >>> dungeon.system, dungeon.seed, dungeon.to_json()["size"]
    ('crawler', 4, 10)
    >>> dungeon.svg().startswith("<svg")
    True
    >>> print(dungeon.text().splitlines()[0])
    seed 4 · rooms laid: 9 of 10 · the boss room is reached
    """

    def __init__(self, document: dict[str, Any], found: System | None = None) -> None:
        self._system = found or system_of(document)
        self._document = document

    @property
    def system(self) -> str:
        return self._system.name

    @property
    def seed(self) -> int | None:
        seed = self._document.get("seed")
        return seed if isinstance(seed, int) else None

    def to_json(self) -> dict[str, Any]:
        """The document: format, version, seed, parameters, the result, the events and the roll log."""
        return self._document

    def json(self) -> str:
        """The document as JSON text, as the CLI writes it."""
        return json_text(self._document)

    def svg(self, lang: str = "en", **options: Any) -> str:
        """The picture as SVG text, its words in `lang` (`cards=True`: the paper dungeon's card of each
        feature)."""
        return self.export(".svg", lang, **options).decode("utf-8")

    def png(self, lang: str = "en", **options: Any) -> bytes:
        """The picture as PNG (needs the render extra)."""
        return self.export(".png", lang, **options)

    def pdf(self, lang: str = "en", **options: Any) -> bytes:
        """The picture on a PDF page (needs the render extra)."""
        return self.export(".pdf", lang, **options)

    def text(self, lang: str = "en") -> str:
        """The plain-text view the terminal shows, in `lang`.

        >>> print(generate("crawler", seed=4, size="2d6").text("fr").splitlines()[0])
        graine 4 · salles posées : 9 sur 10 · la salle du boss est atteinte
        """
        return self._system.text(self._system.load(self._document), check_lang(lang))

    def export(self, ext: str, lang: str = "en", **options: Any) -> bytes:
        """The document in a file format by its extension: .json, .svg, .png, .txt, .pdf (.dot: key-lock;
        .dd2vtt, .uvtt and .foundry.json: virtual tabletops); the document holds no words, the pictures and the
        text are worded in `lang` (en or fr)."""
        return self._system.export(self._document, self._format(ext), options, check_lang(lang))

    def _format(self, ext: str) -> str:
        from dedale.core.errors import DedaleError

        ext = ext.lower() if ext.startswith(".") else f".{ext.lower()}"
        if ext not in self._system.extensions:
            raise DedaleError("error.output", value=ext, accepted=" ".join(self._system.extensions))
        return ext

    def save(self, path: str | Path, lang: str = "en", **options: Any) -> Path:
        """Write the result to `path` in the format its extension names (never a half-written file).

        >>> import pathlib, tempfile
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> generate("keylock", seed=2).save(folder / "diagram.svg").name
        'diagram.svg'
        """
        target = Path(path)
        self._system.write(target, self._document, self._format(extension_of(target, self._system)), options,
                           check_lang(lang))
        return target

    def view(self, who: str) -> Result:
        """The result as the GM ("gm": all of it) or a player ("player": what the party has discovered, without
        the GM's key: no room contents, no community not yet seen, no seed or log) sees it; a player's view
        draws and saves like any result, and cannot be continued.

        >>> shown = generate("crawler", seed=4).view("player")
        >>> shown.to_json()["rooms"][0]["contents"], shown.seed
        (None, None)
        """
        return Result(self._system.seen_by(self._document, who), self._system)

    def play(self) -> Session:
        """The session again, replayed from the document's events, to continue it."""
        return self._system.session.from_json(self.to_json())

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return f"<dedale.Result {self.system} seed={self.seed}>"


def _picture(session: Session[Any, Any]) -> str:
    return system(session.system).picture(session, session.choices(), "en")


# A session's `result()` and Jupyter picture, for the rules know no face (core/session.py).
Session.faces = Faces(lambda session: Result(session.player_json()), _picture)


def system_names() -> list[str]:
    """The systems Dédale knows.

    >>> system_names()
    ['crawler', 'paper', 'hexcrawl', 'keylock', 'zombstone', 'zombstone-duel']
    """
    return names()


def play(name: str, seed: int | None = None, *, table: bool = False, **params: Any) -> Session:
    """A session of the system, to play choice by choice: `choices()`, `step(choice)`, `undo()`,
    `auto_step()`, `run_autopilot()`, `result()`. Parameters go by the names the CLI's options and the web's
    forms use (`size="2d6"`, `radius=8`); an unknown one is an error. Without a seed, a random one. With
    `table`, the player rolls real dice and enters them (`pending` says what).

    >>> hexes = play("hexcrawl", seed=3, radius=2)
    >>> [choice.id for choice in hexes.choices()][:3]
    ['move:N', 'move:NE', 'move:SE']
    >>> hexes.step("move:N")
    >>> len(hexes.events)
    1
    >>> hexes.undo()
    >>> hexes.events
    []
    """
    from dedale.core.rng import check_seed, new_seed

    found = system(name)
    made = found.params.from_options(params, strict=True)
    return found.session(made, new_seed() if seed is None else check_seed(seed), table)


def generate(name: str, seed: int | None = None, *, policy: str = "default", **params: Any) -> Result:
    """A result made by the autopilot: the session played to its end by `policy` (each system documents
    its policies; "default" is the rules' own). Parameters as for `play`.

    >>> generate("paper", seed=3, max_cards=12).to_json()["format"]
    'dedale/paper'
    """
    session = play(name, seed, **params)
    if not session.is_over:  # a key-lock diagram is whole when made: no choice to make
        session.run_autopilot(session.autopilot(policy))
    return session.result()


def load(source: str | Path | dict[str, Any]) -> Result:
    """A saved document (a file's path, or the document itself), checked as strictly as an upload.

    >>> again = load(generate("crawler", seed=4).to_json())
    >>> again.play().is_over
    True
    """
    from dedale.core.files import read_json

    document = source if isinstance(source, dict) else read_json(Path(source))
    return Result(document)


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of the system's documents.

    >>> schema("keylock")["properties"]["params"]["properties"]["unique"]["minimum"]
    0
    """
    return json.loads(system(name).schema())

"""The library's front door (re-exported by `dedale`): generate a result (or one a seed), play a session choice
by choice, load a saved document, draw any of them, read one as a table. The CLI and the web app are faces over
the same calls. The calls are typed for each system (its session, its parameters), for the callers' checkers."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, TypedDict, TypeVar, Unpack, cast, overload

from dedale.core.errors import DedaleError, check_lang
from dedale.core.seeds import check_seed, new_seed, seed_text
from dedale.core.session import Faces, Session
from dedale.systems import System, extension_of, json_text, names, system, system_of

if TYPE_CHECKING:  # the sessions' types only: `import dedale` loads no system
    from dedale.core.params import Declared
    from dedale.crawler.session import CrawlerSession
    from dedale.hexcrawl.session import HexcrawlSession
    from dedale.keylock.session import KeylockSession
    from dedale.paper.session import PaperSession
    from dedale.zombstone.skirmish.duel_session import DuelSession
    from dedale.zombstone.skirmish.session import SkirmishSession

if TYPE_CHECKING:  # a default (PEP 696, typing from Python 3.13): a bare `Result` is any system's result
    from typing_extensions import TypeVar as DefaultTypeVar

    SessionT = DefaultTypeVar("SessionT", bound=Session[Any], covariant=True, default=Session[Any])
else:
    SessionT = TypeVar("SessionT", bound=Session[Any], covariant=True)
Folder = str | PathLike[str]


# Each system's parameters as keyword arguments, for type checkers (mypy --strict sees a misspelt one or a value
# of the wrong type in the caller's code). The declarations in each system's params.py are what the calls check
# at run time; tests/test_library_tools.py keeps these the same as them.
class CrawlerOptions(TypedDict, total=False):
    board: int
    zone: int
    size: str | int
    boss_size: str | None
    start_zone: str | None
    start_side: Literal["N", "E", "S", "W"] | None
    fill_chance: float
    stock: str | None
    early_boss: bool
    passed_boss: Literal["stays", "reroll"]
    door_corners: Literal["zone", "room"]
    contents: Literal["tables", "dungeon-roll"]
    tables: Folder | None


class PaperOptions(TypedDict, total=False):
    width: int
    height: int
    max_cards: int
    order: Literal["oldest", "newest", "random"]
    kings: Literal["reshuffle", "set-aside"]
    exit_collisions: Literal["move", "drop"]
    start_size: int
    tables: Folder | None


class HexcrawlOptions(TypedDict, total=False):
    radius: int
    order: Literal["spiral", "bfs", "walk", "random-walk"]
    obstacle_chance: float
    variant: Literal["rule", "weighted"]
    start: str
    sites: bool
    tables: Folder | None


class KeylockOptions(TypedDict, total=False):
    unique: int
    multi: int
    multi_max_locks: int
    multi_max_keys: int
    permanent: int
    permanent_max_locks: int
    multi_draw: Literal["capped", "seed"]
    spread: float


class ZombstoneOptions(TypedDict, total=False):
    scenario: str
    side: Literal["lawmen", "zombies"] | None
    policy_lawmen: Literal["default", "cautious", "aggressive"]
    policy_zombies: Literal["default", "cautious", "aggressive"]
    rounds: int
    data: Folder | None
    opponent: Literal["ai", "human"]
    unarmed_malus: Literal["first_roll", "potential"]
    climb: Literal["halve_move", "per_inch"]
    difficult: Literal["halve_move", "per_inch"]
    aim_cost: Literal["joker", "any_card"]
    turned_die: Literal["face", "any"]
    card_limit: Literal["activation", "apart"]
    winnings: Literal["pot", "won"]
    duel: Literal["scenario", "holdem", "simple"]
    ai: Literal["standard", "lookahead"]


class DuelOptions(TypedDict, total=False):
    added: int
    ai_added: int
    style: Literal["cautious", "bold"]
    opponent: Literal["ai", "human"]
    winnings: Literal["pot", "won"]


class Result(Generic[SessionT]):
    """A result document (what `dedale SYSTEM --json` prints) with the ways to draw it. In Jupyter it shows
    itself as its picture.

    >>> dungeon = generate("crawler", seed=4, size="2d6")
    >>> dungeon.system, dungeon.seed, dungeon.to_json()["size"]
    ('crawler', 4, 10)
    >>> dungeon.svg().startswith("<svg")
    True
    >>> print(dungeon.text().splitlines()[0])
    seed 4 · rooms laid: 10 of 10 · the boss room is reached
    """

    def __init__(self, document: dict[str, Any], found: System | None = None) -> None:
        self._system = found or system_of(document)
        self._document = document

    @property
    def system(self) -> str:
        return self._system.name

    @property
    def seed(self) -> int | None:
        """The seed (a long one written as text in the document: `core.seeds`), None in a view that hides it."""
        seed = self._document.get("seed")
        return None if seed is None else check_seed(seed)

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
        graine 4 · salles posées : 10 sur 10 · la salle du boss est atteinte
        """
        return self._system.text(self._system.load(self._document), check_lang(lang))

    def export(self, ext: str, lang: str = "en", **options: Any) -> bytes:
        """The document in a file format by its extension: .json, .svg, .png, .txt, .pdf (.dot: key-lock;
        .dd2vtt, .uvtt and .foundry.json: virtual tabletops); the document holds no words, the pictures and the
        text are worded in `lang` (en or fr)."""
        return self._system.export(self._document, self._format(ext), options, check_lang(lang))

    def _format(self, ext: str) -> str:
        ext = ext.lower() if ext.startswith(".") else f".{ext.lower()}"
        if ext not in self._system.extensions:
            raise DedaleError("error.extension", value=ext, system=self.system,
                              accepted=" ".join(self._system.extensions))
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

    def view(self, who: Literal["gm", "party", "player"]) -> Result[SessionT]:
        """The result in the GM's view ("gm": all of it) or the party view ("party": what the party has
        discovered, without the GM's key: no room contents, no community not yet seen, no seed or log); the
        party view draws and saves like any result, and cannot be continued. "player", its former name, is
        read as "party".

        >>> shown = generate("crawler", seed=4).view("party")
        >>> shown.to_json()["rooms"][0]["contents"], shown.seed
        (None, None)
        """
        return Result(self._system.in_view(self._document, who), self._system)

    def play(self) -> SessionT:
        """The session again, replayed from the document's events, to continue it; a document of an earlier
        version that today's rules no longer play the same way cannot be (it says why in one line, and still
        draws and saves as it was)."""
        session = Session.opened(self._system.rules, self.to_json())
        if session.archived is not None:
            raise DedaleError("error.archived", why=session.archived)
        return cast("SessionT", session)

    def records(self, table: str | None = None) -> list[dict[str, Any]]:
        """A table of the result for pandas (`pandas.DataFrame(result.records())`): one flat row per item of
        one of the document's lists, by default the system's main one (the crawler's and the paper
        dungeon's rooms, the hexcrawl's hexes, the key-lock diagram's nodes, the skirmish's figures, the
        duel's bets), `table` naming another ("doors", "communities", "game.figures"). Each row starts with the
        system and the seed, so that the rows of many results stack into one table (one row per result is
        then a `groupby("seed")` away); nested objects become columns named by their path
        (`contents.kind.id`), lists stay as they are.

        >>> rooms = generate("crawler", seed=4, size="2d6").records()
        >>> len(rooms), rooms[0]["system"], rooms[0]["seed"], rooms[0]["tile"], rooms[0]["contents.kind.id"]
        (10, 'crawler', 4, '4x4', 'kitchen')
        >>> generate("crawler", seed=25).records("passages")[0]["length"]
        1
        """
        tables = _tables(self._document)
        chosen = table or _MAIN_TABLE.get(self.system) or next(iter(tables), "")
        if chosen not in tables:
            raise DedaleError("error.records", value=chosen, system=self.system, accepted=", ".join(tables))
        return [{"system": self.system, "seed": self.seed, **_flat(row)} for row in tables[chosen]]

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        """What a notebook prints: the system and the seed as a person reads it (none in a view that hides it)."""
        return f"<dedale {self.system} result seed={None if self.seed is None else seed_text(self.seed)}>"


def _picture(session: Session[Any]) -> str:
    return system(session.system).picture(session, session.choices(), "en")


# A session's `result()` and Jupyter picture, for the rules know no face (core/session.py): `dedale` (its
# `__init__`) hands them to every session.
FACES = Faces(lambda session: Result(session.seat_json()), _picture)


def system_names() -> list[str]:
    """The systems Dédale knows.

    Returns:
        Their names, Dédale's own first, then those installed packages declare.

    >>> system_names()
    ['crawler', 'paper', 'hexcrawl', 'keylock', 'zombstone', 'zombstone-duel']
    """
    return names()


# A system's main table: what its records are by default (`Result.records`).
_MAIN_TABLE = {"crawler": "rooms", "paper": "rooms", "hexcrawl": "hexes", "keylock": "nodes",
               "zombstone": "game.figures", "zombstone-duel": "duel.history"}


def _tables(document: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The document's lists of objects (empty ones too: a dungeon without passages), by path (`rooms`,
    `game.figures`), the events and the log left out."""
    found: dict[str, list[dict[str, Any]]] = {}
    for key, value in document.items():
        if isinstance(value, dict) and key != "params":
            found.update({f"{key}.{path}": rows for path, rows in _tables(value).items()})
        elif isinstance(value, list) and all(isinstance(row, dict) for row in value) and key not in ("events", "log"):
            found[key] = value
    return found


def _flat(row: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """An object's fields as one level of columns, nested objects' named by their path (an empty one: None)."""
    flat: dict[str, Any] = {}
    for key, value in row.items():
        if isinstance(value, dict):
            flat.update(_flat(value, f"{prefix}{key}.") if value else {f"{prefix}{key}": None})
        else:
            flat[f"{prefix}{key}"] = value
    return flat


@overload
def play(name: Literal["crawler"], seed: int | str | None = None, *, table: bool = False,
         **params: Unpack[CrawlerOptions]) -> CrawlerSession: ...
@overload
def play(name: Literal["paper"], seed: int | str | None = None, *, table: bool = False,
         **params: Unpack[PaperOptions]) -> PaperSession: ...
@overload
def play(name: Literal["hexcrawl"], seed: int | str | None = None, *, table: bool = False,
         **params: Unpack[HexcrawlOptions]) -> HexcrawlSession: ...
@overload
def play(name: Literal["keylock"], seed: int | str | None = None, *, table: bool = False,
         **params: Unpack[KeylockOptions]) -> KeylockSession: ...
@overload
def play(name: Literal["zombstone"], seed: int | str | None = None, *, table: bool = False,
         **params: Unpack[ZombstoneOptions]) -> SkirmishSession: ...
@overload
def play(name: Literal["zombstone-duel"], seed: int | str | None = None, *, table: bool = False,
         **params: Unpack[DuelOptions]) -> DuelSession: ...
@overload  # a name known at run time only (a loop over `system_names()`): its parameters, if any, as `**a_dict`
def play(name: str, seed: int | str | None = None, *, table: bool = False) -> Session[Any]: ...
def play(name: str, seed: int | str | None = None, *, table: bool = False, **params: Any) -> Session[Any]:
    """A session of the system, to play choice by choice: `choices()`, `step(choice)`, `undo()`,
    `auto_step()`, `run_autopilot()`, `result()`.

    Args:
        name: the system (`system_names()`).
        seed: a whole number, or a long seed as the web shows it; None: 130 random bits.
        table: the player rolls real dice and enters them (`pending` says what).
        **params: the system's parameters, by the names the CLI's options and the web's forms use
            (`size="2d6"`, `radius=8`).

    Returns:
        The session, before its first choice.

    Raises:
        DedaleError: an unknown system or parameter, a value out of its range, a seed that is none, or table
            mode for a system whose rules draw what no table can; the message names what and what is accepted.

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
    found = system(name)
    return Session(found.rules, _params(found, params), _seed(seed), table)


def _params(found: System, given: dict[str, Any]) -> Declared:
    """The parameters a call names, checked; None given for one that may be None is None (`side=None`: no
    player), not its default, as it is for an option nobody typed on the CLI."""
    return found.params.from_options({name: "" if value is None else value for name, value in given.items()},
                                     strict=True)


def _seed(seed: int | str | None) -> int:
    return new_seed() if seed is None else check_seed(seed)


@overload
def generate(name: Literal["crawler"], seed: int | str | None = None, *, policy: str = "default",
             **params: Unpack[CrawlerOptions]) -> Result[CrawlerSession]: ...
@overload
def generate(name: Literal["paper"], seed: int | str | None = None, *, policy: str = "default",
             **params: Unpack[PaperOptions]) -> Result[PaperSession]: ...
@overload
def generate(name: Literal["hexcrawl"], seed: int | str | None = None, *, policy: str = "default",
             **params: Unpack[HexcrawlOptions]) -> Result[HexcrawlSession]: ...
@overload
def generate(name: Literal["keylock"], seed: int | str | None = None, *, policy: str = "default",
             **params: Unpack[KeylockOptions]) -> Result[KeylockSession]: ...
@overload
def generate(name: Literal["zombstone"], seed: int | str | None = None, *, policy: str = "default",
             **params: Unpack[ZombstoneOptions]) -> Result[SkirmishSession]: ...
@overload
def generate(name: Literal["zombstone-duel"], seed: int | str | None = None, *, policy: str = "default",
             **params: Unpack[DuelOptions]) -> Result[DuelSession]: ...
@overload
def generate(name: str, seed: int | str | None = None, *, policy: str = "default") -> Result[Session[Any]]: ...
def generate(name: str, seed: int | str | None = None, *, policy: str = "default",
             **params: Any) -> Result[Session[Any]]:
    """A result made by the autopilot: the session played to its end.

    Args:
        name: the system (`system_names()`).
        seed: as for `play`.
        policy: the autopilot's policy (each system documents its own; "default" is the rules' own).
        **params: the system's parameters, as for `play`.

    Returns:
        The finished result: its document (`to_json()`), pictures and files.

    Raises:
        DedaleError: as `play`, or a policy the system does not have.

    >>> generate("paper", seed=3, max_cards=12).to_json()["format"]
    'dedale/paper'
    """
    found = system(name)
    return Result(_generated(name, policy, _params(found, params), _seed(seed)), found)


def _generated(name: str, policy: str, params: Declared, seed: int) -> dict[str, Any]:
    """The document the autopilot makes of one seed, in this process or a batch's worker (a module's function:
    it pickles; the document, not a `Result`, goes back, since a system's description does not)."""
    session = Session(system(name).rules, params, seed)
    if not session.is_over:  # a key-lock diagram is whole when made: no choice to make
        session.run_autopilot(policy)
    return session.seat_json()


@overload
def generate_many(name: Literal["crawler"], seeds: Iterable[int], *, workers: int | None = 1,
                  progress: bool = False, policy: str = "default",
                  **params: Unpack[CrawlerOptions]) -> list[Result[CrawlerSession]]: ...
@overload
def generate_many(name: Literal["paper"], seeds: Iterable[int], *, workers: int | None = 1,
                  progress: bool = False, policy: str = "default",
                  **params: Unpack[PaperOptions]) -> list[Result[PaperSession]]: ...
@overload
def generate_many(name: Literal["hexcrawl"], seeds: Iterable[int], *, workers: int | None = 1,
                  progress: bool = False, policy: str = "default",
                  **params: Unpack[HexcrawlOptions]) -> list[Result[HexcrawlSession]]: ...
@overload
def generate_many(name: Literal["keylock"], seeds: Iterable[int], *, workers: int | None = 1,
                  progress: bool = False, policy: str = "default",
                  **params: Unpack[KeylockOptions]) -> list[Result[KeylockSession]]: ...
@overload
def generate_many(name: Literal["zombstone"], seeds: Iterable[int], *, workers: int | None = 1,
                  progress: bool = False, policy: str = "default",
                  **params: Unpack[ZombstoneOptions]) -> list[Result[SkirmishSession]]: ...
@overload
def generate_many(name: Literal["zombstone-duel"], seeds: Iterable[int], *, workers: int | None = 1,
                  progress: bool = False, policy: str = "default",
                  **params: Unpack[DuelOptions]) -> list[Result[DuelSession]]: ...
@overload
def generate_many(name: str, seeds: Iterable[int], *, workers: int | None = 1, progress: bool = False,
                  policy: str = "default") -> list[Result[Session[Any]]]: ...
def generate_many(name: str, seeds: Iterable[int], *, workers: int | None = 1, progress: bool = False,
                  policy: str = "default", **params: Any) -> list[Result[Any]]:
    """`generate` for each seed. As with any use of multiprocessing, a script (not a notebook) calling it with
    workers keeps its work under `if __name__ == "__main__":`.

    Args:
        name: the system (`system_names()`).
        seeds: the seeds, one a result.
        workers: local processes (1: this process alone; None: one a core); the results do not depend on it.
        progress: a progress bar on stderr.
        policy: as for `generate`.
        **params: the system's parameters, as for `play`, the same for every seed.

    Returns:
        The results in the seeds' order, each the same as `generate` gives it.

    Raises:
        DedaleError: as `generate`, or a number of workers out of range.

    >>> dungeons = generate_many("crawler", range(1, 4), size="2d6")
    >>> [(dungeon.seed, dungeon.to_json()["outcome"]) for dungeon in dungeons]
    [(1, 'boss'), (2, 'boss'), (3, 'boss')]
    """
    from dedale.core.batch import Where, run_batch

    found = system(name)
    checked, made, where = [_seed(seed) for seed in seeds], _params(found, params), Where(workers)
    with _progress(progress, len(checked), found.name) as advance:
        documents = run_batch(partial(_generated, found.name, policy, made), checked, where, advance)
        return [Result(document, found) for document in documents]


@contextmanager
def _progress(shown: bool, total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr told how many are done (nothing without `shown`). Refreshed here, not by Rich's
    own thread: with no other thread running, a batch's local workers can be forks of this process."""
    if not shown:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), auto_refresh=False) as bar:
        task = bar.add_task(label, total=total)

        def advance(done: int) -> None:
            bar.update(task, completed=done, refresh=True)

        yield advance


def load(source: str | Path | dict[str, Any]) -> Result[Session[Any]]:
    """A saved document, checked as strictly as an upload.

    Args:
        source: a file's path, or the document itself (a dict as `to_json()` gives it).

    Returns:
        The result it holds: shown, exported, or played on (`play()`) from where it was saved.

    Raises:
        DedaleError: a file that cannot be read, or is not a document of a known system and version; the message
            names what and why (`play()` on the result replays its events, and refuses those its rules do not take).

    >>> again = load(generate("crawler", seed=4).to_json())
    >>> again.play().is_over
    True
    """
    from dedale.core.files import read_json

    document = source if isinstance(source, dict) else read_json(Path(source))
    return Result(document)


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of the system's documents.

    Args:
        name: the system (`system_names()`).

    Returns:
        The schema (draft 2020-12), closed: a field it does not declare is refused.

    Raises:
        DedaleError: an unknown system.

    >>> schema("keylock")["properties"]["params"]["properties"]["unique"]["minimum"]
    0
    """
    return json.loads(system(name).schema())

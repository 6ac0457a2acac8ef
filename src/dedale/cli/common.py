"""What every system's CLI shares: seeds, output files by extension, batches, the language."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dedale.core.errors import DedaleError
from dedale.core.rng import check_seed, new_seed
from dedale.i18n import LANGUAGES, check_lang, t

if TYPE_CHECKING:
    from dedale.core.session import Session
    from dedale.systems import System

MAX_COUNT = 100_000
_lang = ["en"]

Lang = Annotated[str, typer.Option("--lang", envvar="DEDALE_LANG", help=f"Language: {', '.join(LANGUAGES)}.")]
Seed = Annotated[int | None, typer.Option("--seed", help="Seed (random and printed on stderr if not given).")]
Count = Annotated[int, typer.Option("--count", help="How many results (seeds S, S+1, ...).")]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON (one line each with --count).")]
Output = Annotated[str | None, typer.Option(
    "-o", "--output", help="Write .json .svg .png .txt .pdf (.dot for key-lock diagrams; .dd2vtt .uvtt .foundry.json "
    "for virtual tabletops); with --count, a folder or a pattern with {seed}.")]
TableDice = Annotated[bool, typer.Option(
    "--table-dice", help="Table mode: roll real dice and draw real cards, and enter each result.")]
Tables = Annotated[Path | None, typer.Option("--tables", help="A folder of your own table files.")]
Save = Annotated[Path | None, typer.Option("--save", help="Where to save the session (also on Ctrl-C).")]
Load = Annotated[Path | None, typer.Option("--load", help="Resume a saved session.")]
View = Annotated[str, typer.Option(
    "--view", help="gm (everything) or player (what the party has discovered, without the GM's key).")]


def set_lang(lang: str) -> str:
    _lang[0] = check_lang(lang)
    return lang


def current_lang() -> str:
    return _lang[0]


def say(key: str, **args: Any) -> None:
    """A message for the user on stderr, in their language."""
    typer.echo(t(key, current_lang(), **args), err=True)


def tables_folder(tables: Path | None, system_name: str) -> str | None:
    """The player's tables for a system: FOLDER/SYSTEM/ when there is one (as `dedale tables export`
    writes them), else FOLDER itself."""
    if tables is None:
        return None
    return str(tables / system_name if os.path.isdir(tables / system_name) else tables)


def resolve_seed(seed: int | None) -> int:
    """The seed given, checked, or a new one, printed on stderr so that the result can be remade."""
    if seed is not None:
        return check_seed(seed)
    seed = new_seed()
    say("cli.seed", seed=seed)
    return seed


def check_count(count: int) -> None:
    if not 1 <= count <= MAX_COUNT:
        raise DedaleError("error.count", value=count, high=MAX_COUNT)


def output_format(path: str, system: System) -> str:
    """The extension of `path`, checked against what the system can write."""
    from dedale.systems import extension_of

    ext = extension_of(path, system)
    if ext not in system.extensions and not _is_folder(path):
        raise DedaleError("error.output", value=path, accepted=" ".join(system.extensions))
    return ext


def _is_folder(path: str) -> bool:
    return path.endswith(("/", os.sep)) or os.path.isdir(path)


def batch_path(pattern: str, seed: int, system: System) -> Path:
    """The file for one result of a batch: `-o` names a folder, a pattern with {seed}, or a file whose
    name gets the seed added."""
    if _is_folder(pattern):
        return Path(pattern) / f"{system.name}-{seed}.json"
    if "{seed}" in pattern:
        return Path(pattern.replace("{seed}", str(seed)))
    from dedale.systems import extension_of

    path = Path(pattern)
    ext = extension_of(path, system)
    return path.with_name(f"{path.name[:len(path.name) - len(ext)]}-{seed}{path.name[len(path.name) - len(ext):]}")


def render(document: dict[str, Any], ext: str, system: System, options: dict[str, Any] | None = None) -> bytes:
    """A document in a file format, its words in the language the command was given (`--lang`)."""
    return system.export(document, ext, options, current_lang())


def write(path: Path, document: dict[str, Any], ext: str, system: System, options: dict[str, Any] | None = None
          ) -> None:
    """A document written in a file format, its words in the language the command was given (`--lang`)."""
    system.write(path, document, ext, options, current_lang())


def echo_json(document: dict[str, Any], indent: int | None) -> None:
    """A document's JSON on stdout, piece by piece."""
    from dedale.systems import json_text

    for piece in json_text(document, indent):
        sys.stdout.write(piece)


@contextmanager
def progress(total: int) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr for long batches (only on a terminal)."""
    if total < 20 or not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(t("cli.generating", current_lang()), total=total)
        yield lambda: bar.advance(task)


def generate(system: System, make: Callable[[int], Session], seed: int | None, count: int, as_json: bool,
             output: str | None, options: dict[str, Any] | None = None, view: str = "gm") -> None:
    """The generation command every system shares: seeds seed..seed+count-1, by the autopilot, each as
    `view` sees it (core/views)."""
    from dedale.systems import extension_of

    check_count(count)
    ext = output_format(output, system) if output else None
    seed = resolve_seed(seed)
    with progress(count) as advance:
        for current in range(seed, seed + count):
            # the document as it will be written or drawn, never held whole (a map of 3 million hexes)
            document = system.seen_by(make(current).run_autopilot().document(), view)
            if output is not None:
                path = Path(output) if count == 1 and not _is_folder(output) else batch_path(output, current, system)
                write(path, document, extension_of(path, system) or str(ext), system, options)
            if as_json:
                echo_json(document, 2 if count == 1 else None)
            elif output is None:
                typer.echo(system.text(system.load(document), current_lang()))
            advance()

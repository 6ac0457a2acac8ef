"""What every system's CLI shares: seeds, output files by extension, batches and where they run, the
language."""

from __future__ import annotations

import io
import json
import os
import re
import sys
import time
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from dedale.core.errors import DedaleError, check_lang
from dedale.core.files import check_target, write_atomic
from dedale.core.seeds import MAX_SEED, check_seed, new_seed, seed_text
from dedale.i18n import LANGUAGES, t

if TYPE_CHECKING:
    from dedale.core.batch import Where
    from dedale.core.params import Declared
    from dedale.systems import System

MAX_COUNT = 100_000
_lang = ["en"]
_drawn: list[int] = []  # a seed drawn for the command: said when it ends, unless it ends with an error
# What would break a message's line: control characters (a line feed, a terminal's escape sequence), line and
# paragraph separators, and lone surrogates (bytes of a name that are not UTF-8).
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")

Lang = Annotated[str, typer.Option("--lang", envvar="DEDALE_LANG", help=f"Language: {', '.join(LANGUAGES)}.")]
Seed = Annotated[str | None, typer.Option("--seed", help="Seed: a whole number, or a long seed as the web shows it "
                                          "(random and printed on stderr if not given).")]
Count = Annotated[int, typer.Option("--count", help="How many results (seeds S, S+1, ...).")]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON (one line each with --count).")]
Output = Annotated[str | None, typer.Option(
    "-o", "--output", help="Write .json .svg .png .txt .pdf (.tiles.pdf: the crawler's board to print at 1:1; .dot "
    "for key-lock diagrams; .dd2vtt .uvtt .foundry.json .foundry.zip for virtual tabletops); with --count, a folder "
    "or a pattern with {seed}.")]
TableDice = Annotated[bool, typer.Option(
    "--table-dice", help="Table mode: roll real dice and draw real cards, and enter each result.")]
Tables = Annotated[Path | None, typer.Option("--tables", help="A folder of your own table files.")]
Save = Annotated[Path | None, typer.Option("--save", help="Where to save the session (also on Ctrl-C).")]
Load = Annotated[Path | None, typer.Option("--load", help="Resume a saved session.")]
Workers = Annotated[int | None, typer.Option(
    "--workers", help="Local processes (default: one a core; 1: this process alone). The results do not depend on it.")]
Scheduler = Annotated[str | None, typer.Option(
    "--scheduler", help="Run on a Dask cluster: its scheduler's address, tcp://HOST:PORT (pip install "
    "'dedale[cluster]' here and on its workers, with this version of Dédale).")]
GridPx = Annotated[int | None, typer.Option(
    "--grid-px", help="Virtual tabletops: the picture's pixels a square (a hex's height), 20 to 400 (by default "
    "100, Foundry's and the importers' own).", show_default=False)]
SceneImage = Annotated[str, typer.Option("--image", help="Foundry scenes: the picture as png or webp.")]
PictureFile = Annotated[bool, typer.Option(
    "--picture-file", help="Foundry scenes: write the picture beside the scene (MAP.foundry.json and MAP.png or "
    "MAP.webp), the scene referring to it, instead of inside it.")]
TABLETOP = ("grid_px", "image", "picture_file")  # the options of the virtual tabletop files
View = Annotated[str, typer.Option(
    "--view", help="gm (everything) or party (what the party has discovered, without the GM's key; "
    "formerly player, still accepted).")]


def set_lang(lang: str) -> str:
    _lang[0] = check_lang(lang)
    return lang


def current_lang() -> str:
    return _lang[0]


def say(key: str, **args: Any) -> None:
    """A message for the user on stderr, in their language, on one line."""
    typer.echo(one_line(t(key, current_lang(), **args)), err=True)


def one_line(text: str) -> str:
    """`text` on one line, whatever it quotes: what would break the line written as an escape (\\n, \\x1b;
    an undecodable byte of a file's name as \\xff)."""
    return _UNPRINTABLE.sub(_escaped, text)


def _escaped(found: re.Match[str]) -> str:
    code = ord(found[0])
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, as Python keeps it (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return repr(found[0])[1:-1] if code < 0x100 else f"\\u{code:04x}"


def tables_folder(tables: Path | None, system_name: str) -> str | None:
    """The player's tables for a system: FOLDER/SYSTEM/ when there is one (as `dedale tables export`
    writes them), else FOLDER itself."""
    if tables is None:
        return None
    return str(tables / system_name if os.path.isdir(tables / system_name) else tables)


def resolve_seed(seed: str | None) -> int:
    """The seed given (a number, or a long seed's text: `core.seeds`), checked, or a new one, said on stderr when
    the command ends so that the result can be remade (`say_drawn_seed`)."""
    if seed is not None:
        return check_seed(seed)
    drawn = new_seed()
    _drawn.append(drawn)
    return drawn


def say_drawn_seed() -> None:
    """The seed drawn for the command, if any, on stderr: once it has made something, been stopped, or failed on
    a bug (to remake it)."""
    while _drawn:
        say("cli.seed", seed=_drawn.pop())


def forget_drawn_seed() -> None:
    """After bad input, whose one line says what was wrong and nothing else."""
    _drawn.clear()


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
        return Path(pattern) / f"{system.name}-{seed_text(seed)}.json"
    return seeded_path(pattern, seed, system)


def seeded_path(pattern: str, seed: int, system: System) -> Path:
    """A file of a batch named by a pattern with {seed}, or by a file's name with the seed added (no folder
    looked at: a worker names its files so)."""
    if "{seed}" in pattern:
        return Path(pattern.replace("{seed}", seed_text(seed)))
    from dedale.systems import extension_of

    path = Path(pattern)
    ext = extension_of(path, system)
    return path.with_name(f"{path.name[:len(path.name) - len(ext)]}-{seed_text(seed)}"
                          f"{path.name[len(path.name) - len(ext):]}")


def render(document: dict[str, Any], ext: str, system: System, options: dict[str, Any] | None = None) -> bytes:
    """A document in a file format, its words in the language the command was given (`--lang`)."""
    return system.export(document, ext, options, current_lang())


def write(path: Path, document: dict[str, Any], ext: str, system: System, options: dict[str, Any] | None = None
          ) -> None:
    """A document written in a file format, its words in the language the command was given (`--lang`); a
    Foundry scene with --picture-file, as two files."""
    if beside(ext, options):
        put(path, system.export(document, ".foundry.zip", {**(options or {}), "file": path.name}, current_lang()),
            ext, options)
        return
    write_file(path, system.export(document, ext, options, current_lang()))


def beside(ext: str | None, options: dict[str, Any] | None) -> bool:
    """Whether a Foundry scene's picture goes in a file of its own (--picture-file)."""
    return ext == ".foundry.json" and bool((options or {}).get("picture_file"))


def put(path: Path, data: bytes, ext: str | None, options: dict[str, Any] | None, named: bool = True) -> None:
    """Write what a file format made: one file, or a scene and its picture (the zip's two files) beside it."""
    if not beside(ext, options):
        write_file(path, data, named)
        return
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():  # the scene, named as asked, and its picture: no folder in either
            write_file(path.with_name(Path(name).name), archive.read(name), named)


def check_tabletop(options: dict[str, Any]) -> None:
    """The virtual tabletop options, checked before any work."""
    if any(key in options for key in TABLETOP):
        from dedale.render.vtt import Tabletop

        Tabletop.of(options)


def write_file(path: Path, data: bytes, named: bool = True) -> None:
    """Write a file atomically and, unless `named` is False (one of a batch, named once it is done), say so on
    stderr: the user sees where it went."""
    write_atomic(path, data)
    if named:
        say("cli.wrote", path=str(path))


QUIET_EVERY = 5.0  # seconds between progress lines without a terminal


@contextmanager
def progress(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr for long batches, told how many items are done; without a terminal (a log
    file, a job), a line of progress every `QUIET_EVERY` seconds instead."""
    if total < 20:
        yield lambda _: None
        return
    if not sys.stderr.isatty():
        last = [time.monotonic()]

        def tell(done: int) -> None:
            if time.monotonic() - last[0] >= QUIET_EVERY and done < total:
                last[0] = time.monotonic()
                say("cli.done", label=label, done=done, total=total)

        yield tell
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    # Refreshed here, not by Rich's own thread: with no other thread running, a batch's local workers can be
    # forks of this process (core/batch).
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True, auto_refresh=False) as bar:
        task = bar.add_task(label, total=total)
        shown = [0.0]

        def advance(done: int) -> None:
            bar.update(task, completed=done)
            if time.monotonic() - shown[0] >= 0.1:  # ten times a second at most, as Rich's thread would
                shown[0] = time.monotonic()
                bar.refresh()

        yield advance


@dataclass(frozen=True)
class Generation:
    """What each seed of a generation batch makes, wherever it runs: a worker process has no CLI state, so
    the job carries the system's name, its parameters and the language, and sends back bytes and text."""

    system: str
    params: Declared
    view: str
    file_format: str | None  # the extension of the file to write, if any
    line: Literal["json", "text"] | None  # what to print: the document, or the text view
    drawing: dict[str, Any]
    lang: str
    output: str | None = None  # -o's pattern, for a scene whose picture goes beside it

    def __call__(self, seed: int) -> tuple[bytes | None, str | None]:
        from dedale.core.session import Session
        from dedale.systems import system

        spec = system(self.system)
        document = spec.in_view(Session(spec.rules, self.params, seed).run_autopilot().to_json(), self.view)
        data = None
        if self.output is not None and beside(self.file_format, self.drawing):  # the scene and its picture
            named = seeded_path(self.output, seed, spec).name
            data = spec.export(document, ".foundry.zip", {**self.drawing, "file": named}, self.lang)
        elif self.file_format is not None:
            data = spec.export(document, self.file_format, self.drawing, self.lang)
        if self.line == "json":
            return data, json.dumps(document, ensure_ascii=False)  # one line each
        return data, spec.text(spec.load(document), self.lang) if self.line == "text" else None


def generate(system: System, params: Declared, given: str | None, count: int, as_json: bool, output: str | None,
             options: dict[str, Any] | None = None, view: str = "gm", where: Where | None = None) -> None:
    """The generation command every system shares: seeds seed..seed+count-1, by the autopilot, each as
    `view` sees it (core/views), in this process or `where` (core/batch); written and printed in order."""
    from dedale.core.batch import IN_PROCESS, run_batch
    from dedale.core.session import Session
    from dedale.systems import extension_of, json_text

    check_count(count)
    check_tabletop(options or {})
    ext = output_format(output, system) if output is not None else None
    if output is not None and count == 1 and not _is_folder(output):
        check_target(Path(output))  # said before the work, not after
    seed = resolve_seed(given)
    if seed + count - 1 > MAX_SEED:
        raise DedaleError("error.seeds_past_last", count=count, seed=seed_text(seed), last=seed_text(MAX_SEED))

    def target(current: int) -> Path:
        assert output is not None
        return Path(output) if count == 1 and not _is_folder(output) else batch_path(output, current, system)

    if count == 1:
        document = system.in_view(Session(system.rules, params, seed).run_autopilot().to_json(), view)
        if output is not None:
            path = target(seed)
            write(path, document, extension_of(path, system) or str(ext), system, options)
        if as_json:
            sys.stdout.write(json_text(document))
        elif output is None:
            typer.echo(system.text(system.load(document), current_lang()))
        return
    if output is not None:  # decided here: a worker may not see this machine's folders
        ext = extension_of(target(seed), system) or ext
    job = Generation(system.name, params, view, ext, "json" if as_json else "text" if output is None else None,
                     options or {}, current_lang(), output)
    seeds = range(seed, seed + count)
    if output is not None:  # before the work: the folder the files go into exists
        check_target(target(seed))
    with progress(count, t("cli.generating", current_lang())) as advance:
        for current, (data, line) in zip(seeds, run_batch(job, seeds, where or IN_PROCESS, advance), strict=True):
            if data is not None:
                put(target(current), data, ext, options, named=False)
            if line is not None:
                typer.echo(line)
    if output is not None:
        say("cli.wrote_many", count=count, first=str(target(seed)), last=str(target(seed + count - 1)))

"""The `dedale` command: a thin face over the library. Every error a user can cause is one line on
stderr and exit code 2, never a traceback."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from dedale.cli.common import (
    GridPx,
    Lang,
    PictureFile,
    SceneImage,
    View,
    current_lang,
    forget_drawn_seed,
    one_line,
    say,
    say_drawn_seed,
    set_lang,
)
from dedale.core.errors import DedaleError
from dedale.core.files import write_atomic


class Systems(TyperGroup):
    """The top-level commands plus one per system (from the registry); a system's commands are built only
    when it is run, so that `dedale crawler` loads nothing of the other systems and --help loads none."""

    def list_commands(self, ctx: Any) -> list[str]:
        from dedale.systems import top_commands

        return list(dict.fromkeys([*top_commands(), *super().list_commands(ctx)]))

    def get_command(self, ctx: Any, name: str) -> Any:
        from dedale.systems import summary, systems_at

        if systems_at(name):
            return Deferred(name, summary(name))
        return super().get_command(ctx, name)


class Deferred(TyperCommand):
    """A system's command group as --help lists it; the real one is built when the command is run."""

    def __init__(self, name: str, summary: str) -> None:
        super().__init__(name, help=summary, short_help=summary)

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None,
                     **extra: Any) -> typer.Context:
        from dedale.cli.options import command_for

        return command_for(self.name or "").make_context(info_name, args, parent, **extra)


# A host name or an address, IPv4 or IPv6 (with its zone, fe80::1%eth0): ASCII, which is what sockets and Host
# headers take (a name in another script, in its xn-- form).
_HOST = re.compile(r"[A-Za-z0-9._:%-]{1,253}")

app = typer.Typer(cls=Systems, add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False)
tables_app = typer.Typer(add_completion=False, no_args_is_help=True,
                         help="The content tables: export the defaults, check your own.")
app.add_typer(tables_app, name="tables")


def _version(asked: bool) -> None:
    if asked:
        from dedale import __version__

        typer.echo(f"dedale {__version__}")
        raise typer.Exit()


@app.callback()
def dedale(version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_version, help="Print the version and stop.")] = False) -> None:
    """Dédale: procedural tabletop systems to play through or generate, every roll seeded and logged."""


@app.command()
def schema(system: Annotated[str, typer.Argument(help="A system, such as crawler (dedale --help lists them).")]
           ) -> None:
    """Print the JSON Schema of a system's documents."""
    from dedale.systems import system as find

    typer.echo(find(system).schema())


@app.command("render")
def render_file(
    document: Annotated[Path, typer.Argument(help="A result saved as JSON by any system.")],
    output: Annotated[list[str] | None, typer.Option(
        "-o", "--output", help="Write .json .svg .png .txt .pdf, .dd2vtt .uvtt .foundry.json .foundry.zip "
        "(repeatable); without -o, the text view.")] = None,
    cards: Annotated[bool, typer.Option("--cards", help="Paper dungeon: the card that made each feature.")] = False,
    grid_px: GridPx = None,
    image: SceneImage = "png",
    picture_file: PictureFile = False,
    lang: Lang = "en",
    view: View = "gm",
) -> None:
    """Render a saved result again in any format, as the GM or the party sees it (drawn as saved, not replayed)."""
    from dedale.cli.common import check_tabletop, output_format, write
    from dedale.core.files import read_json
    from dedale.systems import system_of

    set_lang(lang)
    options = {"cards": cards, "grid_px": grid_px, "image": image, "picture_file": picture_file}
    check_tabletop(options)
    saved = read_json(document)
    found = system_of(saved)
    data = found.in_view(saved, view)
    formats = [output_format(path, found) for path in output or []]
    if not output:
        typer.echo(found.text(found.load(data), lang))
    for path, ext in zip(output or [], formats, strict=True):
        write(Path(path), data, ext, found, options)


@app.command()
def serve(
    host: Annotated[str, typer.Option(
        "--host", help="The address to listen on (only this machine by default).")] = "127.0.0.1",
    # read as text: Python's int() takes any script's digits ("٨٠٠٠" is 8000), which no one means as a port
    port: Annotated[str, typer.Option("--port", metavar="INTEGER", help="The port: 1 to 65535.")] = "8000",
    db: Annotated[Path, typer.Option("--db", help="The SQLite file the sessions are kept in.")] = Path("dedale.db"),
    allow_host: Annotated[list[str] | None, typer.Option(
        "--allow-host", help="Another host name the pages may be reached by (repeatable): this machine's name or "
        "address on the network, when --host exposes it.")] = None,
) -> None:
    """The web app: every system playable in the browser, sessions kept in SQLite (one server a file)."""
    from dedale.core.extras import require

    require("web")  # without dedale[web]: one line naming it, not an ImportError
    from dedale.core.numbers import whole
    from dedale.web.guard import allowed_hosts
    from dedale.web.serving import run

    number = whole(port, most_digits=5)
    if number is None or not 0 < number < 65536:
        raise DedaleError("error.port", value=port)
    for param, name in (("host", host), *(("allow-host", name) for name in allow_host or ())):
        if not _HOST.fullmatch(name):
            raise DedaleError("error.host_name", param=param, value=name)
    hosts = ", ".join(sorted(allowed_hosts(host, allow_host or ())))
    run(db, host, number, allow_host or (), lambda: typer.echo(one_line(
        f"Dédale is at http://{host}:{number}/  (sessions in {db}; answers to {hosts}; Ctrl-C stops it)"), err=True))


@tables_app.command("export")
def tables_export(folder: Annotated[Path, typer.Argument(help="Where to write the default tables.")],
                  lang: Lang = "en") -> None:
    """Write every system's default tables into FOLDER/SYSTEM/, to edit and use with --tables."""
    from dedale.core.tables import shipped_files
    from dedale.systems import names, system

    set_lang(lang)
    for each in map(system, names()):
        if each.tables is not None:
            try:  # the one command that makes folders: FOLDER/SYSTEM/ is what it was asked to write
                (folder / each.name).mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DedaleError("error.write", path=str(folder / each.name), problem=exc.strerror or str(exc)) \
                    from None
            for name, text in shipped_files(each.package):
                write_atomic(folder / each.name / name, text.encode("utf-8"))
    say("table.exported", path=str(folder))


@tables_app.command("check")
def tables_check(folder: Annotated[Path, typer.Argument(help="A folder of table files (or of SYSTEM/ folders).")],
                 lang: Lang = "en") -> None:
    """Check table files: every error names the file, the entry and what is wrong."""
    from dedale.systems import check_tables

    set_lang(lang)
    for path, count in check_tables(folder):
        say("table.ok", path=str(path), count=count)


def _as_typed(error: DedaleError) -> DedaleError:
    """An error naming a parameter as the command line spells it (`fill-chance`, typed `--fill-chance`), where
    the library, the forms and the API spell it `fill_chance`."""
    param = error.args_.get("param")
    if not isinstance(param, str) or "_" not in param:
        return error
    return DedaleError(error.key, **{**error.args_, "param": param.replace("_", "-")})


HELP_COLUMNS = 100  # help reads best within this, however wide the terminal


def main(argv: list[str] | None = None) -> None:
    if "TERMINAL_WIDTH" not in os.environ:  # Typer draws its help this wide (its own setting, read when it draws)
        os.environ["TERMINAL_WIDTH"] = str(min(shutil.get_terminal_size().columns, HELP_COLUMNS))
    try:
        app(args=argv, prog_name="dedale", standalone_mode=False)
    except DedaleError as exc:
        _fail(_as_typed(exc).message(current_lang()), 2)
    except (typer.Abort, KeyboardInterrupt):
        sys.exit(130)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:
        # Typer's own usage errors (an unknown option, a number that is not one): one line too.
        if not hasattr(exc, "format_message") or not hasattr(exc, "exit_code"):
            raise
        message = exc.format_message()
        if exc.exit_code == 0 or type(exc).__name__ == "NoArgsIsHelpError":
            typer.echo(message)
            sys.exit(0)
        _fail(message or type(exc).__name__, exc.exit_code or 2)
    finally:  # made, stopped, or a bug (whose traceback then comes with the seed that remakes it)
        say_drawn_seed()


def _fail(message: str, code: int) -> None:
    """Bad input: one line on stderr whatever the message quotes (not even the seed drawn), and the exit code."""
    forget_drawn_seed()
    typer.echo(f"dedale: {one_line(message)}", err=True)
    sys.exit(code)

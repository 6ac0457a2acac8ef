"""Each system's commands, built from the registry: `dedale SYSTEM` (generate by the autopilot) and
`dedale SYSTEM play`, with one option per declared parameter (`core.params`). Nothing here knows a system."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Annotated, Any

import typer

from dedale.cli.common import (
    TABLETOP,
    AsJson,
    Count,
    GridPx,
    Lang,
    Load,
    Output,
    PictureFile,
    Save,
    SceneImage,
    Scheduler,
    Seed,
    TableDice,
    View,
    Workers,
    generate,
    resolve_seed,
    set_lang,
)
from dedale.core.params import Field, fields_of
from dedale.core.views import check_view
from dedale.systems import System, system, systems_at


def command_for(top: str) -> Any:
    """The click command of `dedale TOP`: the systems whose commands sit there, with their own ones."""
    specs = [system(name) for name in systems_at(top)]
    main = next((spec for spec in specs if len(spec.cli_path) == 1), None)
    app = system_app(main) if main else typer.Typer(no_args_is_help=True)
    for inner in specs:
        if len(inner.cli_path) == 2:
            app.add_typer(system_app(inner), name=inner.cli_path[1])
    command = typer.main.get_command(app)
    command.name = top
    return command


def system_app(spec: System) -> typer.Typer:
    """The system's typer app: generation (when the system generates), `play`, and its own commands."""
    app = typer.Typer(invoke_without_command=spec.generates, no_args_is_help=not spec.generates,
                      add_completion=False, help=_help(spec))
    if spec.generates:
        app.callback()(_generate_command(spec))
    app.command("play", help="Play choice by choice in the terminal.")(_play_command(spec))
    if spec.cli is not None:
        import_module(spec.cli).extend(app)
    return app


def _help(spec: System) -> str:
    from dedale.i18n import t

    return t(f"cli.about.{spec.name}" if spec.cli_path == (spec.name,) else f"web.about.{spec.name}", "en")


def _generate_command(spec: System) -> Callable[..., None]:
    def command(ctx: typer.Context, seed: Seed = None, count: Count = 1, as_json: AsJson = False,
                output: Output = None, lang: Lang = "en", view: View = "gm", workers: Workers = None,
                scheduler: Scheduler = None, **values: Any) -> None:
        """Generate with the autopilot (the text view on stdout unless --json or -o)."""
        from dedale.core.batch import Where

        if ctx.invoked_subcommand is not None:
            return
        set_lang(lang)
        drawing = {name: values.pop(name) for name, _ in spec.drawing}
        drawing |= {name: values.pop(name) for name in TABLETOP if name in values}
        params = spec.params.from_options(values)
        check_view(view, spec.name, spec.party_view is not None)  # before anything is made
        generate(spec, params, seed, count, as_json, output, drawing, view, Where(workers, scheduler))

    drawing = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=False,
                                 annotation=Annotated[bool, typer.Option(f"--{name}", help=h)])
               for name, h in spec.drawing]
    return with_params(command, spec, drawing + (_tabletop() if ".foundry.json" in spec.formats else []))


def _tabletop() -> list[inspect.Parameter]:
    """--grid-px, --image and --picture-file, for a system with virtual tabletop files."""
    return [inspect.Parameter("grid_px", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=GridPx),
            inspect.Parameter("image", inspect.Parameter.KEYWORD_ONLY, default="png", annotation=SceneImage),
            inspect.Parameter("picture_file", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=PictureFile)]


def _play_command(spec: System) -> Callable[..., None]:
    def command(seed: Seed = None, table_dice: TableDice = False, save: Save = None, load: Load = None,
                lang: Lang = "en", **values: Any) -> None:
        """Play choice by choice in the terminal."""
        from dedale.cli.play import play
        from dedale.core.session import Session

        set_lang(lang)

        def make() -> Any:
            return Session(spec.rules, spec.params.from_options(values), resolve_seed(seed), table_dice)

        play(spec.rules, load, make, save, lang, spec.show)

    return with_params(command, spec)


def with_params(command: Callable[..., None], spec: System, more: list[inspect.Parameter] | None = None
                ) -> Callable[..., None]:
    """`command` with one CLI option per declared parameter of the system (and the `more` given), passed in
    `**values` by option name (typer reads the options from the signature)."""
    hints = typing.get_type_hints(command, include_extras=True)
    own = [p.replace(annotation=hints[p.name]) for p in inspect.signature(command).parameters.values()
           if p.kind is not p.VAR_KEYWORD]
    declared = [_option(field) for field in fields_of(spec.params)] + (more or [])

    def run(**given: Any) -> None:
        names = {p.name for p in declared}
        command(**{k: v for k, v in given.items() if k not in names},
                **{k: v for k, v in given.items() if k in names})

    # inspect (and so typer) reads a function's __signature__, which typeshed does not declare on functions
    run.__signature__ = inspect.Signature([*own, *declared])  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in [*own, *declared]}
    run.__doc__ = command.__doc__
    return run


def _option(field: Field) -> inspect.Parameter:
    default = None if field.default is None else field.text(field.default)
    if field.kind == "bool":
        flags = f"{field.flag}/--no-{field.flag[2:]}"
        option = typer.Option(flags, help=field.help("en"))
        return inspect.Parameter(field.option, inspect.Parameter.KEYWORD_ONLY, default=field.default,
                                 annotation=Annotated[bool, option])
    kind = {"int": int, "float": float}.get(field.kind, str)
    words = field.words()
    shown = f" [{'|'.join(words)}]" if words and field.kind == "word" else ""
    value: Any = field.default if field.kind in ("int", "float") else default
    option = typer.Option(field.flag, help=field.help("en") + shown, show_default=value is not None)
    annotation: Any = Annotated[kind if value is not None else kind | None, option]
    if field.spec.web is False and field.kind != "word":
        annotation = Annotated[Path | None, option]
    return inspect.Parameter(field.option, inspect.Parameter.KEYWORD_ONLY, default=value, annotation=annotation)

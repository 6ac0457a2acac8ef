"""`dedale keylock`: generate key-lock diagrams, analyse a saved one, nest one in another."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dedale.cli.common import AsJson, Count, Lang, Output, Seed, generate, read_json, render, set_lang, write_atomic
from dedale.keylock.analysis import analyse
from dedale.keylock.model import Diagram
from dedale.keylock.nest import nest as nest_diagrams
from dedale.keylock.params import KeylockParams
from dedale.keylock.session import KeylockSession
from dedale.render.keylock_text import analysis_text
from dedale.systems import system

app = typer.Typer(invoke_without_command=True, add_completion=False,
                  help="Key-lock diagrams: level-design trees of unique, multi and permanent keys.")


@app.callback()
def keylock(
    ctx: typer.Context,
    seed: Seed = None,
    unique: Annotated[int, typer.Option("--unique", help="Unique key-lock pairs.")] = 3,
    multi: Annotated[int, typer.Option("--multi", help="Multi-key sets.")] = 1,
    multi_max_locks: Annotated[int, typer.Option("--multi-max-locks", help="Most locks a multi-key set has.")] = 2,
    multi_max_keys: Annotated[int, typer.Option("--multi-max-keys", help="Most keys a multi-key set has.")] = 4,
    permanent: Annotated[int, typer.Option("--permanent", help="Permanent keys.")] = 1,
    permanent_max_locks: Annotated[int, typer.Option(
        "--permanent-max-locks", help="Most locks a permanent key opens.")] = 2,
    spread: Annotated[float, typer.Option(
        "--spread", help="How horizontal the diagram is (> 0; 0.01 is good).")] = 0.01,
    count: Count = 1,
    as_json: AsJson = False,
    output: Output = None,
    lang: Lang = "en",
) -> None:
    """Generate diagrams (the text view and analysis on stdout unless --json or -o)."""
    if ctx.invoked_subcommand is not None:
        return
    set_lang(lang)
    params = KeylockParams(unique=unique, multi=multi, multi_max_locks=multi_max_locks, multi_max_keys=multi_max_keys,
                           permanent=permanent, permanent_max_locks=permanent_max_locks, spread=spread)
    generate(system("keylock"), lambda s: KeylockSession(params, s), seed, count, as_json, output)


def _analyse(document: Path, as_json: bool, lang: str) -> None:
    import json

    set_lang(lang)
    diagram = Diagram.from_json(read_json(document))
    analysis = analyse(diagram)
    typer.echo(json.dumps(analysis, indent=2) if as_json else analysis_text(diagram, analysis, lang))


@app.command("analyse")
def analyse_file(document: Annotated[Path, typer.Argument(help="A key-lock diagram saved as JSON.")],
                 as_json: AsJson = False, lang: Lang = "en") -> None:
    """The designer's analysis: the walk, the hardest locks to reach (suggested ends), the empty locks."""
    _analyse(document, as_json, lang)


@app.command("analyze", hidden=True)
def analyze_file(document: Annotated[Path, typer.Argument(help="A key-lock diagram saved as JSON.")],
                 as_json: AsJson = False, lang: Lang = "en") -> None:
    """The same as analyse."""
    _analyse(document, as_json, lang)


@app.command()
def nest(
    outer: Annotated[Path, typer.Argument(help="The larger diagram (JSON).")],
    inner: Annotated[Path, typer.Argument(help="The diagram to insert as a linear obstacle (JSON).")],
    edge: Annotated[int, typer.Option("--edge", help="The node whose line from its parent takes the obstacle.")],
    output: Annotated[str, typer.Option("-o", "--output", help="Where to write the nested diagram (.json ...).")],
    lang: Lang = "en",
) -> None:
    """Insert a diagram as a linear obstacle on a line of another (its keys serve nowhere else)."""
    from dedale.cli.common import output_format

    set_lang(lang)
    found = system("keylock")
    ext = output_format(output, found)
    outer_data = read_json(outer)
    nested = nest_diagrams(Diagram.from_json(outer_data), Diagram.from_json(read_json(inner)), edge)
    document = {"format": "dedale/keylock", "version": KeylockSession.version, "generator": "keylock",
                "seed": outer_data.get("seed"), "params": outer_data.get("params"), "nested": True,
                "sets": [s.to_json() for s in nested.sets], "nodes": [n.to_json() for n in nested.nodes],
                "analysis": analyse(nested), "events": [], "log": []}
    write_atomic(Path(output), render(document, ext, found))

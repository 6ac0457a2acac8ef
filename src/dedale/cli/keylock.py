"""The key-lock diagrams' own commands beside generation: analyse a saved diagram, nest one in another."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dedale.cli.common import AsJson, Lang, render, set_lang, write_file
from dedale.core.documents import dump
from dedale.core.files import read_json
from dedale.keylock.analysis import analyse
from dedale.keylock.model import Diagram, KeylockResult
from dedale.keylock.nest import nest as nest_diagrams
from dedale.keylock.session import KeylockRules
from dedale.render.keylock_text import analysis_text
from dedale.systems import system


def _analyse(document: Path, as_json: bool, lang: str) -> None:
    import json

    set_lang(lang)
    diagram = Diagram.from_json(read_json(document))
    analysis = analyse(diagram)
    typer.echo(json.dumps(analysis, indent=2) if as_json else analysis_text(diagram, analysis, lang))


def analyse_file(document: Annotated[Path, typer.Argument(help="A key-lock diagram saved as JSON.")],
                 as_json: AsJson = False, lang: Lang = "en") -> None:
    """The designer's analysis: the walk, the hardest locks to reach (suggested ends), the empty locks."""
    _analyse(document, as_json, lang)


def analyze_file(document: Annotated[Path, typer.Argument(help="A key-lock diagram saved as JSON.")],
                 as_json: AsJson = False, lang: Lang = "en") -> None:
    """The same as analyse."""
    _analyse(document, as_json, lang)


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
    document = {"format": "dedale/keylock", "version": KeylockRules.version, "generator": "keylock",
                "seed": outer_data.get("seed"), "params": outer_data.get("params"),
                **dump(KeylockResult(nested=True, sets=nested.sets, nodes=nested.nodes)), "analysis": analyse(nested),
                "events": [], "log": []}
    write_file(Path(output), render(document, ext, found))


def extend(app: typer.Typer) -> None:
    app.command("analyse")(analyse_file)
    app.command("analyze", hidden=True)(analyze_file)
    app.command()(nest)

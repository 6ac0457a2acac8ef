"""`dedale paper`: generate paper dungeons from a deck of cards, or draw one in the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dedale.cli.common import (
    AsJson,
    Count,
    Lang,
    Load,
    Output,
    Save,
    Seed,
    TableDice,
    Tables,
    generate,
    resolve_seed,
    set_lang,
    tables_folder,
)
from dedale.cli.play import play as run_play
from dedale.paper.contents import load_tables
from dedale.paper.params import PaperParams
from dedale.paper.session import PaperSession
from dedale.render.paper_text import render_text
from dedale.systems import system

app = typer.Typer(invoke_without_command=True, add_completion=False,
                  help="The paper dungeon: corridors and rooms drawn from a 52-card deck and suit dice.")

Width = Annotated[int, typer.Option("--width", help="The page's width in squares.")]
Height = Annotated[int, typer.Option("--height", help="The page's height in squares.")]
MaxCards = Annotated[int, typer.Option("--max-cards", help="The card budget (Kings do not count).")]
Order = Annotated[str, typer.Option("--order", help="Which open end the autopilot takes: oldest, newest, random.")]
Kings = Annotated[str, typer.Option("--kings", help="reshuffle, or set-aside (the fourth King reshuffles).")]
StartSize = Annotated[int, typer.Option("--start-size", help="The starting room's side, in squares.")]


def _params(width: int, height: int, max_cards: int, order: str, kings: str, start_size: int,
            tables: Path | None) -> PaperParams:
    folder = tables_folder(tables, "paper")
    params = PaperParams(width=width, height=height, max_cards=max_cards, order=order, kings=kings,
                         start_size=start_size, tables=folder)
    load_tables(params.tables)  # a broken table file is bad input too: say so before anything else
    return params


@app.callback()
def paper(
    ctx: typer.Context,
    seed: Seed = None,
    width: Width = 60,
    height: Height = 60,
    max_cards: MaxCards = 80,
    order: Order = "oldest",
    kings: Kings = "reshuffle",
    start_size: StartSize = 4,
    tables: Tables = None,
    cards: Annotated[bool, typer.Option("--cards", help="Show the card that made each feature.")] = False,
    count: Count = 1,
    as_json: AsJson = False,
    output: Output = None,
    lang: Lang = "en",
) -> None:
    """Generate paper dungeons with the autopilot (the text view on stdout unless --json or -o)."""
    if ctx.invoked_subcommand is not None:
        return
    set_lang(lang)
    params = _params(width, height, max_cards, order, kings, start_size, tables)
    generate(system("paper"), lambda s: PaperSession(params, s), seed, count, as_json, output,
             {"cards": cards})


@app.command()
def play(
    seed: Seed = None,
    table_dice: TableDice = False,
    save: Save = None,
    load: Load = None,
    width: Width = 60,
    height: Height = 60,
    max_cards: MaxCards = 80,
    order: Order = "oldest",
    kings: Kings = "reshuffle",
    start_size: StartSize = 4,
    tables: Tables = None,
    lang: Lang = "en",
) -> None:
    """Draw a dungeon card by card in the terminal."""
    set_lang(lang)

    def make() -> PaperSession:
        params = _params(width, height, max_cards, order, kings, start_size, tables)
        return PaperSession(params, resolve_seed(seed), table_dice)

    run_play(PaperSession, load, make, save, lang, lambda s, lang: render_text(s.paper_map(), lang))

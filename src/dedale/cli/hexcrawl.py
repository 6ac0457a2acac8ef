"""`dedale hexcrawl`: generate hex maps, or explore one hex by hex in the terminal."""

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
from dedale.hexcrawl.params import HexParams, parse_hex
from dedale.hexcrawl.session import HexcrawlSession
from dedale.hexcrawl.tables import load_tables
from dedale.render.hex_text import render_text
from dedale.systems import system

app = typer.Typer(invoke_without_command=True, add_completion=False,
                  help="The hexcrawl: a hex map that appears as the party explores.")

Radius = Annotated[int, typer.Option("--radius", help="The map's radius in hexes (1 + 3R(R+1) hexes).")]
Order = Annotated[str, typer.Option(
    "--order", help="How the autopilot explores the map: spiral, bfs, walk (the party, depth-first) or "
    "random-walk (the spec's, slow on big maps).")]
ObstacleChance = Annotated[float, typer.Option("--obstacle-chance", help="The chance of a natural obstacle a hex.")]
Variant = Annotated[str, typer.Option(
    "--variant", help="rule (the neighbour and relief dice), or weighted (the seed author's simulator).")]
Start = Annotated[str, typer.Option("--start", help="The party's starting hex, Q,R (axial).")]
NoSites = Annotated[bool, typer.Option("--no-sites", help="Leave out the city's satellites and the ruins.")]


def _params(radius: int, order: str, obstacle_chance: float, variant: str, start: str, no_sites: bool,
            tables: Path | None) -> HexParams:
    params = HexParams(radius=radius, order=order, obstacle_chance=obstacle_chance, variant=variant,
                       start=parse_hex(start, "start"), sites=not no_sites, tables=tables_folder(tables, "hexcrawl"))
    load_tables(params.tables)  # a broken table file is bad input too: say so before anything else
    return params


@app.callback()
def hexcrawl(
    ctx: typer.Context,
    seed: Seed = None,
    radius: Radius = 12,
    order: Order = "spiral",
    obstacle_chance: ObstacleChance = 0.25,
    variant: Variant = "rule",
    start: Start = "0,0",
    no_sites: NoSites = False,
    tables: Tables = None,
    count: Count = 1,
    as_json: AsJson = False,
    output: Output = None,
    lang: Lang = "en",
) -> None:
    """Generate whole maps with the autopilot (the text view on stdout unless --json or -o)."""
    if ctx.invoked_subcommand is not None:
        return
    set_lang(lang)
    params = _params(radius, order, obstacle_chance, variant, start, no_sites, tables)
    generate(system("hexcrawl"), lambda s: HexcrawlSession(params, s), seed, count, as_json, output)


@app.command()
def play(
    seed: Seed = None,
    table_dice: TableDice = False,
    save: Save = None,
    load: Load = None,
    radius: Radius = 12,
    order: Order = "spiral",
    obstacle_chance: ObstacleChance = 0.25,
    variant: Variant = "rule",
    start: Start = "0,0",
    no_sites: NoSites = False,
    tables: Tables = None,
    lang: Lang = "en",
) -> None:
    """Explore the map hex by hex: type a direction (N, NE, SE, S, SW, NW) to move."""
    set_lang(lang)

    def make() -> HexcrawlSession:
        params = _params(radius, order, obstacle_chance, variant, start, no_sites, tables)
        return HexcrawlSession(params, resolve_seed(seed), table_dice)

    run_play(HexcrawlSession, load, make, save, lang, lambda s, lang: render_text(s.hex_map(), lang))

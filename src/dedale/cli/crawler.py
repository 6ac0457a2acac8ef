"""`dedale crawler`: generate crawler dungeons, play one in the terminal, print the tiles."""

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
    write_atomic,
)
from dedale.cli.play import play as run_play
from dedale.core.errors import DedaleError
from dedale.crawler.contents import load_tables
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerSession
from dedale.render.crawler_text import render_text
from dedale.systems import system

app = typer.Typer(invoke_without_command=True, add_completion=False,
                  help="The crawler: a dungeon of D8 room tiles on a board of zones, grown room by room.")

Size = Annotated[str, typer.Option("--size", help="Dungeon size: 3d6, 2d6 or a fixed number of rooms.")]
BossSize = Annotated[str | None, typer.Option(
    "--boss-size", help="The boss room's size, WxH (default 5x5, or the zone's size if smaller).")]
BoardZones = Annotated[int, typer.Option("--board", help="The board is Z x Z zones.")]
ZoneCells = Annotated[int, typer.Option("--zone", help="A zone is C x C cells.")]
Start = Annotated[str | None, typer.Option(
    "--start", help="Start zone and side: ZX,ZY[,SIDE] (default: the middle of the south edge).")]
FillChance = Annotated[float, typer.Option(
    "--fill-chance", help="Autopilot: chance to fill when filling is legal.")]
StockSpec = Annotated[str | None, typer.Option(
    "--stock", help="Limited tiles, e.g. 5x5=2,3x3=4,p1=3 (others unlimited).")]
NoEarlyBoss = Annotated[bool, typer.Option(
    "--no-early-boss", help="Skip the early-boss check: the boss comes as room N.")]
Contents = Annotated[str, typer.Option(
    "--contents", help="Room contents: tables, or dungeon-roll (Dungeon Roll dice).")]


def _params(size: str, boss_size: str | None, board: int, zone: int, start: str | None, fill_chance: float,
            stock: str | None, no_early_boss: bool, contents: str, tables: Path | None) -> CrawlerParams:
    folder = tables_folder(tables, "crawler")
    params = CrawlerParams.parse(board=board, zone=zone, size=size, boss_size=boss_size, start=start,
                                 fill_chance=fill_chance, stock=stock, early_boss=not no_early_boss,
                                 contents=contents, tables=folder)
    load_tables(params.tables)  # a broken table file is bad input too: say so before anything else
    return params


@app.callback()
def crawler(
    ctx: typer.Context,
    seed: Seed = None,
    size: Size = "3d6",
    boss_size: BossSize = None,
    board: BoardZones = 5,
    zone: ZoneCells = 5,
    start: Start = None,
    fill_chance: FillChance = 0.3,
    stock: StockSpec = None,
    no_early_boss: NoEarlyBoss = False,
    contents: Contents = "tables",
    tables: Tables = None,
    count: Count = 1,
    as_json: AsJson = False,
    output: Output = None,
    lang: Lang = "en",
) -> None:
    """Generate dungeons with the autopilot (the text view on stdout unless --json or -o)."""
    if ctx.invoked_subcommand is not None:
        return
    set_lang(lang)
    params = _params(size, boss_size, board, zone, start, fill_chance, stock, no_early_boss, contents, tables)
    generate(system("crawler"), lambda s: CrawlerSession(params, s), seed, count, as_json, output)


@app.command()
def play(
    seed: Seed = None,
    table_dice: TableDice = False,
    save: Save = None,
    load: Load = None,
    size: Size = "3d6",
    boss_size: BossSize = None,
    board: BoardZones = 5,
    zone: ZoneCells = 5,
    start: Start = None,
    fill_chance: FillChance = 0.3,
    stock: StockSpec = None,
    no_early_boss: NoEarlyBoss = False,
    contents: Contents = "tables",
    tables: Tables = None,
    lang: Lang = "en",
) -> None:
    """Explore a dungeon choice by choice in the terminal."""
    set_lang(lang)

    def make() -> CrawlerSession:
        params = _params(size, boss_size, board, zone, start, fill_chance, stock, no_early_boss, contents, tables)
        return CrawlerSession(params, resolve_seed(seed), table_dice)

    run_play(CrawlerSession, load, make, save, lang, lambda s, lang: render_text(s.dungeon(), s.focus(), lang))


@app.command()
def tiles(
    output: Annotated[Path, typer.Option("-o", "--output", help="The PDF to write.")] = Path("crawler-tiles.pdf"),
    boss_size: BossSize = None,
    copies: Annotated[int, typer.Option("--copies", help="How many of each tile.")] = 1,
    lang: Lang = "en",
) -> None:
    """Print-and-play: every tile at 1:1 (3 cm cells) on A4 pages, with cut marks."""
    from dedale.render.crawler_pdf import tiles_pdf

    set_lang(lang)
    if output.suffix.lower() != ".pdf":
        raise DedaleError("error.output", value=str(output), accepted=".pdf")
    if not 1 <= copies <= 20:
        raise DedaleError("error.range", param="copies", value=copies, low=1, high=20)
    params = CrawlerParams.parse(boss_size=boss_size)
    write_atomic(output, tiles_pdf(params.boss_size, lang, copies))

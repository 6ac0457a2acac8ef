"""The crawler's own command beside generation and play: `dedale crawler tiles`, its print-and-play tiles."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dedale.cli.common import Lang, set_lang, write_file
from dedale.core.errors import DedaleError

BossSize = Annotated[str | None, typer.Option(
    "--boss-size", help="The boss room's size, WxH (default 5x5).")]


def tiles(
    output: Annotated[Path, typer.Option("-o", "--output", help="The PDF to write.")] = Path("crawler-tiles.pdf"),
    boss_size: BossSize = None,
    copies: Annotated[int, typer.Option("--copies", help="How many of each tile.")] = 1,
    lang: Lang = "en",
) -> None:
    """Print-and-play: every tile at 1:1 (3 cm cells) on A4 pages, with cut marks."""
    from dedale.crawler.params import CrawlerParams
    from dedale.render.crawler_pdf import tiles_pdf

    set_lang(lang)
    if output.suffix.lower() != ".pdf":
        raise DedaleError("error.output", value=str(output), accepted=".pdf")
    if not 1 <= copies <= 20:
        raise DedaleError("error.range", param="copies", value=copies, low=1, high=20)
    params = CrawlerParams.from_options({"boss_size": boss_size})
    write_file(output, tiles_pdf(params.boss, lang, copies))


def extend(app: typer.Typer) -> None:
    app.command()(tiles)

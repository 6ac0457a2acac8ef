"""The crawler against a peer (issue 15): generate a dungeon and draw it, ours and dungeongen 0.1.14's, in the
same run. Target: ours at least 300 times faster.

What is timed, per seed, one core, after a warm-up (imports, caches, tables, fonts):
- ours: `Session(CrawlerRules, params, seed).run_autopilot()` (the default parameters, made once as benchmarks/run.py
  does: 5x5 zones, 3d6 rooms, 9.5 rooms on average, with their contents rolled and every roll logged), then
  `crawler_svg.render_svg` of its dungeon (the board, the rooms, the doors and the legend, as one SVG string);
- dungeongen: `DungeonGenerator(GenerationParams()).generate(seed)` (its defaults: a MEDIUM "classic"
  dungeon, 10 to 16 rooms, passages routed between them), then its `SVGRenderer().render` (the layout
  drawn as one SVG string: rooms, passages, doors, grid), as its web preview draws it. This is the figure
  the target is checked on: both sides draw a plain plan of the dungeon.
- For reference, dungeongen's hand-drawn map of the same dungeon (its renderer: `convert_dungeon`, then skia
  drawing on an `SVGCanvas` into memory, as its web preview's `render_dungeon_to_svg` does, without writing
  a file): generate plus that picture.

Each figure is the median over the seeds of each seed's best time in a few rounds: the best time filters out
the moments another process had the core (which a 0.2 s run meets more often than a 1 ms one, so that the mere
load of the machine would flatter the ratio); ours and dungeongen's are measured in alternation in each round,
so that both see the same machine.
"""

from __future__ import annotations

import contextlib
import io
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from dedale.core.session import Session
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerRules
from dedale.render.crawler_svg import render_svg

TARGET = 300.0
OUR_SEEDS = range(300)
PEER_SEEDS = range(20)  # dungeongen takes about 0.2 s a dungeon
ART_SEEDS = range(6)
ROUNDS = 3
GRID, PADDING = 20, 40  # dungeongen's web preview's framing of its pictures


PARAMS = CrawlerParams()


def ours(seed: int) -> str:
    return render_svg(Session(CrawlerRules, PARAMS, seed).run_autopilot().rules.dungeon())


def peer_plan(seed: int) -> str:
    from dungeongen.layout import DungeonGenerator, GenerationParams, SVGRenderer

    return str(SVGRenderer().render(DungeonGenerator(GenerationParams()).generate(seed=seed)))


def peer_art(seed: int) -> str:
    """dungeongen's hand-drawn map as SVG, as its web preview makes it (`render_dungeon_to_svg`)."""
    import skia
    from dungeongen.layout import DungeonGenerator, GenerationParams
    from dungeongen.webview.adapter import convert_dungeon

    dungeon = DungeonGenerator(GenerationParams()).generate(seed=seed)
    x0, y0, x1, y1 = dungeon.bounds
    width, height = (x1 - x0) * GRID + PADDING * 2, (y1 - y0) * GRID + PADDING * 2
    picture: Any = convert_dungeon(dungeon)
    stream = skia.DynamicMemoryWStream()
    canvas = skia.SVGCanvas.Make(skia.Rect.MakeWH(width, height), stream)
    canvas.drawRect(skia.Rect.MakeWH(width, height), skia.Paint(Color=skia.Color(255, 255, 255)))
    transform = skia.Matrix()
    transform.setScale(GRID / 64, GRID / 64)  # 64 map units a cell
    transform.postTranslate(PADDING, PADDING)
    picture.render(canvas, transform)
    del canvas  # flushes the SVG into the stream
    return str(stream.detachAsData().bytes().decode())


def timed(work: Callable[[int], object], seeds: Sequence[int], best: dict[int, float]) -> None:
    """Run `work` once for each seed, keeping each seed's best time (s) in `best`."""
    for seed in seeds:
        start = time.perf_counter()
        work(seed)
        best[seed] = min(best.get(seed, float("inf")), time.perf_counter() - start)


def compare(peer: Callable[[int], object], peer_seeds: Sequence[int], rounds: int = ROUNDS) -> tuple[float, float]:
    """The medians over the seeds (ms) of ours and the peer's best times, measured in alternating rounds."""
    with contextlib.redirect_stdout(io.StringIO()):  # dungeongen prints the font it loads
        for seed in OUR_SEEDS[:20]:
            ours(seed)
        peer(peer_seeds[0])
    best_ours: dict[int, float] = {}
    best_peer: dict[int, float] = {}
    for _ in range(rounds):
        timed(ours, OUR_SEEDS, best_ours)
        timed(peer, peer_seeds, best_peer)
    return statistics.median(best_ours.values()) * 1000, statistics.median(best_peer.values()) * 1000


def measure() -> list[tuple[str, str, bool]]:
    mine, plan = compare(peer_plan, PEER_SEEDS)
    ratio = plan / mine
    ok = ratio >= TARGET
    rows = [("crawler vs dungeongen: generate + SVG plan",
             f"ours {mine:.3f} ms, dungeongen {plan:.1f} ms: {ratio:,.0f}x "
             f"(target >= {TARGET:g}x: {'ok' if ok else 'UNDER TARGET'})", ok)]
    mine_art, art = compare(peer_art, ART_SEEDS, rounds=2)
    rows.append(("crawler vs dungeongen's hand-drawn map",
                 f"ours {mine_art:.3f} ms, dungeongen {art:.1f} ms: {art / mine_art:,.0f}x (for reference)", True))
    return rows


if __name__ == "__main__":
    for label, figure, _ in measure():
        print(f"{label:<48} {figure}")

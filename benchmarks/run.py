"""`make bench`: the performance targets of the issues, measured and printed.

Crawler (issue 2): the median time to generate a default dungeon, and to generate it and render its SVG,
on one core. Target: at most 5 ms each.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerSession
from dedale.render.crawler_svg import render_svg

TARGET_MS = 5.0


def median_ms(work: Callable[[int], object], runs: int = 600) -> float:
    for seed in range(50):  # warm up: imports, caches, table loading
        work(seed)
    times = []
    for seed in range(runs):
        start = time.perf_counter()
        work(seed)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> int:
    params = CrawlerParams()
    generate = median_ms(lambda seed: CrawlerSession(params, seed).run_autopilot())
    with_svg = median_ms(lambda seed: render_svg(CrawlerSession(params, seed).run_autopilot().dungeon()))
    failed = False
    for name, value in (("crawler: generate a default dungeon", generate),
                        ("crawler: generate it and render SVG", with_svg)):
        verdict = "ok" if value <= TARGET_MS else "OVER TARGET"
        failed |= value > TARGET_MS
        print(f"{name:<40} median {value:6.2f} ms   (target <= {TARGET_MS:g} ms: {verdict})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

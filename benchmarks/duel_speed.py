"""The poker duel's AI (issue 8): the median time of one decision, and of a whole AI-against-AI duel, over 200
seeded duels alternating the cautious and the bold bettor. Targets: at most 5 ms and 100 ms."""

from __future__ import annotations

import statistics
import time

from dedale.core.cards import Deck
from dedale.core.rng import Roller, SeededSource
from dedale.zombstone.skirmish.duel import act, ai_action, start

DECISION_MS, DUEL_MS = 5.0, 100.0


def _medians(duels: int = 200) -> tuple[float, float]:
    """The median decision and the median duel, in milliseconds."""
    decisions: list[float] = []
    whole: list[float] = []
    for seed in range(duels):
        roller, deck = Roller(SeededSource(seed), []), Deck()
        began = time.perf_counter()
        duel = start(roller, deck)
        while not duel.over:
            clock = time.perf_counter()
            action_id = ai_action(duel, roller, ("cautious", "bold")[seed % 2])
            decisions.append(time.perf_counter() - clock)
            act(duel, action_id, roller, deck)
        whole.append(time.perf_counter() - began)
    return statistics.median(decisions) * 1e3, statistics.median(whole) * 1e3


def measure() -> list[tuple[str, str, bool]]:
    """`make bench`'s rows (benchmarks/run.py): the best of three runs of 200 duels."""
    decision, duel = min(_medians() for _ in range(3))
    return [("duel AI: a decision, median", f"{decision:.3f} ms (target <= {DECISION_MS:g} ms: "
             + ("ok" if decision <= DECISION_MS else "OVER TARGET") + ")", decision <= DECISION_MS),
            ("duel AI: an AI-against-AI duel, median", f"{duel:.2f} ms (target <= {DUEL_MS:g} ms: "
             + ("ok" if duel <= DUEL_MS else "OVER TARGET") + ")", duel <= DUEL_MS)]


if __name__ == "__main__":
    for label, figure, _ in measure():
        print(f"{label:<52} {figure}")

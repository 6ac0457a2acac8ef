"""How the standard AI plays (issue 40), each shipped scenario over GAMES games between two standard AIs: gunmen
idle while a shot (or a move and a shot) was open to them (target at most 5%), hordes standing still, aimed
shots, Jokers played of those drawn, and Last Breaths that did nothing (target at most 10%)
(`zombstone.skirmish.ai_report`). The games are played on local worker processes, the same games whatever their
number."""

from __future__ import annotations

from dedale.core.batch import Where
from dedale.zombstone.skirmish.ai_report import ai_report, rows
from dedale.zombstone.skirmish.catalogue import load_catalogue
from dedale.zombstone.skirmish.params import SkirmishParams

GAMES = 400
SEED = 40


def measure() -> list[tuple[str, str, bool]]:
    found: list[tuple[str, str, bool]] = []
    for scenario, shipped in load_catalogue().scenarios.items():
        if shipped.shipped:
            found += rows(scenario, ai_report(SkirmishParams(scenario=scenario, side=None), GAMES, SEED, Where()),
                          GAMES)
    return found


if __name__ == "__main__":
    for label, figure, _ in measure():
        print(f"{label:<56} {figure}")

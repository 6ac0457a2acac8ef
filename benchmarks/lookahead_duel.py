"""The look-ahead level against the standard AI (issue 40): in each shipped scenario, 24 games: on GAMES seeds the
look-ahead plays the lawmen against the standard zombies, and on the same seeds the zombies, each game paired
with the same game (the same seed) between two standard AIs; a pair counts for the look-ahead when its side won
with it and not without, against it the other way round; the exact sign test's two-sided p-value over the pairs
that differ (`simulate.head_to_head`). For reference: the look-ahead is the level for a player who wants a
stronger opponent, and the table says by how much it is, and how sure that is."""

from __future__ import annotations

from dedale.core.batch import Where
from dedale.zombstone.skirmish.catalogue import load_catalogue
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.simulate import head_to_head, sign_test

GAMES = 12  # seeds a scenario, each played with the look-ahead on either side: 24 games (the long part of make bench)
SEED = 4004


def measure() -> list[tuple[str, str, bool]]:
    rows: list[tuple[str, str, bool]] = []
    for scenario, found in load_catalogue().scenarios.items():
        if not found.shipped:
            continue
        params = SkirmishParams(scenario=scenario, side=None)
        duels = list(head_to_head(params, "lookahead", GAMES, SEED, Where()).values())
        better, worse = sum(d.better for d in duels), sum(d.worse for d in duels)
        sides = "; ".join(f"as the {d.side} {d.wins} (standard {d.standard_wins})" for d in duels)
        wins, standard = sum(d.wins for d in duels), sum(d.standard_wins for d in duels)
        rows.append((f"zombstone {scenario}: look-ahead against standard",
                     f"won {wins} of {2 * GAMES} (standard {standard}; {sides}); pairs for it {better}, against "
                     f"{worse}; sign test p = {sign_test(better, worse):.2f}", True))
    return rows


if __name__ == "__main__":
    for label, figure, _ in measure():
        print(f"{label:<52} {figure}")

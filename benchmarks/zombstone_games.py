"""How Zombstone games play out (issue 16), each shipped scenario between the default AIs on both sides:
how the games end (elimination, flight, the scenario's own condition, the turn limit), melees a game, and
each side's win rate with its 95% (Wilson) interval over GAMES games. Targets (issue 40): each side wins 40% to
60% of the games, unless the scenario says in its TOML which side it favours and why (then shown for reference),
and at least 60% of the games are decided at the table.
The games are played on local worker processes (one a core), the same games whatever their number."""

from __future__ import annotations

from collections import Counter

from dedale.core.batch import Where
from dedale.zombstone.skirmish.catalogue import SIDES, load_catalogue
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.simulate import run, wilson

GAMES = 2_000
SEED = 16
EVEN = (0.40, 0.60)  # each side's win rate, when the scenario favours neither
TABLE = 0.60  # of the games decided at the table: by the scenario's condition or an elimination, not the dollars


def scenario_rows(scenario: str) -> list[tuple[str, str, bool]]:
    outcomes = run(SkirmishParams(scenario=scenario, side=None), GAMES, SEED, Where())
    favoured = load_catalogue().scenario(scenario).favoured
    decided = Counter(o.decided_by for o in outcomes)
    endings = ", ".join(f"{how} {count / GAMES:.0%}" for how, count in decided.most_common())
    melees = sum(o.melees for o in outcomes) / GAMES
    shots = sum(o.shots for o in outcomes) / GAMES
    at_table = sum(1 for o in outcomes if o.decided_by != "dollars") / GAMES
    rows = [(f"zombstone {scenario}: how games end", f"{endings} (of {GAMES:,})", True),
            (f"zombstone {scenario}: decided at the table", f"{at_table:.0%} (target >= {TABLE:.0%}: "
                                                             + ("ok" if at_table >= TABLE else "UNDER TARGET") + ")",
             at_table >= TABLE),
            (f"zombstone {scenario}: melees a game", f"{melees:.1f} (shots {shots:.1f}; for reference)", True)]
    for side in SIDES:
        wins = sum(1 for o in outcomes if o.winner == side)
        low, high = wilson(wins, GAMES)
        even = EVEN[0] <= wins / GAMES <= EVEN[1]
        if favoured is not None:
            verdict, ok = f"the scenario favours the {favoured.side}: for reference", True
        else:
            verdict, ok = "target 40-60%: " + ("ok" if even else "OUT OF RANGE"), even
        rows.append((f"zombstone {scenario}: {side} win", f"{wins / GAMES:.1%} (95%: {low:.1%}-{high:.1%}; {verdict})",
                     ok))
    return rows


def measure() -> list[tuple[str, str, bool]]:
    return [row for scenario, found in load_catalogue().scenarios.items() if found.shipped
            for row in scenario_rows(scenario)]


if __name__ == "__main__":
    for label, figure, _ in measure():
        print(f"{label:<48} {figure}")

"""The skirmish AI against an earlier one (issue 32), head to head: in each shipped scenario, GAMES games with
today's AI playing the lawmen and the earlier one the zombies, then GAMES with the sides swapped. The earlier
AI is the `ai.py` of a git revision (BASE unless given: the commit before the AI was rewritten), loaded for the
run only: the product keeps one AI. Target: today's AI wins more than 50% as either side, or more than
today's AI wins against itself as that side (`dedale zombstone balance`).

    python benchmarks/zombstone_ai_match.py [games] [revision]
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from dedale.zombstone.skirmish import simulate
from dedale.zombstone.skirmish.catalogue import SIDES, load_catalogue
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.simulate import game_seed, play_game, wilson
from dedale.zombstone.skirmish.table import Controller

GAMES = 2_000
SEED = 32
BASE = "5cc10ab"  # the AI before issue 32
ROOT = Path(__file__).resolve().parent.parent


def earlier_ai(revision: str) -> ModuleType:
    """The AI module of `revision`, imported under its own name beside today's."""
    source = subprocess.run(["git", "show", f"{revision}:src/dedale/zombstone/skirmish/ai.py"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "earlier_ai.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("earlier_ai", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def rates(scenario: str, games: int, levels: dict[str, str]) -> dict[str, float]:
    params = SkirmishParams(scenario=scenario, side=None)
    outcomes = [play_game(params, game_seed(SEED, n), levels=levels) for n in range(games)]
    found = {side: sum(1 for o in outcomes if o.winner == side) / games for side in SIDES}
    found["decided"] = sum(1 for o in outcomes if o.decided_by != "dollars") / games
    return found


def main(games: int, revision: str) -> None:
    earlier: Callable[[str], Controller] = earlier_ai(revision).AI
    simulate.LEVELS["earlier"] = earlier  # for this run only
    print(f"{games} games a scenario and a side; earlier AI: {revision}")
    for scenario, found in load_catalogue().scenarios.items():
        if not found.shipped:
            continue
        as_lawmen = rates(scenario, games, {"lawmen": "standard", "zombies": "earlier"})
        as_zombies = rates(scenario, games, {"lawmen": "earlier", "zombies": "standard"})
        for side, run in (("lawmen", as_lawmen), ("zombies", as_zombies)):
            low, high = wilson(round(run[side] * games), games)
            print(f"{scenario:<14} today's AI as the {side:<7} against the earlier: wins {run[side]:6.1%} "
                  f"(95%: {low:.1%}-{high:.1%}); decided at the table {run['decided']:.0%}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES, sys.argv[2] if len(sys.argv) > 2 else BASE)

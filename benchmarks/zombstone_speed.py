"""The Zombstone dice engine's speed (issue 15), each figure the best of a few runs:

- a `win` or `damage` query for a pair it has not met, in a warm process (modules imported, other
  queries answered): every pair of Potentials 1 to 5 (and more situations), the engine's caches of
  confrontations emptied before each; the worst and the median. Target: at most 10 ms;
- `dedale zombstone tables` in a fresh process. Target: at most 3 s;
- the web calculator through the app (FastAPI's TestClient): the `/zombstone` page with a new odds and
  duel query, and both API routes. Target: at most 200 ms each. The duel plot's image is reported apart:
  its 100 confrontations (computed) and matplotlib's drawing (no target);
- against icepool 2.1.3 (the `bench` extra), the same exact probabilities computed both ways (checked equal):
  Potential 2 aiming at three of a kind (a hand distribution: target at least 40 times faster), and
  Potential 1 against Potential 1 (both sides rerolling, the defender seeing the attacker's dice), for
  reference. Reported as a ratio of times.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

from dedale.zombstone import confront as engine
from dedale.zombstone.chances import odds
from dedale.zombstone.charts import POTENTIALS, situation_for, spec_for
from dedale.zombstone.confront import Situation, confront
from dedale.zombstone.policy import RollSpec

QUERY_MS, TABLES_S, WEB_MS = 10.0, 3.0, 200.0
PEER_RATIO = 40.0  # a hand distribution, at least this many times faster than icepool 2.1.3's (issue 27)
TABLES = "import sys; from dedale.cli import main; sys.argv = ['dedale', 'zombstone', 'tables']; main()"
Row = tuple[str, str, bool]


def forget() -> None:
    """Empty the engine's caches of confrontations, so that the next query is worked out in full."""
    for cached in (engine._policies, engine._defence, engine._answers, engine._tally):
        cached.cache_clear()


def best_s(work: Callable[[], object], rounds: int = 3, before: Callable[[], None] = lambda: None) -> float:
    return timed(work, rounds, before)[0]


def timed(work: Callable[[], Any], rounds: int = 3, before: Callable[[], None] = lambda: None) -> tuple[float, Any]:
    """The best time of `rounds` runs (each after `before`), and what the last returned."""
    times, result = [], None
    for _ in range(rounds):
        before()
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return min(times), result


def queries() -> list[Row]:
    confront(Situation(0, 0))  # warm: modules imported, a first query answered
    pairs = [situation_for(a, d, objective=objective) for a in range(1, 6) for d in range(1, 6)
             for objective in ("win", "damage")]
    pairs += [situation_for(5, 5, cover="heavy"), situation_for(5, 5, reaction="return", cover="light"),
              situation_for(5, 5, melee=True, attacker_weapon="sabre", defender_weapon="fists")]
    times = [best_s(lambda s=s: confront(s), rounds=5, before=forget) * 1000 for s in pairs]
    worst = max(times)
    verdict = "ok" if worst <= QUERY_MS else "MISSED"
    return [(f"zombstone: a query for a new pair (worst of {len(pairs)})",
             f"{worst:.1f} ms, median {statistics.median(times):.1f} (target <= {QUERY_MS:g} ms: {verdict})",
             worst <= QUERY_MS)]


def tables() -> list[Row]:
    def run() -> None:
        subprocess.run([sys.executable, "-c", TABLES], check=True, capture_output=True)

    seconds = best_s(run)
    return [("zombstone: `dedale zombstone tables`, fresh process", f"{seconds:.2f} s (target <= {TABLES_S:g} s: "
             f"{'ok' if seconds <= TABLES_S else 'MISSED'})", seconds <= TABLES_S)]


def web() -> list[Row]:
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient` is deprecated")
    sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
    from webclient import web_client  # the tests' client: a browser on this machine

    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as folder, web_client(Path(folder) / "calculator.db") as client:

        def get(path: str, **params: Any) -> None:
            response = client.get(path, params=params)
            assert response.status_code == 200, response.text[:300]

        get("/zombstone", potential=0, attacker=0, defender=0)  # warm: the calculator's modules imported
        get("/zombstone/duel.png", attacker=0, defender=0)
        requests = {"/zombstone page, odds and duel": ("/zombstone", {"potential": 4, "attacker": 4, "defender": 5}),
                    "/api/zombstone/odds": ("/api/zombstone/odds", {"potential": 3, "objective": "target",
                                                                   "target": "full", "card": "K"}),
                    "/api/zombstone/duel-odds": ("/api/zombstone/duel-odds", {"attacker": 5, "defender": 3,
                                                                             "cover": "heavy", "objective": "damage"})}
        for name, (path, params) in requests.items():
            ms = best_s(lambda path=path, params=params: get(path, **params), before=forget) * 1000
            rows.append((f"zombstone web: {name}, new query", f"{ms:.0f} ms (target <= {WEB_MS:g} ms: "
                         f"{'ok' if ms <= WEB_MS else 'MISSED'})", ms <= WEB_MS))
        grid = situation_for(0, 0, reaction="return", cover="light")
        computed = best_s(lambda: [confront(replace(grid, attacker=a, defender=d)) for a in POTENTIALS
                                   for d in POTENTIALS], before=forget) * 1000
        from dedale.web import zombstone as calculator

        def forget_all() -> None:
            forget()
            calculator._duel_grid.cache_clear()  # the picture itself, drawn once a situation

        image = best_s(lambda: get("/zombstone/duel.png", attacker=3, defender=2, reaction="return", cover="light"),
                       before=forget_all) * 1000
        rows.append(("zombstone web: duel plot, new query (reference)", f"{image:.0f} ms: its 100 confrontations "
                     f"{computed:.0f} ms, the rest matplotlib's drawing", True))
    return rows


def icepool_rows() -> list[Row]:
    try:
        import icepool
    except ImportError:
        return [("zombstone: against icepool", "icepool is not installed (pip install dedale[bench])", False)]
    target_ice, theirs = timed(lambda: icepool_target(5, 2, 3), rounds=2)
    target_ours, ours = timed(lambda: odds(spec_for(2), "target", 3), rounds=10)
    same = all(theirs.probability(c) == ours.probability(c) for c in range(7))
    one = RollSpec.from_potential(1)
    duel_ice, their_win = timed(lambda: icepool_win(one, one), rounds=1)
    duel_ours, outcome = timed(lambda: confront(Situation(1, 1)), rounds=10, before=forget)
    same_duel = their_win == outcome.win
    ratio = target_ice / target_ours
    return [(f"zombstone vs icepool {icepool.__version__}: Potential 2 aiming at three", f"{ratio:,.0f}x faster "
             f"({target_ours * 1000:.2f} ms vs {target_ice * 1000:.0f} ms; same exact distribution: {same}; "
             f"target >= {PEER_RATIO:g}x)", same and ratio >= PEER_RATIO),
            ("zombstone vs icepool: win, Potential 1 vs 1", f"{duel_ice / duel_ours:,.0f}x faster "
             f"({duel_ours * 1000:.2f} ms vs {duel_ice:.1f} s; same exact chance: {same_duel})", same_duel)]


# icepool's side: the same rules written with icepool's dice pools (faces 1 to 6), the same tie rule
# (among equally good keeps, the most dice kept, then the lowest counts), exact Fractions throughout.

SHAPES = {(5,): 6, (4, 1): 5, (3, 2): 4, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}


def _hand(faces: tuple[int, ...]) -> tuple[int, ...]:
    """A hand of five dice: its category, then its faces by group size and face, highest first."""
    counts = {face: faces.count(face) for face in faces}
    shape = tuple(sorted(counts.values(), reverse=True))
    category = next((c for s, c in SHAPES.items() if shape[:len(s)] == s), 0)
    return (category, *sorted(faces, key=lambda face: (counts[face], face), reverse=True))


def _keeps(roll: tuple[int, ...], budget: int) -> list[tuple[int, ...]]:
    kept = {tuple(sorted(roll[i] for i in range(len(roll)) if i not in dropped))
            for size in range(budget + 1) for dropped in combinations(range(len(roll)), size)}
    return sorted(kept, key=lambda k: (-len(k), tuple(k.count(face) for face in range(1, 7))))


def _finals(dice: int) -> Callable[[tuple[int, ...]], Any]:
    """The distribution of the final hand once the dice not kept are rerolled (one die each keep)."""
    import icepool

    @cache
    def final(kept: tuple[int, ...]) -> Any:
        if len(kept) == dice:
            return icepool.Die([_hand(kept)])
        return icepool.d6.pool(dice - len(kept)).expand().map(lambda new: _hand(tuple(sorted(kept + new))), star=False)

    return final


def icepool_target(dice: int, budget: int, target: int) -> Any:
    """The final hand category's distribution, rerolling to reach at least `target`."""
    import icepool

    final = _finals(dice)

    def play(roll: tuple[int, ...]) -> Any:
        best = max(_keeps(roll, budget), key=lambda k: final(k).map(lambda h: h[0]).probability(">=", target))
        return final(best).map(lambda h: h[0])

    return icepool.d6.pool(dice).expand().map(play, star=False)


def icepool_win(attacker: RollSpec, defender: RollSpec) -> Fraction:
    """The attacker's chance to win (a dodge: only it can deal damage), both rerolling optimally: the
    defender, seeing the attacker's final hand, to not be beaten; the attacker for that defence."""
    import icepool

    final_a, final_d = _finals(attacker.dice), _finals(defender.dice)
    rolls_d = icepool.d6.pool(defender.dice).expand()

    @cache
    def beaten(hand: tuple[int, ...]) -> Fraction:
        def answer(roll: tuple[int, ...]) -> Fraction:
            return min(final_d(k).probability("<", hand) for k in _keeps(roll, defender.budget))

        return sum((Fraction(q, rolls_d.denominator()) * answer(roll) for roll, q in rolls_d.items()), Fraction(0))

    def worth(kept: tuple[int, ...]) -> Fraction:
        die = final_a(kept)
        return sum((Fraction(q, die.denominator()) * beaten(h) for h, q in die.items()), Fraction(0))

    rolls_a = icepool.d6.pool(attacker.dice).expand()
    return sum((Fraction(q, rolls_a.denominator()) * max(worth(k) for k in _keeps(roll, attacker.budget))
                for roll, q in rolls_a.items()), Fraction(0))


def measure() -> list[Row]:
    return queries() + tables() + web() + icepool_rows()


if __name__ == "__main__":
    for label, figure, _ in measure():
        print(f"{label:<52} {figure}")

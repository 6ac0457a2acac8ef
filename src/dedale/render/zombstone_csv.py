"""Zombstone's battle runs as CSV, for a spreadsheet: `dedale zombstone simulate` (one row), `balance`'s table
(a row a scenario and matchup of AI levels) and its sweep (a row a value). Every column the printed table
shows, and the counts behind it: headers in English snake_case, numbers as Python writes them (a dot, no
percent sign: a rate is a share, 0.5), whatever the language of the text."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

SIDES = ("lawmen", "zombies")
OUTCOMES = (("lawmen", "lawmen_wins", "lawmen"), ("zombies", "zombies_wins", "zombies"), ("draw", "draws", "draw"))


def _number(value: Any) -> Any:
    """A share or an average rounded to 6 decimals (a whole number as it is): 0.094531, not 0.0945312057399."""
    return round(value, 6) if isinstance(value, float) else value


def _wins(wins: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Each side's wins and the draws: how many, the rate, and its 95% interval's low and high ends."""
    found: dict[str, Any] = {}
    for name, count, prefix in OUTCOMES:
        found[count] = wins[name]["games"]
        for part in ("rate", "low", "high"):
            found[f"{prefix}_{part}"] = _number(wins[name][part])
    return found


def _decided_by(decided_by: Mapping[str, int]) -> dict[str, int]:
    return {f"decided_by_{how}": count for how, count in decided_by.items()}


def _sides(levels: Mapping[str, str], policies: Mapping[str, str], rounds: int) -> dict[str, Any]:
    return {**{f"ai_{side}": levels[side] for side in SIDES}, **{f"policy_{side}": policies[side] for side in SIDES},
            "rounds": rounds}


def _policies(params: Mapping[str, Any]) -> dict[str, str]:
    return {side: params.get(f"policy_{side}", "default") for side in SIDES}


def _csv(rows: list[dict[str, Any]]) -> bytes:
    """The rows under their keys' header, UTF-8, lines ended as RFC 4180 says (CRLF)."""
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


def simulation_csv(result: Mapping[str, Any]) -> bytes:
    """A battle run (`simulate.summary`) as one row: the scenario, each side's AI, the win rates with their
    intervals, the share decided at the table, turns, melees and shots a game, survivors, how games ended."""
    params, games = result["params"], result["games"]
    decided_by = result["decided_by"]
    row = {"scenario": params["scenario"], **_sides(result["levels"], _policies(params), params.get("rounds", 1)),
           "games": games, **_wins(result["wins"]),
           "decided_at_table": _number((games - decided_by["dollars"]) / games if games else 0.0),
           "turn_limit": _number((result["endings"]["turns"] + result["endings"]["draw"]) / games if games else 0.0),
           "turns": _number(result["turns"]), "melees": _number(result["melees"]), "shots": _number(result["shots"]),
           **{f"survivors_{side}": _number(result["survivors"][side]) for side in SIDES},
           **{f"dollars_{side}": _number(result["dollars"][side]) for side in SIDES},
           **_decided_by(decided_by), "seed": result["seed"]}
    return _csv([row])


def table_csv(result: Mapping[str, Any]) -> bytes:
    """`balance`'s table (`balance.overview`): a row a scenario and matchup of AI levels."""
    rows = [{"scenario": row["scenario"], **_sides(row["levels"], result["policies"], result["rounds"]),
             "games": result["games"], **_wins(row["wins"]), "decided_at_table": _number(row["decided"]),
             "turn_limit": _number(row["turn_limit"]), "turns": _number(row["turns"]),
             "melees": _number(row["melees"]), "favoured": row["favoured"] or "", **_decided_by(row["decided_by"]),
             "seed": result["seed"]}
            for row in result["rows"]]
    return _csv(rows)


def sweep_csv(result: Mapping[str, Any]) -> bytes:
    """`balance`'s sweep (`balance.sweep`): a row a value of the field swept."""
    params = result["params"]
    rows = [{"scenario": params["scenario"], **_sides(result["levels"], _policies(params), params.get("rounds", 1)),
             "kind": result["kind"], "item": result["item"], "field": result["field"], "value": row["value"],
             "games": result["games"], **_wins(row["wins"]), "decided_at_table": _number(row["decided"]),
             "turn_limit": _number(row["turn_limit"]), "turns": _number(row["turns"]),
             "melees": _number(row["melees"]), **_decided_by(row["decided_by"]), "seed": result["seed"]}
            for row in result["values"]]
    return _csv(rows)

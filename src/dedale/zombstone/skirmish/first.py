"""How the skirmish played before issue 32, for the documents made then (version 3 and before) to replay as
they were made: `SkirmishParams.tactics` "first", which loading such a document sets. Its AI (`ai_first.py`),
its shipped scenarios' turn limits, victories and deployments, its High Noon deployment (in cover within the
duellist's reach, both bands possibly behind the same piece) and its defender (rerolling to win or tie only)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dedale.zombstone.skirmish.catalogue import Scenario, Victory

TACTICS = ("current", "first")

# The shipped scenarios' settings changed by issue 32, as they were.
SCENARIOS: dict[str, dict[str, Any]] = {
    "ok_corral": {"turns": 8, "victory": Victory(), "favoured": None},
    "high_noon": {"turns": 6, "victory": Victory()},
    "bird_cage": {"turns": 6, "deploy": {"lawmen": (23.0, 9.0, 6.0, 12.0), "zombies": (1.0, 9.0, 6.0, 12.0)}},
    "vendetta_ride": {"turns": 10, "favoured": None},
    "jail_yard": {"turns": 6, "deploy": {"lawmen": (12.0, 11.0, 6.0, 6.0), "zombies": (1.0, 8.0, 6.0, 14.0)}},
}


def first_scenario(scenario: Scenario) -> Scenario:
    """A shipped scenario as it was before issue 32 (a player's own, as it is)."""
    return replace(scenario, **SCENARIOS[scenario.id]) if scenario.shipped and scenario.id in SCENARIOS else scenario

"""`dedale zombstone balance`: the table of every scenario at every matchup of AI levels (`overview`: win rates
with their 95% intervals, the share decided at the table, turns), and the designer's sweep: one field of one
profile or weapon set to each of a few values, the same games (the same per-game seeds) played at each, and
each side's win rate with its 95% interval, how the games were decided, turns and melees a game, value by
value."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import Any

from dedale.core.batch import IN_PROCESS, Where, run_batch
from dedale.core.errors import DedaleError
from dedale.zombstone.hands import POTENTIALS
from dedale.zombstone.skirmish.catalogue import SIDES, Catalogue, load_catalogue
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.simulate import (
    DECIDED,
    Outcome,
    game_seed,
    matchup_name,
    play_game,
    side_levels,
    win_rates,
)

# field -> (lowest, highest, whole number): the bounds the data files accept
PROFILE_FIELDS = {"potential": (POTENTIALS[0], POTENTIALS[-1], True), "hand": (0, 5, True), "cartridges": (1, 12, True),
                  "red": (1, 12, True), "cost": (0, 10_000, True)}
WEAPON_FIELDS = {"damage": (-3, 5, True), "range": (1, 100, False)}
MAX_VALUES = 20


@dataclass(frozen=True)
class Tweak:
    """One field of one profile (kind "profile") or weapon (kind "weapon") set to `value` (a profile's
    `potential` is the unhurt one; the wounded one keeps its drop)."""

    kind: str
    item: str
    field: str
    value: float

    def apply(self, catalogue: Catalogue) -> Catalogue:
        whole = int(self.value)
        if self.kind == "weapon":
            weapons = dict(catalogue.weapons)
            weapon = weapons[self.item]
            weapons[self.item] = (replace(weapon, range=float(self.value)) if self.field == "range"
                                  else replace(weapon, damage=whole))
            return replace(catalogue, weapons=weapons)
        profiles = dict(catalogue.profiles)
        profile = profiles[self.item]
        if self.field == "potential":  # the wounded Potential keeps its drop
            unhurt, wounded = profile.potential
            changed: dict[str, Any] = {"potential": (whole, max(-4, whole - (unhurt - wounded)))}
        else:
            changed = {self.field: whole}
        profiles[self.item] = replace(profile, **changed)
        return replace(catalogue, profiles=profiles)

    @property
    def shown(self) -> float | int:
        """The value as the data file would hold it: a whole number but a gun's range."""
        return float(self.value) if self.field == "range" else int(self.value)


def sweep_tweaks(data: str | None, kind: str, item: str, field: str, values: list[float]) -> list[Tweak]:
    """The sweep's tweaks, checked: an item of the data, a field it has, values its file would accept."""
    catalogue = load_catalogue(data)
    found: dict[str, Any] = catalogue.weapons if kind == "weapon" else catalogue.profiles
    if item not in found:
        raise DedaleError("error.skirmish.unknown", what=kind, value=item, accepted=", ".join(found))
    fields = WEAPON_FIELDS if kind == "weapon" else PROFILE_FIELDS
    if field not in fields:
        raise DedaleError("error.one_of", param="field", value=field, accepted=", ".join(fields))
    if kind == "weapon" and field == "range" and found[item].melee:
        raise DedaleError("error.skirmish.melee_range", weapon=item)
    if not 1 <= len(values) <= MAX_VALUES:
        raise DedaleError("error.range", param="values", value=len(values), low=1, high=MAX_VALUES)
    low, high, whole = fields[field]
    if field == "red":  # no more red cartridges than cartridges
        high = found[item].cartridges
    for value in values:
        if not low <= value <= high or (whole and value != int(value)):
            raise DedaleError("error.range", param=field, value=f"{value:g}", low=low, high=high)
    return [Tweak(kind, item, field, value) for value in values]


@lru_cache(maxsize=32)
def _catalogue(data: str | None, tweak: Tweak) -> Catalogue:
    """The data with the tweak (made once a process, not once a game)."""
    return tweak.apply(load_catalogue(data))


def play_tweaked(params: SkirmishParams, run_seed: int, tweaks: tuple[Tweak, ...], item: tuple[int, int],
                 levels: Mapping[str, str] | None = None) -> Outcome:
    """Game `number` of the run at the `index`-th value: the same seed at every value."""
    index, number = item
    return play_game(params, game_seed(run_seed, number), _catalogue(params.data, tweaks[index]), levels)


def _counts(played: list[Outcome]) -> dict[str, Any]:
    """What the table and the sweep say of some games: each side's win rate with its 95% interval, the share
    decided at the table (by the scenario's condition or an elimination, not by counting the dollars at the
    turn limit), the share that reached the turn limit, how each was decided, turns and melees a game."""
    n = len(played)
    return {"wins": win_rates(played),
            "decided": sum(1 for o in played if o.decided_by != "dollars") / n,
            "turn_limit": sum(1 for o in played if o.ending in ("turns", "draw")) / n,
            "decided_by": {d: sum(1 for o in played if o.decided_by == d) for d in DECIDED},
            "turns": sum(o.turns for o in played) / n, "melees": sum(o.melees for o in played) / n}


def sweep(params: SkirmishParams, tweaks: list[Tweak], games: int, seed: int, where: Where = IN_PROCESS,
          progress: Callable[[int], None] | None = None, levels: Mapping[str, str] | None = None) -> dict[str, Any]:
    """`games` games at each value, wherever they are played (core/batch), each side's AI of its level in
    `levels` (the params' `ai` for a side it does not name), summed up as a JSON document."""
    items = [(index, number) for index in range(len(tweaks)) for number in range(games)]
    work = partial(play_tweaked, params, seed, tuple(tweaks), levels=None if levels is None else dict(levels))
    outcomes = list(run_batch(work, items, where, progress))
    rows = [{"value": tweak.shown, **_counts(outcomes[index * games:(index + 1) * games])}
            for index, tweak in enumerate(tweaks)]
    first = tweaks[0]
    return {"format": "dedale/zombstone-balance", "version": 1, "seed": seed, "params": params.to_json(),
            "levels": side_levels(params, levels), "kind": first.kind, "item": first.item, "field": first.field,
            "games": games, "values": rows}


def play_level(params: SkirmishParams, run_seed: int, matchups: tuple[tuple[tuple[str, str], ...], ...],
               item: tuple[str, int, int]) -> Outcome:
    """Game `number` of the overview in a scenario, each side played by the AI of its level in the `index`-th
    matchup (the same seeds at every matchup)."""
    scenario, index, number = item
    return play_game(replace(params, scenario=scenario), game_seed(run_seed, number), levels=dict(matchups[index]))


def overview(data: str | None, scenarios: list[str], levels: list[str] | list[dict[str, str]], games: int, seed: int,
             where: Where = IN_PROCESS, progress: Callable[[int], None] | None = None,
             params: SkirmishParams | None = None) -> dict[str, Any]:
    """Every scenario at every matchup of AI levels (a level for both sides, or each side's: `simulate.matchups`),
    `games` games each, with the policies and rerolls of `params` (the defaults unless given): each side's win
    rate with its 95% interval, the share of games decided by the scenario's condition or an elimination (not
    by counting the dollars at the turn limit), the share that reached the turn limit, how each was decided,
    turns and melees a game, as a JSON document."""
    sides = [dict.fromkeys(SIDES, level) if isinstance(level, str) else {s: level[s] for s in SIDES}
             for level in levels]
    base = replace(params or SkirmishParams(side=None), side=None, data=data)
    frozen = tuple(tuple(matchup.items()) for matchup in sides)
    items = [(scenario, index, number) for scenario in scenarios for index in range(len(sides))
             for number in range(games)]
    outcomes = list(run_batch(partial(play_level, base, seed, frozen), items, where, progress))
    catalogue = load_catalogue(data)
    rows = []
    for index, (scenario, matchup) in enumerate((s, m) for s in scenarios for m in sides):
        favoured = catalogue.scenario(scenario).favoured
        rows.append({"scenario": scenario, "ai": matchup_name(matchup), "levels": matchup,
                     "favoured": favoured and favoured.side, **_counts(outcomes[index * games:(index + 1) * games])})
    return {"format": "dedale/zombstone-balance-table", "version": 1, "seed": seed, "games": games,
            "policies": {side: base.policy(side) for side in SIDES}, "rounds": base.rounds, "rows": rows}

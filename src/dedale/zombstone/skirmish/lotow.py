"""The LOTOW zombie of the seed, for players of Legends of the Old West: its profile (`data/lotow.toml`) and
its two rules as functions on the run's roller.

- Slow: it moves 4 inches a turn.
- Indestructible: when it is wounded, the wound roll must be a 6 to hurt it.
- Indécrottable (the variant): it never "dies"; each wound it would lose takes 1 inch off its move, and at
  0 inches it is destroyed.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from dedale.core.rng import Roller

INDESTRUCTIBLE = 6  # the wound roll that hurts it


@dataclass(frozen=True)
class LotowProfile:
    names: dict[str, str]
    shoot: str
    fight: int
    strength: int
    grit: int
    attacks: int
    wounds: str
    pluck: str
    cost: int
    move: int
    rules: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.names, "shoot": self.shoot, "fight": self.fight, "strength": self.strength,
                "grit": self.grit, "attacks": self.attacks, "wounds": self.wounds, "pluck": self.pluck,
                "cost": self.cost, "move": self.move, "rules": list(self.rules)}


@cache
def zombie() -> LotowProfile:
    data = tomllib.loads(resources.files("dedale.zombstone.skirmish").joinpath("data", "lotow.toml")
                         .read_text("utf-8"))["zombie"]
    return LotowProfile(data["name"], data["shoot"], data["fight"], data["strength"], data["grit"], data["attacks"],
                        data["wounds"], data["pluck"], data["cost"], data["move"], tuple(data["rules"]))


def wound_roll(roller: Roller, wounds: int) -> int:
    """Indestructible: each wound the zombie would take is rolled for on a D6, and only a 6 hurts it. The
    wounds that hurt."""
    if wounds <= 0:
        return 0
    roll = roller.roll(f"{wounds}d6", "lotow.wound_roll")
    hurt = sum(1 for die in roll.dice if die == INDESTRUCTIBLE)
    roll.decide("lotow.hurt", wounds=hurt)
    return hurt


@dataclass(frozen=True)
class Indecrottable:
    """The variant: the zombie's move shrinks by an inch for each wound lost; at 0 it is destroyed."""

    move: int = 4
    lost: int = 0

    def wounded(self, wounds: int) -> Indecrottable:
        return Indecrottable(self.move, self.lost + max(0, wounds))

    @property
    def moves(self) -> int:
        """Inches it may still move a turn."""
        return max(0, self.move - self.lost)

    @property
    def destroyed(self) -> bool:
        return self.moves == 0

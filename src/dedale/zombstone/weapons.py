"""Weapons as data (`data/weapons.toml`): a damage modifier, melee or not, unarmed or not, a gun's range."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from dedale.core.errors import DedaleError
from dedale.zombstone.entries import entries


@dataclass(frozen=True)
class Weapon:
    id: str
    labels: tuple[tuple[str, str], ...]
    damage: int
    melee: bool = False
    unarmed: bool = False
    range: float = 0.0  # inches a gun reaches (0 for a melee weapon)

    def label(self, lang: str = "en") -> str:
        found = dict(self.labels)
        return found.get(lang) or found.get("en") or self.id


@cache
def weapons() -> dict[str, Weapon]:
    """The shipped weapons (`data/weapons.toml`), read and checked as the skirmish's catalogue reads a player's."""
    text = resources.files("dedale.zombstone").joinpath("data", "weapons.toml").read_text("utf-8")
    return read_weapons("dedale.zombstone:data/weapons.toml", tomllib.loads(text))


def weapon(name: str, melee: bool | None = None) -> Weapon:
    found = weapons().get(name.strip().lower().replace("-", "_").replace(" ", "_"))
    if found is None or (melee is not None and found.melee != melee):
        accepted = [w.id for w in weapons().values() if melee is None or w.melee == melee]
        raise DedaleError("error.weapon", value=name, accepted=", ".join(accepted))
    return found


def read_weapons(file: str, document: dict[str, Any]) -> dict[str, Weapon]:
    """The weapons of a data file (`file` names it in errors), by id."""
    found = {}
    for entry in entries(file, document, "weapon"):
        melee = entry.get("melee", bool, False)
        reach = entry.number("range", 0, 100, 0.0, whole=False)
        if not melee and reach <= 0:
            raise entry.fail("error.skirmish.range", field="range", value=reach, low=1, high=100)
        labels = entry.labels("label")
        found[entry.get("id", str)] = Weapon(entry.get("id", str), tuple(sorted(labels.items())),
                                             entry.number("damage", -3, 5), melee, entry.get("unarmed", bool, False),
                                             float(reach))
    return found

"""Weapons as data (`data/weapons.toml`): a damage modifier, melee or not, unarmed or not, a gun's range."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from dedale.core.errors import DedaleError


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
    text = resources.files("dedale.zombstone").joinpath("data/weapons.toml").read_text(encoding="utf-8")
    found = {}
    for entry in tomllib.loads(text)["weapon"]:
        label = entry.get("label", entry["id"])
        labels = tuple(sorted(label.items())) if isinstance(label, dict) else (("en", label),)
        found[entry["id"]] = Weapon(entry["id"], labels, int(entry["damage"]), bool(entry.get("melee", False)),
                                    bool(entry.get("unarmed", False)), float(entry.get("range", 0)))
    return found


def weapon(name: str, melee: bool | None = None) -> Weapon:
    found = weapons().get(name.strip().lower().replace("-", "_").replace(" ", "_"))
    if found is None or (melee is not None and found.melee != melee):
        accepted = [w.id for w in weapons().values() if melee is None or w.melee == melee]
        raise DedaleError("error.weapon", value=name, accepted=", ".join(accepted))
    return found

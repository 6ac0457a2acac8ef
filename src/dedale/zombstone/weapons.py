"""Weapons as data (`data/weapons.toml`): a damage modifier, melee or not, unarmed or not, a gun's range."""

from __future__ import annotations

from dataclasses import dataclass

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


def weapons() -> dict[str, Weapon]:
    """The shipped weapons (`data/weapons.toml`), read and checked with the rest of the game's data."""
    from dedale.zombstone.skirmish.catalogue import load_catalogue  # the catalogue holds weapons as one kind

    return load_catalogue().weapons


def weapon(name: str, melee: bool | None = None) -> Weapon:
    found = weapons().get(name.strip().lower().replace("-", "_").replace(" ", "_"))
    if found is None or (melee is not None and found.melee != melee):
        accepted = [w.id for w in weapons().values() if melee is None or w.melee == melee]
        raise DedaleError("error.weapon", value=name, accepted=", ".join(accepted))
    return found

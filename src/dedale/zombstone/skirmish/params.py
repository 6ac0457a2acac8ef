"""A skirmish's parameters: the scenario, which side the player takes (or none: the AIs play each other),
each AI's policy, reroll rounds, and a folder of the player's own data files."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from dedale.core.errors import DedaleError
from dedale.zombstone.policy import MAX_ROUNDS
from dedale.zombstone.skirmish.ai import POLICIES
from dedale.zombstone.skirmish.catalogue import SIDES, load_catalogue


@dataclass(frozen=True)
class SkirmishParams:
    scenario: str = "ok_corral"
    side: str | None = "lawmen"  # the player's side; None: a game between two AIs
    policy_lawmen: str = "default"
    policy_zombies: str = "default"
    rounds: int = 1
    data: str | None = None  # a folder whose weapons/profiles/bands/scenarios.toml replace the shipped ones

    def __post_init__(self) -> None:
        if self.side is not None and self.side not in SIDES:
            raise DedaleError("error.one_of", param="side", value=self.side, accepted=", ".join(SIDES))
        for param, policy in (("policy-lawmen", self.policy_lawmen), ("policy-zombies", self.policy_zombies)):
            if policy not in POLICIES:
                raise DedaleError("error.one_of", param=param, value=policy, accepted=", ".join(POLICIES))
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise DedaleError("error.range", param="rounds", value=self.rounds, low=1, high=MAX_ROUNDS)
        load_catalogue(self.data).scenario(self.scenario)  # a scenario that exists, in data that loads

    def policy(self, side: str) -> str:
        return self.policy_lawmen if side == "lawmen" else self.policy_zombies

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> SkirmishParams:
        if not isinstance(data, dict):
            raise DedaleError("error.bad_document", field="params")
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        for key, value in known.items():
            if key == "rounds" and (not isinstance(value, int) or isinstance(value, bool)):
                raise DedaleError("error.bad_document", field=f"params.{key}")
            if key != "rounds" and value is not None and not isinstance(value, str):
                raise DedaleError("error.bad_document", field=f"params.{key}")
        return cls(**known)

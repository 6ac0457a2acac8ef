"""The key-lock generator's parameters: the spec's table, with its defaults."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from dedale.core.errors import DedaleError

MAX_OBJECTS = 100_000  # beyond this a diagram is no longer something a designer can read, or draw quickly


@dataclass(frozen=True)
class KeylockParams:
    unique: int = 3  # unique key-lock pairs
    multi: int = 1  # multi-key sets
    multi_max_locks: int = 2  # each multi-key set gets 1..max locks (capped at its keys)
    multi_max_keys: int = 4  # each multi-key set gets 1..max keys
    permanent: int = 1  # permanent keys
    permanent_max_locks: int = 2  # each permanent key gets 1..max locks
    spread: float = 0.01  # how horizontal the diagram is (> 0)

    def __post_init__(self) -> None:
        for name in ("unique", "multi", "permanent"):
            _whole(name, getattr(self, name), 0)
        for name in ("multi_max_locks", "multi_max_keys", "permanent_max_locks"):
            _whole(name, getattr(self, name), 1)
        spread = self.spread
        if isinstance(spread, bool) or not isinstance(spread, int | float) or not 0 < spread <= 1e6:
            raise DedaleError("error.spread", value=spread)
        if self.most_objects == 0:
            raise DedaleError("error.no_objects")
        if self.most_objects > MAX_OBJECTS:
            raise DedaleError("error.too_many_objects", value=self.most_objects, high=MAX_OBJECTS)

    @property
    def most_objects(self) -> int:
        """The most keys and locks these parameters can make."""
        return (2 * self.unique + self.multi * (self.multi_max_keys + self.multi_max_locks)
                + self.permanent * (1 + self.permanent_max_locks))

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: Any) -> KeylockParams:
        if not isinstance(data, dict):
            raise DedaleError("error.bad_document", field="params")
        try:
            return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})
        except TypeError:
            raise DedaleError("error.bad_document", field="params") from None


def _whole(name: str, value: Any, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise DedaleError("error.count_param", param=name.replace("_", "-"), value=value, low=low)

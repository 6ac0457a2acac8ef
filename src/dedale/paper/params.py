"""The paper dungeon's parameters: the spec's choices for laying it on a grid, with their defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dedale.core.errors import DedaleError

MAX_SIDE = 400
MAX_CARDS = 5000
ORDERS = ("oldest", "newest", "random")
KINGS = ("reshuffle", "set-aside")


@dataclass(frozen=True)
class PaperParams:
    width: int = 60  # squares
    height: int = 60
    max_cards: int = 80  # the card budget (Kings, which only reshuffle, do not count)
    order: str = "oldest"  # which open end the autopilot takes: oldest, newest or random
    kings: str = "reshuffle"  # or "set-aside": a King is set aside, the fourth reshuffles everything
    start_size: int = 4  # the starting room, start_size x start_size at the middle of the south edge
    tables: str | None = None  # the player's own table folder

    def __post_init__(self) -> None:
        limits = (("start-size", self.start_size, 3, 20), ("max-cards", self.max_cards, 1, MAX_CARDS))
        for name, value, low, high in limits:
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise DedaleError("error.range", param=name, value=value, low=low, high=high)
        for name, value in (("width", self.width), ("height", self.height)):
            if isinstance(value, bool) or not isinstance(value, int) or not self.start_size <= value <= MAX_SIDE:
                raise DedaleError("error.page", param=name, value=value, start=self.start_size, high=MAX_SIDE)
        if self.order not in ORDERS:
            raise DedaleError("error.one_of", param="order", value=self.order, accepted=", ".join(ORDERS))
        if self.kings not in KINGS:
            raise DedaleError("error.one_of", param="kings", value=self.kings, accepted=", ".join(KINGS))

    def to_json(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "max_cards": self.max_cards, "order": self.order,
                "kings": self.kings, "start_size": self.start_size, "tables": self.tables}

    @classmethod
    def from_json(cls, data: Any) -> PaperParams:
        if not isinstance(data, dict):
            raise DedaleError("error.bad_document", field="params")
        known = {k: data[k] for k in ("width", "height", "max_cards", "order", "kings", "start_size", "tables")
                 if k in data}
        return cls(**known)

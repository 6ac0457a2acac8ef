"""Dice expressions: `3d6`, `1d4-1`, `d8`, `NdS+K`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from dedale.core.errors import DedaleError

_EXPR = re.compile(r"^\s*([0-9]*)\s*[dD]\s*([0-9]+)\s*(?:([+-])\s*([0-9]+))?\s*$")
MAX_DICE = 100
MAX_SIDES = 1000


@dataclass(frozen=True)
class DiceExpr:
    """`count` dice of `sides` faces (numbered 1..sides), plus `modifier`."""

    count: int
    sides: int
    modifier: int = 0

    @classmethod
    @lru_cache(maxsize=256)  # an expression is read again for every session that rolls it
    def parse(cls, text: str, param: str = "dice") -> DiceExpr:
        match = _EXPR.match(text)
        if not match:
            raise DedaleError("error.dice_syntax", param=param, value=text)
        if any(len(number or "") > 6 for number in match.groups()):  # far out of range, and costly to convert
            raise DedaleError("error.dice_range", param=param, value=text, dice=MAX_DICE, sides=MAX_SIDES)
        count = int(match.group(1)) if match.group(1) else 1
        sides = int(match.group(2))
        modifier = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
        if not 1 <= count <= MAX_DICE or not 2 <= sides <= MAX_SIDES:
            raise DedaleError("error.dice_range", param=param, value=text, dice=MAX_DICE, sides=MAX_SIDES)
        return cls(count, sides, modifier)

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier

    def __str__(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"

    @cached_property
    def text(self) -> str:
        """`str(self)`, kept: a log writes it with every roll."""
        return str(self)


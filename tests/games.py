"""Games played part-way for the tests: random legal choices, seeded, so that every run plays the same."""

from __future__ import annotations

import random
from typing import Any

import dedale
from dedale.core.session import Session


def played(name: str, seed: int, steps: int, table: bool = False, **params: Any) -> Session[Any]:
    """A session of `name` with `steps` choices made, picked at random (seeded) among the legal ones."""
    session = dedale.play(name, seed, table=table, **params)
    pick = random.Random(seed)
    for _ in range(steps):
        if session.is_over:
            break
        session.step(pick.choice(session.choices()))
    return session

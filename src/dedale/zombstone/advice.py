"""Advice at the table: given the dice showing and the Potential, which dice to reroll, and the chances
each way, under an objective (the same exact values the optimal policy uses)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from dedale.core.errors import DedaleError
from dedale.zombstone.combinatorics import allowed_keeps, index_of, keep_values, keeps
from dedale.zombstone.hands import Counts, minus
from dedale.zombstone.policy import RollSpec, optimise


@dataclass(frozen=True)
class Option:
    keep: Counts
    reroll: Counts
    value: Fraction  # the chance of the target, or the expected rank, win chance or damage


def advise(spec: RollSpec, showing: Counts, terminal: np.ndarray, scale: int = 1) -> list[Option]:
    """Every choice of dice to reroll (at most the Potential), best first, for the first reroll round;
    later rounds are played optimally. `terminal` values final multisets; a value is divided by `scale`
    (an opponent's number of outcomes, for `win` and `damage`)."""
    n = spec.dice
    if sum(showing) != n:
        raise DedaleError("error.dice_count", count=sum(showing), dice=n)
    later = terminal.astype(np.float64)
    if spec.rounds > 1:
        later = optimise(RollSpec(n, spec.budget, spec.rounds - 1, spec.cards, spec.skill), terminal).values
    by_keep = keep_values(n, later)
    denominator = 6 ** (n * spec.rounds) * scale
    options = []
    for k in dict.fromkeys(allowed_keeps(n, spec.budget)[index_of(n)[showing]].tolist()):
        kept = keeps(n)[k]
        rerolled = minus(showing, kept)
        options.append(Option(kept, rerolled, Fraction(int(by_keep[k]), denominator)))
    return sorted(options, key=lambda o: (-o.value, sum(o.reroll)))

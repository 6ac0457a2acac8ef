"""Monte Carlo of the same rolls and confrontations, vectorised with numpy: a cross-check of the exact
figures, and the tool for what enumeration does not cover. The sides follow the exact optimal policies,
looked up by multiset; only the dice are random (numpy's generator, seeded)."""

from __future__ import annotations

from functools import cache

import numpy as np

from dedale.zombstone.combinatorics import keeps, multisets
from dedale.zombstone.confront import Situation, play
from dedale.zombstone.policy import Policy, categories


@cache
def _codes(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A multiset of n dice is coded as the sum of (n + 1)^face over its dice (its counts in base n + 1):
    the lookup from code to multiset index, each face's weight, and each keep's code and size."""
    weights = (n + 1) ** np.arange(6, dtype=np.int64)
    lookup = np.full((n + 1) ** 6, -1, dtype=np.int64)
    for i, counts in enumerate(multisets(n)):
        lookup[int(np.dot(counts, weights))] = i
    kept = np.array(keeps(n), dtype=np.int64)
    return lookup, weights, kept @ weights, kept.sum(axis=1)


def _roll(rng: np.random.Generator, samples: int, n: int) -> np.ndarray:
    """The multiset indices of `samples` rolls of n dice."""
    lookup, weights, _, _ = _codes(n)
    return lookup[weights[rng.integers(0, 6, size=(samples, n))].sum(axis=1)]


def _reroll(rng: np.random.Generator, choice: np.ndarray, n: int) -> np.ndarray:
    """Keep what the policy keeps, roll the rest: the new multisets' indices."""
    lookup, weights, keep_codes, keep_sizes = _codes(n)
    rolled = weights[rng.integers(0, 6, size=(len(choice), n))]
    rolled[np.arange(n)[None, :] < keep_sizes[choice][:, None]] = 0  # the kept dice's slots roll nothing
    return lookup[keep_codes[choice] + rolled.sum(axis=1)]


def simulate_roll(policy: Policy, samples: int, rng: np.random.Generator) -> np.ndarray:
    """How many of `samples` rolls end in each hand category."""
    n = policy.spec.dice
    index = _roll(rng, samples, n)
    for choice in policy.choices:
        index = _reroll(rng, choice[index], n)
    return np.bincount(categories(policy.spec)[index], minlength=7)


def simulate(situation: Situation, samples: int, rng: np.random.Generator) -> dict[str, float]:
    """Confrontations played `samples` times: the attacker's win, tie and loss rates, mean damage."""
    found = play(situation)
    a_spec, d_spec = found.attacker.spec, found.defender.spec
    attacker = _roll(rng, samples, a_spec.dice)
    for choice in found.attacker.choices:
        attacker = _reroll(rng, choice[attacker], a_spec.dice)
    defender = _roll(rng, samples, d_spec.dice)
    for choice in found.defender.choices:
        defender = _reroll(rng, choice[defender, attacker], d_spec.dice)
    versus = found.versus[attacker, defender]
    return {"win": float((versus > 0).mean()), "tie": float((versus == 0).mean()), "loss": float((versus < 0).mean()),
            "damage_to_defender": float(found.to_defender[attacker, defender].mean()),
            "damage_to_attacker": float(np.asarray(found.to_attacker)[attacker, defender].mean())}


def rolls_per_second(situation: Situation, samples: int = 1_000_000, seed: int = 0) -> float:
    """Confrontations simulated per second (the policies computed beforehand)."""
    import time

    rng = np.random.default_rng(seed)
    play(situation)
    start = time.perf_counter()
    simulate(situation, samples, rng)
    return samples / (time.perf_counter() - start)

"""The dice engine's fast paths against their plain definitions: the dense transition counts, argmax over
every allowed keep, final counts pushed one multiset at a time, hands compared by key, and a
confrontation's joint counts over every pair of final multisets. Same numbers, same policies, exactly."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from dedale.zombstone.chances import compare
from dedale.zombstone.combinatorics import (
    allowed_keeps,
    index_of,
    keep_values,
    keeps,
    multisets,
    roll_counts,
    spread,
    transitions,
    ways,
)
from dedale.zombstone.confront import COVERS, REACTIONS, Situation, confront, payoff, play
from dedale.zombstone.hands import Turn, plus
from dedale.zombstone.policy import Policy, RollSpec, final_counts, hand_keys, optimise, total_ways


def dense_transitions(n: int) -> np.ndarray:
    """T[keep, final]: the ways the rerolled dice fall onto each final multiset, scaled to 6^n a keep."""
    table = np.zeros((len(keeps(n)), len(multisets(n))), dtype=np.int64)
    for k, kept in enumerate(keeps(n)):
        rerolled = n - sum(kept)
        for outcome in multisets(rerolled):
            final = plus(kept, outcome)
            table[k, index_of(n)[final]] += ways(outcome) * 6 ** (n - rerolled)
    return table


def plain_allowed(n: int, budget: int) -> list[list[int]]:
    """Each multiset's keeps, rerolling at most `budget` dice: most dice kept first, then by counts."""
    keep_index = {c: i for i, c in enumerate(keeps(n))}
    rows = []
    for shown in multisets(n):
        kept = {c for c in keeps(n) if sum(c) >= n - budget and all(a <= b for a, b in zip(c, shown, strict=True))}
        rows.append([keep_index[c] for c in sorted(kept, key=lambda c: (-sum(c), c))])
    return rows


def plain_optimise(spec: RollSpec, terminal: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Backwards by round: every allowed keep's value as a dense product, the first best by argmax."""
    rows = plain_allowed(spec.dice, spec.budget)
    width = max(len(r) for r in rows)
    allowed = np.array([r + [r[0]] * (width - len(r)) for r in rows])
    values, choices = terminal.astype(np.float64), []
    for _ in range(spec.rounds):
        options = (dense_transitions(spec.dice).astype(np.float64) @ values)[allowed]
        best = options.argmax(axis=1)
        if values.ndim == 1:
            choices.insert(0, allowed[np.arange(len(allowed)), best])
        else:
            choices.insert(0, np.take_along_axis(allowed[:, :, None], best[:, None, :], axis=1).squeeze(1))
        values = options.max(axis=1)
    return choices, values


def plain_final_counts(policy: Policy) -> np.ndarray:
    """Forwards, one first-roll multiset (and column) at a time."""
    table = dense_transitions(policy.spec.dice)
    current = roll_counts(policy.spec.dice)
    if policy.values.ndim == 2:
        current = np.repeat(current[:, None], policy.values.shape[1], axis=1)
    for choice in policy.choices:
        following = np.zeros_like(current)
        for start in range(len(current)):
            if current.ndim == 1:
                following += current[start] * table[choice[start]]
            else:
                following += table[choice[start]].T * current[start]
        current = following
    return current


specs = st.builds(RollSpec, dice=st.integers(1, 5), budget=st.integers(0, 6), rounds=st.integers(0, 3),
                  cards=st.sampled_from([(0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 0, 1)]),
                  skill=st.sampled_from([None, Turn(3), Turn(4), Turn(3, any_die=True)]))


@settings(max_examples=examples(30), deadline=None)
@given(n=st.integers(1, 5), columns=st.integers(0, 3), seed=st.integers(0, 2**32 - 1))
def test_sums_over_rerolled_dice_are_the_transition_products(n: int, columns: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    dense = dense_transitions(n)
    shape = (len(multisets(n)),) if columns == 0 else (len(multisets(n)), columns)
    values = rng.integers(-10**6, 10**6, size=shape).astype(np.float64)
    assert (keep_values(n, values) == dense @ values).all()
    kept = rng.integers(0, 10**6, size=(len(keeps(n)), *shape[1:])).astype(np.float64)
    assert (spread(n, kept) == dense.T @ kept).all()
    assert (transitions(n) == dense).all()


def test_allowed_keeps_are_every_sub_multiset_within_the_budget() -> None:
    for n in range(1, 6):
        for budget in range(7):
            rows = plain_allowed(n, budget)
            table = allowed_keeps(n, budget)
            assert table.shape[1] == max(len(r) for r in rows)
            for row, expected in zip(table.tolist(), rows, strict=True):
                assert row == expected + [expected[0]] * (len(row) - len(expected))


@settings(max_examples=examples(25), deadline=None)
@given(spec=specs, columns=st.integers(0, 4), seed=st.integers(0, 2**32 - 1))
def test_policies_and_final_counts_match_the_plain_ones(spec: RollSpec, columns: int, seed: int) -> None:
    """Ties are frequent (small integer values): the same keep must win them."""
    rng = np.random.default_rng(seed)
    shape = (len(multisets(spec.dice)),) if columns == 0 else (len(multisets(spec.dice)), columns)
    terminal = rng.integers(-2, 3, size=shape)
    policy = optimise(spec, terminal)
    choices, values = plain_optimise(spec, terminal)
    assert len(policy.choices) == len(choices) == spec.rounds
    for fast, plain in zip(policy.choices, choices, strict=True):
        assert fast.dtype == plain.dtype and (fast == plain).all()
    assert (policy.values == values).all()
    counts = final_counts(policy)
    assert counts.dtype == np.int64 and (counts == plain_final_counts(policy)).all()
    assert (counts.sum(axis=0) == total_ways(spec)).all()


@settings(max_examples=examples(40), deadline=None)
@given(a=specs, b=specs)
def test_hands_compare_as_their_keys(a: RollSpec, b: RollSpec) -> None:
    ka, kb = hand_keys(a), hand_keys(b)
    expected = np.array([[(x > y) - (x < y) for y in kb] for x in ka])
    assert (compare(a, b) == expected).all()


def joint_outcome(situation: Situation) -> tuple[Fraction, ...]:
    """The joint counts of every pair of final multisets under both policies (Python integers), summed
    over each outcome."""
    found = play(situation)
    attacker, defender = final_counts(found.attacker).astype(object), final_counts(found.defender).astype(object)
    joint = attacker[:, None] * defender.T
    a_spec, d_spec, _ = situation.specs()
    total = total_ways(a_spec) * total_ways(d_spec)

    def share(weights: np.ndarray) -> Fraction:
        return Fraction(int((joint * weights.astype(object)).sum()), total)

    versus = found.versus
    return (share(versus > 0), share(versus == 0), share(versus < 0), share(found.to_defender),
            share(np.asarray(found.to_attacker) + 0 * versus))


situations = st.builds(Situation, attacker=st.integers(-4, 5), defender=st.integers(-4, 5),
                       cover=st.sampled_from(COVERS), reaction=st.sampled_from(REACTIONS),
                       attacker_weapon=st.sampled_from(["light_colt", "shotgun"]),
                       defender_weapon=st.sampled_from(["light_colt", "heavy_colt"]),
                       objective=st.sampled_from(["win", "damage"]))
melees = st.builds(Situation, attacker=st.integers(-4, 5), defender=st.integers(-4, 5), melee=st.just(True),
                   attacker_weapon=st.sampled_from(["fists", "sabre"]),
                   defender_weapon=st.sampled_from(["fists", "spear"]), objective=st.sampled_from(["win", "damage"]))


@settings(max_examples=examples(12), deadline=None)
@given(situation=situations | melees)
def test_a_confrontation_is_its_joint_counts_summed(situation: Situation) -> None:
    outcome = confront(situation)
    expected = joint_outcome(situation)
    assert (outcome.win, outcome.tie, outcome.loss, outcome.damage_to_defender, outcome.damage_to_attacker) == expected
    assert outcome.win + outcome.tie + outcome.loss == 1


def test_more_rounds_of_rerolls_count_past_int64() -> None:
    """Two rounds on each side make 6^30 pairs of ways, more than an int64 holds: still exact."""
    for situation in (Situation(1, 1, rounds=2), Situation(2, 1, reaction="return", rounds=2)):
        outcome = confront(situation)
        assert (outcome.win, outcome.tie, outcome.loss, outcome.damage_to_defender,
                outcome.damage_to_attacker) == joint_outcome(situation)
        assert outcome.win + outcome.tie + outcome.loss == 1 and 0 < outcome.win < 1


def test_every_potential_rolling_the_same_dice_meets_the_same_defence() -> None:
    """The defender answers the attacker's final hand, not the rerolls that made it: its policy worked
    out against each attacker's own specs is the one the attackers rolling five dice share."""
    for attacker in range(6):
        a_spec, d_spec, deals = Situation(attacker, 3, reaction="return").specs()
        own = optimise(d_spec, -payoff(a_spec, d_spec, deals).T)
        shared = play(Situation(attacker, 3, reaction="return")).defender
        assert all((a == b).all() for a, b in zip(own.choices, shared.choices, strict=True))
        assert (own.values == shared.values).all()

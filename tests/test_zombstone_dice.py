"""Zombstone's dice engine: hands and their order, exact odds against brute force and Monte Carlo, the
damage table, confrontations, and the CLI."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from functools import cmp_to_key
from itertools import combinations, product
from pathlib import Path

import numpy as np
import pytest

from dedale.zombstone.chances import odds, terminal_values
from dedale.zombstone.combinatorics import index_of, multisets, roll_counts
from dedale.zombstone.confront import Situation, confront, damage_table
from dedale.zombstone.hands import HANDS, Turn, best_key, counts_of, key, with_skill
from dedale.zombstone.montecarlo import simulate, simulate_roll
from dedale.zombstone.policy import RollSpec, categories, optimise

ALL_ROLLS = list(product(range(6), repeat=5))


def test_the_plain_five_dice_counts() -> None:
    counts = [0] * 7
    for roll in ALL_ROLLS:
        counts[key(counts_of(roll))[0]] += 1
    assert counts[::-1] == [6, 150, 300, 1200, 1800, 3600, 720]  # five, four, full, three, two pairs, pair, nothing
    assert odds(RollSpec.from_potential(0)).counts == counts


def brute_compare(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """An independent comparator: the category from the shape of the counts, then the faces ordered by
    how often they come, then how high."""
    shapes = {(5,): 6, (4, 1): 5, (3, 2): 4, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1, (1, 1, 1, 1, 1): 0}

    def rank(roll: tuple[int, ...]) -> tuple[int, list[int]]:
        shape = tuple(sorted((roll.count(f) for f in set(roll)), reverse=True))
        return shapes[shape], sorted(roll, key=lambda f: (roll.count(f), f), reverse=True)

    ra, rb = rank(a), rank(b)
    return (ra > rb) - (ra < rb)


def test_hand_order_against_brute_force() -> None:
    by_key = sorted(ALL_ROLLS, key=lambda r: key(counts_of(r)))
    by_brute = sorted(ALL_ROLLS, key=cmp_to_key(brute_compare))
    assert [key(counts_of(r)) for r in by_key] == [key(counts_of(r)) for r in by_brute]
    rng = np.random.default_rng(0)
    for _ in range(3000):
        a, b = (ALL_ROLLS[i] for i in rng.integers(0, len(ALL_ROLLS), 2))
        ka, kb = key(counts_of(a)), key(counts_of(b))
        assert ((ka > kb) - (ka < kb)) == brute_compare(a, b)
        assert (ka == kb) == (sorted(a) == sorted(b))  # identical hands tie, and only they


def test_cards_complete_hands_and_skills_turn_dice() -> None:
    two_tens = counts_of([1, 1, 0, 3, 5])
    assert best_key(tuple(a + b for a, b in zip(two_tens, counts_of([1]), strict=True)))[0] == 3  # three tens
    assert best_key(counts_of([0, 1, 2, 3, 5, 4]))[0] == 0  # six different faces: nothing
    assert key(with_skill(counts_of([4, 4, 4, 2, 1]), Turn(4)))[0] == 5  # King of the Hill: the Jack a King
    assert key(with_skill(counts_of([4, 4, 4, 0, 1]), Turn(4)))[0] == 3  # a 9 or a 10 is no figure: three Kings
    assert key(with_skill(counts_of([4, 4, 4, 0, 1]), Turn(4, any_die=True)))[0] == 5  # any die: four Kings


def exhaustive_best(start: tuple[int, ...], budget: int, value: dict) -> Fraction:  # type: ignore[type-arg]
    """Brute force: every set of dice positions to reroll, every way they fall."""
    best = Fraction(-1)
    for size in range(budget + 1):
        for positions in combinations(range(5), size):
            total = Fraction(0)
            for new in product(range(6), repeat=size):
                dice = list(start)
                for p, face in zip(positions, new, strict=True):
                    dice[p] = face
                total += value[counts_of(dice)]
            best = max(best, total / 6**size)
    return best


@pytest.mark.parametrize(("potential", "objective", "target"), [(1, "rank", None), (1, "target", 2),
                                                                 (2, "target", 4), (2, "rank", None)])
def test_the_policy_against_exhaustive_search(potential: int, objective: str, target: int | None) -> None:
    spec = RollSpec.from_potential(potential)
    terminal = terminal_values(spec, objective, target)
    value = {counts: Fraction(int(v)) for counts, v in zip(multisets(5), terminal, strict=True)}
    policy = optimise(spec, terminal)
    starts = multisets(5) if potential == 1 else multisets(5)[::7]
    for counts in starts:
        start = tuple(f for f in range(6) for _ in range(counts[f]))
        assert Fraction(int(policy.values[index_of(5)[counts]]), 6**5) == exhaustive_best(start, potential, value)


def test_exact_distribution_is_the_policy_played_out() -> None:
    spec = RollSpec.from_potential(1)
    result = odds(spec, "rank")
    policy = result.policy
    expected = Fraction(sum(int(w) * int(policy.values[i]) for i, w in enumerate(roll_counts(5))), 6**10)
    assert result.expected_rank() == expected


@pytest.mark.parametrize("potential", [-2, 0, 2, 5])
def test_exact_against_monte_carlo(potential: int) -> None:
    result = odds(RollSpec.from_potential(potential), "rank")
    samples = 200_000
    found = simulate_roll(result.policy, samples, np.random.default_rng(potential + 10))
    for category in range(7):
        p = float(result.probability(category))
        sigma = max((p * (1 - p) / samples) ** 0.5, 1e-6)
        assert abs(found[category] / samples - p) < 5 * sigma + 1e-5


def test_negative_potential_takes_dice_off() -> None:
    assert RollSpec.from_potential(-2).dice == 3 and RollSpec.from_potential(-2).budget == 0
    assert RollSpec.from_potential(3).dice == 5 and RollSpec.from_potential(3).budget == 3
    three = odds(RollSpec.from_potential(-2))
    assert three.total == 216 and three.counts[HANDS.index("two_pairs")] == 0


def test_the_damage_table_cell_by_cell() -> None:
    table = {  # loser's hand: damage by winner's hand, pair to five (the spec's table)
        0: [2, 3, 4, 5, 6, 7], 1: [1, 2, 3, 4, 5, 6], 2: [None, 1, 2, 3, 4, 5], 3: [None, None, 1, 2, 3, 4],
        4: [None, None, None, 1, 2, 3], 5: [None, None, None, None, 1, 2], 6: [None, None, None, None, None, 1]}
    cats = np.arange(7)
    damage = damage_table(cats, cats, 0)
    for loser, row in table.items():
        for winner, expected in zip(range(1, 7), row, strict=True):
            if expected is not None:
                assert damage[winner, loser] == expected
    assert (damage[0] == 0).all()  # a winner holding nothing deals none
    assert damage_table(cats, cats, -1)[1, 1] == 0 and damage_table(cats, cats, 2)[1, 0] == 4  # weapons, never < 0


def test_confrontations() -> None:
    plain = confront(Situation(2, 2))
    assert plain.win + plain.tie + plain.loss == 1 and plain.damage_to_attacker == 0
    assert confront(Situation(2, 2, cover="heavy")).win < plain.win < confront(Situation(3, 2)).win
    assert confront(Situation(2, 2, cover="light")).win < plain.win
    back = confront(Situation(2, 2, reaction="return"))
    assert back.win > plain.win and back.damage_to_attacker > 0  # the target shoots at Potential -2
    # "A malus of one base die" for a fighter without a melee weapon: by default a die off the first roll, four
    # dice against five (no hand can be identical); read as a Potential die off, the fists at Potential 2 roll
    # as an armed fighter at Potential 1.
    fists = confront(Situation(2, 2, melee=True, attacker_weapon="improvised", defender_weapon="fists",
                               unarmed_malus="potential"))
    armed = confront(Situation(2, 1, melee=True, attacker_weapon="improvised", defender_weapon="improvised"))
    assert (fists.win, fists.tie, fists.loss) == (armed.win, armed.tie, armed.loss) and fists.win > 0.5
    four = confront(Situation(2, 2, melee=True, attacker_weapon="improvised", defender_weapon="fists"))
    assert four.win > 0.5 and four.tie == 0 and four.win != fists.win
    shotgun = confront(Situation(2, 2, attacker_weapon="shotgun"))
    colt = confront(Situation(2, 2))
    assert shotgun.win == colt.win and shotgun.damage_to_defender > colt.damage_to_defender


def test_the_defender_plays_against_the_attacker() -> None:
    """A defender who sees the attacker's dice and rerolls for it does better than one who never rerolls."""
    seeing = confront(Situation(2, 2))
    blind = confront(Situation(2, 0))
    assert seeing.win < blind.win


def test_confrontations_against_monte_carlo() -> None:
    for situation in (Situation(2, 1), Situation(1, 2, reaction="return", cover="light"),
                      Situation(2, 2, melee=True, attacker_weapon="sabre", defender_weapon="fists"),
                      Situation(2, 2, objective="damage", attacker_weapon="shotgun")):
        exact = confront(situation)
        found = simulate(situation, 200_000, np.random.default_rng(5))
        for name, value in (("win", exact.win), ("loss", exact.loss)):
            p = float(value)
            assert abs(found[name] - p) < 5 * (p * (1 - p) / 200_000) ** 0.5
        assert abs(found["damage_to_defender"] - float(exact.damage_to_defender)) < 0.03


def test_categories_per_spec() -> None:
    assert list(np.bincount(categories(RollSpec(5)), weights=roll_counts(5))[::-1].astype(int)) == [
        6, 150, 300, 1200, 1800, 3600, 720]


def test_cli(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("zombstone", "odds", "--potential", "2", "--json")
    document = json.loads(out)
    assert code == 0 and document["potential"] == 2 and document["objective"] == "rank"
    assert list(document["hands"]) == ["nothing", "pair", "two_pairs", "three", "full", "four", "five"]
    assert sum(Fraction(h["exact"]) for h in document["hands"].values()) == 1
    code, out, _ = cli("zombstone", "odds", "--potential", "1", "--objective", "target", "--target", "two_pairs",
                       "--card", "K")
    assert code == 0 and "At least Two pairs" in out
    code, out, _ = cli("zombstone", "duel-odds", "--attacker", "2", "--defender", "1", "--cover", "heavy",
                       "--reaction", "return", "--attacker-weapon", "shotgun", "--json")
    assert code == 0 and set(json.loads(out)) >= {"win", "tie", "loss", "damage_to_defender"}
    code, out, _ = cli("zombstone", "advise", "9", "9", "K", "K", "A", "--potential", "2")
    assert code == 0 and "reroll" in out
    code, out, _ = cli("zombstone", "roll", "--potential", "2", "--seed", "3")
    assert code == 0 and "Rolled:" in out and "The hand:" in out
    assert cli("zombstone", "odds", "--potential", "2", "-o", str(tmp_path / "h.png"))[0] == 0
    assert (tmp_path / "h.png").read_bytes().startswith(b"\x89PNG")
    for args, name in ((["odds", "--potential", "6"], "Potential"), (["odds", "--potential", "-5"], "Potential"),
                       (["odds", "--potential", "1", "--objective", "target", "--target", "straight"], "hands are"),
                       (["odds", "--potential", "1", "--card", "7"], "faces are"),
                       (["advise", "9", "9", "K", "K", "--potential", "2"], "4 dice"),
                       (["duel-odds", "--attacker", "1", "--defender", "1", "--attacker-weapon", "laser"], "weapons"),
                       (["duel-odds", "--attacker", "1", "--defender", "1", "--melee", "--attacker-weapon", "shotgun"],
                        "weapons")):
        code, _, err = cli("zombstone", *args)
        assert code == 2 and name in err and len(err.strip().splitlines()) == 1, (args, err)


def test_duel_odds_reads_the_unarmed_malus_as_asked(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("zombstone", "duel-odds", "--attacker", "2", "--defender", "2", "--melee",
                       "--defender-weapon", "fists", "--unarmed-malus", "potential")
    assert code == 0 and "309154385/544195584" in out  # as an armed defender at Potential 1
    code, out, _ = cli("zombstone", "duel-odds", "--attacker", "2", "--defender", "2", "--melee",
                       "--defender-weapon", "fists")
    assert code == 0 and re.search(r"a tie +0%\n", out)  # the text: four dice against five, never a tie
    code, _, err = cli("zombstone", "duel-odds", "--attacker", "2", "--defender", "2", "--unarmed-malus", "nope")
    assert code == 2 and "first_roll, potential" in err

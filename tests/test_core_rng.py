"""The random source: SplitMix64, dice expressions, the roller's log, table mode."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dedale.core.dice import DiceExpr
from dedale.core.errors import DedaleError
from dedale.core.rng import NeedInput, Roller, SeededSource, SplitMix64, TableSource


def test_splitmix64_reference_vector() -> None:
    """The reference implementation's first outputs for seed 1234567: same rolls on every machine."""
    gen = SplitMix64(1234567)
    assert [gen.next64() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431,
        16408922859458223821]


@given(n=st.integers(1, 10**6), seed=st.integers(0, 2**64 - 1))
def test_below_stays_in_range(n: int, seed: int) -> None:
    gen = SplitMix64(seed)
    assert all(0 <= gen.below(n) < n for _ in range(20))


@given(n=st.sampled_from([2, 3, 6, 7, 1 << 63, (1 << 63) + 1, 2**64 - 1]), count=st.integers(0, 30),
       seed=st.integers(0, 2**64 - 1))
def test_below_each_draws_what_below_draws(n: int, count: int, seed: int) -> None:
    """The draws in bulk are `below`'s, one by one (rejections included: the large n reject often), and the
    generator goes on from the same state."""
    one, bulk = SplitMix64(seed), SplitMix64(seed)
    assert bulk.below_each(n, count) == [one.below(n) for _ in range(count)]
    assert bulk.next64() == one.next64()


def test_below_is_uniform_enough() -> None:
    gen = SplitMix64(42)
    counts = Counter(gen.below(6) for _ in range(60_000))
    assert all(9_500 < counts[face] < 10_500 for face in range(6))


@pytest.mark.parametrize(("text", "expected"), [
    ("3d6", DiceExpr(3, 6)), ("2d6", DiceExpr(2, 6)), ("1d8", DiceExpr(1, 8)), ("1d7", DiceExpr(1, 7)),
    ("1d4-1", DiceExpr(1, 4, -1)), ("d20", DiceExpr(1, 20)), ("4d10+3", DiceExpr(4, 10, 3)),
    (" 2D6 ", DiceExpr(2, 6)),
])
def test_dice_expressions(text: str, expected: DiceExpr) -> None:
    assert DiceExpr.parse(text) == expected
    assert DiceExpr.parse(str(expected)) == expected


@pytest.mark.parametrize("text", ["3d0", "d", "0d6", "3d6+", "x", "3d6d6", "1d1", "101d6", ""])
def test_bad_dice_expressions_name_what_is_accepted(text: str) -> None:
    with pytest.raises(DedaleError) as err:
        DiceExpr.parse(text, "size")
    assert err.value.message().startswith("size: ")


@given(expr=st.sampled_from(["3d6", "2d6", "1d8", "1d7", "1d4-1", "5d10+2"]), seed=st.integers(0, 2**64 - 1))
def test_rolls_are_logged_and_in_range(expr: str, seed: int) -> None:
    log: list[dict] = []
    roller = Roller(SeededSource(seed), log)
    roll = roller.roll(expr, "test.purpose", room=3)
    spec = DiceExpr.parse(expr)
    assert spec.minimum <= roll.total <= spec.maximum
    assert len(roll.dice) == spec.count and all(1 <= d <= spec.sides for d in roll.dice)
    assert log == [{"roll": str(spec), "dice": roll.dice, "total": roll.total, "for": "test.purpose",
                    "args": {"room": 3}}]
    roll.decide("test.decided", value=1)
    assert log[0]["decided"] == {"key": "test.decided", "value": 1}


def test_same_seed_same_rolls() -> None:
    def rolls(seed: int) -> list[int]:
        roller = Roller(SeededSource(seed), [])
        return [roller.roll("3d6", "x").total for _ in range(50)]

    assert rolls(7) == rolls(7)
    assert rolls(7) != rolls(8)


def test_chance_is_a_percentile_die() -> None:
    log: list[dict] = []
    roller = Roller(TableSource(["30", "31"]), log)
    assert roller.chance(0.3, "x") is True
    assert roller.chance(0.3, "x") is False
    assert [entry["roll"] for entry in log] == ["1d100", "1d100"]


def test_pick_is_a_die_with_one_face_per_option() -> None:
    log: list[dict] = []
    roller = Roller(TableSource(["16"]), log)
    assert roller.pick(16, "x") == 15
    assert log[0]["roll"] == "1d16"
    assert roller.pick(1, "x") == 0 and len(log) == 1  # one option: nothing to roll


def test_weighted_pick_is_logged_with_its_weights() -> None:
    log: list[dict] = []
    roller = Roller(SeededSource(3), log)
    counts = Counter(roller.weighted(["a", "b"], [1, 3], "x") for _ in range(4000))
    assert 2800 < counts[1] < 3200
    assert log[0]["weights"] == {"a": 1, "b": 3}


def test_table_mode_asks_for_each_die_and_checks_it() -> None:
    source = TableSource(["4"])
    roller = Roller(source, [])
    with pytest.raises(NeedInput) as need:
        roller.roll("2d6", "crawler.boss_check")
    request = need.value.request
    assert (request.expr, request.index, request.count, request.options) == ("2d6", 1, 2, tuple("123456"))
    with pytest.raises(DedaleError):
        Roller(TableSource(["7"]), []).roll("1d6", "x")

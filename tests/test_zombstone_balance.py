"""`dedale zombstone balance`: a field of a profile or weapon swept, the same games at each value, on any
number of workers; bad input refused by name. And simulate's report of how games were decided."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dedale.core import batch
from dedale.core.batch import Where
from dedale.core.errors import DedaleError
from dedale.zombstone.skirmish.balance import Tweak, sweep, sweep_tweaks
from dedale.zombstone.skirmish.catalogue import load_catalogue
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.simulate import DECIDED, game_seed, play_game

AIS = SkirmishParams(side=None)


@pytest.mark.parametrize(("tweak", "read"), [
    (Tweak("profile", "doc_holliday", "potential", 5), lambda c: c.profiles["doc_holliday"].potential),
    (Tweak("profile", "deputy", "hand", 3), lambda c: c.profiles["deputy"].hand),
    (Tweak("weapon", "winchester", "range", 30.5), lambda c: c.weapons["winchester"].range),
    (Tweak("weapon", "axe", "damage", -1), lambda c: c.weapons["axe"].damage),
])
def test_a_tweak_changes_its_field_and_nothing_else(tweak: Tweak, read: object) -> None:
    shipped = load_catalogue()
    changed = tweak.apply(shipped)
    expected = {"potential": (5, 4), "hand": 3, "range": 30.5, "damage": -1}[tweak.field]  # Doc: [3, 2] keeps its drop
    assert read(changed) == expected  # type: ignore[operator]
    assert read(shipped) != expected  # type: ignore[operator]  # the shipped data is left alone
    assert changed.scenarios == shipped.scenarios and changed.bands == shipped.bands


def test_a_sweep_plays_the_same_games_at_each_value_whatever_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "ALONE_SECONDS", 0.0)  # the two workers play every game
    tweaks = sweep_tweaks(None, "profile", "wyatt_earp", "potential", [1, 3])
    one = sweep(AIS, tweaks, 4, seed=9)
    two = sweep(AIS, tweaks, 4, seed=9, where=Where(workers=2))
    assert one == two
    assert [row["value"] for row in one["values"]] == [1, 3]
    shipped = sweep(AIS, sweep_tweaks(None, "profile", "wyatt_earp", "potential", [3]), 4, seed=9)
    assert shipped["values"][0] == one["values"][1]  # Wyatt's own Potential: the shipped games
    assert shipped["values"][0]["wins"]["lawmen"]["games"] == sum(
        play_game(AIS, game_seed(9, n)).winner == "lawmen" for n in range(4))


@pytest.mark.parametrize(("kind", "item", "field", "values", "words"), [
    ("profile", "nobody", "hand", [1], "nobody"),
    ("weapon", "derringer", "damage", [1], "derringer"),
    ("profile", "deputy", "guts", [1], "guts"),
    ("profile", "deputy", "hand", [9], "hand"),
    ("profile", "deputy", "hand", [1.5], "hand"),
    ("profile", "deputy", "red", [7], "red"),  # more red cartridges than its 6
    ("weapon", "axe", "range", [4], "axe"),  # a melee weapon has no range
    ("profile", "deputy", "hand", list(range(21)), "values"),
])
def test_a_sweep_refuses_what_the_data_would_refuse(kind: str, item: str, field: str, values: list[float],
                                                    words: str) -> None:
    with pytest.raises(DedaleError) as raised:
        sweep_tweaks(None, kind, item, field, values)
    assert words in raised.value.message("en")


def test_balance_command_prints_the_table_and_plots(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    args = ("zombstone", "balance", "--weapon", "winchester", "--field", "range", "--values", "12,24", "--games", "3",
            "--seed", "5", "--workers", "1")
    code, out, _ = cli(*args)
    assert code == 0 and "winchester: range" in out and "95%" in out and len(out.splitlines()) == 3
    for image, magic in (("png", b"\x89PNG"), ("svg", b"<?xml")):
        code, _, _ = cli(*args, "-o", str(tmp_path / f"sweep.{image}"))
        assert code == 0 and (tmp_path / f"sweep.{image}").read_bytes().startswith(magic)
    code, out, _ = cli(*args, "--json")
    document = json.loads(out)
    assert document["format"] == "dedale/zombstone-balance" and [r["value"] for r in document["values"]] == [12, 24]


@pytest.mark.parametrize(("args", "problem"), [
    (("--profile", "nobody", "--field", "hand", "--values", "1"), "nobody"),
    (("--profile", "deputy", "--field", "guts", "--values", "1"), "guts"),
    (("--profile", "deputy", "--field", "hand", "--values", "1,x"), "'x'"),
    (("--profile", "deputy", "--field", "hand", "--values", "nan"), "nan"),
    (("--profile", "deputy", "--field", "hand", "--values", "7"), "7"),
    (("--field", "hand", "--values", "1"), "--profile"),
    (("--profile", "deputy", "--weapon", "axe", "--field", "hand", "--values", "1"), "--profile"),
    (("--profile", "deputy", "--field", "hand", "--values", "1", "--scenario", "alamo"), "alamo"),
    (("--profile", "deputy", "--field", "hand", "--values", "1", "-o", "sweep.gif"), "sweep.gif"),
])
def test_balance_refuses_bad_input(cli, args: tuple[str, ...], problem: str) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("zombstone", "balance", "--seed", "1", "--games", "2", *args)
    assert code == 2 and problem in err and "Traceback" not in err


def test_simulate_reports_how_games_were_decided_and_melees(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("zombstone", "simulate", "--games", "6", "--seed", "3", "--workers", "1", "--json")
    result = json.loads(out)
    assert code == 0 and sum(result["decided_by"].values()) == 6 and set(result["decided_by"]) == set(DECIDED)
    assert result["melees"] == sum(o["melees"] for o in result["outcomes"]) / 6
    code, out, _ = cli("zombstone", "simulate", "--games", "6", "--seed", "3", "--workers", "1")
    assert "Decided by" in out and "Melees a game" in out

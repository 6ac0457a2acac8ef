"""`dedale zombstone balance`: a field of a profile or weapon swept, the same games at each value, on any
number of workers; bad input refused by name. And simulate's report of how games were decided. A designer's
tools (issue 40): every rate printed with its 95% interval, CSV and the plots of both commands, each side's AI
of its own level (--ai lawmen=lookahead,zombies=standard), counts in the singular and the plural."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from dedale.core import batch
from dedale.core.batch import Where
from dedale.core.errors import DedaleError
from dedale.zombstone.skirmish import simulate
from dedale.zombstone.skirmish.ai import AI
from dedale.zombstone.skirmish.balance import Tweak, sweep, sweep_tweaks
from dedale.zombstone.skirmish.catalogue import load_catalogue
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.simulate import DECIDED, game_seed, matchup_name, matchups, play_game, run, wilson
from dedale.zombstone.skirmish.table import Controller

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
    assert code == 0 and "winchester: range" in out and "95%" in out
    assert len(out.splitlines()) == 5  # the title, the AIs, the columns' header, a line a value
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


# --- a designer's tools (issue 40) -----------------------------------------------------------------------
QUICK = ("--seed", "3", "--workers", "1")  # clum_ride's games are the shortest (an escort, a few turns)
CELL = re.compile(r"(\d+\.\d)% \((\d+\.\d)–(\d+\.\d)%\)")  # 50.0% (9.5–90.5%)


def cells(line: str) -> list[tuple[float, float, float]]:
    return [(float(rate), float(low), float(high)) for rate, low, high in CELL.findall(line)]


def test_the_balance_table_prints_each_rate_with_its_95_percent_interval(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("zombstone", "balance", "--scenario", "clum_ride", "--games", "3", *QUICK)
    header, row = out.splitlines()[1:]
    assert code == 0 and header.split()[:5] == ["scenario", "AI", "lawmen", "zombies", "draws"]
    code, document, _ = cli("zombstone", "balance", "--scenario", "clum_ride", "--games", "3", *QUICK, "--json")
    wins = json.loads(document)["rows"][0]["wins"]
    assert cells(row) == [(round(wins[n]["rate"] * 100, 1), round(wins[n]["low"] * 100, 1),
                           round(wins[n]["high"] * 100, 1)) for n in ("lawmen", "zombies", "draw")]
    assert [wins[n]["low"] for n in ("lawmen", "zombies")] == [wilson(wins[n]["games"], 3)[0]
                                                               for n in ("lawmen", "zombies")]
    code, out, _ = cli("zombstone", "balance", "--profile", "deputy", "--field", "hand", "--values", "1,2",
                       "--scenario", "clum_ride", "--games", "2", *QUICK)
    assert code == 0 and [len(cells(line)) for line in out.splitlines()[3:]] == [3, 3]  # a sweep's too


def read_csv(path: Path) -> list[dict[str, str]]:
    data = path.read_bytes()
    assert data.decode("utf-8").startswith("scenario,ai_lawmen,ai_zombies,")
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))


def test_simulate_and_balance_write_csv_a_row_a_scenario_and_matchup(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("zombstone", "simulate", "--scenario", "clum_ride", "--games", "3", *QUICK,
                         "-o", str(tmp_path / "run.csv"))
    assert code == 0 and out == "" and err.count("run.csv") == 1  # a data file instead of the text
    [row] = read_csv(tmp_path / "run.csv")
    _, document, _ = cli("zombstone", "simulate", "--scenario", "clum_ride", "--games", "3", *QUICK, "--json")
    result = json.loads(document)
    assert (row["scenario"], row["ai_lawmen"], row["ai_zombies"], row["games"]) == ("clum_ride", "standard",
                                                                                    "standard", "3")
    for name, prefix in (("lawmen", "lawmen"), ("zombies", "zombies"), ("draw", "draw")):
        for part in ("rate", "low", "high"):
            assert float(row[f"{prefix}_{part}"]) == pytest.approx(result["wins"][name][part], abs=1e-6)
    assert float(row["turns"]) == pytest.approx(result["turns"], abs=1e-6) and row["seed"] == "3"
    assert int(row["decided_by_escort"]) == result["decided_by"]["escort"]
    assert float(row["decided_at_table"]) == (3 - result["decided_by"]["dollars"]) / 3

    args = ("zombstone", "balance", "--scenario", "clum_ride", "--games", "2", "--ai", "standard",
            "--ai", "lawmen=standard,zombies=standard", *QUICK)  # the same matchup twice: played once
    code, _, _ = cli(*args, "-o", str(tmp_path / "table.csv"))
    rows = read_csv(tmp_path / "table.csv")
    assert code == 0 and [(r["scenario"], r["ai_lawmen"], r["ai_zombies"]) for r in rows] == [
        ("clum_ride", "standard", "standard")]
    for column in ("lawmen_rate", "lawmen_low", "lawmen_high", "zombies_rate", "zombies_low", "zombies_high",
                   "draw_rate", "draw_low", "draw_high", "decided_at_table", "turn_limit", "turns"):
        assert 0 <= float(rows[0][column]) <= 12, column  # a number as Python writes it, whatever the language
    code, _, _ = cli(*args, "--lang", "fr", "-o", str(tmp_path / "table-fr.csv"))
    assert (tmp_path / "table-fr.csv").read_bytes() == (tmp_path / "table.csv").read_bytes()

    code, _, _ = cli("zombstone", "balance", "--profile", "deputy", "--field", "hand", "--values", "1,3",
                     "--scenario", "clum_ride", "--games", "2", *QUICK, "-o", str(tmp_path / "sweep.csv"))
    rows = read_csv(tmp_path / "sweep.csv")
    assert code == 0 and [(r["item"], r["field"], r["value"]) for r in rows] == [("deputy", "hand", "1"),
                                                                                 ("deputy", "hand", "3")]


def test_simulate_and_the_balance_table_draw_their_plots_as_png_and_svg(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for command in (("simulate",), ("balance", "--ai", "standard", "--ai", "zombies=standard")):
        for image, magic in (("png", b"\x89PNG\r\n\x1a\n"), ("svg", b"<?xml")):
            path = tmp_path / f"{command[0]}.{image}"
            code, out, err = cli("zombstone", *command, "--scenario", "clum_ride", "--games", "2", *QUICK,
                                 "-o", str(path))
            assert code == 0 and path.read_bytes().startswith(magic) and err.count(path.name) == 1
            assert "95%" in out  # a plot comes with the text
    assert b"<svg" in (tmp_path / "balance.svg").read_bytes()


@pytest.mark.parametrize(("text", "found"), [
    ("standard", [{"lawmen": "standard", "zombies": "standard"}]),
    (" lookahead ", [{"lawmen": "lookahead", "zombies": "lookahead"}]),
    ("standard,lookahead,standard", [{"lawmen": "standard", "zombies": "standard"},
                                     {"lawmen": "lookahead", "zombies": "lookahead"}]),
    ("lawmen=lookahead,zombies=standard", [{"lawmen": "lookahead", "zombies": "standard"}]),
    ("zombies=lookahead", [{"lawmen": "standard", "zombies": "lookahead"}]),  # a side not named: standard
])
def test_ai_names_matchups_of_levels(text: str, found: list[dict[str, str]]) -> None:
    assert matchups(text) == found
    for matchup in found:
        assert matchups(matchup_name(matchup)) == [matchup]  # as --ai spells it
    assert matchup_name({"lawmen": "lookahead", "zombies": "standard"}) == "lawmen=lookahead,zombies=standard"


class Asked:
    """A stand-in for the look-ahead level (slow: about a second a decision): the standard AI of another policy,
    each policy it is asked to play noted (each side's policy differs, so the policy says the side)."""

    def __init__(self) -> None:
        self.policies: list[str] = []

    def __call__(self, policy: str) -> Controller:
        self.policies.append(policy)
        return AI("aggressive")


def test_each_side_plays_the_ai_level_it_is_given(cli, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    asked = Asked()
    monkeypatch.setitem(simulate.LEVELS, "lookahead", asked)
    args = ("zombstone", "simulate", "--scenario", "clum_ride", "--games", "2", "--policy-a", "cautious", *QUICK)
    _, out, _ = cli(*args, "--json")
    standard = json.loads(out)
    assert standard["levels"] == {"lawmen": "standard", "zombies": "standard"} and asked.policies == []
    _, out, _ = cli(*args, "--ai", "lawmen=lookahead,zombies=standard", "--json")
    mixed = json.loads(out)
    assert mixed["levels"] == {"lawmen": "lookahead", "zombies": "standard"}
    assert asked.policies == ["cautious", "cautious"]  # the lawmen's, once a game; the zombies' standard
    assert mixed["outcomes"] != standard["outcomes"]
    _, out, _ = cli(*args, "--ai", "zombies=lookahead")
    assert asked.policies[2:] == ["default", "default"] and "lawmen standard" in out and "zombies lookahead" in out

    asked.policies.clear()
    _, out, _ = cli("zombstone", "balance", "--scenario", "clum_ride", "--games", "2", "--ai", "standard",
                    "--ai", "zombies=lookahead", *QUICK, "--json")
    rows = json.loads(out)["rows"]
    assert [(row["ai"], row["levels"]) for row in rows] == [
        ("standard", {"lawmen": "standard", "zombies": "standard"}),
        ("lawmen=standard,zombies=lookahead", {"lawmen": "standard", "zombies": "lookahead"})]
    assert asked.policies == ["default", "default"]
    _, out, _ = cli("zombstone", "balance", "--profile", "deputy", "--field", "hand", "--values", "1", "--scenario",
                    "clum_ride", "--games", "2", "--ai", "lawmen=lookahead", *QUICK, "--json")
    assert json.loads(out)["levels"] == {"lawmen": "lookahead", "zombies": "standard"}
    assert asked.policies[2:] == ["default", "default"]


def test_each_sides_level_reaches_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    if batch._start_method() != "fork":
        pytest.skip("the stand-in level reaches only workers forked from this process")
    monkeypatch.setattr(batch, "ALONE_SECONDS", 0.0)  # the two workers play every game
    monkeypatch.setitem(simulate.LEVELS, "lookahead", Asked())
    params, levels = SkirmishParams("clum_ride", None), {"lawmen": "lookahead", "zombies": "standard"}
    here = run(params, 4, 5, levels=levels)
    assert run(params, 4, 5, Where(workers=2), levels=levels) == here != run(params, 4, 5)


@pytest.mark.parametrize(("command", "ai", "problem"), [
    ("simulate", "lawmen=genius", "'genius'"),
    ("simulate", "sheriffs=lookahead", "'sheriffs' is not a side"),
    ("simulate", "lawmen=lookahead,lawmen=standard", "two levels"),
    ("simulate", "lookahead,zombies=standard", "lawmen=LEVEL,zombies=LEVEL"),
    ("simulate", "lawmen=", "lawmen=LEVEL,zombies=LEVEL"),
    ("simulate", "", "lawmen=LEVEL,zombies=LEVEL"),
    ("simulate", "standard,lookahead", "several matchups"),  # a run plays one
    ("balance", "sheriffs=lookahead", "'sheriffs' is not a side"),
    ("balance", "lawmen:lookahead", "'lawmen:lookahead'"),
    ("sweep", "standard,lookahead", "several matchups"),
])
def test_bad_ai_levels_are_refused_in_one_line(cli, command: str, ai: str, problem: str) -> None:  # type: ignore[no-untyped-def]
    sweep_args = ("--profile", "deputy", "--field", "hand", "--values", "1") if command == "sweep" else ()
    code, out, err = cli("zombstone", "simulate" if command == "simulate" else "balance", *sweep_args, "--ai", ai,
                         "--games", "1", *QUICK)
    assert code == 2 and problem in err and ("--ai" in err or "ai:" in err)
    assert len(err.splitlines()) == 1 and "Traceback" not in err and out == ""


def test_counts_are_singular_or_plural_and_a_file_is_named_once(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("zombstone", "simulate", "--scenario", "clum_ride", "--games", "1", *QUICK)
    assert code == 0 and out.startswith("1 game,") and "1 games" not in out and re.search(r"\b0 games\b", out)
    code, out, _ = cli("zombstone", "simulate", "--scenario", "clum_ride", "--games", "1", *QUICK, "--lang", "fr")
    assert out.startswith("1 partie,") and "1 parties" not in out and "0 parties" not in out  # French: 0 partie
    code, out, _ = cli("zombstone", "balance", "--scenario", "clum_ride", "--games", "1", *QUICK)
    assert "1 game each" in out
    for name in ("run.json", "run.png"):
        code, _, err = cli("zombstone", "simulate", "--scenario", "clum_ride", "--games", "1", *QUICK,
                           "-o", str(tmp_path / name))
        assert code == 0 and err.lower().count(f"wrote {tmp_path / name}") == 1 and len(err.splitlines()) == 1


@pytest.mark.parametrize(("better", "worse", "p"), [(9, 1, 22 / 1024), (1, 9, 22 / 1024), (5, 5, 1.0), (0, 0, 1.0),
                                                    (12, 0, 2 / 4096)])
def test_the_sign_test_is_exact(better: int, worse: int, p: float) -> None:
    assert simulate.sign_test(better, worse) == pytest.approx(p)


def test_a_head_to_head_pairs_each_game_with_the_same_game_between_two_standard_ais(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A level that is the standard AI itself wins exactly the games the standard AI wins, on either side: no pair
    differs. An aggressive stand-in for the level plays other games, and its counts are those of its own wins and
    the standard AI's on the same seeds, which are those of one run between two standard AIs."""
    params = SkirmishParams(scenario="clum_ride", side=None)
    monkeypatch.setitem(simulate.LEVELS, "lookahead", lambda style: AI(style))
    for same in simulate.head_to_head(params, "lookahead", 6, 3).values():
        assert (same.better, same.worse, same.p_value) == (0, 0, 1.0) and same.wins == same.standard_wins
    monkeypatch.setitem(simulate.LEVELS, "lookahead", lambda style: AI("aggressive"))
    duels = simulate.head_to_head(params, "lookahead", 6, 3)
    assert set(duels) == {"lawmen", "zombies"}
    for side, other in duels.items():
        assert other.side == side and other.wins - other.standard_wins == other.better - other.worse
    assert sum(d.standard_wins for d in duels.values()) == 6 - sum(o.winner is None for o in run(params, 6, 3))

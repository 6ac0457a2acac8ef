"""The library as a tool author meets it in a notebook: typed for each system (mypy --strict finds a misspelt
call or parameter and a value of the wrong kind in the caller's code), autopilots by name, sessions and results
that say what they are, errors in the library's words, many results at once, and results as tables."""

from __future__ import annotations

import re
import subprocess
import sys
import types
import typing
from pathlib import Path

import pytest

import dedale
from dedale import api
from dedale.core import batch
from dedale.core.params import fields_of
from dedale.systems import names, system

CORRECT = '''
from typing import Any

import dedale
from dedale.crawler.session import CrawlerSession
from dedale.hexcrawl.session import HexcrawlSession

session: CrawlerSession = dedale.play("crawler", seed=4, size="2d6", start_side="N", early_boss=False)
party: tuple[int, int] = dedale.play("hexcrawl", seed=3, radius=2).state.party
again: HexcrawlSession = dedale.generate("hexcrawl", seed=3, order="walk", obstacle_chance=0.5).play()
rows: list[dict[str, Any]] = dedale.generate("paper", seed=3, max_cards=12).records()
many = dedale.generate_many("keylock", range(3), workers=2, progress=True, unique=4)
first: dedale.Result[Any] = many[0]


def keep(result: dedale.Result) -> dedale.Session[Any]:  # a bare Result: any system's
    return result.play()


dedale.play("zombstone", seed=1, side=None).run_autopilot("aggressive")
options: dict[str, Any] = {"radius": 2}
for name in dedale.system_names():
    dedale.generate(name, seed=1).svg()
    dedale.generate(name, seed=1, **options)
'''

# Each line a mistake mypy must report, on that line.
WRONG = '''import dedale
dedale.genrate("crawler", seed=4)
dedale.generate("crawler", seed=4, sise="2d6")
dedale.generate("hexcrawl", seed=1, radius="big")
dedale.generate("hexcrawl", seed=1, order="wlak")
dedale.play("crawler", seed=4.5)
dedale.generate_many("zombstone", range(2), side="cowboys")
dedale.play("paper", seed=1).state.no_such_field
dedale.generate("crawler", seed=1).view("dm")
'''


def test_mypy_strict_finds_the_callers_mistakes_and_passes_correct_code(tmp_path: Path) -> None:
    (tmp_path / "correct.py").write_text(CORRECT, encoding="utf-8")
    (tmp_path / "wrong.py").write_text(WRONG, encoding="utf-8")
    # The library as the caller sees it (this checkout's, not another installed one), its own lines unjudged.
    source = Path(dedale.__file__).parents[1]
    found = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--cache-dir", str(tmp_path / "cache"),
         "--no-error-summary", "correct.py", "wrong.py"],
        capture_output=True, text=True, cwd=tmp_path, env={"MYPYPATH": str(source), "PATH": ""}).stdout
    errors = [line for line in found.splitlines() if ": error:" in line]
    assert not [line for line in errors if line.startswith("correct.py")], found
    lines = {int(line.split(":")[1]) for line in errors if line.startswith("wrong.py")}
    assert lines == set(range(2, len(WRONG.splitlines()) + 1)), found


def _overloads(function: typing.Callable[..., object]) -> dict[str, str]:
    """A typed call's overloads by system name: the name of the parameters' TypedDict each unpacks."""
    found = {}
    for overload in typing.get_overloads(function):
        name = re.fullmatch(r"Literal\['([a-z-]+)'\]", overload.__annotations__["name"])
        if name:
            found[name[1]] = re.fullmatch(r"Unpack\[(\w+)\]", overload.__annotations__["params"])[1]  # type: ignore[index]
    return found


def test_every_system_is_typed_with_its_declared_parameters() -> None:
    """The typed keywords are written beside the declarations: each of Dédale's own systems has them, named and
    typed as its parameters are declared (a parameter added and not typed, or a word added, fails here). A
    system installed from another package is called by name as a `str`, its parameters untyped."""
    typed = _overloads(api.play)
    own = {name for name in names() if system(name).package.startswith("dedale.")}
    assert set(typed) == own and _overloads(api.generate) == typed == _overloads(api.generate_many)
    for name, options in typed.items():
        hints = typing.get_type_hints(getattr(api, options))
        fields = {field.option: field for field in fields_of(system(name).params)}
        assert list(hints) == list(fields), name
        for option, field in fields.items():
            hint = hints[option]
            union = typing.get_origin(hint) in (typing.Union, types.UnionType)
            kinds = {arg for arg in typing.get_args(hint) if arg is not type(None)} if union else {hint}
            assert (union and type(None) in typing.get_args(hint)) == field.optional, (name, option)
            if field.kind == "word":
                (literal,) = kinds
                assert typing.get_origin(literal) is typing.Literal and typing.get_args(literal) == field.words()
            else:
                expected = {"int": {int}, "float": {float}, "bool": {bool}}.get(field.kind)
                assert (expected is None and str in kinds) or kinds == expected, (name, option, kinds)


def test_a_policy_by_its_name_plays_as_the_policy_itself() -> None:
    by_name = dedale.play("zombstone", seed=4, side="zombies").run_autopilot("aggressive")
    by_policy = dedale.play("zombstone", seed=4, side="zombies")
    by_policy.run_autopilot(by_policy.autopilot("aggressive"))
    assert by_name.to_json() == by_policy.to_json()
    assert {event["by"] for event in by_name.events if event["seat"] == 0} == {"aggressive"}  # the player's side
    assert {event["by"] for event in by_name.events if event["seat"] == 1} == {"default"}  # the AI's, its own
    stepped = dedale.play("zombstone", seed=4)
    stepped.auto_step("cautious")
    assert [e["by"] for e in stepped.events if e["seat"] == 0] == ["cautious"]
    with pytest.raises(dedale.DedaleError, match="policy: 'bold' is not one of the zombstone's autopilot policies"):
        dedale.play("zombstone", seed=4).run_autopilot("bold")


def test_a_session_and_a_result_say_their_system_seed_and_step() -> None:
    session = dedale.play("hexcrawl", seed=3, radius=2)
    assert repr(session) == "<dedale hexcrawl session seed=3 step 0>"
    session.step("move:N")
    assert repr(session) == "<dedale hexcrawl session seed=3 step 1>"
    table = dedale.play("crawler", seed=4, table=True)
    assert repr(table) == "<dedale crawler session seed=4 step 0, a result to enter>"
    assert repr(session.run_autopilot()).endswith(", over>")
    assert repr(dedale.generate("keylock", seed=2)) == "<dedale keylock result seed=2>"
    assert repr(dedale.generate("crawler", seed=2).view("party")) == "<dedale crawler result seed=None>"


@pytest.mark.parametrize("call", [
    lambda: dedale.generate("crawler", seed=1).export(".gif"),
    lambda: dedale.generate("crawler", seed=1).save("map.gif"),
    lambda: dedale.generate("keylock", seed=1).view("party"),
    lambda: dedale.play("keylock", seed=1, table=True),
    lambda: dedale.generate("crawlr", seed=1),
    lambda: dedale.schema("crawlr"),
    lambda: dedale.generate("crawler", seed=1, policy="bold"),
    lambda: dedale.generate("crawler", seed=1).records("corridors"),
    lambda: dedale.generate_many("crawler", [1], workers=0),
], ids=["export", "save", "view", "table", "system", "schema", "policy", "records", "workers"])
def test_the_librarys_errors_name_its_own_parameters_not_the_command_lines(call: typing.Callable[[], object]) -> None:
    with pytest.raises(dedale.DedaleError) as raised:
        call()
    for lang in ("en", "fr"):
        message = raised.value.message(lang)
        assert not re.search(r"(^|\s)-{1,2}[a-z]|--help", message), message


@pytest.mark.parametrize(("params", "named"), [
    ({"boss_size": "big"}, "boss_size: 'big'"),
    ({"boss_size": "6x6"}, "boss_size: 6x6"),
    ({"start_zone": "a"}, "start_zone: 'a'"),
    ({"start_zone": "9,9"}, "start_zone: zone 9,9"),
    ({"start_zone": "2,2", "start_side": "N"}, "start_zone: zone 2,2"),
])
def test_an_error_names_the_parameter_as_the_call_spells_it(params: dict[str, str], named: str) -> None:
    """`boss_size` in the library, where the command line says `--boss-size` (tests/test_cli.py)."""
    with pytest.raises(dedale.DedaleError) as raised:
        dedale.generate("crawler", seed=1, **params)  # type: ignore[arg-type]
    assert raised.value.message("en").startswith(named)
    assert raised.value.message("fr").startswith(named.split(":")[0] + "\u00a0:")


def test_none_for_a_parameter_that_may_be_none_is_none() -> None:
    """`side=None` is a game between two AIs, as documented, not the default side."""
    assert dedale.generate("zombstone", seed=4, side=None).to_json()["params"]["side"] is None
    assert dedale.generate("zombstone", seed=4).to_json()["params"]["side"] == "lawmen"
    assert dedale.generate("hexcrawl", seed=1, radius=None).to_json()["params"]["radius"] == 12  # no None: the default


def test_many_results_are_each_seeds_result_on_workers_too(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    seeds = [5, 1, 3, 2]
    one_by_one = [dedale.generate("paper", seed=seed, max_cards=12).to_json() for seed in seeds]
    assert [result.to_json() for result in dedale.generate_many("paper", seeds, max_cards=12)] == one_by_one
    monkeypatch.setattr(batch, "ALONE_SECONDS", 0.0)  # a pool at once: the seeds after the first go to workers
    many = dedale.generate_many("paper", iter(seeds), workers=2, progress=True, max_cards=12)
    assert [result.to_json() for result in many] == one_by_one and many[0].system == "paper"
    assert "4/4" in capsys.readouterr().err
    with pytest.raises(dedale.DedaleError, match="sise is not a parameter"):
        dedale.generate_many("crawler", seeds, sise="2d6")
    with pytest.raises(dedale.DedaleError, match="seed"):
        dedale.generate_many("crawler", [1, -1])


@pytest.mark.parametrize(("name", "params", "main"), [
    ("crawler", {}, ["rooms"]), ("paper", {"max_cards": 12}, ["rooms"]), ("hexcrawl", {"radius": 2}, ["hexes"]),
    ("keylock", {}, ["nodes"]), ("zombstone", {"side": None}, ["game", "figures"]),
    ("zombstone-duel", {}, ["duel", "history"])])
def test_records_are_flat_rows_of_the_main_table(name: str, params: dict[str, object], main: list[str]) -> None:
    result = dedale.generate(name, seed=4, **params)
    items = result.to_json()
    for key in main:
        items = items[key]
    rows = result.records()
    assert len(rows) == len(items) > 0
    for row, item in zip(rows, items, strict=True):
        assert row["system"] == name and row["seed"] == 4
        assert not any(isinstance(value, dict) for value in row.values()), row
        assert {key.split(".")[0] for key in row} - {"system", "seed"} == set(item)


def test_records_of_a_named_table_nested_values_by_their_path() -> None:
    dungeon = dedale.generate("crawler", seed=4)
    room = dungeon.to_json()["rooms"][0]
    row = dungeon.records()[0]
    assert row["contents.kind.id"] == room["contents"]["kind"]["id"] and row["zone"] == room["zone"]
    assert [row["to_room"] for row in dungeon.records("passages")] == \
        [passage["to_room"] for passage in dungeon.to_json()["passages"]]
    assert dedale.generate("crawler", seed=1).records("passages") == []  # a dungeon without passages
    with pytest.raises(dedale.DedaleError, match="its tables: rooms, doors"):
        dungeon.records("log")


def test_a_misspelt_name_is_an_error_at_run_time_too() -> None:
    with pytest.raises(AttributeError, match="genrate"):
        dedale.genrate  # type: ignore[attr-defined]  # noqa: B018
    assert "generate_many" in dir(dedale)

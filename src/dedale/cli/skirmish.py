"""`dedale zombstone simulate`: battle runs between two AIs, for balancing bands; `dedale zombstone balance`:
the same games at each value of one profile's or weapon's field, win rates against it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from dedale.cli.common import AsJson, Lang, Scheduler, Seed, Workers, progress, resolve_seed, say, set_lang, write_file
from dedale.core.errors import DedaleError
from dedale.i18n import t
from dedale.zombstone.skirmish.catalogue import load_catalogue

Scenario = Annotated[str, typer.Option(  # the shipped scenarios, read from their file (none left out)
    "--scenario", help=f"{', '.join(load_catalogue().scenarios)} (or one of your --data).")]
Data = Annotated[Path | None, typer.Option(
    "--data", help="A folder whose weapons/profiles/bands/scenarios.toml replace the shipped ones.")]
Rounds = Annotated[int, typer.Option("--rounds", help="Reroll rounds (the rules: 1).")]
Policy = Annotated[str, typer.Option(help="An AI policy: default, cautious or aggressive.")]
Level = Annotated[str, typer.Option("--ai", help="The AIs' level: standard, or lookahead (before each activation and "
                                     "action it plays the options out some 160 times in all: stronger, about a "
                                     "second a decision).")]
MAX_GAMES = 1_000_000


def _data(data: Path | None) -> str | None:
    return None if data is None else str(data)


def simulate(
    scenario: Scenario = "ok_corral",
    games: Annotated[int, typer.Option("--games", help="How many games.")] = 200,
    policy_a: Policy = "default",
    policy_b: Policy = "default",
    ai: Level = "standard",
    workers: Workers = None,
    scheduler: Scheduler = None,
    seed: Seed = None,
    rounds: Rounds = 1,
    data: Data = None,
    as_json: AsJson = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write .json, or a .png plot.")] = None,
    lang: Lang = "en",
) -> None:
    """Battle runs between two AIs: win rates with 95% intervals, average turns and survivors. --policy-a
    plays the lawmen, --policy-b the zombies."""
    from dedale.core.batch import Where
    from dedale.zombstone.skirmish.params import SkirmishParams
    from dedale.zombstone.skirmish.simulate import run, summary

    set_lang(lang)
    if not 1 <= games <= MAX_GAMES:
        raise DedaleError("error.range", param="games", value=games, low=1, high=MAX_GAMES)
    where = Where(workers, scheduler)
    if output is not None and output.suffix.lower() not in (".json", ".png"):
        raise DedaleError("error.output", value=str(output), accepted=".json .png")
    params = SkirmishParams(scenario, None, policy_a, policy_b, rounds, _data(data), ai=ai)
    run_seed = resolve_seed(seed)
    with progress(games, t("skirmish.simulating", lang, scenario=scenario)) as advance:
        outcomes = run(params, games, run_seed, where, advance)
    result = summary(params, run_seed, outcomes)
    if output is not None:
        if output.suffix.lower() == ".json":
            write_file(output, (json.dumps(result, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
        else:
            from dedale.render.zombstone_plot import simulation_plot

            write_file(output, simulation_plot(result, lang))
        say("skirmish.written", path=str(output))
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
    elif output is None or output.suffix.lower() == ".png":
        _print(result, lang)


def _print(result: dict[str, Any], lang: str) -> None:
    typer.echo(t("skirmish.simulated", lang, games=result["games"], turns=f"{result['turns']:.1f}"))
    for name in ("lawmen", "zombies", "draw"):
        win = result["wins"][name]
        who = t(f"skirmish.side.{name}", lang) if name != "draw" else t("skirmish.ending.draw", lang)
        typer.echo(t("skirmish.win_line", lang, who=who, rate=f"{win['rate']:.1%}", low=f"{win['low']:.1%}",
                     high=f"{win['high']:.1%}", games=win["games"]))
    for name in ("lawmen", "zombies"):
        typer.echo(t("skirmish.survivors_line", lang, who=t(f"skirmish.side.{name}", lang),
                     survivors=f"{result['survivors'][name]:.2f}", dollars=f"{result['dollars'][name]:.0f}"))
    typer.echo(t("skirmish.decided_title", lang))
    for how, count in result["decided_by"].items():
        if count:
            typer.echo(t("skirmish.decided_line", lang, how=t(f"skirmish.decided.{how}", lang), games=count,
                         rate=f"{count / result['games']:.1%}"))
    typer.echo(t("skirmish.fights_line", lang, melees=f"{result['melees']:.1f}", shots=f"{result['shots']:.1f}"))


def balance(
    field: Annotated[str | None, typer.Option("--field", help="The field to sweep: a profile's potential, hand, "
                                              "cartridges, red or cost; a weapon's damage or range.")] = None,
    values: Annotated[str | None, typer.Option("--values", help="The values to try, separated by commas: "
                                               "1,2,3.")] = None,
    profile: Annotated[str | None, typer.Option("--profile", help="The profile whose field is swept.")] = None,
    weapon: Annotated[str | None, typer.Option("--weapon", help="The weapon whose field is swept.")] = None,
    scenario: Annotated[str | None, typer.Option(
        "--scenario", help="The scenario (a sweep: ok_corral unless given; the table: every scenario unless "
        "given).")] = None,
    ai: Annotated[str | None, typer.Option("--ai", help="The table's AI levels, separated by commas: standard "
                                           "unless given; standard,lookahead adds the look-ahead, which takes "
                                           "under a second a decision (a minute or more a game: a few "
                                           "--games).")] = None,
    games: Annotated[int, typer.Option("--games", help="Games at each value, or each scenario and level.")] = 200,
    policy_a: Policy = "default",
    policy_b: Policy = "default",
    workers: Workers = None,
    scheduler: Scheduler = None,
    seed: Seed = None,
    rounds: Rounds = 1,
    data: Data = None,
    as_json: AsJson = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write .json, or a .png or .svg plot.")] = None,
    lang: Lang = "en",
) -> None:
    """Without a field: the table of every scenario at each AI level asked for (the standard one unless --ai),
    each side's win rate, the share of games decided at the table (by the scenario's condition or an
    elimination, not by the dollars at the turn limit) and turns played. With one: the designer's sweep, one
    field of a profile (--profile) or a weapon (--weapon) set to each value, the same games played at each,
    and each side's win rate with its 95% interval."""
    from dedale.core.batch import Where
    from dedale.zombstone.skirmish.balance import sweep, sweep_tweaks
    from dedale.zombstone.skirmish.params import SkirmishParams

    set_lang(lang)
    if not 1 <= games <= MAX_GAMES:
        raise DedaleError("error.range", param="games", value=games, low=1, high=MAX_GAMES)
    if field is None and values is None and profile is None and weapon is None:
        _table(scenario, ai, games, Where(workers, scheduler), resolve_seed(seed), _data(data), as_json, output, lang)
        return
    if (profile is None) == (weapon is None):
        raise DedaleError("error.skirmish.sweep_what")
    if field is None or values is None:
        raise DedaleError("error.skirmish.sweep_field")
    if output is not None and output.suffix.lower() not in (".json", ".png", ".svg"):
        raise DedaleError("error.output", value=str(output), accepted=".json .png .svg")
    params = SkirmishParams(scenario or "ok_corral", None, policy_a, policy_b, rounds, _data(data))
    params.check()
    kind, item = ("profile", profile) if profile is not None else ("weapon", weapon)
    assert item is not None
    tweaks = sweep_tweaks(params.data, kind, item.strip().lower(), field.strip().lower(), _numbers(values))
    where = Where(workers, scheduler)
    run_seed = resolve_seed(seed)
    with progress(games * len(tweaks), t("skirmish.simulating", lang, scenario=params.scenario)) as advance:
        result = sweep(params, tweaks, games, run_seed, where, advance)
    if output is not None:
        if output.suffix.lower() == ".json":
            write_file(output, (json.dumps(result, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
        else:
            from dedale.render.zombstone_plot import balance_plot

            write_file(output, balance_plot(result, lang, output.suffix.lower().lstrip(".")))
        say("skirmish.written", path=str(output))
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
    elif output is None or output.suffix.lower() != ".json":
        _print_sweep(result, lang)


def _table(scenario: str | None, ai: str | None, games: int, where: Any, seed: int, data: str | None, as_json: bool,
           output: Path | None, lang: str) -> None:
    """`balance` without a field: every scenario (or the one named) at the standard AI level (or those named)."""
    from dedale.zombstone.skirmish.balance import overview
    from dedale.zombstone.skirmish.catalogue import load_catalogue
    from dedale.zombstone.skirmish.simulate import LEVELS

    if output is not None and output.suffix.lower() != ".json":
        raise DedaleError("error.output", value=str(output), accepted=".json")
    catalogue = load_catalogue(data)
    scenarios = list(catalogue.scenarios) if scenario is None else [catalogue.scenario(scenario).id]
    levels = ["standard"] if ai is None else [level.strip() for level in ai.split(",")]
    for level in levels:
        if level not in LEVELS:
            raise DedaleError("error.one_of", param="ai", value=level, accepted=", ".join(LEVELS))
    total = games * len(scenarios) * len(levels)
    with progress(total, t("skirmish.simulating", lang, scenario=", ".join(scenarios))) as advance:
        result = overview(data, scenarios, levels, games, seed, where, advance)
    if output is not None:
        write_file(output, (json.dumps(result, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
        say("skirmish.written", path=str(output))
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
    elif output is None:
        typer.echo(t("skirmish.table_title", lang, games=result["games"]))
        for row in result["rows"]:
            wins = row["wins"]
            favoured = (t("skirmish.table_favoured", lang, who=t(f"skirmish.side.{row['favoured']}", lang))
                        if row["favoured"] else "")
            typer.echo(t("skirmish.table_line", lang, scenario=row["scenario"], ai=row["ai"],
                         lawmen=f"{wins['lawmen']['rate']:.1%}", zombies=f"{wins['zombies']['rate']:.1%}",
                         draws=f"{wins['draw']['rate']:.1%}", decided=f"{row['decided']:.0%}",
                         limit=f"{row['turn_limit']:.0%}", turns=f"{row['turns']:.1f}", favoured=favoured))


def _numbers(values: str) -> list[float]:
    found = []
    for text in values.split(","):
        try:
            number = float(text.strip())
        except ValueError:
            raise DedaleError("error.skirmish.values", value=text.strip()) from None
        if number != number or number in (float("inf"), float("-inf")):
            raise DedaleError("error.skirmish.values", value=text.strip())
        found.append(number)
    return found


def _print_sweep(result: dict[str, Any], lang: str) -> None:
    typer.echo(t("skirmish.sweep_title", lang, item=result["item"], field=result["field"], games=result["games"]))
    for row in result["values"]:
        cells = []
        for name in ("lawmen", "zombies"):
            win = row["wins"][name]
            cells.append(t("skirmish.sweep_cell", lang, who=t(f"skirmish.side.{name}", lang), rate=f"{win['rate']:.1%}",
                           low=f"{win['low']:.1%}", high=f"{win['high']:.1%}"))
        typer.echo(t("skirmish.sweep_line", lang, value=f"{row['value']:g}", wins="  ".join(cells),
                     melees=f"{row['melees']:.1f}"))

"""`dedale zombstone simulate`: battle runs between two AIs, for balancing bands; `dedale zombstone balance`:
the same games at each value of one profile's or weapon's field, win rates against it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from dedale.cli.common import AsJson, Lang, Scheduler, Seed, Workers, progress, resolve_seed, set_lang, write_file
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
                                     "second a decision); each side its own: lawmen=lookahead,zombies=standard (a "
                                     "side not named plays standard).")]
MAX_GAMES = 1_000_000
DATA_FILES = (".json", ".csv")  # what -o writes instead of printing the text; a plot comes with it
SIMULATE_FILES = (".json", ".csv", ".png", ".svg")


def _data(data: Path | None) -> str | None:
    return None if data is None else str(data)


def _check_output(output: Path | None) -> str | None:
    """-o's format (".json", ".csv", ".png" or ".svg"), checked before any game is played."""
    if output is None:
        return None
    suffix = output.suffix.lower()
    if suffix not in SIMULATE_FILES:
        raise DedaleError("error.output", value=str(output), accepted=" ".join(SIMULATE_FILES))
    return suffix


def _matchups(ai: str | list[str] | None) -> list[dict[str, str]]:
    """The matchups of AI levels --ai names (`simulate.matchups`; each --ai given), each once in the order
    given: the standard AI on both sides unless given."""
    from dedale.zombstone.skirmish.simulate import matchup_name, matchups

    found: dict[str, dict[str, str]] = {}
    for text in [ai] if isinstance(ai, str) else ai or ["standard"]:
        for matchup in matchups(text):
            found.setdefault(matchup_name(matchup), matchup)
    return list(found.values())


def _one_matchup(ai: str | list[str] | None) -> dict[str, str]:
    """The one matchup of AI levels a run or a sweep plays."""
    from dedale.zombstone.skirmish.simulate import LEVELS

    found = _matchups(ai)
    if len(found) != 1:
        texts = [ai] if isinstance(ai, str) else ai or []
        raise DedaleError("error.skirmish.ai_one", value=" --ai ".join(texts), levels=", ".join(LEVELS))
    return found[0]


def _write(output: Path, suffix: str, document: dict[str, Any], to_csv: Any, plot: Any, lang: str) -> None:
    """-o: the JSON document, its CSV, or its plot (PNG or SVG); `write_file` says where it went."""
    if suffix == ".json":
        write_file(output, (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    elif suffix == ".csv":
        write_file(output, to_csv(document))
    else:
        write_file(output, plot(document, lang, suffix.lstrip(".")))


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
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write .json, .csv (one row: every number "
                                                "printed), or a .png or .svg plot.")] = None,
    lang: Lang = "en",
) -> None:
    """Battle runs between two AIs: win rates with 95% intervals, average turns and survivors. --policy-a
    plays the lawmen, --policy-b the zombies; --ai sets both sides' level, or each side's."""
    from dedale.core.batch import Where
    from dedale.render.zombstone_csv import simulation_csv
    from dedale.zombstone.skirmish.params import SkirmishParams
    from dedale.zombstone.skirmish.simulate import run, summary

    set_lang(lang)
    if not 1 <= games <= MAX_GAMES:
        raise DedaleError("error.range", param="games", value=games, low=1, high=MAX_GAMES)
    where = Where(workers, scheduler)
    suffix = _check_output(output)
    levels = _one_matchup(ai)
    same = levels["lawmen"] if levels["lawmen"] == levels["zombies"] else "standard"  # the params' own `ai`
    params = SkirmishParams(scenario, None, policy_a, policy_b, rounds, _data(data), ai=same)
    run_seed = resolve_seed(seed)
    with progress(games, t("skirmish.simulating", lang, scenario=scenario)) as advance:
        outcomes = run(params, games, run_seed, where, advance, levels)
    result = summary(params, run_seed, outcomes, levels)
    if output is not None and suffix is not None:
        from dedale.render.zombstone_plot import simulation_plot

        _write(output, suffix, result, simulation_csv, simulation_plot, lang)
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
    elif suffix not in DATA_FILES:
        _print(result, lang)


def _print(result: dict[str, Any], lang: str) -> None:
    typer.echo(t("skirmish.simulated", lang, games=result["games"], turns=f"{result['turns']:.1f}"))
    _say_ais(result["levels"], result["params"], lang)
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


def _say_ais(levels: dict[str, str], params: dict[str, Any], lang: str) -> None:
    """The line that says which AI, of which level and policy, played each side."""
    typer.echo(t("skirmish.ais_line", lang, lawmen=levels["lawmen"], zombies=levels["zombies"],
                 policy_lawmen=params["policy_lawmen"], policy_zombies=params["policy_zombies"]))


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
    ai: Annotated[list[str] | None, typer.Option(
        "--ai", help="The AI levels, standard unless given: a level for both sides, or each side's, "
        "lawmen=lookahead,zombies=standard (a side not named plays standard). The table plays each matchup given "
        "(standard,lookahead: two; --ai again for another pair of sides' levels), a sweep one. The look-ahead "
        "takes under a second a decision (a minute or more a game: a few --games).")] = None,
    games: Annotated[int, typer.Option("--games", help="Games at each value, or each scenario and level.")] = 200,
    policy_a: Policy = "default",
    policy_b: Policy = "default",
    workers: Workers = None,
    scheduler: Scheduler = None,
    seed: Seed = None,
    rounds: Rounds = 1,
    data: Data = None,
    as_json: AsJson = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write .json, .csv (a row each line of the "
                                                "table), or a .png or .svg plot.")] = None,
    lang: Lang = "en",
) -> None:
    """Without a field: the table of every scenario at each matchup of AI levels asked for (the standard one
    unless --ai), each side's win rate with its 95% interval, the share of games decided at the table (by the
    scenario's condition or an elimination, not by the dollars at the turn limit) and turns played. With one:
    the designer's sweep, one field of a profile (--profile) or a weapon (--weapon) set to each value, the same
    games played at each, and each side's win rate with its 95% interval. --policy-a plays the lawmen,
    --policy-b the zombies."""
    from dedale.core.batch import Where
    from dedale.render.zombstone_csv import sweep_csv
    from dedale.zombstone.skirmish.balance import sweep, sweep_tweaks
    from dedale.zombstone.skirmish.params import SkirmishParams

    set_lang(lang)
    if not 1 <= games <= MAX_GAMES:
        raise DedaleError("error.range", param="games", value=games, low=1, high=MAX_GAMES)
    suffix = _check_output(output)
    base = SkirmishParams(scenario or "ok_corral", None, policy_a, policy_b, rounds, _data(data))
    if field is None and values is None and profile is None and weapon is None:
        _table(base, scenario, ai, games, Where(workers, scheduler), resolve_seed(seed), as_json, output, suffix,
               lang)
        return
    if (profile is None) == (weapon is None):
        raise DedaleError("error.skirmish.sweep_what")
    if field is None or values is None:
        raise DedaleError("error.skirmish.sweep_field")
    base.check()
    levels = _one_matchup(ai)
    kind, item = ("profile", profile) if profile is not None else ("weapon", weapon)
    assert item is not None
    tweaks = sweep_tweaks(base.data, kind, item.strip().lower(), field.strip().lower(), _numbers(values))
    where = Where(workers, scheduler)
    run_seed = resolve_seed(seed)
    with progress(games * len(tweaks), t("skirmish.simulating", lang, scenario=base.scenario)) as advance:
        result = sweep(base, tweaks, games, run_seed, where, advance, levels)
    if output is not None and suffix is not None:
        from dedale.render.zombstone_plot import balance_plot

        _write(output, suffix, result, sweep_csv, balance_plot, lang)
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
    elif suffix not in DATA_FILES:
        _print_sweep(result, lang)


def _table(base: Any, scenario: str | None, ai: list[str] | None, games: int, where: Any, seed: int, as_json: bool,
           output: Path | None, suffix: str | None, lang: str) -> None:
    """`balance` without a field: every scenario (or the one named) at the standard AI level (or the matchups
    named)."""
    from dedale.render.zombstone_csv import table_csv
    from dedale.zombstone.skirmish.balance import overview
    from dedale.zombstone.skirmish.catalogue import load_catalogue

    catalogue = load_catalogue(base.data)
    scenarios = list(catalogue.scenarios) if scenario is None else [catalogue.scenario(scenario).id]
    found = _matchups(ai)
    total = games * len(scenarios) * len(found)
    with progress(total, t("skirmish.simulating", lang, scenario=", ".join(scenarios))) as advance:
        result = overview(base.data, scenarios, found, games, seed, where, advance, base)
    if output is not None and suffix is not None:
        from dedale.render.zombstone_plot import table_plot

        _write(output, suffix, result, table_csv, table_plot, lang)
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
    elif suffix not in DATA_FILES:
        typer.echo(t("skirmish.table_title", lang, games=result["games"]))
        if set(result["policies"].values()) != {"default"}:
            typer.echo(t("skirmish.table_policies", lang, **result["policies"]))
        header = [t(f"skirmish.column.{name}", lang) for name in ("scenario", "ai", "lawmen", "zombies", "draws",
                                                                  "decided", "turn_limit", "turns")]
        lines = [[row["scenario"], row["ai"], *_rates(row, lang), f"{row['decided']:.0%}", f"{row['turn_limit']:.0%}",
                  f"{row['turns']:.1f}"] for row in result["rows"]]
        remarks = ["", *(t("skirmish.table_favoured", lang, who=t(f"skirmish.side.{row['favoured']}", lang))
                         if row["favoured"] else "" for row in result["rows"])]
        for line, remark in zip(_columns(header, lines, "lllllrrr"), remarks, strict=True):
            typer.echo(line + remark)


def _rates(row: dict[str, Any], lang: str) -> list[str]:
    """Each side's win rate, and the draws', with its 95% interval: " 50.0% (23.7–76.3%)" (the rates aligned)."""
    return [t("skirmish.rate_cell", lang, rate=f"{row['wins'][name]['rate']:>6.1%}",
              low=f"{row['wins'][name]['low']:.1%}".removesuffix("%"), high=f"{row['wins'][name]['high']:.1%}")
            for name in ("lawmen", "zombies", "draw")]


def _columns(header: list[str], rows: list[list[str]], align: str) -> list[str]:
    """The rows under their header, each column as wide as its widest cell and aligned as `align` says (l: left,
    r: right), indented two spaces as the other reports, no space at the end."""
    widths = [max(len(cells[i]) for cells in (header, *rows)) for i in range(len(header))]
    return [("  " + "  ".join(cell.ljust(width) if way == "l" else cell.rjust(width)
                              for cell, width, way in zip(cells, widths, align, strict=True))).rstrip()
            for cells in (header, *rows)]


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
    _say_ais(result["levels"], result["params"], lang)
    header = [result["field"], *(t(f"skirmish.column.{name}", lang) for name in ("lawmen", "zombies", "draws",
                                                                                "decided", "turn_limit", "turns",
                                                                                "melees"))]
    lines = [[f"{row['value']:g}", *_rates(row, lang), f"{row['decided']:.0%}", f"{row['turn_limit']:.0%}",
              f"{row['turns']:.1f}", f"{row['melees']:.1f}"] for row in result["values"]]
    for line in _columns(header, lines, "rlllrrrr"):
        typer.echo(line)

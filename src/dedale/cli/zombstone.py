"""`dedale zombstone`: exact odds of poker-dice rolls and confrontations, and advice at the table."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer

from dedale.cli import skirmish
from dedale.cli.common import AsJson, Lang, Seed, resolve_seed, set_lang, write_file
from dedale.core.errors import DedaleError
from dedale.core.rng import Roller, SeededSource
from dedale.i18n import t
from dedale.zombstone.advice import advise as advise_options
from dedale.zombstone.chances import GUTS, OBJECTIVES, odds, terminal_values
from dedale.zombstone.charts import (
    confrontation_tables,
    goal_for,
    guts,
    hand_tables,
    situation_for,
    spec_for,
)
from dedale.zombstone.combinatorics import index_of, multisets
from dedale.zombstone.confront import confront, damage_table
from dedale.zombstone.hands import (
    FACES,
    HANDS,
    POTENTIALS,
    Counts,
    category,
    check_potential,
    counts_of,
    describe,
    parse_face,
    parse_hand,
    plus,
)
from dedale.zombstone.policy import MAX_ROUNDS, RollSpec, categories, final_counts, optimise, total_ways

app = typer.Typer()  # the commands below, added to the system's own app by `extend`

PotentialOption = Annotated[int, typer.Option("--potential", help=f"Potential, {POTENTIALS[0]} to {POTENTIALS[-1]}.")]
Objective = Annotated[str, typer.Option("--objective", help="target, rank, win or damage.")]
Target = Annotated[str | None, typer.Option("--target", help=f"The hand to reach (target): {', '.join(HANDS[1:])}.")]
Card = Annotated[str | None, typer.Option("--card", help=f"A card in hand, added after the roll: {' '.join(FACES)}.")]
Rounds = Annotated[int, typer.Option("--rounds", help="Reroll rounds (the rules: 1).")]
OutputFile = Annotated[Path | None, typer.Option("-o", "--output", help="Write .json, or .png plots.")]


def _spec(potential: int, card: str | None, rounds: int) -> RollSpec:
    if not 1 <= rounds <= MAX_ROUNDS:
        raise DedaleError("error.range", param="rounds", value=rounds, low=1, high=MAX_ROUNDS)
    return spec_for(check_potential(potential), None if card is None else parse_face(card), rounds)


def _pct(value: Fraction) -> str:
    """A chance and its exact fraction; a certain one (0 or 1) only as its percentage, not "0/1"."""
    if value in (0, 1):
        return f"{int(value) * 100:6d}%"
    return f"{float(value) * 100:6.2f}%  {value.numerator}/{value.denominator}"


def _hand(lang: str, index: int) -> str:
    return t(f"zombstone.hand.{HANDS[index]}", lang)


def _output(path: Path | None, data: dict[str, Any], plot: Any) -> bool:
    """Write -o: .json the document, .png the plot (made only then). True when something was written."""
    if path is None:
        return False
    if path.suffix.lower() == ".json":
        write_file(path, (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    elif path.suffix.lower() == ".png":
        write_file(path, plot())
    else:
        raise DedaleError("error.output", value=str(path), accepted=".json .png")
    return True


@app.command("odds")
def odds_command(potential: PotentialOption, objective: Objective = "rank", target: Target = None, card: Card = None,
                 rounds: Rounds = 1, as_json: AsJson = False, output: OutputFile = None, lang: Lang = "en") -> None:
    """The hand distribution of one roll, rerolling optimally for the objective."""
    set_lang(lang)
    if objective not in ("target", "rank"):
        raise DedaleError("error.one_of", param="objective", value=objective, accepted="target, rank")
    goal = goal_for(objective, target)
    spec = _spec(potential, card, rounds)
    result = odds(spec, objective, goal)
    document = result.to_json(potential)

    def plot() -> bytes:
        from dedale.render.zombstone_plot import odds_chart

        return odds_chart(potential, objective, goal, None if card is None else parse_face(card), rounds, lang)

    if as_json:
        typer.echo(json.dumps(document, indent=2))
    if _output(output, document, plot) or as_json:
        return
    typer.echo(t("zombstone.odds_title", lang, potential=potential, dice=spec.dice, rerolls=spec.budget,
                 objective=objective))
    for i in range(len(HANDS) - 1, -1, -1):
        typer.echo(f"  {_hand(lang, i):<18} {_pct(result.probability(i))}")
    if goal is not None:
        typer.echo(t("zombstone.at_least", lang, hand=_hand(lang, goal), value=_pct(result.at_least(goal))))
    typer.echo(t("zombstone.expected_rank", lang, value=f"{float(result.expected_rank()):.3f}"))


@app.command("duel-odds")
def duel_odds(
    attacker: Annotated[int, typer.Option("--attacker", help="The attacker's Potential (it rolls first).")],
    defender: Annotated[int, typer.Option(
        "--defender", help="The defender's Potential (it sees the attacker's dice).")],
    attacker_weapon: Annotated[str | None, typer.Option("--attacker-weapon", help="The attacker's weapon.")] = None,
    defender_weapon: Annotated[str | None, typer.Option("--defender-weapon", help="The defender's weapon.")] = None,
    melee: Annotated[bool, typer.Option("--melee", help="A melee, not a shot.")] = False,
    cover: Annotated[str | None, typer.Option("--cover", help="light or heavy cover for the target.")] = None,
    reaction: Annotated[str, typer.Option("--reaction", help="The target dodges, or returns fire.")] = "dodge",
    objective: Annotated[str, typer.Option("--objective", help="win or damage: what both sides play for.")] = "win",
    unarmed_malus: Annotated[str, typer.Option(
        "--unarmed-malus", help="Fists and rotting hands in melee: first_roll (a die off the first roll, the text's "
        "base die) or potential (a Potential die off).")] = "first_roll",
    as_json: AsJson = False,
    output: OutputFile = None,
    lang: Lang = "en",
) -> None:
    """Win, tie, loss and expected damage of a confrontation, both sides rerolling optimally."""
    set_lang(lang)
    situation = situation_for(check_potential(attacker, "attacker"), check_potential(defender, "defender"), melee,
                              cover, reaction, attacker_weapon, defender_weapon, objective, unarmed_malus)
    outcome = confront(situation)
    document = outcome.to_json()

    def plot() -> bytes:
        from dedale.render.zombstone_plot import duel_chart

        return duel_chart(situation, lang)

    if as_json:
        typer.echo(json.dumps(document, indent=2))
    if _output(output, document, plot) or as_json:
        return
    for key, value in (("win", outcome.win), ("tie", outcome.tie), ("loss", outcome.loss)):
        typer.echo(f"  {t(f'zombstone.{key}', lang):<22} {_pct(value)}")
    typer.echo(t("zombstone.damage", lang, defender=f"{float(outcome.damage_to_defender):.3f}",
                 attacker=f"{float(outcome.damage_to_attacker):.3f}"))


def _goal(spec: RollSpec, objective: str, target: str | None, against: int | None,
          opponent: str | None) -> tuple[np.ndarray, int]:
    """The values of final hands for an objective, and the scale to divide them by: for `win` and
    `damage`, against the opponent's known dice, or its distribution rolling with a Potential."""
    if objective not in OBJECTIVES:
        raise DedaleError("error.one_of", param="objective", value=objective, accepted=", ".join(OBJECTIVES))
    if objective in ("target", "rank"):
        goal = parse_hand(target) if target else GUTS if objective == "target" else None
        return terminal_values(spec, objective, goal), 1
    if opponent is not None:
        faces = counts_of([parse_face(f) for f in opponent.replace(",", " ").split()])
        other = RollSpec(sum(faces), 0, 0)
        known = np.zeros(len(multisets(other.dice)), dtype=np.int64)
        known[index_of(other.dice)[faces]] = 1
        counts, scale = known, 1
    else:
        other = spec_for(check_potential(against if against is not None else 0, "against"))
        counts, scale = final_counts(optimise(other, terminal_values(other, "rank"))), total_ways(other)
    damage = damage_table(categories(spec), categories(other), 0)
    return terminal_values(spec, objective, opponent=(other, counts), damage=damage), scale


@app.command()
def advise(
    dice: Annotated[list[str], typer.Argument(help="The dice showing, such as 9 9 K K A.")],
    potential: PotentialOption = 2,
    objective: Objective = "target",
    target: Target = None,
    card: Card = None,
    against: Annotated[int | None, typer.Option("--against", help="win, damage: the opponent's Potential.")] = None,
    opponent: Annotated[str | None, typer.Option("--opponent", help="win, damage: the opponent's known dice.")] = None,
    lang: Lang = "en",
) -> None:
    """Which dice to reroll, and the chances each way (for dice rolled at a real table)."""
    set_lang(lang)
    showing = counts_of([parse_face(face) for face in dice])
    spec = _spec(potential, card, 1)
    if sum(showing) != spec.dice:
        raise DedaleError("error.dice_count", count=sum(showing), dice=spec.dice)
    values, scale = _goal(spec, objective, target, against, opponent)
    _print_advice(spec, showing, values, scale, objective, lang)


def _print_advice(spec: RollSpec, showing: Counts, values: np.ndarray, scale: int, objective: str,
                  lang: str) -> None:
    options = advise_options(spec, showing, values, scale)
    typer.echo(t("zombstone.advice_title", lang, dice=describe(showing), rerolls=spec.budget, objective=objective))
    for number, option in enumerate(options[:8], 1):
        what = describe(option.reroll) or t("zombstone.keep_all", lang)
        shown = _pct(option.value) if objective in ("target", "win") else f"{float(option.value):.3f}"
        typer.echo(f"  {number}. {t('zombstone.reroll', lang, dice=what):<32} {shown}")


@app.command()
def roll(potential: PotentialOption, seed: Seed = None, objective: Objective = "rank", target: Target = None,
         card: Card = None, lang: Lang = "en") -> None:
    """Roll for a player, advise the best reroll, and roll it."""
    set_lang(lang)
    spec = _spec(potential, card, 1)
    if objective not in ("target", "rank"):
        raise DedaleError("error.one_of", param="objective", value=objective, accepted="target, rank")
    roller = Roller(SeededSource(resolve_seed(seed)), [])
    first = roller.roll(f"{spec.dice}d6", "zombstone.roll")
    showing = counts_of([d - 1 for d in first.dice])
    typer.echo(t("zombstone.rolled", lang, dice=describe(showing)))
    if spec.budget:
        values, scale = _goal(spec, objective, target, None, None)
        _print_advice(spec, showing, values, scale, objective, lang)
        best = advise_options(spec, showing, values, scale)[0]
        rerolled = sum(best.reroll)
        new = roller.roll(f"{rerolled}d6", "zombstone.reroll").dice if rerolled else []
        showing = plus(best.keep, counts_of([d - 1 for d in new]))
        typer.echo(t("zombstone.rerolled", lang, dice=describe(counts_of([d - 1 for d in new])) or "-",
                     final=describe(showing)))
    final = plus(showing, spec.cards)
    typer.echo(t("zombstone.hand_is", lang, hand=_hand(lang, category(final)), dice=describe(final)))


@app.command()
def tables(as_json: AsJson = False, output: OutputFile = None, lang: Lang = "en") -> None:
    """Every table: hands for each Potential, objective and card; Guts; confrontations for each pair of
    Potentials, weapon, cover and reaction (about a second)."""
    set_lang(lang)
    hands, guts_by_potential = hand_tables(), {str(p): guts(p) for p in POTENTIALS}
    confrontations = confrontation_tables()
    document = {"format": "dedale/zombstone-tables", "version": 1, "hands": hands, "guts": guts_by_potential,
                "confrontations": confrontations}

    def plot() -> bytes:
        from dedale.render.zombstone_plot import grid_plot

        plain = {(c["attacker"], c["defender"]): c["win"]["p"] for c in confrontations
                 if not c["melee"] and c["cover"] is None and c["reaction"] == "dodge"}
        return grid_plot(lambda a, d: plain[(a, d)], POTENTIALS, t("zombstone.plot.grid", lang), lang)

    if as_json:
        typer.echo(json.dumps(document))
    if _output(output, document, plot) or as_json:
        return
    typer.echo(t("zombstone.guts_title", lang))
    for potential in POTENTIALS:
        typer.echo(f"  {potential:>2}  {guts_by_potential[str(potential)] * 100:6.2f}%")
    typer.echo(t("zombstone.faces", lang, faces=" ".join(FACES)))


def extend(system_app: typer.Typer) -> None:
    """Zombstone's commands beside `play`: the dice engine's odds, advice and tables, and battle runs."""
    system_app.registered_commands += app.registered_commands
    system_app.command("simulate")(skirmish.simulate)
    system_app.command("balance")(skirmish.balance)

"""Zombstone's odds as plots (matplotlib, drawn off screen): hand distributions across Potentials, and the
attacker's chance to win across both Potentials. Bars carry the hands' names and the cells their values,
so no plot relies on colour."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from dedale.core.extras import need
from dedale.i18n import t
from dedale.zombstone.chances import Odds
from dedale.zombstone.confront import Situation, confront
from dedale.zombstone.hands import HANDS

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# Okabe-Ito, light to dark as the hands rise, and hatched so that print and colour blindness lose nothing.
COLOURS = ("#eeeeee", "#f0e442", "#e69f00", "#56b4e9", "#009e73", "#0072b2", "#d55e00")
HATCHES = ("", "..", "//", "\\\\", "xx", "oo", "**")


def _figure(width: float, height: float, columns: int = 1) -> tuple[Figure, Any]:
    """A figure and its axes (one, or an array of `columns`)."""
    matplotlib = need("render", "matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.subplots(1, columns, figsize=(width, height), dpi=110)


def _png(figure: Figure, image: str = "png") -> bytes:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format=image)
    plt.close(figure)
    return buffer.getvalue()


def hands_plot(by_potential: dict[int, Odds], chosen: int, title: str, lang: str) -> bytes:
    """Stacked bars: the hand distribution for each Potential, the chosen one outlined."""
    figure, axes = _figure(9, 5)
    potentials = sorted(by_potential)
    bottoms = [0.0] * len(potentials)
    for i, hand in enumerate(HANDS):
        heights = [float(by_potential[p].probability(i)) for p in potentials]
        axes.bar(potentials, heights, bottom=bottoms, color=COLOURS[i], hatch=HATCHES[i], edgecolor="#333333",
                 linewidth=[2.5 if p == chosen else 0.6 for p in potentials], label=t(f"zombstone.hand.{hand}", lang))
        bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
    axes.set_xticks(potentials)
    axes.set_xlabel(t("zombstone.plot.potential", lang))
    axes.set_ylabel(t("zombstone.plot.probability", lang))
    axes.set_title(title)
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _png(figure)


def grid_plot(values: Callable[[int, int], float], potentials: range, title: str, lang: str) -> bytes:
    """A heat map of the attacker's chance to win, each cell written out."""
    figure, axes = _figure(8, 7)
    grid = [[values(a, d) for d in potentials] for a in potentials]
    image = axes.imshow(grid, cmap="cividis", vmin=0, vmax=1, origin="lower")
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            axes.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=8,
                      color="black" if value > 0.55 else "white")
    axes.set_xticks(range(len(potentials)), [str(p) for p in potentials])
    axes.set_yticks(range(len(potentials)), [str(p) for p in potentials])
    axes.set_xlabel(t("zombstone.plot.defender", lang))
    axes.set_ylabel(t("zombstone.plot.attacker", lang))
    axes.set_title(title)
    figure.colorbar(image, ax=axes, label=t("zombstone.plot.win", lang))
    return _png(figure)


def odds_chart(potential: int, objective: str, goal: int | None, card: int | None, rounds: int, lang: str) -> bytes:
    """The hand distribution of every Potential for one objective, `potential` outlined."""
    from dedale.zombstone.charts import odds_by_potential

    return hands_plot(odds_by_potential(objective, goal, card, rounds), potential,
                      t("zombstone.plot.hands", lang, objective=objective), lang)


def duel_chart(situation: Situation, lang: str) -> bytes:
    """The attacker's chance to win the situation, for every pair of Potentials."""
    from dedale.zombstone.charts import POTENTIALS

    def win(attacker: int, defender: int) -> float:
        return float(confront(replace(situation, attacker=attacker, defender=defender)).win)

    return grid_plot(win, POTENTIALS, t("zombstone.plot.grid", lang), lang)


def simulation_plot(result: dict[str, Any], lang: str, image: str = "png") -> bytes:
    """A battle run: each side's win rate with its 95% interval (hatched bars, the numbers written; the AIs'
    levels under the title, unless both are standard), and the characters each side has left at the end on
    average."""
    figure, (wins, left) = _figure(10, 4.5, columns=2)
    names = ["lawmen", "zombies", "draw"]
    labels = [t(f"skirmish.side.{n}", lang) if n != "draw" else t("skirmish.ending.draw", lang) for n in names]
    rates = [result["wins"][n]["rate"] for n in names]
    errors = [[r - result["wins"][n]["low"] for r, n in zip(rates, names, strict=True)],
              [result["wins"][n]["high"] - r for r, n in zip(rates, names, strict=True)]]
    bars = wins.bar(labels, rates, yerr=errors, capsize=6, color=[COLOURS[5], COLOURS[6], COLOURS[0]],
                    hatch=["//", "xx", ".."], edgecolor="#333333")
    for bar, rate in zip(bars, rates, strict=True):
        wins.text(bar.get_x() + bar.get_width() / 2, rate / 2, f"{rate:.0%}", ha="center", va="center",
                  fontsize=10, fontweight="bold", bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.5})
    wins.set_ylim(0, 1)
    wins.set_ylabel(t("zombstone.plot.win_rate", lang))
    title = t("zombstone.plot.simulation", lang, games=result["games"])
    levels = result.get("levels", {})
    if set(levels.values()) not in (set(), {"standard"}):  # the AIs' levels, the lawmen's first
        title += "\n" + t("zombstone.plot.matchup", lang, **levels)
    wins.set_title(title)
    sides = names[:2]
    survivors = [result["survivors"][s] for s in sides]
    left.bar([labels[0], labels[1]], survivors, color=[COLOURS[5], COLOURS[6]], hatch=["//", "xx"],
             edgecolor="#333333")
    for i, value in enumerate(survivors):
        left.text(i, value / 2, f"{value:.1f}", ha="center", va="center", fontsize=10, fontweight="bold",
                  bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.5})
    left.set_ylabel(t("zombstone.plot.survivors", lang))
    left.set_title(t("zombstone.plot.turns", lang, turns=f"{result['turns']:.1f}"))
    return _png(figure, image)


def balance_plot(result: dict[str, Any], lang: str, image: str = "png") -> bytes:
    """A sweep (`dedale zombstone balance`): each side's win rate against the field's value, a line each
    (solid and circles, dashed and squares) with its 95% interval as a band, and the even zone shaded."""
    figure, axes = _figure(7, 4.5)
    values = [row["value"] for row in result["values"]]
    axes.axhspan(0.4, 0.6, color=COLOURS[0], zorder=0)
    for name, colour, style in (("lawmen", COLOURS[5], "-o"), ("zombies", COLOURS[6], "--s")):
        wins = [row["wins"][name] for row in result["values"]]
        axes.plot(values, [w["rate"] for w in wins], style, color=colour, label=t(f"skirmish.side.{name}", lang))
        axes.fill_between(values, [w["low"] for w in wins], [w["high"] for w in wins], color=colour, alpha=0.2)
    axes.set_ylim(0, 1)
    axes.set_xlabel(f"{result['item']}: {result['field']}")
    axes.set_ylabel(t("zombstone.plot.win_rate", lang))
    axes.set_title(t("zombstone.plot.balance", lang, games=result["games"]))
    axes.legend()
    return _png(figure, image)


def table_plot(result: dict[str, Any], lang: str, image: str = "png") -> bytes:
    """`balance`'s table (`balance.overview`): a row a scenario (and matchup of AI levels, when there are
    several), each side's win rate a bar (hatched as in the other plots) with its 95% interval and its number
    written at its foot, the even zone (40-60%) shaded."""
    rows = result["rows"]
    several = len({row["ai"] for row in rows}) > 1
    figure, axes = _figure(8, 1.2 + 0.62 * len(rows))
    axes.axvspan(0.4, 0.6, color=COLOURS[0], zorder=0)
    for offset, name, colour, hatch in ((-0.2, "lawmen", COLOURS[5], "//"), (0.2, "zombies", COLOURS[6], "xx")):
        wins = [row["wins"][name] for row in rows]
        rates = [w["rate"] for w in wins]
        errors = [[r - w["low"] for r, w in zip(rates, wins, strict=True)],
                  [w["high"] - r for r, w in zip(rates, wins, strict=True)]]
        axes.barh([i + offset for i in range(len(rows))], rates, height=0.38, xerr=errors, capsize=3,
                  color=colour, hatch=hatch, edgecolor="#333333", label=t(f"skirmish.side.{name}", lang), zorder=2)
        for i, rate in enumerate(rates):  # at the bar's foot, clear of its interval
            axes.text(0.012, i + offset, f"{rate:.0%}", va="center", fontsize=8, fontweight="bold", zorder=3,
                      bbox={"facecolor": "white", "edgecolor": "none", "pad": 1})
    if several:  # each row's matchup under its scenario: the lawmen's AI level, then the zombies'
        levels = [t("zombstone.plot.matchup", lang, **row["levels"]) if row["levels"]["lawmen"] !=
                  row["levels"]["zombies"] else row["ai"] for row in rows]
        axes.set_yticks(range(len(rows)), [f"{row['scenario']}\n{level}" for row, level in zip(rows, levels,
                                                                                             strict=True)])
        axes.set_ylabel(t("zombstone.plot.matchups", lang))
    else:
        axes.set_yticks(range(len(rows)), [row["scenario"] for row in rows])
    axes.invert_yaxis()  # the first scenario on top, as in the table
    axes.set_xlim(0, 1)
    axes.xaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
    axes.set_xlabel(t("zombstone.plot.win_rate", lang))
    axes.set_title(t("zombstone.plot.table", lang, games=result["games"]))
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _png(figure, image)

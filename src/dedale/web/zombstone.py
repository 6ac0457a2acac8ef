"""The Zombstone odds calculator's pages and API: the dice engine's exact odds, and their plots."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from dedale.i18n import t
from dedale.render.zombstone_plot import duel_chart, odds_chart
from dedale.zombstone.chances import odds
from dedale.zombstone.charts import goal_for, situation_for, spec_for
from dedale.zombstone.confront import Situation, confront
from dedale.zombstone.hands import parse_face
from dedale.zombstone.weapons import weapon


def _card(card: str | None) -> int | None:
    return None if card is None else parse_face(card)


def odds_document(potential: int, objective: str, target: str | None, card: str | None) -> dict[str, Any]:
    return odds(spec_for(potential, _card(card)), objective, goal_for(objective, target)).to_json(potential)


def odds_plot(potential: int, objective: str, target: str | None, card: str | None, lang: str) -> bytes:
    return odds_chart(potential, objective, goal_for(objective, target), _card(card), 1, lang)


def duel_document(*args: Any) -> dict[str, Any]:
    """`situation_for`'s arguments."""
    return confront(situation_for(*args)).to_json()


def duel_plot(lang: str, *args: Any) -> bytes:
    """The grid of every pair of Potentials: the same picture whichever pair was asked, drawn once."""
    return _duel_grid(lang, replace(situation_for(*args), attacker=0, defender=0))


@lru_cache(maxsize=32)  # about 80 kB each: weapons, cover and reaction a visitor tries in turn
def _duel_grid(lang: str, situation: Situation) -> bytes:
    return duel_chart(situation, lang)


def duel_heading(duel: dict[str, Any], lang: str) -> str:
    """What a confrontation's odds are for, in words: each side's Potential and weapon, then melee, or the cover
    and the target's reaction (under return fire, cover hampers both shooters: the heading says so)."""
    sides = t("web.duel_sides", lang, attacker=duel["attacker"], defender=duel["defender"],
              attacker_weapon=weapon(duel["attacker_weapon"]).label(lang),
              defender_weapon=weapon(duel["defender_weapon"]).label(lang))
    if duel["melee"]:
        return f"{sides} · {t('web.duel_melee', lang)}"
    cover = t(f"web.cover_{duel['cover']}", lang) if duel["cover"] else t("web.duel_no_cover", lang)
    if duel["cover"] and duel["reaction"] == "return":
        cover = t(f"web.duel_{duel['cover']}_both", lang, cover=cover)
    reaction = t(f"web.reaction_{duel['reaction']}", lang)
    return f"{sides} · {t('web.duel_shot', lang, cover=cover, reaction=reaction)}"


def percent(cell: dict[str, Any], decimals: int = 2) -> str:
    """A probability as the page shows it: exactly 0% or 100% when it is, else to two decimals, never rounded
    to 0.00% or 100.00% when it is not (a chance of 25 in 629,856 is "< 0.01%", its space not a line's end)."""
    exact = {"0/1": "0%", "1/1": "100%"}.get(cell["exact"])
    if exact:
        return exact
    shown = f"{cell['p'] * 100:.{decimals}f}%"
    least = f"{10 ** -decimals:.{decimals}f}"
    most = f"{100 - 10 ** -decimals:.{decimals}f}"
    return {f"{0:.{decimals}f}%": f"<\u00a0{least}%", f"{100:.{decimals}f}%": f">\u00a0{most}%"}.get(shown, shown)


def answer(odds: dict[str, Any], lang: str) -> str:
    """The answer to the question asked, above its distribution: the chance of the target hand or better
    ("At least two pairs: 77.6%"), or for the best hand, the most likely one."""
    if odds["at_least_target"] is not None:
        exact = odds["at_least_target"]
        value = percent({"p": float(Fraction(exact)), "exact": exact}, 1)
        return t(f"web.at_least_{odds['target']}", lang, value=value)
    hand, cell = max(odds["hands"].items(), key=lambda item: item[1]["p"])
    return t("web.most_likely", lang, hand=t(f"zombstone.hand.{hand}", lang), value=percent(cell, 1))


def fraction(cell: dict[str, Any]) -> str:
    """The exact fraction beside the percentage, or nothing when the percentage is exact (0% or 100%, not
    "0/1")."""
    return "" if cell["exact"] in ("0/1", "1/1") else cell["exact"]

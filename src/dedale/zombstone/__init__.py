"""Zombstone: a weird-west skirmish game on poker dice, with its exact odds.

Rules: docs/rules/zombstone.md

The dice engine answers two questions exactly (fractions, not estimates), with every side rerolling
optimally for what it plays for:

>>> from dedale import zombstone
>>> guts = zombstone.odds(potential=0, objective="target", target="two_pairs")
>>> guts.target_chance
Fraction(4, 9)
>>> zombstone.confrontation(attacker=1, defender=0).win > zombstone.confrontation(attacker=0, defender=1).win
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from dedale.core.errors import DedaleError

if TYPE_CHECKING:
    from dedale.zombstone.confront import Outcome

__all__ = ["HandOdds", "confrontation", "odds"]


@dataclass(frozen=True)
class HandOdds:
    """One roll's exact odds: the chance of each final hand (`hands`, from "nothing" to "five"), of reaching
    the target hand or better (`target_chance`, when a target was aimed at), and the expected hand rank."""

    potential: int
    objective: str
    target: str | None
    hands: dict[str, Fraction]
    target_chance: Fraction | None
    expected_rank: Fraction


def odds(potential: int, objective: str = "rank", target: str | None = None, card: str | None = None,
         rounds: int = 1) -> HandOdds:
    """The exact hand distribution of one roll at `potential` (-4 to 5), rerolling optimally for the
    objective: "target" (reach at least `target`, Guts' "two_pairs" by default) or "rank" (the best hand on
    average). `card` is a card in hand added after the roll (9 10 J Q K A); `rounds` of rerolls (rules: 1).

    >>> odds(potential=2).hands["five"]
    Fraction(193, 23328)
    >>> sum(odds(potential=-4, card="A").hands.values())
    Fraction(1, 1)
    """
    from dedale.zombstone.chances import odds as solve
    from dedale.zombstone.charts import goal_for, spec_for
    from dedale.zombstone.hands import HANDS, check_potential, parse_face
    from dedale.zombstone.policy import MAX_ROUNDS

    if objective not in ("target", "rank"):
        raise DedaleError("error.one_of", param="objective", value=objective, accepted="target, rank")
    check_potential(potential)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise DedaleError("error.range", param="rounds", value=rounds, low=1, high=MAX_ROUNDS)
    goal = goal_for(objective, target)
    found = solve(spec_for(potential, None if card is None else parse_face(card), rounds), objective, goal)
    return HandOdds(potential, objective, None if goal is None else HANDS[goal],
                    {name: found.probability(i) for i, name in enumerate(HANDS)},
                    None if goal is None else found.at_least(goal), found.expected_rank())


def confrontation(attacker: int, defender: int, *, melee: bool = False, cover: str | None = None,
                  reaction: str = "dodge", attacker_weapon: str | None = None, defender_weapon: str | None = None,
                  objective: str = "win") -> Outcome:
    """A confrontation's exact chances: the attacker's win, tie and loss, and each side's expected damage
    (in cartridges), both sides rerolling optimally for `objective` ("win" or "damage"). Weapons default
    to what the rules arm a model with (a Light Colt; an improvised weapon in melee).

    >>> fight = confrontation(attacker=2, defender=2)
    >>> fight.win + fight.tie + fight.loss
    Fraction(1, 1)
    """
    from dedale.zombstone.charts import situation_for
    from dedale.zombstone.confront import confront

    return confront(situation_for(attacker, defender, melee, cover, reaction, attacker_weapon, defender_weapon,
                                  objective))

"""Skills: the code behind the names profiles refer to. Each is automatic, or needs an inspiration card of a
suit (its face then does not matter). The game asks these functions at the moments the rules name.

The seed's "Aimed shot" manoeuvre costs a Joker card: Precise characters aim "sans dépenser de carte Joker".
The rest is the project's choice: a character spends both its actions on one shot, to roll with one more
reroll die (`turn.py` takes the Joker, or any card when the table reads it so: `aim_cost`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from dedale.zombstone.hands import FACES, Turn


@dataclass(frozen=True)
class Skill:
    id: str
    suit: str | None = None  # the suit of the card it needs, None when automatic


SKILLS: dict[str, Skill] = {skill.id: skill for skill in (
    Skill("charismatic"),  # after its actions, activate an Extra (or a group of Extras) at once
    Skill("king_of_the_hill"),  # turn one die showing a figure (J, Q, K) into a King
    Skill("living_legend"),  # passes every Guts test
    Skill("last_breath", "hearts"),  # on ticking its last cartridge: one free last activation, then removed
    Skill("precise"),  # an aimed shot without the card
    Skill("a_certain_taste"),  # turn one die showing a figure (J, Q, K) into a Queen
    Skill("zombie"),  # each damage point counts only on an Ace of a poker die rolled for it
    Skill("slow"),  # one move action an activation
    Skill("frightening"),  # an enemy facing it takes a Guts test first
)}

KING, QUEEN, ACE = FACES.index("K"), FACES.index("Q"), FACES.index("A")
AIM_BONUS = 1  # reroll dice an aimed shot adds
GROUP_REACH = 3.0  # inches: the Extras a Charismatic character sends together stand this close to the first


@lru_cache(maxsize=64)  # asked of both sides of every shot an AI weighs; a band's profiles have few sets of skills
def turned_face(skills: tuple[str, ...], any_die: bool = False) -> Turn | None:
    """The face one die may be turned into (King of the Hill: a King; A certain taste: a Queen): a die showing
    a figure, as the text says ("un dé indiquant une figure quelconque"), or any die (`any_die`)."""
    if "king_of_the_hill" in skills:
        return Turn(KING, any_die)
    if "a_certain_taste" in skills:
        return Turn(QUEEN, any_die)
    return None


def move_actions(skills: tuple[str, ...], wounded: bool) -> int:
    """How many of its two actions may be moves: one for the Slow and the Wounded."""
    return 1 if wounded or "slow" in skills else 2


def passes_guts(skills: tuple[str, ...]) -> bool:
    return "living_legend" in skills


def aims_free(skills: tuple[str, ...]) -> bool:
    return "precise" in skills

"""Poker dice and the hands they make (`zombstone.md`).

A die's faces, low to high, are 9, 10, J, Q, K, A (indices 0 to 5). A hand is a multiset of faces, kept
as counts per face. Hands rank by category (nothing, pair, two pairs, three, full, four, five; no
straights), then by their groups, largest group first and higher face first, then by the remaining
faces, highest first; identical hands tie. With more than five dice and cards, the hand is the best five.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations
from operator import add
from typing import NamedTuple

from dedale.core.errors import DedaleError

FACES = ("9", "10", "J", "Q", "K", "A")
HANDS = ("nothing", "pair", "two_pairs", "three", "full", "four", "five")
Counts = tuple[int, int, int, int, int, int]  # how many of each face, 9 to Ace
NO_CARDS: Counts = (0, 0, 0, 0, 0, 0)
FIGURES = frozenset({2, 3, 4})  # the faces that are "figures", as in a deck of cards: Jack, Queen, King
# A Potential: from -4 (a die fewer for each point under 0) to 5 rerolls. With FACES and HANDS, the odds
# calculator's inputs, read by the library, the CLI, the web's pages and API, and the data files' checks.
POTENTIALS = range(-4, 6)


def check_potential(value: object, param: str = "potential") -> int:
    """`value`, if it is a Potential; else an error naming `param` and what is accepted."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in POTENTIALS:
        raise DedaleError("error.potential", param=param, value=value)
    return value


def parse_face(text: str) -> int:
    face = text.strip().upper()
    if face in ("T", "1"):
        face = "10"
    if face not in FACES:
        raise DedaleError("error.face", value=text, accepted=" ".join(FACES))
    return FACES.index(face)


def parse_hand(text: str) -> int:
    name = text.strip().lower().replace("-", "_").replace(" ", "_")
    if name not in HANDS:
        raise DedaleError("error.hand", value=text, accepted=", ".join(HANDS))
    return HANDS.index(name)


def as_counts(values: Iterable[int]) -> Counts:
    """Six counts, one for each face (a ValueError for any other number of them)."""
    nine, ten, jack, queen, king, ace = values
    return nine, ten, jack, queen, king, ace


def plus(counts: Counts, other: Counts) -> Counts:
    return as_counts(map(add, counts, other))  # six sums, else as_counts's ValueError


def minus(counts: Counts, other: Counts) -> Counts:
    return as_counts(a - b for a, b in zip(counts, other, strict=True))


def counts_of(faces: list[int] | tuple[int, ...]) -> Counts:
    counts = [0] * 6
    for face in faces:
        counts[face] += 1
    return as_counts(counts)


@cache
def key(counts: Counts) -> tuple[int, ...]:
    """A sortable key of the hand: (category, faces by group size then face, highest first), for at most
    five faces. Compare keys to compare hands."""
    groups = sorted(((n, face) for face, n in enumerate(counts) if n), reverse=True)
    sizes = [n for n, _ in groups]
    if sizes[:1] == [5]:
        category = 6
    elif sizes[:1] == [4]:
        category = 5
    elif sizes[:2] == [3, 2]:
        category = 4
    elif sizes[:1] == [3]:
        category = 3
    elif sizes[:2] == [2, 2]:
        category = 2
    elif sizes[:1] == [2]:
        category = 1
    else:
        category = 0
    return (category, *(face for n, face in groups for _ in range(n)))


@cache
def best_key(counts: Counts) -> tuple[int, ...]:
    """The key of the best five of any number of faces (dice and cards together)."""
    total = sum(counts)
    if total <= 5:
        return key(counts)
    faces = [face for face, n in enumerate(counts) for _ in range(n)]
    return max(key(counts_of(five)) for five in set(combinations(faces, 5)))


def category(counts: Counts) -> int:
    return best_key(counts)[0]


class Turn(NamedTuple):
    """A skill turning one die into `face` (King of the Hill: a King; A certain taste: a Queen). The text turns
    "a die showing any figure", a Jack, a Queen or a King; with `any_die`, any die (a 9, a 10, an Ace too)."""

    face: int
    any_die: bool = False


def with_skill(dice: Counts, turn: Turn | None, cards: Counts = NO_CARDS) -> Counts:
    """A skill that turns one die into a King or a Queen, used at best (or not at all), and the cards played
    beside the dice. The text turns a die, never a card; the earlier reading (`any_die`) turned any face, a
    card's too."""
    if turn is None:
        return plus(dice, cards)
    if turn.any_die:
        dice, cards = plus(dice, cards), NO_CARDS
    options = [dice]
    for face, n in enumerate(dice):
        if n and face != turn.face and (turn.any_die or face in FIGURES):
            changed = list(dice)
            changed[face] -= 1
            changed[turn.face] += 1
            options.append(as_counts(changed))
    return max((plus(option, cards) for option in options), key=best_key)


def describe(counts: Counts) -> str:
    """The faces, highest first: 'A K K 9 9'."""
    return " ".join(FACES[face] for face in range(5, -1, -1) for _ in range(counts[face]))

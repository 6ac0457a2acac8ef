"""The paper dungeon's tables as data: what each card makes, the suit dice, the room rules A to E."""

from __future__ import annotations

from math import ceil
from typing import Literal

from dedale.paper.model import DoorWay, FeatureKind, Wall

# The die that gives X (the squares of a feature) and a room's sides, by suit.
SUIT_DIE = {"hearts": "1d10", "diamonds": "1d8", "spades": "1d6", "clubs": "1d4"}

# What a card makes, by rank (the card table of the seed).
CARD_KIND: dict[str, FeatureKind | Literal["king"]] = {
    "A": "stairs_up", "2": "stairs_down", "3": "trap_corridor", "4": "corridor", "5": "crossroads",
    "6": "bend_right", "7": "bend_left", "8": "t_junction", "9": "room", "10": "room", "J": "room",
    "Q": "queen", "K": "king",
}

# 8, T junction, 1D6: which ways it opens (besides the way in).
T_JUNCTION = {1: ("left", "right"), 2: ("left", "right"), 3: ("left", "straight"), 4: ("left", "straight"),
              5: ("right", "straight"), 6: ("right", "straight")}

# C, exits: 1D6 for the wall, relative to the entry door.
EXIT_WALL: dict[int, Wall] = {1: "left", 2: "left", 3: "facing", 4: "facing", 5: "right", 6: "right"}

# E, secret doors: after a 1 on the search die, 1D6 for the way it opens.
SECRET_WAY: dict[int, DoorWay] = {1: "forward", 2: "both", 3: "both", 4: "both", 5: "both", 6: "backward"}


def adjust_size(a: int, b: int) -> tuple[int, int]:
    """Rule B: equal dice, no change; one even and one odd, halve the larger (rounding up); both even or
    both odd, halve both (rounding up). 7 and 4 give 4 x 4; 8 and 6 give 4 x 3."""
    if a == b:
        return a, b
    if a % 2 != b % 2:
        return (ceil(a / 2), b) if a > b else (a, ceil(b / 2))
    return ceil(a / 2), ceil(b / 2)


def trap_square(length: int) -> int:
    """The trap is on the middle square of its corridor (the nearer one when the length is even)."""
    return (length - 1) // 2

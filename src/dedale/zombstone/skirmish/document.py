"""A skirmish's document, declared once (`core.documents`): the scenario's table, the profiles, the game and
what it waits for. These shapes are its codec (`SkirmishSession.result_json` dumps them, `GameView` loads
them) and its JSON Schema. The game's own classes (`model.py`, `battlefield.py`, `catalogue.py`) say what
they are in these shapes, each in one place (`shape()`).

A seat's view (`hidden.py`) writes masked forms the shapes allow: a hidden token of the other side has no
profile (null), the other side's inspiration cards and the other duellist's hole cards show as ??."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from dedale.core.documents import DECISIONS_ARE_EVENTS, UNSET, DocumentKind, Meta, Shape, UnsetType

Side = Literal["lawmen", "zombies"]
Count = Annotated[int, Meta(ge=0)]
Box = Annotated[list[float], Meta(min_length=4, max_length=4)]
OwnName = Annotated[str | dict[str, str], Meta(description=(
    "Only for one of the player's own data (--data): its name as their file gives it (one text, or a text by "
    "language). A shipped one has none: its name is looked up by id, in the reader's language."))]
Seen = Annotated[str, Meta(pattern=r"^((A|[2-9]|10|J|Q|K)[HDSC]|\?\?)$",
                           description="?? for a card the reader may not see (a seat's view)")]


class TerrainShape(Shape):
    """A piece of terrain (`battlefield.Terrain`)."""

    kind: Literal["light", "heavy", "building", "difficult", "stairs", "ladder", "wall", "gap"]
    x: float
    y: float
    w: Annotated[float, Meta(gt=0)]
    h: Annotated[float, Meta(gt=0)]
    name: str | UnsetType = UNSET
    height: Annotated[float, Meta(gt=0, description="A wall's height in inches: over 4, it cannot be climbed")] | \
        UnsetType = UNSET


class VictoryShape(Shape):
    """How the scenario is won besides eliminating the other side (zombstone.md, the end)."""

    kind: Literal["dollars", "survive_lawmen", "survive_zombies", "hold", "escort", "eliminate_stars"]
    place: Annotated[Box, Meta(description="hold, escort: the place, [x, y, w, h] in inches")] | UnsetType = UNSET
    escort: Annotated[str, Meta(description="escort: the profile of the escorted character")] | UnsetType = UNSET
    side: Annotated[Side, Meta(description="escort: the escorted character's side")] | UnsetType = UNSET


class FavouredShape(Shape):
    """A scenario that is not even: the side the default AIs see win more often, and why (by language)."""

    side: Side
    why: dict[str, str]


class ScenarioShape(Shape, kw_only=True):
    """The scenario played: its table (the battlefield), its length, how it is won."""

    id: str
    name: OwnName | UnsetType = UNSET
    width: float
    height: float
    terrain: list[TerrainShape]
    turns: Annotated[int, Meta(ge=1)]
    victory: Annotated[VictoryShape, Meta(description=(
        "dollars, survive_lawmen, survive_zombies, hold (a place), escort (a character to a place), "
        "eliminate_stars. Older documents have none: dollars."))] | UnsetType = UNSET
    favoured: FavouredShape | UnsetType = UNSET


class ProfileShape(Shape, kw_only=True):
    """A character's profile (`catalogue.Profile`)."""

    name: OwnName | UnsetType = UNSET
    status: Literal["star", "supporting", "extra"]
    potential: Annotated[list[Annotated[int, Meta(ge=-4, le=5)]], Meta(
        min_length=2, max_length=2, description="Reroll dice: unhurt, wounded")]
    hand: Count
    cartridges: Annotated[int, Meta(ge=1)]
    red: Annotated[int, Meta(ge=1)]
    gun: Annotated[str | None, Meta(description="A weapon id (null: none)")]
    melee: Annotated[str, Meta(description="A weapon id")]
    skills: list[str]
    cost: Count


class FigureShape(Shape):
    """A figure on the table (`model.Figure`)."""

    id: Count
    profile: Annotated[str | None, Meta(description="null: a hidden figure of the other side, in a seat's view")]
    side: Side
    x: float
    y: float
    ticked: Annotated[int, Meta(ge=0, description="Cartridges lost")]
    state: Literal["ready", "fleeing", "out", "gone"]
    wounded: bool
    hidden: Annotated[bool, Meta(description="A High Noon token no enemy has seen yet")]
    fame: Annotated[int, Meta(ge=0, description="Fame points won in a duel, each worth a reroll die once")]
    hired: Annotated[bool, Meta(description="Joined with a duel's winnings")]


class SideShape(Shape):
    """A side's band and hand (`model.Side`)."""

    side: str
    band: str
    hand: Annotated[list[str], Meta(description="Its inspiration cards (?? each in the other side's view)")]
    had_stars: bool
    funds: Annotated[int, Meta(description="A duel's winnings put in the band's funds")]


class DeckShape(Shape):
    pile: Annotated[int, Meta(ge=0, description="The cards left in the pile")]
    discards: list[str]


class Fire(Shape):
    """A line of fire, or a melee."""

    from_: int = msgspec.field(name="from")
    to: int
    kind: Literal["dodge", "return", "melee"]
    turn: int
    line: Annotated[Box, Meta(description="From the attacker to the target, where they stood then")]
    attacker_hand: str
    defender_hand: str
    won: Literal["attacker", "defender"] | None


class DuelOutcome(Shape, kw_only=True, omit_defaults=True):
    """A duel's outcome: a poker duel's (its pot, cards and winnings) or a Guts roll each ("simple": how many
    rolls it took)."""

    kind: Literal["holdem", "simple"] | UnsetType = UNSET
    pot: Count | UnsetType = UNSET
    winner: Side | None
    folded: Side | None
    hands: list[str]
    board: list[Seen] | UnsetType = UNSET
    hole: list[list[Seen]] | UnsetType = UNSET
    winnings: Count | UnsetType = UNSET
    rolls: Annotated[int, Meta(ge=1)] | UnsetType = UNSET


class GameShape(Shape, kw_only=True):
    """The game (`model.Game`): figures with their place, cartridges and state; each side's inspiration cards;
    the lines of fire of this turn and the last; the winner."""

    scenario: str
    turn: Count
    initiative: Side | None
    figures: list[FigureShape]
    sides: dict[str, SideShape]
    deck: DeckShape
    fire: list[Fire]
    last_fire: list[Fire]
    winner: Side | None
    ending: Literal["eliminated", "condition", "turns", "draw"] | None
    decided_by: Annotated[Literal["elimination", "flight", "stars", "escort", "hold", "survival", "dollars"] | None,
                          Meta(description=(
                              "The condition that decided the game: elimination, flight (the last of a side fled for "
                              "good), stars, escort, hold, survival or dollars (at the turn limit). Older documents "
                              "have none."))] = None
    duel: Annotated[DuelOutcome | None, Meta(description="The duel's outcome (a duel scenario), null before")]


class Waiting(Shape):
    """The decision the game waits for."""

    side: Side
    kind: str
    about: Annotated[dict[str, Any], Meta(
        description="The question's details, by name (the figure, the weapon, the duel...)",
        extra_json_schema={"additionalProperties": True})]


class SkirmishResult(Shape):
    """A skirmish document's own fields."""

    scenario: ScenarioShape
    profiles: dict[str, ProfileShape]
    game: GameShape
    waiting: Waiting | None


DOCUMENT = DocumentKind(
    SkirmishResult, title="Dédale Zombstone skirmish",
    description="A Zombstone skirmish: seed, parameters (the scenario, the player's side or none for two AIs, each "
                "AI's policy), the scenario's table and terrain, the profiles of the characters, the game (figures "
                "with their place, cartridges and state; each side's inspiration cards; the lines of fire of this "
                "turn and the last; the winner), what the game waits for, the events that made it, and the log of "
                "every roll, card and rule applied.",
    versions={1: "the log tells moves in numbers",
              2: "the log tells moves in words (how far, which way, where to); a version-1 document loads, checked "
                 "without its log's words",
              3: "the log names a duel's duellists by their sides; a version-2 document loads, checked without its "
                 "log's words",
              4: "the text's readings by default (a wall climbed halves the move, an Aimed shot costs a Joker, a "
                 "skill turns only a Jack, Queen or King, a Guts test's cards count within the Hand, a duel's winner "
                 "takes the whole pot, the unarmed malus is a die off the first roll), and issue 32's AI and scenario "
                 "settings; an older document no longer plays the same way, and opens as it was saved, never "
                 "continued",
              5: DECISIONS_ARE_EVENTS + " (the AI's decisions, each with its seat: seat 0 the player's side, "
                 "or the lawmen between two people or two AIs)",
              6: "a band that has lost its Stars holds three cards at most (the rest go back into the pile); High "
                 "Noon's free moves are logged; issue 40's scenario settings; a version-5 game these change opens as "
                 "it was saved, never continued"},
    envelope={"seed": {"description": "null in a seat's view made during play (\"hidden\": true): the seed "
                                      "remakes every card and token it hides"},
              "hidden": {"description": "true: a seat's view made during play, for reading and drawing; it cannot "
                                        "be continued (the other side's cards and its hidden tokens' profiles are "
                                        "masked, an AI's bluff rolls left out)"}})

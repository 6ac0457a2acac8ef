"""A skirmish's state as plain data: the figures on the table, each side's hand of inspiration cards, the
shared deck, the turn, and the lines of fire drawn on the map. A document says it in its shapes (`document.py`):
`Game.shape()`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dedale.core.cards import Card, Deck
from dedale.core.documents import load
from dedale.core.session import State
from dedale.zombstone.skirmish.document import DeckShape, DuelOutcome, FigureShape, Fire, GameShape, SideShape

IN_PLAY = ("ready", "fleeing")  # fleeing: it fled, and tests its Guts again at its next activation


@dataclass(slots=True)
class Figure:
    id: int
    profile: str
    side: str
    x: float
    y: float
    ticked: int = 0  # cartridges lost
    state: str = "ready"  # ready, fleeing, out (killed) or gone (fled for good)
    wounded: bool = False
    activated: bool = False
    hidden: bool = False  # a High Noon token no enemy has seen yet
    fame: int = 0  # Fame points won in a duel, each worth a reroll die once
    hired: bool = False  # joined with a duel's winnings
    pos: tuple[float, float] = field(init=False, repr=False, compare=False)  # (x, y), asked for all the time

    def __post_init__(self) -> None:
        self.pos = (self.x, self.y)

    def place(self, point: tuple[float, float]) -> None:
        """Move the figure (the only way to: `pos` follows)."""
        self.x, self.y = point
        self.pos = (self.x, self.y)

    @property
    def in_play(self) -> bool:
        return self.state in IN_PLAY

    def shape(self) -> FigureShape:
        return FigureShape(self.id, self.profile, self.side, round(self.x, 3), round(self.y, 3),  # type: ignore[arg-type]
                           self.ticked, self.state, self.wounded, self.hidden, self.fame, self.hired)  # type: ignore[arg-type]


@dataclass
class Side:
    side: str
    band: str
    hand: list[Card] = field(default_factory=list)
    had_stars: bool = False
    funds: int = 0  # a duel's winnings put in the band's funds

    def shape(self) -> SideShape:
        return SideShape(self.side, self.band, [c.code for c in self.hand], self.had_stars, self.funds)


@dataclass
class Game(State):
    scenario: str = ""
    figures: list[Figure] = field(default_factory=list)
    sides: dict[str, Side] = field(default_factory=dict)
    deck: Deck = field(default_factory=Deck)
    turn: int = 0
    initiative: str | None = None
    fire: list[Fire] = field(default_factory=list)  # this turn's lines of fire and melees
    last_fire: list[Fire] = field(default_factory=list)  # the previous turn's
    winner: str | None = None
    ending: str | None = None  # eliminated, condition (the scenario's, at once), turns (the limit), draw
    decided_by: str | None = None  # elimination, flight, stars, escort, hold, survival or dollars (`victory.py`)
    duel: dict[str, Any] | None = None  # the duel's outcome

    def figure(self, figure_id: int) -> Figure:
        return self.figures[figure_id]

    def in_play(self, side: str | None = None) -> list[Figure]:
        return [f for f in self.figures if f.in_play and (side is None or f.side == side)]

    def enemies(self, figure: Figure) -> list[Figure]:
        return [f for f in self.figures if f.in_play and f.side != figure.side]

    def shape(self) -> GameShape:
        """What a document says of the game (the duel's outcome, a plain dict as the rules write it, read as its
        shape)."""
        return GameShape(
            scenario=self.scenario, turn=self.turn, initiative=self.initiative,  # type: ignore[arg-type]
            figures=[f.shape() for f in self.figures], sides={name: side.shape() for name, side in self.sides.items()},
            deck=DeckShape(len(self.deck.pile), [c.code for c in self.deck.discards]),
            fire=self.fire, last_fire=self.last_fire,
            winner=self.winner, ending=self.ending, decided_by=self.decided_by,  # type: ignore[arg-type]
            duel=None if self.duel is None else load(DuelOutcome, self.duel))

"""Playing-card decks on the run's random source.

A draw takes a uniformly random card from the draw pile, which is the same as drawing the top card of a
shuffled pile, and lets table mode ask "which card did you draw?" among the cards still in the pile.
The pile is kept in a canonical order, so a deck's state is plain data that serialises as it is. A card is a
document's shape (`core.documents`): a document that holds one writes its rank and suit. A deck of 54 adds the
two Jokers (`JOKERS`), a red one and a black one: rank "JK", their suit only giving their colour.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from dedale.core.documents import Shape
from dedale.core.errors import DedaleError
from dedale.core.rng import Roller
from dedale.i18n import Word, t, word

Rank = Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
JokerRank = Literal["JK"]
Suit = Literal["hearts", "diamonds", "spades", "clubs"]
RANKS: tuple[Rank, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[Suit, ...] = ("hearts", "diamonds", "spades", "clubs")
JOKER: JokerRank = "JK"  # a Joker's rank (not in RANKS: a deck of 52 has none)
HIDDEN_CARD = "??"  # a card the player may not see, in a log entry or a seat's view
_COURT = ("A", "K", "Q", "J")  # the ranks named in words (the others by their number)
_SUIT_LETTER: dict[Suit, str] = {"hearts": "H", "diamonds": "D", "spades": "S", "clubs": "C"}
SUIT_SYMBOLS = {"hearts": "♥", "diamonds": "♦", "spades": "♠", "clubs": "♣"}
_LETTER_SUIT: dict[str, Suit] = {letter: suit for suit, letter in _SUIT_LETTER.items()}


class Card(Shape, frozen=True, order=True):  # type: ignore[misc]  # msgspec freezes a shape; mypy's dataclass rule
    rank: Rank | JokerRank
    suit: Suit

    @property
    def code(self) -> str:
        """Short form a player can type: `AH`, `10S`, `QC`; `JKH` and `JKS`, the red and the black Joker."""
        return self.rank + _SUIT_LETTER[self.suit]

    @property
    def joker(self) -> bool:
        return self.rank == JOKER

    @property
    def shown(self) -> str:
        """As a player reads it: `A♥`, `10♠`, `Joker`."""
        return "Joker" if self.joker else self.rank + SUIT_SYMBOLS[self.suit]

    def short(self, lang: str = "en") -> str:
        """As a player reads it in `lang`: `A♥`, `10♠`, `Q♣`; in French the court cards' own letters, `D♣`
        (Dame), `R♦` (Roi), `V♠` (Valet); a Joker, `Joker`."""
        if self.joker:
            return t("card.short.JK", lang)
        rank = t(f"card.short.{self.rank}", lang) if self.rank in _COURT else self.rank
        return rank + SUIT_SYMBOLS[self.suit]

    @property
    def short_word(self) -> Word:
        """`short` to word when shown, in the reader's language ("Q♣", French "D♣")."""
        rank = word(f"card.short.{self.rank}") if self.rank in _COURT else self.rank
        return word("card.short_named", rank=rank, suit=SUIT_SYMBOLS[self.suit])

    @property
    def word(self) -> Word:
        """The card in words, "the King of diamonds", "the red Joker" (`i18n`: worded in the reader's language
        when shown)."""
        if self.joker:
            return word("card.joker_red" if self.red else "card.joker_black")
        rank = word(f"card.rank.{self.rank}") if self.rank in _COURT else word("card.rank.number", rank=self.rank)
        return word("card.named", rank=rank, suit=word(f"card.suit.{self.suit}"))

    @property
    def red(self) -> bool:
        return self.suit in ("hearts", "diamonds")

    @classmethod
    def parse(cls, code: str) -> Card:
        text = code.strip().upper()
        rank, letter = text[:-1], text[-1:]
        if not ((rank in RANKS and letter in _LETTER_SUIT) or (rank == JOKER and letter in ("H", "S"))):
            raise DedaleError("error.card", value=code)
        return cls(rank, _LETTER_SUIT[letter])


def standard_deck() -> list[Card]:
    return [Card(rank, suit) for suit in SUITS for rank in RANKS]


JOKERS = (Card(JOKER, "hearts"), Card(JOKER, "spades"))  # the red and the black Joker of a deck of 54
_SUIT_ORDER = {suit: i for i, suit in enumerate(SUITS)}
_RANK_ORDER = {rank: i for i, rank in enumerate((*RANKS, JOKER))}


def _order(card: Card) -> tuple[int, int]:
    return _SUIT_ORDER[card.suit], _RANK_ORDER[card.rank]


@dataclass
class Deck:
    """A deck with a draw pile and a discard pile; cards in play are in neither."""

    cards: list[Card] = field(default_factory=standard_deck)
    pile: list[Card] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.pile and not self.discards:
            self.pile = sorted(self.cards, key=_order)

    def draw(self, roller: Roller, purpose: str, **args: Any) -> Card | None:
        """Draw one card (None when the pile is empty); the draw is logged."""
        if not self.pile:
            return None
        index = roller.draw_from(len(self.pile), lambda: [card.code for card in self.pile], purpose, **args)
        card = self.pile.pop(index)
        entry: dict[str, Any] = {"draw": card.code, "for": purpose}
        if args:
            entry["args"] = args
        roller.log.append(entry)
        return card

    def discard(self, card: Card) -> None:
        self.discards.append(card)

    def put_back(self, card: Card) -> None:
        """A card back into the pile, unseen (the pile is drawn from at random, and shows only its count)."""
        self.pile = sorted([*self.pile, card], key=_order)

    def reshuffle(self, roller: Roller, everything: bool = True) -> None:
        """Put the discards (and, with `everything`, the cards in play too) back into the pile."""
        back = self.cards if everything else self.pile + self.discards
        self.pile = sorted(back, key=_order)
        self.discards = []
        roller.log.append({"reshuffle": True, "cards": len(self.pile)})

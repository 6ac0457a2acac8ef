"""The poker duel (`zombstone.md`, "The duel"): one deal of heads-up no-limit Texas Hold'em.

A state machine on plain data: `start` antes and deals the hole cards, `actions` lists what the seat to act
may do, `act` applies one action and deals the streets, and settles the pot at the end; `ai_action` is
the AI bettor. Choices the seed leaves open:

- Each duellist brings its stake ($15 plus what its player adds) and antes. There are no blinds, so seat 0
  acts first on every street, preflop included.
- The smallest bet is the ante (at least $1); a raise adds at least the street's last full bet or raise.
  An all-in for less is allowed, and does not reopen the betting for a seat that has already acted.
- Folding when one could check is not offered: a fold is a failed Guts test, the duellist flees.
- No burn cards: hole cards go to seats 0, 1, 0, 1, then the flop (3 cards), the turn and the river, each
  drawn from the deck on the run's random source (logged; table mode asks which card was drawn).
- The part of a bet nobody called goes back to its owner before the pot is won.
- Hands are evaluated by pokerkit, the best five of seven. Equal hands split the pot (an odd dollar would
  go to seat 0) and nobody shoots first.
- The winnings (the seed's "$ gagnés", the dollars won): the winner "takes the stakes", the whole pot, and may
  spend it, $7 a Fame point (`WINNINGS` "pot", the text). Read as "won" (Dédale's reading before), they are
  only what the winner won from the other duellist, the other's part of the pot.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Annotated, Any, Literal, NamedTuple

from dedale.core.cards import RANKS, SUITS, Card, Deck, standard_deck
from dedale.core.documents import Meta, Shape
from dedale.core.errors import DedaleError
from dedale.core.rng import Roller
from dedale.i18n import Word, word

if TYPE_CHECKING:
    from pokerkit import Card as PkCard
    from pokerkit import Label, StandardHighHand

Street = Literal["preflop", "flop", "turn", "river", "showdown"]  # a duel's phase; a document's "street"
Betting = Literal["preflop", "flop", "turn", "river"]
Seat = Annotated[int, Meta(ge=0, le=1)]  # 0 or 1
STREETS: tuple[Street, ...] = ("preflop", "flop", "turn", "river")
_DEALT: dict[Street, int] = {"flop": 3, "turn": 1, "river": 1}
FAME_PRICE = 7
WINNINGS = ("pot", "won")  # what the winner may spend: the whole pot (the text), or what it won from the other

_VALUE: dict[str, int] = {rank: 14 if rank == "A" else i + 1 for i, rank in enumerate(RANKS)}  # 2 to 14, aces high


class _Pokerkit(NamedTuple):
    cards: dict[Card, PkCard]  # ours as pokerkit's
    ours: dict[PkCard, Card]
    labels: tuple[Label, ...]  # pokerkit's categories, high card to straight flush


@cache
def _pokerkit() -> _Pokerkit:
    """pokerkit, imported at the first hand judged: it takes a quarter of a second to import, and nothing but a
    showdown or a hand's strength needs it."""
    from pokerkit import Card as PkCard
    from pokerkit import Label, Rank, Suit

    cards = {card: PkCard(Rank("T" if card.rank == "10" else card.rank), Suit(card.code[-1].lower()))
             for card in standard_deck()}
    return _Pokerkit(cards, {pk: card for card, pk in cards.items()}, tuple(Label))


@dataclass(frozen=True)
class Action:
    """A legal action: `id` as a UI sends it ("fold", "check", "call", "bet:5", "raise:12", "allin"),
    `amount` the seat's bet on the street once it is made ("raise to $12"), `cost` what it puts in now."""

    id: str
    amount: int
    cost: int

    @property
    def kind(self) -> str:
        return self.id.partition(":")[0]

    @property
    def message(self) -> Word:
        return word(f"duel.action.{self.kind}", amount=self.amount, cost=self.cost)


@dataclass
class Duel:
    """The duel's whole state, plain data (deep-copyable, `to_json`/`from_json`). Seats are 0 and 1.
    Money only moves between `stacks` and `pot`: their sum stays what the duellists brought."""

    stakes: list[int]  # what each brought to the table
    ante: int
    stacks: list[int]  # what each has left to bet
    bets: list[int]  # what each has put in on this street (it is in the pot already)
    contributed: list[int]  # what each has put in the pot in all
    pot: int
    hole: list[list[Card]]
    board: list[Card]
    street: Street  # showdown once the hands are shown
    to_act: int | None
    acted: list[bool]  # has acted on this street since the last full bet or raise
    last_raise: int  # the street's last full bet or raise: the least a raise must add
    folded: int | None
    winner: int | None  # takes the pot and shoots first; None for a split pot
    over: bool
    payout: list[int]  # what each took from the pot at the end
    hands: list[str]  # at a showdown: each one's hand, as pokerkit's category ("two_pair")
    best: list[list[Card]]  # ... and its best five cards
    history: list[dict[str, Any]]  # {"street", "seat", "action" (an id, or "return"), "amount"}

    @property
    def min_bet(self) -> int:
        return max(self.ante, 1)

    @property
    def won(self) -> int:
        """What the winner won from the other duellist, the part of the pot the other had put in (0 for a
        split pot)."""
        return 0 if self.winner is None else self.contributed[1 - self.winner]

    def table(self) -> DuelTable:
        """What a document says of it: the cards by their codes (the one place the duel is converted)."""
        return DuelTable(
            list(self.stakes), self.ante, list(self.stacks), list(self.bets), list(self.contributed), self.pot,
            self.street, self.to_act, list(self.acted), self.last_raise, self.folded, self.winner, self.over,
            list(self.payout), list(self.hands), [Bet(**bet) for bet in self.history],
            [[card.code for card in cards] for cards in self.hole], [card.code for card in self.board],
            [[card.code for card in cards] for cards in self.best])

    @classmethod
    def from_table(cls, table: DuelTable) -> Duel:
        return cls(table.stakes, table.ante, table.stacks, table.bets, table.contributed, table.pot,
                   [[Card.parse(code) for code in codes] for codes in table.hole],
                   [Card.parse(code) for code in table.board], table.street, table.to_act, table.acted,
                   table.last_raise, table.folded, table.winner, table.over, table.payout, table.hands,
                   [[Card.parse(code) for code in codes] for codes in table.best],
                   [{"street": bet.street, "seat": bet.seat, "action": bet.action, "amount": bet.amount}
                    for bet in table.history])


# --- the duel in a document ----------------------------------------------------------------------------------
CARD = "^(A|[2-9]|10|J|Q|K)[HDSC]$"
Code = Annotated[str, Meta(pattern=CARD)]
Seen = Annotated[str, Meta(pattern=r"^((A|[2-9]|10|J|Q|K)[HDSC]|\?\?)$",
                           description="?? for a card the reader may not see (a seat's view)")]
Money = Annotated[int, Meta(ge=0)]
Pair = Meta(min_length=2, max_length=2)  # one for each seat


class Bet(Shape):
    """One line of the duel's history."""

    street: Betting
    seat: Seat
    action: Annotated[str, Meta(description=(
        'An action\'s id ("call", "raise:12"...), or "return": the part of a bet nobody called, given back'))]
    amount: Annotated[Money, Meta(description="What it put in (or took back)")]


class DuelTable(Shape):
    """The duel's whole state, its cards by their codes (`Duel`)."""

    stakes: Annotated[list[int], Pair, Meta(description="What each duellist brought to the table")]
    ante: Money
    stacks: Annotated[list[Money], Pair, Meta(description="What each has left to bet")]
    bets: Annotated[list[Money], Pair, Meta(description="Each seat's bets in this street")]
    contributed: Annotated[list[Money], Pair, Meta(description="What each seat has put in the pot")]
    pot: Money
    street: Street
    to_act: Seat | None
    acted: Annotated[list[bool], Pair, Meta(description="Who has acted in this street")]
    last_raise: Annotated[Money, Meta(description="The street's last full bet or raise: the least a raise adds")]
    folded: Seat | None
    winner: Annotated[Seat | None, Meta(description="Takes the pot and shoots first; null for a split pot")]
    over: bool
    payout: Annotated[list[int], Pair, Meta(description="What each took from the pot at the end")]
    hands: Annotated[list[str], Meta(max_length=2, description=(
        "At a showdown: each one's hand, as pokerkit's category (two_pair)"))]
    history: list[Bet]
    hole: Annotated[list[Annotated[list[Seen], Meta(max_length=2)]], Pair]
    board: Annotated[list[Code], Meta(max_length=5)]
    best: Annotated[list[Annotated[list[Code], Meta(min_length=5, max_length=5)]], Meta(max_length=2, description=(
        "At a showdown: each one's best five cards"))]


def start(roller: Roller, deck: Deck, stakes: tuple[int, int] = (15, 15), ante: int = 1) -> Duel:
    """Both ante, and the hole cards are dealt from `deck` (a fresh 52-card deck). `stakes`: each one's $15
    plus what its player adds from the band's reserve."""
    duel = seated(stakes, ante)
    deal(duel, roller, deck)
    return duel


def seated(stakes: tuple[int, int] = (15, 15), ante: int = 1) -> Duel:
    """A duel before its deal: the stakes and antes in, no card yet."""
    if ante < 0:
        raise DedaleError("error.count_param", param="ante", value=ante, low=0)
    for stake in stakes:
        if stake < max(ante, 1):
            raise DedaleError("error.count_param", param="stakes", value=stake, low=max(ante, 1))
    duel = Duel(stakes=list(stakes), ante=ante, stacks=[stake - ante for stake in stakes], bets=[0, 0],
                contributed=[ante, ante], pot=2 * ante, hole=[[], []], board=[], street="preflop", to_act=None,
                acted=[False, False], last_raise=max(ante, 1), folded=None, winner=None, over=False,
                payout=[0, 0], hands=[], best=[], history=[])
    return duel


def deal(duel: Duel, roller: Roller, deck: Deck) -> None:
    """The antes noted and the hole cards dealt; then the first to act."""
    if duel.ante:
        roller.note("duel.ante", ante=duel.ante)
    for seat in (0, 1, 0, 1):
        duel.hole[seat].append(_draw(deck, roller, "duel.hole", seat=seat))
    _advance(duel, roller, deck, after=1)


def actions(duel: Duel) -> list[Action]:
    """The legal actions of the seat to act: a menu of sizes (the least, half the pot, the pot, all in);
    `act` also takes any other legal size, such as "bet:7"."""
    if duel.over or duel.to_act is None:
        return []
    seat = duel.to_act
    bet, stack, top = duel.bets[seat], duel.stacks[seat], max(duel.bets)
    if top == bet:
        menu = [Action("check", bet, 0)]
    else:
        cost = min(top - bet, stack)
        menu = [Action("fold", bet, 0), Action("call", bet + cost, cost)]
    sizes = _sizes(duel)
    if sizes:
        kind, low, allin = sizes
        pot = duel.pot + top - bet  # once the seat has called
        for total in sorted({low, top + pot // 2, top + pot}):
            if low <= total < allin:
                menu.append(Action(f"{kind}:{total}", total, total - bet))
        menu.append(Action("allin", allin, stack))
    return menu


def act(duel: Duel, action_id: str, roller: Roller, deck: Deck) -> None:
    """Apply the action of the seat to act; deal the next streets when the betting on one is over, and
    settle the pot at a fold or at the showdown."""
    action = _legal(duel, action_id)
    seat = duel.to_act
    assert seat is not None
    duel.history.append({"street": duel.street, "seat": seat, "action": action.id, "amount": action.cost})
    roller.note(f"duel.did.{action.kind}", seat=seat, amount=action.amount, cost=action.cost)
    if action.kind == "fold":
        duel.folded = seat
        _return_uncalled(duel, roller)
        _settle(duel, 1 - seat, roller)
        return
    top = max(duel.bets)
    duel.stacks[seat] -= action.cost
    duel.bets[seat] += action.cost
    duel.contributed[seat] += action.cost
    duel.pot += action.cost
    if duel.bets[seat] - top >= duel.last_raise:  # a full bet or raise: the other may raise again
        duel.last_raise = duel.bets[seat] - top
        duel.acted[1 - seat] = False
    duel.acted[seat] = True
    _advance(duel, roller, deck, after=seat)


def winnings(duel: Duel, reading: str = "pot") -> int:
    """What the winner may spend (0 for a split pot): the stakes it takes, the whole pot ("pot", the text), or
    only what it won from the other ("won")."""
    if duel.winner is None:
        return 0
    return duel.won if reading == "won" else sum(duel.contributed)


def spend(winnings: int, fame_points: int) -> tuple[int, int]:
    """Buy up to `fame_points` Fame points at $7 each out of the winnings: (points bought, dollars left).
    What to do with the rest (hire a character, bank it) is the game's."""
    points = max(0, min(fame_points, winnings // FAME_PRICE))
    return points, winnings - FAME_PRICE * points


# --- the betting ------------------------------------------------------------------------------------


def _sizes(duel: Duel) -> tuple[str, int, int] | None:
    """The bets or raises open to the seat to act: (kind, least total on the street, all-in total)."""
    seat = duel.to_act
    assert seat is not None
    top, allin = max(duel.bets), duel.bets[seat] + duel.stacks[seat]
    if duel.stacks[1 - seat] == 0 or allin <= top:
        return None  # nobody left to bet against, or calling takes everything
    if top == 0:
        return "bet", duel.min_bet, allin
    if duel.acted[seat]:
        return None  # only an all-in for less since it acted: the betting is not reopened
    return "raise", top + duel.last_raise, allin


def _legal(duel: Duel, action_id: str) -> Action:
    seat = duel.to_act
    if duel.over or seat is None:
        raise DedaleError("error.duel.over")
    menu = actions(duel)
    for action in menu:
        if action.id == action_id:
            return action
    sizes = _sizes(duel)
    accepted = ", ".join(action.id for action in menu)
    if sizes:
        kind, low, allin = sizes
        name, _, amount = action_id.partition(":")
        if name == kind and amount.isdigit() and low <= int(amount) <= allin:
            total = int(amount)
            return Action(f"{kind}:{total}", total, total - duel.bets[seat])
        if low < allin:
            accepted += f", {kind}:{low}..{allin}"
    raise DedaleError("error.duel.action", value=action_id, accepted=accepted)


def _next_to_act(duel: Duel, after: int) -> int | None:
    """Who acts next on this street (the other seat first), or None when its betting is over."""
    top = max(duel.bets)
    live = [seat for seat in (0, 1) if duel.stacks[seat] > 0]
    if len(live) == 1 and duel.bets[live[0]] == top:
        return None  # the other is all in: nobody left to bet against
    for seat in (1 - after, after):
        if duel.stacks[seat] > 0 and (not duel.acted[seat] or duel.bets[seat] < top):
            return seat
    return None


def _advance(duel: Duel, roller: Roller, deck: Deck, after: int) -> None:
    """Pass the turn; or close the street, deal the next (all of them when nobody can bet any more) and
    show the hands down after the river."""
    while (seat := _next_to_act(duel, after)) is None:
        duel.to_act = None
        _return_uncalled(duel, roller)
        if duel.street == "river":
            _showdown(duel, roller)
            return
        duel.street = STREETS[STREETS.index(duel.street) + 1]
        for _ in range(_DEALT[duel.street]):
            duel.board.append(_draw(deck, roller, "duel.board", street=word(f"duel.street.{duel.street}")))
        duel.bets, duel.acted, duel.last_raise = [0, 0], [False, False], duel.min_bet
        after = 1  # seat 0 opens every street
    duel.to_act = seat


def _return_uncalled(duel: Duel, roller: Roller) -> None:
    high = 0 if duel.bets[0] > duel.bets[1] else 1
    excess = duel.bets[high] - duel.bets[1 - high]
    if excess:
        duel.bets[high] -= excess
        duel.stacks[high] += excess
        duel.contributed[high] -= excess
        duel.pot -= excess
        duel.history.append({"street": duel.street, "seat": high, "action": "return", "amount": excess})
        roller.note("duel.returned", seat=high, amount=excess)


def _draw(deck: Deck, roller: Roller, purpose: str, **args: Any) -> Card:
    card = deck.draw(roller, purpose, **args)
    assert card is not None, "a duel deals 9 cards from a fresh deck"
    return card


def _hand(hole: list[Card], board: list[Card]) -> StandardHighHand:
    return _best_hand(tuple(hole), tuple(board))


@lru_cache(maxsize=64)  # a duellist's hand is weighed at each of its bets on a street, then at the showdown
def _best_hand(hole: tuple[Card, ...], board: tuple[Card, ...]) -> StandardHighHand:
    from pokerkit import StandardHighHand

    cards = _pokerkit().cards
    hand = StandardHighHand.from_game([cards[card] for card in hole], [cards[card] for card in board])
    assert isinstance(hand, StandardHighHand)
    return hand


def _showdown(duel: Duel, roller: Roller) -> None:
    duel.street = "showdown"
    hands = [_hand(cards, duel.board) for cards in duel.hole]
    duel.hands = [hand.entry.label.name.lower() for hand in hands]
    duel.best = [[_pokerkit().ours[card] for card in hand.cards] for hand in hands]
    for seat in (0, 1):
        roller.note("duel.shows", seat=seat, cards=" ".join(card.code for card in duel.best[seat]),
                    hand=word(f"duel.hand.{duel.hands[seat]}"))
    _settle(duel, None if hands[0] == hands[1] else int(hands[1] > hands[0]), roller)


def _settle(duel: Duel, winner: int | None, roller: Roller) -> None:
    duel.winner, duel.over, duel.to_act = winner, True, None
    if winner is None:
        half = duel.pot // 2
        duel.payout = [duel.pot - half, half]
        roller.note("duel.split", first=duel.payout[0], second=duel.payout[1])
    else:
        duel.payout[winner] = duel.pot
        roller.note("duel.won", seat=winner, pot=duel.pot, net=duel.won)
    duel.stacks = [stack + paid for stack, paid in zip(duel.stacks, duel.payout, strict=True)]
    duel.bets, duel.pot = [0, 0], 0


# --- the AI bettor ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """An AI bettor's temper: the strength it bets at and raises at, the edge it wants over the break-even
    chance before it calls (a bold one calls a little below it), how often it bluffs."""

    bet: float
    raise_: float
    margin: float
    bluff: float


STYLES = {"cautious": Style(bet=0.66, raise_=0.8, margin=0.06, bluff=0.05),
          "bold": Style(bet=0.56, raise_=0.7, margin=-0.03, bluff=0.15)}


FLIGHT = FAME_PRICE  # what a fold's flight costs beyond the chips, in dollars: a Fame point's price


def ai_action(duel: Duel, roller: Roller, style: str = "cautious", flight: int = FLIGHT) -> str:
    """The AI bettor's action id for the seat to act. It bets or raises by its hand's strength, the
    stronger the bigger; facing a bet, it calls when calling is worth more than folding, or folds; otherwise
    checks, or now and then bluffs, rolled on `roller` (so logged, and entered at the table in table mode).

    A fold is not only the chips in the pot given up: the duellist flees. So calling `to_call` to win a pot
    of `pot` with the chance `strength` is worth `strength x pot - to_call`, and folding `-flight` (a fold
    costs it the duel too; the duel's prize, which only a call may win, is left out, which keeps it careful):
    it calls above `(to_call - flight) / pot`, plus its style's margin. Facing an all-in for $14 with $15 each,
    that is about 23% (it called only above the pot odds, 47%, when a fold cost nothing but the chips)."""
    if style not in STYLES:
        raise DedaleError("error.one_of", param="style", value=style, accepted=", ".join(STYLES))
    plan = STYLES[style]
    menu = actions(duel)
    if not menu:
        raise DedaleError("error.duel.over")
    seat = duel.to_act
    assert seat is not None
    strength = hand_strength(duel.hole[seat], duel.board)
    to_call = max(duel.bets) - duel.bets[seat]
    sizes = [action.id for action in menu if action.kind in ("bet", "raise", "allin")]  # smallest first
    threshold = plan.bet if to_call == 0 else plan.raise_
    if sizes and strength >= threshold:
        return sizes[min(len(sizes) - 1, int((strength - threshold) / (1 - threshold) * len(sizes)))]
    if to_call:
        return "call" if strength >= (to_call - flight) / (duel.pot + to_call) + plan.margin else "fold"
    # a bluff only opens a street after the flop: fewer rolls to enter at the table, and the antes alone
    # are not worth stealing
    if sizes and duel.board and roller.chance(plan.bluff, "duel.bluff", seat=seat):
        return sizes[min(1, len(sizes) - 1)]  # half the pot, usually: a minimum bet bluffs nobody
    return "check"


def hand_strength(hole: list[Card], board: list[Card]) -> float:
    """A rough chance, from 0 to 1, that the hand wins the showdown against one random hand.

    Preflop, a formula on the two cards, close to their equity against a random hand (22 about 50%, AA
    85%, 72 offsuit 36%): a pair is worth its rank; otherwise both cards' ranks, +3% suited, +2% connected
    (+1% with one gap). Postflop, the made hand, evaluated by pokerkit: a category that none of the hole
    cards takes part in is the board's, worth only the high card (ace high about 50% on the flop); a pair
    is worth less for each board card above it. Before the river, straight and flush draws add their outs
    at about 4% each with two cards to come and 2% with one (the rule of 4 and 2). An exact equity by
    enumeration costs a quarter of a second or more with pokerkit: far too slow for the simulator."""
    if not board:
        return _preflop(hole)
    hand = _hand(hole, board)
    poker = _pokerkit()
    category = poker.labels.index(hand.entry.label)
    five = hand.cards
    ranks = [card.rank for card in five]
    core = five if category in (4, 5, 6, 8) else [card for card in five if ranks.count(card.rank) > 1]
    mine = [poker.ours[card] for card in core if poker.ours[card] in hole]
    if not mine:
        category = 0
    if category == 0:
        made = 0.15 + 0.025 * (max(_VALUE[card.rank] for card in hole) - 2) + (0.05 if len(board) < 5 else 0)
    elif category == 1:
        pair = _VALUE[mine[0].rank]
        made = 0.74 - 0.07 * len({_VALUE[card.rank] for card in board if _VALUE[card.rank] > pair})
    else:
        made = (0.78, 0.85, 0.9, 0.93, 0.96, 0.99, 1.0)[category - 2]
    if len(board) < 5 and category < 4:
        made += _outs(hole, board) * (0.04 if len(board) == 3 else 0.02) * (0.9 - made)
    return min(made, 1.0)


def _preflop(hole: list[Card]) -> float:
    high, low = sorted((_VALUE[card.rank] for card in hole), reverse=True)
    if high == low:
        return 0.5 + 0.029 * (high - 2)
    strength = 0.26 + 0.021 * (high - 2) + 0.012 * (low - 2)
    if hole[0].suit == hole[1].suit:
        strength += 0.03
    if high - low <= 2:
        strength += 0.03 - 0.01 * (high - low)
    return strength


def _outs(hole: list[Card], board: list[Card]) -> int:
    """The cards that would complete a flush or a straight using a hole card (an estimate: overlaps
    between the two are counted twice)."""
    cards = hole + board
    outs = 0
    for suit in SUITS:
        if sum(card.suit == suit for card in cards) == 4 and any(card.suit == suit for card in hole):
            outs += 9
    values = {_VALUE[card.rank] for card in cards}
    mine = {_VALUE[card.rank] for card in hole}
    values |= {1} if 14 in values else set()  # an ace is also low, for the wheel
    mine |= {1} if 14 in mine else set()
    completing: set[int] = set()
    for low in range(1, 11):
        window = set(range(low, low + 5))
        missing = window - values
        if len(missing) == 1 and window & mine:
            completing |= {14 if value == 1 else value for value in missing}
    return outs + 4 * len(completing)

"""The poker duel on its own, as rules the generic session plays: the player is the first duellist (seat 0), an AI
bettor the other, or a second person (seat 1: `opponent` "human"). One deal of Texas Hold'em (`duel.py`);
at the end, what the winnings would buy ($7 a Fame point).

Documents of version 4: the winner takes the stakes, the winnings are the whole pot (the text), unless the
`winnings` parameter says "won"; versions 2 and 3 counted only what was won from the other, and load so; a
version-1 document loads, its `fame_points` and `left` worked out again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, ClassVar, Final, Literal

from dedale.core.cards import HIDDEN_CARD, Deck
from dedale.core.documents import DECISIONS_ARE_EVENTS, DocumentKind, Meta, Shape, dump, load_result
from dedale.core.errors import DedaleError
from dedale.core.params import Declared, param
from dedale.core.rules import SPECTATOR, Choice, Policies, Rules, Secrets, State
from dedale.core.session import Session
from dedale.i18n import Word, word
from dedale.zombstone.skirmish import duel as poker
from dedale.zombstone.skirmish.duel import STYLES

PLAYER: Final = 0
AI_SEAT: Final = 1
BASE_STAKE = 15  # each duellist's $15, plus what its player adds
MAX_ADDED = 200


@dataclass(frozen=True)
class DuelParams(Declared):
    system: ClassVar[str] = "zombstone-duel"

    added: int = param(0, low=0, high=MAX_ADDED,
                       label=("Your raise", "Votre ajout"), first=True,
                       en="Dollars you add to your $15 stake from the band's reserve.",
                       fr="Les dollars que vous ajoutez à votre mise de 15 $ depuis la réserve de la bande.")
    ai_added: int = param(0, low=0, high=MAX_ADDED,
                          label=("AI's raise", "Ajout de l'IA"), en="Dollars the AI adds to its $15 stake.",
                          fr="Les dollars que l'IA ajoute à sa mise de 15 $.")
    style: str = param("cautious", choices=tuple(STYLES),
                       label=("AI style", "Style de l'IA"), first=True, en="The AI bettor's style: cautious or bold.",
                       fr="Le style de l'IA qui mise : prudent (cautious) ou hardi (bold).")
    opponent: str = param("ai", choices=("ai", "human"), omit_default=True,
                          en="Who bets for the second duellist: the AI, or a second person (seat 1).",
                          fr="Qui mise pour le second duelliste : l'IA (ai), ou une seconde personne (human, "
                          "le siège 1).")
    winnings: str = param("pot", choices=poker.WINNINGS, omit_default=True,
                          label=("Winnings", "Gains"),
                          en="What the winner may spend (it \"takes the stakes\"): pot (the text: the whole pot) or "
                          "won (only what the other put in; Dédale's reading before).",
                          fr="Ce que le vainqueur peut dépenser (il « remporte les mises ») : pot (le texte : tout le "
                          "pot) ou won (seulement ce que l'autre y a mis ; la lecture précédente de Dédale).")

    @property
    def stakes(self) -> tuple[int, int]:
        return (BASE_STAKE + self.added, BASE_STAKE + self.ai_added)

    @property
    def human(self) -> bool:
        """Two people bet: seat 1's turns are choices too."""
        return self.opponent == "human"



@dataclass
class DuelState(State):
    duel: poker.Duel | None = None
    deck: Deck = field(default_factory=Deck)


class AutoBettor:
    """The AI bettor: the player's autopilot, or the other duellist (`DuelRules.ai`). Its bluff rolls are the
    session's own, recorded with its decision."""

    def __init__(self, style: str) -> None:
        self.name = style

    def choose(self, session: DuelSession) -> str:
        assert session.state.duel is not None
        return poker.ai_action(session.state.duel, session.roller, self.name)


def _bettor(style: str) -> Callable[[DuelSession], AutoBettor]:
    return lambda session: AutoBettor(style)


class DuelRules(Secrets, Rules[DuelParams, DuelState]):
    system = "zombstone-duel"
    # version 2's winnings are what was won from the other (version 1's were the whole pot); version 3's log
    # names the duellists as the table does (You and the AI, or the players' seats): a version-2 document loads,
    # checked without its log's words; version 4's winnings are the whole pot again, as the text says, unless
    # `winnings` says "won" (what a version 2 or 3 document played by: `loaded_params`)
    version = 5
    recomputed_before: ClassVar[dict[int, tuple[str, ...]]] = {1: ("fame_points", "left")}  # what winnings buy
    worded_before = (2, 3)
    policies: ClassVar[Policies] = {name: _bettor(name) for name in ("cautious", "bold")}
    policies["default"] = policies["cautious"]

    @classmethod
    def loaded_params(cls, params: DuelParams, data: dict[str, Any]) -> DuelParams:
        """A version 2 or 3 document replays as it was made: its winnings were what was won from the other."""
        given = data.get("params")
        if data.get("version") in (2, 3) and not (isinstance(given, dict) and "winnings" in given):
            return replace(params, winnings="won")
        return params

    def new_state(self) -> DuelState:
        return DuelState()

    def __init__(self, params: DuelParams, seed: int, table: bool = False, secret: bytes | None = None) -> None:
        super().__init__(params, seed, table, secret)
        self._bettor = None if params.human else AutoBettor(params.style)

    def start(self) -> None:
        # seated before the deal: in table mode, while the hole cards are entered, the duel so far is shown
        self.state.duel = poker.seated(self.params.stakes)
        poker.deal(self.state.duel, self.roller, self.state.deck)

    def ai(self, seat: int) -> AutoBettor | None:
        """The AI bettor, at the second duellist's seat (unless a second person bets there)."""
        return self._bettor if seat == AI_SEAT else None

    @property
    def over(self) -> bool:
        return self.state.duel is not None and self.state.duel.over

    def rule_choices(self) -> list[Choice]:
        assert self.state.duel is not None
        return [Choice(a.id, a.message, {"kind": "bet", "amount": a.amount, "cost": a.cost})
                for a in poker.actions(self.state.duel)]

    def two_people(self) -> bool:
        return self.params.human

    def seat_to_act(self) -> int | None:
        duel = self.state.duel
        if duel is not None and not duel.over and duel.to_act is not None:
            return duel.to_act
        return super().seat_to_act()

    def question(self) -> Word | None:
        duel = self.state.duel
        if duel is None or duel.over:
            return None
        seat = duel.to_act if self.params.human and duel.to_act is not None else PLAYER
        about = {"street": word(f"duel.street.{duel.street}"), "pot": duel.pot, "stack": duel.stacks[seat],
                 "to_call": max(duel.bets) - duel.bets[seat]}
        return word("duel.seat_turn", seat=seat + 1, **about) if self.params.human else word("duel.your_turn", **about)

    def apply(self, choice: Choice) -> None:
        assert self.state.duel is not None
        poker.act(self.state.duel, choice.id, self.roller, self.state.deck)

    def log_entry(self, entry: Any) -> Any:
        """The AI's hole cards stay face down in the log until the duel is over (between two people the
        document is the GM's: each seat's view hides the other's, `shown_log`); each duellist named as the
        table names it."""
        entry = hide_hole_cards(entry, AI_SEAT) if not self.over and not self.params.human else entry
        if self.params.human:
            seats = (word("render.duel.other", seat=1), word("render.duel.other", seat=2))
            return named(entry, seats, seats)
        return named(entry, (word("render.duel.you"), word("render.duel.ai")),
                     (word("duel.name.you"), word("duel.name.ai")))

    def only_its_choice(self, entries: list[Any]) -> bool:
        """A bet's own entry: what the one seat did (the AI's answer, or a card dealt, is more)."""
        bettors = {entry.get("args", {}).get("seat") for entry in entries}
        return len(bettors) <= 1 and all(str(entry.get("note", "")).startswith("duel.did.") for entry in entries)

    def has_secrets(self) -> bool:
        return True  # the other duellist's hole cards (and an AI's bluff rolls), until the duel is over

    def shown_log(self, entries: list[Any], seat: int = PLAYER) -> list[Any]:
        """Without the other's bluff rolls (even one that missed tells its hand is weak) and with its hole
        cards face down (against the AI, `log_entry` has already turned them)."""
        hidden = self._others(seat)
        shown = []
        for entry in entries:
            if not any(is_bluff(entry, other) for other in hidden):
                for other in hidden:
                    entry = hide_hole_cards(entry, other)
                shown.append(entry)
        return shown

    def shown_result(self, result: dict[str, Any], seat: int = PLAYER) -> dict[str, Any]:
        """The other's hole cards face down (its best five and its hand are only known at the showdown,
        which ends the duel)."""
        hole = result["duel"]["hole"]
        for other in self._others(seat):
            hole = face_down(hole, other)
        return {**result, "duel": {**result["duel"], "hole": hole}}

    def _others(self, seat: int) -> tuple[int, ...]:
        """The seats whose secrets `seat` may not see: the other's (the AI's against it); both for a
        spectator."""
        if seat == SPECTATOR:
            return (PLAYER, AI_SEAT)
        return (1 - seat,) if self.params.human else (AI_SEAT,)

    def result_json(self) -> dict[str, Any]:
        duel = self.state.duel
        assert duel is not None
        winnings = poker.winnings(duel, self.params.winnings)
        fame, left = poker.spend(winnings, winnings // poker.FAME_PRICE)
        return dump(DuelResult(duel.table(), PLAYER, fame, left))


    @classmethod
    def params_from_json(cls, data: Any) -> DuelParams:
        if data is None:
            return DuelParams()
        if not isinstance(data, dict):
            raise DedaleError("error.bad_document", field="params")
        return DuelParams(**{k: v for k, v in data.items() if k in DuelParams.__dataclass_fields__})


DuelSession = Session[DuelRules]  # a duel: `Session(DuelRules, params, seed)`


def load_duel(document: Any) -> dict[str, Any]:
    """A duel document checked enough to be drawn: its result is a `DuelResult`."""
    if not isinstance(document, dict):
        raise DedaleError("error.bad_document", field="document")
    load_result(DuelResult, document)
    return document


def named(entry: Any, names: tuple[Word, Word], within: tuple[Word, Word]) -> Any:
    """A duel's log entry with its duellists' names: `who` (a sentence's start) and `whom` (within one) for its
    `seat`, `who0` and `who1` for both; as they are shown, one way in the log, on the table and in the status."""
    args = entry.get("args")
    key = str(entry.get("note") or entry.get("for") or "")
    if not key.startswith("duel.") or not isinstance(args, dict):
        return entry
    more: dict[str, Word] = {"who0": names[0], "who1": names[1]}
    seat = args.get("seat")
    if seat in (0, 1) and not isinstance(seat, bool):
        more.update(who=names[seat], whom=within[seat])
    return {**entry, "args": {**args, **more}}


def hide_hole_cards(entry: Any, seat: int) -> Any:
    """A log entry as a player may see it: a hole card dealt to `seat` shows as ??."""
    if entry.get("for") == "duel.hole" and entry.get("args", {}).get("seat") == seat and "draw" in entry:
        return {**entry, "draw": HIDDEN_CARD}
    return entry


def is_bluff(entry: Any, seat: int) -> bool:
    """The log entry is the bluff roll of the AI bettor at `seat`."""
    return entry.get("for") == "duel.bluff" and entry.get("args", {}).get("seat") == seat


def face_down(hole: list[list[str]], seat: int) -> list[list[str]]:
    """The hole cards (as codes) with those of `seat` shown as ??."""
    return [[HIDDEN_CARD] * len(cards) if index == seat else cards for index, cards in enumerate(hole)]


class DuelResult(Shape):
    """A duel document's own fields."""

    duel: poker.DuelTable
    player: Annotated[Literal[0, 1], Meta(description=(
        "The seat the table is seen from: 0, the player's (1: the other person's, in a duel between two)"))]
    fame_points: Annotated[int, Meta(ge=0, description="The Fame points the winnings buy, at $7 each")]
    left: Annotated[int, Meta(ge=0, description="The dollars of the winnings left once they are bought")]


DOCUMENT = DocumentKind(
    DuelResult, title="Dédale poker duel",
    description="Zombstone's poker duel: one deal of heads-up no-limit Texas Hold'em between the player (seat 0) and "
                "an AI duellist (seat 1): the stakes, the cards, every bet, the pot and who won it (and shoots "
                "first), what the winnings buy at $7 a Fame point, the events and the log.",
    versions={1: "the winnings counted the whole pot",
              2: "the winnings are what the winner won from the other (version 1 counted the whole pot)",
              3: "the log names the duellists as the table does (You and the AI, or Player 1 and Player 2); a "
                 "version-2 document loads, checked without its log's words",
              4: "the winner takes the stakes: the winnings are the whole pot, as the text says (`winnings` \"won\": "
                 "what the winner won from the other, as versions 2 and 3 read them, which load so)",
              5: DECISIONS_ARE_EVENTS + " (the AI's bets, with its bluff rolls)"},
    envelope={"seed": {"description": "null in a seat's view made during play (\"hidden\": true): the seed "
                                      "remakes every card it hides"},
              "hidden": {"description": "true: a seat's view made during play, for reading and drawing; it cannot "
                                        "be continued (the other's hole cards show as ??, an AI's bluff rolls "
                                        "are left out of the log)"}})

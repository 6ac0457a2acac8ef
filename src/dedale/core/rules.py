"""What a system's author writes: its rules, and nothing else. `Rules[P, S]` says what a state starts as, the
legal choices now, what a choice does, when the game is over and what its result is; the one generic session
(`core.session.Session`) plays them: events, replay, undo, table mode, seats and JSON.

Two parts are optional, each a mixin the rules opt into and the session checks for:

- `Secrets`: the rules keep something from a seat during play (an AI's or the other seat's cards, bluff
  rolls, hidden tokens: the Zombstone duel and skirmish), and say how each seat sees their log and result;
- `Suspends`: the rules run as a generator that pauses itself when a result must be entered at the table
  (the skirmish), so the session sends it that result instead of running the action again in full.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from dedale.core.params import Declared
from dedale.core.rng import LogEntry, Request, Roller
from dedale.i18n import Word, say

SPECTATOR = -1  # a seat that plays no side: it sees what neither seat could keep secret


@dataclass(frozen=True)
class Choice:
    """A legal choice: a stable `id`, what it says (a message: `i18n.word(key, **args)`), and `data` saying
    what it points at (for UIs). `label(lang)` words it for a face.

    >>> from dedale.i18n import word
    >>> reroll = Choice("reroll", word("crawler.choice.reroll"), {"kind": "reroll"})
    >>> reroll.label("en"), reroll.label("fr")
    ('Reroll the D8', 'Relancer le D8')

    The message may be given as a function, called only when the message is read: rules list many choices
    at every step, and an autopilot reads none of their messages but the one it picks (for the log)."""

    id: str
    says: Word | Callable[[], Word]
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> Word:
        return self.says() if callable(self.says) else self.says

    def label(self, lang: str = "en") -> str:
        return say(self.message, lang)


class Policy(Protocol):
    """Makes a seat's choices, given the session (its rules are `session.rules`): an autopilot making the
    player's in batch runs, or an AI opponent (`Rules.ai`). Any randomness it draws comes from the session's
    roller, and is recorded with the decision (its log entries, which a replay draws again: they are the
    session's own rolls, in their place), so that a replay never asks a policy again."""

    name: str

    def choose(self, session: Any) -> str: ...


Policies = dict[str, Callable[[Any], Policy]]  # a policy's name -> what makes it for a session


@dataclass
class State:
    """What every system's state has: the run's log."""

    # Entries as the roller writes them, or records of a system's own (a hexcrawl hex: see `Rules.log_entry`)
    log: list[Any] = field(default_factory=list)


P = TypeVar("P", bound=Declared)
S = TypeVar("S", bound=State)


class Rules(ABC, Generic[P, S]):
    """A system's rules, played by a `Session[TheseRules]`. The session makes them with the game's `params`,
    `seed`, table mode (`table`) and secret key (`secret`), then gives them their `state` (`new_state()`) and
    the `roller` every result is drawn from; rules that prepare something once from their parameters (their
    tables) extend `__init__`. Everything the game holds that a replay must rebuild is in `state`: in table
    mode the session keeps a copy of it while a result is awaited, and puts it back to run the action again.
    """

    system: ClassVar[str]
    version: ClassVar[int] = 1
    # Earlier versions whose documents still load, when only the log's words changed since (a message, its
    # arguments): they are checked without those, as documents that kept words in a language are.
    worded_before: ClassVar[tuple[int, ...]] = ()
    # Earlier versions whose documents still load, with some result fields worked out anew by the replay (an
    # analysis since made exact, what winnings buy): those are not checked against the saved ones.
    recomputed_before: ClassVar[dict[int, tuple[str, ...]]] = {}
    table_mode: ClassVar[bool] = True  # False: the rules draw what no table can (a weighted pick among thousands)
    policies: ClassVar[Policies] = {}

    state: S  # given by the session, as soon as `new_state` has made it
    roller: Roller  # given by the session: every roll and draw, logged in `state.log`

    def __init__(self, params: P, seed: int, table: bool = False, secret: bytes | None = None) -> None:
        self.params = params
        self.seed = seed
        self.table = table
        self.secret = secret

    # --- what each system provides -------------------------------------------------------------
    @abstractmethod
    def new_state(self) -> S:
        """The game's state before anything is rolled.

        Returns:
            A new `State` (its `log` empty); the session gives it to the rules as `state`.
        """

    @abstractmethod
    def start(self) -> None:
        """Roll what the rules roll before the first choice, with `self.roller`, into `self.state`."""

    @abstractmethod
    def rule_choices(self) -> list[Choice]:
        """The legal choices in the current state (never called once the game is over).

        Returns:
            Each with an id unique among them, the same ids for the same state (events record them).
        """

    @abstractmethod
    def apply(self, choice: Choice) -> None:
        """Apply a legal choice and roll what the rules roll after it.

        Args:
            choice: one of `rule_choices()` (the session has checked it), or of `find_choice`.

        Raises:
            DedaleError: only for what the rules refuse that the choices could not say beforehand.
        """

    @property
    @abstractmethod
    def over(self) -> bool:
        """Whether the game has ended: no choice is asked any more."""

    @abstractmethod
    def result_json(self) -> dict[str, Any]:
        """The result's own fields of the JSON document.

        Returns:
            Its fields (rooms, doors, ...), ids and message keys, never words: the document is free of language
            and follows the system's `document` shapes.
        """

    @classmethod
    @abstractmethod
    def params_from_json(cls, data: Any) -> P:
        """The parameters as a document saved them.

        Args:
            data: the document's `params`.

        Returns:
            The system's parameters.

        Raises:
            DedaleError: a field unknown or out of range, named.
        """

    # --- what a system may provide -------------------------------------------------------------
    @classmethod
    def loaded_params(cls, params: P, data: dict[str, Any]) -> P:
        """A checked document's parameters as its rules played them: a document of an earlier version replays
        as it was made (what it did then, kept as a parameter since). Called by `Session.check_document`."""
        return params

    def upgraded(self, data: dict[str, Any]) -> dict[str, Any]:
        """A loaded document, given the fields added to its result since it was saved (with no new version),
        from this replay of it, so that the rest is checked as usual."""
        return data

    def log_entry(self, entry: Any) -> LogEntry:
        """A log entry as JSON. Systems with huge logs may keep records of their own in the log (a hexcrawl
        hex) and say here how each reads."""
        return entry

    def question(self) -> Word | None:
        """What the current choice is about (a message), when the choices alone do not say it."""
        return None

    def two_people(self) -> bool:
        """Whether two people play this game against each other, one a seat (seats 0 and 1)."""
        return False

    def ai(self, seat: int) -> Policy | None:
        """The AI that decides for `seat` (an opponent the rules provide: the skirmish's other side, the duel's
        bettor), or None when a person does. The session asks it whenever that seat is to act and records its
        decision as an event of the seat; a replay applies the recorded decision and never asks it again."""
        return None

    def seat_to_act(self) -> int | None:
        """The seat whose choice it is now (0 or 1): asked only while the game is on and no result is to be
        entered at the table (seat 0's, as every choice of a game with one player)."""
        return 0

    def find_choice(self, choice_id: str) -> Choice | None:
        """The legal choice with this id, or None. Rules whose choices are many may find one without listing
        them all (the autopilot names its choice; validating it should not cost a full list)."""
        return next((choice for choice in self.rule_choices() if choice.id == choice_id), None)


class Secrets(ABC):
    """Rules that keep something from a seat during play: an AI's or the other person's cards, bluff rolls,
    hidden tokens (the Zombstone duel and skirmish). While the session hides something from a seat (not in
    table mode, not once over, and only when `has_secrets()`), what that seat is shown is masked; the document
    stays the GM's. Seats 0 and 1 each see their own secrets and not the other's; `SPECTATOR` sees neither.

    Undo is bounded too: the same choices draw and show the same again, so an event that did more than make
    its choice (it drew a result, another seat or the AI moved, the rules showed something, the game ended)
    is never undone, nor any before it (`Session.undo_floor`)."""

    @abstractmethod
    def has_secrets(self) -> bool:
        """Whether, with its parameters, the game keeps anything from a seat (an AI's hand, the other side's)."""

    @abstractmethod
    def shown_log(self, entries: list[LogEntry], seat: int = 0) -> list[LogEntry]:
        """Log entries (as `log_entry` gives them) as `seat` may see them now (`SPECTATOR`: what neither seat
        could keep secret): masked, or left out. Called only while something is hidden from `seat`."""

    @abstractmethod
    def shown_result(self, result: dict[str, Any], seat: int = 0) -> dict[str, Any]:
        """`result_json()` as `seat` may see it now; called only while something is hidden from it. The result
        may share lists with the state: return a changed copy, never change it."""

    def shown_events(self, events: list[dict[str, Any]], seat: int = 0) -> list[dict[str, Any]]:
        """The events as `seat` may see them now (called only while something is hidden from it): as they are,
        unless a choice's id names something hidden."""
        return events

    def only_its_choice(self, entries: list[Any]) -> bool:
        """Whether the log entries an event added after its choice's own say only that the choice was made:
        no other move, nothing shown (undo). Rules that log their choices' effects say which those are."""
        return not entries


class Suspends(ABC):
    """Rules that suspend themselves: a generator that pauses at each of the player's decisions and, in table
    mode, at each roll or card nobody has entered. The session then neither keeps a copy of the state nor
    runs the action again: it sends the rules the result entered (`enter`), and rebuilds a game by replaying
    its events when an event fails (a generator cannot be rewound)."""

    @abstractmethod
    def waiting(self) -> Request | None:
        """The result the rules wait for at the table, if any."""

    @abstractmethod
    def enter(self, value: str) -> None:
        """Go on with a result entered at the table."""

"""The session protocol every system follows, and the autopilot policy interface.

A session is a state, the legal choices now, and a step that applies one choice and rolls what the rules
roll. It is replayable from its seed, its parameters and its list of events:

- `{"choice": id}`: a choice the player made; `{"choice": id, "seat": 1}` when the face says which seat
  made it (two people at one game: seats 0 and 1), which the rules ignore but `step` checks;
- `{"auto": policy, "choice": id}`: a choice an autopilot policy made (replay runs the policy again, on
  the same random source, and checks it makes the same choice);
- `{"enter": value}`: in table mode, a result the player rolled or drew at the table.

A game may also have a secret key (`secret`, 256 bits): its results are then drawn from the seed and the key
(`rng.KeyedStream`), and nobody can work them out without the key, which no view shows while the rules hide
something (`docs/secrets.md`).

Undo is a replay without the last event (in a game that keeps secrets from a seat, only of choices after
which nothing else happened: no result drawn, no other move, nothing shown; `undo`). In table mode, when the
rules need a result nobody has entered, the action in progress is rolled back and `pending` says what to
enter; `choices()` then lists the possible results (`enter:1` ... `enter:8`) and entering the last one
needed completes the action.

A session has no language: what it says (its choices, its questions, its log) it keeps as words
(`i18n.word`), a message key and its arguments, worded by the faces in the reader's language; the same
seed and events give the same document whoever plays them.
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from dedale.core.errors import DedaleError
from dedale.core.params import Declared
from dedale.core.rng import LogEntry, NeedInput, Request, Roller, SeededSource, TableSource, check_secret
from dedale.i18n import Word, say, word

Event = dict[str, Any]
ENTER = "enter:"
SPECTATOR = -1  # a seat that plays no side: it sees what neither seat could keep secret


def check_format(data: Any, system: str) -> dict[str, Any]:
    """`data` is a JSON document of `system` ("format": "dedale/SYSTEM"), or a clear error."""
    if not isinstance(data, dict) or data.get("format") != f"dedale/{system}":
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise DedaleError("error.format", expected=f"dedale/{system}", found=found)
    return data


@dataclass(frozen=True)
class Choice:
    """A legal choice: a stable `id`, what it says (a message: `i18n.word(key, **args)`), and `data` saying
    what it points at (for UIs). `label(lang)` words it for a face.

    >>> from dedale.i18n import word
    >>> reroll = Choice("reroll", word("crawler.choice.reroll"), {"kind": "reroll"})
    >>> reroll.label("en"), reroll.label("fr")
    ('Reroll the D8', 'Relancer le D8')

    The message may be given as a function, called only when the message is read: sessions list many
    choices at every step, and an autopilot reads none of their messages but the one it picks (for the
    log)."""

    id: str
    says: Word | Callable[[], Word]
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> Word:
        return self.says() if callable(self.says) else self.says

    def label(self, lang: str = "en") -> str:
        return say(self.message, lang)


class Policy(Protocol):
    """Makes the player's choices in batch runs, drawing any randomness from the session's roller."""

    name: str

    def choose(self, session: Any) -> str: ...


Policies = dict[str, Callable[[Any], Policy]]  # a policy's name -> what makes it for a session


@dataclass
class State:
    """What every system's state has: the run's log."""

    # Entries as the roller writes them, or records of a system's own (a hexcrawl hex: see `Session.log_entry`)
    log: list[Any] = field(default_factory=list)


P = TypeVar("P", bound=Declared)
S = TypeVar("S", bound=State)


@dataclass(frozen=True)
class Faces:
    """How a session shows itself outside its rules: as a result to draw (`dedale.Result`) and as its live
    picture. The library sets `Session.faces` (`dedale`'s `__init__`, which any import of a session runs
    first): the rules know no face, registry or API."""

    result: Callable[[Session[Any, Any]], Any]
    picture: Callable[[Session[Any, Any]], str]


class Session(ABC, Generic[P, S]):
    """A game in progress: its state, the legal choices now, and `step` to make one. Each system's session
    implements the rules; this class is the protocol they share (replay, undo, table mode, JSON, what
    each seat may see). A system's session names its parameters and state types, `Session[CrawlerParams,
    CrawlerState]`, which `params` and `state` then have.

    >>> import dedale
    >>> crawl = dedale.play("crawler", seed=4)
    >>> [choice.id for choice in crawl.choices()][:2]
    ['place:10,23,5,2', 'place:10,20,2,5']
    >>> crawl.step("place:10,20,2,5")
    >>> crawl.log[-1]["choice"]
    'place:10,20,2,5'
    >>> crawl.undo()
    >>> crawl.auto_step()
    >>> crawl.events
    [{'auto': 'default', 'choice': 'place:10,20,2,5'}]
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
    faces: ClassVar[Faces]  # set by the library (`dedale`): `result()` and the Jupyter picture

    def __init__(self, params: P, seed: int, table: bool = False, secret: bytes | None = None) -> None:
        if table and not self.table_mode:
            raise DedaleError("error.no_table_mode", system=self.system)
        self.params = params
        self.seed = seed
        self.table = table
        self.secret = None if table else secret
        self.events: list[Event] = []
        self.undo_floor = 0  # the events undo may not go below (`core.hiding`: the last that showed more)
        self.pending: Request | None = None
        self._source: SeededSource | TableSource = TableSource() if table else SeededSource(seed, self.secret)
        self.state = self.new_state()
        self.roller = Roller(self._source, self.state.log)
        self._pending_action: tuple[Any, ...] | None = None
        self._snapshot: S | None = None  # table mode: the state before the pending action
        self._choices: list[Choice] | None = None
        self._run(("start",))

    # --- what each system provides -------------------------------------------------------------
    @abstractmethod
    def new_state(self) -> S: ...

    @abstractmethod
    def start(self) -> None:
        """Roll what the rules roll before the first choice."""

    @abstractmethod
    def rule_choices(self) -> list[Choice]:
        """The legal choices in the current state (never called once the session is over)."""

    @abstractmethod
    def apply(self, choice: Choice) -> None:
        """Apply a legal choice and roll what the rules roll after it."""

    @property
    @abstractmethod
    def over(self) -> bool: ...

    @abstractmethod
    def result_json(self) -> dict[str, Any]:
        """The result's own fields of the JSON document (rooms, doors, ...)."""

    @classmethod
    @abstractmethod
    def params_from_json(cls, data: Any) -> P: ...

    # --- the protocol --------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.pending is None and self.over

    @property
    def log(self) -> list[Any]:
        return self.state.log

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

    def seat_to_act(self) -> int | None:
        """The seat whose choice it is now (0 or 1), None once the session is over. A game with one player
        is seat 0's; so is a result to enter at the table (table mode)."""
        return None if self.is_over else 0

    def has_secrets(self) -> bool:
        """Whether the rules keep anything from a seat during play (an AI's or the other seat's cards, bluff
        rolls, hidden tokens). Most systems keep nothing; one that does is a `core.hiding.Hiding`."""
        return False

    def choices(self) -> list[Choice]:
        if self.pending is not None:
            return [Choice(ENTER + option, word("log.option", value=option), {"kind": "enter"})
                    for option in self.pending.options]
        if self._choices is None:
            self._choices = [] if self.over else self.rule_choices()
        return self._choices

    def find_choice(self, choice_id: str) -> Choice | None:
        """The legal choice with this id, or None. Systems whose choices are many may find one without
        listing them all (the autopilot names its choice; validating it should not cost a full list)."""
        return next((choice for choice in self.rule_choices() if choice.id == choice_id), None)

    def choice(self, choice_id: str) -> Choice:
        if self.pending is None and self._choices is None and not self.over:
            found = self.find_choice(choice_id)
        else:
            found = _with_id(self.choices(), choice_id)
        if found is not None:
            return found
        if self.is_over:
            raise DedaleError("error.session_over")
        ids = [choice.id for choice in self.choices()]
        shown = ", ".join(ids[:8]) + (f", ... ({len(ids)} in all)" if len(ids) > 8 else "")
        raise DedaleError("error.choice", value=choice_id, accepted=shown)

    def step(self, choice: str | Choice, seat: int | None = None) -> None:
        """Make a legal choice (one of `choices()`, or its id) and roll what the rules roll after it.

        With `seat`, the choice is that seat's: refused unless it is `seat_to_act()`, and kept in the event."""
        seated = self._seated(seat)
        choice = self.choice(choice.id if isinstance(choice, Choice) else choice)
        if self.pending is not None:
            value = choice.id.removeprefix(ENTER)
            assert isinstance(self._source, TableSource) and self._pending_action is not None
            self._source.entries.append(value)
            self._record({"enter": value, **seated}, self._pending_action)
        else:
            self._record({"choice": choice.id, **seated}, ("choice", choice))

    def _seated(self, seat: int | None) -> Event:
        """What an event says of the seat that made it (nothing when no seat is given), once it is known to
        be the seat to act."""
        if seat is None:
            return {}
        if not self.is_over and seat != self.seat_to_act():
            raise DedaleError("error.not_your_turn", seat=self.seat_to_act())
        return {"seat": seat}

    def auto_step(self, policy: Policy | str | None = None, expect: str | None = None) -> None:
        """Let an autopilot policy (or its name) make the current choice (table mode may then ask for its dice).

        With `expect` (a replay), the policy must make that choice again.
        """
        if self.pending is not None:
            raise DedaleError("error.autopilot_pending")
        if self.is_over:
            raise DedaleError("error.session_over")
        self._auto(self._policy(policy), expect)

    def _policy(self, policy: Policy | str | None) -> Policy:
        """The policy given, or the one its name names (None: the rules' own, "default")."""
        if policy is None or isinstance(policy, str):
            return self.autopilot("default" if policy is None else policy)
        return policy

    def _auto(self, policy: Policy, expect: str | None = None) -> None:
        event: Event = {"auto": policy.name}
        if expect is not None:
            event["choice"] = expect
        self._record(event, ("auto", policy, event))

    def _record(self, event: Event, action: tuple[Any, ...]) -> None:
        """Append `event` and run its action; if that fails, the session is as it was before."""
        self.events.append(event)
        watched = self._watch()
        try:
            self._run(action)
        except BaseException:
            self.events.pop()
            self._recover(event)
            raise
        if watched is not None:
            self._watched(watched)

    def _watch(self) -> Any:
        """What to compare once an event has run, to tell what it showed (None: nothing to watch; a session
        that keeps secrets watches: `core.hiding`)."""
        return None

    def _watched(self, before: Any) -> None:
        """The event has run; `before` is what `_watch` gave before it."""

    def _recover(self, event: Event) -> None:
        """After `event` failed (and was dropped), the session as it was before it."""
        if isinstance(self._source, TableSource):
            del self._source.entries[len(self._source.entries) - ("enter" in event):]
        else:  # the state may be half-changed: rebuild it
            self.__dict__.update(self.remade(self.events).__dict__)

    def autopilot(self, name: str = "default") -> Policy:
        if name not in self.policies:
            raise DedaleError("error.policy", value=name, system=self.system, accepted=", ".join(self.policies))
        return self.policies[name](self)

    def run_autopilot(self, policy: Policy | str | None = None, max_steps: int = 10_000) -> Self:
        """Let an autopilot policy (a `Policy`, or its name: "default" is the rules' own; each system documents
        its others) make every choice until the session is over or asks for a result to enter.

        >>> import dedale
        >>> dedale.play("zombstone", seed=4, side=None).run_autopilot("aggressive").is_over
        True
        """
        policy = self._policy(policy)
        for _ in range(max_steps):
            if self.pending is not None or self.over:  # auto_step's checks, once a step
                break
            self._auto(policy)
        return self

    def undo(self) -> None:
        """Forget the last event by replaying the others. In a game that keeps secrets from a seat, an event
        that did more than make its choice is never undone, nor any before it (`_shown_more`): the same
        choices again would draw and show the same (the turn and river seen, then a bet made again knowing
        them; the AI's cards shown at the end, then the game played again from the start)."""
        if not self.events:
            raise DedaleError("error.nothing_to_undo")
        if len(self.events) <= self.undo_floor:
            raise DedaleError("error.undo_secret")
        self.__dict__.update(self.remade(self.events[:-1]).__dict__)

    def remade(self, events: list[Event]) -> Self:
        """This game (its parameters, seed, table mode and key) replayed through `events`."""
        return type(self).replay(self.params, self.seed, events, self.table, self.secret)

    # --- running an action ---------------------------------------------------------------------
    def _run(self, action: tuple[Any, ...]) -> None:
        """Run an action. In table mode, when a result is missing, keep the state as far as the rules got
        (so the player sees the rolls so far) and the state before the action, to run it again in full
        once the result is entered."""
        snapshot = None
        if isinstance(self._source, TableSource):
            self._source.pos = 0
            if self._pending_action is action and self._snapshot is not None:
                snapshot = self._snapshot
                self._restore(copy.deepcopy(snapshot))
            else:
                snapshot = copy.deepcopy(self.state)
        self._choices = None
        try:
            self._perform(action)
        except NeedInput as need:
            self.pending, self._pending_action, self._snapshot = need.request, action, snapshot
            self._choices = None
            return
        except BaseException:
            if snapshot is not None:
                self._restore(snapshot)
            raise
        self.pending = self._pending_action = self._snapshot = None
        self._choices = None
        if isinstance(self._source, TableSource):
            self._source.entries.clear()

    def _restore(self, snapshot: S) -> None:
        self.state = snapshot
        self.roller = Roller(self._source, snapshot.log)
        self._choices = None

    def _perform(self, action: tuple[Any, ...]) -> None:
        if action[0] == "start":
            self.start()
            return
        if action[0] == "choice":
            choice, by = action[1], "player"
        else:
            policy, event = action[1], action[2]
            choice = self.choice(policy.choose(self))
            if event.setdefault("choice", choice.id) != choice.id:
                raise DedaleError("error.replay_mismatch", event=len(self.events))
            by = policy.name
        message = choice.message  # the choice's words as a message key and its arguments, never text
        entry: LogEntry = {"choice": choice.id, "key": message["t"]}
        if "args" in message:
            entry["args"] = message["args"]
        entry["by"] = by
        self.state.log.append(entry)
        self.apply(choice)

    # --- what a seat may see ----------------------------------------------------------------
    # The faces ask every session what a seat may see (seat 0 unless a face says otherwise; `SPECTATOR`, one
    # who watches): all of it, unless the rules keep something from a seat (`core.hiding.Hiding`).
    def hides(self, seat: int = 0) -> bool:
        """True while something is hidden from `seat` (never, in a session that keeps no secrets)."""
        return False

    def seat_log(self, start: int = 0, seat: int = 0) -> list[LogEntry]:
        """The log from entry `start` on as `seat` may see it now, each entry as `log_entry` gives it."""
        return [self.log_entry(entry) for entry in self.log[start:]]

    def seat_seed(self, seat: int = 0) -> int | None:
        """The seed, unless it would give away what is hidden from `seat`."""
        return self.seed

    def seat_result(self, seat: int = 0) -> dict[str, Any]:
        """`result_json()` as `seat` may see it now."""
        return self.result_json()

    def seat_json(self, seat: int = 0) -> dict[str, Any]:
        """The document as `seat` may see it: `to_json()`, when nothing is hidden."""
        return self.to_json()

    # --- JSON and pictures ----------------------------------------------------------------------
    def result(self) -> Any:
        """The document as it stands, as a `dedale.Result` to draw or save (what seat 0 may see while the
        rules hide something)."""
        return Session.faces.result(self)

    def __repr__(self) -> str:
        """What a notebook prints: the system, the seed, the steps made, and whether it is over."""
        where = ", over" if self.is_over else ", a result to enter" if self.pending else ""
        return f"<dedale {self.system} session seed={self.seed} step {len(self.events)}{where}>"

    def _repr_svg_(self) -> str:
        """Its live picture in Jupyter."""
        return Session.faces.picture(self)

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "format": f"dedale/{self.system}",
            "version": self.version,
            "generator": self.system,
            "seed": self.seed,
            **({} if self.secret is None else {"secret": self.secret.hex()}),
            "params": self.params.to_json(),
            "table_dice": self.table,
            "over": self.is_over,
            **self.result_json(),
            "events": self.events,
            "log": [self.log_entry(entry) for entry in self.log],
        }
        if self.pending is not None:
            document["pending"] = {"kind": self.pending.kind, "for": self.pending.purpose,
                                   "roll": self.pending.expr, "options": list(self.pending.options)}
        return document

    @classmethod
    def replay(cls, params: P, seed: int, events: list[Event], table: bool = False,
               secret: bytes | None = None) -> Self:
        return cls(params, seed, table, secret).extend(events)

    def extend(self, events: list[Event]) -> Self:
        """Play recorded events on from where the session is (a replay, or a session catching up with the
        events another process recorded): each must be legal, as it was when it was recorded."""
        for number, event in enumerate(events, len(self.events) + 1):
            try:
                seat = event.get("seat")
                if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
                    raise TypeError
                if "enter" in event:
                    self.step(ENTER + str(event["enter"]), seat)
                elif "auto" in event:
                    expect = event.get("choice")
                    self.auto_step(self.autopilot(str(event["auto"])), None if expect is None else str(expect))
                else:
                    self.step(str(event["choice"]), seat)
            except (KeyError, TypeError, AttributeError):
                raise DedaleError("error.bad_event", event=number) from None
            except DedaleError as exc:
                if exc.key == "error.replay_mismatch":
                    raise
                raise DedaleError("error.event_rejected", event=number, reason=exc.as_word()) from None
        return self

    @classmethod
    def check_document(cls, data: Any) -> P:
        """A document of this system and version, with a seed and a list of events (not a view: a seat's, the
        party's): its parameters (nothing replayed yet, so that a caller may refuse them first)."""
        check_format(data, cls.system)
        if data.get("hidden"):  # the party view ("player" before it was so named), or a seat's
            raise DedaleError("error.party_view_kept" if data.get("view") in ("party", "player")
                              else "error.hidden_view")
        version = data.get("version")
        if version != cls.version and version not in cls.worded_before and version not in cls.recomputed_before:
            raise DedaleError("error.version", found=data.get("version"), supported=cls.version)
        seed, events = data.get("seed"), data.get("events")
        if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(events, list):
            raise DedaleError("error.bad_document", field="seed" if not isinstance(seed, int) else "events")
        if not all(isinstance(event, dict) for event in events):
            raise DedaleError("error.bad_document", field="events")
        if "secret" in data:
            check_secret(data["secret"])
        return cls.params_from_json(data.get("params"))

    @staticmethod
    def secret_of(data: dict[str, Any]) -> bytes | None:
        """A checked document's secret key, if it has one."""
        return check_secret(data["secret"]) if "secret" in data else None

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """Rebuild a session from its JSON by replaying its events, and check it matches what was saved.

        A document saved before documents were free of language carries its `lang` and kept words as text
        (labels, names, a log's arguments): it is checked without the fields that held words; so is a
        document of a version whose log said things in other words (`worded_before`)."""
        params = cls.check_document(data)
        session = cls.replay(params, data["seed"], data["events"], bool(data.get("table_dice", False)),
                             cls.secret_of(data))
        recomputed = cls.recomputed_before.get(data.get("version"), ())
        saved = {key: data[key] for key in ("log", *session.result_json()) if key in data and key not in recomputed}
        replayed = json.loads(json.dumps(session.to_json()))
        old = "lang" in data or data.get("version") in cls.worded_before
        for key, value in saved.items():
            if (_unworded(replayed[key], key) != _unworded(value, key)) if old else replayed[key] != value:
                raise DedaleError("error.save_mismatch", field=key)
        return session


def _with_id(choices: list[Choice], choice_id: str) -> Choice | None:
    for choice in choices:
        if choice.id == choice_id:
            return choice
    return None


# Fields that held text in the player's language in documents older than language-free ones.
_WORDED = frozenset({"label", "vegetation_label", "name", "key", "args", "decided"})


def _unworded(value: Any, key: str = "") -> Any:
    """`value` without the fields that hold words; a log without its notes (they roll nothing: only words)."""
    if key == "log" and isinstance(value, list):
        return [_unworded(entry) for entry in value if not (isinstance(entry, dict) and "note" in entry)]
    if isinstance(value, dict):
        return {key: _unworded(item) for key, item in value.items() if key not in _WORDED}
    if isinstance(value, list):
        return [_unworded(item) for item in value]
    return value

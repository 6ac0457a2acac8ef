"""The generic session, final: it plays any system's rules (`core.rules.Rules`) and does the rest: events,
replay, undo, table mode, seats, JSON and what each seat may see. `Session[CrawlerRules]` is a crawler game;
`session.rules` its rules, typed.

A session is a state, the legal choices now, and a step that applies one choice and rolls what the rules
roll. A game is its document: its seed (the whole of its randomness, `core.seeds`), its parameters and its
events, every decision whoever made it, each with the seat that made it in a game of more than one:

- `{"choice": id}`: a choice a person made (`"seat": 1`: made by seat 1, in a game of two seats);
- `{"choice": id, "by": policy}`: a choice an autopilot or an AI opponent made (`Rules.ai`), with what it
  drew to decide (`"drew"`: its log entries, rolls of the session's own roller, in their place);
- `{"enter": value}`: in table mode, a result the player rolled or drew at the table.

Replay applies the recorded decisions and draws again what they drew, from the same stream in the same place;
it never asks a policy or an AI again, so either may change without breaking a saved game. (A document saved
before decisions were events has `{"auto": policy}` events and AI decisions left out: its replay asks today's
policies for those, once, and checks the game against what was saved.) A live session lets an AI decide
whenever its seat is to act, after every step.

Undo is a replay without the last decision a person made (and the AIs' that followed it); in a game whose rules
keep secrets from a seat (`core.rules.Secrets`), only of a choice after which nothing else happened: no
result drawn, no other move, nothing shown (`undo`). In table mode, when the rules need a result nobody has
entered, the action in progress is rolled back and `pending` says what to enter; `choices()` then lists the
possible results (`enter:1` ... `enter:8`) and entering the last one needed completes the action (rules that
suspend themselves, `core.rules.Suspends`, are sent the result instead).

A document saved by an earlier version that today's rules no longer play the same way (a game an AI since
changed made) opens *archived* (`opened`): shown and exported exactly as saved, never continued, with the
reason in one line (`archived`).

A session has no language: what it says (its choices, its questions, its log) it keeps as words
(`i18n.word`), a message key and its arguments, worded by the faces in the reader's language; the same
seed and events give the same document whoever plays them.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar, cast, final

from dedale.core.errors import DedaleError
from dedale.core.params import Declared
from dedale.core.rng import LogEntry, NeedInput, Request, Roller, SeededSource, TableSource, check_secret
from dedale.core.rules import SPECTATOR, Choice, Policies, Policy, Rules, Secrets, State, Suspends
from dedale.core.seeds import check_seed, seed_json, seed_text
from dedale.i18n import Word, word

# What the faces import from here (the rules' own words live in `core.rules`).
__all__ = ["ENTER", "SPECTATOR", "Choice", "Event", "Faces", "Policies", "Policy", "Session", "State",
           "check_format"]

Event = dict[str, Any]
ENTER = "enter:"
R = TypeVar("R", bound=Rules[Any, Any], covariant=True)  # covariant: `state` and `params` are typed from it
Q = TypeVar("Q", bound=Rules[Any, Any])
P = TypeVar("P", bound=Declared)
S = TypeVar("S", bound=State)


def check_format(data: Any, system: str) -> dict[str, Any]:
    """`data` is a JSON document of `system` ("format": "dedale/SYSTEM"), or a clear error."""
    if not isinstance(data, dict) or data.get("format") != f"dedale/{system}":
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise DedaleError("error.format", expected=f"dedale/{system}", found=found)
    return data


@dataclass(frozen=True)
class Faces:
    """How a session shows itself outside its rules: as a result to draw (`dedale.Result`) and as its live
    picture. The library sets `Session.faces` (`dedale`'s `__init__`, which any import of a session runs
    first): the rules know no face, registry or API."""

    result: Callable[[Session[Any]], Any]
    picture: Callable[[Session[Any]], str]


@final
class Session(Generic[R]):
    """A game in progress: its rules (`rules`, typed for its system), the legal choices now, and `step` to make
    one. It is made from the rules' class and the game's parameters (their defaults when None), seed, table
    mode and, for a document saved before seeds were long, its secret key; with `events`, it is that game
    replayed through them (`replay`), else a new one, whose AIs make their first decisions at once.

    >>> import dedale
    >>> crawl = dedale.play("crawler", seed=4)
    >>> [choice.id for choice in crawl.choices()][:2]
    ['place:10,23,5,2', 'place:10,20,2,5']
    >>> crawl.step("place:11,20,2,5")
    >>> crawl.log[-1]["choice"]
    'place:11,20,2,5'
    >>> crawl.undo()
    >>> crawl.auto_step()
    >>> crawl.events[0]["choice"], crawl.events[0]["by"], crawl.events[0]["drew"][0]["dice"]
    ('place:10,20,2,5', 'default', [2])
    """

    faces: ClassVar[Faces]  # set by the library (`dedale`'s `__init__`): `result()` and the Jupyter picture

    def __init__(self, rules: type[R], params: Declared | None = None, seed: int = 0, table: bool = False,
                 secret: bytes | None = None, *, events: list[Event] | None = None, left_out: bool = True) -> None:
        if table and not rules.table_mode:
            raise DedaleError("error.no_table_mode", system=rules.system)
        self.seed = check_seed(seed)  # 0 to 2**130 - 1: past it, no text a document could keep
        self.table = table
        self.secret = None if table else secret
        self.events: list[Event] = []
        self.undo_floor = 0  # the events undo may not go below (rules with secrets: the last that showed more)
        self.pending: Request | None = None
        self.archived: Word | None = None  # why a document kept as it was saved cannot be continued (`opened`)
        self._saved: dict[str, Any] | None = None  # that document
        self._source: SeededSource | TableSource = TableSource() if table else SeededSource(seed, self.secret)
        self.rules: R = rules(params if params is not None else rules.params_from_json({}), seed, table,
                              self.secret)
        self.rules.state = self.rules.new_state()
        self.rules.roller = Roller(self._source, self.rules.state.log)
        self._pending_action: tuple[Any, ...] | None = None
        self._snapshot: State | None = None  # table mode: the state before the pending action
        self._choices: list[Choice] | None = None
        self._run(("start",))
        # whether its events name their seat: a game of two seats (two people, or an AI opponent)
        self._seats = self.rules.two_people() or any(self.rules.ai(seat) is not None for seat in (0, 1))
        if events is None:
            self._let_ais_decide()
        else:
            self.extend(events, left_out)

    # --- what the faces read of the rules -------------------------------------------------------
    @property
    def system(self) -> str:
        return self.rules.system

    @property
    def params(self: Session[Rules[P, Any]]) -> P:
        return self.rules.params

    @property
    def state(self: Session[Rules[Any, S]]) -> S:
        return self.rules.state

    @property
    def roller(self) -> Roller:
        return self.rules.roller

    @property
    def log(self) -> list[Any]:
        return self.rules.state.log

    @property
    def is_over(self) -> bool:
        return self.pending is None and self.rules.over

    def question(self) -> Word | None:
        """What the current choice is about (a message), when the choices alone do not say it."""
        return self.rules.question()

    def two_people(self) -> bool:
        """Whether two people play this game against each other, one a seat (seats 0 and 1)."""
        return self.rules.two_people()

    def seat_to_act(self) -> int | None:
        """The seat whose choice it is now (0 or 1), None once the session is over. A game with one player
        is seat 0's; so is a result to enter at the table (table mode)."""
        if self.is_over:
            return None
        return 0 if self.pending is not None else self.rules.seat_to_act()

    def has_secrets(self) -> bool:
        """Whether the rules keep anything from a seat during play (`core.rules.Secrets`); most keep nothing."""
        return isinstance(self.rules, Secrets) and self.rules.has_secrets()

    # --- choices and steps ----------------------------------------------------------------------
    def choices(self) -> list[Choice]:
        if self.pending is not None:
            return [Choice(ENTER + option, word("log.option", value=option), {"kind": "enter"})
                    for option in self.pending.options]
        if self._choices is None:
            self._choices = [] if self.rules.over else self.rules.rule_choices()
        return self._choices

    def choice(self, choice_id: str) -> Choice:
        if self.archived is not None:
            raise DedaleError("error.archived", why=self.archived)
        if self.pending is None and self._choices is None and not self.rules.over:
            found = self.rules.find_choice(choice_id)
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
        """Make a legal choice (one of `choices()`, or its id) and roll what the rules roll after it; then the
        AIs whose turn it is decide.

        With `seat`, the choice is that seat's: refused unless it is `seat_to_act()`."""
        self._step(choice.id if isinstance(choice, Choice) else choice, seat)
        self._let_ais_decide()

    def _step(self, choice_id: str, seat: int | None) -> None:
        seated = self._seated(seat)
        choice = self.choice(choice_id)
        if self.pending is None:
            self._record({"choice": choice.id, **seated}, ("choice", choice))
            return
        value = choice.id.removeprefix(ENTER)
        if isinstance(self.rules, Suspends):  # the rules wait for it where they stopped
            self._record({"enter": value, **seated}, ("enter", value))
            return
        assert isinstance(self._source, TableSource) and self._pending_action is not None
        self._source.entries.append(value)
        self._record({"enter": value, **seated}, self._pending_action)

    def _seated(self, seat: int | None) -> Event:
        """What an event says of the seat that made it (in a game of two seats), once it is known to be the
        seat to act: a person's (an AI's decisions are its own)."""
        if self.is_over:
            return {}
        to_act = self.seat_to_act()
        if (seat is not None and seat != to_act) or (self.pending is None and self._ai_to_act() is not None):
            raise DedaleError("error.not_your_turn", seat=to_act)
        return {"seat": to_act} if self._seats else {}

    def auto_step(self, policy: Policy | str | None = None) -> None:
        """Let an autopilot policy (or its name) make the current choice (table mode may then ask for its dice);
        then the AIs whose turn it is decide."""
        if self.pending is not None:
            raise DedaleError("error.autopilot_pending")
        if self.archived is not None:
            raise DedaleError("error.archived", why=self.archived)
        if self.is_over:
            raise DedaleError("error.session_over")
        self._decide(self._policy(policy))
        self._let_ais_decide()

    def _policy(self, policy: Policy | str | None) -> Policy:
        """The policy given, or the one its name names (None: the rules' own, "default")."""
        if policy is None or isinstance(policy, str):
            return self.autopilot("default" if policy is None else policy)
        return policy

    def _decide(self, policy: Policy, expect: str | None = None) -> None:
        """`policy` decides for the seat to act, and its decision is recorded (with `expect`: a document saved
        before decisions were events, whose policy must make that choice again)."""
        event: Event = {"by": policy.name, **({"seat": self.seat_to_act()} if self._seats else {})}
        self._record(event, ("decide", policy, event, expect))

    def _ai_to_act(self) -> Policy | None:
        """The AI whose turn it is (asked only while the game is on and no result is to be entered)."""
        seat = self.rules.seat_to_act()
        return None if seat is None else self.rules.ai(seat)

    def _let_ais_decide(self) -> None:
        """Every decision that is an AI's, from now until a person's turn, a result to enter, or the end."""
        while self.pending is None and not self.rules.over and (ai := self._ai_to_act()) is not None:
            self._decide(ai)

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

    def _recover(self, event: Event) -> None:
        """After `event` failed (and was dropped), the session as it was before it."""
        if isinstance(self._source, TableSource) and not isinstance(self.rules, Suspends):
            del self._source.entries[len(self._source.entries) - ("enter" in event):]
        else:  # the state may be half-changed (or the rules' generator cannot be rewound): rebuild it, as it was
            self.__dict__.update(self.remade(self.events, left_out=False).__dict__)

    def autopilot(self, name: str = "default") -> Policy:
        policies: Policies = self.rules.policies
        if name not in policies:
            raise DedaleError("error.policy", value=name, system=self.system, accepted=", ".join(policies))
        return policies[name](self)

    def run_autopilot(self, policy: Policy | str | None = None, max_steps: int = 10_000) -> Self:
        """Let an autopilot policy (a `Policy`, or its name: "default" is the rules' own; each system documents
        its others) make every choice until the session is over or asks for a result to enter.

        >>> import dedale
        >>> dedale.play("zombstone", seed=4, side=None).run_autopilot("aggressive").is_over
        True
        """
        if self.pending is not None or self.rules.over:  # nothing to choose (a key-lock diagram has no policy)
            return self
        chosen = self._policy(policy)
        for _ in range(max_steps):
            if self.pending is not None or self.rules.over:  # auto_step's checks, once a step
                break
            self._decide(chosen)
            self._let_ais_decide()
        return self

    def undo(self) -> None:
        """Forget the last decision a person made (or an autopilot made for them), and the AIs' after it, by
        replaying the events before. In a game that keeps secrets from a seat, an event that did more than
        make its choice is never undone, nor any before it (`undo_floor`): the same choices again would draw
        and show the same (the turn and river seen, then a bet made again knowing them; the AI's cards shown
        at the end, then the game played again from the start)."""
        if self.archived is not None:
            raise DedaleError("error.archived", why=self.archived)
        keep = self._undone_from()
        if keep < 0:
            raise DedaleError("error.nothing_to_undo")
        if keep < self.undo_floor:
            raise DedaleError("error.undo_secret")
        self.__dict__.update(self.remade(self.events[:keep]).__dict__)

    def can_undo(self) -> bool:
        """Whether `undo` would undo something (a page offers no button that would then refuse)."""
        keep = self._undone_from()
        return self.archived is None and keep >= max(0, self.undo_floor)

    def made(self) -> int:
        """The choices made in the game as its players count them: every event but the AIs' own decisions
        (a person's choices and results entered, and the autopilot's steps a person asked for)."""
        return sum(1 for event in self.events if not self._an_ais(event))

    def _undone_from(self) -> int:
        """The number of the event an undo forgets from: the last a person made (or asked an autopilot for);
        -1 if there is none."""
        keep = len(self.events) - 1
        while keep >= 0 and self._an_ais(self.events[keep]):
            keep -= 1
        return keep

    def _an_ais(self, event: Event) -> bool:
        """Whether the event is a decision an AI made for its own seat (not one a person asked for)."""
        return "by" in event and self.rules.ai(event.get("seat", 0)) is not None

    def remade(self, events: list[Event], left_out: bool = True) -> Self:
        """This game (its rules, parameters, seed, table mode and key) replayed through `events` (`left_out`: and
        the AIs' decisions after them, `extend`)."""
        return Session(type(self.rules), self.params, self.seed, self.table, self.secret, events=events,
                       left_out=left_out)

    # --- undo never goes back past what was shown (rules with secrets) --------------------------
    def _watch(self) -> tuple[int | None, int] | None:
        """What to compare once an event has run, to tell what it showed (None: nothing to watch)."""
        return (self._drawn(), len(self.log)) if isinstance(self.rules, Secrets) else None

    def _watched(self, before: tuple[int | None, int]) -> None:
        """The event has run; `before` is what `_watch` gave before it."""
        assert isinstance(self.rules, Secrets)
        drawn, logged = before
        showed = self._drawn() != drawn or not self.rules.only_its_choice(self.log[logged + 1:]) or self.is_over
        if showed and not self.table and self.rules.has_secrets():
            self.undo_floor = len(self.events)

    def _drawn(self) -> int | None:
        """Where the random stream stands (None in table mode, where results are entered)."""
        return None if isinstance(self._source, TableSource) else self._source.gen.mark()

    # --- running an action ---------------------------------------------------------------------
    def _run(self, action: tuple[Any, ...]) -> None:
        """Run an action. In table mode, when a result is missing, keep the state as far as the rules got
        (so the player sees the rolls so far) and the state before the action, to run it again in full
        once the result is entered. Rules that suspend themselves say what they wait for instead."""
        if isinstance(self.rules, Suspends):
            self._choices = None
            self._perform(action)
            self.pending = self.rules.waiting()
            self._choices = None
            return
        snapshot = None
        if isinstance(self._source, TableSource):
            self._source.pos = 0
            if self._pending_action is action and self._snapshot is not None:
                snapshot = self._snapshot
                self._restore(copy.deepcopy(snapshot))
            else:
                snapshot = copy.deepcopy(self.rules.state)
        self._choices = None
        waited, self.pending = self.pending, None  # the action runs again in full: its choices are the rules'
        try:
            self._perform(action)
        except NeedInput as need:
            self.pending, self._pending_action, self._snapshot = need.request, action, snapshot
            self._choices = None
            return
        except BaseException:
            self.pending = waited
            if snapshot is not None:
                self._restore(snapshot)
            raise
        self.pending = self._pending_action = self._snapshot = None
        self._choices = None
        if isinstance(self._source, TableSource):
            self._source.entries.clear()

    def _restore(self, snapshot: State) -> None:
        self.rules.state = snapshot
        self.rules.roller = Roller(self._source, snapshot.log)
        self._choices = None

    def _perform(self, action: tuple[Any, ...]) -> None:
        kind = action[0]
        if kind == "start":
            self.rules.start()
        elif kind == "enter":
            assert isinstance(self.rules, Suspends)
            self.rules.enter(action[1])
        elif kind == "choice":
            self._chose(action[1], "player")
        elif kind == "decide":
            self._decided(*action[1:])
        else:  # "recorded": a decision replayed as it was made
            event = action[1]
            for entry in event.get("drew", ()):
                self._draw_again(entry)
            self._chose(self.choice(event["choice"]), event["by"])

    def _decided(self, policy: Policy, event: Event, expect: str | None) -> None:
        """A policy's decision, made now and recorded in `event` with what it drew (its log entries)."""
        drawn_from = len(self.log)
        choice = self.choice(policy.choose(self))
        if expect is not None and choice.id != expect:
            raise DedaleError("error.replay_mismatch", event=len(self.events))
        drew = copy.deepcopy(self.log[drawn_from:])
        seat = event.get("seat")
        event.clear()  # the choice first, as a person's: the document reads in that order
        event.update({"choice": choice.id, "by": policy.name, **({} if seat is None else {"seat": seat}),
                      **({"drew": drew} if drew else {})})
        self._chose(choice, policy.name)

    def _draw_again(self, entry: Any) -> None:
        """Replay: a roll a policy made to decide, rolled again from the stream where it stands (the same dice,
        or the document does not replay) and logged as it was."""
        if not isinstance(entry, dict) or not isinstance(entry.get("roll"), str) or not isinstance(
                entry.get("for"), str) or not isinstance(entry.get("args", {}), dict):
            raise TypeError("a decision's draw is a roll")
        roll = self.roller.roll(entry["roll"], entry["for"], **entry.get("args", {}))
        if roll.dice != entry.get("dice"):
            raise DedaleError("error.replay_mismatch", event=len(self.events))
        if "decided" in entry:
            roll.entry["decided"] = entry["decided"]

    def _chose(self, choice: Choice, by: str) -> None:
        """A choice made by `by` (the player, or a policy's name): logged, unless an AI made it for its own
        seat (the rules log what it does), then applied."""
        if self._ai_to_act() is None:
            message = choice.message  # the choice's words as a message key and its arguments, never text
            entry: LogEntry = {"choice": choice.id, "key": message["t"]}
            if "args" in message:
                entry["args"] = message["args"]
            entry["by"] = by
            self.log.append(entry)
        self.rules.apply(choice)

    # --- what a seat may see ----------------------------------------------------------------
    # The faces ask every session what a seat may see (seat 0 unless a face says otherwise; `SPECTATOR`, one
    # who watches): all of it, unless the rules keep something from a seat (`core.rules.Secrets`). While
    # something is hidden from a seat, what it is shown is masked; the document (`to_json`) stays the GM's,
    # with both sides' secrets. Table mode hides nothing (the players deal and roll everything at the
    # table), and once the session is over nothing is hidden.
    def hides(self, seat: int = 0) -> bool:
        """True while something is hidden from `seat` (never, when the rules keep no secrets)."""
        return not self.table and not self.is_over and self.has_secrets()

    def seat_log(self, start: int = 0, seat: int = 0) -> list[LogEntry]:
        """The log from entry `start` on as `seat` may see it now, each entry as `log_entry` gives it: masked
        or left out while `hides(seat)`."""
        entries = [self.rules.log_entry(entry) for entry in self.log[start:]]
        if isinstance(self.rules, Secrets) and self.hides(seat):
            return self.rules.shown_log(entries, seat)
        return entries

    def seat_seed(self, seat: int = 0) -> int | None:
        """The seed, unless something is hidden from `seat`: the seed remakes every card and token, so only
        who may see everything sees it (a document saved with a secret key as well too: one view for all)."""
        return None if self.hides(seat) else self.seed

    def seat_result(self, seat: int = 0) -> dict[str, Any]:
        """`result_json()` as `seat` may see it now."""
        result = self.rules.result_json()
        if isinstance(self.rules, Secrets) and self.hides(seat):
            return self.rules.shown_result(result, seat)
        return result

    def seat_json(self, seat: int = 0) -> dict[str, Any]:
        """The document as `seat` may see it: `to_json()`, when nothing is hidden. While something is hidden
        from `seat`: its log, result and events (a decision's draws as the log shows them, a choice naming
        something hidden masked as the thing it names), no seed and no secret key, and `"hidden": true`. Such a
        view is for reading and drawing: it cannot be continued (`check_document` refuses it)."""
        document = self.to_json()
        if not isinstance(self.rules, Secrets) or not self.hides(seat):
            return document
        document.pop("secret", None)
        shown = {**document, **self.seat_result(seat), "seed": None, "log": self.seat_log(seat=seat),
                 "hidden": True}
        shown["events"] = self.rules.shown_events([self._shown_event(event, seat) for event in shown["events"]],
                                                  seat)
        return shown

    def _shown_event(self, event: Event, seat: int) -> Event:
        """An event whose decision drew something, without the draws `seat` may not see in the log (an AI's bluff
        roll: a decision draws only rolls, which the log shows whole or leaves out)."""
        if "drew" not in event:
            return event
        rules = self.rules
        assert isinstance(rules, Secrets)
        shown = {key: value for key, value in event.items() if key != "drew"}
        drew = [entry for entry in event["drew"] if rules.shown_log([rules.log_entry(entry)], seat)]
        return {**shown, "drew": drew} if drew else shown

    # --- JSON and pictures ----------------------------------------------------------------------
    def result(self) -> Any:
        """The document as it stands, as a `dedale.Result` to draw or save (what seat 0 may see while the
        rules hide something)."""
        return Session.faces.result(self)

    def __repr__(self) -> str:
        """What a notebook prints: the system, the seed as a person reads it, the choices made (as its players
        count them: `made`), and whether it is over."""
        where = ", archived" if self.archived else ", over" if self.is_over else ", a result to enter" \
            if self.pending else ""
        return f"<dedale {self.system} session seed={seed_text(self.seed)} step {self.made()}{where}>"

    def _repr_svg_(self) -> str:
        """Its live picture in Jupyter."""
        return Session.faces.picture(self)

    def to_json(self) -> dict[str, Any]:
        if self._saved is not None:  # archived: as it was saved
            return copy.deepcopy(self._saved)
        document: dict[str, Any] = {
            "format": f"dedale/{self.system}",
            "version": self.rules.version,
            "generator": self.system,
            "seed": seed_json(self.seed),
            **({} if self.secret is None else {"secret": self.secret.hex()}),
            "params": self.params.to_json(),
            "table_dice": self.table,
            "over": self.is_over,
            **self.rules.result_json(),
            "events": copy.deepcopy(self.events),  # the document's own: the game goes on adding to its list
            "log": [self.rules.log_entry(entry) for entry in self.log],
        }
        if self.pending is not None:
            document["pending"] = {"kind": self.pending.kind, "for": self.pending.purpose,
                                   "roll": self.pending.expr, "options": list(self.pending.options)}
        return document

    @classmethod
    def replay(cls, rules: type[Q], params: Declared, seed: int, events: list[Event], table: bool = False,
               secret: bytes | None = None) -> Session[Q]:
        """A game of `rules` played through recorded `events`."""
        return Session(rules, params, seed, table, secret, events=events)

    def extend(self, events: list[Event], left_out: bool = True) -> Self:
        """Play recorded events on from where the session is (a replay): each must be legal, as it was when
        it was recorded; a decision is applied as recorded, never asked for again. An AI's decision a
        document saved before decisions were events leaves out is made as it was then, by today's AI (after the
        last event too, unless `left_out` is False: a session rebuilt as it stood, an AI's decision having
        failed)."""
        for number, event in enumerate(events, len(self.events) + 1):
            try:
                self._make_left_out(event)
                self._replayed(event)
            except (KeyError, TypeError, AttributeError):
                raise DedaleError("error.bad_event", event=number) from None
            except DedaleError as exc:
                if exc.key == "error.replay_mismatch":
                    raise
                raise DedaleError("error.event_rejected", event=number, reason=exc.as_word()) from None
        if left_out:
            self._make_left_out(None)
        return self

    def _replayed(self, event: Event) -> None:
        seat = event.get("seat")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise TypeError
        if "enter" in event:
            self._step(ENTER + str(event["enter"]), seat)
        elif "auto" in event:  # saved before decisions were events: its policy decides again, as it did
            if self.pending is not None:
                raise DedaleError("error.autopilot_pending")
            expect = event.get("choice")
            self._decide(self.autopilot(str(event["auto"])), None if expect is None else str(expect))
        elif "by" in event:
            self._replay_decision(event, seat)
        else:
            self._step(str(event["choice"]), seat)

    def _replay_decision(self, event: Event, seat: int | None) -> None:
        """A recorded decision of a policy or an AI, applied with what it drew (in table mode, its draws are
        entered again, by the events after it, as they were)."""
        if self.pending is not None:
            raise DedaleError("error.autopilot_pending")
        if self.is_over:
            raise DedaleError("error.session_over")
        to_act = self.seat_to_act()
        if seat is not None and seat != to_act:
            raise DedaleError("error.not_your_turn", seat=to_act)
        if "choice" not in event:  # it waited for its dice at the table when saved: it decides with them
            self._decide(self._ai_to_act() or self.autopilot(str(event["by"])))
            return
        drew = event.get("drew", [])
        if not isinstance(drew, list):
            raise TypeError
        recorded: Event = {"choice": str(event["choice"]), "by": str(event["by"]),
                           **({"seat": to_act} if self._seats else {}), **({"drew": drew} if drew else {})}
        self._record(recorded, ("recorded", recorded))

    def _make_left_out(self, following: Event | None) -> None:
        """The AIs' decisions before `following` that a document saved before decisions were events left out
        (its AIs decided inside the rules): made now, as today's AI makes them. A document of today records
        each, so this makes none of its."""
        while self.pending is None and not self.rules.over and (ai := self._ai_to_act()) is not None:
            if following is not None and "by" in following and following.get("seat", 0) == self.rules.seat_to_act():
                return
            self._decide(ai)

    @staticmethod
    def check_document(rules: type[Rules[Any, Any]], data: Any) -> Any:
        """A document of these rules' system and of this version or an earlier one, with a seed and a list of
        events (not a view: a seat's, the party's): its parameters (nothing replayed yet, so that a caller may
        refuse them first)."""
        check_format(data, rules.system)
        if data.get("hidden"):  # the party view ("player" before it was so named), or a seat's
            raise DedaleError("error.party_view_kept" if data.get("view") in ("party", "player")
                              else "error.hidden_view")
        _check_frame(rules, data)
        return rules.loaded_params(rules.params_from_json(data.get("params")), data)

    @staticmethod
    def secret_of(data: dict[str, Any]) -> bytes | None:
        """A checked document's secret key, if it has one (saved before seeds were long)."""
        return check_secret(data["secret"]) if "secret" in data else None

    @classmethod
    def from_json(cls, rules: type[Q], data: Any) -> Session[Q]:
        """Rebuild a game of `rules` from its JSON by replaying its events, and check it matches what was saved.

        A document saved before documents were free of language carries its `lang` and kept words as text
        (labels, names, a log's arguments): it is checked without the fields that held words; so is a
        document of a version whose log said things in other words (`worded_before`)."""
        params = cls.check_document(rules, data)
        session = cls.replay(rules, params, check_seed(data["seed"]), data["events"],
                             bool(data.get("table_dice", False)), cls.secret_of(data))
        data = session.rules.upgraded(data)
        recomputed = rules.recomputed_before.get(data.get("version"), ())
        saved = {key: data[key] for key in ("log", *session.rules.result_json())
                 if key in data and key not in recomputed}
        replayed = json.loads(json.dumps(session.to_json()))
        old = "lang" in data or data.get("version") in rules.worded_before
        for key, value in saved.items():
            if (_unworded(replayed[key], key) != _unworded(value, key)) if old else replayed[key] != value:
                raise DedaleError("error.save_mismatch", field=key)
        return session

    @classmethod
    def opened(cls, rules: type[Q], data: Any) -> Session[Q]:
        """A saved document, to show and, while today's rules play it as it was played, to continue
        (`from_json`). One saved by an earlier version that they no longer play the same way (an unfinished
        game made by an AI since changed, a rule since read otherwise) is kept *archived*: exactly as saved,
        shown and exported, never continued, and `archived` says why in one line. A document of this version
        that does not replay is refused (it was changed since it was saved)."""
        check_format(data, rules.system)
        if data.get("hidden"):
            cls.check_document(rules, data)  # the refusal that names which view it is
        _check_frame(rules, data)
        if data["version"] == rules.version:
            return cls.from_json(rules, data)
        try:
            return cls.from_json(rules, data)
        except DedaleError as error:  # a saved field unlike the replay's: today's rules make it so, not an edit
            reason = (word("error.made_otherwise", field=error.args_["field"]) if error.key == "error.save_mismatch"
                      else error.as_word())
            return cls._archive(rules, data, word("error.archived_why", version=data["version"], reason=reason))

    @classmethod
    def _archive(cls, rules: type[Q], data: dict[str, Any], why: Word) -> Session[Q]:
        """A document kept as it was saved (`opened`): its rules are made with its parameters when today's
        read them (the defaults otherwise), and never start; it is over, with nothing to choose."""
        try:
            params = rules.params_from_json(data.get("params"))
        except DedaleError:
            params = rules.params_from_json({})
        session = cast("Session[Q]", object.__new__(cls))
        session.seed, session.table, session.secret = check_seed(data["seed"]), False, None
        session.events, session.undo_floor, session.pending = list(data["events"]), len(data["events"]), None
        session.archived, session._saved = why, copy.deepcopy(data)
        session._source = SeededSource(0)
        session.rules = cast(Q, _archived_rules(rules, data)(params, session.seed))
        session.rules.state = State(log=list(data.get("log", [])))
        session.rules.roller = Roller(session._source, session.rules.state.log)
        session._pending_action = session._snapshot = None
        session._choices, session._seats = [], False
        return session


def _check_frame(rules: type[Rules[Any, Any]], data: dict[str, Any]) -> None:
    """A document's version (this one, or an earlier one: every earlier document opens), seed (a number of 0
    to 2**130 - 1, or its text), events (a list of objects) and secret key (saved before seeds were long)."""
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= rules.version:
        raise DedaleError("error.version", found=data.get("version"), supported=rules.version)
    if data.get("seed") is None:  # a seat's view, which the seed would give away, has none to replay from
        raise DedaleError("error.bad_document", field="seed")
    check_seed(data["seed"])  # what a seed can be, named
    events = data.get("events")
    if not isinstance(events, list) or not all(isinstance(event, dict) for event in events):
        raise DedaleError("error.bad_document", field="events")
    if "secret" in data:
        check_secret(data["secret"])


def _archived_rules(rules: type[Rules[Any, Any]], data: dict[str, Any]) -> type[Rules[Any, Any]]:
    """The rules of an archived document: its system's name, version and policies (what the faces ask of it),
    its saved log and result, and nothing to play."""
    result = {key: value for key, value in data.items() if key not in _ENVELOPE}

    class Archived(Rules[Any, State]):
        system = rules.system
        version = data["version"]
        policies = rules.policies
        table_mode = False

        def new_state(self) -> State:
            return State()

        def start(self) -> None:
            """An archived document is never played."""

        def rule_choices(self) -> list[Choice]:
            return []

        def apply(self, choice: Choice) -> None:
            raise DedaleError("error.session_over")

        @property
        def over(self) -> bool:
            return True

        def result_json(self) -> dict[str, Any]:
            return copy.deepcopy(result)

        @classmethod
        def params_from_json(cls, data: Any) -> Any:
            return rules.params_from_json(data)

    return Archived


# The fields every document has around its result (`Session.to_json`, `core.documents.Envelope`)
_ENVELOPE = frozenset({"format", "version", "generator", "seed", "secret", "params", "table_dice", "over", "events",
                       "log", "pending", "hidden", "view", "lang", "name"})


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

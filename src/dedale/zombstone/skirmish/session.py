"""A skirmish's rules, played by the generic session: the player makes one side's decisions (seat 0), the AI
the other's (seat 1); or two people play, seat 0 the lawmen and seat 1 the zombies (`opponent` "human"), each
seeing its own secrets; or two AIs, seat 0 the lawmen's.

The rules run as a generator (`turn.play`) that suspends at each decision, the AI's included, and, in table
mode, at each roll or card nobody has entered (`core.rules.Suspends`); the rules keep it and send it the
answers. The session asks the AI for its own (`SkirmishRules.ai`) and records each as an event of its seat,
which a replay applies without asking it again. Everything the game holds is plain data in `state`, and a
session is rebuilt by replaying its events, as every session is (undo, loading a save, a restarted server).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache, partial
from typing import Any, ClassVar

from dedale.core.documents import dump
from dedale.core.rng import Request
from dedale.core.rules import SPECTATOR, Choice, Policies, Rules, Secrets, Suspends
from dedale.core.session import Session
from dedale.i18n import LANGUAGES, Word, given, t, word
from dedale.zombstone.hands import describe
from dedale.zombstone.skirmish import hidden
from dedale.zombstone.skirmish.ai import AI, POLICIES
from dedale.zombstone.skirmish.catalogue import load_catalogue
from dedale.zombstone.skirmish.document import SkirmishResult, Waiting
from dedale.zombstone.skirmish.game import play
from dedale.zombstone.skirmish.lookahead import controller
from dedale.zombstone.skirmish.model import Figure, Game
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.showdown import SEATS
from dedale.zombstone.skirmish.table import Ask, Controller, Flow, Option, Table
from dedale.zombstone.skirmish.turn import activate, with_chances
from dedale.zombstone.skirmish.wording import inches


class Autopilot:
    """An AI deciding for a side: the player's (batch runs, "one autopilot step": the standard AI of a style), or
    the AI opponent's (`SkirmishRules.ai`: the game's AI, of its level)."""

    def __init__(self, ai: Controller) -> None:
        self.name = ai.name
        self.ai = ai

    def choose(self, session: SkirmishSession) -> str:
        rules = session.rules
        assert isinstance(rules.ask, Ask)
        return self.ai.choose(rules.table_top, rules.ask)


def _autopilot(style: str) -> Callable[[SkirmishSession], Autopilot]:
    return lambda session: Autopilot(AI(style))


ADDED = {"scenario": ("victory", "favoured"), "game": ("decided_by",)}  # fields added by issue 16 (no version bump)


GROUPS = {"move": "move", "jump": "move", "shoot": "shoot", "aim": "shoot", "dodge": "dodge"}  # by the id's kind


def _group(choice_id: str) -> dict[str, str]:
    """The group a page folds a long list's choice into (`skirmish.group`): moves by where, shots by whom."""
    group = GROUPS.get(choice_id.split(":", 1)[0])
    return {} if group is None else {"group": f"skirmish.group.{group}"}


@cache
def _duellists() -> tuple[Word, Word]:
    """A duel's duellists at a sentence's start: their sides, capitalised (its seats are the sides, lawmen
    first)."""
    def capital(side: str) -> Word:
        return given({lang: t(f"skirmish.side.{side}", lang)[:1].upper() + t(f"skirmish.side.{side}", lang)[1:]
                      for lang in LANGUAGES})
    return capital("lawmen"), capital("zombies")


class SkirmishRules(Suspends, Secrets, Rules[SkirmishParams, Game]):
    system = "zombstone"
    # Version 2 tells moves in words (how far, which way, where to) and numbers Extras of one name in choices;
    # version 3 names a duel's duellists by their sides: an older document is replayed and checked without its
    # log's words. Version 4 plays the text's readings by default and issue 32's AI and scenarios; a document
    # before it no longer plays the same way, and opens archived (`Session.opened`). Version 5 records every
    # decision, the AI's too (a version-4 document's replay asks today's AI for those it left out, once).
    # Version 6 (issue 40): a band without its Stars holds three cards at most; High Noon's free moves are
    # logged; the scenarios' own choices were rebalanced. A version-5 game they change opens archived.
    version = 6
    worded_before = (1, 2, 3)
    policies: ClassVar[Policies] = {name: _autopilot(name) for name in POLICIES}

    def new_state(self) -> Game:
        return Game()

    def start(self) -> None:
        params = self.params
        catalogue = load_catalogue(params.data)
        scenario = catalogue.scenario(params.scenario)
        self.state.scenario = scenario.id
        controllers: dict[str, Controller | None] = {
            side: None if self._person(side) else controller(params.ai, params.policy(side)) for side in SEATS}
        self._opponents = {side: Autopilot(ai) for side, ai in controllers.items() if ai is not None}
        self.table_top = Table(self.state, catalogue, scenario, self.roller, controllers, params.rounds,
                               activation=activate, records=True, **params.readings())
        self._flow: Flow[None] = play(self.table_top)
        self.ask: Ask | Request | None = None
        self._resume(None)

    def _person(self, side: str) -> bool:
        """Whether a person plays the side (the player's, or both between two people)."""
        return self.params.human or side == self.params.side

    def ai(self, seat: int) -> Autopilot | None:
        """The AI deciding for the seat's side (the other side's against a player, both sides' between two AIs),
        at its level and policy."""
        side = self._side(seat)
        return None if side is None else self._opponents.get(side)

    def _resume(self, answer: str | None) -> None:
        try:
            self.ask = next(self._flow) if answer is None else self._flow.send(answer)
        except StopIteration:
            self.ask = None

    def waiting(self) -> Request | None:
        return self.ask if isinstance(self.ask, Request) else None

    def enter(self, value: str) -> None:
        self._resume(value)

    # --- the rules -------------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.ask is None

    def rule_choices(self) -> list[Choice]:
        assert isinstance(self.ask, Ask)
        return [self._offered(self.ask, option) for option in self.ask.every()]

    def find_choice(self, choice_id: str) -> Choice | None:
        """The one option named, offered as a person is (an AI names its choice: the chances of the shots it
        did not take are worked out for nobody)."""
        assert isinstance(self.ask, Ask)
        option = self.ask.option(choice_id)
        return super().find_choice(choice_id) if option is None else self._offered(self.ask, option)

    def _offered(self, ask: Ask, option: Option) -> Choice:
        shot = ask.kind == "action" and option.id.startswith(("shoot:", "aim:"))
        if shot and self._person(ask.side):  # its chance to hit, for the person who chooses, before
            option = with_chances(self.table_top, self.table_top.game.figure(ask.about["figure"]), option)
        return Choice(option.id, partial(message, self, option), {**option.data, "kind": ask.kind,
                                                                  **_group(option.id)})

    def question(self) -> Word | None:
        if not isinstance(self.ask, Ask):
            return None
        about = dict(self.ask.about)
        if "dice" in about:
            about["dice"] = describe(about["dice"])
        for key in ("shooter", "figure"):
            if key in about:
                figure = self.table_top.game.figure(about[key])
                about[key] = self.token_name(figure) or self.table_top.who(figure)
        words = {k: v for k, v in about.items() if k not in ("duel", "key", "side")}  # key: the hand, as a key
        return word(f"skirmish.ask.{self.ask.kind}", side=word(f"skirmish.side.{self.ask.side}"), **words)

    def apply(self, choice: Choice) -> None:
        self._resume(choice.id)

    def two_people(self) -> bool:
        return self.params.human

    def seat_to_act(self) -> int | None:
        return self._seat(self.ask.side) if isinstance(self.ask, Ask) else super().seat_to_act()

    def _seat(self, side: str) -> int:
        """The seat that plays a side: the player's side is seat 0 against the AI; between two people, or two
        AIs, seat 0 plays the lawmen."""
        if self.params.side is None or self.params.human:
            return SEATS.index(side)
        return 0 if side == self.params.side else 1

    def log_entry(self, entry: Any) -> Any:
        """In a duel scenario, the AI duellist's hole cards stay face down until the duel is over (between
        two people the document is the GM's: each seat's view hides the other's, `shown_log`); the duellists
        named by their sides, as the duel's table names them."""
        from dedale.zombstone.skirmish.duel_session import hide_hole_cards, named

        side = self.params.side
        if not (side is None or self.params.human or self.state.duel is not None or entry.get("for") != "duel.hole"):
            entry = hide_hole_cards(entry, 1 - SEATS.index(side))
        return named(entry, _duellists(), (word("duel.name.lawmen"), word("duel.name.zombies")))

    # --- what a seat may see --------------------------------------------------------------------------
    def has_secrets(self) -> bool:
        # the other side's cards, its duellist's, its hidden tokens
        return self.params.side is not None or self.params.human

    def shown_log(self, entries: list[Any], seat: int = 0) -> list[Any]:
        secrets = self._secrets(self._side(seat))
        return [shown for entry in entries if (shown := secrets.entry(entry)) is not None]

    def shown_result(self, result: dict[str, Any], seat: int = 0) -> dict[str, Any]:
        return self._secrets(self._side(seat)).result(result)

    def shown_events(self, events: list[dict[str, Any]], seat: int = 0) -> list[dict[str, Any]]:
        """The other side's decisions (the AI's, or the other person's) as the seat may know them: a choice that
        names a hidden figure names it by its token's id, and one whose very asking tells what its side holds
        (to play no card, when it had one that would help) is left out."""
        secrets = self._secrets(self._side(seat))
        others = {self._seat(side) for side in secrets.others}
        return [shown for event in events if (shown := secrets.event(event, event.get("seat", 0) in others))
                is not None]

    def token_name(self, figure: Figure) -> Word | None:
        """What the side deciding now (the player's, against the AI) calls a figure of the other side that
        hides from it (its token), or None."""
        side = self.ask.side if self.params.human and isinstance(self.ask, Ask) else self.params.side
        if figure.hidden and figure.side != side and self._hides():
            return self._secrets(side).label(figure.id)
        return None

    def _hides(self) -> bool:
        """Whether the game hides something from a seat now (as `Session.hides`: not at the table, nor once
        over; asked only while a choice is to be made)."""
        return not self.table and not self.over and self.has_secrets()

    def _side(self, seat: int) -> str | None:
        """The side `seat` plays (seat 0 the player's side against the AI, the lawmen between two people or two
        AIs), None for a spectator."""
        if seat == SPECTATOR:
            return None
        if self.params.human or self.params.side is None:
            return SEATS[seat]
        return self.params.side if seat == 0 else next(side for side in SEATS if side != self.params.side)

    def _secrets(self, side: str | None) -> hidden.Secrets:
        return hidden.Secrets(self.table_top, side, self.seed, self.secret)

    # --- the result ------------------------------------------------------------------------------------
    def upgraded(self, data: dict[str, Any]) -> dict[str, Any]:
        """A document saved before scenarios said how they are won (no `scenario.victory`) loads too: the
        fields added since are taken from its replay, and the rest is checked as usual."""
        if isinstance(data.get("scenario"), dict) and "victory" not in data["scenario"]:
            replayed = json.loads(json.dumps(self.result_json()))
            data = dict(data)
            for part, keys in ADDED.items():
                if isinstance(data.get(part), dict):
                    data[part] = {**data[part], **{key: replayed[part][key] for key in keys if key in replayed[part]}}
        return data

    def result_json(self) -> dict[str, Any]:
        table = self.table_top
        waiting = None
        if isinstance(self.ask, Ask):
            waiting = Waiting(self.ask.side, self.ask.kind, _plain(self.ask.about))  # type: ignore[arg-type]
        return dump(SkirmishResult(table.scenario.shape(), {f.profile: table.catalogue.profile(f.profile).shape()
                                                            for f in self.state.figures}, self.state.shape(), waiting))

    @classmethod
    def params_from_json(cls, data: Any) -> SkirmishParams:
        return SkirmishParams.from_json(data if data is not None else {})


SkirmishSession = Session[SkirmishRules]  # a skirmish: `Session(SkirmishRules, params, seed)`


MOVES = frozenset({"skirmish.option.move", "skirmish.option.toward", "skirmish.option.charge",
                   "skirmish.option.to_cover", "skirmish.option.jump"})


def message(rules: SkirmishRules, option: Option) -> Word:
    """An option as a message: figures by name (or token), hands and directions as words, a move with how far
    it goes."""
    found = words(rules, option.args)
    if option.key in MOVES and isinstance(rules.ask, Ask):
        mover = rules.table_top.game.figure(rules.ask.about["figure"])
        found["inches"] = inches(mover.pos, option.data["to"])
    return word(option.key, **found)


def words(rules: SkirmishRules, args: Mapping[str, Any]) -> dict[str, Any]:
    found = dict(args)
    table = rules.table_top
    for name in ("figure", "target"):
        if isinstance(found.get(name), int):
            figure = table.game.figure(found[name])
            found[name] = rules.token_name(figure) or table.who(figure)
    if "profile" in found:
        found["profile"] = table.catalogue.profile(found["profile"]).word
    if isinstance(found.get("hand"), str):
        found["hand"] = word(f"zombstone.hand.{found['hand']}")
    if isinstance(found.get("way"), str):
        found["way"] = word(found["way"])
    return found


DUEL_TABLE = ("pot", "board", "stacks", "bets", "hole", "street", "to_act", "over", "folded", "winner", "payout",
              "hands")


def _plain(about: dict[str, Any]) -> dict[str, Any]:
    """What an ask is about, as JSON (a duel in progress as its table: what a seat's view shows of it, the
    other's hole cards face down, `hidden.py` says)."""
    found: dict[str, Any] = {}
    for key, value in about.items():
        if key == "duel":
            found[key] = {k: v for k, v in dump(value.table()).items() if k in DUEL_TABLE}
        elif isinstance(value, tuple):
            found[key] = list(value)
        else:
            found[key] = value
    return found

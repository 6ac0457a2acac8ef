"""What the rules run on: the game, its data, the battlefield and the run's roller, and the three things
the rules do besides changing the game: roll, draw, and ask a side to decide.

The rules are written as generators. A decision is `answer = yield from t.decide(ask)`: a side played by a
person suspends the game, which yields the `Ask` and resumes with the answer; so does a side played by an AI
at a session's table (`records`), whose session asks the AI and records its decision. Elsewhere (a battle run,
a look-ahead's playout) an AI answers at once, and a game between two AIs never suspends. In table mode a roll
or a draw nobody has entered suspends the game the same way, yielding the `Request`, and resumes with the
result entered.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol, TypedDict, TypeVar, cast

from dedale.core.cards import Card
from dedale.core.rng import NeedInput, Request, Roller, TableSource
from dedale.i18n import Word, word
from dedale.zombstone.hands import FACES
from dedale.zombstone.skirmish.battlefield import Battlefield
from dedale.zombstone.skirmish.catalogue import DUEL_KINDS, Catalogue, Profile, Scenario
from dedale.zombstone.skirmish.model import Figure, Game
from dedale.zombstone.weapons import Weapon

T = TypeVar("T")
Flow = Generator["Ask | Request", str, T]  # what the rules yield, what they are sent back, what they return


NOTHING: Mapping[str, Any] = MappingProxyType({})
OTHER = {"lawmen": "zombies", "zombies": "lawmen"}  # each side's enemies
# The readings of the text a table plays by, the text's first (`SkirmishParams` says what each means)
AIM_COSTS = ("joker", "any_card")  # what an Aimed shot costs
TURNED_DICE = ("face", "any")  # the dice King of the Hill and A certain taste may turn: a Jack, Queen or King, or any
CARD_LIMITS = ("activation", "apart")  # whether a Guts test's and Last Breath's cards count within the Hand's
DUEL_CHOICES = ("scenario", *DUEL_KINDS)  # the duel a duel scenario opens with: its own, or one of the two


class Readings(TypedDict):
    """The readings a table plays by, as `Table` takes them (`SkirmishParams.readings`)."""

    unarmed_malus: str
    climb: str
    difficult: str
    aim_cost: str
    turned_die: str
    card_limit: str
    winnings: str
    duel: str


def readings_of(holder: object) -> Readings:
    """The readings named as `Readings` names them, read off whatever holds them (params, a table): one list
    of them, the type's, so that a reading added there is carried everywhere."""
    return cast(Readings, {name: getattr(holder, name) for name in Readings.__annotations__})


class Option(NamedTuple):
    """One answer to an `Ask`: a stable id, its words (a message key and arguments), and what it points at
    (a point of the table, a figure) for pictures and pages. A named tuple: a game makes thousands, and
    a frozen dataclass takes twice as long to make."""

    id: str
    key: str
    args: Mapping[str, Any] = NOTHING
    data: Mapping[str, Any] = NOTHING


@dataclass(slots=True)
class Ask:
    """A decision for a side: what kind, about what, and the options. An AI's options may come in parts:
    `later` lists the options of a group (its shots, its moves toward the enemy, its moves into cover: working
    them out is most of an AI's time) only when the AI looks at that group. Not frozen (a game makes hundreds, and a
    frozen dataclass takes four times as long to make), but nothing changes one once made."""

    side: str
    kind: str  # initiative, first, activate, action, reaction, reroll, cards, dodge, charisma, last_breath,
    #            fame, bet, winnings, free_move
    options: tuple[Option, ...]
    about: dict[str, Any] = field(default_factory=dict)
    later: dict[str, Callable[[], list[Option]]] = field(default_factory=dict, compare=False)
    _listed: dict[str, tuple[Option, ...]] = field(default_factory=dict, compare=False, repr=False)

    def more(self, group: str) -> tuple[Option, ...]:
        """The options of a group listed later ("shots", "toward", "cover"), worked out once."""
        if group not in self._listed:
            self._listed[group] = tuple(self.later[group]()) if group in self.later else ()
        return self._listed[group]

    def every(self) -> tuple[Option, ...]:
        return self.options + tuple(o for group in self.later for o in self.more(group))

    def option(self, option_id: str) -> Option | None:
        """The option of this id, looked for among the options listed, then in the groups listed later, in
        their own order, never in the order an AI happened to list them: a move toward an enemy that ends in
        cover is in two groups under one id, worded otherwise in each, and its replay, which lists none, must
        find the one the game found."""
        for option in self.options:
            if option.id == option_id:
                return option
        for group in self.later:
            for option in self.more(group):
                if option.id == option_id:
                    return option
        return None


class Controller(Protocol):
    """An AI: answers a side's asks (deterministically, from the table it sees)."""

    @property
    def name(self) -> str: ...

    def choose(self, t: Table, ask: Ask) -> str: ...


@dataclass
class Table:
    game: Game
    catalogue: Catalogue
    scenario: Scenario
    roller: Roller
    controllers: dict[str, Controller | None]  # None: a person plays that side
    rounds: int = 1  # reroll rounds (the rules: one)
    unarmed_malus: str = "first_roll"  # how a fighter without a melee weapon rolls (`RollSpec.unarmed`)
    # The readings of the text (`SkirmishParams`: the first of each is the text's, the default)
    climb: str = field(default="halve_move", kw_only=True)  # a wall to climb (`Battlefield.read_as`)
    difficult: str = field(default="per_inch", kw_only=True)  # difficult ground, stairs, ladders
    aim_cost: str = field(default="joker", kw_only=True)  # AIM_COSTS
    turned_die: str = field(default="face", kw_only=True)  # TURNED_DICE
    card_limit: str = field(default="activation", kw_only=True)  # CARD_LIMITS
    winnings: str = field(default="pot", kw_only=True)  # `duel.WINNINGS`
    duel: str = field(default="scenario", kw_only=True)  # DUEL_CHOICES
    # A figure's activation (`turn.activate`: the table, the figure, free or not), which a fight's Last Breath
    # calls: given by whoever sets the table, for the turn calls the fights.
    activation: Callable[[Table, Figure, bool], Flow[None]] = field(kw_only=True, repr=False)
    # A session's table: an AI's decisions suspend the game too, for the session to ask the AI and record them
    # (a battle run's and a look-ahead's tables have their AIs answer at once)
    records: bool = field(default=False, kw_only=True)
    _names: dict[int, Word] = field(default_factory=dict, repr=False)
    _guns: dict[str, Weapon | None] = field(default_factory=dict, repr=False)
    _standing: dict[str | None, list[Figure]] = field(default_factory=dict, repr=False)
    _visible: dict[str, list[Figure]] = field(default_factory=dict, repr=False)

    def readings(self) -> Readings:
        """The readings it plays by (a look-ahead's copy of the game plays by the same)."""
        return readings_of(self)

    @property
    def field(self) -> Battlefield:
        """The battlefield, its moves read as the table's readings say."""
        return self.scenario.battlefield.read_as(self.climb, self.difficult)

    @property
    def duel_kind(self) -> str | None:
        """The duel the game opens with: the scenario's, or the one the table chose; None without a duel."""
        if self.scenario.duel is None:
            return None
        return self.scenario.duel.kind if self.duel == "scenario" else self.duel

    def profile(self, figure: Figure) -> Profile:
        return self.catalogue.profiles[figure.profile]

    def name(self, figure: Figure) -> Word:
        return self.profile(figure).word

    def who(self, figure: Figure) -> Word:
        """The character's name (a word, `i18n`), numbered when the band has several of the kind ("Zombie 3")."""
        if figure.id not in self._names:
            same = [f.id for f in self.game.figures if f.profile == figure.profile and f.side == figure.side]
            name = self.name(figure)
            self._names[figure.id] = name if len(same) == 1 else word("skirmish.numbered", name=name,
                                                                        number=same.index(figure.id) + 1)
        return self._names[figure.id]

    def named(self, figure: Figure) -> Word | None:
        """The name `who` has given the figure so far, if any (asking `who` would fix one now)."""
        return self._names.get(figure.id)

    def gun(self, figure: Figure) -> Weapon | None:
        """The figure's gun, if any (remembered by profile: the AI asks it of everyone, all game)."""
        if figure.profile not in self._guns:
            gun = self.profile(figure).gun
            self._guns[figure.profile] = None if gun is None else self.catalogue.weapons[gun]
        return self._guns[figure.profile]

    def melee_weapon(self, figure: Figure) -> Weapon:
        return self.catalogue.weapons[self.profile(figure).melee]

    def covers(self, shooter: tuple[float, float], target: tuple[float, float]) -> tuple[str, ...]:
        """The kinds of cover between two points (remembered by the battlefield)."""
        return self.scenario.battlefield.cover_kinds(shooter, target)

    def sight(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        return self.scenario.battlefield.seen(a, b)

    def standing(self, side: str | None) -> list[Figure]:
        """The side's characters in play, or everyone's (None), in the game's order (remembered until one
        leaves play or joins: `changed`)."""
        found = self._standing.get(side)
        if found is None:
            found = self._standing[side] = self.game.in_play(side)
        return found

    def visible(self, side: str) -> list[Figure]:
        """The side's characters in play but its hidden tokens (remembered as `standing` is)."""
        found = self._visible.get(side)
        if found is None:
            found = self._visible[side] = [f for f in self.standing(side) if not f.hidden]
        return found

    def enemies(self, figure: Figure) -> list[Figure]:
        return self.standing(OTHER[figure.side])

    def changed(self) -> None:
        """A character left play or joined it, or a hidden token was revealed."""
        self._standing.clear()
        self._visible.clear()

    def others(self, figure: Figure) -> list[tuple[float, float]]:
        """Where the other figures in play stand (they block moves)."""
        return [f.pos for f in self.standing(None) if f is not figure]

    @property
    def over(self) -> bool:
        return self.game.ending is not None

    # --- the three things that can suspend the game --------------------------------------------------
    def decide(self, ask: Ask) -> Flow[str]:
        controller = self.controllers.get(ask.side)
        if controller is None or self.records:
            answer = yield ask
            return answer
        if not self.roller.source.table:  # seeded: nothing can be missing (an AI's answer is most of a game)
            return controller.choose(self, ask)
        return (yield from self.randomly(lambda: controller.choose(self, ask)))

    def faces(self, count: int, purpose: str, **args: Any) -> Flow[list[int]]:
        """Roll `count` poker dice: their faces (0 for a 9 ... 5 for an Ace)."""
        if count <= 0:
            return []
        if not self.roller.source.table:
            return self.roller.roll_faces(count, FACES, purpose, **args)
        return (yield from self.randomly(lambda: self.roller.roll_faces(count, FACES, purpose, **args)))

    def draw(self, purpose: str, **args: Any) -> Flow[Card | None]:
        if not self.roller.source.table:
            return self.game.deck.draw(self.roller, purpose, **args)
        return (yield from self.randomly(lambda: self.game.deck.draw(self.roller, purpose, **args)))

    def randomly(self, action: Callable[[], T]) -> Flow[T]:
        """Run something that rolls or draws; in table mode, ask for what is missing and run it again
        (it must change nothing before its last roll, as a roll, a draw or a deterministic AI does)."""
        source = self.roller.source
        if not source.table:
            return action()
        while True:
            start, logged = (source.pos if isinstance(source, TableSource) else 0), len(self.roller.log)
            try:
                return action()
            except NeedInput as need:
                assert isinstance(source, TableSource)
                source.pos = start
                del self.roller.log[logged:]  # what it logged before the missing result is logged again
                source.entries.append((yield need.request))

"""The hexcrawl's rules: communities placed before play, then each hex explored when the party first
enters it (the rules of `hexcrawl.md`). The party moves to a neighbour (N, NE, SE, S, SW, NW); the
autopilot explores the rest of the map in the order the parameters name (spiral, breadth-first or a
random walk of the party that never retraces its steps without need), one step for the whole map."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, ClassVar

from dedale.core.dice import DiceExpr
from dedale.core.documents import UNSET, dump
from dedale.core.rules import Choice, Policies, Rules, State
from dedale.core.session import Session
from dedale.core.tables import Table
from dedale.hexcrawl.hexes import (
    DIRECTION_NAMES,
    RELIEFS,
    Hex,
    distance,
    hex_count,
    label,
    labeller,
    neighbour,
    neighbours,
    on_map,
    spiral,
)
from dedale.hexcrawl.model import (
    Community,
    CommunityKind,
    HexcrawlResult,
    HexMap,
    HexRecord,
    Obstacle,
    Row,
    Site,
    SiteKind,
)
from dedale.hexcrawl.params import HexParams
from dedale.hexcrawl.tables import COMMUNITY_TABLES, ONE_DIE, load_tables
from dedale.i18n import Word, data_word, word


class RestPolicy:
    """The batch autopilot: explore everything left, in the map's order, in one step."""

    name = "default"

    def choose(self, session: HexcrawlSession) -> str:
        return "explore-rest"


@dataclass
class HexState(State):
    hexes: dict[Hex, HexRecord] = field(default_factory=dict)  # in exploration order
    party: Hex = (0, 0)
    communities: list[Community] = field(default_factory=list)
    settled: dict[Hex, list[Community]] = field(default_factory=dict)  # the communities by hex
    sites: list[Site] = field(default_factory=list)
    stopped: bool = False


class HexcrawlRules(Rules[HexParams, HexState]):
    system = "hexcrawl"
    # Version 2 changed the walk (a depth-first walk): the other orders replay as in version 1. Version 3 asks
    # for a reason wherever a community clashes with its relief (not only on the waters), and rolls the
    # obstacle chance exactly (a d1000 or a d10000 when whole percents do not say it).
    version = 4
    worded_before = (1, 2)
    policies: ClassVar[Policies] = {"default": lambda s: RestPolicy()}

    def __init__(self, params: HexParams, seed: int, table: bool = False, secret: bytes | None = None) -> None:
        super().__init__(params, seed, table, secret)
        self.tables = load_tables(params.tables)
        # Each face of the one-die tables, read once: a hex is explored hundreds of thousands of times.
        self.vegetation, self.obstacles = _faces(self.tables["vegetation"]), _faces(self.tables["obstacles"])
        self.words: dict[tuple[str, str], Word] = {(name, row.id): row.word for name in ONE_DIE
                                                    for row in self.tables[name].rows}
        self.own = {(name, row.id): row.own_label for name in ONE_DIE for row in self.tables[name].rows
                    if row.own_label is not None}
        self.vegetation_labels = _own_labels(self.vegetation, "vegetation", self.own)
        self.obstacle_labels = _own_labels(self.obstacles, "obstacles", self.own)
        self.hex_label = labeller(params.radius)

    @classmethod
    def params_from_json(cls, data: Any) -> HexParams:
        return HexParams.from_json(data)

    @classmethod
    def loaded_params(cls, params: HexParams, data: dict[str, Any]) -> HexParams:
        """Versions 1 and 2 load too: a version-1 `walk` was the uniform random walk, `random-walk` now; an
        obstacle chance of theirs was rolled on a d100 (as the nearest whole percent)."""
        version = data.get("version")
        if version in (1, 2):
            params = replace(params, obstacle_chance=round(100 * params.obstacle_chance) / 100)
        if version == 1 and params.order == "walk":
            params = replace(params, order="random-walk")
        return params

    def new_state(self) -> HexState:
        return HexState(party=self.params.start)

    @property
    def over(self) -> bool:
        return self.state.stopped or len(self.state.hexes) == hex_count(self.params.radius)

    def log_entry(self, entry: Any) -> dict[str, Any]:
        return entry.log_entry(self.words) if isinstance(entry, HexRecord) else entry

    # --- before play: communities -------------------------------------------------------------------
    def start(self) -> None:
        roller = self.roller
        taken: set[Hex] = set()
        self._community("city", taken)
        others = roller.roll("1d8+2", "hexcrawl.community_count")
        others.decide("hexcrawl.count_is", count=others.total)
        fae = roller.roll("1d8", "hexcrawl.fae_count")
        fae.decide("hexcrawl.count_is", count=fae.total)
        groups: tuple[tuple[CommunityKind, int], ...] = (("community", others.total), ("fae", fae.total))
        for kind, count in groups:
            for _ in range(count):
                self._community(kind, taken)
        if self.params.sites:
            self._sites(taken)
        self._enter(self.params.start)

    def _random_hex(self, purpose: str, taken: set[Hex]) -> Hex:
        """A hex off the outer rim, rolled as a column and a row die (rerolled off the inner map, or onto
        a hex already taken while free ones remain): a table can roll it too."""
        inner = self.params.radius - 1
        if inner <= 0:
            return 0, 0
        free = hex_count(inner) > sum(1 for h in taken if distance(h, (0, 0)) <= inner)
        sides = 2 * inner + 1
        while True:
            q = self.roller.roll(DiceExpr(1, sides), purpose, axis="q").total - inner - 1
            r = self.roller.roll(DiceExpr(1, sides), purpose, axis="r").total - inner - 1
            h = (q, r)
            if abs(q + r) <= inner and (h not in taken or not free):
                taken.add(h)
                return h

    def _row(self, table: str, purpose: str, **args: Any) -> Row:
        return Row(**self.tables.roll(table, self.roller, purpose, **args).item())

    def _community(self, kind: CommunityKind, taken: set[Hex]) -> None:
        number = len(self.state.communities) + 1
        h = self._random_hex("hexcrawl.community_hex", taken)
        name = self._name(number)
        position = self.roller.roll("1d7", "hexcrawl.position", community=number).total
        self.state.communities.append(Community(
            id=number, kind=kind, name=name, q=h[0], r=h[1], label=label(h, self.params.radius), position=position,
            nature=self._row(COMMUNITY_TABLES[kind], "hexcrawl.nature", community=number),
            themes=self._themes(number), function=self._row("function", "hexcrawl.function", community=number),
            people=self._row("people", "hexcrawl.people", community=number)))
        self.state.settled.setdefault(h, []).append(self.state.communities[-1])
        self.roller.note("hexcrawl.community_placed", name=name, kind=word(f"hexcrawl.kind.{kind}"),
                         label=label(h, self.params.radius))

    def _name(self, number: int) -> str:
        """Two syllables from the name tables, rolled again for a name already given or a stutter. A name is
        the same in every language: the syllables' English labels (the shipped ones have no other)."""
        given = {community.name for community in self.state.communities}
        while True:
            start = self.tables.roll("name_start", self.roller, "hexcrawl.name", community=number).label("en")
            end = self.tables.roll("name_end", self.roller, "hexcrawl.name", community=number).label("en")
            if start.lower() != end.lower() and start + end not in given:
                return start + end

    def _themes(self, number: int) -> list[Row]:
        """Two themes, the second rerolled while it repeats the first."""
        first = self._row("themes", "hexcrawl.theme", community=number)
        while (second := self._row("themes", "hexcrawl.theme", community=number)).id == first.id:
            pass
        return [first, second]

    def _sites(self, taken: set[Hex]) -> None:
        """Beyond the seed: the city's satellites (1D4, within 2 hexes of it) and ruins (1D6, anywhere)."""
        radius = self.params.radius
        city = (self.state.communities[0].q, self.state.communities[0].r)
        around = sorted(h for h in _around(city, 2) if on_map(h, radius))
        satellites = self.roller.roll("1d4", "hexcrawl.satellite_count").total if around else 0
        for _ in range(satellites):
            h = around[self.roller.pick(len(around), "hexcrawl.satellite_hex", among=len(around))]
            self._site("satellite", "satellites", h)
        for _ in range(self.roller.roll("1d6", "hexcrawl.ruin_count").total):
            self._site("ruin", "ruins", self._random_hex("hexcrawl.ruin_hex", taken))

    def _site(self, kind: SiteKind, table: str, h: Hex) -> None:
        number = len(self.state.sites) + 1
        self.state.sites.append(Site(
            id=number, kind=kind, q=h[0], r=h[1], label=label(h, self.params.radius),
            position=self.roller.roll("1d7", "hexcrawl.position", site=number).total,
            type=self._row(table, f"hexcrawl.{kind}", site=number)))

    # --- exploring a hex ----------------------------------------------------------------------------
    def _explore(self, h: Hex) -> None:
        """Relief (inherited from the neighbour the die names when it is explored, else the relief die),
        vegetation, and perhaps a natural obstacle with its place in the hex."""
        hexes, die = self.state.hexes, self.roller.die
        neighbour_die = relief_die = weights_die = inherited = None
        if self.params.variant == "rule":
            neighbour_die, relief_die = die(8, "hexcrawl.neighbour_die"), die(8, "hexcrawl.relief_die")
            relief = relief_die - 1
            if neighbour_die <= 6:
                name = DIRECTION_NAMES[neighbour_die - 1]
                found = hexes.get(neighbour(h, name))
                if found is not None:
                    relief, inherited = found.relief, name
        else:  # the simulator: each relief weighs 1/4, plus 1 for each explored neighbour with it (x 4)
            weights = [1] * len(RELIEFS)
            for other in neighbours(h):
                found = hexes.get(other)
                if found is not None:
                    weights[found.relief] += 4
            weights_die = die(sum(weights), "hexcrawl.weights_die")
            relief, left = 0, weights_die
            while left > weights[relief]:
                left -= weights[relief]
                relief += 1
        vegetation_die = die(len(self.vegetation), "hexcrawl.vegetation")
        sides, hits = self.params.obstacle_die
        obstacle_roll = die(sides, "hexcrawl.obstacle_roll")
        obstacle = None
        if obstacle_roll <= hits:
            obstacle_die = die(len(self.obstacles), "hexcrawl.obstacle")
            obstacle = Obstacle(kind=self.obstacles[obstacle_die - 1], label=self.obstacle_labels[obstacle_die - 1],
                                position=die(7, "hexcrawl.position"), die=obstacle_die)
        record = HexRecord(q=h[0], r=h[1], label=self.hex_label(h), order=len(hexes),
                           neighbour_die=neighbour_die, relief_die=relief_die, weights_die=weights_die, relief=relief,
                           relief_name=RELIEFS[relief], inherited_from=inherited,
                           vegetation=self.vegetation[vegetation_die - 1],
                           vegetation_label=self.vegetation_labels[vegetation_die - 1], vegetation_die=vegetation_die,
                           obstacle_roll=obstacle_roll, obstacle=obstacle)
        hexes[h] = record
        self.state.log.append(record)
        if h in self.state.settled:
            self._note_clashes(h, relief)

    def _note_clashes(self, h: Hex, relief: int) -> None:
        """A community whose nature, function or people clashes with the relief its hex turns out to have
        (the tables say which): the log asks the table to invent why, never to reroll."""
        for community in self.state.settled[h]:
            for table, trait in ((COMMUNITY_TABLES[community.kind], community.nature),
                                 ("function", community.function), ("people", community.people)):
                row = self.tables[table].row(trait.id)
                if row is not None and RELIEFS[relief] in row.get("clashes", ()):
                    self.roller.note("hexcrawl.clash", name=community.name, trait=data_word("hexcrawl", table,
                                     trait.id), relief=word(f"hexcrawl.relief.{RELIEFS[relief]}"))

    def _enter(self, h: Hex) -> None:
        self.state.party = h
        if h not in self.state.hexes:
            self._explore(h)

    def _explore_rest(self) -> None:
        radius, hexes = self.params.radius, self.state.hexes
        order = self.params.order
        if order == "walk":
            self._walk()
        elif order == "random-walk":
            self._random_walk()
        else:
            for h in spiral(radius) if order == "spiral" else _breadth_first(self.params.start, radius):
                if h not in hexes:
                    self._explore(h)

    def _walk(self) -> None:
        """A randomized depth-first walk of the party: each step to a neighbour this walk has not entered yet
        (explored or not), picked at random, else back the way it came, until every hex is explored. A step
        forward enters a new hex and a step back retraces one: at most two steps a hex, whatever the start."""
        radius, hexes = self.params.radius, self.state.hexes
        total = hex_count(radius)
        path = [self.state.party]
        entered = {self.state.party}
        while len(hexes) < total:
            options = [h for h in neighbours(path[-1]) if h not in entered and on_map(h, radius)]
            if options:
                h = options[self.roller.pick(len(options), "autopilot.walk", among=len(options))]
                entered.add(h)
                path.append(h)
                self._enter(h)
            else:  # a dead end: back to the hex it came from (explored already, so nothing is rolled)
                path.pop()
                self.state.party = path[-1]

    def _random_walk(self) -> None:
        """The spec's random walk: each step to a uniformly chosen neighbour on the map, until every hex is
        explored. It retraces its steps at random, about 30 steps a hex at radius 40: for small maps."""
        radius, hexes, total = self.params.radius, self.state.hexes, hex_count(self.params.radius)
        while len(hexes) < total:
            options = [h for h in neighbours(self.state.party) if on_map(h, radius)]
            self._enter(options[self.roller.pick(len(options), "autopilot.walk", among=len(options))])

    # --- choices ------------------------------------------------------------------------------------
    def rule_choices(self) -> list[Choice]:
        radius = self.params.radius
        party, hexes = self.state.party, self.state.hexes
        choices = []
        for name in DIRECTION_NAMES:
            h = neighbour(party, name)
            if on_map(h, radius):
                explored = h in hexes
                choices.append(Choice(f"move:{name}", partial(_move_says, name, h, radius, explored),
                                      {"kind": "move", "dir": name, "key": name, "hex": list(h), "explored": explored}))
        order = word(f"hexcrawl.order.{self.params.order}")
        choices.append(Choice("explore-rest", word("hexcrawl.choice.rest", order=order), {"kind": "explore-rest"}))
        choices.append(Choice("stop", word("hexcrawl.choice.stop"), {"kind": "stop", "key": "stop"}))
        return choices

    def apply(self, choice: Choice) -> None:
        kind = choice.data["kind"]
        if kind == "move":
            self._enter(neighbour(self.state.party, choice.data["dir"]))
        elif kind == "explore-rest":
            self._explore_rest()
        else:
            self.state.stopped = True
        if self.over:
            self.roller.note("hexcrawl.over", hexes=len(self.state.hexes))

    # --- results ------------------------------------------------------------------------------------
    def hex_map(self) -> HexMap:
        state = self.state
        return HexMap(self.params.radius, state.hexes, state.communities, state.sites, state.party, self.own,
                      self.seed)

    def result_json(self) -> dict[str, Any]:
        state = self.state
        return dump(HexcrawlResult(list(state.hexes.values()), state.communities, state.sites, list(state.party),
                                   len(state.hexes), hex_count(self.params.radius), state.stopped))


def _faces(table: Table) -> list[str]:
    """The row id for each face of a one-die table."""
    assert table.dice is not None  # the hexcrawl's tables are checked to have their die (`tables.check`)
    return [table.row_for(face).id for face in range(1, table.dice.sides + 1)]


def _own_labels(faces: list[str], table: str, own: dict[tuple[str, str], Any]) -> list[Any]:
    """For each face of a one-die table, its row's label if it is a player's own (else UNSET: none written)."""
    return [own.get((table, row_id), UNSET) for row_id in faces]


def _move_says(name: str, h: Hex, radius: int, explored: bool) -> Word:
    state = "explored_hex" if explored else "unexplored"
    return word("hexcrawl.choice.move", dir=word(f"hexdir.{name}"), label=label(h, radius),
                state=word(f"hexcrawl.{state}"))


def _around(centre: Hex, reach: int) -> Iterator[Hex]:
    """The hexes within `reach` of `centre`, itself left out (on the map or not)."""
    q, r = centre
    for dq in range(-reach, reach + 1):
        for dr in range(max(-reach, -dq - reach), min(reach, -dq + reach) + 1):
            if dq or dr:
                yield q + dq, r + dr


def _breadth_first(start: Hex, radius: int) -> list[Hex]:
    seen = {start}
    queue = deque([start])
    ordered = []
    while queue:
        h = queue.popleft()
        ordered.append(h)
        for other in neighbours(h):
            if other not in seen and on_map(other, radius):
                seen.add(other)
                queue.append(other)
    return ordered


HexcrawlSession = Session[HexcrawlRules]  # a hexcrawl: `Session(HexcrawlRules, params, seed)`

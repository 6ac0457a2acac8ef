"""The paper dungeon's rules: the seed's procedure as a state, its legal choices and its steps.

Take an open end (the player's choice; the autopilot's order is a parameter), draw a card, apply the
card table. Phases:

    explore -> (card) -> [stairs_or_exit] (Ace, 2) or [queen] or [room_exit] x 1D4-1 (rooms) -> explore
    explore -> search (a wall adjoining another feature) -> explore ... -> over

Kings reshuffle and draw again without counting against the card budget.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, ClassVar

from dedale.core.cards import JOKER, Card, Deck
from dedale.core.documents import UNSET, dump
from dedale.core.grid import DIRS, Cell, Dir, Rect
from dedale.core.rules import Choice, Policies, Rules, State
from dedale.core.session import Session
from dedale.i18n import Word, word
from dedale.paper.autopilot import DefaultPolicy
from dedale.paper.contents import load_tables, roll_contents
from dedale.paper.layout import WALLS, Page, fit_room, wall_side, wall_squares
from dedale.paper.model import (
    Contents,
    Dice,
    DirName,
    Door,
    DoorKind,
    DoorWay,
    Drawn,
    Ending,
    Exit,
    ExitResult,
    Feature,
    FeatureKind,
    OpenEnd,
    PaperMap,
    PaperResult,
    Phase,
    Rolled,
    Room,
    Square,
    SquareKind,
    Wall,
    named,
)
from dedale.paper.params import PaperParams
from dedale.paper.rules import CARD_KIND, EXIT_WALL, SECRET_WAY, SUIT_DIE, T_JUNCTION, adjust_size, trap_square

# What ends a corridor laid for each card, when it runs its full length.
TURNS: dict[str, tuple[str, ...]] = {"corridor": ("straight",), "trap_corridor": ("straight",),
                                     "crossroads": ("left", "right", "straight"), "bend_right": ("right",),
                                     "bend_left": ("left",)}
END_SQUARES: dict[FeatureKind, SquareKind] = {"stairs_up": "stairs_up", "stairs_down": "stairs_down", "exit": "exit",
                                               "dead_end": "dead_end"}
_AROUND = tuple((d, d.opposite, d.dx, d.dy) for d in DIRS)


@dataclass
class Work:
    """The open end being worked, and the room being finished on it."""

    end: OpenEnd
    feature: Feature | None = None
    room: int | None = None
    exits_left: int = 0


@dataclass
class PaperState(State):
    page: Page | None = None
    deck: Deck = field(default_factory=Deck)
    features: list[Feature] = field(default_factory=list)
    rooms: list[Room] = field(default_factory=list)
    doors: list[Door] = field(default_factory=list)
    open_ends: list[OpenEnd] = field(default_factory=list)
    next_end: int = 1
    draws: list[Drawn] = field(default_factory=list)
    cards_used: int = 0
    kings_aside: int = 0
    searched: set[tuple[int, DirName]] = field(default_factory=set)
    ways: set[frozenset[Cell]] = field(default_factory=set)  # the squares each door joins
    links: set[frozenset[int | None]] = field(default_factory=set)  # the features a door or opening joins
    # Room walls and dead ends that adjoin another feature no door links them to: the squares on each
    # side (kept up to date as squares are laid and doors made, since every step lists the searches)
    walls: dict[int, dict[str, set[tuple[Cell, Cell]]]] = field(default_factory=dict)  # feature -> side -> squares
    phase: Phase = "explore"
    work: Work | None = None
    ended: Ending | None = None


class PaperRules(Rules[PaperParams, PaperState]):
    system = "paper"
    # Version 2 moves an exit that cannot go on its rolled square to the nearest free one (`exit_collisions`);
    # version 1 documents replay as they were made (`drop`). Version 3 words open ends, exits and searches by
    # what the picture shows, not by coordinates: a version-2 document is checked without its log's words.
    version = 5
    worded_before = (1, 2, 3)
    policies: ClassVar[Policies] = {"default": lambda s: DefaultPolicy(s.params.order)}

    def __init__(self, params: PaperParams, seed: int, table: bool = False, secret: bytes | None = None) -> None:
        super().__init__(params, seed, table, secret)
        self.tables = load_tables(params.tables)

    @classmethod
    def params_from_json(cls, data: Any) -> PaperParams:
        return PaperParams.from_json(data)

    @classmethod
    def loaded_params(cls, params: PaperParams, data: dict[str, Any]) -> PaperParams:
        """A version-1 document replays as it was made: an exit that could not go on its square was dropped."""
        return replace(params, exit_collisions="drop") if data.get("version") == 1 else params

    def new_state(self) -> PaperState:
        return PaperState(page=Page(self.params.width, self.params.height))

    @property
    def page(self) -> Page:
        assert self.state.page is not None
        return self.state.page

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    # --- the starting room -----------------------------------------------------------------------
    def start(self) -> None:
        """A start_size square room at the middle of the south edge, entered from the south, with an exit
        on each of its other three walls (placed with a die, as room exits are)."""
        size, width, height = self.params.start_size, self.params.width, self.params.height
        feature = self._feature(None, "start")
        rect = Rect((width - size) // 2, height - size, size, size)
        entry = (rect.x + (size - 1) // 2, height - 1)
        room = self._lay_room(feature, rect, (entry[0], height), entry, Dir.N, None, (size, size), "entrance")
        for wall in WALLS:
            self._place_exit(room, wall, self._position(room, wall), None)
        self._after()

    # --- cards --------------------------------------------------------------------------------------
    def _feature(self, card: Card | None, kind: FeatureKind) -> Feature:
        work = self.state.work
        feature = Feature(len(self.state.features), card, kind, Dice(), None if work is None else work.end.id, [])
        self.state.features.append(feature)
        return feature

    def _draw(self) -> None:
        """Draw a card for the open end being worked and apply it (Kings: reshuffle and draw again)."""
        state = self.state
        assert state.work is not None
        if state.cards_used >= self.params.max_cards:
            self._reopen(state.work.end)
            self.roller.note("paper.budget", cards=state.cards_used)
            self._finish("budget")
            return
        card = state.deck.draw(self.roller, "paper.card", end=state.work.end.id)
        assert card is not None and card.rank != JOKER  # a King reshuffles before the pile runs out; no Joker
        state.draws.append(Drawn(card.rank, card.suit))
        kind = CARD_KIND[card.rank]
        if kind == "king":
            self._king(card)
            self._draw()
            return
        state.cards_used += 1
        state.work.feature = self._feature(card, kind)
        if kind in ("stairs_up", "stairs_down"):
            state.phase = "stairs_or_exit"
        elif kind == "queen":
            state.phase = "queen"
        elif kind == "room":
            self._room(card)
        else:
            self._corridor(card, kind)

    def _king(self, card: Card) -> None:
        state = self.state
        if self.params.kings == "set-aside":
            state.kings_aside += 1
            if state.kings_aside < 4:
                self._feature(card, "set_aside")
                self.roller.note("paper.king_aside", kings=state.kings_aside)
                return
            state.kings_aside = 0
        self._feature(card, "reshuffle")
        state.deck.reshuffle(self.roller)
        state.draws.append(Drawn(reshuffle=True))

    # --- corridors ----------------------------------------------------------------------------------
    def _x(self, card: Card, feature: Feature) -> int:
        roll = self.roller.roll(SUIT_DIE[card.suit], "paper.x", feature=feature.id, what=_named(feature))
        feature.dice.x = roll.total
        return roll.total

    def _corridor(self, card: Card, kind: FeatureKind) -> None:
        """X squares of corridor from the open end, then what the card makes at its end."""
        state, page = self.state, self.page
        work = state.work
        assert work is not None
        end, feature = work.end, work.feature
        assert feature is not None
        feature.kind = kind
        length = self._x(card, feature)
        heading = end.heading
        cells, how = page.run(end.cell, heading, length)
        feature.dir = end.dir
        self._occupy(cells, "corridor", feature.id)
        feature.cells = [list(c) for c in cells]
        self._connect(end.back, cells[0], "opening")
        self._claim(cells)
        last = cells[-1]
        feature.outcome = how
        if kind == "trap_corridor":
            trap = self.roller.roll("1d6", "paper.trap", feature=feature.id, what=_named(feature))
            feature.dice.trap = trap.total
            feature.trap = "pit" if trap.total <= 3 else "other"
            trap.decide(f"paper.trap_{feature.trap}")
            page.put(cells[trap_square(len(cells))], "trap", feature.id)
        if how == "edge":
            self._dead_end(last, feature)
        elif how == "joined":
            self._connect(last, heading.step(last), "opening")
        elif kind in END_SQUARES:
            page.put(last, END_SQUARES[kind], feature.id)
        else:
            turns = TURNS.get(kind)
            if turns is None:  # the T junction
                roll = self.roller.roll("1d6", "paper.t_junction", feature=feature.id, what=_named(feature))
                feature.dice.t = roll.total
                turns = T_JUNCTION[roll.total]
                roll.decide("paper.t_ways", ways=word(f"paper.ways.{'_'.join(turns)}"))
            for turn in turns:
                d = {"left": heading.left, "right": heading.right, "straight": heading}[turn]
                self._open_end(d.step(last), d, last, feature)
        self.roller.note("paper.laid", feature=feature.id, what=_named(feature), kind=word(f"paper.kind.{kind}"),
                         length=len(cells), how=word(f"paper.how.{how}"))
        self._done()

    def _dead_end(self, cell: Cell, feature: Feature) -> None:
        if self.page.cells[cell][0] == "corridor":
            self.page.put(cell, "dead_end", feature.id)
            assert feature.dir is not UNSET
            ahead = Dir[feature.dir]
            other = self.page.owner(ahead.step(cell))
            if other is not None and other != feature.id:
                self._adjoin(feature.id, ahead, cell, other)

    def _occupy(self, cells: list[Cell], kind: SquareKind, feature: int) -> None:
        """Put a feature's squares on the page, and note which room walls and dead ends they adjoin."""
        features, squares = self.state.features, self.page.cells
        for cell in cells:
            squares[cell] = (kind, feature)
        is_room = features[feature].room is not UNSET
        for x, y in cells:
            for d, back, dx, dy in _AROUND:
                beyond = (x + dx, y + dy)
                found = squares.get(beyond)
                if found is None or found[1] == feature:
                    continue
                other = found[1]
                if is_room:
                    self._adjoin(feature, d, (x, y), other)
                if features[other].room is not UNSET or (found[0] == "dead_end" and features[other].dir == back.name):
                    self._adjoin(other, back, beyond, feature)

    def _adjoin(self, feature: int, side: Dir, cell: Cell, other: int) -> None:
        """`feature`'s wall on `side` adjoins `other` at `cell`: a place to search, unless a door links them."""
        if frozenset((feature, other)) not in self.state.links:
            self.state.walls.setdefault(feature, {}).setdefault(side.name, set()).add((cell, side.step(cell)))

    def _open_end(self, cell: Cell, d: Dir, behind: Cell, feature: Feature) -> None:
        """A new open end, unless the page ends there (a dead end) or the map is already there (a join)."""
        page = self.page
        if not page.on_page(cell):
            self._dead_end(behind, feature)
        elif not page.free(cell):
            self._connect(behind, cell, "opening")
        else:
            self.state.open_ends.append(OpenEnd(self.state.next_end, *cell, named(d), list(behind), feature.id))
            self.state.next_end += 1

    def _claim(self, cells: list[Cell]) -> None:
        """Open ends the new feature covers join it."""
        covered = set(cells)
        for end in [e for e in self.state.open_ends if e.cell in covered]:
            self.state.open_ends.remove(end)
            self._connect(end.back, end.cell, "opening")

    def _connect(self, a: Cell, b: Cell, kind: DoorKind, way: DoorWay = "both") -> None:
        """A way between two squares (once), and the two features it links (a room's exit door may be
        there before the feature beyond it: the link is made when that feature is laid)."""
        state, page = self.state, self.page
        if frozenset((a, b)) not in state.ways:
            state.ways.add(frozenset((a, b)))
            state.doors.append(Door([list(a), list(b)], kind, way))
        pair = (page.owner(a), page.owner(b))
        if frozenset(pair) in state.links:
            return
        state.links.add(frozenset(pair))
        for one, other in (pair, pair[::-1]):  # the walls between them are no longer places to search
            for squares in state.walls.get(one, {}).values() if one is not None else ():
                squares -= {p for p in squares if page.owner(p[1]) == other}

    def _reopen(self, end: OpenEnd) -> None:
        self.state.open_ends.append(end)
        self.state.open_ends.sort(key=lambda e: e.id)
        self.state.work = None

    # --- rooms --------------------------------------------------------------------------------------
    def _room(self, card: Card) -> None:
        state = self.state
        work = state.work
        assert work is not None and work.feature is not None
        sides = int(SUIT_DIE[card.suit][2:])
        roll = self.roller.roll(f"2d{sides}", "paper.room_size", feature=work.feature.id,
                                room=len(state.rooms) + 1)  # the number it is laid with (it always fits)
        a, b = roll.dice
        size = adjust_size(a, b)
        roll.decide("paper.rule_b", w=size[0], h=size[1])
        work.feature.dice.size = [a, b]
        fit = fit_room(self.page, work.end.cell, work.end.heading, *size)
        assert fit is not None  # an open end's square is free: a 1 x 1 room always fits
        rect, w, h = fit
        if (w, h) != size:
            self.roller.note("paper.shrunk", w=w, h=h)
        room = self._lay_room(work.feature, rect, work.end.back, work.end.cell, work.end.heading, (a, b), size)
        work.room = room.id
        exits = self.roller.roll("1d4", "paper.exits", room=room.id)
        room.exits_roll = exits.total
        work.exits_left = exits.total - 1
        exits.decide("paper.exits_are", exits=work.exits_left)
        if work.exits_left:
            self.state.phase = "room_exit"
        else:
            self._finish_room()

    def _lay_room(self, feature: Feature, rect: Rect, outside: Cell, entry: Cell, d: Dir,
                  dice: tuple[int, int] | None, size: tuple[int, int], door: DoorKind = "door") -> Room:
        room = Room(len(self.state.rooms) + 1, feature.id, rect.x, rect.y, rect.w, rect.h, named(d),
                    [list(outside), list(entry)], None if dice is None else list(dice), list(size), None, [], None,
                    Contents())
        self.state.rooms.append(room)
        feature.room = room.id
        feature.cells = [list(c) for c in rect.cells()]
        self._occupy(rect.cells(), "room", feature.id)
        self._connect(outside, entry, door)
        self._claim(rect.cells())
        return room

    def _position(self, room: Room, wall: Wall) -> int:
        """Where along the wall: one die with a face for each square it may take (no roll for one)."""
        squares = len(wall_squares(room.rect, room.heading, wall))
        if squares == 1:
            return 1
        return self.roller.roll(f"1d{squares}", "paper.exit_position", room=room.id,
                                wall=word(f"paper.wall.{wall}")).total

    def _place_exit(self, room: Room, wall: Wall, position: int, wall_roll: int | None) -> None:
        rolled, lost = (wall, position), False
        if self.params.exit_collisions == "move" and not self._exit_fits(room, wall, position):
            moved = self._nearest_free_square(room, wall, position)
            lost = moved is None  # every square of every wall has an exit or is off the page
            wall, position = moved or rolled
        side = wall_side(room.heading, wall)
        cell = wall_squares(room.rect, room.heading, wall)[position - 1]
        outside = side.step(cell)
        elsewhere = (wall, position) != rolled
        if elsewhere:
            self.roller.note("paper.exit_moved", room=room.id, wall=word(f"paper.wall.{rolled[0]}"),
                             position=rolled[1], to_wall=word(f"paper.wall.{wall}"), to_position=position)
        result: ExitResult
        if lost:
            result = "lost"
        elif _has_exit(room, side, cell):
            result = "taken"
        elif not self.page.on_page(outside):
            result = "off_page"
        else:
            result = "open" if self.page.free(outside) else "joined"
            self._connect(cell, outside, "door")
            if result == "open":
                feature = self.state.features[room.feature]
                self._open_end(outside, side, cell, feature)
        room.exits.append(Exit(wall=wall, side=named(side), position=position, cell=list(cell), outside=list(outside),
                               wall_roll=wall_roll, rolled=Rolled(*rolled) if elsewhere else UNSET, result=result))
        self.roller.note(f"paper.exit_{result}", room=room.id, wall=word(f"paper.wall.{wall}"), position=position)

    def _exit_fits(self, room: Room, wall: Wall, position: int) -> bool:
        """The square can take a new exit: none there yet, and the page goes on beyond it."""
        side = wall_side(room.heading, wall)
        cell = wall_squares(room.rect, room.heading, wall)[position - 1]
        return not _has_exit(room, side, cell) and self.page.on_page(side.step(cell))

    def _nearest_free_square(self, room: Room, wall: Wall, position: int) -> tuple[Wall, int] | None:
        """Where an exit that cannot go on its square goes instead (issue 18, following step C): the nearest
        square of the same wall that can take it, else of the nearest wall; nearest by squares apart, the
        later square on a tie."""
        rolled = wall_squares(room.rect, room.heading, wall)[position - 1]
        found = [(other != wall, max(abs(cell[0] - rolled[0]), abs(cell[1] - rolled[1])), -index, other, index)
                 for other in WALLS for index, cell in enumerate(wall_squares(room.rect, room.heading, other), 1)
                 if self._exit_fits(room, other, index)]
        if not found:
            return None
        *_, other, index = min(found)
        return other, index

    def _finish_room(self) -> None:
        work = self.state.work
        assert work is not None and work.room is not None
        room = self.state.rooms[work.room - 1]
        room.contents_roll, room.contents = roll_contents(self.tables, self.roller, room.id)
        self._done()

    # --- searching ----------------------------------------------------------------------------------
    def search_targets(self) -> list[tuple[int, Dir, Cell, Cell]]:
        """Walls of rooms, and dead ends, adjoining another feature with no way through to it yet:
        (feature, side, square, square beyond) with the door's place, most recent features first."""
        state = self.state
        found = [(feature, Dir[side], *sorted(pairs)[len(pairs) // 2])
                 for feature, sides in state.walls.items() for side, pairs in sides.items()
                 if pairs and (feature, side) not in state.searched]
        return sorted(found, key=lambda f: (-f[0], f[1].name))

    def _search(self, feature: int, d: Dir) -> None:
        target = next(f for f in self.search_targets() if f[0] == feature and f[1] is d)
        self.state.searched.add((feature, named(d)))
        what = _named(self.state.features[feature])
        roll = self.roller.roll("1d6", "paper.search", feature=feature, what=what, dir=d.name)
        if roll.total != 1:
            roll.decide("paper.search_failed")
            self._after()
            return
        roll.decide("paper.search_found")
        way = self.roller.roll("1d6", "paper.secret_way", feature=feature, what=what)
        opens = SECRET_WAY[way.total]
        way.decide(f"paper.way_{opens}")
        self._connect(target[2], target[3], "secret", opens)
        self._after()

    # --- choices ------------------------------------------------------------------------------------
    def rule_choices(self) -> list[Choice]:
        phase = self.state.phase
        if phase == "stairs_or_exit":
            return [Choice(c, word(f"paper.choice.{c}"), {"kind": c}) for c in ("stairs", "exit", "roll")]
        if phase == "queen":
            return [Choice(c, word(f"paper.choice.{c}"), {"kind": c}) for c in ("dead-end", "draw-again")]
        if phase == "room_exit":
            return self._exit_choices()
        return [*map(self._end_choice, self.state.open_ends), *map(self._search_choice, self.search_targets()),
                Choice("finish", word("paper.choice.finish"), {"kind": "finish"})]

    def find_choice(self, choice_id: str) -> Choice | None:
        """Open ends and searches found by id, without listing every choice (see Rules.find_choice)."""
        kind, _, arg = choice_id.partition(":")
        if self.state.phase == "room_exit" and choice_id == "roll":
            return self._roll_exit_choice()
        if self.state.phase != "explore" or kind not in ("end", "search"):
            return super().find_choice(choice_id)
        if kind == "end":
            end = next((e for e in self.state.open_ends if str(e.id) == arg), None)
            return None if end is None else self._end_choice(end)
        target = next((f for f in self.search_targets() if f"{f[0]}:{f[1].name}" == arg), None)
        return None if target is None else self._search_choice(target)

    def _roll_exit_choice(self) -> Choice:
        work = self.state.work
        assert work is not None
        return Choice("roll", word("paper.choice.roll_exit", left=work.exits_left), {"kind": "roll"})

    def _end_choice(self, end: OpenEnd) -> Choice:
        # Named as the picture shows it (its number there is the list's): the way it goes, where it comes from
        room = self.state.features[end.source].room
        return Choice(f"end:{end.id}", lambda: (word("paper.choice.end_room", room=room, dir=word(f"dir.{end.dir}"))
                                                if room else word("paper.choice.end", dir=word(f"dir.{end.dir}"))),
                      {"kind": "end", "end": end.id, "cell": list(end.cell)})

    def _search_choice(self, target: tuple[int, Dir, Cell, Cell]) -> Choice:
        feature, d, cell, beyond = target
        room = self.state.features[feature].room
        says = (word("paper.choice.search_room", room=room, dir=word(f"dir.{d.name}")) if room
                else word("paper.choice.search_dead_end", dir=word(f"dir.{d.name}")))
        return Choice(f"search:{feature}:{d.name}", says, {"kind": "search", "feature": feature, "dir": d.name,
                                                          "cells": [list(cell), list(beyond)]})

    def _exit_choices(self) -> list[Choice]:
        work = self.state.work
        assert work is not None and work.room is not None
        room = self.state.rooms[work.room - 1]
        choices = [self._roll_exit_choice()]
        for wall in WALLS:
            side = wall_side(room.heading, wall)
            for position, cell in enumerate(wall_squares(room.rect, room.heading, wall), 1):
                if self.page.on_page(side.step(cell)):
                    choices.append(Choice(f"wall:{wall}:{position}", partial(_wall_says, wall, position),
                                          {"kind": "wall", "wall": wall, "position": position,
                                           "cells": [list(cell), list(side.step(cell))]}))
        return choices

    # --- applying a choice --------------------------------------------------------------------------
    def apply(self, choice: Choice) -> None:
        state = self.state
        data = choice.data  # what `rule_choices` said the choice points at
        kind = data["kind"]
        work = state.work
        if kind == "end":
            end = next(e for e in state.open_ends if e.id == data["end"])
            state.open_ends.remove(end)
            state.work = Work(end)
            self._draw()
        elif kind == "search":
            self._search(data["feature"], Dir[data["dir"]])
        elif kind == "finish":
            self._finish("stopped")
        elif kind in ("stairs", "exit", "roll") and state.phase == "stairs_or_exit":
            assert work is not None
            self._stairs_or_exit(kind, work)
        elif kind == "dead-end":
            assert work is not None and work.feature is not None
            self._corridor(_card(work.feature), "dead_end")
        elif kind == "draw-again":
            assert work is not None and work.feature is not None
            work.feature.kind = "draw_again"
            self._draw()
        else:  # a room exit: rolled, or placed by the player
            assert work is not None and work.room is not None
            room = state.rooms[work.room - 1]
            if kind == "roll":
                roll = self.roller.roll("1d6", "paper.exit_wall", room=room.id)
                wall = EXIT_WALL[roll.total]
                roll.decide("paper.exit_wall_is", wall=word(f"paper.wall.{wall}"))
                self._place_exit(room, wall, self._position(room, wall), roll.total)
            else:
                self._place_exit(room, data["wall"], data["position"], None)
            work.exits_left -= 1
            if not work.exits_left:
                self._finish_room()

    def _stairs_or_exit(self, kind: str, work: Work) -> None:
        assert work.feature is not None
        stairs = work.feature.kind
        if kind == "roll":
            roll = self.roller.roll("1d6", "paper.stairs_or_exit", feature=work.feature.id, what=_named(work.feature))
            kind = "stairs" if roll.total <= 3 else "exit"
            roll.decide(f"paper.chose_{kind}")
        self._corridor(_card(work.feature), stairs if kind == "stairs" else "exit")

    # --- the end --------------------------------------------------------------------------------------
    def _done(self) -> None:
        self.state.work = None
        self.state.phase = "explore"
        self._after()

    def _after(self) -> None:
        state = self.state
        if state.phase != "explore":
            return
        if state.cards_used >= self.params.max_cards and state.open_ends:
            self.roller.note("paper.budget", cards=state.cards_used)
            self._finish("budget")
        elif not state.open_ends and not self.search_targets():
            self._finish("complete")

    def _finish(self, why: Ending) -> None:
        self.state.ended = why
        self.state.phase = "over"
        self.roller.note(f"paper.ended_{why}", cards=self.state.cards_used, rooms=len(self.state.rooms))

    # --- results --------------------------------------------------------------------------------------
    def paper_map(self) -> PaperMap:
        state = self.state
        cells = dict(sorted(self.page.cells.items(), key=lambda c: (c[0][1], c[0][0])))  # the JSON's order
        return PaperMap(self.params.width, self.params.height, cells, state.doors, state.rooms,
                        state.features, state.open_ends, state.ended, self.seed, state.cards_used)

    def result_json(self) -> dict[str, Any]:
        state = self.state
        squares = sorted(self.page.cells.items(), key=lambda c: (c[0][1], c[0][0]))
        return dump(PaperResult(
            state.phase, state.ended, state.cards_used, state.draws, state.features, state.rooms,
            [Square(x, y, kind, feature) for (x, y), (kind, feature) in squares], state.doors, state.open_ends,
            [[feature, side] for feature, side in sorted(state.searched)]))


def _wall_says(wall: str, position: int) -> Word:
    return word("paper.choice.wall", wall=word(f"paper.wall.{wall}"), position=position)


def _named(feature: Feature) -> Word:
    """A feature as its picture shows it: a room by its number, anything else by the card that made it (drawn
    on the map with the cards option)."""
    if feature.room is not UNSET:
        return word("paper.named_room", room=feature.room)
    return word("paper.named_card", card=_card(feature).short_word)


def _card(feature: Feature) -> Card:
    assert feature.card is not None
    return feature.card


def _has_exit(room: Room, side: Dir, cell: Cell) -> bool:
    """The room has an exit drawn through that side of that square."""
    return any(e.cell == list(cell) and e.side == side.name and e.result in ("open", "joined") for e in room.exits)


PaperSession = Session[PaperRules]  # a paper dungeon: `Session(PaperRules, params, seed)`

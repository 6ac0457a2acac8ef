"""The crawler's rules (`crawler.md`) as a state, its legal choices and its steps.

A step goes: choose an open exit (or search a wall); roll the D8 and the boss check; choose beyond the
exit or filling; choose the position and rotation (and the door, when several fit). Phases:

    explore -> [boss_failed] -> [fill_or_beyond] -> [place] -> [door] -> explore ... -> over
    explore --search--> [passage] -> (the room beyond the passage, as above)

A phase with a single possibility is applied at once and noted in the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, ClassVar

from dedale.core.documents import dump
from dedale.core.grid import BY_NAME, DIRS, Dir, Rect
from dedale.core.rules import Choice, Policies, Rules, State
from dedale.core.session import Session
from dedale.crawler.autopilot import DefaultPolicy
from dedale.crawler.board import Zone
from dedale.crawler.contents import load_tables, roll_contents
from dedale.crawler.frontier import Frontier
from dedale.crawler.layout import Approach, Candidate, DoorOption, Layout
from dedale.crawler.model import SIDES, ClosedExit, CrawlerResult, Door, Dungeon, Outcome, Passage, Phase, Room, Search
from dedale.crawler.params import CrawlerParams
from dedale.crawler.tiles import BOSS, TILE_NAMES, Stock, by_nearest_area, tile_name, tile_size
from dedale.i18n import Word, word


@dataclass
class Generation:
    """The room being generated."""

    approach: Approach | None  # None: the boss laid by filling when the party is stuck
    rolled: str | None = None
    tile: str = ""
    boss: bool = False
    options: dict[str, tuple[str, list[Candidate], bool]] = field(default_factory=dict)
    candidates: list[Candidate] = field(default_factory=list)
    filling: bool = False
    chosen: Candidate | None = None
    runs: list[tuple[tuple[int, int], ...]] = field(default_factory=list)  # secret passage options
    search: tuple[int, Dir] | None = None
    listed: tuple[Phase, list[str]] | None = None  # the phase's listed choice ids, once worked out


@dataclass
class CrawlerState(State):
    layout: Layout = field(kw_only=True)
    size: int = 0
    stock: Stock = field(default_factory=lambda: Stock(None))
    closed: set[tuple[int, Dir]] = field(default_factory=set)
    searches: dict[int, dict[Dir, bool]] = field(default_factory=dict)  # room -> face -> found
    frontier: Frontier = field(default_factory=Frontier)  # the open exits and walls to search, kept as rooms are laid
    phase: Phase = "explore"
    current: Generation | None = None
    outcome: Outcome | None = None
    boss_due: bool = False  # a passed boss check whose room found no place yet: the next room is the boss's


class CrawlerRules(Rules[CrawlerParams, CrawlerState]):
    system = "crawler"
    # Version 2: the log says why a rolled room cannot go beyond an exit, and a passed boss check's room that
    # found no place goes to the next exit taken (`passed_boss`). Version 1 loads, with `passed_boss` reroll.
    # Version 3 words its doors, exits and searches by what the picture shows (the wall, the square, the
    # number), not by coordinates: a version-2 document is checked without its log's words.
    # Version 4 records `door_corners` (no door on a zone's corner cells, the text's reading): the documents
    # before it, made with the room reading, replay with it (`params_from_json`) and are checked in full.
    version = 5
    worded_before = (1, 2)
    recomputed_before: ClassVar[dict[int, tuple[str, ...]]] = {3: ()}  # loads, nothing worked out again
    policies: ClassVar[Policies] = {"default": lambda s: DefaultPolicy(s.params.fill_chance)}

    def __init__(self, params: CrawlerParams, seed: int, table: bool = False, secret: bytes | None = None) -> None:
        super().__init__(params, seed, table, secret)
        self.tables = load_tables(params.tables)
        self.board, self.boss_size = params.board, params.boss

    @classmethod
    def loaded_params(cls, params: CrawlerParams, data: dict[str, Any]) -> CrawlerParams:
        """A version-1 document replays as it was made: a passed boss check's room that found no place was
        given up (`passed_boss` reroll)."""
        return replace(params, passed_boss="reroll") if data.get("version") == 1 else params

    @classmethod
    def params_from_json(cls, data: Any) -> CrawlerParams:
        """A document's parameters (or a stored web session's, or a permalink's). They record every one;
        recorded before `door_corners` was (they name the board but not it), they were played with no door on a
        room's corner cells: they keep that reading. Parameters that name nothing take every default."""
        if isinstance(data, dict) and "board_zones" in data and "door_corners" not in data:
            data = {**data, "door_corners": "room"}
        return CrawlerParams.from_json(data)

    def new_state(self) -> CrawlerState:
        layout = Layout(self.board, zone_corners=self.params.door_corners == "zone")
        return CrawlerState(layout=layout, stock=Stock(self.params.stock))

    @property
    def layout(self) -> Layout:
        return self.state.layout

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    @property
    def room_number(self) -> int:
        """The room counter: the number of the room being generated."""
        return len(self.state.layout.rooms) + 1

    # --- start and the D8 -------------------------------------------------------------------------
    def start(self) -> None:
        dice = self.params.size_dice
        if dice is None:
            self.state.size = int(self.params.size_rule)
            self.roller.note("crawler.size_fixed", size=self.state.size)
        else:
            roll = self.roller.roll(dice, "crawler.size")
            self.state.size = roll.total
            roll.decide("crawler.size_is", size=roll.total)
        zone, side = self.params.start
        self._next_room(self.state.layout.entrance_approach(zone, side))

    def _next_room(self, approach: Approach) -> None:
        self.state.current = Generation(approach)
        k = self.room_number
        if self.state.boss_due:
            self.roller.note("crawler.boss_due", room=k)
            self._with_tile(BOSS, BOSS, boss=True)
        elif k >= self.state.size:
            self.roller.note("crawler.boss_last", room=k, size=self.state.size)
            self._with_tile(BOSS, None, boss=True)
        elif not self.state.stock.any_room():
            self.roller.note("crawler.stock_empty", room=k)
            self._with_tile(BOSS, None, boss=True)
        else:
            self._roll_tile()

    def _roll_tile(self) -> None:
        k, n = self.room_number, self.state.size
        d8 = self.roller.roll("1d8", "crawler.tile", room=k)
        tile = TILE_NAMES[d8.total - 1]
        if tile != BOSS:
            d8.decide("crawler.tile_is", tile=tile)
            self._with_tile(tile, tile, boss=False)
            return
        if not self.params.early_boss:
            d8.decide("crawler.no_early_boss_rule")
        elif n <= 6:
            d8.decide("crawler.no_early_boss", size=n)
        else:
            check = self.roller.roll("2d6" if n <= 12 else "3d6", "crawler.boss_check", room=k, size=n)
            if check.total <= k:
                check.decide("crawler.boss_yes", room=k)
                self._with_tile(BOSS, BOSS, boss=True)
                return
            check.decide("crawler.boss_no", room=k)
        assert self.state.current is not None
        self.state.current.rolled = BOSS
        self.state.phase = "boss_failed"

    # --- where the tile goes -----------------------------------------------------------------------
    def _with_tile(self, tile: str, rolled: str | None, boss: bool) -> None:
        cur = self.state.current
        assert cur is not None and cur.approach is not None
        cur.rolled, cur.boss = rolled, boss
        if not boss:
            stock = self.state.stock
            laid = tile if stock.has(tile) else stock.substitute(tile, self._on_board())
            if laid != tile:
                self.roller.note("crawler.stock_substitute", rolled=tile, tile=laid)
            tile = laid
        cur.tile = tile
        size = self._size(tile)
        beyond = self.state.layout.beyond(cur.approach, size, boss)
        fill = []
        if cur.approach.kind == "exit" and cur.approach.room is not None:
            fill = self.state.layout.filling([self.state.layout.room(cur.approach.room)], size)
        if beyond:
            cur.options = {"beyond": (tile, beyond, False)}
        else:
            substitute = self._fallback(cur.approach, tile, boss)
            if substitute is not None:
                cur.options = {f"beyond:{substitute[0]}": (substitute[0], substitute[1], False)}
        if fill:
            cur.options["fill"] = (tile, fill, True)
        if len(cur.options) > 1:
            self.state.phase = "fill_or_beyond"
        elif cur.options:
            (key, (laid, candidates, filling)), = cur.options.items()
            if key.startswith("beyond:"):
                self.roller.note("crawler.fallback", rolled=tile, tile=laid, why=self._why_not(cur.approach, size))
            self._to_place(laid, candidates, filling)
        else:
            self._close_exit(tile)

    def _why_not(self, approach: Approach, size: tuple[int, int]) -> Word:
        """Why the rolled room cannot go beyond this exit, in words (for the fallback's note and choice)."""
        return word(f"crawler.why_not.{self.state.layout.why_not_beyond(approach, size)}")

    def _size(self, tile: str) -> tuple[int, int]:
        return tile_size(tile, self.boss_size)

    def _on_board(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for room in self.state.layout.rooms:
            counts[room.tile] = counts.get(room.tile, 0) + 1
        return counts

    def _fallback(self, approach: Approach, tile: str, boss: bool) -> tuple[str, list[Candidate]] | None:
        """The other room size nearest in area that fits beyond (the smaller on ties)."""
        for other in by_nearest_area(tile, self.boss_size):
            if self.state.stock.has(other):
                candidates = self.state.layout.beyond(approach, self._size(other), boss)
                if candidates:
                    return other, candidates
        return None

    def _close_exit(self, tile: str) -> None:
        cur = self.state.current
        assert cur is not None and cur.approach is not None
        self.state.current = None
        if cur.approach.kind == "entrance":
            self.roller.note("crawler.no_start", tile=tile)
            self._finish("stuck")
            return
        room = cur.approach.room
        assert room is not None
        self.state.closed.add((room, cur.approach.entry.opposite))
        self.state.frontier.close((room, cur.approach.entry.opposite))
        self.roller.note("crawler.exit_closed", room=room, dir=cur.approach.entry.opposite.name, tile=tile)
        if cur.boss and cur.rolled == BOSS and self.params.passed_boss == "stays":  # the check was passed
            self.state.boss_due = True
            self.roller.note("crawler.boss_waits")
        self.state.phase = "explore"
        self._check_end()

    def _to_place(self, tile: str, candidates: list[Candidate], filling: bool) -> None:
        cur = self.state.current
        assert cur is not None
        cur.tile, cur.candidates, cur.filling = tile, candidates, filling
        if len(candidates) == 1:
            self.roller.note("crawler.one_place")
            self._chosen(candidates[0])
        else:
            self.state.phase = "place"

    def _chosen(self, candidate: Candidate) -> None:
        cur = self.state.current
        assert cur is not None
        if len(candidate.doors) == 1:
            self._lay(candidate, candidate.doors[0])
        else:
            cur.chosen = candidate
            self.state.phase = "door"

    def _lay(self, candidate: Candidate, door: DoorOption) -> None:
        cur = self.state.current
        assert cur is not None
        k = self.room_number
        entered_from, a, b = door
        zone = self.board.zone_of((candidate.rect.x, candidate.rect.y))
        room = Room(k, k, BOSS if cur.boss else cur.tile, cur.rolled, candidate.rect, zone, cur.filling,
                    cur.boss, entered_from)
        self.state.layout.add_room(room, Door((entered_from, k), (a, b)))
        self.state.frontier.room_laid(self.state.layout, room)
        if not cur.boss and self.state.stock.take(cur.tile):
            self.state.frontier.pile_ran_out()
        self.roller.note("crawler.laid", room=k, tile=room.tile, x=room.rect.x, y=room.rect.y,
                         w=room.rect.w, h=room.rect.h, filling=cur.filling)
        room.contents = roll_contents(self.tables, self.roller, k, cur.boss, self.params.contents)
        self.state.current = None
        if cur.boss:
            self._finish("boss")
        else:
            self.state.phase = "explore"
            self._check_end()

    def _finish(self, outcome: Outcome) -> None:
        self.state.outcome = outcome
        self.state.phase = "over"
        self.roller.note(f"crawler.outcome_{outcome}", rooms=len(self.state.layout.rooms))

    # --- the end without a way on ------------------------------------------------------------------
    def _check_end(self) -> None:
        if self._has_way_on():
            return
        rooms = self.state.layout.rooms
        for tile in (BOSS, *by_nearest_area(BOSS, self.boss_size)):
            if tile != BOSS and not self.state.stock.has(tile):
                continue
            candidates = self.state.layout.filling(rooms, self._size(tile))
            if candidates:
                self.roller.note("crawler.stuck_boss", tile=tile)
                self.state.current = Generation(None, None, BOSS, True)
                self._to_place(tile, candidates, True)
                return
        self._finish("stuck")

    # --- choices --------------------------------------------------------------------------------------
    def rule_choices(self) -> list[Choice]:
        phase = self.state.phase
        if phase == "explore":
            return self._explore_choices()
        cur = self.state.current
        assert cur is not None
        if phase == "boss_failed":
            return self._boss_failed_choices()
        if phase == "fill_or_beyond":
            return self._option_choices(cur)
        return self._listed_choices()

    def _option_choices(self, cur: Generation) -> list[Choice]:
        return [self._option_choice(key, laid, cur) for key, (laid, _, _) in cur.options.items()]

    def _listed_choices(self) -> list[Choice]:
        return [self._listed_choice(index) for index in range(len(self.listed_ids()))]

    def _boss_failed_choices(self) -> list[Choice]:
        sizes = [tile_name(f) for f in range(1, 8) if self.state.stock.has(tile_name(f))]
        return [_reroll(), *(Choice(f"size:{s}", word("crawler.choice.size", tile=s), {"kind": "size", "tile": s})
                             for s in sizes)]

    def listed_ids(self) -> list[str]:
        """The ids of the choices when each is one of a list (a place, a door, a passage's cells), in the
        order the choices list them; [] in the other phases. The autopilot picks among them by id."""
        cur, phase = self.state.current, self.state.phase
        if cur is None:
            return []
        if cur.listed is not None and cur.listed[0] == phase:
            return cur.listed[1]
        if phase == "place":
            ids = [_place_id(c.rect) for c in cur.candidates]
        elif phase == "door":
            assert cur.chosen is not None
            ids = [f"door:{a[0]},{a[1]},{b[0]},{b[1]}" for _, a, b in cur.chosen.doors]
        elif phase == "passage":
            assert cur.search is not None
            back = cur.search[1].opposite
            ids = []
            for run in cur.runs:
                x, y = back.step(run[0])
                ids.append(f"passage:{x},{y}")
        else:
            return []
        cur.listed = (phase, ids)  # asked again to find the choice picked, and to apply it
        return ids

    def _listed_choice(self, index: int) -> Choice:
        cur = self.state.current
        assert cur is not None
        if self.state.phase == "place":
            return self._place_choice(cur.candidates[index], cur)
        if self.state.phase == "door":
            assert cur.chosen is not None
            r, a, b = cur.chosen.doors[index]
            # Named as the picture shows it (the new room's wall, the room beyond), not by its cells: a door
            # from off the board is the entrance.
            d = next(d for d in DIRS if b == (a[0] - d.dx, a[1] - d.dy))
            rect = cur.chosen.rect
            # its square along the wall, from the west (a north or south wall) or the north
            where = {"dir": word(f"dir.{d.name}"), "square": b[0] - rect.x + 1 if d.dx == 0 else b[1] - rect.y + 1,
                     "start": word("dir.W" if d.dx == 0 else "dir.N")}
            says = (word("crawler.choice.entrance", **where) if r is None else
                    word("crawler.choice.door", room=self.state.layout.rooms[r - 1].number, **where))
            return Choice(f"door:{a[0]},{a[1]},{b[0]},{b[1]}", says,
                          {"kind": "door", "cells": [list(a), list(b)], "room": r,
                           "laying": [rect.x, rect.y, rect.w, rect.h]})
        assert cur.search is not None
        run, (room_id, face) = cur.runs[index], cur.search
        x, y = face.opposite.step(run[0])
        return Choice(f"passage:{x},{y}",
                      word("crawler.choice.passage", room=self.state.layout.rooms[room_id - 1].number,
                           dir=word(f"dir.{face.name}"), length=len(run)),
                      {"kind": "passage", "cells": [list(c) for c in run], "room": room_id, "dir": face.name})

    def _option_choice(self, key: str, laid: str, cur: Generation) -> Choice:
        approach = cur.approach
        assert approach is not None
        zone = "{},{}".format(*approach.zone)
        if key == "fill":
            says = word("crawler.choice.fill", tile=laid)
        elif key == "beyond":
            says = word("crawler.choice.beyond", tile=laid, zone=zone)
        else:
            says = word("crawler.choice.substitute", tile=laid, rolled=cur.tile, zone=zone,
                        why=self._why_not(approach, self._size(cur.tile)))
        return Choice(key, says, {"kind": key.partition(":")[0], "tile": laid})

    def _place_choice(self, c: Candidate, cur: Generation) -> Choice:
        r = c.rect
        tile = f"{r.w}x{r.h}"
        return Choice(_place_id(r),
                      word("crawler.choice.place", tile=tile, x=r.x, y=r.y, x2=r.x + r.w - 1, y2=r.y + r.h - 1,
                           doors=len(c.doors)),
                      {"kind": "place", "rect": [r.x, r.y, r.w, r.h], "filling": cur.filling})

    def _explore_choices(self) -> list[Choice]:
        return [*(self._exit_choice(*wall) for wall in self.state.frontier.exits),
                *(self._search_choice(*wall) for wall in self.walls())]

    def find_choice(self, choice_id: str) -> Choice | None:
        """A choice found by id without listing every choice (see Rules.find_choice)."""
        kind, _, wall = choice_id.partition(":")
        phase, cur = self.state.phase, self.state.current
        if phase in ("place", "door", "passage"):
            ids = self.listed_ids()
            return self._listed_choice(ids.index(choice_id)) if choice_id in ids else None
        if phase == "boss_failed" and choice_id == "reroll":
            return _reroll()
        if phase == "fill_or_beyond" and cur is not None and choice_id in cur.options:
            return self._option_choice(choice_id, cur.options[choice_id][0], cur)
        if phase != "explore" or kind not in ("exit", "search"):
            return super().find_choice(choice_id)
        found = _wall_of(wall)
        if kind == "exit":
            ok = found in self.state.frontier.exits
            choice = self._exit_choice(*found) if ok else None
        else:
            ok = found in self.walls()
            choice = self._search_choice(*found) if ok else None
        return choice if choice is not None and choice.id == choice_id else None  # "exit:01:N" is not "exit:1:N"

    def rooms_beyond(self, room_id: int, d: Dir) -> tuple[Zone, int]:
        """The zone beyond exit `d` of a room, and how many rooms it holds."""
        layout = self.state.layout
        x, y = layout.rooms[room_id - 1].zone
        zone = (x + d.dx, y + d.dy)
        return zone, layout.room_count.get(zone, 0)

    def _exit_choice(self, room_id: int, d: Dir) -> Choice:
        (zone, count), side = self.rooms_beyond(room_id, d), d.name
        there = word("crawler.zone_empty") if not count else word("crawler.zone_rooms", rooms=count)
        says = word("crawler.choice.exit", room=room_id, dir=word(f"dir.{side}"), zone=f"{zone[0]},{zone[1]}",
                    there=there)
        return Choice(f"exit:{room_id}:{side}", says,
                      {"kind": "exit", "room": room_id, "dir": side, "zone": list(zone), "rooms_there": count})

    def _search_choice(self, room_id: int, face: Dir) -> Choice:
        return Choice(f"search:{room_id}:{face.name}",
                      word("crawler.choice.search", room=room_id, dir=word(f"dir.{face.name}")),
                      {"kind": "search", "room": room_id, "dir": face.name})

    def _has_way_on(self) -> bool:
        """Some open exit or some search is left (the explore phase has a choice)."""
        return self.state.frontier.way_on(self.state.layout, self.state.stock, self.boss_size)

    def walls(self) -> dict[tuple[int, Dir], list[tuple[tuple[int, int], ...]]]:
        """The walls worth searching now (room id, side), with the runs a passage found there could take."""
        return self.state.frontier.walls(self.state.layout, self.state.stock, self.boss_size)

    # --- applying a choice ----------------------------------------------------------------------------
    def apply(self, choice: Choice) -> None:
        data = choice.data  # what `rule_choices` said the choice points at
        kind = data["kind"]
        cur = self.state.current
        if kind == "exit":
            layout = self.state.layout
            self._next_room(layout.exit_approach(layout.room(data["room"]), BY_NAME[data["dir"]]))
        elif kind == "search":
            self._search(self.state.layout.room(data["room"]), BY_NAME[data["dir"]])
        elif kind == "reroll":
            self._roll_tile()
        elif kind == "size":
            self._with_tile(data["tile"], BOSS, boss=False)
        elif kind in ("beyond", "fill"):
            assert cur is not None
            laid, candidates, filling = cur.options[choice.id]
            self._to_place(laid, candidates, filling)
        elif kind == "place":
            assert cur is not None
            self._chosen(cur.candidates[self.listed_ids().index(choice.id)])
        elif kind == "door":
            assert cur is not None and cur.chosen is not None
            self._lay(cur.chosen, cur.chosen.doors[self.listed_ids().index(choice.id)])
        elif kind == "passage":
            assert cur is not None and cur.search is not None
            self._dig(cur.runs[self.listed_ids().index(choice.id)])

    def _search(self, room: Room, face: Dir) -> None:
        self.roller.note("crawler.search_cost", room=room.id)
        roll = self.roller.roll("1d6", "crawler.search", room=room.id, dir=face.name)
        found = roll.total <= 3
        searched = self.state.searches.setdefault(room.id, {})
        searched[face] = found
        runs = self.walls()[room.id, face]
        self.state.frontier.searched((room.id, face), len(searched))
        if not found:
            roll.decide("crawler.search_failed")
            self._check_end()
            return
        roll.decide("crawler.search_found")
        self.state.current = Generation(None, runs=runs, search=(room.id, face))
        if len(runs) == 1:
            self._dig(runs[0])
        else:
            self.state.phase = "passage"

    def _dig(self, run: tuple[tuple[int, int], ...]) -> None:
        cur = self.state.current
        assert cur is not None and cur.search is not None
        room, face = self.state.layout.room(cur.search[0]), cur.search[1]
        self.state.layout.add_passage(Passage(room.id, self.room_number, run, face))
        self.state.frontier.zone_changed(room.zone)
        if self.state.stock.take(f"p{len(run)}"):
            self.state.frontier.pile_ran_out()
        self.roller.note("crawler.passage_laid", room=room.id, length=len(run))
        self._next_room(self.state.layout.passage_approach(room, face, run))

    def focus(self) -> list[Zone]:
        """The zones where the room being generated may go (for views that crop to the zones in use)."""
        cur = self.state.current
        if cur is None:
            return []
        zones = {self.board.zone_of((c.rect.x, c.rect.y)) for c in cur.candidates if self.state.phase == "place"}
        if cur.approach is not None:
            zones.add(cur.approach.zone)
        return sorted(z for z in zones if self.board.on_board(z))

    # --- results ----------------------------------------------------------------------------------------
    def dungeon(self) -> Dungeon:
        layout = self.state.layout
        return Dungeon(self.board.zones, self.board.cells, self.state.size, self.state.outcome,
                       layout.rooms, layout.doors, layout.passages, self.seed)

    def result_json(self) -> dict[str, Any]:
        state = self.state
        layout = state.layout
        return dump(CrawlerResult(
            state.size, state.outcome, state.phase, [room.shape() for room in layout.rooms],
            [door.shape() for door in layout.doors], [passage.shape() for passage in layout.passages],
            [ClosedExit(room, SIDES[d]) for room, d in sorted(state.closed, key=lambda e: (e[0], e[1].name))],
            [Search(room, SIDES[face], found) for room, faces in sorted(state.searches.items())
             for face, found in faces.items()],
            state.stock.left or None))


def _reroll() -> Choice:
    return Choice("reroll", word("crawler.choice.reroll"), {"kind": "reroll"})


def _place_id(r: Rect) -> str:
    return _place_text(r.x, r.y, r.w, r.h)


@lru_cache(maxsize=4096)  # the same places come back in every dungeon on the board
def _place_text(x: int, y: int, w: int, h: int) -> str:
    return f"place:{x},{y},{w},{h}"


def _wall_of(text: str) -> tuple[int, Dir]:
    """The wall a choice id names after its kind ("3:N"), or (0, Dir.N) for none (room ids start at 1)."""
    room, _, side = text.partition(":")
    try:
        return int(room), BY_NAME[side]
    except (ValueError, KeyError):
        return 0, Dir.N


CrawlerSession = Session[CrawlerRules]  # a crawler game: `Session(CrawlerRules, params, seed)`

"""The paper dungeon's rules over many seeds and parameters (hypothesis)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import schemas
from budget import examples
from dedale.core.documents import UNSET
from dedale.core.session import Session
from dedale.paper.layout import WALLS, wall_squares
from dedale.paper.params import PaperParams
from dedale.paper.rules import adjust_size
from dedale.paper.session import PaperRules
from dedale.systems import system
from paper_invariants import check

SCHEMA = json.loads(system("paper").schema())
seeds = st.integers(min_value=0, max_value=2**64 - 1)


@st.composite
def paper_params(draw: st.DrawFn) -> PaperParams:
    start = draw(st.integers(3, 6))
    return PaperParams(width=draw(st.integers(start, 70)), height=draw(st.integers(start, 70)),
                       max_cards=draw(st.integers(1, 150)), order=draw(st.sampled_from(["oldest", "newest", "random"])),
                       kings=draw(st.sampled_from(["reshuffle", "set-aside"])), start_size=start,
                       exit_collisions=draw(st.sampled_from(["move", "drop"])))


@settings(max_examples=examples(100), deadline=None)
@given(seed=seeds)
def test_default_dungeons_obey_every_rule(seed: int) -> None:
    session = Session(PaperRules, PaperParams(), seed).run_autopilot()
    assert session.is_over
    check(session)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(params=paper_params(), seed=seeds)
def test_any_parameters_obey_every_rule(params: PaperParams, seed: int) -> None:
    session = Session(PaperRules, params, seed).run_autopilot()
    assert session.is_over
    check(session)
    schemas.validate(json.loads(json.dumps(session.to_json())), SCHEMA)


@settings(max_examples=examples(40), deadline=None)
@given(seed=seeds, steps=st.integers(0, 120))
def test_rules_hold_at_every_step(seed: int, steps: int) -> None:
    session = Session(PaperRules, PaperParams(), seed)
    for _ in range(steps):
        if session.is_over:
            break
        session.auto_step()
        check(session)


@settings(max_examples=examples(30), deadline=None)
@given(seed=seeds, params=paper_params())
def test_same_seed_same_json_and_round_trip(seed: int, params: PaperParams) -> None:
    first = Session(PaperRules, params, seed).run_autopilot().to_json()
    assert json.dumps(Session(PaperRules, params, seed).run_autopilot().to_json()) == json.dumps(first)
    assert Session.from_json(PaperRules, json.loads(json.dumps(first))).to_json() == first


@given(a=st.integers(1, 10), b=st.integers(1, 10))
def test_rule_b(a: int, b: int) -> None:
    w, h = adjust_size(a, b)
    if a == b:
        assert (w, h) == (a, b)
    elif a % 2 != b % 2:
        assert (w, h) == ((a + 1) // 2, b) if a > b else (w, h) == (a, (b + 1) // 2)
    else:
        assert (w, h) == ((a + 1) // 2, (b + 1) // 2)


def test_rule_b_examples_of_the_spec() -> None:
    assert adjust_size(7, 4) == (4, 4) and adjust_size(8, 6) == (4, 3) and adjust_size(5, 5) == (5, 5)


def test_the_budget_stops_the_map() -> None:
    budgets = [Session(PaperRules, PaperParams(max_cards=10), seed).run_autopilot() for seed in range(30)]
    assert all(s.state.cards_used <= 10 for s in budgets)
    assert any(s.state.ended == "budget" and s.state.open_ends for s in budgets)


def test_the_autopilot_takes_open_ends_in_order() -> None:
    for order, pick in (("oldest", min), ("newest", max)):
        session = Session(PaperRules, PaperParams(order=order), 11)
        taken = 0
        for _ in range(40):
            if session.is_over:
                break
            ends = [e.id for e in session.state.open_ends]
            session.auto_step()
            chosen = session.events[-1]["choice"]
            if chosen.startswith("end:"):
                assert int(chosen[4:]) == pick(ends)
                taken += 1
        assert taken > 1, order  # open ends were taken (and among more than one)


def test_searches_come_when_no_open_end_is_left() -> None:
    searched = 0
    for seed in range(40):
        session = Session(PaperRules, PaperParams(), seed)
        while not session.is_over:
            before = list(session.state.open_ends)
            session.auto_step()
            if session.events[-1]["choice"].startswith("search:"):
                assert not before
                searched += 1
        assert all(e["choice"] != "finish" for e in session.events)
    assert searched > 0


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, collisions=st.sampled_from(["move", "drop"]))
def test_every_rolled_exit_is_drawn_or_said_to_be_impossible(seed: int, collisions: str) -> None:
    """Step C, as the text has it (`exit_collisions` move): a room gets its 1D4-1 exits; one rolled onto a
    square that has an exit, or whose outside is off the page, goes to the nearest square that can take it,
    and is lost (said in the log) only when no square of the room's walls can. `drop` (a Choice) keeps the
    old way: such an exit is not drawn."""
    session = Session(PaperRules, PaperParams(exit_collisions=collisions), seed).run_autopilot()
    notes = [e.get("note") for e in session.log]
    for room in session.state.rooms[1:]:  # the first room: its three exits by the start rule
        if room.exits_roll is None:
            continue
        assert len(room.exits) == room.exits_roll - 1
        drawn = [e for e in room.exits if e.result in ("open", "joined")]
        places = [(e.cell, e.side) for e in drawn]
        assert len(set(map(str, places))) == len(places)  # never two exits on one square's side
        if collisions == "move":
            assert {e.result for e in room.exits} <= {"open", "joined", "lost"}
            for e in room.exits:
                if e.result == "lost":  # every square of every wall was taken or off the page
                    assert all(not session.rules._exit_fits(room, wall, position)
                               for wall in WALLS for position in range(1, 1 + len(
                                   wall_squares(room.rect, room.heading, wall))))
        else:
            assert not any(e.rolled is not UNSET or e.result == "lost" for e in room.exits)
    moved = sum(e.rolled is not UNSET for room in session.state.rooms for e in room.exits)
    assert notes.count("paper.exit_moved") == moved and notes.count("paper.exit_lost") == sum(
        e.result == "lost" for room in session.state.rooms for e in room.exits)


def test_an_exit_goes_to_the_nearest_free_square_of_its_wall() -> None:
    for seed in range(60):
        session = Session(PaperRules, PaperParams(), seed).run_autopilot()
        for room in session.state.rooms:
            for e in room.exits:
                if e.rolled is not UNSET and e.rolled.wall == e.wall:
                    squares = wall_squares(room.rect, room.heading, e.wall)
                    rolled, placed = squares[e.rolled.position - 1], squares[e.position - 1]
                    gap = max(abs(rolled[0] - placed[0]), abs(rolled[1] - placed[1]))
                    assert gap >= 1
                    return
    raise AssertionError("no exit moved along its own wall in 60 dungeons")


def test_a_version_1_document_replays_its_exits_as_they_were_dropped() -> None:
    made = Session(PaperRules, PaperParams(exit_collisions="drop"), 3).run_autopilot().to_json()
    assert any(e["result"] in ("taken", "off_page") for r in made["rooms"] for e in r["exits"])
    old = json.loads(json.dumps(made))
    old["version"] = 1
    del old["params"]["exit_collisions"]
    assert Session.from_json(PaperRules, old).to_json() == made
    assert "exit_collisions" not in Session(PaperRules, PaperParams(), 3).to_json()["params"]


def test_an_exit_that_cannot_be_drawn_is_marked_on_the_map() -> None:
    from dedale.render.paper_svg import lost_exit_mark, render_svg

    session = Session(PaperRules, PaperParams(), 15).run_autopilot()  # room 7's third exit: no square left for it
    lost = [e for room in session.state.rooms for e in room.exits if e.result == "lost"]
    assert len(lost) == 1
    picture = render_svg(session.rules.paper_map())
    mark = lost_exit_mark(0, 0).split(" cx=")[0]
    assert picture.count(mark) >= 2 and "exit that could not be drawn" in picture  # on the map and in the key
    drawn = Session(PaperRules, PaperParams(), 3).run_autopilot().rules.paper_map()
    assert "could not be drawn" not in render_svg(drawn)

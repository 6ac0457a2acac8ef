"""Single rules of the paper dungeon, driven in table mode with chosen cards and dice."""

from __future__ import annotations

import pytest

from dedale.core.errors import DedaleError
from dedale.core.session import Session
from dedale.paper.model import Contents, Dice, Drawn
from dedale.paper.params import PaperParams
from dedale.paper.rules import SECRET_WAY
from dedale.paper.session import PaperRules, PaperSession
from paper_invariants import check


def started(**params: object) -> PaperSession:
    """A table-mode session past its starting room (each exit on the first of its two squares)."""
    session = Session(PaperRules, PaperParams(**params), 0, table=True)  # type: ignore[arg-type]
    for _ in range(3):
        assert session.pending is not None and session.pending.purpose == "paper.exit_position"
        session.step("enter:1")
    return session


def enter(session: PaperSession, *values: str) -> None:
    for value in values:
        assert session.pending is not None, f"nothing asked for, {value} left"
        session.step(f"enter:{value}")


def test_the_starting_room() -> None:
    session = started()
    room = session.state.rooms[0]
    assert (room.rect.x, room.rect.y, room.rect.w, room.rect.h) == (28, 56, 4, 4)
    assert [e.dir for e in session.state.open_ends] == ["W", "N", "E"]
    assert session.state.doors[0].kind == "entrance" and session.state.doors[0].squares[0] == (29, 60)
    assert [c.id for c in session.choices()] == ["end:1", "end:2", "end:3", "finish"]


def test_crossroads_in_x_squares() -> None:
    session = started()
    session.step("end:2")  # north of the starting room
    assert session.pending is not None and session.pending.kind == "card" and len(session.pending.options) == 52
    enter(session, "5H", "3")  # a crossroads; hearts: X on a d10
    feature = session.state.features[-1]
    assert feature.kind == "crossroads" and feature.dice == Dice(x=3) and len(feature.cells) == 3
    last = tuple(feature.cells[-1])
    assert {(e.cell, e.dir) for e in session.state.open_ends if e.source == feature.id} == {
        ((last[0] - 1, last[1]), "W"), ((last[0] + 1, last[1]), "E"), ((last[0], last[1] - 1), "N")}
    check(session)


@pytest.mark.parametrize(("die", "ways"), [("2", {"W", "E"}), ("3", {"W", "N"}), ("6", {"E", "N"})])
def test_t_junction(die: str, ways: set[str]) -> None:
    session = started()
    session.step("end:2")
    enter(session, "8S", "2", die)
    feature = session.state.features[-1]
    assert {e.dir for e in session.state.open_ends if e.source == feature.id} == ways


@pytest.mark.parametrize(("card", "turn"), [("6D", "E"), ("7D", "W")])
def test_bends(card: str, turn: str) -> None:
    session = started()
    session.step("end:2")
    enter(session, card, "4")
    assert [e.dir for e in session.state.open_ends if e.source == session.state.features[-1].id] == [turn]


def test_trap_corridor_has_its_trap_on_the_middle_square() -> None:
    session = started()
    session.step("end:2")
    enter(session, "3H", "5", "2")  # 5 squares; a 2: a pit
    feature = session.state.features[-1]
    assert feature.trap == "pit" and session.rules.page.cells[tuple(feature.cells[2])][0] == "trap"


def test_ace_stairs_or_exit() -> None:
    session = started()
    session.step("end:2")
    enter(session, "AH")
    assert [c.id for c in session.choices()] == ["stairs", "exit", "roll"]
    session.step("stairs")
    enter(session, "2")
    assert session.rules.page.cells[tuple(session.state.features[-1].cells[-1])][0] == "stairs_up"
    session.step("end:1")
    enter(session, "2C")
    session.step("roll")
    enter(session, "5", "1")  # 4-6: an exit, 1 square
    assert session.rules.page.cells[tuple(session.state.features[-1].cells[-1])][0] == "exit"


def test_queen_dead_end_or_draw_again() -> None:
    session = started()
    session.step("end:2")
    enter(session, "QC")
    assert [c.id for c in session.choices()] == ["dead-end", "draw-again"]
    session.step("draw-again")
    assert session.pending is not None and len(session.pending.options) == 51  # the Queen is out
    enter(session, "QD")
    session.step("dead-end")
    enter(session, "3")
    assert session.rules.page.cells[tuple(session.state.features[-1].cells[-1])][0] == "dead_end"
    assert session.state.cards_used == 2


def test_a_king_reshuffles_and_does_not_count() -> None:
    session = started()
    session.step("end:2")
    enter(session, "4S", "1")
    session.step("end:1")
    enter(session, "KH")
    assert session.pending is not None and len(session.pending.options) == 52  # every card is back
    enter(session, "4S", "1")
    assert session.state.cards_used == 2 and session.state.draws[1:3] == [Drawn("K", "hearts"), Drawn(reshuffle=True)]


def test_kings_set_aside_until_the_fourth() -> None:
    session = started(kings="set-aside")
    session.step("end:2")
    enter(session, "KH")
    assert session.pending is not None and "KH" not in session.pending.options and len(session.pending.options) == 51
    enter(session, "KD", "KS", "KC")
    assert len(session.pending.options) == 52 and session.state.draws[-1] == Drawn(reshuffle=True)


def test_room_rule_b_exits_and_contents() -> None:
    session = started()
    session.step("end:2")
    enter(session, "9D", "8", "6")  # diamonds: 2d8; 8 and 6 give 4 x 3
    room = session.state.rooms[-1]
    assert room.size_dice == [8, 6] and room.size == [4, 3] and (room.rect.w, room.rect.h) == (4, 3)
    enter(session, "3")  # 1D4 = 3: two exits
    assert session.state.phase == "room_exit"
    session.step("wall:left:1")
    session.step("roll")
    enter(session, "4", "2")  # the facing wall, its second square
    enter(session, "5")  # contents: empty
    room = session.state.rooms[-1]  # table mode runs an action again once its results are in: fetch it anew
    assert [(e.wall, e.position, e.result) for e in room.exits] == [("left", 1, "open"), ("facing", 2, "open")]
    assert room.exits_roll == 3 and room.contents_roll == 5 and room.contents == Contents("empty")
    check(session)


def test_a_room_that_does_not_fit_shrinks() -> None:
    session = started(height=9, width=9)  # the starting room leaves 5 rows above it
    session.step("end:2")
    enter(session, "10H", "10", "10")
    room = session.state.rooms[-1]
    assert room.size == [10, 10] and room.rect.w <= 9 and room.rect.h <= 5
    assert any(e.get("note") == "paper.shrunk" for e in session.log)


def test_a_corridor_stops_at_the_page_edge_as_a_dead_end() -> None:
    session = started(width=12, height=12)
    session.step("end:1")  # west of the starting room, 4 squares from the edge
    enter(session, "4H", "9")
    feature = session.state.features[-1]
    assert feature.outcome == "edge" and len(feature.cells) == 4
    assert session.rules.page.cells[tuple(feature.cells[-1])][0] == "dead_end"


def test_an_impossible_card_is_refused() -> None:
    session = started()
    session.step("end:2")
    enter(session, "5H", "1")
    session.step("end:1")
    with pytest.raises(DedaleError):
        session.step("enter:5H")  # already drawn


def test_secret_doors_found_open_as_the_die_says() -> None:
    found = 0
    for seed in range(120):
        session = Session(PaperRules, PaperParams(), seed).run_autopilot()
        rolls = [e for e in session.log if e.get("for") == "paper.secret_way"]
        secrets = [d for d in session.state.doors if d.kind == "secret"]
        assert len(rolls) == len(secrets)
        for roll, door in zip(rolls, secrets, strict=True):
            assert door.way == SECRET_WAY[roll["total"]]
        searches = [e for e in session.log if e.get("for") == "paper.search"]
        assert sum(e["total"] == 1 for e in searches) == len(secrets)
        found += len(secrets)
    assert found > 0

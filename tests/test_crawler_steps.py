"""Single rules of the crawler, each driven in table mode with chosen dice."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from crawler_invariants import check
from dedale.core.errors import DedaleError
from dedale.core.logtext import describe
from dedale.core.session import Session
from dedale.crawler.autopilot import DefaultPolicy
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerRules, CrawlerSession
from dedale.crawler.tiles import Stock, by_nearest_area, parse_stock
from dedale.i18n import word


def drive(session: CrawlerSession, dice: dict[str, Iterator[int]], until: str, default: int = 1) -> None:
    """Enter the given dice by purpose (others: `default`), take the first choice, until a roll for
    `until` is asked for or logged, or a note `until` is logged."""
    for _ in range(2000):
        if any(e.get("for") == until or e.get("note") == until for e in session.log) or session.is_over:
            return
        if session.pending is not None and session.pending.purpose == until:
            return
        if session.pending is not None:
            source = dice.get(session.pending.purpose)
            session.step(f"enter:{next(source) if source else default}")
        else:
            session.step(session.choices()[0].id)
    raise AssertionError("never reached " + until)


def table(size: str = "11", **params: object) -> CrawlerSession:
    return Session(CrawlerRules, CrawlerParams(size_rule=size, **params), 0, table=True)  # type: ignore[arg-type]


def test_seed_example_of_the_boss_check() -> None:
    """11 rooms, the 6th room, an 8 on the D8, 2D6 = 5, 5 <= 6: boss room."""
    session = table("11")
    drive(session, {"crawler.tile": iter([6, 6, 6, 6, 6, 8])}, "crawler.boss_check")
    session.step("enter:2")
    session.step("enter:3")
    check_roll = next(e for e in session.log if e.get("for") == "crawler.boss_check")
    assert (check_roll["roll"], check_roll["args"]["room"], check_roll["total"]) == ("2d6", 6, 5)
    assert check_roll["decided"]["key"] == "crawler.boss_yes"
    drive(session, {}, "crawler.outcome_boss")
    assert session.rules.layout.rooms[-1].boss and session.rules.layout.rooms[-1].number == 6
    check(session)


@pytest.mark.parametrize(("size", "dice", "expr"), [("8", "2d6", "2d6"), ("12", "2d6", "2d6"), ("13", "3d6", "3d6"),
                                                    ("18", "3d6", "3d6")])
def test_the_check_dice_follow_the_size_brackets(size: str, dice: str, expr: str) -> None:
    session = table(size)
    drive(session, {"crawler.tile": iter([6, 8])}, "crawler.boss_check")
    assert session.pending is not None and session.pending.expr == expr


def test_a_failed_check_lets_the_player_reroll_or_pick_a_size() -> None:
    session = table("8")
    drive(session, {"crawler.tile": iter([6, 6, 8])}, "crawler.boss_check")
    session.step("enter:6")
    session.step("enter:6")  # 12 > 3: not the boss room
    assert {c.id for c in session.choices()} == {"reroll", "size:5x5", "size:4x4", "size:5x3", "size:3x3",
                                                 "size:3x2", "size:2x2", "size:5x2"}
    session.step("reroll")
    assert session.pending is not None and session.pending.purpose == "crawler.tile"


@pytest.mark.parametrize("size", ["3", "6"])
def test_no_early_boss_up_to_six_rooms(size: str) -> None:
    session = table(size)
    drive(session, {}, "crawler.tile")
    session.step("enter:8")
    roll = next(e for e in session.log if e.get("for") == "crawler.tile")
    assert roll["decided"]["key"] == "crawler.no_early_boss"
    assert not any(e.get("for") == "crawler.boss_check" for e in session.log)
    assert session.choices()[0].id == "reroll"


def test_room_n_is_the_boss_without_a_d8() -> None:
    session = table("3")
    drive(session, {"crawler.tile": iter([6, 6])}, "crawler.boss_last")
    assert [e["args"]["room"] for e in session.log if e.get("for") == "crawler.tile"] == [1, 2]
    drive(session, {}, "crawler.outcome_boss")
    assert [r.boss for r in session.rules.layout.rooms] == [False, False, True]


def test_a_room_that_fits_but_would_lead_nowhere_says_so() -> None:
    """The entry-and-exit rule, not the space, is why the rolled room cannot go: the log says it (seed 31 meets
    such a room: it fits in the zone beyond its exit, but in no place touching another edge that leads on)."""
    session = Session(CrawlerRules, CrawlerParams(), 31).run_autopilot()
    note = next(e for e in session.log if e.get("note") == "crawler.fallback")
    assert note["args"]["why"]["t"] == "crawler.why_not.no_way_on"
    assert "it fits, but it would open onto no other zone" in describe(note, "en")


def test_nearest_area_fallback_order() -> None:
    assert by_nearest_area("3x3", (5, 5)) == ["5x2", "3x2", "2x2", "5x3", "4x4", "5x5"]
    assert by_nearest_area("4x4", (5, 5)) == ["5x3", "5x2", "3x3", "5x5", "3x2", "2x2"]
    assert by_nearest_area("boss", (5, 5)) == ["4x4", "5x3", "5x2", "3x3", "3x2", "2x2"]


def test_the_fallback_lays_the_nearest_size_that_fits() -> None:
    """A 5x5 start zone taken by a 4x4-wide room... here: a zone of 4x4 cells, where no 5-wide room fits."""
    session = Session(CrawlerRules, CrawlerParams(zone_cells=4, size_rule="5"), 0, table=True)
    drive(session, {"crawler.tile": iter([1])}, "crawler.fallback")
    note = next(e for e in session.log if e.get("note") == "crawler.fallback")
    assert note["args"] == {"rolled": "5x5", "tile": "4x4", "why": word("crawler.why_not.no_space")}
    assert "no free place against the exit's edge is large enough" in describe(note, "en")
    drive(session, {}, "crawler.laid")
    room = session.rules.layout.rooms[0]
    assert (room.tile, room.rolled) == ("4x4", "5x5")


def test_an_exit_nothing_fits_beyond_is_closed_and_the_counter_stays() -> None:
    """Board of 2x2 zones of 2x2 cells: after the start, a 2x2 fills each zone, so any exit into a zone
    holding a room closes."""
    session = Session(CrawlerRules, CrawlerParams(board_zones=2, zone_cells=2, size_rule="9", boss_size=(2, 2)), 0,
                             table=True)
    drive(session, {"crawler.tile": iter([6] * 20)}, "crawler.exit_closed")
    note = next(e for e in session.log if e.get("note") == "crawler.exit_closed")
    closed = [note["args"]["room"], note["args"]["dir"]]
    assert closed in session.to_json()["closed_exits"]
    assert f"exit:{closed[0]}:{closed[1]}" not in {c.id for c in session.choices()}
    rooms_before = len(session.rules.layout.rooms)
    assert session.rules.room_number == rooms_before + 1


def test_searching_a_wall() -> None:
    """1-3 finds the passage; 4-6 finds nothing and uses up the wall; at most two searches a room."""
    session = table("18")
    drive(session, {"crawler.tile": iter([6, 6, 6])}, "crawler.laid")
    while session.pending is not None:  # the room's contents
        session.step("enter:1")
    searches = [c for c in session.choices() if c.id.startswith("search:")]
    assert searches, "a 2x2 room in a 5x5 zone has free faces"
    room = searches[0].data["room"]
    faces = [c.id for c in searches if c.data["room"] == room]
    session.step(faces[0])
    assert any(e.get("note") == "crawler.search_cost" for e in session.log)
    session.step("enter:5")  # nothing found
    ids = {c.id for c in session.choices()}
    assert faces[0] not in ids
    assert session.to_json()["searches"] == [{"room": room, "face": faces[0].split(":")[2], "found": False}]
    assert len(faces) == 2  # the first room, a 2x2 in the zone's south-west corner: north and east walls
    session.step(faces[1])
    session.step("enter:2")  # found
    while session.pending is None and session.state.phase == "passage":
        session.step(session.choices()[0].id)
    assert len(session.rules.layout.passages) == 1 and session.rules.layout.passages[0].room == room
    assert not any(c.id.startswith(f"search:{room}:") for c in _after_room(session))  # two searches: done


def _after_room(session: CrawlerSession) -> list:  # type: ignore[type-arg]
    drive(session, {"crawler.tile": iter([6])}, "crawler.passage_laid")
    drive(session, {}, "crawler.contents.treasure")
    return session.choices() if session.pending is None else []


def test_the_autopilot_searches_only_when_no_exit_is_left() -> None:
    for seed in range(300):
        session = Session(CrawlerRules, CrawlerParams(), seed)
        while not session.is_over:
            choices = session.choices()
            session.auto_step()
            chosen = session.events[-1]["choice"]
            if chosen.startswith("search:"):
                assert not any(c.id.startswith("exit:") for c in choices)
                newest = max(c.data["room"] for c in choices if c.id.startswith("search:"))
                assert int(chosen.split(":")[1]) == newest


def test_the_autopilot_prefers_the_newest_room_towards_empty_zones() -> None:
    policy = DefaultPolicy(CrawlerParams().fill_chance)
    for seed in range(100):
        session = Session(CrawlerRules, CrawlerParams(), seed)
        while not session.is_over:
            choices = session.choices()
            exits = [c for c in choices if c.data.get("kind") == "exit"]
            newest = session.rules.room_number - 1
            preferred = [c.id for c in exits if c.data["room"] == newest and c.data["rooms_there"] == 0]
            choice = policy.choose(session)
            if preferred:
                assert choice in preferred
            session.step(choice)


def test_zones_never_take_a_fourth_room() -> None:
    session = Session(CrawlerRules, CrawlerParams(fill_chance=1.0, size_rule="18"), 1).run_autopilot()
    check(session)
    assert max(session.rules.layout.room_count.values()) == 3


def test_stock_parsing() -> None:
    assert parse_stock("5x5=2, 3=1,p1=4") == {"5x5": 2, "5x3": 1, "p1": 4}
    for bad in ("5x5", "5x5=x", "9x9=1", "8=1", "5x5=1,5x5=2"):
        with pytest.raises(DedaleError):
            parse_stock(bad)


def test_stock_substitution_takes_the_neighbouring_pile_least_on_the_board() -> None:
    stock = Stock({"5x3": 0})
    assert stock.substitute("5x3", {"4x4": 2, "3x3": 1}) == "3x3"
    assert stock.substitute("5x3", {"4x4": 1, "3x3": 1}) == "4x4"  # a tie: the lower D8 face
    stock = Stock({"5x3": 0, "4x4": 0, "3x3": 0})
    assert stock.substitute("5x3", {"5x5": 3, "3x2": 1}) == "3x2"  # both neighbours out: -2 and +2
    assert Stock({"5x5": 0}).substitute("5x5", {}) == "4x4"  # the edge of the table: only +1


def test_a_limited_stock_is_respected_and_exhaustion_brings_the_boss() -> None:
    spec = {"5x5": 1, "4x4": 1, "5x3": 1, "3x3": 1, "3x2": 1, "2x2": 1, "5x2": 1, "p1": 0, "p2": 0, "p3": 0}
    for seed in range(60):
        session = Session(CrawlerRules, CrawlerParams(stock=spec, size_rule="18"), seed).run_autopilot()
        check(session)
        laid = [r.tile for r in session.rules.layout.rooms if not r.boss]
        assert len(laid) == len(set(laid)) <= 7 and not session.rules.layout.passages
        if len(laid) == 7 and session.state.outcome == "boss":
            assert any(e.get("note") == "crawler.stock_empty" for e in session.log)


def test_a_version_1_document_still_loads_though_its_log_said_less() -> None:
    """Version 2 added why a room cannot go beyond an exit to the log, and lays a passed boss check's room at
    the next exit; a version-1 document, made before, replays as it was made (the boss given up:
    `passed_boss` reroll) and loads (checked without the log's words), and a forged roll still fails."""
    made = CrawlerParams(passed_boss="reroll", door_corners="room")  # as then: no door on a room's corner cells
    current = Session(CrawlerRules, made, 34).run_autopilot().to_json()
    old = json.loads(json.dumps(current))
    old["version"] = 1
    del old["params"]["passed_boss"], old["params"]["door_corners"]
    for entry in old["log"]:
        entry.get("args", {}).pop("why", None)
    assert Session.from_json(CrawlerRules, old).to_json() == current
    forged = json.loads(json.dumps(old))
    rolled = next(entry for entry in forged["log"] if "dice" in entry)
    rolled["dice"] = [rolled["dice"][0] % 6 + 1, *rolled["dice"][1:]]
    with pytest.raises(DedaleError, match="does not match"):
        Session.from_json(CrawlerRules, forged)
    with pytest.raises(DedaleError):
        Session.from_json(CrawlerRules, {**old, "version": 3})


def test_a_passed_boss_check_lays_the_boss_room_at_the_next_exit() -> None:
    """The text: a passed boss check means this room *is* the boss room. When it finds no place beyond the
    exit, the exit closes and the boss room goes beyond the next exit the party takes, without a D8; with
    `passed_boss="reroll"` (the old way, a Choice) the next room rolls its D8 again."""
    seed = 3  # the autopilot meets such an exit
    stays = Session(CrawlerRules, CrawlerParams(), seed).run_autopilot()
    notes = [e for e in stays.log if "note" in e or "roll" in e]
    waits = next(i for i, e in enumerate(notes) if e.get("note") == "crawler.boss_waits")
    assert notes[waits - 1]["note"] == "crawler.exit_closed"
    after = notes[waits + 1:]
    due = next(i for i, e in enumerate(after) if e.get("note") == "crawler.boss_due")
    assert not any(e.get("for") == "crawler.tile" for e in after[:due])  # no D8 before it
    assert stays.rules.layout.rooms[-1].boss and stays.state.outcome == "boss"
    reroll = Session(CrawlerRules, CrawlerParams(passed_boss="reroll"), seed).run_autopilot()
    assert "boss_waits" not in json.dumps(reroll.to_json())
    assert not any(e.get("note") in ("crawler.boss_waits", "crawler.boss_due") for e in reroll.log)
    closed = [i for i, e in enumerate(reroll.log) if e.get("note") == "crawler.exit_closed"]
    assert any(e.get("for") == "crawler.tile" for e in reroll.log[closed[0]:])  # the D8 again

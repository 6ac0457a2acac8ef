"""The seed's own example game, replayed in table mode with dice consistent with its text.

An 8-room dungeon: a 5x2 corridor from the south edge; a guard room; a 2x2 cell laid by filling in the
same zone; a D8 of 8 at room 4 with 2D6 above 4, so not the boss: the player picks a 5x5; a vestibule; a
3x3 kitchen by filling; a 3x2 cellar by filling, the zone's third room; room 8 of 8: the boss room.
"""

from __future__ import annotations

from crawler_invariants import check
from dedale.core.session import Session
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerRules, CrawlerSession


class Table:
    """Drives a table-mode session: enters what the players rolled, checks what is asked."""

    def __init__(self, params: CrawlerParams | None = None) -> None:
        self.session = Session(CrawlerRules, params or CrawlerParams(), seed=0, table=True)

    def roll(self, expr: str, purpose: str, *dice: int) -> None:
        for die in dice:
            pending = self.session.pending
            assert pending is not None, f"expected a {expr} roll for {purpose}"
            assert (pending.expr, pending.purpose) == (expr, purpose)
            self.session.step(f"enter:{die}")

    def contents(self, kind: int, boss: bool = False) -> None:
        self.roll("1d6" if boss else "1d12", "crawler.contents.kind", kind)
        self.roll("1d6" if boss else "1d12", "crawler.contents.creatures", 1)
        self.roll("1d6", "crawler.contents.number", 1)
        self.roll("1d6", "crawler.contents.treasure", 1)

    def choose(self, choice_id: str) -> None:
        assert self.session.pending is None
        ids = [c.id for c in self.session.choices()]
        assert choice_id in ids, ids
        self.session.step(choice_id)


def play_the_seed_example() -> CrawlerSession:
    table = Table()
    table.roll("3d6", "crawler.size", 2, 3, 3)  # 8 rooms
    # Room 1: the corridor, a 5x2 laid upright from the middle of the south edge.
    table.roll("1d8", "crawler.tile", 7)
    table.choose("place:12,20,2,5")
    table.choose("door:12,25,12,24")  # the entrance: a 2-cell side may take a door on either cell
    table.contents(1)
    # Room 2: the guard room, north of the corridor.
    table.choose("exit:1:N")
    table.roll("1d8", "crawler.tile", 4)
    table.choose("place:12,17,3,3")  # against the zone's east edge (exit rule), as the seed's photos show
    table.choose("door:13,20,13,19")
    table.contents(2)
    # Room 3: a 2x2 cell that fits by filling, in the guard room's zone.
    table.choose("exit:2:E")
    table.roll("1d8", "crawler.tile", 6)
    table.choose("fill")
    table.choose("place:10,18,2,2")
    table.choose("door:12,18,11,18")
    table.contents(3)
    # Room 4: an 8, 2D6 = 7 > 4: not the boss room; the player picks a 5x5.
    table.choose("exit:2:E")
    table.roll("1d8", "crawler.tile", 8)
    table.roll("2d6", "crawler.boss_check", 3, 4)
    table.choose("size:5x5")
    table.choose("door:14,18,15,18")
    table.contents(4)
    # Room 5: the vestibule, north of the big room.
    table.choose("exit:4:N")
    table.roll("1d8", "crawler.tile", 6)
    table.choose("place:15,13,2,2")
    table.contents(5)
    # Room 6: the kitchen, a 3x3 by filling.
    table.choose("exit:5:W")
    table.roll("1d8", "crawler.tile", 4)
    table.choose("fill")
    table.choose("place:17,12,3,3")
    table.choose("door:16,13,17,13")
    table.contents(6)
    # Room 7: the cellar, a 3x2 by filling: the zone's third room.
    table.choose("exit:6:E")
    table.roll("1d8", "crawler.tile", 5)
    table.choose("fill")
    table.choose("place:17,10,3,2")  # above the kitchen
    table.choose("door:18,12,18,11")
    table.contents(7)
    # Room 8 of 8: the boss room, with no D8 rolled.
    table.choose("exit:6:E")
    table.choose("door:19,13,20,13")
    table.contents(1, boss=True)
    return table.session


def test_the_seed_example_dungeon() -> None:
    session = play_the_seed_example()
    assert session.is_over and session.state.outcome == "boss"
    rooms = session.rules.layout.rooms
    assert [(r.number, r.tile, r.zone, r.filling, r.boss) for r in rooms] == [
        (1, "5x2", (2, 4), False, False),
        (2, "3x3", (2, 3), False, False),
        (3, "2x2", (2, 3), True, False),
        (4, "5x5", (3, 3), False, False),
        (5, "2x2", (3, 2), False, False),
        (6, "3x3", (3, 2), True, False),
        (7, "3x2", (3, 2), True, False),
        (8, "boss", (4, 2), False, True),
    ]
    assert [(r.rect.x, r.rect.y, r.rect.w, r.rect.h) for r in rooms] == [
        (12, 20, 2, 5), (12, 17, 3, 3), (10, 18, 2, 2), (15, 15, 5, 5),
        (15, 13, 2, 2), (17, 12, 3, 3), (17, 10, 3, 2), (20, 10, 5, 5)]
    assert rooms[3].rolled == "boss"  # the D8 showed 8; the player picked the 5x5
    assert [r.contents["kind"]["id"] for r in rooms] == [
        "corridor", "guard_room", "cell", "armoury", "vestibule", "kitchen", "cellar", "master_apartments"]
    assert [r.entered_from for r in rooms] == [None, 1, 2, 2, 4, 5, 6, 6]
    assert session.rules.layout.room_count[(3, 2)] == 3  # vestibule, kitchen, cellar
    tile_rolls = [e for e in session.log if e.get("for") == "crawler.tile"]
    assert [e["args"]["room"] for e in tile_rolls] == [1, 2, 3, 4, 5, 6, 7]  # none for room 8 of 8
    check(session)


def test_the_example_has_more_doors_to_choose_from_by_the_zone_corners() -> None:
    """The text's reading bans a door from a zone's 4 corner cells only: the author's example is played the same,
    with more doors (and places) to choose from than when a room's corner cells were banned too; the room
    reading (`door_corners` room) leaves one door for the 2x2 cell, beside the guard room's middle."""
    doors = ["door:12,18,11,18", "door:12,19,11,19"]
    for corners in ("zone", "room"):
        table = Table(CrawlerParams(door_corners=corners))
        table.roll("3d6", "crawler.size", 2, 3, 3)
        table.roll("1d8", "crawler.tile", 7)
        table.choose("place:12,20,2,5")
        table.choose("door:12,25,12,24")
        table.contents(1)
        table.choose("exit:1:N")
        table.roll("1d8", "crawler.tile", 4)
        if corners == "zone":
            table.choose("place:12,17,3,3")
            table.choose("door:13,20,13,19")
        table.contents(2)
        table.choose("exit:2:E")
        table.roll("1d8", "crawler.tile", 6)
        table.choose("fill")
        table.choose("place:10,18,2,2")
        if corners == "zone":
            assert [c.id for c in table.session.choices()] == doors
        else:  # one door only: laid at once
            assert table.session.rules.layout.doors[-1].cells == ((12, 18), (11, 18))


def test_the_example_replays_from_its_events() -> None:
    session = play_the_seed_example()
    again = Session.from_json(CrawlerRules, session.to_json())
    assert again.to_json() == session.to_json()


def test_table_mode_refuses_impossible_results() -> None:
    table = Table()
    for impossible in ("0", "7", "x"):
        try:
            table.session.step(f"enter:{impossible}")
        except Exception as exc:
            assert "is not a legal choice" in str(exc)
        else:
            raise AssertionError(f"{impossible} accepted on a d6")
    assert table.session.events == []

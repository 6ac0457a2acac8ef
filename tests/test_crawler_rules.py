"""The crawler's rules over many seeds and parameters (hypothesis), and the seed's statistics."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from crawler_invariants import check
from dedale.core.session import Session
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerRules

seeds = st.integers(min_value=0, max_value=2**64 - 1)


@st.composite
def crawler_params(draw: st.DrawFn) -> CrawlerParams:
    zone = draw(st.integers(3, 7))
    board = draw(st.integers(2, 7))
    boss = (draw(st.integers(2, zone)), draw(st.integers(2, zone)))
    size = draw(st.sampled_from(["3d6", "2d6", "1d20", str(draw(st.integers(1, 25)))]))
    tiles = ("5x5", "4x4", "5x3", "3x3", "3x2", "2x2", "5x2", "p1", "p2", "p3")
    stock = draw(st.none() | st.fixed_dictionaries({}, optional={t: st.integers(0, 4) for t in tiles}))
    rim = [(x, y) for x in range(board) for y in range(board) if x in (0, board - 1) or y in (0, board - 1)]
    start = draw(st.none() | st.sampled_from(rim))
    return CrawlerParams(board_zones=board, zone_cells=zone, size_rule=size, boss_size=boss, start_zone=start,
                         fill_chance=draw(st.floats(0, 1)), stock=stock, early_boss=draw(st.booleans()),
                         contents=draw(st.sampled_from(["tables", "dungeon-roll"])),
                         door_corners=draw(st.sampled_from(["zone", "room"])))


@settings(max_examples=examples(150), deadline=None)
@given(seed=seeds, corners=st.sampled_from(["zone", "room"]))
def test_default_dungeons_obey_every_rule(seed: int, corners: str) -> None:
    """Both readings of the corner ban: no door ever on a zone's corner cell (zone, the default), or on a room's
    (room, 2-cell sides excepted) — `crawler_invariants.check`."""
    session = Session(CrawlerRules, CrawlerParams(door_corners=corners), seed).run_autopilot()
    assert session.is_over
    check(session)


def test_the_two_readings_of_the_corner_ban_lay_different_doors() -> None:
    """The zone reading lays doors on a room's corner cells, which
    the room reading never does on a side longer than 2; the room reading's 2-cell waiver lays some on a zone's
    corner cell, which the zone reading never does."""
    def doors(corners: str) -> tuple[int, int]:
        on_room_corner = on_zone_corner = 0
        for seed in range(60):
            layout = Session(CrawlerRules, CrawlerParams(door_corners=corners), seed).run_autopilot().rules.layout
            for door in layout.doors:
                for cell in door.cells:
                    room = next((r for r in layout.rooms if r.rect.contains(cell)), None)
                    if room is None:
                        continue
                    r = room.rect
                    corner = cell[0] in (r.x, r.x + r.w - 1) and cell[1] in (r.y, r.y + r.h - 1)
                    on_room_corner += corner and min(r.w, r.h) > 2
                    on_zone_corner += {cell[0] % 5, cell[1] % 5} <= {0, 4}
        return on_room_corner, on_zone_corner

    zone, room = doors("zone"), doors("room")
    assert zone[0] > 0 and zone[1] == 0
    assert room[0] == 0 and room[1] > 0


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(params=crawler_params(), seed=seeds)
def test_any_parameters_obey_every_rule(params: CrawlerParams, seed: int) -> None:
    session = Session(CrawlerRules, params, seed).run_autopilot()
    assert session.is_over
    check(session)


@settings(max_examples=examples(60), deadline=None)
@given(seed=seeds, steps=st.integers(0, 40))
def test_rules_hold_at_every_step(seed: int, steps: int) -> None:
    session = Session(CrawlerRules, CrawlerParams(), seed)
    for _ in range(steps):
        if session.is_over:
            break
        session.auto_step()
        check(session)


@settings(max_examples=examples(50), deadline=None)
@given(seed=seeds, params=crawler_params())
def test_same_seed_same_json(seed: int, params: CrawlerParams) -> None:
    first = Session(CrawlerRules, params, seed).run_autopilot().to_json()
    second = Session(CrawlerRules, params, seed).run_autopilot().to_json()
    assert json.dumps(first) == json.dumps(second)


@pytest.mark.parametrize("corners", ["zone", "room"])
def test_nineteen_in_twenty_reach_the_boss(corners: str) -> None:
    """The spec's target for the default autopilot: at least 19 dungeons in 20 reach their boss room (with
    either reading of the corner ban)."""
    params = CrawlerParams(door_corners=corners)
    outcomes = [Session(CrawlerRules, params, seed).run_autopilot().state.outcome for seed in range(1000)]
    assert outcomes.count("boss") >= 950


def test_size_rule_and_counter() -> None:
    """3d6 rooms by default (3 to 18), 2d6 or fixed as parameters; the D20 counter is the room number."""
    sizes = {Session(CrawlerRules, CrawlerParams(), seed).state.size for seed in range(3000)}
    assert sizes == set(range(3, 19))
    sizes = {Session(CrawlerRules, CrawlerParams(size_rule="2d6"), seed).state.size for seed in range(300)}
    assert sizes == set(range(2, 13))
    fixed = Session(CrawlerRules, CrawlerParams(size_rule="4"), 9).run_autopilot()
    assert fixed.state.size == 4 and len(fixed.rules.layout.rooms) <= 4


def test_one_room_dungeon_is_the_boss_room() -> None:
    session = Session(CrawlerRules, CrawlerParams(size_rule="1"), 3).run_autopilot()
    assert [(r.number, r.boss) for r in session.rules.layout.rooms] == [(1, True)]
    assert not any(e.get("for") == "crawler.tile" for e in session.log)  # room N: no D8 rolled


def test_skip_early_boss_check() -> None:
    """With the check off, an 8 never makes an early boss: the boss is room N (or the stuck ending)."""
    for seed in range(150):
        session = Session(CrawlerRules, CrawlerParams(early_boss=False), seed).run_autopilot()
        assert not any(e.get("for") == "crawler.boss_check" for e in session.log)
        bosses = [r for r in session.rules.layout.rooms if r.boss]
        stuck = any(e.get("note") == "crawler.stuck_boss" for e in session.log)
        assert not bosses or bosses[0].number == session.state.size or stuck

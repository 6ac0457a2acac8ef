"""The open exits and the walls to search, kept as the dungeon grows (`crawler/frontier.py`), are at every step
what working them out again from every room gives, in the same order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from dedale.core.grid import DIRS, Dir
from dedale.core.session import Session
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerRules, CrawlerSession
from dedale.crawler.tiles import TILE_NAMES, tile_size
from test_crawler_rules import crawler_params, seeds

Run = tuple[tuple[int, int], ...]


def exits_from_scratch(session: CrawlerSession) -> list[tuple[int, Dir]]:
    """Edges of a room's zone that it touches, leading to a zone on the board, no door through, not closed."""
    board, layout = session.rules.board, session.rules.layout
    return [(room.id, d) for room in layout.rooms for d in board.touched_edges(room.zone, room.rect)
            if board.leads(room.zone, d) and d not in layout.door_dirs[room.id]
            and (room.id, d) not in session.state.closed]


def walls_from_scratch(session: CrawlerSession) -> dict[tuple[int, Dir], list[Run]]:
    """Every wall of every room: not the boss's, searched at most once, not this wall, and a passage found there
    could go somewhere (its tile in stock, some room in stock fitting beyond its end)."""
    layout, stock = session.rules.layout, session.state.stock
    sizes = [tile_size(tile, session.params.boss) for tile in TILE_NAMES[:7] if stock.has(tile)]
    walls = {}
    for room in layout.rooms:
        searched = session.state.searches.get(room.id, {})
        if room.boss or len(searched) >= 2:
            continue
        for face in (d for d in DIRS if d not in session.rules.board.touched_edges(room.zone, room.rect)):
            runs = [run for run in layout.passage_runs(room, face)
                    if stock.has(f"p{len(run)}")
                    and any(layout.beyond(layout.passage_approach(room, face, run), size, False) for size in sizes)]
            if face not in searched and runs:
                walls[room.id, face] = runs
    return walls


def check_frontier(session: CrawlerSession) -> None:
    if session.state.phase != "explore" or session.is_over:
        return
    walls = walls_from_scratch(session)
    assert list(session.state.frontier.exits) == exits_from_scratch(session)
    assert list(session.rules.walls().items()) == list(walls.items())
    ids = [f"exit:{room}:{d.name}" for room, d in exits_from_scratch(session)]
    assert [c.id for c in session.choices()] == ids + [f"search:{room}:{d.name}" for room, d in walls]


@settings(max_examples=examples(150), deadline=None)
@given(params=crawler_params(), seed=seeds)
def test_the_autopilot_sees_what_working_out_again_gives(params: CrawlerParams, seed: int) -> None:
    session = Session(CrawlerRules, params, seed)
    while not session.is_over:
        check_frontier(session)
        session.auto_step()


@settings(max_examples=examples(150), deadline=None)
@given(params=crawler_params(), seed=seeds, picks=st.lists(st.integers(0, 1000), max_size=200))
def test_a_player_sees_what_working_out_again_gives(params: CrawlerParams, seed: int, picks: list[int]) -> None:
    """A player searches walls while exits are open, which the autopilot never does."""
    session = Session(CrawlerRules, params, seed)
    for pick in picks:
        if session.is_over:
            break
        check_frontier(session)
        choices = session.choices()
        session.step(choices[pick % len(choices)].id)
    check_frontier(session)


def test_a_choice_found_by_id_is_the_listed_one() -> None:
    """The session finds the autopilot's choice by its id without listing them all: the same choice as listed,
    and nothing for an id that is not exactly one of them."""
    for seed in range(30):
        session = Session(CrawlerRules, CrawlerParams(early_boss=seed % 2 == 0), seed)
        while not session.is_over:
            listed = Session.replay(CrawlerRules, session.params, seed, session.events).choices()
            for choice in listed:
                found = session.rules.find_choice(choice.id)
                assert found is not None and (found.id, found.message, found.data) == (
                    choice.id, choice.message, choice.data)
                kind, _, rest = choice.id.partition(":")
                assert session.rules.find_choice(f"{kind}:0{rest}") is None  # "exit:01:N" is not "exit:1:N"
            for wrong in ("exit:99:N", "search:1:Q", "exit:x:N", "place:99,99,1,1", "door:1", "reroll:"):
                assert session.rules.find_choice(wrong) is None
            session.auto_step()

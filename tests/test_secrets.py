"""Secrets that hold against a player with a computer (issues 28 and 39, `docs/secrets.md`).

The attack: a seat's own view (its cards, the board, the public rolls, the choices made) is replayed from every
seed of a space, and a seed that reproduces it gives every hidden card. The tests search a reduced space (2^12
seeds, a fraction of a second); the 2^32 seeds a command draws are searched the same way in minutes of CPU. It
finds the seed of a game drawn from a short seed, and nothing in a game drawn from a long one: there the search
would have to cover 2^130 seeds (the argument is in `docs/secrets.md`). A long seed is also what remakes the
game: shown to whoever may see everything, and to every seat once nothing is hidden any more."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from fastapi.testclient import TestClient

import dedale
from dedale.api import Result
from dedale.core.errors import DedaleError
from dedale.core.rng import KeyedStream, SeededSource, SplitMix64, check_secret, stream
from dedale.core.rules import Rules
from dedale.core.seeds import MAX_SHORT_SEED, check_seed, is_long, seed_text
from dedale.core.session import Session
from dedale.crawler.session import CrawlerRules, CrawlerSession
from dedale.zombstone.skirmish.duel_session import DuelParams, DuelRules, DuelSession

REDUCED = range(2**12)  # the seeds the tests search
SEED = 2_345  # a seed in that space
LONG = [2**64 + 0x5EED, 2**129 + 12_345, 2**130 - 1]  # long seeds: the tests are repeatable
LEGACY_KEY = bytes(range(32))  # a secret key as the web gave one before seeds were long


# --- the streams -----------------------------------------------------------------------------------------------
def words(source: Any, count: int = 20) -> list[int]:
    return [source.next64() for _ in range(count)]


def test_a_long_seed_is_its_stream_and_nothing_else() -> None:
    """A long seed keys BLAKE2b; a short one drives SplitMix64 as it always has; a document saved with a secret key
    still draws from its short seed and that key."""
    assert words(stream(LONG[0])) == words(stream(LONG[0]))
    assert len({tuple(words(stream(seed))) for seed in LONG}) == len(LONG)
    assert words(stream(5)) == words(SplitMix64(5))
    assert words(stream(LONG[0])) != words(SplitMix64(LONG[0] & MAX_SHORT_SEED))
    assert words(stream(5, LEGACY_KEY)) == words(KeyedStream((5).to_bytes(8, "little"), LEGACY_KEY))
    assert words(stream(5, LEGACY_KEY)) not in (words(stream(5)), words(stream(LONG[0])))


def test_a_long_seeds_dice_are_fair() -> None:
    """60,000 d6 from a long seed: each face within 4 standard deviations of 10,000 (a broken draw, such as a
    modulo of too few bits or a repeated block, is far outside)."""
    faces = Counter(SeededSource(LONG[1]).gen.below_each(6, 60_000))
    assert set(faces) == set(range(6))
    assert all(abs(count - 10_000) < 4 * (60_000 * (1 / 6) * (5 / 6)) ** 0.5 for count in faces.values())


def test_a_stream_marks_every_word_drawn() -> None:
    for source in (stream(3), stream(LONG[0]), stream(3, LEGACY_KEY)):
        marks = set()
        for _ in range(20):
            marks.add(source.mark())
            source.next64()
        assert len(marks) == 20


def test_a_seed_is_a_number_or_a_long_seeds_text_and_a_legacy_key_64_hexadecimal_digits() -> None:
    for seed in (0, 4, MAX_SHORT_SEED, *LONG):
        assert check_seed(seed) == check_seed(str(seed)) == check_seed(seed_text(seed)) == seed
    assert check_seed(seed_text(LONG[0]).lower().replace("-", " ")) == LONG[0]
    for wrong in (-1, 2**130, "x", "-3", "4.5", "", True, None, 4.5, seed_text(LONG[0]) + "0", "U" * 26):
        with pytest.raises(DedaleError):
            check_seed(wrong)
    with pytest.raises(DedaleError, match="is not a seed"):  # a game of it could write no seed's text
        Session(CrawlerRules, None, 2**130)
    assert check_secret(LEGACY_KEY.hex()) == LEGACY_KEY
    for wrong in ("", "00" * 31, "zz" * 32, 5, None, LEGACY_KEY.hex() + "00"):
        with pytest.raises(DedaleError):
            check_secret(wrong)


# --- the seed search -------------------------------------------------------------------------------------------
def to_the_flop(session: DuelSession) -> DuelSession:
    while session.state.duel is not None and session.state.duel.street == "preflop" and not session.is_over:
        session.step("check" if any(c.id == "check" for c in session.choices()) else "call")
    return session


def search(game: type[Rules[Any, Any]], seen: Callable[[dict[str, Any]], Any], view: dict[str, Any],
           seeds: Iterable[int]) -> list[int]:
    """The seeds whose game, replayed through the view's choices, shows what the view shows (`seen` picks that
    from a document: a seat's view, or a GM's document seen by the players)."""
    params = game.params_from_json(view["params"])
    found = []
    for seed in seeds:
        try:
            replayed = Session.replay(game, params, seed, view["events"])
        except DedaleError:
            continue
        if seen(replayed.seat_json(0)) == seen(view):
            found.append(seed)
    return found


def duel_seen(view: dict[str, Any]) -> tuple[Any, ...]:
    """What seat 0 sees of a duel's cards: its own hole cards and the board."""
    return tuple(view["duel"]["hole"][0]), tuple(view["duel"]["board"])


def duel_search(view: dict[str, Any], seeds: Iterable[int]) -> list[int]:
    return search(DuelRules, duel_seen, view, seeds)


def test_the_search_finds_a_short_seed() -> None:
    """A duel dealt from a short seed: the seat's view (which holds no seed) pins it, and it gives the AI's cards."""
    session = to_the_flop(Session(DuelRules, DuelParams(), SEED))
    view = session.seat_json(0)
    assert view["hidden"] and view["seed"] is None and "??" in view["duel"]["hole"][1]
    assert duel_search(view, REDUCED) == [SEED]
    replayed = Session.replay(DuelRules, session.params, SEED, view["events"])
    assert replayed.to_json()["duel"]["hole"][1] == session.to_json()["duel"]["hole"][1]


@pytest.mark.parametrize("seed", LONG, ids=["long 0", "long 1", "long 2"])
def test_the_search_finds_nothing_in_a_duel_of_a_long_seed(seed: int) -> None:
    """The same game from a long seed: no seed of the space reproduces the view, which shows no seed, no key,
    and no part of the seed's text."""
    session = to_the_flop(Session(DuelRules, DuelParams(), seed))
    view = session.seat_json(0)
    assert view["seed"] is None and "secret" not in view and seed_text(seed) not in str(view)
    assert duel_search(view, REDUCED) == []


def test_the_search_finds_nothing_in_a_duel_made_on_the_web(client: TestClient) -> None:
    """Through the API, no seed given: the server draws a long one, which the seat's download does not carry;
    once the duel is over, every seat is shown it, and it remakes the duel."""
    made = client.post("/api/sessions", json={"system": "zombstone-duel"}).json()
    base = f"/api/sessions/{made['id']}"
    assert made["seed"] is None
    while client.get(f"{base}/export/json").json()["duel"]["street"] == "preflop":
        choices = [c["id"] for c in client.get(base).json()["choices"]]
        client.post(f"{base}/step", json={"choice": "check" if "check" in choices else "call"})
    view = client.get(f"{base}/export/json").json()
    full = client.app.state.sessions.get(made["id"]).to_json()  # type: ignore[attr-defined]
    assert view["hidden"] and view["seed"] is None and is_long(check_seed(full["seed"]))
    assert full["seed"] not in str(view) and "secret" not in full
    assert duel_search(view, REDUCED) == []
    client.post(f"{base}/autopilot", json={"to_end": True})
    over = client.get(base).json()
    assert over["over"] and over["seed"] == full["seed"]
    finished = client.get(f"{base}/export/json").json()
    remade = Session.replay(DuelRules, DuelParams(), check_seed(over["seed"]), finished["events"])
    assert remade.to_json() == finished


def crawler_seen(document: dict[str, Any]) -> list[tuple[Any, ...]]:
    view = Result(document).view("party").to_json()
    return [(room["tile"], room["rolled"], room["x"], room["y"], room["w"], room["h"]) for room in view["rooms"]]


def crawler_search(document: dict[str, Any], seeds: Iterable[int]) -> list[int]:
    """The seeds whose crawl, through the same choices, lays the rooms the party view shows."""
    return search(CrawlerRules, crawler_seen, document, seeds)


def crawl(seed: int) -> CrawlerSession:
    session = Session(CrawlerRules, seed=seed)
    for _ in range(10):
        session.auto_step()
    return session


def test_a_crawls_party_view_pins_a_short_seed_and_not_a_long_one() -> None:
    """The players (of a co-op crawl, or watching) see the rooms laid and know the choices made: a short seed's
    rooms pin it, which gives every room's contents; a long seed's, nothing."""
    assert crawler_search(crawl(SEED).to_json(), REDUCED) == [SEED]
    long = crawl(LONG[0])
    party = Result(long.to_json()).view("party").to_json()
    assert party["seed"] is None and seed_text(LONG[0]) not in str(party)
    assert crawler_search(long.to_json(), REDUCED) == []


# --- chosen seeds ------------------------------------------------------------------------------------------
def test_a_game_for_two_browsers_refuses_a_chosen_seed_and_real_dice(client: TestClient) -> None:
    """Whoever chose the seed would deal every card of the other seat; at the table, one seat enters the other's."""
    for body, said in (({"seed": SEED}, "seed nobody knows"), ({"seed": seed_text(LONG[0])}, "seed nobody knows"),
                       ({"table_dice": True}, "real dice")):
        refused = client.post("/api/sessions", json={"system": "zombstone-duel", "seating": "linked", **body})
        assert refused.status_code == 400 and said in refused.json()["error"]
    made = client.post("/api/sessions", json={"system": "zombstone-duel", "seating": "linked"}).json()
    assert made["waiting"] and made["seed"] is None


def test_a_map_made_from_a_chosen_seed_is_shared_only_with_who_may_see_everything(client: TestClient) -> None:
    """A crawl from a chosen seed is the map that seed makes (as the command line makes it): whoever knows the seed
    knows the key, so the links that hide it (a co-op player's, a spectator's) are refused, naming why; the owner's
    and a GM's spectator's are made. A crawl from a seed nobody chose shares every way."""
    chosen = client.post("/api/sessions", json={"system": "crawler", "seed": 4}).json()
    base, mine = f"/api/sessions/{chosen['id']}", {"X-Seat-Token": chosen["owner_token"]}
    for role in ("player", "spectator"):
        refused = client.post(f"{base}/links", json={"role": role}, headers=mine)
        assert refused.status_code == 400 and "seed was chosen" in refused.json()["error"], role
    for role in ("spectator_gm", "owner"):
        assert client.post(f"{base}/links", json={"role": role}, headers=mine).status_code == 201, role
    assert dedale.play("crawler", seed=4).to_json()["rooms"] == client.get(f"{base}/export/json",
                                                                           headers=mine).json()["rooms"]
    fresh = client.post("/api/sessions", json={"system": "crawler"}).json()
    for role in ("player", "spectator", "spectator_gm", "owner"):
        made = client.post(f"/api/sessions/{fresh['id']}/links", json={"role": role},
                           headers={"X-Seat-Token": fresh["owner_token"]})
        assert made.status_code == 201, role


def test_a_game_that_hides_nothing_shares_whatever_its_seed(client: TestClient) -> None:
    for body in ({"system": "keylock", "seed": 4}, {"system": "zombstone-duel", "seed": 4, "table_dice": True}):
        made = client.post("/api/sessions", json=body).json()
        link = client.post(f"/api/sessions/{made['id']}/links", json={"role": "spectator"},
                           headers={"X-Seat-Token": made["owner_token"]})
        assert link.status_code == 201, body


# --- undo ------------------------------------------------------------------------------------------------
def test_undo_never_goes_back_past_the_ai_cards_shown(client: TestClient) -> None:
    made = client.post("/api/sessions", json={"system": "zombstone-duel"}).json()
    base = f"/api/sessions/{made['id']}"
    client.post(f"{base}/autopilot", json={"to_end": True})
    end = client.get(f"{base}/export/json").json()
    assert end["over"] and "??" not in end["duel"]["hole"][1]
    refused = client.post(f"{base}/undo")
    assert refused.status_code == 400 and "cannot be undone" in refused.json()["error"]
    assert client.get(f"{base}/export/json").json() == end


def test_undo_never_goes_back_past_the_turn_and_river_seen() -> None:
    session = Session(DuelRules, DuelParams(), LONG[0])
    while session.state.duel is not None and len(session.state.duel.board) < 5 and not session.is_over:
        session.step("check" if any(c.id == "check" for c in session.choices()) else "call")
    assert len(session.to_json()["duel"]["board"]) == 5
    river = copy.deepcopy(session.to_json())
    assert not session.can_undo()
    with pytest.raises(DedaleError, match="cannot be undone"):
        session.undo()
    assert session.to_json() == river
    again = Session.from_json(DuelRules, river)  # the server rebuilds a game from its events: the same floor
    with pytest.raises(DedaleError, match="cannot be undone"):
        again.undo()


def test_a_step_that_drew_nothing_is_undone(client: TestClient) -> None:
    made = client.post("/api/sessions", json={"system": "zombstone-duel", "seating": "hot-seat"}).json()
    base = f"/api/sessions/{made['id']}"
    start = client.get(base).json()
    client.post(f"{base}/step", json={"choice": "check"})  # seat 0 checks: nothing dealt
    assert client.post(f"{base}/undo").status_code == 200
    assert client.get(base).json() == start


# --- what a shared screen and a party view download ----------------------------------------------------------
def test_a_shared_screen_downloads_neither_seats_cards_nor_the_seed(client: TestClient) -> None:
    """Two people on one screen: the device may be passed at any moment, so downloads, their names and the log
    show neither hand, nor the seed that deals them, whoever's turn it is."""
    made = client.post("/api/sessions", json={"system": "zombstone-duel", "seating": "hot-seat"}).json()
    page, base = f"/play/{made['id']}", f"/api/sessions/{made['id']}"
    real = client.app.state.sessions.get(made["id"])  # type: ignore[attr-defined]
    seed = seed_text(real.seed)
    for turn in range(2):
        hands = [card for hole in real.to_json()["duel"]["hole"] for card in hole]
        assert len(hands) == 4 and "??" not in hands
        document = client.get(f"{base}/export/json").json()
        assert document["duel"]["hole"] == [["??", "??"], ["??", "??"]] and document["seed"] is None
        downloads = [client.get(f"{base}/export/{fmt}") for fmt in ("txt", "svg")]
        downloads += [client.get(f"{page}/export.txt"), client.get(f"{page}/log.txt")]
        for download in downloads:
            assert not any(card in download.text for card in hands) and seed not in download.text
            assert seed not in download.headers.get("content-disposition", "")
        assert seed not in client.get(page).text and seed not in client.get(f"{page}?ready={turn}").text
        if turn == 0:
            client.post(f"{base}/step", json={"choice": "check"})


def test_a_shared_screen_shows_the_seed_everywhere_alike_once_the_duel_is_over(client: TestClient) -> None:
    """Over, nothing is hidden any more: the gate, the felt, every download and its file name give the seed, the
    seed the game's file carries."""
    made = client.post("/api/sessions", json={"system": "zombstone-duel", "seating": "hot-seat"}).json()
    page, base = f"/play/{made['id']}", f"/api/sessions/{made['id']}"
    seed = seed_text(client.app.state.sessions.get(made["id"]).seed)  # type: ignore[attr-defined]
    while not (state := client.get(base).json())["over"]:
        assert state["seed"] is None and seed not in client.get(page).text
        legal = [choice["id"] for choice in state["choices"]]
        client.post(f"{base}/step", json={"choice": "allin" if "allin" in legal else "call"})
    assert state["seed"] == seed and client.get(f"{base}/export/json").json()["seed"] == seed
    for download in [client.get(f"{base}/export/{fmt}") for fmt in ("json", "txt", "svg")]:
        assert seed in download.text and seed in download.headers["content-disposition"]
    assert seed in client.get(page).text and seed in client.get(f"{page}?ready=0").text


@pytest.mark.parametrize("system", ["crawler", "paper", "hexcrawl"])
def test_a_party_view_never_carries_the_seed(client: TestClient, system: str) -> None:
    made = client.post("/api/sessions", json={"system": system}).json()
    base = f"/api/sessions/{made['id']}"
    client.post(f"{base}/autopilot", json={})
    gm = client.get(f"{base}/export/json").json()
    party = client.get(f"{base}/export/json?view=party").json()
    assert is_long(check_seed(gm["seed"])) and party["seed"] is None and gm["seed"] not in str(party)
    assert "secret" not in gm


# --- the record --------------------------------------------------------------------------------------------
def test_a_record_of_before_long_seeds_replays_with_its_key_and_not_without() -> None:
    session = to_the_flop(Session(DuelRules, DuelParams(), SEED, secret=LEGACY_KEY))
    session.run_autopilot()
    record = session.to_json()
    assert record["secret"] == LEGACY_KEY.hex() and Session.from_json(DuelRules, record).to_json() == record
    for changed in ({**record, "secret": bytes(32).hex()}, {k: v for k, v in record.items() if k != "secret"}):
        with pytest.raises(DedaleError):
            Session.from_json(DuelRules, changed)
    with pytest.raises(DedaleError, match="secret"):
        Session.from_json(DuelRules, {**record, "secret": "00"})


def test_a_skirmish_between_two_people_on_the_web_is_dealt_from_a_seed_nobody_knows(client: TestClient) -> None:
    """OK Corral through links: a long seed the server drew, which neither seat is shown while the game hides
    something from it."""
    made = client.post("/api/sessions", json={"system": "zombstone", "seating": "linked",
                                              "params": {"scenario": "ok_corral"}}).json()
    base, mine = f"/api/sessions/{made['id']}", {"X-Seat-Token": made["seat_token"]}
    other = client.post(f"{base}/links", json={"role": "seat1"}, headers=mine).json()["token"]
    assert client.get(base, headers={"X-Seat-Token": other}).json()["seed"] is None  # seat 1 sits down
    real = client.app.state.sessions.get(made["id"])  # type: ignore[attr-defined]
    assert is_long(real.seed) and real.secret is None and client.get(base, headers=mine).json()["seed"] is None
    for token in (made["seat_token"], other):
        view = client.get(f"{base}/export/json", headers={"X-Seat-Token": token}).json()
        assert view["hidden"] and view["seed"] is None and seed_text(real.seed) not in str(view)


def test_a_file_still_hiding_something_is_kept_as_chosen(client: TestClient) -> None:
    """Whoever made the file knows its seed (and any key it carries): kept here, it shares only what hides
    nothing (`test_a_map_made_from_a_chosen_seed_is_shared_only_with_who_may_see_everything`)."""
    for crafted in (to_the_flop(Session(DuelRules, DuelParams(), SEED, secret=LEGACY_KEY)).to_json(),
                    to_the_flop(Session(DuelRules, DuelParams(), LONG[0])).to_json()):
        made = client.post("/api/upload", json=crafted)
        assert made.status_code == 201
        refused = client.post(f"/api/sessions/{made.json()['id']}/links", json={"role": "spectator"},
                              headers={"X-Seat-Token": made.json()["owner_token"]})
        assert refused.status_code == 400 and "seed was chosen" in refused.json()["error"]
    view = Session(DuelRules, DuelParams(), LONG[0]).seat_json(0)
    assert client.post("/api/upload", json=view).status_code == 400  # a view cannot be continued

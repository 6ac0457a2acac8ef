"""Two people at one game, through the web: seat links whose tokens the server checks on every request of a
linked session (a wrong or missing one is a 403, everywhere), each seat shown only what the rules let it
know, spectators who watch and never choose, a co-op crawl shared by links, and two players on one screen
with nothing of either hand shown between their turns."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from dedale.core.cards import Card
from webclient import page_token, web_client

OTHER = {"X-Seat-Token": "not-a-seat-token"}


def shows(text: str, words: str) -> bool:
    """`words` stand in `text` on their own (a card's code or drawing), not inside a longer word or an id."""
    return re.search(rf"(?<![\w/#]){re.escape(words)}(?!\w)", text) is not None


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with web_client(tmp_path / "seats.db") as made:
        yield made


def seat(token: str) -> dict[str, str]:
    return {"X-Seat-Token": token}


def hole_cards(document: dict[str, Any], of: int) -> list[str]:
    return [card for card in document["duel"]["hole"][of] if card != "??"]


def test_a_co_op_crawl_shared_by_links(client: TestClient) -> None:
    made = client.post("/api/sessions", json={"system": "crawler"}).json()
    base = f"/api/sessions/{made['id']}"
    assert client.post(f"{base}/links", json={"role": "seat1"}).status_code == 400  # a crawl has one side
    watcher = client.post(f"{base}/links", json={"role": "spectator"}).json()
    player = client.post(f"{base}/links", json={"role": "player"}).json()
    assert len(watcher["token"]) >= 22 and watcher["url"] == f"/join/{made['id']}/{watcher['token']}"
    client.cookies.clear()  # the creator's seat cookie gone: this client is anyone on the network now
    assert client.get(base).status_code == 403
    assert client.get(base, headers=OTHER).status_code == 403
    seen = client.get(base, headers=seat(watcher["token"])).json()
    assert seen["choices"] == [] and seen["seat"] == -1
    first = client.get(base, headers=seat(player["token"])).json()["choices"][0]["id"]
    assert client.post(f"{base}/step", json={"choice": first}, headers=seat(watcher["token"])).status_code == 403
    assert client.post(f"{base}/step", json={"choice": first}, headers=seat(player["token"])).status_code == 200
    assert client.get(base, headers=seat(watcher["token"])).json()["steps"] == 1


def linked_endpoints(session_id: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Every endpoint of a session: pages, panel, live updates, downloads, and the API."""
    page, api = f"/play/{session_id}", f"/api/sessions/{session_id}"
    return [("GET", page, {}), ("GET", f"{page}/panel", {}), ("GET", f"{page}/live", {}),
            ("GET", f"{page}/log", {}), ("GET", f"{page}/log.txt", {}),
            ("GET", f"{page}/export.json", {}), ("GET", f"{page}/export.svg", {}),
            ("POST", f"{page}/step", {"data": {"choice": "check"}}), ("POST", f"{page}/auto", {"data": {}}),
            ("POST", f"{page}/undo", {"data": {}}), ("POST", f"{page}/share", {"data": {"role": "spectator"}}),
            ("POST", f"/sessions/{session_id}/rename", {"data": {"name": "x"}}),
            ("POST", f"/sessions/{session_id}/delete", {"data": {}}),
            ("GET", api, {}), ("POST", f"{api}/step", {"json": {"choice": "check"}}),
            ("POST", f"{api}/autopilot", {"json": {}}), ("POST", f"{api}/undo", {}),
            ("POST", f"{api}/links", {"json": {"role": "spectator"}}), ("PATCH", api, {"json": {"name": "x"}}),
            ("DELETE", api, {}), ("GET", f"{api}/export/json", {}), ("GET", f"{api}/export/png", {})]


@pytest.mark.parametrize("token", [None, "not-a-seat-token", "x" * 500])
def test_a_wrong_or_missing_seat_token_is_refused_everywhere(client: TestClient, token: str | None) -> None:
    made = client.post("/api/sessions", json={"system": "zombstone-duel", "seating": "linked"}).json()
    client.cookies.clear()  # another browser: its own form token, no seat cookie
    form = page_token(client)
    client.headers["X-CSRF-Token"] = form
    for method, path, body in linked_endpoints(made["id"]):
        headers = {} if token is None else {"X-Seat-Token": token}
        if "data" in body:
            body = {"data": {**body["data"], "csrf": form}}
        answer = client.request(method, path, headers=headers, **body)
        assert answer.status_code == 403, (method, path, answer.status_code, answer.text[:200])


def test_two_browsers_play_a_duel_to_the_end_each_seeing_only_its_own_cards(client: TestClient) -> None:
    made = client.post("/api/sessions", json={"system": "zombstone-duel", "seating": "linked"}).json()
    base = f"/api/sessions/{made['id']}"
    tokens = {0: made["seat_token"], 1: client.post(f"{base}/links", json={"role": "seat1"},
                                                    headers=seat(made["seat_token"])).json()["token"]}
    client.cookies.clear()
    assert client.get(f"{base}/export/json", headers=seat(tokens[0])).status_code == 409  # nothing dealt yet
    assert client.get(base, headers=seat(tokens[1])).json()["seat"] == 1  # the other player sits: the deal
    pick = random.Random(5)
    for _ in range(60):
        views = {s: client.get(f"{base}/export/json", headers=seat(t)).json() for s, t in tokens.items()}
        state = client.get(base, headers=seat(tokens[0])).json()
        if state["over"]:
            break
        for s in (0, 1):  # neither page nor download holds the other's cards before the end
            assert hole_cards(views[s], 1 - s) == []
            page = client.get(f"/play/{made['id']}", headers=seat(tokens[s])).text
            for other in hole_cards(views[1 - s], 1 - s):
                assert not shows(json.dumps(views[s]), other)
                assert not shows(page, other) and not shows(page, Card.parse(other).shown)
        to_act = state["to_act"]
        waiting = client.get(base, headers=seat(tokens[1 - to_act])).json()
        assert waiting["choices"] == []
        choices = client.get(base, headers=seat(tokens[to_act])).json()["choices"]
        wrong = client.post(f"{base}/step", json={"choice": choices[0]["id"]}, headers=seat(tokens[1 - to_act]))
        assert wrong.status_code == 400
        assert client.post(f"{base}/step", json={"choice": pick.choice(choices)["id"]},
                           headers=seat(tokens[to_act])).status_code == 200
    final = client.get(f"{base}/export/json", headers=seat(tokens[0])).json()
    assert final["over"] and client.get(base, headers=seat(tokens[0])).json()["over"]


def test_two_players_on_one_screen_pass_the_device(client: TestClient) -> None:
    made = client.post("/api/sessions", json={"system": "zombstone-duel", "seed": 7, "seating": "hot-seat"}).json()
    document = client.get(f"/api/sessions/{made['id']}/export/json").json()  # the screen's first seat
    mine = client.get(f"/play/{made['id']}?ready=0").text
    between = client.get(f"/play/{made['id']}").text
    to_act = client.get(f"/api/sessions/{made['id']}").json()["to_act"]
    assert "Pass the device" in between and "<svg" not in between.split('id="play"')[1]
    assert all(card not in between for card in hole_cards(document, 0))
    assert to_act == 0 and "you are player 1" in mine and "Pass the device" not in mine


def test_the_pages_following_games_live_are_bounded(client: TestClient) -> None:
    from dedale.web.service import MAX_WATCHERS

    made = client.post("/api/sessions", json={"system": "crawler"}).json()
    places = client.app.state.watchers  # type: ignore[attr-defined]
    while places.take(f"client {places.taken}"):  # every place taken, each by a client of its own
        pass
    assert places.taken == MAX_WATCHERS
    refused = client.get(f"/play/{made['id']}/live")
    assert refused.status_code == 503 and "too many" in refused.text


@pytest.mark.parametrize("system", ["crawler", "paper", "hexcrawl"])
def test_a_spectator_of_a_map_sees_the_party_view_unless_its_link_shows_the_gms(client: TestClient,
                                                                                system: str) -> None:
    """A spectator's link opens the party view: its page, its live panel and every download, whatever view it
    asks for, and no log (the log tells what the GM rolled). The sharer may instead make a link that shows the
    GM's view; a game with secrets has no such link."""
    made = client.post("/api/sessions", json={"system": system}).json()
    base, page = f"/api/sessions/{made['id']}", f"/play/{made['id']}"
    client.post(f"{base}/autopilot", json={"to_end": False})
    full = client.get(f"{base}/export/json").json()
    assert full["log"] and len(str(full["seed"])) == 30  # the GM's document: its long seed
    watcher = seat(client.post(f"{base}/links", json={"role": "spectator"}).json()["token"])
    gm_watcher = seat(client.post(f"{base}/links", json={"role": "spectator_gm"}).json()["token"])
    client.cookies.clear()
    for view in ("gm", "party"):
        shown = client.get(f"{base}/export/json", params={"view": view}, headers=watcher).json()
        assert shown["view"] == "party" and shown["log"] == [] and shown["events"] == [] and shown["seed"] is None
        text = client.get(f"{page}/export.txt", params={"view": view}, headers=watcher)
        assert text.status_code == 200 and "party" in text.headers["content-disposition"]
    assert client.get(base, headers=watcher).json()["seed"] is None
    assert client.get(f"{page}/log", headers=watcher).status_code == 403
    assert client.get(f"{page}/log.txt", headers=watcher).status_code == 403
    html = client.get(page, headers=watcher).text
    assert 'class="views"' not in html and "export.json?view=party" in html  # no GM tab; its downloads the party's
    assert client.get(page, headers=gm_watcher).text.count('class="views"') == 1  # both views offered
    seen = client.get(f"{base}/export/json", headers=gm_watcher).json()
    assert seen["log"] == full["log"] and "view" not in seen
    assert client.get(f"{page}/log.txt", headers=gm_watcher).status_code == 200
    assert client.post(f"{base}/step", json={"choice": "x"}, headers=gm_watcher).status_code == 403


def test_a_game_with_secrets_has_no_gm_spectator(client: TestClient) -> None:
    made = client.post("/api/sessions", json={"system": "zombstone-duel"}).json()
    refused = client.post(f"/api/sessions/{made['id']}/links", json={"role": "spectator_gm"})
    assert refused.status_code == 400 and "GM's view of a map only" in refused.json()["error"]


@pytest.mark.parametrize("system", ["crawler", "paper", "hexcrawl", "zombstone-duel"])
def test_a_second_screen_shows_the_picture_every_player_may_see(client: TestClient, system: str) -> None:
    """The picture alone, for a screen the players look at (issue 30): a map's party view (no GM's key), a
    duel's table with neither hand; a linked game's screen needs one of its links, as its pages do."""
    from dedale.core.session import SPECTATOR
    from dedale.systems import system as find

    made = client.post("/api/sessions", json={"system": system}).json()
    base, page = f"/api/sessions/{made['id']}", f"/play/{made['id']}"
    client.post(f"{base}/autopilot", json={"to_end": False})
    session = client.app.state.sessions.get(made["id"])  # type: ignore[attr-defined]
    found = find(system)
    shown = session.seat_json(SPECTATOR)
    if found.party_view is not None:
        shown = found.in_view(shown, "party")
    picture = found.export(shown, ".svg", {}, "en").decode("utf-8")
    screen = client.get(f"{page}/screen")
    assert screen.status_code == 200 and picture in screen.text and 'data-live="' in screen.text
    assert "<header" not in screen.text and "<form" not in screen.text  # the picture alone
    assert client.get(f"{page}/screen/picture").text.count("<svg") == 1
    if found.party_view is not None:
        assert found.export(session.to_json(), ".svg", {}, "en").decode("utf-8") != picture  # not the GM's
    else:
        cards = [card for hole in session.to_json()["duel"]["hole"] for card in hole]
        assert not any(shows(screen.text, card) for card in cards)
    client.post(f"{base}/links", json={"role": "spectator"})  # the game is linked now: a link is needed
    client.cookies.clear()
    assert client.get(f"{page}/screen").status_code == 403


def test_a_party_view_page_stays_the_party_view_when_the_game_changes(client: TestClient) -> None:
    """The page a linked game shows in the party view fetches its panel again, live, in that view: never the
    GM's key once someone plays."""
    made = client.post("/api/sessions", json={"system": "crawler"}).json()
    page = f"/play/{made['id']}"
    client.post(f"/api/sessions/{made['id']}/links", json={"role": "spectator"})  # linked: pages follow live
    shown = client.get(page, params={"view": "party"}).text
    panel = re.search(r'data-panel="([^"]+)"', shown)
    assert panel and panel.group(1) == f"{page}/panel?view=party"
    client.post(f"/api/sessions/{made['id']}/autopilot", json={"to_end": True})
    party = client.get(panel.group(1)).text
    assert 'id="board"' in party and party != client.get(f"{page}/panel").text  # not the GM's panel


@pytest.mark.parametrize("system", ["crawler", "paper", "hexcrawl"])
def test_a_co_op_player_of_a_map_plays_in_the_party_view(client: TestClient, system: str) -> None:
    """A co-op game's "player" link of a map chooses as its owner does, but sees what the party has discovered:
    its page, the panel after each of its choices, its downloads; never the GM's key, the log or the document's
    secret (the owner, who made the game, is its GM)."""
    from markupsafe import escape

    from dedale.i18n import t
    from dedale.systems import system as find
    from dedale.web import legend

    made = client.post("/api/sessions", json={"system": system}).json()
    base, page = f"/api/sessions/{made['id']}", f"/play/{made['id']}"
    client.post(f"{base}/step", json={"choice": made["choices"][0]["id"]})  # the owner's first choice
    token = client.post(f"{base}/links", json={"role": "player"}).json()["token"]
    client.cookies.clear()  # another browser, which opens the link
    client.headers["X-CSRF-Token"] = page_token(client)
    client.get(f"/join/{made['id']}/{token}")
    html = client.get(page, params={"view": "gm"}).text
    assert 'class="views"' not in html and "export.json?view=party" in html and f"{page}/step?view=party" in html
    for view in ("gm", "party"):
        shown = client.get(f"{base}/export/json", params={"view": view}).json()
        assert shown["view"] == "party" and shown["log"] == [] and shown["seed"] is None
    assert client.get(base).json()["seed"] is None  # the seed would give the map: never while it hides some
    assert [listed["seed"] for listed in client.get("/api/sessions").json()] == [None]
    assert client.get(f"{page}/log.txt").status_code == 403
    session = client.app.state.sessions.get(made["id"])  # type: ignore[attr-defined]
    choice = session.choices()[0].id
    after = client.post(f"{page}/step", data={"choice": choice}, headers={"HX-Request": "true"})
    assert after.status_code == 200 and client.get(base).json()["steps"] == len(session.events) == 2
    found, listed = find(system), session.choices()
    party = found.load(found.in_view(session.to_json(), "party"))
    board = legend.split(found.picture(session, listed, "en", party)).map
    assert board in after.text and 'class="log"' not in after.text
    assert escape(t("web.party_view_play", "en")) in after.text
    gm_board = legend.split(found.picture(session, listed, "en")).map
    assert gm_board == board or gm_board not in after.text
    again = client.post(f"{page}/undo", data={}, headers={"HX-Request": "true"})
    assert again.status_code == 200 and f"{page}/step?view=party" in again.text and 'class="log"' not in again.text


def test_a_linked_duel_deals_nothing_before_its_guest_sits_down(tmp_path: Path) -> None:
    """Making 60 linked duels to keep the best hand, deleting the others: the owner's page, panel, downloads, log and
    the API show no card of its own until the other player has opened the link (the game is not even dealt), so
    there is nothing to shop for. The guest's link deals it; both then see their own cards."""
    with web_client(tmp_path / "shop.db", follow_redirects=False) as client:
        shopping(client)


def shopping(client: TestClient) -> None:
    for _ in range(50):
        made = client.post("/new/zombstone-duel", data={"seating": "linked"})
        session_id = made.headers["location"].rsplit("/", 1)[1]
        page = f"/play/{session_id}"
        shown = [client.get(page).text, client.get(f"{page}/panel").text,
                 client.get(f"/api/sessions/{session_id}").text, client.get("/sessions").text]
        assert "Waiting for the other player" in shown[0] and "A link for the other player" in shown[0]
        for text in shown:
            assert not any(shows(text, code) or shows(text, Card.parse(code).shown) for code in CODES), text[:200]
        for path in (f"{page}/export.json", f"{page}/export.svg", f"{page}/log.txt", f"{page}/log",
                     f"/api/sessions/{session_id}/export/json"):
            assert client.get(path).status_code == 409, path
        assert client.app.state.sessions.store.get(session_id)[1] == []  # type: ignore[attr-defined]
        assert session_id not in client.app.state.sessions.cache  # type: ignore[attr-defined]
        assert client.post(f"/sessions/{session_id}/delete").status_code == 303
    made = client.post("/new/zombstone-duel", data={"seating": "linked"})
    session_id = made.headers["location"].rsplit("/", 1)[1]
    link = client.post(f"/play/{session_id}/share", data={"role": "seat1"}).headers["location"]
    join = re.search(r"link=(%2Fjoin%2F[^&]+)", link).group(1).replace("%2F", "/")  # type: ignore[union-attr]
    guest = TestClient(client.app, base_url=str(client.base_url), follow_redirects=False)
    assert guest.get(join).status_code == 303
    mine = client.get(f"/play/{session_id}/export.json").json()
    theirs = guest.get(f"/play/{session_id}/export.json").json()
    assert "??" not in mine["duel"]["hole"][0] and mine["duel"]["hole"][1] == ["??", "??"]
    assert "??" not in theirs["duel"]["hole"][1] and theirs["duel"]["hole"][0] == ["??", "??"]


CODES = [f"{rank}{suit}" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
         for suit in "HDSC"]

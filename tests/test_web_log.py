"""The log on the web: the panel's newest lines keep their true numbers and link to the whole log, which is
paged, grouped by the choices made, and downloadable as text; a seat reads it only as the rules let it."""

from __future__ import annotations

import re
from html import unescape

from fastapi.testclient import TestClient

from dedale.core.logtext import describe
from dedale.web.logview import PAGE_ENTRIES
from webclient import started

HX = {"HX-Request": "true"}


def start(client: TestClient, system: str, **form: str) -> str:
    return started(client, system, **{"seed": "4", **form})


def played_to_the_end(client: TestClient, system: str, **form: str) -> str:
    session_id = start(client, system, **form)
    assert client.post(f"/play/{session_id}/auto", data={"to": "end"}, headers=HX).status_code == 200
    return session_id


def numbered(html: str) -> list[tuple[int, str]]:
    return [(int(n), unescape(line)) for n, line in re.findall(r'<li value="(\d+)">([^<]*)</li>', html)]


def whole_log(client: TestClient, session_id: str) -> list[tuple[int, str]]:
    first = client.get(f"/play/{session_id}/log").text
    pages = max([1, *map(int, re.findall(r'/log\?page=(\d+)"', first))])
    return [line for page in range(1, pages + 1)
            for line in numbered(client.get(f"/play/{session_id}/log", params={"page": page}).text)]


def test_the_panel_numbers_its_newest_lines_as_the_whole_log_does(client: TestClient) -> None:
    session_id = played_to_the_end(client, "crawler")
    entries = client.get(f"/api/sessions/{session_id}/export/json").json()["log"]
    assert len(entries) > 80  # more than the panel shows
    html = client.get(f"/play/{session_id}").text
    assert f'<ol class="log" reversed start="{len(entries)}">' in html
    assert f"The whole log ({len(entries)} entries)" in html and f"/play/{session_id}/log.txt" in html


def test_the_whole_log_is_every_entry_once_with_its_number_paged_and_grouped_by_choice(client: TestClient) -> None:
    session_id = played_to_the_end(client, "hexcrawl", radius="9")
    document = client.get(f"/api/sessions/{session_id}/export/json").json()
    entries = document["log"]
    assert len(entries) > 2 * PAGE_ENTRIES  # several pages
    lines = whole_log(client, session_id)
    assert [n for n, _ in lines] == list(range(1, len(entries) + 1))
    assert [line for _, line in lines] == [describe(entry, "en") for entry in entries]
    second = client.get(f"/play/{session_id}/log", params={"page": 2}).text
    assert numbered(second)[0][0] == PAGE_ENTRIES + 1 and 'aria-current="page">2<' in second
    # Each choice opens a group, headed by its number: as many groups as choices, in order.
    headings = [int(n) for page in range(1, 4)
                for n in re.findall(r"<summary>Choice (\d+)</summary>",
                                    client.get(f"/play/{session_id}/log", params={"page": page}).text)]
    choices = sum("choice" in entry for entry in entries)
    assert choices == len(document["events"]) and sorted(set(headings)) == list(range(1, choices + 1))
    # A page past the last shows the last; a page below 1 is refused.
    assert numbered(client.get(f"/play/{session_id}/log", params={"page": 99}).text)[-1][0] == len(entries)
    assert client.get(f"/play/{session_id}/log", params={"page": 0}).status_code == 422


def test_the_log_as_text_names_its_file_after_the_session_and_seed(client: TestClient) -> None:
    session_id = played_to_the_end(client, "crawler", name="Le Donjon d'Été")
    entries = client.get(f"/api/sessions/{session_id}/export/json").json()["log"]
    text = client.get(f"/play/{session_id}/log.txt")
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    assert 'filename="le-donjon-d-ete-4-gm-log.txt"' in text.headers["content-disposition"]
    lines = [line for line in text.text.splitlines() if re.match(r"\d+\. ", line)]
    assert lines == [f"{n}. {describe(entry, 'en')}" for n, entry in enumerate(entries, 1)]
    client.get("/lang/fr")
    french = client.get(f"/play/{session_id}/log.txt").text
    assert french.startswith("Au départ\n") and "\nChoix 1\n" in french


def test_a_player_reads_the_whole_log_only_as_the_rules_let_them(client: TestClient) -> None:
    session_id = start(client, "zombstone", side="lawmen")
    for _ in range(30):
        client.post(f"/play/{session_id}/auto", data={"to": "one"}, headers=HX)
    from dedale.web.store import Sessions  # the app's own session, as the server holds it

    sessions: Sessions = client.app.state.sessions  # type: ignore[attr-defined]
    session = sessions.get(session_id)
    assert session.hides()
    seen = [describe(entry, "en") for entry in session.seat_log(0, 0)]
    assert [line for _, line in whole_log(client, session_id)] == seen
    text = client.get(f"/play/{session_id}/log.txt").text
    assert [line.split(". ", 1)[1] for line in text.splitlines() if re.match(r"\d+\. ", line)] == seen
    everything = [describe(session.rules.log_entry(entry), "en") for entry in session.log]
    assert seen != everything  # something was indeed masked or left out


def test_each_seat_of_a_game_played_by_links_reads_its_own_log(client: TestClient) -> None:
    """Two browsers at one duel: each reads the log (pages and text) as its seat may, the other's cards
    masked; the server decides, from the seat token."""
    made = client.post("/api/sessions", json={"system": "zombstone-duel", "seating": "linked"}).json()
    base = f"/api/sessions/{made['id']}"
    tokens = {0: made["seat_token"], 1: client.post(f"{base}/links", json={"role": "seat1"},
                                                    headers={"X-Seat-Token": made["seat_token"]}).json()["token"]}
    client.cookies.clear()
    assert client.get(base, headers={"X-Seat-Token": tokens[0]}).json()["waiting"]  # nothing dealt for seat 0
    seated = client.get(base, headers={"X-Seat-Token": tokens[1]}).json()  # seat 1 sits down: the deal
    assert "waiting" not in seated and seated["seat"] == 1
    sessions = client.app.state.sessions  # type: ignore[attr-defined]
    session = sessions.get(made["id"])
    assert session.hides(0) and session.hides(1)
    for seat, token in tokens.items():
        text = client.get(f"/play/{made['id']}/log.txt", headers={"X-Seat-Token": token}).text
        seen = [describe(entry, "en") for entry in session.seat_log(0, seat)]
        assert [line.split(". ", 1)[1] for line in text.splitlines() if re.match(r"\d+\. ", line)] == seen
        page = client.get(f"/play/{made['id']}/log", headers={"X-Seat-Token": token}).text
        assert [line for _, line in numbered(page)] == seen
    texts = {seat: client.get(f"/play/{made['id']}/log.txt", headers={"X-Seat-Token": token}).text
             for seat, token in tokens.items()}
    assert texts[0] != texts[1]  # each its own cards

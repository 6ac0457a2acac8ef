"""The saved sessions: each row tells its session apart (system, seed, dates, whether it is over), and the
list sorts and filters by system; a filter or a sort it does not know is refused, naming those it knows."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from webclient import started

HX = {"HX-Request": "true"}


def start(client: TestClient, system: str, seed: str, name: str = "") -> str:
    return started(client, system, seed=seed, **({"name": name} if name else {}))


def rows(html: str) -> list[str]:
    return re.findall(r'<li class="card" data-system="[^"]+">(.*?)</li>', html, re.S)


def test_each_row_tells_its_session_apart(client: TestClient) -> None:
    done = start(client, "crawler", "4")
    client.post(f"/play/{done}/auto", data={"to": "end"}, headers=HX)
    start(client, "crawler", "4")
    start(client, "hexcrawl", "9")
    html = client.get("/sessions").text
    listed = rows(html)
    assert len(listed) == 3
    seeds = [re.sub(r"<[^>]+>", "", row) for row in listed]  # a seed is shown as code, to copy
    assert "Crawler" in listed[1] and "seed 4" in seeds[1] and "Hexcrawl" in listed[0] and "seed 9" in seeds[0]
    assert sum(">finished<" in row for row in listed) == 1 and sum(">in progress<" in row for row in listed) == 2
    for row in listed:
        assert re.search(r'created <time datetime="\d{4}-\d\d-\d\dT[\d:]+\+00:00">', row)
        assert re.search(r'last played <time datetime="', row)
    assert len(set(listed)) == 3  # no two rows alike


def test_the_list_filters_by_system_and_sorts(client: TestClient) -> None:
    first = start(client, "crawler", "4", "Zed")
    start(client, "hexcrawl", "9", "Alpha")
    start(client, "keylock", "2", "Moss")
    client.post(f"/play/{first}/auto", data={"to": "one"}, headers=HX)  # played last
    assert [r.split('data-system="')[1].split('"')[0] for r in re.findall(r'<li class="card" data-system="[^"]+"',
            client.get("/sessions", params={"system": "hexcrawl"}).text)] == ["hexcrawl"]
    by_name = rows(client.get("/sessions", params={"sort": "name"}).text)
    assert [re.search(r'class="name"[^>]*>([^<]+)<', row).group(1) for row in by_name] == ["Alpha", "Moss", "Zed"]
    played = rows(client.get("/sessions").text)
    assert "Zed" in played[0]
    created = rows(client.get("/sessions", params={"sort": "created"}).text)
    assert "Moss" in created[0] and "Zed" in created[-1]
    none = client.get("/sessions", params={"system": "paper"}).text
    assert not rows(none) and "No saved session of this system." in none


def test_an_unknown_filter_or_sort_is_refused_with_what_is_accepted(client: TestClient) -> None:
    start(client, "crawler", "4")
    wrong = client.get("/sessions", params={"system": "chess"})
    assert wrong.status_code == 400 and "chess" in wrong.text and "crawler, paper, hexcrawl" in wrong.text
    wrong = client.get("/sessions", params={"sort": "size"})
    assert wrong.status_code == 400 and "played, created, system, name" in wrong.text

"""Whose view: the GM's is the whole document; a player's shows what the party has discovered (the rooms laid,
the hexes explored and what stands on them) and none of the GM's key (room contents, communities not yet
seen, the seed, the events and the log that would give the rest away), in every format, mid-session too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import dedale
import schemas
from dedale.core.errors import DedaleError
from dedale.systems import system
from games import played
from webclient import web_client

SMALL: dict[str, dict[str, Any]] = {"crawler": {}, "paper": {"max_cards": 25}, "hexcrawl": {"radius": 5}}


def midway(name: str, seed: int, steps: int) -> Any:
    return played(name, seed, steps, **SMALL[name])


def contents_words(document: dict[str, Any]) -> list[str]:
    """The words of the rooms' contents as the GM's key gives them (the crawler's creatures and treasure)."""
    from dedale.crawler.model import Dungeon
    from dedale.render.crawler_legend import room_details

    return [room_details(room, "en") for room in Dungeon.from_json(document).rooms if room.contents]


@pytest.mark.parametrize("name", list(SMALL))
@pytest.mark.parametrize("seed", range(8))
def test_a_players_view_keeps_what_was_discovered_and_nothing_of_the_key(name: str, seed: int) -> None:
    session = midway(name, seed, seed * 3)
    gm = session.to_json()
    player = system(name).seen_by(gm, "player")
    schemas.validate(player, dedale.schema(name))
    assert player["seed"] is None and player["events"] == [] and player["log"] == [] and player["hidden"]
    if name in ("crawler", "paper"):
        assert [r["id"] for r in player["rooms"]] == [r["id"] for r in gm["rooms"]]  # every room laid, no more
        assert all(r["contents"] is None for r in player["rooms"])
        assert player["doors"] == gm["doors"]
    else:
        explored = {(h["q"], h["r"]) for h in gm["hexes"]}
        assert player["hexes"] == gm["hexes"]
        assert [c for c in gm["communities"] if (c["q"], c["r"]) in explored] == player["communities"]
        assert all((s["q"], s["r"]) in explored for s in player["sites"])


def test_midway_the_player_sees_fewer_communities_than_the_gm() -> None:
    session = dedale.play("hexcrawl", 4, radius=5)
    for _ in range(4):
        session.step(session.choices()[0])  # north, into two communities
    player = system("hexcrawl").seen_by(session.to_json(), "player")
    assert 0 < len(player["communities"]) < len(session.to_json()["communities"])


@pytest.mark.parametrize("ext", [".svg", ".txt", ".png", ".json", ".foundry.json"])
def test_every_format_draws_a_players_view_without_the_key(ext: str) -> None:
    dungeon = dedale.generate("crawler", seed=4)
    words = contents_words(dungeon.to_json())
    assert words
    gm, player = dungeon.export(ext), dungeon.view("player").export(ext)
    assert gm != player
    if ext == ".json":  # a document holds ids, not words
        assert all(room["contents"] is None for room in json.loads(player)["rooms"])
    elif ext != ".png":
        assert any(word in gm.decode("utf-8") for word in words)
        assert not any(word in player.decode("utf-8") for word in words)


def test_a_players_view_cannot_be_continued_and_other_systems_have_none() -> None:
    shown = dedale.generate("paper", seed=3, max_cards=12).view("player")
    with pytest.raises(DedaleError, match="view"):
        shown.play()
    with pytest.raises(DedaleError, match="player's view"):
        dedale.generate("keylock", seed=2).view("player")
    with pytest.raises(DedaleError, match="gm, player"):
        dedale.generate("crawler", seed=2).view("spy")


def test_the_cli_writes_a_players_view(cli: Any, tmp_path: Path) -> None:
    code, out, _ = cli("crawler", "--seed", "4", "--view", "player", "--json")
    assert code == 0 and json.loads(out)["hidden"] and json.loads(out)["seed"] is None
    assert cli("hexcrawl", "--seed", "3", "--radius", "3", "--view", "player", "-o", str(tmp_path / "h.svg"))[0] == 0
    saved = tmp_path / "c.json"
    assert cli("crawler", "--seed", "4", "-o", str(saved))[0] == 0
    code, out, _ = cli("render", str(saved), "--view", "player")
    assert code == 0 and not any(word in out for word in contents_words(json.loads(saved.read_text())))
    assert cli("keylock", "--view", "player")[0] == 2
    assert cli("crawler", "--view", "spy")[0] == 2


def test_the_web_page_switches_to_a_players_view_mid_session(tmp_path: Path) -> None:
    with web_client(tmp_path / "s.db") as client:
        made = client.post("/api/sessions", json={"system": "crawler", "seed": 4}).json()
        for _ in range(6):
            state = client.get(f"/api/sessions/{made['id']}").json()
            client.post(f"/api/sessions/{made['id']}/step", json={"choice": state["choices"][0]["id"]})
        document = client.get(f"/api/sessions/{made['id']}/export/json").json()
        words = contents_words(document)
        gm = client.get(f"/play/{made['id']}").text
        player = client.get(f"/play/{made['id']}?view=player").text
        assert any(word in gm for word in words) and not any(word in player for word in words)
        assert 'data-choice' not in player and "Player view" in player
        download = client.get(f"/play/{made['id']}/export.svg?view=player")
        assert download.headers["content-disposition"] == 'attachment; filename="dedale-crawler-player.svg"'
        assert client.get(f"/play/{made['id']}/export.svg").headers["content-disposition"] == \
            'attachment; filename="dedale-crawler-4.svg"'
        shown = client.get(f"/api/sessions/{made['id']}/export/json", params={"view": "player"}).json()
        assert shown["hidden"] and [r["id"] for r in shown["rooms"]] == [r["id"] for r in document["rooms"]]
        assert client.get(f"/play/{made['id']}?view=spy").status_code == 400

"""Whose view: the GM's is the whole document; the party view shows what the party has discovered (the rooms
laid, the hexes explored and what stands on them) and none of the GM's key (room contents, communities not yet
seen, the seed, the events and the log that would give the rest away), in every format, mid-session too. It
was called the player view: "player" is still read as "party" (library, command line, web), and documents
saved with `"view": "player"` still load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import dedale
import schemas
from dedale.core.errors import DedaleError
from dedale.systems import names, system
from dedale.testing import played
from webclient import web_client

SMALL: dict[str, dict[str, Any]] = {"crawler": {}, "paper": {"max_cards": 25}, "hexcrawl": {"radius": 5}}


def test_every_system_of_dedale_with_a_party_view_is_looked_at_here() -> None:
    """What the party sees of each of Dédale's own maps, beyond what the contract checks of any system."""
    assert set(SMALL) == {name for name in names() if system(name).party_view and system(name).package.startswith(
        "dedale.")}


def midway(name: str, seed: int, steps: int) -> Any:
    return played(name, seed, steps, **SMALL[name])


def contents_words(document: dict[str, Any]) -> list[str]:
    """The words of the rooms' contents as the GM's key gives them (the crawler's creatures and treasure)."""
    from dedale.crawler.model import Dungeon
    from dedale.render.crawler_legend import room_details

    return [room_details(room, "en") for room in Dungeon.from_json(document).rooms if room.contents]


@pytest.mark.parametrize("name", list(SMALL))
@pytest.mark.parametrize("seed", range(8))
def test_the_party_view_keeps_what_was_discovered_and_nothing_of_the_key(name: str, seed: int) -> None:
    session = midway(name, seed, seed * 3)
    gm = session.to_json()
    player = system(name).in_view(gm, "party")
    assert player["view"] == "party" and system(name).in_view(gm, "player") == player  # its former name
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


def test_midway_the_party_sees_fewer_communities_than_the_gm() -> None:
    session = dedale.play("hexcrawl", 4, radius=5)
    for _ in range(4):
        session.step(session.choices()[0])  # north, into two communities
    player = system("hexcrawl").in_view(session.to_json(), "party")
    assert 0 < len(player["communities"]) < len(session.to_json()["communities"])


@pytest.mark.parametrize("ext", [".svg", ".txt", ".png", ".json", ".foundry.json"])
def test_every_format_draws_the_party_view_without_the_key(ext: str) -> None:
    dungeon = dedale.generate("crawler", seed=4)
    words = contents_words(dungeon.to_json())
    assert words
    gm, player = dungeon.export(ext), dungeon.view("party").export(ext)
    assert dungeon.view("player").export(ext) == player  # its former name
    assert gm != player
    if ext == ".json":  # a document holds ids, not words
        assert all(room["contents"] is None for room in json.loads(player)["rooms"])
    elif ext != ".png":
        assert any(word in gm.decode("utf-8") for word in words)
        assert not any(word in player.decode("utf-8") for word in words)


def test_the_party_view_cannot_be_continued_and_other_systems_have_none() -> None:
    shown = dedale.generate("paper", seed=3, max_cards=12).view("party")
    with pytest.raises(DedaleError, match="is a party view"):
        shown.play()
    for name in ("party", "player"):
        with pytest.raises(DedaleError, match="the keylock has no party view"):
            dedale.generate("keylock", seed=2).view(name)
    with pytest.raises(DedaleError, match=r"use one of gm, party$"):
        dedale.generate("crawler", seed=2).view("spy")


@pytest.mark.parametrize("name", list(SMALL))
def test_a_party_view_saved_as_a_player_view_still_loads_and_draws(name: str, tmp_path: Path) -> None:
    """Documents saved before the rename say `"view": "player"`: they follow the schema, load, draw as they
    did, and are refused, as party views, when continued."""
    party = dedale.generate(name, seed=5, **SMALL[name]).view("party")
    old = {**party.to_json(), "view": "player"}
    schemas.validate(old, dedale.schema(name))
    saved = tmp_path / "old.json"
    saved.write_text(json.dumps(old), encoding="utf-8")
    loaded = dedale.load(saved)
    assert loaded.to_json() == old and loaded.svg() == party.svg() and loaded.seed is None
    with pytest.raises(DedaleError, match="is a party view"):
        loaded.play()
    with pytest.raises(schemas.ValidationError):
        schemas.validate({**old, "view": "spy"}, dedale.schema(name))


def test_the_cli_writes_the_party_view(cli: Any, tmp_path: Path) -> None:
    code, out, _ = cli("crawler", "--seed", "4", "--view", "party", "--json")
    assert code == 0 and json.loads(out)["hidden"] and json.loads(out)["seed"] is None
    assert json.loads(out)["view"] == "party"
    assert cli("crawler", "--seed", "4", "--view", "player", "--json")[1] == out  # its former name
    assert cli("hexcrawl", "--seed", "3", "--radius", "3", "--view", "party", "-o", str(tmp_path / "h.svg"))[0] == 0
    saved = tmp_path / "c.json"
    assert cli("crawler", "--seed", "4", "-o", str(saved))[0] == 0
    for name in ("party", "player"):
        code, out, _ = cli("render", str(saved), "--view", name)
        assert code == 0 and not any(word in out for word in contents_words(json.loads(saved.read_text())))
    code, _, err = cli("keylock", "--view", "party")
    assert code == 2 and "no party view" in err
    assert cli("keylock", "--view", "player")[0] == 2
    code, _, err = cli("crawler", "--view", "spy")
    assert code == 2 and "gm, party" in err
    assert "party" in cli("crawler", "--help")[1]


def test_the_web_page_switches_to_the_party_view_mid_session(tmp_path: Path) -> None:
    with web_client(tmp_path / "s.db") as client:
        made = client.post("/api/sessions", json={"system": "crawler", "seed": 4, "name": "Sous la Tour"}).json()
        for _ in range(6):
            state = client.get(f"/api/sessions/{made['id']}").json()
            client.post(f"/api/sessions/{made['id']}/step", json={"choice": state["choices"][0]["id"]})
        document = client.get(f"/api/sessions/{made['id']}/export/json").json()
        words = contents_words(document)
        gm = client.get(f"/play/{made['id']}").text
        player = client.get(f"/play/{made['id']}?view=party").text
        assert any(word in gm for word in words) and not any(word in player for word in words)
        assert 'data-choice' in player and "Party view" in player  # it plays on, the key out of sight
        assert '?view=party" aria-current="page"' in player and "export.svg?view=party" in player
        old_link = client.get(f"/play/{made['id']}?view=player").text  # its former name, in old links
        assert '?view=party" aria-current="page"' in old_link and not any(word in old_link for word in words)
        for name in ("party", "player"):
            download = client.get(f"/play/{made['id']}/export.svg?view={name}")
            assert download.headers["content-disposition"] == 'attachment; filename="sous-la-tour-party.svg"'
            api = client.get(f"/api/sessions/{made['id']}/export/svg", params={"view": name})
            assert api.headers["content-disposition"] == 'attachment; filename="sous-la-tour-party.svg"'
            assert api.content == download.content
        assert client.get(f"/play/{made['id']}/export.svg").headers["content-disposition"] == \
            'attachment; filename="sous-la-tour-4-gm.svg"'  # the name and the view, the seed when shown
        shown = client.get(f"/api/sessions/{made['id']}/export/json", params={"view": "party"}).json()
        assert shown["hidden"] and [r["id"] for r in shown["rooms"]] == [r["id"] for r in document["rooms"]]
        assert shown["view"] == "party"
        assert client.get(f"/api/sessions/{made['id']}/export/json", params={"view": "player"}).json() == shown
        assert client.get(f"/play/{made['id']}?view=spy").status_code == 400
        assert client.get(f"/api/sessions/{made['id']}/export/json", params={"view": "spy"}).status_code == 422

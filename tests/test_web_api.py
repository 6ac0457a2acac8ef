"""The JSON API: every endpoint, and every way a request can be refused (4xx with a message, never a 5xx)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dedale import systems
from dedale.i18n import t
from dedale.web import service
from webclient import web_client

SYSTEMS = systems.names()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with web_client(tmp_path / "web.db") as test_client:
        yield test_client


def new(client: TestClient, system: str, seed: int = 11, **body: Any) -> dict[str, Any]:
    params = dict(systems.system(system).example)  # the system's small game
    response = client.post("/api/sessions", json={"system": system, "seed": seed, "params": params, **body})
    assert response.status_code == 201, response.text
    made = response.json()
    token = made.pop("owner_token")  # given once, beside the state (the owner's: test_web_security.py)
    assert made.pop("owner_url") == f"/join/{made['id']}/{token}"
    return made


def play_to_end(client: TestClient, session_id: str, seed: int = 0) -> dict[str, Any]:
    """Choices picked at random (seeded), as a player clicking around would."""
    pick = random.Random(seed)
    state = client.get(f"/api/sessions/{session_id}").json()
    for _ in range(2000):
        if state["over"]:
            return state
        state = client.post(f"/api/sessions/{session_id}/step",
                            json={"choice": pick.choice(state["choices"])["id"]}).json()
    raise AssertionError("the session never ended")


def test_systems_lists_each_playable_system_with_its_fields(client: TestClient) -> None:
    systems = client.get("/api/systems").json()
    assert set(systems) == set(SYSTEMS)
    assert {f["name"] for f in systems["zombstone"]} == {"scenario", "side", "policy_lawmen", "policy_zombies",
                                                          "rounds", "unarmed_malus", "climb", "difficult", "aim_cost",
                                                          "turned_die", "card_limit", "winnings", "duel", "ai"
                                                          }  # the opponent: `seating`
    assert {"name": "radius", "kind": "int", "default": 12, "low": 0, "high": 40, "options": []} in systems["hexcrawl"]


# Each operation of the API: its method, its success status, whether it takes a JSON body, its path's parameters
OPERATIONS = {("/api/sessions", "get"): ("200", False, []), ("/api/sessions", "post"): ("201", True, []),
              ("/api/sessions/{session_id}/step", "post"): ("200", True, ["session_id"]),
              ("/api/sessions/{session_id}/autopilot", "post"): ("200", True, ["session_id"]),
              ("/api/sessions/{session_id}/undo", "post"): ("200", False, ["session_id"]),
              ("/api/sessions/{session_id}/export/{fmt}", "get"): ("200", False, ["session_id", "fmt"]),
              ("/api/upload", "post"): ("201", True, [])}


def test_the_openapi_schema_describes_the_api(client: TestClient) -> None:
    """Each operation as it is called: its body's schema (a component the schema defines, or any object for a
    document uploaded), its path parameters,
    what it answers and the errors it may give (a refusal of the origin or the Host is a 403 everywhere)."""
    described = client.get("/openapi.json").json()
    paths, components = described["paths"], described["components"]["schemas"]
    for (path, method), (status, body, in_path) in OPERATIONS.items():
        operation = paths[path][method]
        assert operation["summary"] and status in operation["responses"] and "403" in operation["responses"]
        assert [p["name"] for p in operation.get("parameters", []) if p["in"] == "path"] == in_path
        assert ("requestBody" in operation) == body
        if body:
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            assert schema.get("type") == "object" or schema["$ref"].removeprefix("#/components/schemas/") in components
            assert "413" in operation["responses"] and "422" in operation["responses"]  # too big, or malformed
    assert not any(path.startswith("/play") for path in paths)  # the pages are not the API


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_session_plays_to_its_end_through_the_api(client: TestClient, system: str) -> None:
    state = new(client, system)
    # the seed remakes every card: hidden while the AI's cards are (it is shown once the game is over)
    hides = system in ("zombstone", "zombstone-duel")
    assert state["seed"] == (None if hides else 11) and state["pending"] is None
    assert state["name"].startswith(t(f"web.system.{system}", "en") + " · ") and "11" not in state["name"]
    if system == "keylock":  # a diagram is made whole: nothing to choose
        assert state["over"] and state["choices"] == []
        return
    assert state["choices"] and all({"id", "label", "data"} <= set(c) for c in state["choices"])
    final = play_to_end(client, state["id"])
    assert final["over"] and final["choices"] == [] and final["steps"] > 0 and final["seed"] == 11


def test_same_seed_and_choices_give_the_same_document(client: TestClient) -> None:
    documents = []
    for _ in range(2):
        state = new(client, "crawler", seed=99)
        play_to_end(client, state["id"], seed=1)
        documents.append(client.get(f"/api/sessions/{state['id']}/export/json").json())
    assert documents[0] == documents[1]


def test_an_illegal_choice_is_refused_and_changes_nothing(client: TestClient) -> None:
    state = new(client, "crawler")
    response = client.post(f"/api/sessions/{state['id']}/step", json={"choice": "fly-away"})
    assert response.status_code == 400 and "fly-away" in response.json()["error"]
    assert client.get(f"/api/sessions/{state['id']}").json() == state


def test_autopilot_one_step_then_to_the_end(client: TestClient) -> None:
    state = new(client, "paper")
    one = client.post(f"/api/sessions/{state['id']}/autopilot", json={}).json()
    assert one["steps"] == 1 and not one["over"]
    end = client.post(f"/api/sessions/{state['id']}/autopilot", json={"to_end": True}).json()
    assert end["over"]
    again = client.post(f"/api/sessions/{state['id']}/autopilot", json={"to_end": True})
    assert again.status_code == 400 and again.json()["error"]


def test_the_autopilot_plays_what_a_created_autopilot_session_plays(client: TestClient) -> None:
    at_once = new(client, "hexcrawl", seed=4, autopilot=True)
    stepwise = new(client, "hexcrawl", seed=4)
    client.post(f"/api/sessions/{stepwise['id']}/autopilot", json={"to_end": True})
    assert at_once["over"]
    exported = [client.get(f"/api/sessions/{s['id']}/export/json").json() for s in (at_once, stepwise)]
    assert exported[0]["events"] == exported[1]["events"]


def test_undo_returns_to_the_state_before_the_choice(client: TestClient) -> None:
    state = new(client, "crawler")
    before = client.get(f"/api/sessions/{state['id']}/export/json").json()
    client.post(f"/api/sessions/{state['id']}/step", json={"choice": state["choices"][-1]["id"]})
    undone = client.post(f"/api/sessions/{state['id']}/undo").json()
    assert undone == state
    assert client.get(f"/api/sessions/{state['id']}/export/json").json() == before
    nothing = client.post(f"/api/sessions/{state['id']}/undo")
    assert nothing.status_code == 400 and nothing.json()["error"]


def test_table_mode_asks_for_each_die_and_applies_it(client: TestClient) -> None:
    state = new(client, "crawler", table_dice=True, params={})  # the default size: 3d6 rooms
    assert state["pending"] == {"kind": "die", "for": "crawler.size", "roll": "3d6",
                                "options": ["1", "2", "3", "4", "5", "6"]}
    for face in (6, 1, 2):
        state = client.post(f"/api/sessions/{state['id']}/step", json={"choice": f"enter:{face}"}).json()
    log = client.get(f"/api/sessions/{state['id']}/export/json").json()["log"]
    size = next(entry for entry in log if entry.get("for") == "crawler.size")
    assert size["dice"] == [6, 1, 2] and size["total"] == 9
    refused = client.post(f"/api/sessions/{state['id']}/step", json={"choice": "enter:9"})
    assert refused.status_code == 400
    waiting = client.post(f"/api/sessions/{state['id']}/autopilot", json={})  # it never rolls the player's dice
    assert waiting.status_code == 400 and waiting.json()["error"]


def test_list_get_rename_and_delete(client: TestClient) -> None:
    first, second = new(client, "crawler", seed=1), new(client, "paper", seed=2)
    listed = client.get("/api/sessions").json()
    assert [s["id"] for s in listed] == [second["id"], first["id"]]  # the latest change first
    assert {"id", "system", "name", "seed", "steps", "created", "updated"} <= set(listed[0])
    renamed = client.patch(f"/api/sessions/{first['id']}", json={"name": "Down below"})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Down below"
    assert client.patch(f"/api/sessions/{first['id']}", json={"name": ""}).status_code == 422
    assert client.delete(f"/api/sessions/{second['id']}").status_code == 204
    for method, path, body in (("GET", "", None), ("DELETE", "", None), ("PATCH", "", {"name": "x"}),
                               ("POST", "/step", {"choice": "x"}), ("POST", "/undo", None),
                               ("POST", "/autopilot", {}), ("GET", "/export/json", None)):
        response = client.request(method, f"/api/sessions/{second['id']}{path}", json=body)
        assert response.status_code == 404 and second["id"] in response.json()["error"], (method, path)
    assert [s["id"] for s in client.get("/api/sessions").json()] == [first["id"]]


@pytest.mark.parametrize("system", SYSTEMS)
def test_exports(client: TestClient, system: str) -> None:
    state = new(client, system, autopilot=True)
    base = f"/api/sessions/{state['id']}/export"
    document = client.get(f"{base}/json").json()
    assert document["format"] == f"dedale/{system}" and document["seed"] == 11
    assert client.get(f"/api/sessions/{state['id']}").json()["over"]
    svg = client.get(f"{base}/svg")
    assert svg.headers["content-type"].startswith("image/svg+xml") and b"<svg" in svg.content[:300]
    assert client.get(f"{base}/png").content[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get(f"{base}/pdf").content[:5] == b"%PDF-"
    assert client.get(f"{base}/txt").text.strip()
    assert "attachment" in svg.headers["content-disposition"]
    dot = client.get(f"{base}/dot")
    if system == "keylock":
        assert dot.text.startswith("digraph")
    else:
        assert dot.status_code == 400 and "json" in dot.json()["error"]
    assert client.get(f"{base}/exe").status_code == 422
    scene = client.get(f"{base}/foundry.json")
    if system in ("crawler", "paper", "hexcrawl"):
        assert scene.headers["content-type"].startswith("application/json")
        assert scene.json()["background"]["src"].startswith("data:image/png;base64,")
        name = service.safe_file_name(state["name"])
        assert f'filename="{name}-{state["seed"]}-gm.foundry.json"' in scene.headers["content-disposition"]
    else:
        assert scene.status_code == 400
    for fmt in ("dd2vtt", "uvtt"):
        tabletop = client.get(f"{base}/{fmt}")
        if system in ("crawler", "paper"):
            assert tabletop.headers["content-type"].startswith("application/json")
            assert tabletop.json()["format"] == 0.3
        else:
            assert tabletop.status_code == 400


def test_upload_continues_a_document_as_a_new_session(client: TestClient) -> None:
    state = new(client, "crawler")
    for choice in range(3):
        state = client.post(f"/api/sessions/{state['id']}/step",
                            json={"choice": state["choices"][choice % len(state["choices"])]["id"]}).json()
    document = client.get(f"/api/sessions/{state['id']}/export/json").json()
    uploaded = client.post("/api/upload", json=document)
    assert uploaded.status_code == 201
    copy = uploaded.json()
    assert copy["id"] != state["id"] and {k: v for k, v in copy.items()
                                          if k not in ("id", "name", "owner_token", "owner_url")} == {
        k: v for k, v in state.items() if k not in ("id", "name")}
    play_to_end(client, copy["id"])


@pytest.mark.parametrize("document, problem", [
    ({"format": "dedale/nothing", "version": 1}, "dedale/nothing"),
    ({"seed": 3}, "format"),
    ({"format": "dedale/crawler", "version": 99}, "99"),
])
def test_upload_refuses_what_is_not_a_session(client: TestClient, document: dict[str, Any], problem: str) -> None:
    response = client.post("/api/upload", json=document)
    assert response.status_code == 400 and problem in response.json()["error"]


def test_upload_refuses_a_tampered_log_or_parameters_beyond_the_web_limits(client: TestClient) -> None:
    state = new(client, "crawler", autopilot=True)
    document = client.get(f"/api/sessions/{state['id']}/export/json").json()
    document["events"][0] = {"choice": "no-such-choice"}
    assert client.post("/api/upload", json=document).status_code == 400
    from dedale.core.session import Session
    from dedale.systems import system

    hexcrawl = system("hexcrawl").rules
    big = Session(hexcrawl, hexcrawl.params_from_json({"radius": 41}), 1).to_json()
    response = client.post("/api/upload", json=big)
    assert response.status_code == 400 and "radius" in response.json()["error"]
    big["events"] = [{"choice": "not-replayed"}]  # the limits are checked before any replay
    assert "radius" in client.post("/api/upload", json=big).json()["error"]
    too_big = client.post("/api/upload", content=b" " * (8 * 1024 * 1024 + 1) + b"{}",
                          headers={"content-type": "application/json"})
    assert too_big.status_code == 413 and "8192" in too_big.json()["error"]


@pytest.mark.parametrize("body, status, problem", [
    ({"system": "chess"}, 422, "system"),
    ({"system": "crawler", "seed": -1}, 422, "seed"),
    ({"system": "crawler", "seed": 2**64}, 422, "seed"),
    ({"system": "crawler", "lang": "de"}, 422, "lang"),
    ({"system": "crawler", "params": {"board": 11}}, 400, "board"),
    ({"system": "crawler", "params": {"size": "99d99"}}, 400, "size"),
    ({"system": "paper", "params": {"width": "wide"}}, 422, "width"),  # text where JSON has a number
    ({"system": "hexcrawl", "params": {"radius": 41}}, 400, "radius"),
    ({"system": "hexcrawl", "params": {"order": "zigzag"}}, 400, "spiral"),
    ({"system": "keylock", "params": {"unique": 200, "multi": 50, "multi_max_keys": 20, "permanent": 50,
                                      "permanent_max_locks": 10}}, 400, "2000"),
])
def test_bad_parameters_are_refused_with_a_message(client: TestClient, body: dict[str, Any], status: int,
                                                    problem: str) -> None:
    response = client.post("/api/sessions", json=body)
    assert response.status_code == status and problem in response.text


def test_errors_come_in_the_chosen_language(client: TestClient) -> None:
    client.cookies.set("lang", "fr")
    response = client.post("/api/sessions", json={"system": "hexcrawl", "params": {"radius": 99}})
    assert response.status_code == 400 and "radius" in response.json()["error"] and " de " in response.json()["error"]


def test_zombstone_odds_are_exact(client: TestClient) -> None:
    odds = client.get("/api/zombstone/odds", params={"potential": 2}).json()
    assert odds["format"] == "dedale/zombstone-odds"
    assert sum(Fraction(cell["exact"]) for cell in odds["hands"].values()) == 1
    assert Fraction(odds["hands"]["five"]["exact"]) == Fraction(193, 23328)
    target = client.get("/api/zombstone/odds", params={"potential": 0, "objective": "target", "target": "full",
                                                       "card": "A"}).json()
    assert target["target"] == "full" and target["at_least_target"] is not None


def test_zombstone_duel_odds_sum_to_one(client: TestClient) -> None:
    duel = client.get("/api/zombstone/duel-odds", params={"attacker": 1, "defender": 0, "melee": True,
                                                          "attacker_weapon": "sabre", "cover": "light"}).json()
    assert duel["attacker_weapon"] == "sabre" and duel["defender_weapon"] == "improvised"
    assert sum(Fraction(duel[k]["exact"]) for k in ("win", "tie", "loss")) == 1


@pytest.mark.parametrize("path, params, status", [
    ("/api/zombstone/odds", {"potential": 6}, 422),
    ("/api/zombstone/odds", {"potential": 1, "objective": "win"}, 422),
    ("/api/zombstone/odds", {"potential": 1, "card": "2"}, 422),
    ("/api/zombstone/duel-odds", {"attacker": 1}, 422),
    ("/api/zombstone/duel-odds", {"attacker": 1, "defender": 0, "attacker_weapon": "bazooka"}, 400),
    ("/api/zombstone/duel-odds", {"attacker": 1, "defender": 0, "attacker_weapon": "sabre"}, 400),  # not a shot
])
def test_zombstone_refusals(client: TestClient, path: str, params: dict[str, Any], status: int) -> None:
    response = client.get(path, params=params)
    assert response.status_code == status
    assert json.loads(response.text)


def test_a_new_app_on_the_same_file_resumes_every_session(tmp_path: Path) -> None:
    with web_client(tmp_path / "web.db") as first:
        state = new(first, "crawler")
        state = first.post(f"/api/sessions/{state['id']}/step", json={"choice": state["choices"][0]["id"]}).json()
    with web_client(tmp_path / "web.db") as second:
        assert second.get(f"/api/sessions/{state['id']}").json() == state

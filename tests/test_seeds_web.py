"""One seed that both remakes a game and keeps its secrets (issue 39): what the web shows remakes what it made.

A web Generate of each map draws a long seed (130 bits, `core.seeds`), shows it to its owner, who may see
everything, written for reading; given to `dedale SYSTEM --seed ... --json`, that text makes the same document,
names and dates aside. A duel or a skirmish shows its seed once it is over, and that seed with the game's events
remakes it. A seed typed on the form is the game's seed, as on the command line."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dedale.core.seeds import check_seed, is_long
from dedale.core.session import Session
from dedale.systems import system

MAPS = ["crawler", "paper", "hexcrawl", "keylock"]
WRITTEN = re.compile(r'<code class="seed">([^<]+)</code>')


def generated(client: TestClient, name: str, **values: str) -> tuple[str, str]:
    """The home page's Generate (or a form's values): the new session's id and the seed its page shows."""
    made = client.post(f"/new/{name}", data={"autopilot": "1", **values})
    assert made.status_code == 303, made.text[:300]
    session_id = made.headers["location"].rsplit("/", 1)[1]
    found = WRITTEN.search(client.get(f"/play/{session_id}").text)
    assert found, "the page shows no seed"
    return session_id, found.group(1)


def same(document: dict[str, Any]) -> dict[str, Any]:
    """A document without what a name or a day changes (none of the maps' documents has either)."""
    return json.loads(json.dumps(document))


@pytest.mark.parametrize("name", MAPS)
def test_a_generated_maps_seed_remakes_it_on_the_command_line(client: TestClient, cli: Any, name: str) -> None:
    session_id, shown = generated(client, name)
    assert is_long(check_seed(shown)) and re.fullmatch(r"[0-9A-Z]{5}(-[0-9A-Z]{5}){3}-[0-9A-Z]{6}", shown)
    web = client.get(f"/play/{session_id}/export.json").json()
    code, out, err = cli(name, "--seed", shown, "--json")
    assert code == 0, err
    assert same(json.loads(out)) == same(web) and web["seed"] == shown
    code, out, _ = cli(name, "--seed", shown.lower().replace("-", " "), "--json")  # as a person might type it
    assert code == 0 and json.loads(out) == json.loads(json.dumps(web))


def test_a_typed_seed_is_the_games_seed_as_on_the_command_line(client: TestClient, cli: Any) -> None:
    session_id, shown = generated(client, "crawler", seed="4")
    assert shown == "4"
    code, out, _ = cli("crawler", "--seed", "4", "--json")
    assert code == 0 and json.loads(out) == client.get(f"/play/{session_id}/export.json").json()


@pytest.mark.parametrize("name", ["zombstone-duel", "zombstone"])
def test_a_finished_game_replays_from_the_seed_shown_at_its_end(client: TestClient, name: str) -> None:
    """Played out by the autopilot on the player's side, against the AI: while it hid the AI's cards its page
    showed no seed; over, it shows the seed, which with its events remakes it."""
    made = client.post(f"/new/{name}", data={})
    session_id = made.headers["location"].rsplit("/", 1)[1]
    assert WRITTEN.search(client.get(f"/play/{session_id}").text) is None and "seed hidden" in client.get(
        f"/play/{session_id}").text
    client.post(f"/play/{session_id}/auto", data={"to": "end"})
    found = WRITTEN.search(client.get(f"/play/{session_id}").text)
    assert found, "the finished game's page shows no seed"
    document = client.get(f"/play/{session_id}/export.json").json()
    assert document["over"] and document["seed"] == found.group(1)
    rules = system(name).rules
    remade = Session.replay(rules, rules.params_from_json(document["params"]), check_seed(found.group(1)),
                            document["events"])
    assert json.loads(json.dumps(remade.to_json())) == document

"""The odds calculator's inputs are declared once, in zombstone/hands.py (a Potential from -4 to 5, the hands a
roll may aim at, the cards' faces): the library, the command line, the web's page and its API accept exactly
those, and refuse a Potential beyond them by its name."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from dedale import zombstone
from dedale.core.errors import DedaleError
from dedale.zombstone.hands import FACES, HANDS, POTENTIALS

LOW, HIGH = POTENTIALS[0], POTENTIALS[-1]


def test_the_declaration_is_the_rules() -> None:
    assert (LOW, HIGH) == (-4, 5) and list(POTENTIALS) == list(range(-4, 6))


@pytest.mark.parametrize("potential", [LOW - 1, HIGH + 1])
def test_every_face_refuses_a_potential_beyond_the_declared(cli, client: TestClient, potential: int) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(DedaleError, match="potential"):
        zombstone.odds(potential)
    code, _, err = cli("zombstone", "odds", "--potential", str(potential))
    assert code == 2 and "potential" in err
    assert client.get("/api/zombstone/odds", params={"potential": potential}).status_code == 422
    assert client.get("/api/zombstone/duel-odds", params={"attacker": potential, "defender": 0}).status_code == 422
    assert client.get("/zombstone", params={"potential": potential}).status_code == 400


def test_every_face_takes_the_declared_ends(cli, client: TestClient) -> None:  # type: ignore[no-untyped-def]
    for potential in (LOW, HIGH):
        assert zombstone.odds(potential).potential == potential
        assert cli("zombstone", "odds", "--potential", str(potential))[0] == 0
        assert client.get("/api/zombstone/odds", params={"potential": potential}).status_code == 200
    page = client.get("/zombstone").text
    assert re.findall(r'name="(potential|attacker|defender)" min="(-?\d+)" max="(-?\d+)"', page) == [
        (name, str(LOW), str(HIGH)) for name in ("potential", "attacker", "defender")]


def test_the_api_takes_the_declared_hands_and_faces_and_no_other(client: TestClient) -> None:
    for hand in HANDS[1:]:
        answer = client.get("/api/zombstone/odds", params={"potential": 1, "objective": "target", "target": hand})
        assert answer.status_code == 200 and answer.json()["target"] == hand
    for face in FACES:
        assert client.get("/api/zombstone/odds", params={"potential": 1, "card": face}).status_code == 200
    for wrong in ({"target": HANDS[0]}, {"target": "straight"}, {"card": "8"}, {"target": "pairs"}):
        assert client.get("/api/zombstone/odds", params={"potential": 1, **wrong}).status_code == 422, wrong

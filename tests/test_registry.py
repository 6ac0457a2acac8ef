"""A system describes itself once, in the registry, and every face follows: a toy system added to the
registry alone is generated and played by the library, has its CLI commands and options, its web form, its
API and its JSON Schema, with no face changed."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, ClassVar

import pytest

import dedale
import schemas
from dedale import systems
from dedale.core.documents import DocumentKind, Meta, Shape
from dedale.core.params import Declared, param
from dedale.core.rules import Choice, Rules, State
from dedale.i18n import LANGUAGES, catalogue, t, word
from webclient import web_client


@dataclass(frozen=True)
class CoinParams(Declared):
    system: ClassVar[str] = "coin"

    flips: int = param(3, low=1, high=20, web_high=10, en="How many flips.", fr="Combien de lancers.")
    coin: str = param("fair", choices=("fair", "loaded"), en="Which coin.", fr="Quelle pièce.")


@dataclass
class CoinState(State):
    faces: list[int] = field(default_factory=list)


class FirstChoice:
    name = "default"

    def choose(self, session: Any) -> str:
        return "flip"


class CoinRules(Rules[CoinParams, CoinState]):
    system = "coin"
    policies: ClassVar[dict[str, Any]] = {"default": lambda _: FirstChoice()}

    def new_state(self) -> CoinState:
        return CoinState()

    def start(self) -> None:
        pass

    def rule_choices(self) -> list[Choice]:
        return [Choice("flip", word("coin.flip"))]

    def apply(self, choice: Choice) -> None:
        self.state.faces.append(self.roller.roll("1d2", "coin.flip").total)

    @property
    def over(self) -> bool:
        return len(self.state.faces) >= self.params.flips

    def result_json(self) -> dict[str, Any]:
        return {"faces": self.state.faces}

    @classmethod
    def params_from_json(cls, data: Any) -> CoinParams:
        return CoinParams.from_json(data)


class CoinResult(Shape):
    faces: list[Annotated[int, Meta(ge=1, le=2)]]


def coin_system() -> systems.System:
    def svg(faces: list[int]) -> str:
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>{faces}</text></svg>'

    return systems.System(
        "coin", CoinParams, CoinRules, lambda document: document["faces"],
        {".svg": lambda faces, _, lang: svg(faces).encode(), ".txt": lambda faces, _, lang: str(faces).encode()},
        lambda faces, lang: str(faces), lambda session, _, lang: svg(session.state.faces),
        lambda session, lang: str(session.state.faces),
        document=DocumentKind(CoinResult, title="Coin flips", description="The faces flipped.", versions={1: "first"}))


@pytest.fixture
def coin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(systems._FACTORIES, "coin", coin_system)


def test_the_library_generates_and_plays_it(coin: None) -> None:
    result = dedale.generate("coin", seed=3, flips=4)
    assert len(result.to_json()["faces"]) == 4 and result.svg().startswith("<svg")
    session = dedale.play("coin", seed=3, flips=2)
    session.step("flip")
    assert not session.is_over
    with pytest.raises(dedale.DedaleError, match="flips"):
        dedale.play("coin", flips=21)


def test_the_cli_has_its_commands_and_options(coin: None, cli: Any, tmp_path: Path) -> None:
    code, out, _ = cli("--help")
    assert code == 0 and "coin" in out
    code, out, _ = cli("coin", "--help")
    assert code == 0 and "--flips" in out and "How many flips." in out
    code, out, _ = cli("coin", "--seed", "2", "--flips", "5", "--json")
    assert code == 0 and len(json.loads(out)["faces"]) == 5
    assert cli("coin", "--flips", "50")[0] == 2
    assert cli("coin", "--seed", "2", "-o", str(tmp_path / "c.svg"))[0] == 0
    assert cli("coin", "--seed", "2", "-o", str(tmp_path / "c.pdf"))[0] == 2  # a format it has not


def test_the_web_has_its_form_and_api(coin: None, tmp_path: Path) -> None:
    with web_client(tmp_path / "s.db") as client:
        form = client.get("/new/coin").text
        assert 'name="flips"' in form and "How many flips." in form and 'max="10"' in form
        made = client.post("/api/sessions", json={"system": "coin", "params": {"flips": 2}, "autopilot": True})
        assert made.status_code == 201 and made.json()["over"]
        assert client.post("/api/sessions", json={"system": "coin", "params": {"flips": 15}}).status_code == 400
        assert client.post("/api/sessions", json={"system": "coin", "params": {"flip": 2}}).status_code == 422


def test_its_schema_is_generated_from_its_declarations(coin: None) -> None:
    schema = dedale.schema("coin")["properties"]["params"]
    assert schema["properties"]["coin"]["enum"] == ["fair", "loaded"]
    assert schema["properties"]["flips"]["maximum"] == 20
    schemas.validate(CoinParams().to_json(), schema)
    with pytest.raises(schemas.ValidationError):
        schemas.validate({**CoinParams().to_json(), "flips": 0}, schema)


@pytest.mark.parametrize("name", systems.names())
def test_every_system_brings_its_words_and_its_rules_page(name: str) -> None:
    """What a system brings besides its rules, named when it lacks it: its title and summary in every
    language (the home page, `dedale --help`) and its rules page."""
    found = systems.system(name)
    keys = [f"web.system.{name}", f"web.about.{name}", *([f"cli.about.{name}"] * (found.cli_path == (name,)))]
    for lang in LANGUAGES:
        missing = [key for key in keys if key not in catalogue(lang)]
        assert not missing, f"{name} has no {missing} in {lang}"
    assert found.rules_page, f"{name} names no rules page"


def test_a_systems_own_words_never_replace_the_catalogues(monkeypatch: pytest.MonkeyPatch) -> None:
    worded = replace(coin_system(), words={"en": {"coin": {"flip": "Flip"}, "web": {"system": {"crawler": "Mine"}}}})
    monkeypatch.setitem(systems._FACTORIES, "coin", lambda: worded)
    copies = {lang: dict(catalogue(lang)) for lang in LANGUAGES}  # the process's catalogues stay as they are
    monkeypatch.setattr("dedale.i18n.catalogue", copies.__getitem__)
    systems.system("coin")
    assert t("coin.flip") == "Flip" and t("web.system.crawler") == "Crawler dungeon"

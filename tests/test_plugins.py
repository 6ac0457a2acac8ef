"""A system from outside: a package that declares a `System` in the entry-point group `dedale.systems` is
played by the CLI, the library and the web app, and kept to the contract every system keeps, with no line of
Dédale edited. The package here, a coin-flip dungeon, is written into a folder with the metadata `pip
install` would give it (a `*.dist-info` with its `entry_points.txt`), and that folder is put on the path of
fresh processes: the test's own process and its registry stay as they were."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The whole third-party package: its parameters, its rules, its pictures and its words.
COINFLIP = '''
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from dedale.core.documents import DocumentKind, Shape, dump
from dedale.core.params import Declared, param
from dedale.core.rules import Choice, Rules, State
from dedale.i18n import t, word
from dedale.systems import System


@dataclass(frozen=True)
class Params(Declared):
    system: ClassVar[str] = "coinflip"
    rooms: int = param(3, low=1, high=9, en="How many rooms.", fr="Combien de salles.")


@dataclass
class Rooms(State):
    rooms: list[str] = field(default_factory=list)


class Flipped(Shape):
    rooms: list[Literal["treasure", "monster"]]


class Onwards:
    name = "default"

    def choose(self, session: Any) -> str:
        return "enter"


class Coinflip(Rules[Params, Rooms]):
    system = "coinflip"
    policies: ClassVar[dict[str, Any]] = {"default": lambda _: Onwards()}

    def new_state(self) -> Rooms:
        return Rooms()

    def start(self) -> None:
        pass

    def rule_choices(self) -> list[Choice]:
        return [Choice("enter", word("coinflip.enter"))]

    def apply(self, choice: Choice) -> None:
        heads = self.roller.roll("1d2", "coinflip.flip").total == 1
        self.state.rooms.append("treasure" if heads else "monster")

    @property
    def over(self) -> bool:
        return len(self.state.rooms) >= self.params.rooms

    def result_json(self) -> dict[str, Any]:
        return dump(Flipped(self.state.rooms))

    @classmethod
    def params_from_json(cls, data: Any) -> Params:
        return Params.from_json(data)


def text(rooms: list[str], lang: str) -> str:
    return " ".join(t(f"coinflip.{room}", lang) for room in rooms)


def svg(rooms: list[str], lang: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="20"><text>{text(rooms, lang)}</text></svg>'


WORDS = {
    "en": {"cli.about.coinflip": "A dungeon of coin flips.", "web.system.coinflip": "Coin-flip dungeon",
           "web.about.coinflip": "A dungeon of coin flips.", "coinflip.enter": "Enter the next room",
           "coinflip.flip": "A coin is flipped", "coinflip.treasure": "treasure", "coinflip.monster": "monster"},
    "fr": {"cli.about.coinflip": "Un donjon à pile ou face.", "web.system.coinflip": "Donjon à pile ou face",
           "web.about.coinflip": "Un donjon à pile ou face.", "coinflip.enter": "Entrer dans la salle suivante",
           "coinflip.flip": "Une pièce est lancée", "coinflip.treasure": "trésor", "coinflip.monster": "monstre"},
}
SYSTEM = System(
    "coinflip", Params, Coinflip, lambda document: document["rooms"],
    {".svg": lambda rooms, _, lang: svg(rooms, lang).encode(),
     ".txt": lambda rooms, _, lang: text(rooms, lang).encode()},
    text, lambda session, _, lang, model=None: svg(session.state.rooms, lang),
    lambda session, lang: text(session.state.rooms, lang),
    example={"rooms": 4}, rules_page="https://example.org/coinflip", words=WORDS,
    document=DocumentKind(Flipped, title="A coin-flip dungeon", description="Its rooms, one coin flip each.",
                          versions={1: "the first"}))
'''
# What `pip install` of a distribution declaring `[project.entry-points."dedale.systems"] coinflip =
# "coinflip:SYSTEM"` writes beside the package.
METADATA = "Metadata-Version: 2.1\nName: dedale-coinflip\nVersion: 1.0\n"
ENTRY_POINTS = "[dedale.systems]\ncoinflip = coinflip:SYSTEM\n"


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a process that has the coin-flip package installed (and this checkout's Dédale)."""
    site = tmp_path_factory.mktemp("site")
    (site / "coinflip").mkdir()
    (site / "coinflip" / "__init__.py").write_text(COINFLIP, encoding="utf-8")
    info = site / "dedale_coinflip-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(METADATA, encoding="utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    path = [str(site), str(ROOT / "src"), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, path))}


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)


def dedale(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """The `dedale` command (what its script runs) in a process that has the package."""
    return run(env, "-c", "import sys; from dedale.cli import main; sys.exit(main())", *args)


def test_the_cli_lists_generates_and_draws_it(env: dict[str, str], tmp_path: Path) -> None:
    listed = dedale(env, "--help")
    assert listed.returncode == 0 and "coinflip" in listed.stdout and "A dungeon of coin flips." in listed.stdout
    options = dedale(env, "coinflip", "--help")
    assert options.returncode == 0 and "--rooms" in options.stdout and "How many rooms." in options.stdout
    made = dedale(env, "coinflip", "--seed", "3", "--rooms", "5", "--json")
    assert made.returncode == 0, made.stderr
    document = json.loads(made.stdout)
    assert document["format"] == "dedale/coinflip" and len(document["rooms"]) == 5
    assert dedale(env, "coinflip", "--seed", "3", "--rooms", "5", "--lang", "fr").stdout.split()[0] in {
        "trésor", "monstre"}
    assert dedale(env, "coinflip", "--seed", "3", "-o", str(tmp_path / "c.svg")).returncode == 0
    assert (tmp_path / "c.svg").read_text(encoding="utf-8").startswith("<svg")
    assert dedale(env, "coinflip", "--seed", "3", "-o", str(tmp_path / "c.json")).returncode == 0
    assert dedale(env, "render", str(tmp_path / "c.json")).stdout == dedale(env, "coinflip", "--seed", "3").stdout
    refused = dedale(env, "coinflip", "--rooms", "10")
    assert refused.returncode == 2 and refused.stderr.startswith("dedale: rooms: 10") and "1 to 9" in refused.stderr
    assert dedale(env, "coinflip", "-o", str(tmp_path / "c.pdf")).returncode == 2  # a format it has not
    schema = dedale(env, "schema", "coinflip")
    assert json.loads(schema.stdout)["properties"]["params"]["properties"]["rooms"]["maximum"] == 9


LIBRARY_AND_WEB = '''
import dedale
from webclient import started, web_client

assert "coinflip" in dedale.system_names()
result = dedale.generate("coinflip", seed=3, rooms=3)
assert len(result.to_json()["rooms"]) == 3 and result.svg().startswith("<svg")
session = dedale.play("coinflip", seed=3, rooms=2)
session.step("enter")
assert not session.is_over
session.step("enter")
assert session.is_over and dedale.load(session.to_json()).to_json() == session.to_json()

with web_client(Path(sys.argv[1])) as client:
    home = client.get("/").text
    assert "Coin-flip dungeon" in home and "A dungeon of coin flips." in home
    assert 'name="rooms"' in client.get("/new/coinflip").text
    made = client.post("/api/sessions", json={"system": "coinflip", "seed": 5, "params": {"rooms": 2}})
    assert made.status_code == 201, made.text
    state = made.json()
    assert [choice["id"] for choice in state["choices"]] == ["enter"]
    while not state["over"]:
        state = client.post(f"/api/sessions/{state['id']}/step", json={"choice": "enter"}).json()
    assert state["steps"] == 2
    svg = client.get(f"/api/sessions/{state['id']}/export/svg")
    assert svg.status_code == 200 and svg.text.startswith("<svg"), svg.text
    document = client.get(f"/api/sessions/{state['id']}/export/json").json()
    assert document["format"] == "dedale/coinflip" and len(document["rooms"]) == 2
    assert client.post("/api/sessions", json={"system": "coinflip", "params": {"rooms": 10}}).status_code == 400

with web_client(Path(sys.argv[1]), follow_redirects=False) as browser:  # the pages: form, play page, download
    session_id = started(browser, "coinflip", seed="4", rooms="1", name="Heads or tails")
    page = browser.get(f"/play/{session_id}").text
    assert "Coin-flip dungeon" in page and "Enter the next room" in page
    assert browser.post(f"/play/{session_id}/step", data={"choice": "enter"}).status_code == 303
    text = browser.get(f"/play/{session_id}/export.txt")
    assert text.text in ("treasure", "monster") and "heads-or-tails-4-gm.txt" in text.headers["content-disposition"]
print("played")
'''


def test_the_library_and_the_web_play_it(env: dict[str, str], tmp_path: Path) -> None:
    played = run(env, "-c", "import sys\nfrom pathlib import Path\n" + LIBRARY_AND_WEB, str(tmp_path / "web.db"))
    assert played.returncode == 0 and played.stdout.strip() == "played", played.stderr


def test_it_keeps_the_contract_every_system_keeps(env: dict[str, str]) -> None:
    """As its author checks it, from their own code where the package is installed (`dedale.testing`), and as
    Dédale's tests do (tests/test_contract.py finds it in the registry): every check, on its own small example."""
    checked = run(env, "-c", "from dedale.testing import check_system\nprint(', '.join(check_system('coinflip')))")
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == "same game, undo, load, schema, table, words, party, formats, parameters"
    contract = run(env, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider", "-k", "coinflip",
                   str(ROOT / "tests" / "test_contract.py"))
    assert contract.returncode == 0, contract.stdout + contract.stderr
    summary = contract.stdout.strip().splitlines()[-1]
    assert re.match(r"9 passed, \d+ deselected in ", summary), summary  # every check, none skipped or failed


def test_a_broken_package_is_left_out_and_dedales_names_stay_its_own(env: dict[str, str], tmp_path: Path) -> None:
    """One package that cannot be loaded, or that takes a name Dédale has, does not take the others down."""
    info = tmp_path / "dedale_broken-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(METADATA.replace("coinflip", "broken"), encoding="utf-8")
    (info / "entry_points.txt").write_text("[dedale.systems]\nbroken = nowhere:SYSTEM\ncrawler = coinflip:SYSTEM\n",
                                           encoding="utf-8")
    env = {**env, "PYTHONPATH": os.pathsep.join([str(tmp_path), env["PYTHONPATH"]])}
    listed = dedale(env, "--help")
    assert listed.returncode == 0 and "coinflip" in listed.stdout and "broken" not in listed.stdout
    assert "the system 'broken' (nowhere:SYSTEM) was left out: No module named 'nowhere'" in listed.stderr
    crawled = dedale(env, "crawler", "--seed", "4", "--json")
    assert crawled.returncode == 0 and json.loads(crawled.stdout)["format"] == "dedale/crawler"
    known = run(env, "-W", "ignore", "-c", "import dedale; print(*dedale.system_names())").stdout.split()
    assert known.count("crawler") == 1 and "coinflip" in known and "broken" not in known

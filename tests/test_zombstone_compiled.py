"""The skirmish modules mypyc compiles (`setup.py`): built wherever a C compiler is at hand, never older than
their source, and playing the very games their Python plays, AI games and person-played sessions alike."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from dedale.zombstone.skirmish.catalogue import load_catalogue

COMPILED = [f"dedale.zombstone.skirmish.{name}" for name in ("battlefield", "table", "fight", "turn", "ai")]

# In a fresh process (as Python with DEDALE_PURE_PYTHON=1, `core/compiled.py`): the games played, their digest.
PLAY = """
import hashlib, json, sys
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.session import SkirmishSession
from dedale.zombstone.skirmish.simulate import game_seed, play_game
import dedale.zombstone.skirmish.turn as turn
digest = hashlib.sha256()
for scenario in sys.argv[1].split(","):
    for number in range(int(sys.argv[2])):  # AI against AI, as a batch plays them
        digest.update(repr(play_game(SkirmishParams(scenario=scenario, side=None), game_seed(11, number))).encode())
    for seed in range(int(sys.argv[3])):  # both sides as people play them (the autopilot choosing): every option
        session = SkirmishSession(SkirmishParams(scenario=scenario, side="lawmen", opponent="human"), seed)
        while not session.is_over:
            session.auto_step()
        digest.update(json.dumps(session.to_json(), sort_keys=True, default=str).encode())
from dedale import keylock
print(json.dumps({"digest": digest.hexdigest(), "turn": turn.__file__, "grow": keylock.extension("_grow") is not None}))
"""


def compiler_at_hand() -> bool:
    command = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    return bool(command) and shutil.which(command[0]) is not None


def compiled() -> list[str]:
    return [name for name in COMPILED if not importlib.import_module(name).__file__.endswith(".py")]


def played(as_python: bool, scenarios: list[str], games: int, sessions: int) -> dict[str, str]:
    environment = {**os.environ, "DEDALE_PURE_PYTHON": "1" if as_python else "0"}
    run = subprocess.run([sys.executable, "-c", PLAY, ",".join(scenarios), str(games), str(sessions)], check=True,
                         capture_output=True, text=True, timeout=600, env=environment)
    return json.loads(run.stdout)


def test_compiled_wherever_a_compiler_is_at_hand() -> None:
    if compiler_at_hand() and os.environ.get("DEDALE_PURE_PYTHON") != "1":
        missing = sorted(set(COMPILED) - set(compiled()))
        if missing:
            pytest.fail(f"a C compiler is at hand but {', '.join(missing)} were not compiled: reinstall (`make`, or "
                        "`pip install -e .`), and see what setup.py printed")
    else:
        pytest.skip("no C compiler (or DEDALE_PURE_PYTHON=1): the skirmish runs as Python only")


def test_no_compiled_module_is_older_than_its_source() -> None:
    """A compiled module is imported in place of its `.py`: one built before the `.py` last changed runs old code."""
    if not compiled():
        pytest.skip("nothing compiled")
    for name in compiled():
        module = Path(importlib.import_module(name).__file__)
        source = module.parent / (name.rpartition(".")[2] + ".py")
        assert module.stat().st_mtime >= source.stat().st_mtime, (
            f"{module.name} is older than {source.name}: rebuild it (`make`, or `pip install -e .`)")


def test_compiled_and_python_play_the_same_games() -> None:
    """Every scenario shipped: AI games and sessions played as people, byte for byte. Mutating a compiled module's
    source and rebuilding makes this fail; the `turn` paths show that the two runs ran different code."""
    if not compiled():
        pytest.skip("nothing compiled: the Python is the only code there is")
    scenarios = sorted(load_catalogue().scenarios)
    native, python = played(False, scenarios, 12, 2), played(True, scenarios, 12, 2)
    assert native["turn"].endswith(".so") or native["turn"].endswith(".pyd")
    assert python["turn"].endswith(".py") and not python["grow"]  # nothing compiled runs with the switch on
    assert native["digest"] == python["digest"]


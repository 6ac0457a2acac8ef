"""The library's API as a user sees it: `import dedale` is small and documented, its names stay what they are
whatever else is imported, results draw and save themselves, and a saved file continues."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import dedale
from dedale import zombstone


def public_api() -> list[object]:
    names = [getattr(dedale, name) for name in dedale.__all__ if name != "__version__"]
    methods = [member for _, member in inspect.getmembers(dedale.Result, inspect.isfunction)
               if not member.__name__.startswith("_")]
    return [*names, *methods, *(getattr(zombstone, name) for name in zombstone.__all__)]


@pytest.mark.parametrize("item", public_api(), ids=lambda item: getattr(item, "__qualname__", str(item)))
def test_every_public_name_is_documented(item: object) -> None:
    doc = inspect.getdoc(item) or ""
    assert len(doc) > 20, f"{item} needs a docstring"


def test_the_api_names_and_the_classes_carry_runnable_examples() -> None:
    for item in (dedale.generate, dedale.generate_many, dedale.play, dedale.load, dedale.schema, dedale.system_names,
                 dedale.Result, dedale.Session, dedale.Choice, dedale.DedaleError, zombstone.odds,
                 zombstone.confrontation):
        assert ">>>" in (inspect.getdoc(item) or ""), item


def test_importing_every_module_leaves_the_api_as_it_is() -> None:
    """A submodule named like an API function would replace it once imported (`dedale.systems`)."""
    for module in pkgutil.walk_packages(dedale.__path__, "dedale."):
        if not module.name.startswith(("dedale.web", "dedale.cli")):
            importlib.import_module(module.name)
    for name in dedale.__all__:
        assert not inspect.ismodule(getattr(dedale, name)), name
    assert callable(zombstone.odds) and callable(zombstone.confrontation)


def test_import_dedale_loads_no_system() -> None:
    loaded = subprocess.run([sys.executable, "-c", "import dedale, sys; print(sorted(sys.modules))"],
                            capture_output=True, text=True, check=True).stdout
    assert "dedale.crawler" not in loaded and "numpy" not in loaded and "dedale.systems" not in loaded


def test_a_sessions_result_needs_no_import_of_the_library() -> None:
    """A session made from its class, in a program that never imported `dedale.api`, still gives its result
    and its picture: `import dedale`, which any import of a session runs first, hands them over."""
    program = ("import sys\n"
               "from dedale.core.session import Session\n"
               "from dedale.crawler.session import CrawlerRules\n"
               "session = Session(CrawlerRules, seed=4)\n"
               "assert 'dedale.api' not in sys.modules\n"
               "session.run_autopilot()\n"
               "print(repr(session.result()), session.result().to_json() == session.to_json(),"
               " session._repr_svg_().startswith('<svg'))")
    shown = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout
    assert shown.split() == ["<dedale", "crawler", "result", "seed=4>", "True", "True"]


def test_a_result_draws_saves_and_continues(tmp_path: Path) -> None:
    result = dedale.generate("paper", seed=3, max_cards=10)
    assert result._repr_svg_() == result.svg() and result.svg(cards=True) != result.svg()
    for ext in (".json", ".svg", ".txt"):
        assert result.save(tmp_path / f"p{ext}").stat().st_size > 0
    assert json.loads((tmp_path / "p.json").read_text(encoding="utf-8")) == result.to_json()
    again = dedale.load(tmp_path / "p.json")
    assert again.to_json() == result.to_json() and again.play().to_json() == result.to_json()
    with pytest.raises(dedale.DedaleError, match=r"\.dot"):
        result.save(tmp_path / "p.dot")
    assert not (tmp_path / "p.dot").exists()


def test_a_session_shows_itself_and_takes_choices_or_their_ids() -> None:
    session = dedale.play("crawler", seed=4)
    assert session._repr_svg_().startswith("<svg")
    first = session.choices()[0]
    session.step(first)
    other = dedale.play("crawler", seed=4)
    other.step(first.id)
    assert session.to_json() == other.to_json()


def test_odds_are_exact_fractions_that_add_up() -> None:
    found = zombstone.odds(potential=2, objective="target", target="two_pairs")
    assert all(isinstance(p, Fraction) for p in found.hands.values())
    assert sum(found.hands.values()) == 1
    assert found.target_chance == sum(found.hands[h] for h in ("two_pairs", "three", "full", "four", "five"))
    with pytest.raises(dedale.DedaleError, match="Potential"):
        zombstone.odds(potential=9)

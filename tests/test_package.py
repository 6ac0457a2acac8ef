"""The package as a library user installs it: `pip install dedale` without extras plays, saves and draws every
system in JSON, SVG and text, and asking for what an extra brings is refused in one line naming it. The source
distribution carries its tests and docs and builds, with no compiler at hand, a pure-Python wheel."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import dedale
from dedale.systems import names

ROOT = Path(__file__).parents[1]
# The extras' libraries (dedale[web], dedale[render]), as if not installed.
BLOCKED = ("fastapi", "starlette", "uvicorn", "jinja2", "multipart", "cairosvg", "cairocffi", "matplotlib", "dask",
           "distributed")
BLOCK = f"""
import sys

class Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {BLOCKED!r}:
            raise ImportError(f"No module named {{name!r}} (blocked: not in the base install)")

sys.meta_path.insert(0, Blocked())
"""

LIBRARY = BLOCK + """
import json
from dedale.core.errors import DedaleError
from dedale.core.session import Session
from dedale.systems import names, system

found = {}
for name in names():
    spec = system(name)
    session = Session(spec.rules, spec.rules.params_from_json({}), 3).run_autopilot()
    document = json.loads(json.dumps(session.to_json()))
    refused = []
    for ext in (".png", ".pdf"):
        try:
            spec.export(document, ext)
        except DedaleError as error:
            refused.append(error.message())
    found[name] = {"over": session.is_over, "format": document["format"], "refused": refused,
                   "svg": spec.export(document, ".svg").decode()[:200], "text": spec.export(document, ".txt").decode()}
print(json.dumps(found))
"""


def run(code: str, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Python running `code` on this process's path (the source tree under test, not another install)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=300)


def test_the_base_install_plays_saves_and_draws_every_system() -> None:
    done = run(LIBRARY)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert list(found) == names()
    for name, result in found.items():
        assert result["over"] and result["format"] == f"dedale/{name}", name
        assert "<svg" in result["svg"] and result["text"].strip(), name
        assert result["refused"] == ["PNG and PDF files need the render extra: pip install 'dedale[render]'"] * 2


def test_without_an_extra_the_command_line_says_which_to_install(tmp_path: Path) -> None:
    cli = BLOCK + "from dedale.cli import main\nmain()"
    for args, extra in ((["crawler", "--seed", "1", "-o", "d.png"], "render"),
                        (["zombstone", "odds", "--potential", "1", "-o", "plot.png"], "render"),
                        (["serve", "--port", "8765", "--db", "s.db"], "web")):
        done = run(cli, *args, cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and f"pip install 'dedale[{extra}]'" in done.stderr, done.stderr
    assert not list(tmp_path.iterdir())
    assert run(cli, "crawler", "--seed", "1", cwd=tmp_path).returncode == 0


def test_the_version_is_in_the_changelog() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(dedale.__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.MULTILINE)


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The source distribution, built as `python -m build --sdist` builds it (in an isolated environment)."""
    out = tmp_path_factory.mktemp("sdist")
    done = subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return next(out.glob("dedale-*.tar.gz"))


def test_the_sdist_carries_what_its_tests_and_docs_need(sdist: Path) -> None:
    with tarfile.open(sdist) as archive:
        inside = {name.partition("/")[2] for name in archive.getnames()}
    assert {"conftest.py", "Makefile", "docs/architecture.md", "docs/rules/crawler.md", "tests/conftest.py",
            "tests/test_package.py", "src/dedale/crawler/data/tables/contents.toml", "LICENSE"} <= inside
    assert not [name for name in inside if name.endswith((".c", ".so", ".pyd", ".pyc"))]


def test_the_sdist_builds_a_pure_python_wheel_with_a_broken_compiler_and_none(sdist: Path, tmp_path: Path) -> None:
    """`CC=false` is a compiler that fails, and the PATH holds no other: anything compiled would stop the build."""
    empty = tmp_path / "no-compiler"
    empty.mkdir()
    env = {**os.environ, "CC": "false", "CXX": "false", "PATH": str(empty)}
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(sdist)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    wheel = next(tmp_path.glob("dedale-*.whl"))
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        inside = archive.namelist()
        text = archive.read(next(name for name in inside if name.endswith(".dist-info/METADATA"))).decode()
    assert {"dedale/py.typed", "dedale/crawler/data/tables/contents.toml", "dedale/locales/fr.toml"} <= set(inside)
    assert not [name for name in inside if name.endswith((".c", ".h", ".so", ".pyd", ".pyi"))]
    requires = [line for line in text.splitlines() if line.startswith("Requires-Dist:")]
    base = [line for line in requires if "extra ==" not in line]
    assert not [line for line in base if any(name in line for name in ("dask", "distributed", "fastapi", "cairo"))]
    assert any("dask" in line and "extra == \"cluster\"" in line for line in requires)
    for version in ("3.11", "3.12", "3.13"):
        assert f"Classifier: Programming Language :: Python :: {version}" in text

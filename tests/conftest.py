from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the tests' own helper modules

import budget  # noqa: F401  (the property tests' profile: `ci`, or `long` under `make test-long`)
from dedale.cli import main
from webserver import Server

if TYPE_CHECKING:
    from fastapi.testclient import TestClient
    from playwright.sync_api import Browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str,
        stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    return lambda *args, stdin="": run(capsys, monkeypatch, *args, stdin=stdin)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A browser's client of a new app (its pages' token sent), which sees a redirect as it is, a 303 and its
    Location (a module may define a `client` of its own)."""
    from webclient import web_client

    with web_client(tmp_path / "web.db", follow_redirects=False) as test_client:
        yield test_client


# --- the browser tests' server and browser: one each a module (starting Chromium is the slow part) -----------
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A `dedale serve` process on a new database."""
    with Server(tmp_path_factory.mktemp("web") / "dedale.db") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, never `playwright install`'s, without what would reach the network or need a GPU."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()

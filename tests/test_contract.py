"""The contract every system keeps (`dedale.testing.check_system`, shipped for the authors of systems), checked on
each system of the registry, Dédale's own and those of installed packages (tests/test_plugins.py): a test each
check and system, so that a failure names both. And the checks themselves can fail: a system broken on purpose
is caught by the check its fault breaks."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from dedale.core.session import Session
from dedale.systems import System, names, system
from dedale.testing import CHECKS, ContractBroken, check_system

SYSTEMS = names()


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("name", SYSTEMS)
def test_the_system_keeps_the_contract(name: str, check: str) -> None:
    CHECKS[check](system(name), 5)


def broken(name: str, **changes: Any) -> System:
    return dataclasses.replace(system(name), **changes)


def test_a_format_that_writes_nothing_is_caught() -> None:
    keylock = system("keylock")
    empty = broken("keylock", formats={**keylock.formats, ".svg": lambda *_: b""})
    with pytest.raises(ContractBroken, match=r"keylock, formats: \.svg wrote nothing"):
        check_system(empty)


def test_a_party_view_that_keeps_nothing_from_the_party_is_caught() -> None:
    with pytest.raises(ContractBroken, match="party view kept nothing of the GM's key"):
        CHECKS["party"](broken("crawler", party_view=lambda document: {}), 5)


def test_an_undo_that_replays_otherwise_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Session, "undo", lambda self: None)  # an undo that forgets to undo
    with pytest.raises(ContractBroken, match="undo gave another game"):
        CHECKS["undo"](system("crawler"), 5)


def test_check_system_runs_every_check_in_order() -> None:
    assert check_system("keylock") == list(CHECKS)


def test_a_format_that_needs_an_extra_not_installed_is_left_out_not_failed() -> None:
    """As where the contract runs from a wheel without the render extra (make test-newest): a PNG refused for want
    of cairo is left out; a format refused for anything else breaks the contract."""
    from dedale.core.errors import DedaleError

    def refuses(key: str) -> Any:
        def write(*_: Any) -> bytes:
            raise DedaleError(key)
        return write

    keylock = system("keylock")
    CHECKS["formats"](broken("keylock", formats={**keylock.formats, ".png": refuses("error.render_extra")}), 5)
    with pytest.raises(DedaleError):
        CHECKS["formats"](broken("keylock", formats={**keylock.formats, ".png": refuses("error.range")}), 5)

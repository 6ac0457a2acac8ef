"""`dedale serve` on a port another program holds: one clear line naming the port and how to pick another,
exit code 2, and nothing said about where the app is (it is not there). `make run PORT=...` picks the port."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from webserver import ENTRY

ROOT = Path(__file__).parents[1]


def test_a_busy_port_is_one_clear_line_and_exit_code_2(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        run = subprocess.run([sys.executable, "-c", ENTRY, "serve", "--port", str(port), "--db",
                              str(tmp_path / "web.db")], capture_output=True, text=True, timeout=60)
        assert run.returncode == 2, run.stderr
        assert f"port {port} on 127.0.0.1 is already in use" in run.stderr
        assert f"--port {port + 1}" in run.stderr and f"PORT={port + 1}" in run.stderr
        assert "Dédale is at" not in run.stderr and "Traceback" not in run.stderr
        assert len(run.stderr.strip().splitlines()) == 1


def test_make_run_takes_the_port_it_is_given() -> None:
    dry = subprocess.run(["make", "-n", "-s", "run", "PORT=8001"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert "serve --host 127.0.0.1 --port 8001 --db dedale.db" in dry.stdout
    default = subprocess.run(["make", "-n", "-s", "run"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "--port 8000 " in default.stdout


def _written_in(digits: str, number: int) -> str:
    """`number` written with another script's ten digits (`digits`: its 0 to 9)."""
    return str(number).translate(str.maketrans("0123456789", digits))


@pytest.mark.parametrize("written", [
    lambda port: _written_in("٠١٢٣٤٥٦٧٨٩", port),  # Arabic-Indic: Python's int() reads them as the port
    lambda port: _written_in("０１２３４５６７８９", port),  # fullwidth
    lambda port: _written_in("०१२३४५६७८९", port),  # Devanagari
    lambda port: f"{port}.0", lambda port: f"+{port}", lambda port: f"0x{port:x}", lambda port: "",
    lambda port: "0", lambda port: "65536", lambda port: "1" + "0" * 40,
], ids=["arabic-indic", "fullwidth", "devanagari", "decimal", "plus", "hexadecimal", "empty", "zero", "65536",
        "41-digits"])
def test_a_port_is_ascii_digits_from_1_to_65535(tmp_path: Path, written: Callable[[int], str]) -> None:
    """Any other text is one line naming what is accepted, exit code 2, and no server (the port is held here,
    so that a server taking the number anyway says so rather than serving)."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = written(holder.getsockname()[1])
        run = subprocess.run([sys.executable, "-c", ENTRY, "serve", "--port", port, "--db", str(tmp_path / "web.db")],
                             capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip() == f"dedale: port: '{port}' is not a port; use a whole number from 1 to 65535, in the " \
        "digits 0 to 9"

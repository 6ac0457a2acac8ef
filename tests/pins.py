"""Regression pins kept as the files themselves (a document's JSON, a picture's SVG), so that a pin that fails
says what moved: the first JSON paths whose values differ, or the first lines of the picture that differ."""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

SHOWN = 8  # differences a failure lists


def differences(pinned: Any, made: Any, path: str = "$") -> list[str]:
    """Where two JSON values differ, as `path: pinned -> made`, outermost first."""
    if isinstance(pinned, dict) and isinstance(made, dict):
        found = [f"{path}.{key}: {_short(pinned.get(key))} -> {_short(made.get(key))}"
                 for key in sorted(set(pinned) ^ set(made))]
        for key in [key for key in pinned if key in made]:
            found += differences(pinned[key], made[key], f"{path}.{key}")
        return found
    if isinstance(pinned, list) and isinstance(made, list):
        found = [line for index, (one, two) in enumerate(zip(pinned, made, strict=False))
                 for line in differences(one, two, f"{path}[{index}]")]
        if len(pinned) != len(made):
            found.append(f"{path}: {len(pinned)} items -> {len(made)}")
        return found
    return [] if pinned == made and type(pinned) is type(made) else [f"{path}: {_short(pinned)} -> {_short(made)}"]


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


def check_document(file: Path, made: dict[str, Any]) -> None:
    pinned = json.loads(file.read_text(encoding="utf-8"))
    moved = differences(pinned, json.loads(json.dumps(made)))
    assert not moved, (f"{file.name}: {len(moved)} values moved (`python tests/test_crawler_pins.py --write` pins "
                       "them again, only from code known to be right):\n" + "\n".join(moved[:SHOWN]))


def check_text(file: Path, made: str) -> None:
    pinned = file.read_text(encoding="utf-8")
    if pinned != made:
        diff = list(difflib.unified_diff(pinned.splitlines(), made.splitlines(), "pinned", "made", n=1, lineterm=""))
        raise AssertionError(f"{file.name} moved:\n" + "\n".join(diff[:4 * SHOWN]))


def write_document(file: Path, made: dict[str, Any]) -> None:
    file.write_text(json.dumps(made, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

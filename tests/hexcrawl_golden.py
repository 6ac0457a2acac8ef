"""The hexcrawl's regression cases: documents, text and pictures made by the code before its hex records were
compacted and its dice drawn in bulk, kept as SHA-256 digests in data/hexcrawl/golden.json. The same seeds,
parameters and moves must give the same bytes. Version 3 (issue 18) recorded the documents' digests again: they
differ from version 2's only by their version and the log's notes (a reason asked wherever a community clashes
with its relief), which `tests/test_hexcrawl.py` checks on a version-2 document. Version 4 (issue 39) recorded
the documents' digests again: they differ from version 3's only by their version and their events (the
autopilot's decisions recorded with what they drew); text, pictures and results are the same bytes.

`python tests/hexcrawl_golden.py --write` records the digests again (only from code known to be right);
`python tests/hexcrawl_golden.py --dump DIR` writes the outputs themselves, to compare two versions with diff."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from dedale.core.session import Session
from dedale.hexcrawl.params import HexParams
from dedale.hexcrawl.session import HexcrawlRules, HexcrawlSession
from dedale.systems import system

GOLDEN = Path(__file__).parent / "data" / "hexcrawl" / "golden.json"

# (name, seed, parameters, moves by hand before the autopilot, autopilot, table mode entries)
CASES: list[tuple[str, int, dict[str, Any], list[str], bool]] = [
    ("r0", 3, {"radius": 0}, [], True),
    ("r1-bfs", 5, {"radius": 1, "order": "bfs"}, [], True),
    ("r2-nosites", 0, {"radius": 2, "sites": False}, [], True),
    ("r5-spiral", 1, {"radius": 5}, [], True),
    ("r5-bfs-start", 7, {"radius": 5, "order": "bfs", "start": (2, -3)}, [], True),
    ("r5-walk", 11, {"radius": 5, "order": "walk"}, [], True),
    ("r5-random-walk", 12, {"radius": 5, "order": "random-walk"}, [], True),
    ("r5-weighted", 13, {"radius": 5, "variant": "weighted"}, [], True),
    ("r5-weighted-walk", 14, {"radius": 5, "variant": "weighted", "order": "walk"}, [], True),
    ("r5-no-obstacles", 15, {"radius": 5, "obstacle_chance": 0.0}, [], True),
    ("r5-all-obstacles", 16, {"radius": 5, "obstacle_chance": 1.0}, [], True),
    ("r5-odd-chance", 17, {"radius": 5, "obstacle_chance": 0.37}, [], True),
    ("r6-moves-then-walk", 2**64 - 1, {"radius": 6, "order": "walk"}, ["N", "N", "SE", "S", "SW", "NW"], True),
    ("r6-moves-then-spiral", 99, {"radius": 6}, ["S", "S", "SE", "NE"], True),
    ("r6-moves-stopped", 98, {"radius": 6}, ["N", "NE", "SE"], False),
    ("r12-default", 12345, {}, [], True),
    ("r12-weighted-bfs", 4242, {"variant": "weighted", "order": "bfs"}, [], True),
    ("r30-spiral", 8, {"radius": 30}, [], True),
    ("r30-walk", 9, {"radius": 30, "order": "walk"}, [], True),
    ("r55-spiral", 10, {"radius": 55}, [], True),  # labels of three digits a coordinate
]


def session_for(seed: int, params: dict[str, Any], moves: list[str], autopilot: bool) -> HexcrawlSession:
    session = Session(HexcrawlRules, HexParams(**params), seed)
    for name in moves:
        session.step(f"move:{name}")
    if autopilot:
        session.run_autopilot()
    else:
        session.step("stop")
    return session


def outputs(seed: int, params: dict[str, Any], moves: list[str], autopilot: bool) -> dict[str, bytes]:
    """What the faces write of a case: the document (as the CLI's --json and -o map.json write it), the
    party view, the text in two languages, the SVG."""
    hexcrawl = system("hexcrawl")
    document = session_for(seed, params, moves, autopilot).to_json()
    made = {"json": hexcrawl.export(document, ".json"),
            "party.json": hexcrawl.export(document, ".json", view="party"),
            "en.txt": hexcrawl.export(document, ".txt"), "fr.txt": hexcrawl.export(document, ".txt", lang="fr")}
    if params.get("radius", 12) <= 30:
        made["svg"] = hexcrawl.export(document, ".svg")
    return made


def digests() -> dict[str, str]:
    return {f"{name}.{kind}": hashlib.sha256(data).hexdigest()
            for name, seed, params, moves, autopilot in CASES
            for kind, data in outputs(seed, params, moves, autopilot).items()}


def main(argv: list[str]) -> None:
    if argv[:1] == ["--write"]:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(digests(), indent=1, sort_keys=True) + "\n")
    elif argv[:1] == ["--dump"]:
        folder = Path(argv[1])
        folder.mkdir(parents=True, exist_ok=True)
        for name, seed, params, moves, autopilot in CASES:
            for kind, data in outputs(seed, params, moves, autopilot).items():
                (folder / f"{name}.{kind}").write_bytes(data)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])

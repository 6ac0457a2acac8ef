"""The `dedale` command: generation, outputs by extension, batches, play, tables, schema, errors."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest

import schemas
from dedale.systems import system

SCHEMA = json.loads(system("crawler").schema())


def test_generate_prints_the_text_view_and_the_random_seed(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("crawler")
    assert code == 0 and "seed:" in err and "rooms laid:" in out
    seed = int(err.split("seed:")[1].split()[0])
    assert cli("crawler", "--seed", str(seed))[1] == out  # the printed seed remakes it


def test_json_output_follows_the_contract(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("crawler", "--seed", "12", "--json")
    assert code == 0
    document = json.loads(out)
    schemas.validate(document, SCHEMA)
    assert document["generator"] == "crawler" and document["seed"] == 12
    assert {"board_zones", "zone_cells", "size_rule"} <= set(document["params"])
    assert document["outcome"] in ("boss", "stuck") and document["size"] >= 3


def test_count_prints_one_document_a_line(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("crawler", "--seed", "40", "--count", "3", "--json")
    assert code == 0
    lines = out.strip().splitlines()
    assert [json.loads(line)["seed"] for line in lines] == [40, 41, 42]


@pytest.mark.parametrize("ext", [".json", ".svg", ".png", ".txt", ".pdf"])
def test_output_format_by_extension(cli, tmp_path: Path, ext: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / f"dungeon{ext}"
    code, out, _ = cli("crawler", "--seed", "3", "-o", str(path))
    assert code == 0 and out == ""
    data = path.read_bytes()
    if ext == ".json":
        schemas.validate(json.loads(data), SCHEMA)
    elif ext == ".svg":
        assert ElementTree.fromstring(data).tag.endswith("svg")
    elif ext == ".png":
        assert data.startswith(b"\x89PNG")
    elif ext == ".pdf":
        assert data.startswith(b"%PDF")
    else:
        assert "rooms laid:" in data.decode("utf-8")


def test_batches_name_files_by_seed(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "out").mkdir()
    cli("crawler", "--seed", "7", "--count", "2", "-o", f"{tmp_path}/out/")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["crawler-7.json", "crawler-8.json"]
    cli("crawler", "--seed", "7", "--count", "2", "-o", str(tmp_path / "map-{seed}.svg"))
    cli("crawler", "--seed", "7", "--count", "2", "-o", str(tmp_path / "d.txt"))
    names = sorted(p.name for p in tmp_path.iterdir() if p.is_file())
    assert names == ["d-7.txt", "d-8.txt", "map-7.svg", "map-8.svg"]


@pytest.mark.parametrize(("args", "names"), [
    (["--size", "3d0"], "size"),
    (["--size", "0"], "size"),
    (["--board", "0"], "board"),
    (["--zone", "1"], "zone"),
    (["--fill-chance", "2"], "fill-chance"),
    (["--boss-size", "6x6"], "boss-size: 6x6"),
    (["--boss-size", "big"], "boss-size: 'big'"),
    (["--stock", "5x5=two"], "stock"),
    (["--stock", "7x7=1"], "stock"),
    (["--start-zone", "9,9"], "start-zone: zone 9,9"),
    (["--start-zone", "2,2", "--start-side", "N"], "start-zone: zone 2,2"),
    (["--start-zone", "a"], "start-zone: 'a'"),
    (["--contents", "loot"], "contents"),
    (["--count", "0"], "count"),
    (["--seed", "-1"], "seed"),
    (["--seed", "ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZY", "--count", "3"], "goes past the last seed"),
    (["--tables", "/nonexistent"], "tables"),
    (["--lang", "de"], "lang"),
    (["--board", "x"], "--board"),
])
def test_bad_input_is_one_line_exit_2_and_no_file(cli, tmp_path: Path, args: list[str],  # type: ignore[no-untyped-def]
                                                  names: str) -> None:
    target = tmp_path / "d.json"
    code, _, err = cli("crawler", *args, "-o", str(target))
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and names in err and "Traceback" not in err
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_a_board_beyond_the_largest_that_draws_legibly_is_refused_naming_the_bound(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path) -> None:
    from dedale.crawler.params import MAX_ZONES

    code, _, err = cli("crawler", "--board", str(MAX_ZONES + 1), "-o", str(tmp_path / "d.svg"))
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert f"board: {MAX_ZONES + 1} is out of range" in err and f"from 2 to {MAX_ZONES}" in err
    assert list(tmp_path.iterdir()) == []
    code, _, _ = cli("crawler", "--board", str(MAX_ZONES), "--seed", "1", "-o", str(tmp_path / "d.svg"))
    assert code == 0 and (tmp_path / "d.svg").exists()


def test_unknown_output_extension(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("crawler", "-o", str(tmp_path / "d.docx"))
    assert code == 2 and ".json .svg .png .txt .pdf" in err


def test_french(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("crawler", "--seed", "3", "--lang", "fr")
    assert "salles posées" in out
    code, _, err = cli("crawler", "--size", "3d0", "--lang", "fr")
    assert code == 2 and "n'est pas une taille de donjon" in err


def test_render_a_saved_result_again(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("crawler", "--seed", "9", "-o", str(tmp_path / "d.json"))
    code, _, _ = cli("render", str(tmp_path / "d.json"), "-o", str(tmp_path / "d.svg"), "-o", str(tmp_path / "d.png"))
    assert code == 0 and (tmp_path / "d.svg").exists() and (tmp_path / "d.png").exists()
    assert cli("render", str(tmp_path / "d.json"))[1] == cli("crawler", "--seed", "9")[1]
    (tmp_path / "bad.json").write_text("{not json")
    code, _, err = cli("render", str(tmp_path / "bad.json"))
    assert code == 2 and "not valid JSON" in err


def test_schema_command(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("schema", "crawler")
    assert code == 0
    jsonschema.Draft202012Validator.check_schema(json.loads(out))
    assert cli("schema", "chess")[0] == 2


def test_tables_export_check_and_use(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert cli("tables", "export", str(tmp_path))[0] == 0
    contents = tmp_path / "crawler" / "contents.toml"
    assert contents.exists()
    code, _, err = cli("tables", "check", str(tmp_path))
    assert code == 0 and "valid" in err
    contents.write_text(contents.read_text(encoding="utf-8").replace("Guard room", "Hall of the watch"),
                        encoding="utf-8")
    seen = [cli("crawler", "--seed", str(s), "--tables", str(tmp_path), "--json")[1] for s in range(40)]
    assert any("Hall of the watch" in out for out in seen)
    contents.write_text(contents.read_text(encoding="utf-8").replace("roll = 12", "roll = 13"), encoding="utf-8")
    code, _, err = cli("tables", "check", str(tmp_path))
    assert code == 2 and "contents.toml" in err and "room_kinds" in err and "12" in err


def test_play_to_the_end_with_the_autopilot_and_resume(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "game.json"
    code, out, _ = cli("crawler", "play", "--seed", "5", "--save", str(save), stdin="1\n1\nq\n")
    assert code == 0 and save.exists()
    first = json.loads(save.read_text())
    assert len(first["events"]) == 2 and first["over"] is False
    code, out, _ = cli("crawler", "play", "--load", str(save), stdin="a\n" * 200)
    assert code == 0 and "The session is over." in out
    final = json.loads(save.read_text())
    assert final["over"] and final["events"][:2] == first["events"]


def test_play_lists_numbered_choices_and_refuses_others(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("crawler", "play", "--seed", "5", "--save", str(tmp_path / "g.json"),
                       stdin="99\nzz\n²\n" + "9" * 5000 + "\n?\nq\n")
    assert code == 0
    assert "  1. " in out and "'99' is not a choice" in out and "'zz' is not a choice" in out
    assert "'²' is not a choice" in out and out.count("is not a choice") == 4
    assert "u: undo" in out


def test_play_undo(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "g.json"
    cli("crawler", "play", "--seed", "5", "--save", str(save), stdin="1\n1\nu\nq\n")
    assert len(json.loads(save.read_text())["events"]) == 1


def test_play_with_table_dice(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "g.json"
    code, out, _ = cli("crawler", "play", "--table-dice", "--save", str(save), stdin="4 4\n7\n4\n1\nq\n")
    assert code == 0
    assert "Roll 3d6 for dungeon size (die 1 of 3)" in out
    assert "'7' is not a possible result here; possible: 1, 2, 3, 4, 5, 6" in out  # then a 4 is entered
    document = json.loads(save.read_text())
    assert document["table_dice"] and [e["enter"] for e in document["events"]] == ["4", "4", "4", "1"]
    assert document["size"] == 12 and "the entrance, from the board's edge" in out  # a 5x5 rolled: its door


def test_ctrl_c_saves_the_session(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    answers = iter(["1"])

    def interrupted(prompt: str = "") -> str:
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr("builtins.input", interrupted)
    save = tmp_path / "g.json"
    code, _, _ = cli("crawler", "play", "--seed", "2", "--save", str(save))
    assert code == 0 and len(json.loads(save.read_text())["events"]) == 1


def test_a_corrupt_save_is_refused(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "g.json"
    cli("crawler", "play", "--seed", "5", "--save", str(save), stdin="1\nq\n")
    document = json.loads(save.read_text())
    document["events"] = [{"choice": "exit:42:N"}]
    save.write_text(json.dumps(document))
    before = save.read_text()
    code, _, err = cli("crawler", "play", "--load", str(save), stdin="q\n")
    assert code == 2 and "event 1" in err and save.read_text() == before


def test_tiles_pdf(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "tiles.pdf"
    assert cli("crawler", "tiles", "-o", str(target))[0] == 0
    assert target.read_bytes().startswith(b"%PDF")
    assert cli("crawler", "tiles", "-o", str(tmp_path / "tiles.png"))[0] == 2


def test_version(cli) -> None:  # type: ignore[no-untyped-def]
    import dedale

    code, out, _ = cli("--version")
    assert code == 0 and out.strip() == f"dedale {dedale.__version__}"


def test_larger_zones_on_a_board_are_bounded_by_the_cells_a_side(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path) -> None:
    """12 zones of 5 cells draw legibly, and so do 5 zones of 12: 10 zones of 12 cells (120 a side) do not."""
    from dedale.crawler.params import MAX_SIDE

    code, _, err = cli("crawler", "--board", "10", "--zone", "12", "-o", str(tmp_path / "d.svg"))
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "10 zones of 12 cells make 120 cells a side" in err and f"at most {MAX_SIDE}" in err
    assert list(tmp_path.iterdir()) == []
    code, _, _ = cli("crawler", "--board", "5", "--zone", "12", "--seed", "1", "-o", str(tmp_path / "d.svg"))
    assert code == 0 and (tmp_path / "d.svg").exists()


def test_a_disk_that_fills_up_half_way_leaves_no_file(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A result is written through a temporary file and a rename: a write that fails part of the way leaves
    neither a half-written file nor the temporary one, and says so in one line (exit code 2)."""
    import errno
    import io
    import os

    from dedale.core import files

    class Full(io.FileIO):
        def write(self, data: bytes) -> int:  # type: ignore[override]
            super().write(bytes(data)[:100])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fdopen", lambda fd, mode: Full(fd, "wb"))
    code, _, err = cli("hexcrawl", "--seed", "1", "--radius", "3", "-o", str(tmp_path / "map.json"))
    assert code == 2 and err.count("\n") == 1 and "No space left on device" in err, err
    assert list(tmp_path.iterdir()) == []


# --- files the CLI writes, and what it says of them (issue 30) -------------------------------------------------
def test_output_into_a_missing_folder_is_refused_before_any_work(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A misspelt folder is bad input (exit 2, the folder named), never made silently; nothing is written."""
    for args in (["crawler", "--seed", "3", "-o", str(tmp_path / "nope" / "d.svg")],
                 ["crawler", "--seed", "3", "--count", "3", "-o", str(tmp_path / "nope") + "/"],
                 ["paper", "--seed", "3", "--count", "2", "-o", str(tmp_path / "nope" / "p-{seed}.json")]):
        code, out, err = cli(*args)
        assert code == 2 and out == ""
        assert f"no folder '{tmp_path / 'nope'}'" in err and err.count("\n") == 1, err
    assert not (tmp_path / "nope").exists()


def test_every_file_written_is_named_on_stderr(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("crawler", "--seed", "3", "-o", str(tmp_path / "d.svg"))
    assert code == 0 and out == "" and f"wrote {tmp_path / 'd.svg'}" in err
    code, out, err = cli("keylock", "--count", "3", "--seed", "1", "-o", str(tmp_path) + "/")
    assert code == 0 and f"wrote 3 files, {tmp_path / 'keylock-1.json'} to {tmp_path / 'keylock-3.json'}" in err
    assert sorted(p.name for p in tmp_path.glob("keylock-*.json")) == ["keylock-1.json", "keylock-2.json",
                                                                        "keylock-3.json"]


def test_a_batch_without_a_terminal_says_how_far_it_is(cli, monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Without a terminal (a log file, a job), a line of progress now and then: every time, here."""
    monkeypatch.setattr("dedale.cli.common.QUIET_EVERY", 0.0)
    code, _, err = cli("keylock", "--count", "25", "--seed", "1", "--unique", "2", "--multi", "0",
                         "-o", str(tmp_path) + "/")
    lines = [line for line in err.splitlines() if line.startswith("Generating: ")]
    assert code == 0 and lines and lines[-1] == "Generating: 24 of 25" and all(" of 25" in line for line in lines)


@pytest.mark.parametrize("command", [[], ["crawler"], ["crawler", "play"], ["zombstone"], ["zombstone", "odds"],
                                     ["render"], ["serve"], ["tables", "export"]])
def test_help_fits_100_columns_in_a_wide_terminal(command: list[str]) -> None:
    import os
    import subprocess
    import sys

    env = {key: value for key, value in os.environ.items() if key != "TERMINAL_WIDTH"}
    shown = subprocess.run([sys.executable, "-c", "import sys; from dedale.cli import main; main(sys.argv[1:])",
                            *command, "--help"], capture_output=True, text=True, env={**env, "COLUMNS": "200"},
                           check=True).stdout
    assert shown.strip() and max(map(len, shown.splitlines())) <= 100

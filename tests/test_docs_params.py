"""The rules pages' parameter tables and docs/api.md's parameter lists follow the declarations (`param(...)` in
each system's params.py): a row for every declared parameter and none other, in the declared order, each with
its option and its default as the code has them; a row's meaning is the page's own words, but it names every
word the parameter accepts, and the bounds it gives (the web's too) are the declared ones.
`python tests/test_docs_params.py --write` rewrites the rows from the declarations (keeping each row's
meaning; a new row takes the declaration's help) and api.md's lists."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from dedale.core.params import Field, fields_of
from dedale.systems import names, system

DOCS = Path(__file__).parent.parent / "docs"
HEADER = "| field (JSON `params`) | option | default | meaning |"

def pages() -> dict[str, list[str]]:
    """Each rules page of Dédale's own systems (`System.rules_page`) and its tables, in the registry's order (the
    order they come on it)."""
    found: dict[str, list[str]] = {}
    for name in names():
        page = system(name).rules_page
        if system(name).package.startswith("dedale.") and page is not None:  # not an installed package's
            found.setdefault(page, []).append(name)
    return found


PAGES = pages()
LIST = re.compile(r"Its parameters: ((?:`\w+`,?\s*)+)\.", re.S)
NUMBER = r"(-?[\d,]*\.?\d+)"
BOUNDS = re.compile(NUMBER + " to " + NUMBER)  # a meaning's "(2 to 12", and the web's "web: 40" or "10 on the web"
WEB = re.compile("web: " + NUMBER + "|" + NUMBER + " on the web")


def test_every_system_has_its_rules_page() -> None:
    own = [name for name in names() if system(name).package.startswith("dedale.")]  # not an installed package's
    assert sorted(name for tables in PAGES.values() for name in tables) == sorted(own)
    assert all((DOCS / "rules" / page).is_file() for page in PAGES)


def option(field: Field) -> str:
    return f"`{field.flag}` / `--no-{field.flag[2:]}`" if field.kind == "bool" else f"`{field.flag}`"


def default(field: Field) -> str | None:
    """The default as a row shows it; None: the rules decide (the row says how, in its own words)."""
    if field.default is None:
        return None
    if field.kind == "bool":
        return "on" if field.default else "off"
    return field.text(field.default) if field.kind in ("int", "float") else f"`{field.text(field.default)}`"


def row(field: Field, meaning: str, shown: str | None = None) -> str:
    return f"| `{field.name}` | {option(field)} | {default(field) or shown or '-'} | {meaning} |"


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def tables(text: str) -> list[tuple[int, int]]:
    """Each parameter table's rows: (first line, end) as line numbers of `text`."""
    lines = text.split("\n")
    found = []
    for at, line in enumerate(lines):
        if line == HEADER:
            end = at + 2
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            found.append((at + 2, end))
    return found


def drift(name: str, rows: list[str]) -> list[str]:
    """What a table says that the declarations do not (empty: it follows them)."""
    declared = fields_of(system(name).params)
    shown = [cells(line)[0].strip("`") for line in rows]
    order = [f.name for f in declared]
    wrong = [f"{name}: no row for `{f}`" for f in order if f not in shown]
    wrong += [f"{name}: row `{f}` is not a parameter" for f in shown if f not in order]
    if not wrong and shown != order:
        wrong.append(f"{name}: rows in the order {shown}, declared {order}")
    by_name = {cells(line)[0].strip("`"): cells(line) for line in rows}
    for field in declared:
        if field.name not in by_name:
            continue
        _, flag, value, meaning = by_name[field.name]
        if flag != option(field):
            wrong.append(f"{name} `{field.name}`: option {flag}, declared {option(field)}")
        if default(field) is not None and value != default(field):
            wrong.append(f"{name} `{field.name}`: default {value}, declared {default(field)}")
        wrong += [f"{name} `{field.name}`: {said}" for said in bounds(field, meaning)]
        unnamed = [w for w in field.words() if f"`{w}`" not in meaning and f"`{w}`" not in value]
        if field.spec.choices is not None and unnamed:
            wrong.append(f"{name} `{field.name}`: its meaning does not name {unnamed}")
    return wrong


def bounds(field: Field, meaning: str) -> list[str]:
    """What a meaning says of the bounds that the declaration does not (it may leave them out)."""
    said = []
    stated, web = BOUNDS.search(meaning), WEB.search(meaning)
    if stated is not None and field.kind in ("int", "float"):
        low, high = (float(n.replace(",", "")) for n in stated.groups())
        if (low, high) != (field.spec.low, field.spec.high):
            said.append(f"{stated.group(0)}, declared {field.spec.low} to {field.spec.high}")
    if web is not None and float(next(n for n in web.groups() if n).replace(",", "")) != field.spec.web_high:
        said.append(f"{web.group(0)}, declared the web's {field.spec.web_high}")
    return said


@pytest.mark.parametrize("page", list(PAGES))
def test_a_rules_pages_parameter_tables_follow_the_declarations(page: str) -> None:
    text = (DOCS / "rules" / page).read_text(encoding="utf-8")
    lines = text.split("\n")
    found = tables(text)
    assert len(found) == len(PAGES[page]), f"{page}: {len(found)} parameter tables, for {PAGES[page]}"
    wrong = [w for name, (start, end) in zip(PAGES[page], found, strict=True) for w in drift(name, lines[start:end])]
    assert wrong == [], f"{page} (python tests/test_docs_params.py --write): " + "; ".join(wrong)


def test_a_table_that_drifted_is_named_by_its_row() -> None:
    declared = fields_of(system("keylock").params)
    rows = [row(f, "") for f in declared if f.name != "spread"]
    rows[0] = rows[0].replace("| 3 |", "| 4 |")
    rows[1] = rows[1].replace("|  |", "| multi-key sets (0 to 5000; web: 60) |")
    assert drift("keylock", rows) == ["keylock: no row for `spread`", "keylock `unique`: default 4, declared 3",
                                      "keylock `multi`: 0 to 5000, declared 0 to 10000",
                                      "keylock `multi`: web: 60, declared the web's 50",
                                      "keylock `multi_draw`: its meaning does not name ['seed']"]
    swapped = [row(f, "") for f in (declared[1], declared[0], *declared[2:])]
    assert drift("keylock", swapped) == [
        f"keylock: rows in the order {['multi', 'unique', *[f.name for f in declared][2:]]}, declared "
        f"{[f.name for f in declared]}", "keylock `multi_draw`: its meaning does not name ['seed']"]


def listed(name: str) -> str:
    return "Its parameters: " + ", ".join(f"`{f.option}`" for f in fields_of(system(name).params)) + "."


def api_lists(text: str) -> list[tuple[str, re.Match[str]]]:
    """Each "Its parameters:" list of docs/api.md, with the system of the example just before it."""
    return [(re.findall(r'dedale\.(?:play|generate)\("([\w-]+)"', text[:match.start()])[-1], match)
            for match in LIST.finditer(text)]


def test_the_apis_parameter_lists_follow_the_declarations() -> None:
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    found = api_lists(text)
    assert found
    for name, match in found:
        assert " ".join(match.group(0).split()) == listed(name), name


def write() -> None:
    for page, systems in PAGES.items():
        path = DOCS / "rules" / page
        lines = path.read_text(encoding="utf-8").split("\n")
        for name, (start, end) in reversed(list(zip(systems, tables("\n".join(lines)), strict=True))):
            kept = {cells(line)[0].strip("`"): cells(line) for line in lines[start:end]}
            lines[start:end] = [row(f, kept[f.name][3], kept[f.name][2]) if f.name in kept else row(f, f.spec.en)
                                for f in fields_of(system(name).params)]
        path.write_text("\n".join(lines), encoding="utf-8")
    api = DOCS / "api.md"
    text = api.read_text(encoding="utf-8")
    for name, match in reversed(api_lists(text)):
        text = text[:match.start()] + wrapped(listed(name)) + text[match.end():]
    api.write_text(text, encoding="utf-8")


def wrapped(line: str, width: int = 110) -> str:
    out, current = [], ""
    for each in line.split(" "):
        if current and len(current) + 1 + len(each) > width:
            out.append(current)
            current = each
        else:
            current = f"{current} {each}" if current else each
    return "\n".join([*out, current])


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write()

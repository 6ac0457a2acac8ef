"""docs/rules/choices.md lists every Choice the rules pages make, and names parameters as the code spells them.

The rules kept here:

1. Each rules page has a section in choices.md (a `## ` heading linking to the page) whose table has at least
   as many rows as the page has marks. A mark is a bold run starting with the word Choice or Choices
   (`**Choice**`, `**Choices**`, `**Choices:**`, `**Choice: ...**`), counted once however many choices it
   makes. So a Choice added to a page without a row here fails, and one mark may have several rows.
2. Each row's "changed by" cell names a parameter, written `field` / `--option`, or starts with "fixed" or
   "data". A parameter's field is one of its system's, the option is that field's, and the text that follows
   gives its default (default `X`, as the command line writes it; "default on" or "off" for yes/no).
3. Every `--option` in a section is an option of its system (a `--no-` form only for a yes/no parameter).
4. Every link to a section of a page names one of that page's headings (GitHub's anchors).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dedale.core.params import Field, fields_of
from dedale.systems import names, system

RULES = Path(__file__).resolve().parent.parent / "docs" / "rules"
CHOICES = RULES / "choices.md"
NOT_RULES = {"README.md", "choices.md"}

def systems_of_pages() -> dict[str, list[str]]:
    """Dédale's own systems by the rules page each names (the skirmish and the poker duel share one); a
    system from another package has its rules elsewhere."""
    pages: dict[str, list[str]] = {}
    for name in names():
        if system(name).package.startswith("dedale."):
            pages.setdefault(str(system(name).rules_page), []).append(name)
    return pages


MARK = re.compile(r"\*\*Choices?\b")
PARAMETER = re.compile(r"`([a-z_]+)` / `(--[a-z-]+)`")
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
SECTION_LINK = re.compile(r"\]\(([\w-]+\.md)#([^)]+)\)")
CHANGED_BY = 2  # the column of what changes the choice


def rules_pages() -> list[str]:
    return sorted(path.name for path in RULES.glob("*.md") if path.name not in NOT_RULES)


def sections() -> dict[str, str]:
    """choices.md's sections by the page their heading links to."""
    found: dict[str, str] = {}
    for part in CHOICES.read_text(encoding="utf-8").split("\n## ")[1:]:
        heading = part.splitlines()[0]
        page = re.search(r"\]\(([\w-]+\.md)\)", heading)
        assert page is not None, f"a section of choices.md links to no page: {heading}"
        found[page.group(1)] = part
    return found


def table_rows(section: str) -> list[list[str]]:
    """The cells of the section's table, its heading row and the line under it left out."""
    lines = [line.strip() for line in section.splitlines() if line.strip().startswith("|")]
    return [line.strip("|").strip().split(" | ") for line in lines[2:]]


def fields(page: str) -> dict[str, Field]:
    return {field.name: field for name in systems_of_pages()[page] for field in fields_of(system(name).params)}


def default_text(field: Field) -> str | None:
    """How choices.md gives the default (None: a default other parameters settle, given in words)."""
    if field.kind == "bool":
        return "default on" if field.default else "default off"
    return None if field.default is None else f"default `{field.text(field.default)}`"


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_rules_page_has_a_section() -> None:
    assert set(rules_pages()) == set(systems_of_pages()) == set(sections())


def test_every_rules_page_is_in_the_folders_table() -> None:
    listed = set(re.findall(r"^\| \[([\w-]+\.md)\]", (RULES / "README.md").read_text(encoding="utf-8"), re.M))
    missing = sorted(set(systems_of_pages()) - listed)
    assert not missing, f"docs/rules/README.md's table lists no {missing}"


@pytest.mark.parametrize("page", rules_pages())
def test_a_row_for_every_mark(page: str) -> None:
    marks = len(MARK.findall((RULES / page).read_text(encoding="utf-8")))
    rows = table_rows(sections()[page])
    assert marks > 0
    assert len(rows) >= marks, f"{page} makes {marks} Choices, choices.md lists {len(rows)}"
    assert all(len(row) == 4 for row in rows), [row for row in rows if len(row) != 4]


@pytest.mark.parametrize("page", rules_pages())
def test_parameters_are_the_codes(page: str) -> None:
    declared = fields(page)
    for row in table_rows(sections()[page]):
        cell = row[CHANGED_BY]
        named = list(PARAMETER.finditer(cell))
        assert named or cell.startswith(("fixed", "data")), cell
        for index, here in enumerate(named):
            name, option = here.groups()
            assert name in declared, f"{page}: `{name}` is not a parameter"
            assert option == declared[name].flag, f"{page}: `{name}` is {declared[name].flag}, not {option}"
            end = named[index + 1].start() if index + 1 < len(named) else len(cell)  # its text, to the next
            said = cell[here.end():end]
            expected = default_text(declared[name])
            assert (expected or "default") in said, f"{page}: `{name}` should say {expected or 'its default'}"


@pytest.mark.parametrize("page", rules_pages())
def test_options_are_the_systems(page: str) -> None:
    declared = fields(page).values()
    options = {field.flag for field in declared}
    options |= {"--no-" + field.flag[2:] for field in declared if field.kind == "bool"}
    named = set(OPTION.findall(sections()[page]))
    assert named, page
    assert named <= options, f"{page}: not options of its system: {sorted(named - options)}"


def test_links_name_headings() -> None:
    links = SECTION_LINK.findall(CHOICES.read_text(encoding="utf-8"))
    assert links
    for page, target in links:
        text = (RULES / page).read_text(encoding="utf-8")
        headings = {anchor(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}
        assert target in headings, f"choices.md links to {page}#{target}, which has no such heading"


def test_the_marks_are_counted_as_documented() -> None:
    """The rule of the module's docstring, on the forms the pages use."""
    text = "**Choice**: a. **Choices**: b. **Choices:** c. **Choice: walk is not...** (**Choice** of how) **Ch**"
    assert len(MARK.findall(text)) == 5

"""The key-lock diagram's legend and analysis as a reader meets them (issue 30): the unique sets in one line,
every multi-key and permanent set listed however many, the order of visits whole or saying how many more."""

from __future__ import annotations

import re

import pytest

from dedale.core.session import Session
from dedale.keylock.params import KeylockParams
from dedale.keylock.session import KeylockRules
from dedale.render.keylock_svg import render_svg, runs
from dedale.render.keylock_text import PAGE_VISITS, analysis_text, render_text
from dedale.systems import system


def made(**params: int) -> Session:  # type: ignore[type-arg]
    return Session(KeylockRules, KeylockParams(**params), 2)


def legend(session: Session) -> str:  # type: ignore[type-arg]
    picture = render_svg(session.rules.diagram, session.rules.analysis)
    return picture[picture.index('<g id="keylock-legend"'):]


def test_runs() -> None:
    assert runs([1, 2, 3, 5, 7, 8]) == "1–3, 5, 7–8"
    assert runs([4]) == "4" and runs([]) == ""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_unique_sets_share_one_line_and_every_other_set_has_its_own(lang: str) -> None:
    session = made(unique=45, multi=8, permanent=6)
    sets = session.rules.diagram.sets
    shown = render_svg(session.rules.diagram, session.rules.analysis, lang)
    text = render_text(session.rules.diagram, session.rules.analysis, lang)
    uniques = [s.id for s in sets if s.kind == "unique"]
    assert len(uniques) == 45
    line = "1–45 unique: one key, one lock each" if lang == "en" else "1–45 uniques\u00a0: une clé, un verrou chacun"
    for words in (shown, text):
        assert words.count(line) == 1
        assert not re.search(r"\d+ uniques?[ \u00a0]?: (one key|une clé), (one lock|un verrou)<", words)  # none alone
    for s in sets:
        if s.kind != "unique":  # all 14, past the 40 sets the legend used to stop at
            kind = {"multi": {"en": "multi", "fr": "multiple"}, "permanent": {"en": "permanent", "fr": "permanente"}}
            assert f">{s.id} {kind[s.kind][lang]}" in shown, s
            assert f"  {s.id} {kind[s.kind][lang]}" in text, s
    for set_id in uniques:  # each unique set's colour, numbered
        assert re.search(rf'font-size="12" text-anchor="middle" font-weight="bold" fill="#2b2118">{set_id}</text>',
                         legend(session))


def test_the_page_lists_some_visits_and_says_how_many_more() -> None:
    session = made(unique=30, multi=2, permanent=2)
    order = session.rules.analysis["walk"]["order"][1:]
    assert len(order) > PAGE_VISITS
    page = system("keylock").details(session, "en")  # type: ignore[misc]
    visits = next(line for line in page.splitlines() if line.startswith("Visits in order: "))
    assert visits.endswith(f" … and {len(order) - PAGE_VISITS} more")
    assert visits.count("#") == PAGE_VISITS
    whole = next(line for line in analysis_text(session.rules.diagram, session.rules.analysis).splitlines()
                 if line.startswith("Visits in order: "))
    assert whole.count("#") == len(order) and "more" not in whole
    small = made(unique=3, multi=1, permanent=1)
    page = system("keylock").details(small, "en")  # type: ignore[misc]
    assert "more" not in page  # a short walk is whole


def test_the_french_diagram_spaces_its_colons_and_semicolons() -> None:
    from test_hexcrawl_render import french_gaps

    session = made(unique=6, multi=3, permanent=2)
    picture = render_svg(session.rules.diagram, session.rules.analysis, "fr")
    text = render_text(session.rules.diagram, session.rules.analysis, "fr")
    assert "\u00a0: " in picture and "\u00a0; " in picture  # a multi-key set's line has both
    for shown in (picture, text, system("keylock").details(session, "fr")):  # type: ignore[misc]
        assert not french_gaps(shown), french_gaps(shown)[:3]

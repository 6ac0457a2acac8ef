"""The skirmish in words, English and French: log lines a player reads (moves by distance and way, never
coordinates; counts in the right number, never "(s)"; names inside a sentence with their article in lower
case, French "du" and "d'"), Extras of one name told apart everywhere, move options that say how far, and
documents of version 1 (moves said by coordinates) still loading."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dedale
from dedale.core.logtext import describe
from dedale.core.session import Session
from dedale.i18n import t
from dedale.zombstone.skirmish.session import SkirmishRules, SkirmishSession

DATA = Path(__file__).parent / "data" / "zombstone"
COORDINATES = re.compile(r"\(-?\d+(?:[.,]\d+)?[,;] -?\d")  # (19.1189, 16.4402), not "(3,6 pouces)"
GAMES = [("ok_corral", seed) for seed in range(4)] + [("high_noon", seed) for seed in range(3)]


def played(scenario: str, seed: int) -> SkirmishSession:
    session = dedale.play("zombstone", seed=seed, scenario=scenario, side=None)
    session.run_autopilot()
    return session


@pytest.mark.parametrize(("scenario", "seed"), GAMES)
def test_every_log_line_is_in_words(scenario: str, seed: int) -> None:
    session = played(scenario, seed)
    for lang, inch in (("en", "inch"), ("fr", "pouce")):
        lines = [describe(session.rules.log_entry(entry), lang) for entry in session.log]  # as it is shown
        for line in lines:
            assert not COORDINATES.search(line), line
            assert "(s)" not in line and "'s roll" not in line and "'s reroll" not in line, line
            named = line.replace("de La Nouvelle-Orléans", "")  # a place whose name takes its article
            assert not re.search(r"[a-z,:;] (The|Le|La|Les) [A-Z]", named), line  # an article inside a sentence
            assert "{" not in line, line  # every placeholder filled
        moves = [line for line in lines if line.startswith("· ") and (" moves " in line or " se déplace " in line)]
        assert moves and all(re.search(rf"\d+(?:[.,]\d)? {inch}", line) for line in moves)


def test_the_cajun_rolls_in_both_languages() -> None:
    session = played("ok_corral", 1)
    english = [describe(entry, "en") for entry in session.log]
    french = [describe(entry, "fr") for entry in session.log]
    assert any(line.startswith("The Cajun from New Orleans rolls: ") for line in english)
    assert any(line.startswith("Le jet du Cajun de La Nouvelle-Orléans\u00a0: ") for line in french)
    assert any("wins: the Cajun from New Orleans loses " in line for line in english)


def test_extras_of_one_name_are_told_apart_in_the_log_and_the_choices() -> None:
    session = dedale.play("zombstone", seed=1, scenario="ok_corral", side="lawmen")
    labels: list[str] = []
    while not session.is_over and len(session.events) < 40:
        if session.rules.ask.kind == "activate":
            labels = [choice.label("en") for choice in session.choices()]
            assert len(set(labels)) == len(labels)
            if any("Deputy" in label for label in labels):
                break
        session.auto_step()
    assert "Activate Deputy 1" in labels or "Activate Deputy 2" in labels
    assert "Activate Deputy" not in labels
    lines = [describe(entry, "en") for entry in session.log]
    assert not any(re.search(r"Deputy(?! \d)", line) for line in lines)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_move_options_say_how_far(lang: str) -> None:
    session = dedale.play("zombstone", seed=1, scenario="ok_corral", side="lawmen")
    while not (session.rules.ask.kind == "action" and any(c.id.startswith("move:") for c in session.choices())):
        session.auto_step()
    moves = [choice.label(lang) for choice in session.choices() if choice.id.startswith("move:")]
    inch = "inch" if lang == "en" else "pouce"
    assert len(moves) >= 8 and all(re.search(rf"\d+(?:[.,]\d)? {inch}", label) for label in moves), moves
    east = "Move 4 inches east" if lang == "en" else "Se déplacer plein est (4 pouces)"  # a deputy stands north
    assert east in moves


def test_counts_take_the_number_of_their_language() -> None:
    assert t("skirmish.ticked", "en", figure="Ike", points=1, left=2) == "Ike ticks 1 cartridge, 2 left"
    assert t("skirmish.ticked", "en", figure="Ike", points=3, left=0) == "Ike ticks 3 cartridges, 0 left"
    assert t("skirmish.ticked", "fr", figure="Ike", points=1, left=2) == "Ike coche 1 cartouche, il en reste 2"
    assert t("skirmish.zombie_counts", "en", points=0) == "no point counts"
    assert t("skirmish.zombie_counts", "fr", points=0) == "aucun point ne compte"
    assert t("skirmish.option.move", "fr", way={"t": "dir.E"}, inches=1.5) == "Se déplacer plein est (1,5 pouce)"
    assert t("skirmish.option.move", "en", way={"t": "dir.E"}, inches=1.5) == "Move 1.5 inches east"


@given(st.integers(min_value=0, max_value=10_000))
def test_a_count_is_singular_exactly_where_its_language_says(count: int) -> None:
    english = t("skirmish.hit", "en", winner="A", loser="B", damage=count)
    french = t("skirmish.hit", "fr", winner="A", loser="B", damage=count)
    assert english.endswith(f"{count} cartridge" if count == 1 else f"{count} cartridges")
    assert french.endswith(f"{count} cartouche" if count < 2 else f"{count} cartouches")


def test_a_version_1_document_opens_as_saved_and_its_log_reads() -> None:
    """A version-1 game was played by the AI before issue 32, which no longer is: it opens archived, as it was
    saved. Its log keeps the words of then: a move said by coordinates reads in today's words without them,
    never as a raw message."""
    old = json.loads((DATA / "version1.json").read_text(encoding="utf-8"))
    assert old["version"] == 1 and any(entry.get("args", {}).get("x") for entry in old["log"])
    session = Session.opened(SkirmishRules, old)
    assert session.archived is not None and session.to_json() == old
    opened = dedale.load(old)
    assert opened.to_json() == old
    with pytest.raises(dedale.DedaleError, match="cannot be continued"):
        opened.play()
    lines = [describe(entry, lang) for entry in old["log"] for lang in ("en", "fr")]
    assert lines and not [line for line in lines if "{" in line or "}" in line]
    moved = [describe(entry, "en") for entry in old["log"] if entry.get("note") == "skirmish.moved"]
    assert moved and all(line.startswith("· ") and " moves " in line for line in moved)

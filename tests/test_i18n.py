"""English and French: the catalogues match, and every message key the code uses exists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from dedale import i18n
from dedale.i18n import LANGUAGES, _flatten, catalogue, data_word, register_labels, say, t

SRC = Path(__file__).parents[1] / "src" / "dedale"
KEY = re.compile(
    r'''(?:\bt\(|\bword\(|DedaleError\(|\.note\(|\.decide\(|\.fail\(\s*[^,]+,|say\()\s*f?"([a-z_]+\.[a-z_.-]+)"''')
PLACEHOLDER = re.compile(r"{(\w+)(?::[^{}]*)?}")
PURPOSE = re.compile(
    r'''(?:roll|chance|pick|tables\.roll|roll_each|roll_contents)\([^)]*?"((?:crawler|paper|hexcrawl|autopilot)\.[a-z_.]+)"''')


def test_the_catalogues_have_the_same_keys_and_placeholders() -> None:
    en, fr = catalogue("en"), catalogue("fr")
    assert set(en) == set(fr)
    for key in en:  # a placeholder may carry a format spec (`{n:cartridge|cartridges}`, `{name:mid}`)
        assert set(PLACEHOLDER.findall(en[key])) == set(PLACEHOLDER.findall(fr[key])), key


def test_every_key_the_code_uses_is_in_the_catalogues() -> None:
    en = catalogue("en")
    used = set()
    for path in SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(KEY.findall(text)) | set(PURPOSE.findall(text))
    assert len(used) > 60
    missing = sorted(key for key in used if key not in en and not key.endswith("_"))
    assert not missing


def test_the_catalogues_are_valid_toml() -> None:
    for lang in ("en", "fr"):
        assert _flatten(tomllib.loads((SRC / "locales" / f"{lang}.toml").read_text(encoding="utf-8")))


def test_unknown_keys_and_languages_fall_back() -> None:
    assert t("dir.N", "fr") == "nord" and t("dir.N", "de") == "north" and t("no.such.key") == "no.such.key"


def _keys_of(entry: dict) -> set[str]:
    """The message keys a log entry is shown with."""
    keys = {entry[field] for field in ("for", "note") if field in entry}
    if isinstance(entry.get("decided"), dict):
        keys.add(entry["decided"]["key"])
    keys |= {value["t"] for value in entry.get("args", {}).values() if isinstance(value, dict) and "t" in value}
    return keys


def test_every_log_entry_of_every_system_reads_as_words_in_both_languages() -> None:
    from dedale.core.session import Session
    from dedale.systems import names, system

    en, fr = catalogue("en"), catalogue("fr")
    seen: set[str] = set()
    for name in names():
        rules = system(name).rules
        for seed in range(6):
            session = Session(rules, rules.params_from_json({}), seed)
            session.run_autopilot()
            for entry in session.log:
                seen |= _keys_of(session.rules.log_entry(entry))
    missing = sorted(key for key in seen if key not in en or key not in fr)
    assert len(seen) > 40 and not missing


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_hedges_its_number_with_brackets(lang: str) -> None:
    """"3 exit(s)" reads like a form: every count is worded in its number (`{n:exit|exits}`)."""
    hedged = {key: text for key, text in catalogue(lang).items() if re.search(r"\w\((s|x|e|es)\)", text)}
    assert not hedged


def test_counts_are_worded_in_their_number() -> None:
    assert t("crawler.zone_rooms", "en", rooms=1) == "1 room there"
    assert t("crawler.zone_rooms", "en", rooms=3) == "3 rooms there"
    assert t("paper.exits_are", "fr", exits=0) == "0 sortie en plus de la porte d'entrée"
    assert t("paper.exits_are", "fr", exits=2) == "2 sorties en plus de la porte d'entrée"


def test_a_data_word_is_worded_by_the_labels_its_system_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The words know no system: a system registers how its shipped data is named, and a word of a source
    nobody registered, or of an item it does not have, is its id."""
    monkeypatch.setattr(i18n, "_LABELS", dict(i18n._LABELS))  # the registration lasts this test only
    assert say(data_word("coin", "side", "heads"), "fr") == "heads"
    register_labels("coin", lambda source, kind, item: {"en": "Heads", "fr": "Pile"} if item == "heads" else None)
    heads = data_word("coin", "side", "heads")
    assert say(heads, "fr") == "Pile" and say(heads) == "Heads"
    assert say(data_word("coin", "side", "edge"), "fr") == "edge"

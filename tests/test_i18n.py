"""English and French: the catalogues match, and every message key the code uses exists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from dedale.i18n import _flatten, catalogue, t

SRC = Path(__file__).parents[1] / "src" / "dedale"
KEY = re.compile(
    r'''(?:\bt\(|\bword\(|DedaleError\(|\.note\(|\.decide\(|\.fail\(\s*[^,]+,|say\()\s*f?"([a-z_]+\.[a-z_.-]+)"''')
PURPOSE = re.compile(
    r'''(?:roll|chance|pick|tables\.roll|roll_each|roll_contents)\([^)]*?"((?:crawler|paper|hexcrawl|autopilot)\.[a-z_.]+)"''')


def test_the_catalogues_have_the_same_keys_and_placeholders() -> None:
    en, fr = catalogue("en"), catalogue("fr")
    assert set(en) == set(fr)
    for key in en:
        assert set(re.findall(r"{(\w+)}", en[key])) == set(re.findall(r"{(\w+)}", fr[key])), key


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

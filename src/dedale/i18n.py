"""Message catalogues in English and French (`locales/*.toml`), looked up by dotted key."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "fr")


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[prefix + key] = str(value)
    return flat


@cache
def catalogue(lang: str) -> dict[str, str]:
    text = resources.files("dedale.locales").joinpath(f"{lang}.toml").read_text(encoding="utf-8")
    return _flatten(tomllib.loads(text))


def t(key: str, lang: str = "en", **args: Any) -> str:
    """The message `key` in `lang` (falling back to English, then to the key itself), formatted. An
    argument given as `word(key)` is itself translated: logs keep words as keys, readable in any language."""
    template = catalogue(lang).get(key) if lang in LANGUAGES else None
    if template is None:
        template = catalogue("en").get(key, key)
    for name, value in args.items():
        if isinstance(value, dict) and "t" in value:
            args[name] = t(value["t"], lang)
    try:
        return template.format(**args)
    except (KeyError, IndexError, ValueError):
        return template


def word(key: str) -> dict[str, str]:
    """A message argument to translate when the message is shown (see `t`)."""
    return {"t": key}


def check_lang(lang: str) -> str:
    from dedale.core.errors import DedaleError

    if lang not in LANGUAGES:
        raise DedaleError("error.lang", value=lang, accepted=", ".join(LANGUAGES))
    return lang

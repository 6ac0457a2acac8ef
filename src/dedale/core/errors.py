"""The one exception a user can cause, carrying a translatable message."""

from __future__ import annotations

from typing import Any

from dedale.i18n import LANGUAGES, say, word


class DedaleError(Exception):
    """Bad input: an impossible parameter, a malformed file, an illegal choice.

    It holds a message key and its arguments rather than text, so each face (CLI, web) shows it in the
    user's language. Every face turns it into one line (exit code 2, HTTP 4xx), never a traceback.

    >>> error = DedaleError("error.range", param="radius", value=2000, low=0, high=1000)
    >>> error.key
    'error.range'
    >>> error.message("fr")
    'radius\xa0: 2000 est hors limites\xa0; un nombre entier de 0 à 1000'
    """

    def __init__(self, key: str, **args: Any) -> None:
        super().__init__(key)
        self.key = key
        self.args_ = args

    def message(self, lang: str = "en") -> str:
        return say(self.as_word(), lang)

    def as_word(self) -> dict[str, Any]:
        """The message as a word (`i18n.word`), for a message that quotes this one in any language."""
        return word(self.key, **{name: _short(value) for name, value in self.args_.items()})

    def __str__(self) -> str:
        return self.message()


def check_lang(lang: str) -> str:
    """`lang` if the catalogues have it, else a DedaleError naming those they have."""
    if lang not in LANGUAGES:
        raise DedaleError("error.lang", value=lang, accepted=", ".join(LANGUAGES))
    return lang


def _short(value: Any) -> Any:
    """What the user gave, shortened when it is long (a message quotes it; it must stay one line)."""
    if isinstance(value, str) and len(value) > 200:
        return f"{value[:80]}…{value[-40:]} ({len(value)} characters)"
    return value

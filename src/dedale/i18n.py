"""Message catalogues in English and French (`locales/*.toml`), looked up by dotted key, and the words that
documents keep instead of text.

A document never holds text in a language: where a face will show words, it keeps a *word*, worded only
when shown (`say`), in whatever language the reader asks for:

- `{"t": key, "args": {...}}`: a message of the catalogues (`word`); its arguments may be words too;
- `{"data": [source, kind, id]}`: the label of an item of the shipped data, a table row or a profile
  (`data_word`), looked up in the shipped files by id;
- `{"l": label}`: a player's own label, from their table or data files, kept as they gave it (`given`): it
  does not depend on the language shown, and has only the translations they wrote.
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "fr")
Word = dict[str, Any]
# A source's shipped labels: (source, kind, id) -> the labels by language, None when it has no such item.
Labels = Callable[[str, str, str], dict[str, str] | None]
# Registered by each system (`register_labels`): the words know no system.
_LABELS: dict[str, Labels] = {}


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


def add_messages(lang: str, messages: Mapping[str, Any]) -> None:
    """A system's own messages from outside Dédale (nested as in locales/*.toml), beside the catalogue's,
    whose keys stay as they are."""
    if lang in LANGUAGES:
        table = catalogue(lang)
        for key, text in _flatten(dict(messages)).items():
            table.setdefault(key, text)


def t(key: str, lang: str = "en", /, **args: Any) -> str:
    """The message `key` in `lang` (falling back to English, then to the key itself), formatted. An
    argument given as a word (`word`, `data_word`, `given`), or a list of words, is itself worded in `lang`."""
    template = catalogue(lang).get(key) if lang in LANGUAGES else None
    if template is None:
        template = catalogue("en").get(key, key)
    for name, value in args.items():
        if is_word(value):
            args[name] = say(value, lang)
        elif isinstance(value, list) and value and all(map(is_word, value)):  # words in a row
            args[name] = _say_all(value, lang)
    try:
        return _grammar(lang).format(template, **args) if _has_specs(template) else template.format(**args)
    except (KeyError, IndexError, ValueError):  # a message kept by an older document, with other arguments
        try:
            return _grammar(lang).vformat(template, (), _Unsaid(args))
        except (IndexError, ValueError):
            return template


class _Unsaid(dict[str, Any]):
    """A message's arguments, those it does not have said as an ellipsis (never its `{placeholder}`)."""

    def __missing__(self, key: str) -> str:
        return UNSAID


UNSAID = "…"


# A name's leading article, lowered inside a sentence ("shoots at the Preacher"), and after French "de"
# contracted ("du fossoyeur").
_ARTICLES = ("The ", "Le ", "La ", "Les ", "L'")
_AFTER_DE = {"Le ": "du ", "Les ": "des ", "La ": "de la ", "L'": "de l'"}


class _Grammar(string.Formatter):
    """The format specs the catalogues use besides Python's own:

    - `{n:cartridge|cartridges}`: a count and its noun in the language's number ("1 cartridge", "2 cartridges";
      French takes the singular below 2: "1,5 pouce"), decimals written as the language writes them; with a
      form for none first (`{n:no cover|# piece|# pieces}`), and `#` where the number goes if it is not first;
    - `{name:mid}`: a name inside a sentence, its leading article in lower case ("the Cajun from New Orleans");
    - `{name:de}`: (French) a name after "de", the article contracted ("du fossoyeur", "d'Ike Clanton");
    - `{side:dir}`: a compass letter a log keeps ("W") in words ("west", French "ouest", never "mur W")."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, spec: str) -> str:
        if value is UNSAID:
            return UNSAID
        if "|" in spec and isinstance(value, int | float):
            return self.count(value, spec.split("|"))
        if spec == "mid":
            return _mid(str(value))
        if spec == "de":
            return _de(str(value))
        if spec == "dir":
            return t(f"dir.{value}", self.lang)
        return str(super().format_field(value, spec))

    def count(self, value: float, forms: list[str]) -> str:
        """`one|many`, or `none|one|many`: the form for the value, its `#` the number (or the number before it)."""
        plural = value >= 2 if self.lang == "fr" else value != 1
        form = forms[0] if value == 0 and len(forms) > 2 else forms[-1] if plural else forms[-2]
        number = self.number(value)
        return form.replace("#", number) if "#" in "".join(forms) else f"{number} {form}"

    def number(self, value: float) -> str:
        shown = f"{value:g}"
        return shown.replace(".", ",") if self.lang == "fr" else shown


@lru_cache(maxsize=4096)
def _has_specs(template: str) -> bool:
    """Whether a message has format specs (`{n:one|many}`): only those go through the slower formatter."""
    return _SPEC.search(template) is not None


_SPEC = re.compile(r"\{[^{}]*:[^{}]*\}")


@cache
def _grammar(lang: str) -> _Grammar:
    return _Grammar(lang)


def _mid(name: str) -> str:
    article = next((a for a in _ARTICLES if name.startswith(a)), None)
    return name if article is None else article.lower() + name[len(article):]


def _de(name: str) -> str:
    article = next((a for a in _AFTER_DE if name.startswith(a)), None)
    if article is not None:
        return _AFTER_DE[article] + name[len(article):]
    return ("d'" if name[:1].lower() in "aeiouyhéèêàâîôû" else "de ") + name


def _say_all(words: list[Word], lang: str) -> str:  # apart from `t`: a comprehension there costs each call a cell
    return ", ".join(say(each, lang) for each in words)


def word(key: str, /, **args: Any) -> Word:
    """A message to word when it is shown (see `t`)."""
    return {"t": key, "args": args} if args else {"t": key}


def data_word(source: str, kind: str, item: str) -> Word:
    """The label of a shipped data item (`source` "crawler", `kind` a table, `item` a row id), looked up when
    shown."""
    return {"data": [source, kind, item]}


def given(label: str | dict[str, str]) -> Word:
    """A player's own label, as their file gives it (one text, or a text by language)."""
    return {"l": label}


def is_word(value: Any) -> bool:
    return isinstance(value, dict) and ("t" in value or "data" in value or "l" in value)


def say(value: Any, lang: str = "en") -> str:
    """A word (or a plain value: a number, a card, a proper name) in `lang`."""
    if not is_word(value):
        return str(value)
    if "t" in value:
        return t(value["t"], lang, **value.get("args", {}))
    if "l" in value:
        return pick(value["l"], lang)
    source, kind, item = value["data"]
    lookup = _LABELS.get(source)
    labels = None if lookup is None else lookup(source, kind, item)
    return item if labels is None else pick(labels, lang)


def register_labels(source: str, labels: Labels) -> None:
    """How the words of `data_word(source, ...)` find their labels: each system registers its own shipped data
    when its package is imported (the tables' systems their TOML tables, the skirmish its catalogue)."""
    _LABELS[source] = labels


def pick(labels: str | dict[str, str], lang: str) -> str:
    """A label in `lang`, else in English, else the first there is (a malformed one, from a document, as text)."""
    if not isinstance(labels, dict):
        return str(labels)
    return str(labels.get(lang) or labels.get("en") or next(iter(labels.values()), ""))

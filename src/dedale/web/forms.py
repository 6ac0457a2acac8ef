"""Each system's parameters as a web form and as the API's `params`, derived from their declarations
(`core.params`): the web's bounds are tighter than the command line's, so that no request can exhaust the
machine, and no folder of the server's disk may be named."""

from __future__ import annotations

from typing import Any

from dedale.core.errors import DedaleError
from dedale.core.params import Field, fields_of
from dedale.i18n import say, t
from dedale.systems import names, system


def form(system_name: str, lang: str) -> list[dict[str, Any]]:
    """The fields a page's form shows (and `/api/systems` lists): name, kind, default, bounds, words."""
    return [_shown(field, lang) for field in fields_of(system(system_name).params)
            if field.spec.web and field.name != "opponent"]  # who plays the other side: the form's "Players"


def two_sided(system_name: str) -> bool:
    """Whether two people may play the system against each other (its parameters name the opponent)."""
    return any(field.name == "opponent" for field in fields_of(system(system_name).params))


def _shown(field: Field, lang: str) -> dict[str, Any]:
    kind = "choice" if field.kind == "word" or (field.words() and field.kind == "str") else field.kind
    plain = kind in ("bool", "int", "float")
    return {"name": field.option, "kind": kind, "default": field.default if plain else field.text(field.default),
            "low": field.spec.low, "high": field.high(web=True),
            "options": list(field.words()), "label": field.label(lang), "help": field.help(lang),
            "first": field.spec.first,
            "option_labels": {value: say(field.label_of(value), lang) for value in field.words()},
            "optional": field.default is None or field.kind == "text"}  # left empty, it takes its default


def filled(params: Any) -> dict[str, str]:
    """A form's fields filled with these parameters (to make another with the same ones)."""
    return {field.option: field.text(getattr(params, field.name)) for field in fields_of(type(params))
            if field.spec.web}


def worded(params: Any, lang: str) -> list[tuple[str, str]]:
    """Parameters as a page tells them (a permalink's): each one's words and its value in words, as the form
    offers it (a scenario's name, not its key; "yes", not True; the rules' default, not None)."""
    return [(field.help(lang), _value_in_words(field, getattr(params, field.name), lang))
            for field in fields_of(type(params)) if field.spec.web]


def _value_in_words(field: Field, value: Any, lang: str) -> str:
    if value is None:
        return t("web.permalink_default" if field.default is None else "web.permalink_none", lang)
    if isinstance(value, bool):
        return t("web.permalink_yes" if value else "web.permalink_no", lang)
    if isinstance(value, str) and value in field.words():
        return say(field.label_of(value), lang)
    return field.text(value)


def params_for(system_name: str, values: dict[str, Any], strict: bool = False) -> Any:
    """Parameters from a form or an API body, by the form's names; with `strict`, an unknown name is refused."""
    if system_name not in names():
        raise DedaleError("error.system", value=system_name, accepted=", ".join(names()))
    return system(system_name).params.from_options(values, web=True, strict=strict)

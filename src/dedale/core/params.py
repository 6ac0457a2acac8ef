"""One declaration per parameter. A system's parameters are a frozen dataclass whose fields are declared with
`param(...)`: the default, the help in English and French, the bounds, the accepted words, a tighter bound
for the web, and how a user types the value when it is not a plain number or word. Everything else is
derived from that one declaration: validation, the JSON, the JSON Schema, the CLI's options, the web form
and the API's checks (see docs/architecture.md, "Adding a parameter").

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Example(Declared):
...     rooms: int = param(6, en="How many rooms.", fr="Combien de salles.", low=1, high=99)
>>> Example(rooms=120)
Traceback (most recent call last):
dedale.core.errors.DedaleError: rooms: 120 is out of range; use a whole number from 1 to 99
>>> Example.from_json({"rooms": 7}).to_json()
{'rooms': 7}
>>> Example.json_schema()["properties"]["rooms"]
{'type': 'integer', 'minimum': 1, 'maximum': 99, 'default': 6, 'description': 'How many rooms.'}
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from dedale.core.errors import DedaleError
from dedale.i18n import Word, word

Words = tuple[str, ...] | Callable[[], tuple[str, ...]]


@dataclass(frozen=True)
class Param:
    """What a parameter's declaration says besides its default."""

    en: str  # the help, in English and in French: CLI help, web form help, JSON Schema description
    fr: str
    option: str | None = None  # its name on the CLI (--option) and in forms; default: the field's name
    low: float | None = None
    high: float | None = None
    web_high: float | None = None  # the web's tighter bound, so that no request can exhaust the machine
    choices: Words | None = None  # the accepted words
    menu: Words | None = None  # words a form offers without refusing others (a player's data may add some)
    # How a form shows each word: a message to word in the page's language (default: `param.NAME.WORD` in the
    # catalogues; a word naming a data item, its label in the data)
    word_label: Callable[[str], Word] | None = None
    parse: Callable[[str], Any] | None = None  # text a user typed -> the value, for values that are not plain
    show: Callable[[Any], str] | None = None  # the value -> the text that parses back to it
    web: bool = True  # False: not offered on the web (a folder on the server's disk)
    label: tuple[str, str] | None = None  # a form's label, a few words in English and in French (the help below)
    first: bool = False  # one of the few a form shows first (the others under "More options": rule variants)
    # True: left out of a document's params at its default (a parameter added later, so that the documents
    # made without it stay the same byte for byte)
    omit_default: bool = False


def param(default: Any, *, en: str, fr: str, **declared: Any) -> Any:
    """A dataclass field with its declaration (see `Param` for what can be declared)."""
    return dataclasses.field(default=default, metadata={"param": Param(en, fr, **declared)})


@dataclass(frozen=True)
class Field:
    """A declared parameter as the faces see it: its field name (its JSON key), its kind and declaration."""

    name: str
    kind: str  # "int", "float", "bool", "word" (one of `choices`), "text" (parsed), "str"
    default: Any
    optional: bool  # None is accepted (it means "the rules' default")
    spec: Param
    shape: str = "scalar"  # or "pair" (two whole numbers, a JSON list) or "table" (words to whole numbers)

    @property
    def option(self) -> str:
        """The name on the CLI (with dashes) and in forms and the API (with underscores)."""
        return self.spec.option or self.name

    @property
    def flag(self) -> str:
        return "--" + self.option.replace("_", "-")

    def help(self, lang: str) -> str:
        return self.spec.fr if lang == "fr" else self.spec.en

    def label(self, lang: str) -> str:
        """Its form's label: the declared words, else its option's name."""
        if self.spec.label is None:
            return self.option.replace("_", " ").capitalize()
        return self.spec.label[1] if lang == "fr" else self.spec.label[0]

    def words(self) -> tuple[str, ...]:
        """The accepted words, or the words a form offers."""
        choices = self.spec.choices or self.spec.menu
        return () if choices is None else choices() if callable(choices) else choices

    def label_of(self, value: str) -> Word:
        """How a form shows one of the words, in the page's language."""
        return self.spec.word_label(value) if self.spec.word_label else word(f"param.{self.name}.{value}")

    def high(self, web: bool = False) -> float | None:
        return self.spec.web_high if web and self.spec.web_high is not None else self.spec.high

    def text(self, value: Any) -> str:
        """The value as a user would type it ("" for None)."""
        if value is None:
            return ""
        return self.spec.show(value) if self.spec.show else str(value).lower() if isinstance(value, bool) \
            else str(value)

    def read(self, raw: Any) -> Any:
        """A value typed by a user (CLI text, a form field, an API value) -> the value, or a clear error."""
        if raw is None or raw == "":
            return None if self.optional else self.default
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if str(raw).lower() in ("1", "true", "on", "yes", "0", "false", "off", "no"):
                return str(raw).lower() in ("1", "true", "on", "yes")
            raise DedaleError("error.one_of", param=self.option, value=raw, accepted="true, false")
        if self.kind in ("int", "float") and not isinstance(raw, bool):
            from dedale.core.numbers import whole

            number = raw if isinstance(raw, int | float) else whole(str(raw).strip(), signed=True)
            if number is None and self.kind == "float":
                number = _float(str(raw))
            if isinstance(number, float) and self.kind == "int" and number.is_integer():
                number = int(number)  # JSON has one kind of number: 5.0 is 5
            if isinstance(number, int | float):
                return float(number) if self.kind == "float" else number
            raise self.out_of_range(raw)
        if self.kind == "text" and self.spec.parse is not None:
            return self.spec.parse(str(raw))
        if self.kind == "word" and self.optional and str(raw).strip().lower() == "none":
            return None  # an optional word's None, as a user types it (`--side none`: two AIs play)
        return str(raw).strip()

    def json_type(self) -> str:
        """The JSON type a body (the API) gives this parameter in: a form's text is parsed by `read`, but in
        JSON true is not a number, nor "yes" true."""
        return "boolean" if self.kind == "bool" else "number" if self.kind in ("int", "float") else "string"

    def check(self, value: Any, web: bool = False) -> None:
        """`value` is of this parameter's type and within its bounds (the web's, with `web`)."""
        if value is None and self.optional:
            return
        if not self._typed(value):
            raise self.out_of_range(value) if self.kind in ("int", "float") else \
                DedaleError("error.param_type", param=self.option, value=value)
        low, high = self.spec.low, self.high(web)
        if self.kind in ("int", "float") and ((low is not None and value < low) or (high is not None and value > high)):
            raise self.out_of_range(value, web)
        if self.kind == "word" and value not in self.words() and not (value is None and self.optional):
            raise DedaleError("error.one_of", param=self.option, value=value, accepted=", ".join(self.words()))

    def _typed(self, value: Any) -> bool:
        if self.shape == "pair":
            return isinstance(value, tuple) and len(value) == 2 and all(_whole(v) for v in value)
        if self.shape == "table":
            return isinstance(value, dict) and all(isinstance(k, str) and _whole(v) for k, v in value.items())
        if self.kind in ("int", "float"):  # a float NaN or infinite: no bound would hold it
            return _whole(value) or (self.kind == "float" and isinstance(value, float) and math.isfinite(value))
        return isinstance(value, bool if self.kind == "bool" else str)

    def out_of_range(self, value: Any, web: bool = False) -> DedaleError:
        low, high = _number(self.spec.low), _number(self.high(web))
        if high is None:
            return DedaleError("error.at_least", param=self.option, value=value, low=low)
        key = "error.range" if self.kind == "int" else "error.number_range"
        return DedaleError(key, param=self.option, value=value, low=low, high=high)

    def schema(self) -> dict[str, Any]:
        """This parameter's JSON Schema."""
        shape: dict[str, Any]
        if self.kind in ("int", "float"):
            shape = {"type": "integer" if self.kind == "int" else "number"}
            shape |= {k: _number(v) for k, v in (("minimum", self.spec.low), ("maximum", self.spec.high))
                      if v is not None}
        elif self.kind == "bool":
            shape = {"type": "boolean"}
        elif self.kind == "word":
            shape = {"enum": list(self.words())}
        elif self.shape == "pair":
            shape = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
        elif self.shape == "table":
            shape = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
        else:
            shape = {"type": "string"}
        if self.optional:
            shape = {"anyOf": [shape, {"type": "null"}]}
        return shape | {"default": _json_value(self.default), "description": self.spec.en}

    def form_schema(self) -> dict[str, Any]:
        """This parameter as a form or the API takes it, by its option name: its JSON type (the text a user
        types for the others), the web's bounds, its words; null for its default."""
        shape: dict[str, Any] = {"type": self.json_type()}
        if self.kind in ("int", "float"):
            shape = {"type": "integer" if self.kind == "int" else "number"}
            shape |= {k: _number(v) for k, v in (("minimum", self.spec.low), ("maximum", self.high(web=True)))
                      if v is not None}
        elif self.kind == "word" and self.spec.choices is not None:
            shape = {"enum": list(self.words())}
        return {"anyOf": [shape, {"type": "null"}], "description": self.spec.en}


class Declared:
    """The base of a system's parameters: validation, JSON and JSON Schema from the declarations. A class may
    add `check()` for rules between parameters (a page at least as wide as its starting room)."""

    system: ClassVar[str] = ""

    def __post_init__(self) -> None:
        for field in fields_of(type(self)):
            field.check(getattr(self, field.name))
        self.check()

    def check(self) -> None:
        """Rules between parameters; each field is already known to be in range."""

    def to_json(self) -> dict[str, Any]:
        return {field.name: _json_value(value) for field in fields_of(type(self))
                if (value := getattr(self, field.name)) != field.default or not field.spec.omit_default}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """Parameters from a document's `params` (a missing one takes its default, an unknown one is ignored:
        older documents may carry fields since dropped)."""
        if not isinstance(data, dict):
            raise DedaleError("error.bad_document", field="params")
        values = {}
        for field in fields_of(cls):
            if field.name in data:
                value = data[field.name]
                values[field.name] = tuple(value) if isinstance(value, list) and field.shape == "pair" else value
        try:
            return cls(**values)
        except DedaleError as error:
            if error.key == "error.param_type":
                raise DedaleError("error.bad_document", field=f"params.{error.args_['param']}") from None
            raise

    @classmethod
    def from_options(cls, values: dict[str, Any], web: bool = False, strict: bool = False) -> Self:
        """Parameters from what a user typed, by option name (CLI options, a form, the API's `params`); a
        missing one takes its default. With `strict`, an unknown name is refused (a misspelt parameter would
        otherwise silently take its default); with `web`, the web's bounds apply and no folder may be named."""
        offered = {field.option: field for field in fields_of(cls) if field.spec.web or not web}
        if strict and (unknown := sorted(set(values) - set(offered))):
            raise DedaleError("error.unknown_params", value=", ".join(unknown), system=cls.system,
                              accepted=", ".join(offered))
        typed = {field.name: field.read(values[option]) for option, field in offered.items()
                 if values.get(option) is not None}
        made = cls(**typed)
        if web:
            made.check_web()
        return made

    def check_web(self) -> None:
        """Within the web's bounds, and naming no folder of the server's disk (a document uploaded or a
        permalink is checked too, not only a form)."""
        for field in fields_of(type(self)):
            value = getattr(self, field.name)
            if not field.spec.web and value != field.default:
                raise DedaleError("error.web_data")
            field.check(value, web=True)

    @classmethod
    def form_schema(cls) -> dict[str, Any]:
        """The JSON Schema of the parameters a form or the API takes (`from_options(values, web=True,
        strict=True)`), by option name."""
        offered = [field for field in fields_of(cls) if field.spec.web]
        return {"type": "object", "properties": {field.option: field.form_schema() for field in offered},
                "additionalProperties": False}

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        declared = fields_of(cls)
        return {"type": "object", "properties": {field.name: field.schema() for field in declared},
                "required": [field.name for field in declared if not field.spec.omit_default],
                "additionalProperties": False}


def fields_of(cls: type) -> tuple[Field, ...]:
    """The declared parameters of a parameters class, in order."""
    if cls not in _FIELDS:
        _FIELDS[cls] = _declared(cls)
    return _FIELDS[cls]


_FIELDS: dict[type, tuple[Field, ...]] = {}


def _declared(cls: type) -> tuple[Field, ...]:
    hints = typing.get_type_hints(cls)
    found = []
    for each in dataclasses.fields(cls):
        spec = each.metadata.get("param")
        if spec is None:
            continue
        hint = hints[each.name]
        args = typing.get_args(hint)
        optional = typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in args
        base = next(a for a in args if a is not type(None)) if optional else hint
        origin = typing.get_origin(base)
        shape = "pair" if origin is tuple else "table" if origin is dict else "scalar"
        kind = "text" if spec.parse else "word" if spec.choices else \
            {bool: "bool", int: "int", float: "float"}.get(base, "str")
        found.append(Field(each.name, kind, each.default, optional, spec, shape))
    return tuple(found)


def json_type(value: Any) -> str:
    """The JSON type of a value as `json` reads it."""
    return "null" if value is None else "boolean" if isinstance(value, bool) else \
        "number" if isinstance(value, int | float) else "string" if isinstance(value, str) else \
        "array" if isinstance(value, list) else "object"


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def tables_folder(text: str, system: str) -> str:
    """The player's tables for a system: FOLDER/SYSTEM/ when there is one (as `dedale tables export` writes
    them), else FOLDER itself."""
    import os

    return os.path.join(text, system) if os.path.isdir(os.path.join(text, system)) else text


def _json_value(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _number(value: float | None) -> float | int | None:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None

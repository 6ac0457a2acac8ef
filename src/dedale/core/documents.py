"""Documents declared once. A document's shape is a `Shape` (a msgspec Struct): its fields in the order the
document writes them, each with its type and, where a reader needs it, a description and bounds
(`Annotated[int, Meta(ge=0, description=...)]`). From that one declaration come:

- the codec: `dump` (a shape -> JSON values, in that order) and `load` (JSON values -> a shape, checked, closed
  to unknown fields, with a `DedaleError` naming the first field that is wrong);
- the JSON Schema: `document_schema` puts a system's result shapes into the envelope every document shares
  (format, version, seed, parameters, events, log), also declared here.

A field that a document leaves out when it has nothing to say defaults to `UNSET` (never written); a field
written as null is typed `... | None` and has no default, so that it is always written.

>>> class Door(Shape):
...     rooms: tuple[int | None, int]
...     secret: bool | UnsetType = UNSET
>>> dump(Door((None, 1)))
{'rooms': (None, 1)}
>>> load(Door, {"rooms": [1, 2], "hinges": 2})
Traceback (most recent call last):
dedale.core.errors.DedaleError: the document's '$.hinges' is missing or malformed
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Generic, Literal, TypeVar

import msgspec
from msgspec import UNSET, Meta, UnsetType

from dedale.core.errors import DedaleError
from dedale.core.seeds import MAX_SHORT_SEED

__all__ = [
    "UNSET",
    "DocumentKind",
    "Envelope",
    "Event",
    "LogEntry",
    "Meta",
    "Pending",
    "Shape",
    "UnsetType",
    "dump",
    "load",
    "schema_of",
]


class Shape(msgspec.Struct, forbid_unknown_fields=True):
    """A part of a document, declared once: its fields in the order the document writes them."""


R = TypeVar("R", bound=Shape)  # a result's shape


T = TypeVar("T")


def dump(shape: Any) -> Any:
    """A shape (or shapes in lists and maps) as JSON values, fields in their declared order."""
    return msgspec.to_builtins(shape)


def load(kind: type[T], data: Any) -> T:
    """`data` read as `kind` (a shape, or a type made of shapes), or a `DedaleError` naming where it is wrong:
    a missing or unknown field, or a value of the wrong type or out of its bounds."""
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as error:
        raise DedaleError("error.bad_document", field=_where(str(error))) from None


def load_result(kind: type[R], document: Any) -> R:
    """A document's result fields read as `kind` (`load`): the envelope's fields (seed, events, log...) left
    for the session to read."""
    if not isinstance(document, dict):
        raise DedaleError("error.bad_document", field="$")
    return load(kind, {name: document[name] for name in kind.__struct_fields__ if name in document})


def _where(message: str) -> str:
    """The JSON path a msgspec error names (a missing or unknown field: its path and name)."""
    named = re.search(r"field `([^`]+)`", message)
    at = re.search(r" - at `([^`]+)`$", message)
    path = at[1] if at else "$"
    return f"{path}.{named[1]}" if named else path


def schema_of(kind: Any) -> dict[str, Any]:
    """The JSON Schema of a shape (its parts under `$defs`), each object closed to unknown fields; a shape's
    docstring is its description, on one line."""
    made = msgspec.json.schema(kind)
    for part in made.get("$defs", {}).values():
        if "description" in part:
            part["description"] = " ".join(inspect.cleandoc(part["description"]).split())
    return made


# --- the envelope every document shares ------------------------------------------------------------------------
class Event(Shape, omit_defaults=True):
    """One decision, whoever made it, or one result entered at the table: what a replay applies again
    (`core.session`). A replay never asks a policy or an AI again: it applies the choice recorded, and draws
    again what the decision drew, from the same stream in the same place."""

    choice: Annotated[str, Meta(description="The id of the choice made")] | UnsetType = UNSET
    by: Annotated[str, Meta(description=(
        "Who decided, when no person did: an autopilot's policy, or the AI opponent of the seat (its name). "
        "Without a choice: a decision awaiting the dice it asked for at the table (the events after it)"))] | \
        UnsetType = UNSET
    seat: Annotated[Literal[0, 1], Meta(
        description="The seat that decided, in a game of two seats (two people, or a person and an AI)")] | \
        UnsetType = UNSET
    drew: Annotated[list[LogEntry], Meta(description=(
        "What the decision drew to decide (its rolls, as the log has them), drawn again by a replay"))] | \
        UnsetType = UNSET
    enter: Annotated[str | int, Meta(description="Table mode: the result entered")] | UnsetType = UNSET
    auto: Annotated[str, Meta(description=(
        "A document saved before decisions were events: an autopilot's policy, which its replay asks again"))] | \
        UnsetType = UNSET


# What a system's documents of the version that made every decision an event say of it (`DocumentKind.versions`)
DECISIONS_ARE_EVENTS = (
    "every decision is an event, with the seat that made it: an autopilot's or an AI's with the dice it rolled to "
    "decide (`by`, `drew`), which a replay applies without asking it again; a seed may be long (its text). A "
    "document of an earlier version opens: its replay asks today's policies for the decisions it left out, once, "
    "and one that no longer plays the same way is kept as saved")


# What every event is: a person's choice, a decision by a policy or an AI, a result entered, or (saved before
# decisions were events) an autopilot's step.
EVENT_KINDS = {"oneOf": [{"required": ["choice"], "not": {"anyOf": [{"required": [key]} for key in ("by", "auto",
                                                                                                   "enter")]}},
                         {"required": ["by"], "not": {"anyOf": [{"required": ["auto"]}, {"required": ["enter"]}]}},
                         {"required": ["auto"], "not": {"anyOf": [{"required": ["by"]}, {"required": ["enter"]}]}},
                         {"required": ["enter"], "not": {"anyOf": [{"required": [key]} for key in ("choice", "by",
                                                                                                   "auto")]}}],
               "dependentRequired": {"drew": ["by"]}}


class Pending(Shape):
    """Table mode: the result the session waits for."""

    kind: str
    for_: str = msgspec.field(name="for")
    roll: str
    options: list[str]


class LogEntry(Shape, omit_defaults=True):
    """One line of the log: a roll, a pick, a card drawn, a rule applied or a choice made. A system whose log
    says more declares its entries as a subclass (and their kinds: `log_kinds` of `document_schema`)."""

    roll: Annotated[str, Meta(description="The dice rolled (NdS+M)")] | UnsetType = UNSET
    dice: list[int] | UnsetType = UNSET
    faces: Annotated[list[str], Meta(description="Named dice faces rolled (poker dice)")] | UnsetType = UNSET
    total: float | UnsetType = UNSET
    for_: Annotated[str, Meta(description="What the roll, pick or draw was for: a message key")] | UnsetType = \
        msgspec.field(default=UNSET, name="for")
    args: Annotated[dict[str, Any], Meta(
        description='A message\'s arguments, by name (words are {"t": key} objects)',
        extra_json_schema={"additionalProperties": True})] | UnsetType = UNSET
    decided: Annotated[dict[str, Any], Meta(
        description="What the roll decided: a message key and its arguments",
        extra_json_schema={"required": ["key"], "properties": {"key": {"type": "string"}},
                           "additionalProperties": True})] | UnsetType = UNSET
    pick: Annotated[Any, Meta(description="What a weighted pick chose")] = UNSET
    weights: Annotated[dict[str, float], Meta(description="Each option's weight, by option")] | UnsetType = UNSET
    note: Annotated[str, Meta(description="A rule applied: a message key")] | UnsetType = UNSET
    draw: Annotated[str, Meta(description="A card drawn (or ?? for one the reader may not see)")] | UnsetType = \
        UNSET
    reshuffle: Literal[True] | UnsetType = UNSET
    cards: Annotated[int, Meta(ge=0, description="The cards in the pile after a reshuffle")] | UnsetType = UNSET
    choice: str | UnsetType = UNSET
    key: Annotated[str, Meta(description="The choice's words: a message key, worded with its args in the "
                                         "reader's language")] | UnsetType = UNSET
    by: Annotated[str, Meta(description="Who chose: the player, or the autopilot's policy")] | UnsetType = UNSET
    label: Annotated[str, Meta(description="A document saved before documents held no words: the choice's "
                                           "words")] | UnsetType = UNSET


# What every log entry is, by the fields it must have (a system may say otherwise: `document_schema`).
LOG_KINDS: tuple[dict[str, Any], ...] = (
    {"required": ["roll", "dice", "total", "for"]},
    {"required": ["roll", "faces", "for"]},
    {"required": ["choice", "by"], "oneOf": [{"required": ["key"]}, {"required": ["label"],
                                                                      "description": "Saved before documents "
                                                                                     "held no words"}]},
    {"required": ["note"]},
    {"required": ["pick", "weights", "for"]},
    {"required": ["draw", "for"]},
    {"required": ["reshuffle"]},
)

L = TypeVar("L", bound=LogEntry)
SECRET = "^[0-9a-f]{64}$"
_BASE32 = "[0-9A-HJKMNP-TV-Z]"  # Crockford's: no I, L, O or U
LONG_SEED = f"^({_BASE32}{{5}}-){{4}}{_BASE32}{{6}}$"  # as `seeds.seed_text` writes it


class Envelope(Shape, Generic[L]):
    """What every document has around its result (`Session.to_json`): what it is, how it was made, what
    happened. The result's own fields come between `over` and `events`."""

    format: str
    version: int
    generator: str
    seed: Annotated[int, Meta(ge=0, description="A short seed", extra_json_schema={
        "maximum": MAX_SHORT_SEED})] | Annotated[str, Meta(
        pattern=LONG_SEED, description="A long seed, as Dédale writes it (26 characters of Crockford's base 32)")] | \
        None
    params: dict[str, Any]
    events: list[Event]
    log: list[L]
    secret: Annotated[str, Meta(pattern=SECRET, description=(
        "A document saved before seeds were long may have a secret key (256 bits, hexadecimal): every result "
        "was drawn from the seed and this key (docs/secrets.md). Never in a view that hides something."))] | \
        UnsetType = UNSET
    table_dice: Annotated[bool, Meta(
        description="Table mode: the dice were rolled at the table and entered.")] | UnsetType = UNSET
    over: bool | UnsetType = UNSET
    pending: Pending | UnsetType = UNSET
    hidden: Annotated[bool, Meta(description=(
        "A view for reading and drawing (a party's, or a seat's while something is hidden from it), which "
        "cannot be continued"))] | UnsetType = UNSET
    view: Annotated[Literal["party", "player"], Meta(description=(
        "Whose view this is: the party's shows what the party has discovered, without the GM's key "
        "(\"player\": its name before)"))] | UnsetType = UNSET
    lang: Annotated[str, Meta(description=(
        "A document saved before documents held no words: the language its words are in (it loads, checked "
        "without them)"))] | UnsetType = UNSET


@dataclass(frozen=True)
class DocumentKind:
    """A system's documents: its `result` shape (the fields between the envelope's `over` and `events`), what
    they are (`title`, `description`), the versions that load (each with what changed), and the log's entries
    (`log_entry`, each of one of `log_kinds`). `required` names the envelope's fields its documents always
    have besides those every document has; `envelope` says more of some (a description of `seed`, say)."""

    result: type[Shape]
    title: str
    description: str
    versions: dict[int, str]
    log_entry: type[LogEntry] = LogEntry
    log_kinds: tuple[dict[str, Any], ...] = LOG_KINDS
    required: tuple[str, ...] = ()
    envelope: dict[str, dict[str, Any]] = field(default_factory=dict)

    def schema(self, system: str, params: dict[str, Any]) -> dict[str, Any]:
        """The JSON Schema of the documents of `system`, whose parameters' schema is `params` (from their
        declarations)."""
        made = schema_of(Envelope[self.log_entry])  # type: ignore[name-defined]
        defs: dict[str, Any] = made["$defs"]
        outer = defs.pop(next(name for name in defs if name.startswith("Envelope")))
        inner = schema_of(self.result)
        inner_defs: dict[str, Any] = inner["$defs"]
        body = inner_defs.pop(self.result.__name__)
        defs.update(inner_defs)
        defs[self.log_entry.__name__]["anyOf"] = list(self.log_kinds)
        properties = {**outer["properties"], **body["properties"]}
        properties["format"] = {"const": f"dedale/{system}"}
        properties["generator"] = {"const": system}
        properties["version"] = {"enum": sorted(self.versions), "description": "; ".join(
            f"{version}: {why}" for version, why in sorted(self.versions.items()))}
        properties["params"] = params
        properties["events"]["items"] = {**properties["events"]["items"], **EVENT_KINDS}
        for name, more in self.envelope.items():
            properties[name] = {**properties[name], **more}
        return {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": f"https://dedale.example/schema/{system}.json", "title": self.title,
                "description": self.description, "type": "object", "properties": properties,
                "required": [*outer["required"], *self.required, *body.get("required", [])],
                "additionalProperties": False, "$defs": defs}

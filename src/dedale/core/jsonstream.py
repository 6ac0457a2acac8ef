"""Documents too large to hold as JSON values, written piece by piece.

A document is a dict as `Session.to_json()` gives it, except that a large array may be a `Streamed`: its
items come one at a time (`values`), or as JSON text already (`texts`, which a system may write faster than
`json` would encode each item). `chunks(document)` yields the text of the document, exactly what
`json.dumps(materialized(document), ensure_ascii=False, indent=indent)` would give, without ever holding it
whole; `materialized` makes the plain dict again, for a caller that asks for the values.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import Any


class Streamed(ABC):
    """An array of a document, made as it is written."""

    @abstractmethod
    def values(self) -> Iterator[Any]:
        """The items as JSON values, one at a time."""

    def texts(self, depth: int, indent: int | None) -> Iterator[str]:
        """The items as JSON text for an array at `depth`: each piece one or more whole items joined by
        `separator(depth + 1, indent)`, each item's inner lines indented for `depth + 1`."""
        for value in self.values():
            yield encode(value, depth + 1, indent)


def separator(depth: int, indent: int | None) -> str:
    """What comes between two items of an array (or two members of an object) whose items sit at `depth`."""
    return ", " if indent is None else ",\n" + " " * (indent * depth)


def encode(value: Any, depth: int, indent: int | None) -> str:
    """A value's JSON text where it sits at `depth` (its first line placed by the caller)."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return text if indent is None or depth == 0 else text.replace("\n", "\n" + " " * (indent * depth))


def chunks(document: dict[str, Any], indent: int | None = 2) -> Iterator[str]:
    """The document's JSON text, a piece at a time."""
    if not document:
        yield "{}"
        return
    inner = "" if indent is None else "\n" + " " * indent
    for number, (key, value) in enumerate(document.items()):
        yield ("{" if number == 0 else ",") + (" " if number and indent is None else "") + inner
        yield json.dumps(key, ensure_ascii=False) + ": "
        if isinstance(value, Streamed):
            yield from _array(value, 1, indent)
        else:
            yield encode(value, 1, indent)
    yield "}" if indent is None else "\n}"


def _array(streamed: Streamed, depth: int, indent: int | None) -> Iterator[str]:
    between = separator(depth + 1, indent)
    opened = False
    for text in streamed.texts(depth, indent):
        if not text:
            continue
        yield (between if opened else "[" + ("" if indent is None else "\n" + " " * (indent * (depth + 1)))) + text
        opened = True
    yield ("" if indent is None else "\n" + " " * (indent * depth)) + "]" if opened else "[]"


def materialized(document: dict[str, Any]) -> dict[str, Any]:
    """The document with every streamed array made a list."""
    return {key: list(value.values()) if isinstance(value, Streamed) else value for key, value in document.items()}


def streams(document: dict[str, Any]) -> bool:
    """Whether some array of the document is streamed."""
    return any(isinstance(value, Streamed) for value in document.values())

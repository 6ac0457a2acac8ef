"""A large JSON file (a hexcrawl of 3 million hexes: 3 GB) read without holding it: its top-level arrays that
may be huge are read item by item, and kept as `FileArray`s that read their items again from the file when
asked for (`core.jsonstream.Streamed`). The rest of the document is read as values, as strictly as
`core.jsontext` reads any file: each value is parsed by `json`'s own decoder and checked the same way.
"""

from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

from dedale.core.errors import DedaleError
from dedale.core.jsonstream import Streamed
from dedale.core.jsontext import MAX_DEPTH, check_value, decode_at, has_surrogates, needs_strict_numbers

BUFFER = 8 << 20  # bytes read at a time
MAX_VALUE = 256 << 20  # characters: one value larger than this (a hex, a log entry) is not a document's
_SPACE = re.compile("[ \t\n\r]*")


class _Text:
    """The file's text from a byte offset, a buffer at a time, with the checks that depend on what it holds."""

    def __init__(self, path: Path, offset: int) -> None:
        self.source = str(path)
        self.file = path.open("rb")
        self.file.seek(offset)
        self.decode = codecs.getincrementaldecoder("utf-8")().decode
        self.text, self.at, self.dropped = "", 0, offset  # dropped: the bytes before `text`
        self.ended = False
        self.strict_numbers = self.surrogates = False
        self.seam = b""  # the end of the last buffer read

    def close(self) -> None:
        self.file.close()

    def more(self) -> None:
        """Read the next buffer, dropping what was read (the checks look at what comes in)."""
        if self.ended:
            return
        raw = self.file.read(BUFFER)
        self.ended = not raw
        try:
            new = self.decode(raw, final=self.ended)
        except UnicodeDecodeError:
            raise DedaleError("error.json_text", path=self.source) from None
        self.strict_numbers |= needs_strict_numbers(self.seam + raw)  # a long number may straddle two buffers
        self.surrogates |= has_surrogates(self.text[-8:] + new)
        self.seam = raw[-64:]
        self.dropped += len(self.text[:self.at].encode("utf-8"))
        self.text, self.at = self.text[self.at:] + new, 0

    def next_char(self) -> str:
        """The next character that is not white space (the text's end: "")."""
        while True:
            space = _SPACE.match(self.text, self.at)
            assert space is not None  # it matches nothing at least
            self.at = space.end()
            if self.at < len(self.text) or self.ended:
                return self.text[self.at:self.at + 1]
            self.more()

    def expect(self, chars: str) -> str:
        found = self.next_char()
        if not found or found not in chars:
            raise DedaleError("error.json", path=self.source, problem=f"expecting one of {chars!r} at byte "
                              f"{self.offset()}")
        self.at += 1
        return found

    def value(self, depth: int) -> Any:
        """The next value, at `depth` in the document (the document itself is at 1), checked as `core.jsontext`
        checks a file."""
        self.next_char()
        while True:
            try:
                value, end = decode_at(self.text, self.at, self.strict_numbers, self.source)
                if end < len(self.text) - 2 or self.ended:  # else a number may go on ("1e-" stops at "e")
                    break
            except json.JSONDecodeError as exc:  # cut off at the buffer's end, or wrong
                if self.ended or len(self.text) - self.at > MAX_VALUE:
                    raise DedaleError("error.json", path=self.source, problem=str(exc)) from None
            self.more()
        opened = self.text.count("{", self.at, end) + self.text.count("[", self.at, end)
        if depth + opened - 1 > MAX_DEPTH or self.surrogates:  # else it cannot nest too deep: no walk needed
            check_value(value, self.source, self.surrogates, depth)
        self.at = end
        return value

    def offset(self) -> int:
        """The byte offset in the file of the next character."""
        return self.dropped + len(self.text[:self.at].encode("utf-8"))

    def items(self, depth: int) -> Iterator[Any]:
        """The items of the array whose `[` comes next, itself at `depth`."""
        self.expect("[")
        if self.next_char() == "]":
            self.at += 1
            return
        while True:
            yield self.value(depth + 1)
            if self.expect(",]") == "]":
                return


class FileArray(Streamed):
    """A top-level array of a JSON file, read from the file each time its items are asked for."""

    def __init__(self, path: Path, offset: int, stamp: tuple[int, int], count: int) -> None:
        self.path, self.offset, self.stamp, self.count = path, offset, stamp, count

    def values(self) -> Iterator[Any]:
        if _stamp(self.path) != self.stamp:
            raise DedaleError("error.read", path=str(self.path), problem="it changed while it was read")
        text = _Text(self.path, self.offset)
        try:
            yield from text.items(2)
        finally:
            text.close()

    def __len__(self) -> int:
        return self.count


def _stamp(path: Path) -> tuple[int, int]:
    found = os.stat(path)
    return found.st_size, found.st_mtime_ns


def read_document(path: Path, streamed: Collection[str]) -> Any:
    """A JSON file in UTF-8 holding an object, its top-level arrays named in `streamed` left in the file
    (`FileArray`, each read through once here to check it); None for a file in another encoding, which the
    caller reads whole (documents in UTF-16 or UTF-32 are small)."""
    with path.open("rb") as start:
        head = start.read(4)
    if json.detect_encoding(head) not in ("utf-8", "utf-8-sig"):
        return None
    stamp = _stamp(path)
    text = _Text(path, 3 if head.startswith(codecs.BOM_UTF8) else 0)
    try:
        if text.next_char() != "{":
            return text.value(1)  # not an object: read as it is (and refused by whoever wanted a document)
        text.at += 1
        document: dict[str, Any] = {}
        if text.next_char() == "}":
            text.at += 1
        else:
            while True:
                key = text.value(2)
                if not isinstance(key, str):
                    raise DedaleError("error.json", path=str(path), problem="a key that is not a string")
                text.expect(":")
                if key in streamed and text.next_char() == "[":
                    offset = text.offset()
                    document[key] = FileArray(path, offset, stamp, sum(1 for _ in text.items(2)))
                else:
                    document[key] = text.value(2)
                if text.expect(",}") == "}":
                    break
        if text.next_char():
            raise DedaleError("error.json", path=str(path), problem=f"extra data at byte {text.offset()}")
        return document
    finally:
        text.close()

"""JSON from a user (a file, an upload, a request body), read strictly: what Python's `json` would let
through and the rest of the program could not handle is refused here, with a clear message.

- Text in UTF-8 (a byte-order mark is skipped), or UTF-16 / UTF-32 as `json` recognises them; never a lone
  UTF-16 surrogate (`"\\ud800"`), which is not text and cannot be written out again.
- Whole numbers of at most `MAX_DIGITS` digits (more would exhaust `int`'s conversion limit, or whatever
  checks them next), other numbers finite: no `NaN`, `Infinity`, nor `1e999`.
- Nesting at most `MAX_DEPTH` deep: no Dédale document nests more than a few levels, and deeper JSON
  exhausts the recursion of whatever walks it next.

The checks cost almost nothing on ordinary documents: the text is scanned for what could be a problem
(a surrogate escape, a long run of digits, a long exponent) before the slower checks run.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from dedale.core.errors import DedaleError

MAX_DEPTH = 64
MAX_DIGITS = 40  # a seed has at most 20 digits
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1}}}|[eE][+-]?\d{{3}}")


class _Refused(ValueError):
    def __init__(self, key: str, **args: Any) -> None:
        super().__init__(key)
        self.key, self.args_ = key, args


def parse_json(raw: bytes | str, source: str) -> Any:
    """The JSON value in `raw`, or a DedaleError naming `source` (a file's path, "upload", "body") and
    what is wrong."""
    text = _text(raw, source) if isinstance(raw, bytes) else raw
    strict_numbers = _LONG_NUMBER.search(text) is not None
    try:
        if strict_numbers:
            value = json.loads(text, parse_constant=_constant, parse_int=_int, parse_float=_float)
        else:
            value = json.loads(text, parse_constant=_constant)
    except _Refused as refused:
        raise DedaleError(refused.key, path=source, **refused.args_) from None
    except RecursionError:
        raise DedaleError("error.json_depth", path=source, high=MAX_DEPTH) from None
    except ValueError as exc:  # json.JSONDecodeError among them
        raise DedaleError("error.json", path=source, problem=str(exc)) from None
    _check_tree(value, source, surrogates=_SURROGATE.search(text) is not None)
    return value


def _text(raw: bytes, source: str) -> str:
    try:
        return raw.decode(json.detect_encoding(raw))  # strict: no surrogates smuggled in as bytes
    except (UnicodeDecodeError, LookupError):
        raise DedaleError("error.json_text", path=source) from None


def _constant(name: str) -> Any:
    raise _Refused("error.json_number", value=name, high=MAX_DIGITS)


def _int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _Refused("error.json_number", value=digits, high=MAX_DIGITS)  # the message shortens it
    return int(digits)


def _float(digits: str) -> float:
    value = float(digits)
    if not math.isfinite(value):
        raise _Refused("error.json_number", value=digits, high=MAX_DIGITS)
    return value


def _check_tree(value: Any, source: str, surrogates: bool, depth: int = 1) -> None:
    """Nesting depth (`value` at `depth`), and (when the text had surrogate escapes) every string and key."""
    stack = [(value, depth)]
    if surrogates and isinstance(value, str):
        _check_string(value, source)
    while stack:
        item, depth = stack.pop()
        if not isinstance(item, dict | list):
            continue
        if depth > MAX_DEPTH:
            raise DedaleError("error.json_depth", path=source, high=MAX_DEPTH)
        children = list(item.values()) if isinstance(item, dict) else item
        if surrogates:
            for string in (*(item if isinstance(item, dict) else ()), *children):
                if isinstance(string, str):
                    _check_string(string, source)
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))


def _check_string(string: str, source: str) -> None:
    try:
        string.encode("utf-8")
    except UnicodeEncodeError:
        raise DedaleError("error.json_unicode", path=source) from None


# --- a large file, read a value at a time (core.jsonread) -----------------------------------------------------------
_DECODERS = (json.JSONDecoder(parse_constant=_constant),
             json.JSONDecoder(parse_constant=_constant, parse_int=_int, parse_float=_float))


# In UTF-8, a number's characters are bytes no other character uses: digits become 0, e and E become e, signs +.
_NUMBER_BYTES = bytes.maketrans(b"0123456789eE+-", b"0000000000ee++")
_LONG_NUMBER_BYTES = (b"0" * (MAX_DIGITS + 1), b"e000", b"e+000")


def needs_strict_numbers(raw: bytes) -> bool:
    """Whether UTF-8 text may hold a number `parse_json` refuses (its numbers are then read one by one): what
    `_LONG_NUMBER` finds, found by plain searches, a hundred times faster on a large file."""
    flat = raw.translate(_NUMBER_BYTES)
    return any(pattern in flat for pattern in _LONG_NUMBER_BYTES)


def has_surrogates(text: str) -> bool:
    """Whether `text` may hold a lone surrogate escape (its strings are then checked)."""
    return _SURROGATE.search(text) is not None


def decode_at(text: str, at: int, strict_numbers: bool, source: str) -> tuple[Any, int]:
    """The JSON value that starts at `at` in `text`, and where it ends, refused as `parse_json` refuses; a
    `json.JSONDecodeError` is left to the caller (the text may be cut short)."""
    try:
        value, end = _DECODERS[strict_numbers].raw_decode(text, at)
    except _Refused as refused:
        raise DedaleError(refused.key, path=source, **refused.args_) from None
    except RecursionError:
        raise DedaleError("error.json_depth", path=source, high=MAX_DEPTH) from None
    return value, end


def check_value(value: Any, source: str, surrogates: bool, depth: int) -> None:
    """`parse_json`'s checks of a value found at `depth` in a document: its nesting, its strings."""
    if surrogates and isinstance(value, str):
        _check_string(value, source)
    _check_tree(value, source, surrogates, depth)

"""JSON from a user (a file, an upload, a request body), read strictly: what Python's `json` would let
through and the rest of the program could not handle is refused here, with a clear message.

- Text in UTF-8 (a byte-order mark is skipped), or UTF-16 / UTF-32 as `json` recognises them; never a lone
  UTF-16 surrogate (`"\\ud800"`), which is not text and cannot be written out again.
- Whole numbers of at most `MAX_DIGITS` digits (more would exhaust `int`'s conversion limit, or whatever
  checks them next), other numbers finite: no `NaN`, `Infinity`, nor `1e999`.
- Nesting at most `MAX_DEPTH` deep: no Dédale document nests more than a few levels, and deeper JSON
  exhausts the recursion of whatever walks it next.
- At most `MAX_BYTES` in all: the largest document Dédale makes (a hexcrawl of radius 300, walked, every hex
  with an obstacle) is about 360 MB; a larger one would take gigabytes of memory once parsed.

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
MAX_BYTES = 512 << 20
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
# A number `_int` or `_float` may refuse: a run of more than MAX_DIGITS digits, or an exponent of 3 digits, found
# by plain searches in the UTF-8 text with each digit made 0, e and E made e and each sign + (ten times quicker
# than a regular expression on a large document).
_NUMBER_BYTES = bytes.maketrans(b"0123456789eE+-", b"0000000000ee++")
_LONG_NUMBERS = (b"0" * (MAX_DIGITS + 1), b"e000", b"e+000")


class _Refused(ValueError):
    def __init__(self, key: str, **args: Any) -> None:
        super().__init__(key)
        self.key, self.args_ = key, args


def parse_json(raw: bytes | str, source: str) -> Any:
    """The JSON value in `raw`, or a DedaleError naming `source` (a file's path, "upload", "body") and
    what is wrong."""
    check_size(len(raw), source)  # a text's characters: at least as many bytes
    text = _text(raw, source) if isinstance(raw, bytes) else raw
    utf8 = isinstance(raw, bytes) and json.detect_encoding(raw) in ("utf-8", "utf-8-sig")
    flat = (raw if utf8 else text.encode("utf-8", "surrogatepass")).translate(_NUMBER_BYTES)  # not encoded twice
    strict_numbers = any(pattern in flat for pattern in _LONG_NUMBERS)
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


def check_size(size: int, source: str) -> None:
    """A file or an upload of `size` bytes is not too large to read."""
    if size > MAX_BYTES:
        raise DedaleError("error.json_size", path=source, high=MAX_BYTES >> 20)


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


def _check_tree(value: Any, source: str, surrogates: bool) -> None:
    """Nesting depth, and (when the text had surrogate escapes) every string and key."""
    if surrogates and isinstance(value, str):
        _check_string(value, source)
    if isinstance(value, dict | list):
        _check_nested(value, source, surrogates, 1)


def _check_nested(item: dict[str, Any] | list[Any], source: str, surrogates: bool, depth: int) -> None:
    """`_check_tree` of a container at `depth` (a recursion at most `MAX_DEPTH` deep: a walk with a stack of its
    own is several times slower on a large document)."""
    if depth > MAX_DEPTH:
        raise DedaleError("error.json_depth", path=source, high=MAX_DEPTH)
    children = item.values() if isinstance(item, dict) else item
    if surrogates:
        for string in (*(item if isinstance(item, dict) else ()), *children):
            if isinstance(string, str):
                _check_string(string, source)
    for child in children:
        if type(child) is dict or type(child) is list:  # what `json` makes: the quickest test
            _check_nested(child, source, surrogates, depth + 1)


def _check_string(string: str, source: str) -> None:
    try:
        string.encode("utf-8")
    except UnicodeEncodeError:
        raise DedaleError("error.json_unicode", path=source) from None

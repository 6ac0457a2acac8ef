"""Whole numbers a user types ("12", "-3"): ASCII digits only, and not too many of them. Python's `int`
would take "²"-like characters `str.isdigit` lets through only to fail, and text of thousands of digits
only to exceed its conversion limit; here both are simply not numbers."""

from __future__ import annotations

MOST_DIGITS = 9


def whole(text: str, signed: bool = False, most_digits: int = MOST_DIGITS) -> int | None:
    """The number `text` writes (spaces around it allowed; a leading minus with `signed`), or None."""
    text = text.strip()
    digits = text[1:] if signed and text.startswith("-") else text
    if not digits.isascii() or not digits.isdigit() or len(digits) > most_digits:
        return None
    return int(text)

"""Seeds: the whole of a game's randomness, as a number and as text a person can read, copy and type.

A seed is a whole number. Two kinds, told apart by their size:

- a *short* seed, from 0 to 2**64 - 1, drives SplitMix64 (`rng.SplitMix64`): `--seed 4` means what it has always
  meant. Anyone can search all the short seeds a game might have, so a short seed keeps no secret;
- a *long* seed, from 2**64 to 2**130 - 1, keys BLAKE2b (`rng.KeyedStream`): nobody can work out what it draws,
  or find it from what it drew, without it. A game started without a chosen seed on the web or through its API
  gets a fresh one (`fresh_seed`: 130 random bits from the operating system), which keeps the game's secrets
  for as long as the seed itself is kept from who may not see them (`docs/secrets.md`).

A long seed is written in 26 characters of Crockford's base 32, grouped for reading: `3KQM7-XA9BF-TN4WE-R8D1H-ZJ6PCQ`
(`seed_text`); read back case-insensitively, dashes and spaces ignored, I and L read as 1 and O as 0 (text that
is not a long seed is no seed: "x", "-3"). A seed of digits alone is a decimal number (a short seed, or a long one
written out in full). A document writes a short
seed as a number and a long one as its text (`seed_json`), which every JSON reader keeps exactly.

>>> seed_text(4), seed_text(2**64)
('4', '00000-00000-000G0-00000-000000')
>>> check_seed("000g0 00000 000000") == 2**64 == check_seed(str(2**64))
True
>>> check_seed(seed_text(123456789012345678901234567890))
123456789012345678901234567890
>>> seed_text(check_seed(EXAMPLE)) == EXAMPLE
True
"""

from __future__ import annotations

from typing import Any

from dedale.core.errors import DedaleError

MAX_SHORT_SEED = (1 << 64) - 1  # SplitMix64's: every seed up to here means what it always has
LONG_BITS = 130  # 26 characters of base 32
MAX_SEED = (1 << LONG_BITS) - 1
TEXT_LENGTH = LONG_BITS // 5
GROUPS = (5, 5, 5, 5, 6)  # how a long seed's 26 characters are grouped for reading
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O or U to misread
_READ_AS = {**{c: i for i, c in enumerate(ALPHABET)}, "I": 1, "L": 1, "O": 0}
MAX_DIGITS = len(str(MAX_SEED))
EXAMPLE = "3KQM7-XA9BF-TN4WE-R8D1H-ZJ6PCQ"  # a long seed, as messages show one


def new_seed() -> int:
    """A short random seed, for a command or a library call given none: 32 bits, short enough to read out and type
    again (such a result keeps no secret: its file holds everything anyway)."""
    import secrets  # imported here: it loads OpenSSL, which a run given its seed does not need

    return secrets.randbelow(2**32)


def fresh_seed() -> int:
    """A long seed of 130 random bits from the operating system: a game made by the web without a chosen seed.
    Drawn again in the one case in 2**66 that it would be a short one."""
    import secrets

    while (seed := secrets.randbits(LONG_BITS)) <= MAX_SHORT_SEED:
        pass
    return seed


def is_long(seed: int) -> bool:
    """Whether the seed keys BLAKE2b (a long seed) rather than SplitMix64."""
    return seed > MAX_SHORT_SEED


def seed_text(seed: int) -> str:
    """A seed as a person reads it: a short one in decimal, a long one in base 32, grouped."""
    if not is_long(seed):
        return str(seed)
    digits = "".join(ALPHABET[(seed >> (5 * place)) & 31] for place in reversed(range(TEXT_LENGTH)))
    groups, start = [], 0
    for size in GROUPS:
        groups.append(digits[start:start + size])
        start += size
    return "-".join(groups)


def readable(seed: int | str) -> str:
    """A seed, a number or a document's text, as a person reads it (a picture's title, a legend)."""
    return seed_text(check_seed(seed))


def seed_json(seed: int) -> int | str:
    """A seed as a document writes it: a number when short, its text when long (a number of 130 bits is more
    than many JSON readers keep exactly)."""
    return seed_text(seed) if is_long(seed) else seed


def check_seed(value: Any) -> int:
    """A seed given as a number, as decimal digits or as its base-32 text; or the error naming what is
    accepted."""
    seed = _parsed(value)
    if seed is None or not 0 <= seed <= MAX_SEED:
        raise DedaleError("error.seed", value=value if not isinstance(value, str) else value[:60],
                          high=MAX_SHORT_SEED, example=EXAMPLE)
    return seed


def _parsed(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        return int(text) if len(text) <= MAX_DIGITS else None
    compact = text.replace("-", "").replace(" ", "").upper()
    if not 1 <= len(compact) <= TEXT_LENGTH or not all(c in _READ_AS for c in compact):
        return None
    seed = 0
    for c in compact:
        seed = seed * 32 + _READ_AS[c]
    return seed if is_long(seed) else None  # only a long seed is written so: "x" or "-3" is no seed

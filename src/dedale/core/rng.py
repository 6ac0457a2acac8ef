"""The run's random source and the roller that records every result in the log.

Two sources give the primitive results (a number in `0..n-1`):
- `SeededSource`: the run's seed (`core.seeds`) drives the stream. A short seed drives SplitMix64, written out
  here rather than taken from `random`, whose derived methods may change between Python versions: the same
  seed gives the same rolls everywhere. A long seed keys BLAKE2b (`KeyedStream`): its results cannot be worked
  out from any number of earlier results without the seed, which the web keeps from whoever may not see
  everything (`docs/secrets.md`). A document saved before seeds were long may carry a separate secret key
  (256 bits), with which its short seed drew the same way; it still replays.
- `TableSource`: *table mode*. The results are entered by the player (real dice, real cards) or fed by a
  test; when none is left it raises `NeedInput` describing what it needs, and the session asks for it.

`Roller` turns primitive results into dice rolls, named-die rolls, chances, picks and weighted draws, and
appends one log entry for each (what was rolled, the dice, the total, what it was for).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from dedale.core.dice import DiceExpr
from dedale.core.errors import DedaleError

_MASK = (1 << 64) - 1
_TWO53 = 1 << 53
_LOW53 = _TWO53 - 1
SECRET_BYTES = 32  # the secret key of a document saved before seeds were long: 256 bits
LogEntry = dict[str, Any]


def check_secret(value: Any) -> bytes:
    """The secret key a document saved before seeds were long may carry (64 hexadecimal digits), or the error
    naming it."""
    try:
        secret = bytes.fromhex(value) if isinstance(value, str) else b""
    except ValueError:
        secret = b""
    if len(secret) != SECRET_BYTES:
        raise DedaleError("error.bad_document", field="secret")
    return secret


class Stream:
    """Uniform 64-bit words (`next64`), and the draws made of them."""

    __slots__ = ()

    def next64(self) -> int:
        raise NotImplementedError

    def mark(self) -> int:
        """Where the stream stands: it changes with every word drawn."""
        raise NotImplementedError

    def below(self, n: int) -> int:
        """Uniform in `0..n-1`, without modulo bias (rejection of the top partial range)."""
        if not 0 < n <= 1 << 64:  # past 2**64 every draw would be rejected: a loop that never ends
            raise ValueError(f"below({n}): n must be from 1 to 2**64")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def below_each(self, n: int, count: int) -> list[int]:
        """`count` draws of `below(n)`, in order."""
        below = self.below
        return [below(n) for _ in range(count)]

    def fraction(self) -> float:
        """Uniform in [0, 1) with 53 bits: `below(2**53) / 2**53` (no draw is ever rejected for a power of
        two, so it is the low 53 bits of one draw)."""
        return (self.next64() & _LOW53) / _TWO53


class KeyedStream(Stream):
    """BLAKE2b keyed with a secret, in counter mode: each block of 64 bytes is the hash of a prefix and the block's
    number, eight words. A keyed BLAKE2b is a pseudorandom function: without the key, no number of words drawn
    tells anything of the words to come, and searching a key of 128 bits or more is out of reach. The key is a
    long seed itself (no prefix), or the secret key of a document saved before seeds were long (the prefix
    is then its short seed)."""

    __slots__ = ("_block", "_key", "_seed", "_words")

    def __init__(self, prefix: bytes, key: bytes) -> None:
        self._seed = prefix
        self._key = key
        self._block = 0
        self._words: list[int] = []  # the current block's words not yet drawn, the next last

    def next64(self) -> int:
        if not self._words:
            digest = hashlib.blake2b(self._seed + self._block.to_bytes(8, "little"), key=self._key).digest()
            self._words = [int.from_bytes(digest[i:i + 8], "little") for i in range(56, -8, -8)]
            self._block += 1
        return self._words.pop()

    def mark(self) -> int:
        return self._block * 8 - len(self._words)


class SplitMix64(Stream):
    """Steele, Lea and Flood's SplitMix64: tiny, fast in pure Python, and identical on every machine."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def mark(self) -> int:
        return self.state

    def fraction(self) -> float:
        """`Stream.fraction`, written out for the callers that draw millions."""
        self.state = state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((z ^ (z >> 31)) & _LOW53) / _TWO53

    def below_each(self, n: int, count: int) -> list[int]:
        """`Stream.below_each`, written out for the callers that roll thousands of dice (a skirmish game
        rolls a thousand poker dice)."""
        limit = (1 << 64) - (1 << 64) % n
        state = self.state
        drawn: list[int] = []
        while len(drawn) < count:
            state = (state + 0x9E3779B97F4A7C15) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                drawn.append(z % n)
        self.state = state
        return drawn


@dataclass(frozen=True)
class Request:
    """One result the rules need in table mode: which answers are possible and what it is for."""

    kind: str  # "die", "face", "card" or "option"
    options: tuple[str, ...]
    purpose: str  # message key of what the roll is for
    args: dict[str, Any] = field(default_factory=dict)
    expr: str = ""  # the whole roll, e.g. "3d6"
    index: int = 0  # which die of that roll (0-based)
    count: int = 1


class NeedInput(Exception):
    """Table mode ran out of entered results: the session must ask the player for `request`."""

    def __init__(self, request: Request) -> None:
        super().__init__(request.purpose)
        self.request = request


def stream(seed: int, secret: bytes | None = None) -> Stream:
    """The stream a seed draws from: SplitMix64 for a short seed, BLAKE2b keyed with a long one, or keyed with the
    secret key a document saved before seeds were long carries, over its short seed."""
    if secret is not None:
        return KeyedStream((seed & _MASK).to_bytes(8, "little"), secret)
    if seed > _MASK:
        return KeyedStream(b"", seed.to_bytes((seed.bit_length() + 7) // 8, "little"))
    return SplitMix64(seed)


class SeededSource:
    table = False

    def __init__(self, seed: int, secret: bytes | None = None) -> None:
        self.gen: Stream = stream(seed, secret)

    def uniform(self, n: int, describe: Callable[[], Request]) -> int:
        return self.gen.below(n) if n > 1 else 0


class TableSource:
    """Results entered by the player for the action in progress (`entries`, consumed from `pos`)."""

    table = True

    def __init__(self, entries: Sequence[str] = ()) -> None:
        self.entries = list(entries)
        self.pos = 0

    def uniform(self, n: int, describe: Callable[[], Request]) -> int:
        request = describe()
        if self.pos >= len(self.entries):
            raise NeedInput(request)
        value = self.entries[self.pos]
        if value not in request.options:
            raise DedaleError("error.entry_impossible", value=value, accepted=_accepted(request.options))
        self.pos += 1
        return request.options.index(value)


def _accepted(options: Sequence[str]) -> str:
    if len(options) > 12:
        return f"{', '.join(options[:6])}, ..., {', '.join(options[-3:])}"
    return ", ".join(options)


# A roll's dice, parsed once (each keeps its text for the log): rolls are the innermost work of every system.
@lru_cache(maxsize=256)
def _parsed(expr: str) -> DiceExpr:
    return DiceExpr.parse(expr)


@lru_cache(maxsize=1024)
def _one_die(sides: int) -> DiceExpr:
    return DiceExpr(1, sides)


@lru_cache(maxsize=256)
def _faces(sides: int) -> tuple[str, ...]:
    return tuple(str(face) for face in range(1, sides + 1))


class Roll:
    """A recorded roll: its dice and total, and `decide()` to note in the log what it decided."""

    __slots__ = ("entry", "total")

    def __init__(self, entry: LogEntry) -> None:
        self.entry = entry
        self.total: int = entry["total"]  # read by every rule that rolls: a plain attribute

    @property
    def dice(self) -> list[int]:
        return self.entry["dice"]

    def decide(self, key: str, **args: Any) -> Roll:
        self.entry["decided"] = {"key": key, **args}
        return self


class Roller:
    """Every random result of a run goes through here and into `log`."""

    def __init__(self, source: SeededSource | TableSource, log: list[Any]) -> None:
        self.source = source
        self.log = log

    def _uniform(self, n: int, request: Callable[[], Request]) -> int:
        return self.source.uniform(n, request)

    def roll(self, expr: str | DiceExpr, purpose: str, **args: Any) -> Roll:
        spec = _parsed(expr) if isinstance(expr, str) else expr
        source = self.source
        if isinstance(source, SeededSource):  # the common case, kept short: no requests to describe
            # Plain loops here and below: in Python 3.11 a comprehension reading locals makes a cell of each,
            # at every call.
            below, sides, count = source.gen.below, spec.sides, spec.count
            dice = [below(sides) + 1]
            while count > 1:  # most rolls are of one die
                dice.append(below(sides) + 1)
                count -= 1
        else:
            dice = self._entered(spec, purpose, args)
        entry: LogEntry = {"roll": spec.text, "dice": dice, "total": sum(dice) + spec.modifier, "for": purpose}
        if args:
            entry["args"] = args
        self.log.append(entry)
        return Roll(entry)

    def _entered(self, spec: DiceExpr, purpose: str, args: dict[str, Any]) -> list[int]:
        """Table mode: the dice entered at the table, one by one."""
        return [self._uniform(spec.sides, _die_request(spec, index, purpose, args)) + 1 for index in range(spec.count)]

    def roll_faces(self, count: int, faces: tuple[str, ...], purpose: str, **args: Any) -> list[int]:
        """`count` dice with named faces (poker dice: 9, 10, J, Q, K, A): the faces' indices. The log shows
        the names, and table mode asks for them by name."""
        if isinstance(self.source, SeededSource):
            rolled = self.source.gen.below_each(len(faces), count)
        else:
            rolled = [self._uniform(len(faces), _face_request(faces, count, index, purpose, args))
                      for index in range(count)]
        entry: LogEntry = {"roll": f"{count}d{len(faces)}", "faces": list(map(faces.__getitem__, rolled)),
                            "for": purpose}
        if args:
            entry["args"] = args
        self.log.append(entry)
        return rolled

    def die(self, sides: int, purpose: str, **args: Any) -> int:
        """One die, not logged: for a caller that keeps the result in a record of its own (a hexcrawl
        hex keeps its dice; logging each again would double a large map's memory)."""
        if isinstance(self.source, SeededSource):
            return self.source.gen.below(sides) + 1
        return self._uniform(sides, _die_request(_one_die(sides), 0, purpose, args)) + 1

    def chance(self, probability: float, purpose: str, **args: Any) -> bool:
        """A chance such as 0.3 is a percentile die, hit on `<= 100 * p`."""
        roll = self.roll("1d100", purpose, **args)
        hit = roll.total <= round(100 * probability)
        roll.decide("roll.hit" if hit else "roll.miss", needed=round(100 * probability))
        return hit

    def pick(self, n: int, purpose: str, **args: Any) -> int:
        """A uniform pick among `n` options is a `1dn` (no roll when there is one option)."""
        if n == 1:
            return 0
        return self.roll(_one_die(n), purpose, **args).total - 1

    def weighted(self, labels: Sequence[str], weights: Sequence[float], purpose: str, **args: Any) -> int:
        """A weighted pick, logged as a draw with its weights."""
        options = tuple(labels)

        def request() -> Request:
            return Request("option", options, purpose, args)

        if self.source.table:
            index = self._uniform(len(options), request)
        else:
            total = sum(weights)
            point = self.fraction() * total
            index = len(weights) - 1
            for i, weight in enumerate(weights):
                point -= weight
                if point < 0:
                    index = i
                    break
        entry: LogEntry = {"pick": options[index], "weights": dict(zip(options, weights, strict=True)),
                           "for": purpose}
        if args:
            entry["args"] = args
        self.log.append(entry)
        return index

    def fraction(self) -> float:
        """A uniform number in [0, 1), for the caller's own weighted pick (logged by the caller, with the
        weight picked and the total). Seeded runs only: a table cannot roll it."""
        assert isinstance(self.source, SeededSource)
        return self.source.gen.fraction()

    def draw_from(self, count: int, options: Callable[[], Sequence[str]], purpose: str, **args: Any) -> int:
        """Draw one of `count` things (the cards left in a pile), uniformly; the caller logs the draw.
        `options` names them, for table mode only."""

        def request() -> Request:
            return Request("card", tuple(options()), purpose, args)

        return self._uniform(count, request)

    def note(self, key: str, **args: Any) -> None:
        """A log line that is not a roll: a rule applied, an exit closed, a search's cost."""
        entry: LogEntry = {"note": key}
        if args:
            entry["args"] = args
        self.log.append(entry)


def _face_request(faces: tuple[str, ...], count: int, index: int, purpose: str,
                  args: dict[str, Any]) -> Callable[[], Request]:
    return lambda: Request("face", faces, purpose, args, f"{count}d{len(faces)}", index, count)


def _die_request(spec: DiceExpr, index: int, purpose: str, args: dict[str, Any]) -> Callable[[], Request]:
    return lambda: Request("die", _faces(spec.sides), purpose, args, spec.text, index, spec.count)

"""The D8 room tiles, the secret-passage tiles, and the optional tile stock."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from dedale.core.errors import DedaleError
from dedale.core.numbers import whole

# D8 face -> (w, h) before rotation; 8 is the boss room, whose size is a parameter.
ROOM_TILES: dict[int, tuple[int, int]] = {1: (5, 5), 2: (4, 4), 3: (5, 3), 4: (3, 3), 5: (3, 2), 6: (2, 2), 7: (5, 2)}
BOSS = "boss"
PASSAGES = ("p1", "p2", "p3")  # secret-passage tiles, 1 cell wide and 1, 2 or 3 cells long


def tile_name(face: int) -> str:
    return BOSS if face == 8 else "{}x{}".format(*ROOM_TILES[face])


TILE_NAMES = tuple(tile_name(face) for face in range(1, 9))
FACE_OF = {tile_name(face): face for face in range(1, 9)}


def tile_size(tile: str, boss_size: tuple[int, int]) -> tuple[int, int]:
    return boss_size if tile == BOSS else ROOM_TILES[FACE_OF[tile]]


def orientations(size: tuple[int, int]) -> list[tuple[int, int]]:
    """A tile may be rotated 90 degrees."""
    w, h = size
    return [(w, h)] if w == h else [(w, h), (h, w)]


def by_nearest_area(tile: str, boss_size: tuple[int, int]) -> list[str]:
    """The other room tiles, nearest in area to `tile` first, the smaller on ties (the fallback order)."""
    return list(_nearest_area(tile, boss_size))


@lru_cache(maxsize=256)
def _nearest_area(tile: str, boss_size: tuple[int, int]) -> tuple[str, ...]:
    w, h = tile_size(tile, boss_size)
    others = [name for name in TILE_NAMES[:7] if sorted(ROOM_TILES[FACE_OF[name]]) != sorted((w, h))]
    return tuple(sorted(others, key=lambda name: (abs(_area(name) - w * h), _area(name), FACE_OF[name])))


def _area(tile: str) -> int:
    w, h = ROOM_TILES[FACE_OF[tile]]
    return w * h


def parse_stock(spec: str) -> dict[str, int]:
    """`5x5=2,4x4=3,p1=4` (or D8 faces: `1=2,2=3`). Types not listed are unlimited."""
    stock: dict[str, int] = {}
    for part in spec.split(","):
        name, sep, count = part.strip().partition("=")
        name = name.strip().lower()
        face, number = whole(name), whole(count)
        if face is not None and 1 <= face <= 7:
            name = tile_name(face)
        if not sep or name not in (*TILE_NAMES[:7], *PASSAGES) or number is None:
            raise DedaleError("error.stock", value=spec, part=part.strip())
        if name in stock:
            raise DedaleError("error.stock_twice", value=spec, tile=name)
        stock[name] = number
    return stock


class Stock:
    """Tiles left per type (None: unlimited)."""

    def __init__(self, counts: Mapping[str, int] | None) -> None:
        self.left: dict[str, int] = dict(counts or {})

    def has(self, tile: str) -> bool:
        return self.left.get(tile, 1) > 0

    def take(self, tile: str) -> bool:
        """Take one tile; whether that was the last of its pile."""
        if tile not in self.left:
            return False
        self.left[tile] -= 1
        return self.left[tile] <= 0

    def any_room(self) -> bool:
        return not self.left or self._room_left()

    def _room_left(self) -> bool:  # apart: the generator would cost every call a cell (Python 3.11)
        return any(self.has(name) for name in TILE_NAMES[:7])

    def substitute(self, tile: str, on_board: Mapping[str, int]) -> str:
        """The tile to lay when `tile` is rolled: itself if in stock, else from the neighbouring piles of
        the D8 table (faces -1 and +1, then -2 and +2, ...), the one least present on the board (ties:
        the lower face). Called only while some room tile is left."""
        if tile == BOSS or self.has(tile):
            return tile
        face = FACE_OF[tile]
        for distance in range(1, 7):
            near = [f for f in (face - distance, face + distance) if 1 <= f <= 7 and self.has(tile_name(f))]
            if near:
                best = min(near, key=lambda f: (on_board.get(tile_name(f), 0), f))
                return tile_name(best)
        raise AssertionError("substitute() needs a room tile in stock")

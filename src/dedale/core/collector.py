"""The cycle collector paused while a rule makes a large structure with no reference cycle (a key-lock
diagram's nodes, a hexcrawl's hex records): its passes over hundreds of thousands of new objects would cost
a quarter of the time, for nothing, and grow faster than the structure. Resumed as it was found."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()

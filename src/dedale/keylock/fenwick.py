"""Weighted picks that stay fast as a diagram grows: a Fenwick (binary indexed) tree of weights.

Setting a weight and finding where a point of [0, total) falls both take O(log n), where re-summing every
weight at every step would make a diagram's growth quadratic. The sums are kept in arrays of doubles (the
same numbers as Python floats), which a large diagram's random picks reach faster than lists of floats.
"""

from __future__ import annotations

import math
from array import array


class Fenwick:
    def __init__(self, size: int) -> None:
        self.size = size
        self.top = 1 << max(size.bit_length() - 1, 0)  # the highest power of two within size
        # Cells past the size hold infinity, which `find` never steps onto: no bounds check in its loop.
        self.tree = array("d", bytes(8 * (size + 1))) + array("d", [math.inf]) * (2 * self.top - size - 1)
        self.weights = array("d", bytes(8 * size))
        self.total_cells = []  # the cells whose sum is the total, in the order `prefix` adds them
        cell = size
        while cell > 0:
            self.total_cells.append(cell)
            cell &= cell - 1

    @property
    def total(self) -> float:
        tree, total = self.tree, 0.0
        for cell in self.total_cells:
            total += tree[cell]
        return total

    def prefix(self, count: int) -> float:
        """The sum of the first `count` weights."""
        total = 0.0
        while count > 0:
            total += self.tree[count]
            count &= count - 1
        return total

    def weight(self, index: int) -> float:
        return self.weights[index]

    def set(self, index: int, weight: float) -> None:
        delta = weight - self.weights[index]
        self.weights[index] = weight
        tree, size, i = self.tree, self.size, index + 1
        while i <= size:
            tree[i] += delta
            i += i & -i

    def find(self, point: float) -> int:
        """The index whose slice of [0, total) holds `point`: the first with a prefix sum above it.
        A weight set back to 0 may leave a rounding residue: such an index is passed over."""
        tree, position, step = self.tree, 0, self.top
        while step:
            nxt = position + step
            if tree[nxt] <= point:
                position = nxt
                point -= tree[nxt]
            step >>= 1
        position = min(position, self.size - 1)
        if self.weights[position] <= 0.0:
            later = (i for i in range(position + 1, self.size) if self.weights[i] > 0.0)
            position = next(later, None) or next(i for i in range(position, -1, -1) if self.weights[i] > 0.0)
        return position

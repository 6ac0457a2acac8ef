"""Weighted picks that stay fast as a diagram grows: a Fenwick (binary indexed) tree of weights.

Setting a weight and finding where a point of [0, total) falls both take O(log n), where re-summing every
weight at every step would make a diagram's growth quadratic.
"""

from __future__ import annotations


class Fenwick:
    def __init__(self, size: int) -> None:
        self.size = size
        self.tree = [0.0] * (size + 1)
        self.weights = [0.0] * size
        self.top = 1 << max(size.bit_length() - 1, 0)  # the highest power of two within size

    @property
    def total(self) -> float:
        return self.prefix(self.size)

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
        i = index + 1
        while i <= self.size:
            self.tree[i] += delta
            i += i & -i

    def find(self, point: float) -> int:
        """The index whose slice of [0, total) holds `point`: the first with a prefix sum above it.
        A weight set back to 0 may leave a rounding residue: such an index is passed over."""
        position, step = 0, self.top
        while step:
            nxt = position + step
            if nxt <= self.size and self.tree[nxt] <= point:
                position = nxt
                point -= self.tree[nxt]
            step >>= 1
        position = min(position, self.size - 1)
        if self.weights[position] <= 0.0:
            later = (i for i in range(position + 1, self.size) if self.weights[i] > 0.0)
            position = next(later, None) or next(i for i in range(position, -1, -1) if self.weights[i] > 0.0)
        return position

"""Tidy trees: Reingold and Tilford's layout in Buchheim, Jünger and Leipert's linear time.

Each node sits one row below its parent; a parent is centred over its first and last child; nodes of a row
keep their order and stand at least `gap` apart; subtrees are pushed together as far as their contours
allow (so a deep subtree does not widen the rows of a shallow one), and the space a push opens is shared
among the smaller subtrees between. Both walks are iterative: a diagram may be a chain thousands deep.
"""

from __future__ import annotations

from collections.abc import Sequence

NONE = -1


def tidy_layout(kids: Sequence[Sequence[int]], root: int = 0, gap: float = 1.0) -> tuple[list[float], list[int]]:
    """Each node's x (the leftmost at 0) and depth (the root at 0), for a tree given as each node's children
    in order (`kids[node]`, for the nodes 0..len(kids)-1; nodes not under `root` are left at 0)."""
    size = len(kids)
    parent, number, elder = [NONE] * size, [0] * size, [NONE] * size  # elder: the sibling just left of it
    for node, children in enumerate(kids):
        for index, child in enumerate(children):
            parent[child], number[child], elder[child] = node, index, children[index - 1] if index else NONE
    prelim, mod, shift, change = [0.0] * size, [0.0] * size, [0.0] * size, [0.0] * size
    thread, ancestor, default = [NONE] * size, list(range(size)), [NONE] * size

    def next_left(node: int) -> int:
        return kids[node][0] if kids[node] else thread[node]

    def next_right(node: int) -> int:
        return kids[node][-1] if kids[node] else thread[node]

    def move_subtree(left: int, right: int, amount: float) -> None:
        share = amount / (number[right] - number[left])
        change[right] -= share
        change[left] += share
        shift[right] += amount
        prelim[right] += amount
        mod[right] += amount

    def apportion(node: int, default_ancestor: int) -> int:
        """Push `node`'s subtree right of its elder siblings' subtrees, row by row down their contours."""
        inner_right = outer_right = node
        inner_left, outer_left = elder[node], kids[parent[node]][0]
        s_inner_right = s_outer_right = mod[node]
        s_inner_left, s_outer_left = mod[inner_left], mod[outer_left]
        while next_right(inner_left) != NONE and next_left(inner_right) != NONE:
            inner_left, inner_right = next_right(inner_left), next_left(inner_right)
            outer_left, outer_right = next_left(outer_left), next_right(outer_right)
            ancestor[outer_right] = node
            overlap = prelim[inner_left] + s_inner_left - prelim[inner_right] - s_inner_right + gap
            if overlap > 0:
                elder_root = ancestor[inner_left]
                if parent[elder_root] != parent[node]:
                    elder_root = default_ancestor
                move_subtree(elder_root, node, overlap)
                s_inner_right += overlap
                s_outer_right += overlap
            s_inner_left += mod[inner_left]
            s_inner_right += mod[inner_right]
            s_outer_left += mod[outer_left]
            s_outer_right += mod[outer_right]
        if next_right(inner_left) != NONE and next_right(outer_right) == NONE:
            thread[outer_right] = next_right(inner_left)
            mod[outer_right] += s_inner_left - s_outer_right
            return default_ancestor
        if next_left(inner_right) != NONE and next_left(outer_left) == NONE:
            thread[outer_left] = next_left(inner_right)
            mod[outer_left] += s_inner_right - s_outer_left
        return node

    preorder, stack = [], [root]  # children pushed left to right: visited right to left
    while stack:
        node = stack.pop()
        preorder.append(node)
        stack.extend(kids[node])
    for node in reversed(preorder):  # so: children left to right, each subtree whole, before its parent
        children = kids[node]
        middle = 0.0
        if children:
            moved = total = 0.0  # the shifts of the subtrees, carried from right to left
            for child in reversed(children):
                prelim[child] += moved
                mod[child] += moved
                total += change[child]
                moved += shift[child] + total
            middle = (prelim[children[0]] + prelim[children[-1]]) / 2
        left = elder[node]
        if left != NONE:
            prelim[node] = prelim[left] + gap
            if children:
                mod[node] = prelim[node] - middle
        elif children:
            prelim[node] = middle
        if node != root:
            up = parent[node]
            default[up] = apportion(node, default[up]) if left != NONE else node

    x, depth = [0.0] * size, [0] * size
    offsets = [0.0] * size  # the sum of the ancestors' mods
    for node in preorder:
        x[node] = prelim[node] + offsets[node]
        for child in kids[node]:
            offsets[child] = offsets[node] + mod[node]
            depth[child] = depth[node] + 1
    least = min(x[node] for node in preorder)
    for node in preorder:
        x[node] -= least
    return x, depth

"""The designer's analysis of a diagram (beyond the seed's tool, `keylock.md`):

- the walk (`walk.py`): a player starts at Start, moves along the tree's lines (a step a line), picks up
  every key it reaches and passes every open lock, always heading for the nearest object it can reach and
  has not visited (tree distance; ties by placement order); its steps, its order of visits, and its
  back-and-forth (steps along lines already walked);
- the hardest locks to reach (`needs.py`), ranked by the fewest keys a player must pick up to get through
  them, then by the walk's steps before it first passes them: the first is the suggested end;
- the empty locks, with nothing behind them;
- the locks that never open (the original text's multi-key draw, `multi_draw="seed"`, can make some).
"""

from __future__ import annotations

from typing import Any

from dedale.core.documents import UNSET, dump
from dedale.keylock.model import Analysis, Diagram
from dedale.keylock.needs import keys_needed
from dedale.keylock.walk import walk


def analyse(diagram: Diagram) -> dict[str, Any]:
    walked = walk(diagram)
    needs = keys_needed(diagram, walked.order)
    never = diagram.never_open()
    shut = set(never)
    locks = [n.id for n in diagram.nodes if n.type == "lock" and n.id not in shut]
    figure = {lock: needs.figure(lock) for lock in locks}
    ranked = sorted(locks, key=lambda i: (-figure[i], -walked.first_passed[i], i))
    return dump(Analysis(
        empty_locks=[i for i in locks if not diagram.kids(i)], end_candidates=ranked,
        keys_needed={str(i): figure[i] for i in locks},
        # the original text's multi-key draw: locks needing more keys than their set has
        never_open=never or UNSET,
        # too hard to prove within the search's budget: the fewest found, and at least
        keys_needed_unproven={str(i): list(bounds) for i, bounds in sorted(needs.unproven.items())} or UNSET,
        walk=walked.figures()))

"""The key-lock generator's rules, played by the generic session. It has no player choices (its interactive
form is regenerate): the whole diagram is made at the start, and the document carries the spine's envelope
(format, version, seed, parameters, log) with its sets, nodes and analysis."""

from __future__ import annotations

from typing import Any, ClassVar

from dedale.core.documents import dump
from dedale.core.rules import Choice, Policies, Rules, State
from dedale.core.session import Session
from dedale.keylock.analysis import analyse
from dedale.keylock.generator import grow, make_sets
from dedale.keylock.model import Diagram, KeylockResult
from dedale.keylock.params import KeylockParams


class KeylockRules(Rules[KeylockParams, State]):
    system = "keylock"
    # Version 2's keys needed are the least (version 1's were estimated); version 3's walk counts as revisits only
    # the lines walked again (version 2 also took off the locks that never open), and its search for keys needed
    # has a smaller budget (a figure it cannot prove may differ). The rest is unchanged.
    version = 4
    recomputed_before: ClassVar[dict[int, tuple[str, ...]]] = {1: ("analysis",), 2: ("analysis",)}  # worked out again
    table_mode = False  # its weighted picks among every open lock are no dice a table rolls
    policies: ClassVar[Policies] = {}

    def __init__(self, params: KeylockParams, seed: int, table: bool = False, secret: bytes | None = None) -> None:
        super().__init__(params, seed, table, secret)
        self.diagram: Diagram | None = None

    @classmethod
    def params_from_json(cls, data: Any) -> KeylockParams:
        return KeylockParams.from_json(data)

    def new_state(self) -> State:
        return State()

    def start(self) -> None:
        sets, nodes = make_sets(self.params, self.roller)
        grow(sets, nodes, self.params, self.roller)
        self.diagram = Diagram(sets, nodes, self.seed)
        self.analysis = analyse(self.diagram)

    @property
    def over(self) -> bool:
        return True

    def rule_choices(self) -> list[Choice]:
        return []

    def apply(self, choice: Choice) -> None:
        raise AssertionError("a key-lock diagram has no choices")

    def result_json(self) -> dict[str, Any]:
        assert self.diagram is not None
        return {**dump(KeylockResult(sets=self.diagram.sets, nodes=self.diagram.nodes)), "analysis": self.analysis}


KeylockSession = Session[KeylockRules]  # a key-lock game: `Session(KeylockRules, params, seed)`

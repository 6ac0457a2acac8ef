"""The paper dungeon's default autopilot, as the spec gives it: open ends in the order of the `order`
parameter (oldest first by default); the dice for stairs or exit and for room exits; on a Queen, a dead
end while other open ends remain, else draw again; with no open end left, search for secret doors, walls
of the most recent rooms and dead ends first, each wall once."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dedale.paper.session import PaperSession


class DefaultPolicy:
    name = "default"

    def __init__(self, order: str) -> None:  # the parameters say which (`PaperParams.order`)
        self.order = order

    def choose(self, session: PaperSession) -> str:
        phase = session.state.phase
        if phase in ("stairs_or_exit", "room_exit"):
            return "roll"
        if phase == "queen":
            return "dead-end" if session.state.open_ends else "draw-again"
        ends = session.state.open_ends  # in the order they were opened
        if ends:
            if self.order == "oldest":
                return f"end:{ends[0].id}"
            if self.order == "newest":
                return f"end:{ends[-1].id}"
            return f"end:{ends[session.roller.pick(len(ends), 'autopilot.pick', among=len(ends))].id}"
        searches = session.rules.search_targets()  # the most recent features first
        return f"search:{searches[0][0]}:{searches[0][1].name}" if searches else "finish"

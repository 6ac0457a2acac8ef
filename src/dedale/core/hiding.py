"""Sessions whose rules keep something from a seat: an AI's or the other person's cards, bluff rolls, hidden
tokens (the Zombstone duel and skirmish). A system opts in by making its session a `Hiding` and saying what
it hides (`has_secrets`) and how a seat sees its log and result (`shown_log`, `shown_result`); every other
session shows every seat everything (`Session.seat_json` is its document).

While the session `hides(seat)`, what that seat is shown (`seat_log`, `seat_result`, `seat_json`) is
masked; the document (`to_json`) stays the GM's, with both sides' secrets. Seats 0 and 1 each see their own
secrets and not the other's; `SPECTATOR` sees neither. Table mode hides nothing (the players deal and roll
everything at the table), and once the session is over nothing is hidden.

Undo is bounded too: the same choices draw and show the same again, so an event that did more than make its
choice (it drew a result, another seat or the AI moved, the rules showed something, the game ended) is never
undone, nor any before it (`Session.undo_floor`)."""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from dedale.core.rng import LogEntry, TableSource
from dedale.core.session import P, S, Session


class Hiding(Session[P, S]):
    @abstractmethod
    def has_secrets(self) -> bool:
        """Whether, with its parameters, the game keeps anything from a seat (an AI's hand, the other side's)."""

    @abstractmethod
    def shown_log(self, entries: list[LogEntry], seat: int = 0) -> list[LogEntry]:
        """Log entries (as `log_entry` gives them) as `seat` may see them now (`SPECTATOR`: what neither seat
        could keep secret): masked, or left out. Called only while `hides(seat)`."""

    @abstractmethod
    def shown_result(self, result: dict[str, Any], seat: int = 0) -> dict[str, Any]:
        """`result_json()` as `seat` may see it now; called only while `hides(seat)`. The result may share
        lists with the state: return a changed copy, never change it."""

    def only_its_choice(self, entries: list[Any]) -> bool:
        """Whether the log entries an event added after its choice's own say only that the choice was made:
        no other move, nothing shown (`undo`). A system that logs its choices' effects says which those are."""
        return not entries

    # --- what a seat may see ----------------------------------------------------------------------------
    def hides(self, seat: int = 0) -> bool:
        return not self.table and not self.is_over and self.has_secrets()

    def seat_log(self, start: int = 0, seat: int = 0) -> list[LogEntry]:
        """The log from entry `start` on as `seat` may see it now: masked or left out while `hides(seat)`."""
        entries = super().seat_log(start, seat)
        return self.shown_log(entries, seat) if self.hides(seat) else entries

    def seat_seed(self, seat: int = 0) -> int | None:
        """Without a key, the seed remakes every card: held back while something is hidden. With one, it
        tells nothing (`docs/secrets.md`)."""
        return None if self.hides(seat) and self.secret is None else self.seed

    def seat_result(self, seat: int = 0) -> dict[str, Any]:
        result = self.result_json()
        return self.shown_result(result, seat) if self.hides(seat) else result

    def seat_json(self, seat: int = 0) -> dict[str, Any]:
        """While something is hidden from `seat`: its log and result, no secret key, the seed only where a key
        keeps it harmless, and `"hidden": true`. Such a view is for reading and drawing: it cannot be
        continued (`check_document` refuses it)."""
        document = self.to_json()
        if not self.hides(seat):
            return document
        document.pop("secret", None)
        return {**document, **self.seat_result(seat), "seed": self.seat_seed(seat),
                "log": self.seat_log(seat=seat), "hidden": True}

    # --- undo never goes back past what was shown -------------------------------------------------------
    def _watch(self) -> tuple[int | None, int]:
        return self._drawn(), len(self.log)

    def _watched(self, before: tuple[int | None, int]) -> None:
        drawn, logged = before
        showed = self._drawn() != drawn or not self.only_its_choice(self.log[logged + 1:]) or self.is_over
        if showed and not self.table and self.has_secrets():
            self.undo_floor = len(self.events)

    def _drawn(self) -> int | None:
        """Where the random stream stands (None in table mode, where results are entered)."""
        return None if isinstance(self._source, TableSource) else self._source.gen.mark()

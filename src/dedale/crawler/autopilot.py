"""The crawler's default autopilot (the spec's policy): prefer open exits of the most recent room that
lead into empty zones, then any open exit; fill with a chance when filling is legal; search for secret
passages only when no open exit is left, trying rooms from the most recent backwards; reroll after a
non-boss 8; otherwise pick at random. Every random pick is a roll on the session's own source."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dedale.core.session import Choice

if TYPE_CHECKING:
    from dedale.crawler.session import CrawlerSession


class DefaultPolicy:
    name = "default"

    def __init__(self, fill_chance: float) -> None:  # the parameters say how much (`CrawlerParams.fill_chance`)
        self.fill_chance = fill_chance

    def choose(self, session: CrawlerSession) -> str:
        choices = session.choices()
        kinds = {choice.data.get("kind") for choice in choices}
        if "reroll" in kinds:
            return "reroll"
        if "exit" in kinds or "search" in kinds:
            return self._explore(session, choices)
        if "fill" in kinds:
            # Beyond the exit with the rolled size, or fill by chance; a substitute size ("beyond:5x2")
            # comes after filling in the spec's fallback, so the autopilot fills then.
            beyond = next((c.id for c in choices if c.data.get("kind") == "beyond"), None)
            if beyond is None or ":" in beyond or session.roller.chance(self.fill_chance, "autopilot.fill"):
                return "fill"
            return beyond
        return _random(session, choices)

    def _explore(self, session: CrawlerSession, choices: list[Choice]) -> str:
        exits = [c for c in choices if c.data["kind"] == "exit"]
        if exits:
            newest = session.room_number - 1
            preferred = [c for c in exits if c.data["room"] == newest and c.data["rooms_there"] == 0]
            return _random(session, preferred or exits)
        searches = [c for c in choices if c.data["kind"] == "search"]
        newest = max(c.data["room"] for c in searches)
        return _random(session, [c for c in searches if c.data["room"] == newest])


def _random(session: CrawlerSession, choices: list[Choice]) -> str:
    return choices[session.roller.pick(len(choices), "autopilot.pick", among=len(choices))].id

"""The crawler's default autopilot (the spec's policy): prefer open exits of the most recent room that
lead into empty zones, then any open exit; fill with a chance when filling is legal; search for secret
passages only when no open exit is left, trying rooms from the most recent backwards; reroll after a
non-boss 8; otherwise pick at random. Every random pick is a roll on the session's own source."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dedale.core.grid import Dir
    from dedale.crawler.session import CrawlerSession


class DefaultPolicy:
    name = "default"

    def __init__(self, fill_chance: float) -> None:  # the parameters say how much (`CrawlerParams.fill_chance`)
        self.fill_chance = fill_chance

    def choose(self, session: CrawlerSession) -> str:
        # From the session's state, by id, without listing the choices (the session builds only the one made)
        phase = session.state.phase
        if phase == "explore":
            return self._explore(session)
        listed = session.rules.listed_ids()  # a place, a door, a passage's cells: at random
        if listed:
            return listed[_pick(session, len(listed))]
        if phase == "boss_failed":
            return "reroll"
        cur = session.state.current
        options = list(cur.options) if cur is not None and phase == "fill_or_beyond" else []
        if "fill" in options:
            # Beyond the exit with the rolled size, or fill by chance; a substitute size ("beyond:5x2")
            # comes after filling in the spec's fallback, so the autopilot fills then.
            beyond = next((key for key in options if key.partition(":")[0] == "beyond"), None)
            if beyond is None or ":" in beyond or session.roller.chance(self.fill_chance, "autopilot.fill"):
                return "fill"
            return beyond
        choices = session.choices()
        return choices[_pick(session, len(choices))].id

    def _explore(self, session: CrawlerSession) -> str:
        """From the open exits and the walls to search as the session keeps them (in the order its choices
        list them), without listing the choices: the walls are worked out only when no exit is left."""
        newest = session.rules.room_number - 1
        exits = list(session.state.frontier.exits)
        if exits:
            preferred = []
            for room, d in exits:
                if room == newest and not session.rules.rooms_beyond(room, d)[1]:
                    preferred.append((room, d))
            options = preferred or exits
            room, d = options[_pick(session, len(options))]
            return f"exit:{room}:{d.name}"
        return _search(session, list(session.rules.walls()))


def _search(session: CrawlerSession, walls: list[tuple[int, Dir]]) -> str:
    """A wall of the most recent room that has one, at random."""
    newest = max(room for room, _ in walls)
    options = [wall for wall in walls if wall[0] == newest]
    room, d = options[_pick(session, len(options))]
    return f"search:{room}:{d.name}"


def _pick(session: CrawlerSession, among: int) -> int:
    return session.roller.pick(among, "autopilot.pick", among=among)

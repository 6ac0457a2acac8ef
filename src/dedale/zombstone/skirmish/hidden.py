"""What a side may not see of the other's while a skirmish is played (`Session.hides`): the other duellist's
hole cards, unless the duel reached a showdown; its bluff rolls; the inspiration cards the other side draws
and holds (how many it holds stays in sight); and who each of its hidden tokens is: its profile, and its
name wherever the log, a choice made for it or a question would say it (a token goes by its number on the
map). The other side is the AI's against a player, the other person's between two; a spectator sees
neither side's secrets.

A hidden token keeps its place on the table and its state, not its id: figures are listed in their band's
order, so an id would tell who a token is. A side's hidden figures swap ids among themselves, in an order
drawn from the game's secret key (in a game without one, from its seed, which a seat's view does not
carry); a choice naming one (`activate:3`) names it by the swapped id."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from dedale.core.rng import LogEntry
from dedale.i18n import Word, word
from dedale.zombstone.skirmish.duel_session import HIDDEN_CARD, face_down, hide_hole_cards, is_bluff
from dedale.zombstone.skirmish.showdown import SEATS
from dedale.zombstone.skirmish.table import Table

# choices that name a figure by its id (`activate:3`), and the argument that words it
_NAMING = {"activate": "figure", "charisma": "figure", "melee": "target", "shoot": "target", "aim": "target"}
# a side's decisions not to play a card it was asked about: it is asked only when it holds one that would help
UNPLAYED = frozenset({"cards:none", "last_breath:no"})


class Secrets:
    """The secrets kept from `player`'s side (from both, for a spectator: None) as they stand now, and that
    side's view of log entries, events and results."""

    def __init__(self, table: Table, player: str | None, seed: int, secret: bytes | None) -> None:
        game = table.game
        self.others = [side for side in SEATS if side != player]
        self.seats = [SEATS.index(side) for side in self.others]
        self.duel_shown = game.duel is not None and game.duel["folded"] is None  # a showdown shows both
        self.ids: dict[int, int] = {}
        for side in self.others:
            masked = [f.id for f in game.figures if f.side == side and f.hidden]
            self.ids |= dict(zip(sorted(masked, key=lambda i: _shuffled(seed, secret, i)), masked, strict=True))
        tokens = sorted(self.shown_id(f.id) for f in game.figures if f.hidden and f.state != "gone")
        self.labels = {i: word("skirmish.token", token=tokens.index(shown) + 1) if shown in tokens
                       else word("skirmish.token_gone") for i, shown in self.ids.items()}
        # the names the log has given the masked figures (one the log never named needs no masking)
        self.names = {_key(name): label for i, label in self.labels.items()
                      if (name := table.named(game.figure(i))) is not None}
        self.draw_sides = [word(f"skirmish.side.{side}") for side in self.others]

    def shown_id(self, figure_id: int) -> int:
        return self.ids.get(figure_id, figure_id)

    def label(self, figure_id: int) -> Word | None:
        """What a figure hidden from the player is called in what they see (its token), or None."""
        return self.labels.get(figure_id)

    def entry(self, entry: LogEntry) -> LogEntry | None:
        """A log entry as the player may see it: None for the other side's bluff rolls."""
        purpose, args = entry.get("for"), entry.get("args", {})
        if any(is_bluff(entry, seat) for seat in self.seats):
            return None
        if purpose == "duel.hole" and not self.duel_shown:
            for seat in self.seats:
                entry = hide_hole_cards(entry, seat)
        elif purpose == "skirmish.upkeep_draw" and args.get("side") in self.draw_sides and "draw" in entry:
            entry = {**entry, "draw": HIDDEN_CARD}
        if any(_key(value) in self.names for value in args.values()):
            entry = {**entry, "args": {key: self.names.get(_key(value), value) for key, value in args.items()}}
        if "choice" in entry and (named := self._named(entry["choice"])) is not None:
            figure, argument = named  # a choice made for a hidden figure, worded when its side chose
            entry = {**entry, "choice": self.choice(entry["choice"]),
                     "args": {**entry.get("args", {}), argument: self.labels[figure]}}
        return entry

    def event(self, event: dict[str, Any], theirs: bool) -> dict[str, Any] | None:
        """An event as the player may see it: a choice naming a hidden figure names it by its swapped id; one of
        the other side's (`theirs`) that was asked only because it held a card that would help, and played
        none (no card, no Last Breath), is left out: its asking tells of the card."""
        choice = event.get("choice")
        if theirs and choice in UNPLAYED:
            return None
        return {**event, "choice": self.choice(choice)} if isinstance(choice, str) else event

    def choice(self, choice_id: str) -> str:
        named = self._named(choice_id)
        return choice_id if named is None else f"{choice_id.partition(':')[0]}:{self.ids[named[0]]}"

    def _named(self, choice_id: Any) -> tuple[int, str] | None:
        """The hidden figure a choice names, and the argument that words it; None for any other choice."""
        kind, _, rest = str(choice_id).partition(":")
        if kind in _NAMING and rest.isdigit() and int(rest) in self.ids:
            return int(rest), _NAMING[kind]
        return None

    def result(self, result: dict[str, Any]) -> dict[str, Any]:
        """`result_json()` as the player may see it (a copy where anything changes)."""
        game = dict(result["game"])
        figures = [self._figure(figure) for figure in game["figures"]]
        game["figures"] = sorted(figures, key=lambda figure: figure["id"])
        for key in ("fire", "last_fire"):
            game[key] = [{**line, "from": self.shown_id(line["from"]), "to": self.shown_id(line["to"])}
                         for line in game[key]]
        sides = dict(game["sides"])
        for side in self.others:
            sides[side] = {**sides[side], "hand": [HIDDEN_CARD] * len(sides[side]["hand"])}
        game["sides"] = sides
        if game["duel"] is not None and not self.duel_shown:
            hole = game["duel"]["hole"]
            for seat in self.seats:
                hole = face_down(hole, seat)
            game["duel"] = {**game["duel"], "hole": hole}
        known = {figure["profile"] for figure in figures}
        shown = {**result, "game": game, "profiles": {k: v for k, v in result["profiles"].items() if k in known}}
        waiting = result["waiting"]
        if waiting is not None:
            about: dict[str, Any] = {key: self.shown_id(value) if key in ("figure", "shooter") else value
                                     for key, value in waiting["about"].items()}
            if "duel" in about:  # the duel in play: the other's hole cards face down
                duel: dict[str, Any] = about["duel"]
                for seat in self.seats:
                    duel = {**duel, "hole": face_down(duel["hole"], seat)}
                about["duel"] = duel
            shown["waiting"] = {**waiting, "about": about}
        return shown

    def _figure(self, figure: dict[str, Any]) -> dict[str, Any]:
        """A figure as the player sees it; one of the other side's hidden ones as an anonymous token."""
        if figure["id"] not in self.ids:
            return figure
        return {**figure, "id": self.ids[figure["id"]], "profile": None, "ticked": 0, "wounded": False,
                "fame": 0, "hired": False}


def _key(value: Any) -> str | None:
    """A name (a word) as a key to match it by, None for an argument that is no word."""
    return json.dumps(value, sort_keys=True) if isinstance(value, dict) else None


def _shuffled(seed: int, secret: bytes | None, figure_id: int) -> bytes:
    """A sort key for the figure that only the seed predicts (keyed with the secret key of a document saved
    before seeds were long, when it has one: the order its views were made with)."""
    return hashlib.blake2b(f"{seed}:{figure_id}".encode(), digest_size=8, key=secret or b"").digest()

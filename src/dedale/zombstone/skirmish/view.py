"""A skirmish as its pictures see it: read from the JSON document a session saves (`Session.to_json`),
checked as it is read, so a renderer draws from plain, trusted fields and a malformed document fails with one
clear message (`error.bad_document`, naming the field) rather than a traceback halfway through a drawing."""

from __future__ import annotations

import json
import math
import string
from dataclasses import dataclass
from typing import Any

from dedale.core.errors import DedaleError
from dedale.i18n import Word, data_word, given, say, t
from dedale.zombstone.skirmish.battlefield import Battlefield
from dedale.zombstone.skirmish.catalogue import DUEL_KINDS, SIDES, STATUSES
from dedale.zombstone.skirmish.model import IN_PLAY

STATES = ("ready", "fleeing", "out", "gone")
FIRE_KINDS = ("dodge", "return", "melee")
WINNERS = ("attacker", "defender")
ENDINGS = ("eliminated", "condition", "turns", "draw")
DECIDED = ("elimination", "flight", "stars", "escort", "hold", "survival", "dollars")  # `victory.py`
# one character a figure, so the text grid and the picture name it alike: lawmen upper case, zombies lower
LABELS = {"lawmen": string.ascii_uppercase + string.digits, "zombies": string.ascii_lowercase + string.digits}


@dataclass(frozen=True)
class ProfileView:
    id: str
    name: Word
    status: str
    cartridges: int
    red: int
    cost: int


@dataclass(frozen=True)
class FigureView:
    id: int
    profile: str | None  # None: a hidden figure of the other side, in a player's view (who it is is unknown)
    side: str
    x: float
    y: float
    ticked: int  # cartridges lost
    state: str  # ready, fleeing, out (fell where it stands) or gone (fled for good)
    wounded: bool
    hidden: bool  # a numbered token until an enemy sees it
    fame: int
    hired: bool

    @property
    def in_play(self) -> bool:
        return self.state in IN_PLAY

    @property
    def on_table(self) -> bool:
        """Drawn on the map: every figure but those that fled for good."""
        return self.state != "gone"

    @property
    def masked(self) -> bool:
        """A token the viewer may not know: its profile is left out of the player's view."""
        return self.profile is None


@dataclass(frozen=True)
class FireView:
    attacker: int
    target: int
    kind: str  # dodge, return (fire returned) or melee
    turn: int
    line: tuple[float, float, float, float]  # from the attacker to the target, where they stood then
    won: str | None  # attacker, defender, or None when nobody was hurt
    current: bool  # this turn's, or the previous turn's


@dataclass(frozen=True)
class GameView:
    scenario: Word  # its name
    battlefield: Battlefield
    turns: int
    turn: int
    initiative: str | None
    profiles: dict[str, ProfileView]
    figures: tuple[FigureView, ...]
    fire: tuple[FireView, ...]  # the previous turn's first, then this turn's
    winner: str | None
    ending: str | None
    duel: dict[str, Any] | None  # {kind, winner, folded, hands} of a High Noon duel, as the game records it
    waiting: dict[str, Any] | None  # {side, kind, about} of the decision the game waits for
    hands: dict[str, int]  # inspiration cards in each side's hand
    decided_by: str | None = None  # the condition that decided the game (older documents: none)

    @classmethod
    def from_json(cls, document: Any) -> GameView:
        """The view of a session's document (the object, or its JSON text); `error.bad_document` names the first
        field missing or malformed."""
        if isinstance(document, str | bytes):
            try:
                document = json.loads(document)
            except ValueError as err:
                raise DedaleError("error.bad_document", field="document") from err
        root = _Reader(document, "")
        scenario, game = root.child("scenario"), root.child("game")
        profiles = {}
        listed = root.child("profiles")
        for key in listed.data:
            data = listed.child(key)
            profile = ProfileView(key, _name(data, "profile", key), data.choice("status", STATUSES),
                                  data.count("cartridges", 1), data.count("red"), data.count("cost"))
            if profile.red > profile.cartridges:
                raise DedaleError("error.bad_document", field=f"profiles.{key}.red")
            profiles[key] = profile
        figures = tuple(_figure(entry, profiles) for entry in game.items("figures"))
        ids = [f.id for f in figures]
        if ids != list(range(len(figures))):  # the game finds a figure by its place in the list
            raise DedaleError("error.bad_document", field="game.figures.id")
        fire = tuple(_fire(entry, len(figures), current) for current, field in ((False, "last_fire"), (True, "fire"))
                     for entry in game.items(field))
        sides = game.child("sides")
        hands = {side: len(sides.child(side).get("hand", list)) for side in SIDES}
        waiting = root.optional("waiting", dict)
        if waiting is not None:
            reader = root.child("waiting")
            waiting = {"side": reader.choice("side", SIDES), "kind": reader.get("kind", str),
                       "about": reader.get("about", dict)}
        duel = game.optional("duel", dict)
        if duel is not None:
            reader = game.child("duel")
            duel = {"kind": reader.optional_choice("kind", DUEL_KINDS) or "holdem",  # a poker duel's has none
                    "winner": reader.optional_choice("winner", SIDES),
                    "folded": reader.optional_choice("folded", SIDES),
                    "hands": [_text(hand, "game.duel.hands") for hand in reader.get("hands", list)]}
            if duel["winner"] and not duel["folded"] and len(duel["hands"]) != len(SIDES):  # won at the showdown
                raise DedaleError("error.bad_document", field="game.duel.hands")
        return cls(_name(scenario, "scenario", scenario.get("id", str)), _battlefield(scenario),
                   scenario.count("turns", 1), game.count("turn"), game.optional_choice("initiative", SIDES), profiles,
                   figures, fire, game.optional_choice("winner", SIDES), game.optional_choice("ending", ENDINGS), duel,
                   waiting, hands, game.optional_choice("decided_by", DECIDED))

    def profile(self, figure: FigureView) -> ProfileView:
        """The figure's profile (a masked figure has none)."""
        assert figure.profile is not None
        return self.profiles[figure.profile]

    def side(self, side: str) -> list[FigureView]:
        return [f for f in self.figures if f.side == side]

    def name(self, figure: FigureView, lang: str = "en") -> str:
        """The character's name, numbered when its side has several of the kind ("Zombie 3"), as the log says;
        a masked figure's token, as the player's log says."""
        if figure.masked:
            return t("skirmish.token", lang, token=self.token(figure)) if figure.on_table else t(
                "skirmish.token_gone", lang)
        same = [f.id for f in self.figures if f.profile == figure.profile and f.side == figure.side]
        name = self.profile(figure).name
        return say(name, lang) if len(same) == 1 else t("skirmish.numbered", lang, name=name,
                                                        number=same.index(figure.id) + 1)

    def label(self, figure: FigureView) -> str:
        """The figure's one character on the map and in the roster (`?` past 36 figures a side)."""
        index = [f.id for f in self.side(figure.side)].index(figure.id)
        letters = LABELS[figure.side]
        return letters[index] if index < len(letters) else "?"

    def token(self, figure: FigureView) -> int:
        """A hidden figure's token number, counted across the table so no two tokens share one."""
        return [f.id for f in self.figures if f.hidden and f.on_table].index(figure.id) + 1

    def cartridges_left(self, figure: FigureView) -> int:
        return self.profile(figure).cartridges - figure.ticked

    def worth(self, side: str) -> int:
        """The dollars the side still has in play: what decides a game at the turn limit (the masked figures'
        unknown, left out)."""
        return sum(self.profile(f).cost for f in self.side(side) if f.in_play and not f.masked)

    def worth_shown(self, side: str) -> str:
        """The side's worth in words: "45", or "45+?" when masked figures in play add an unknown sum."""
        unknown = any(f.in_play and f.masked for f in self.side(side))
        return f"{self.worth(side)}+?" if unknown else str(self.worth(side))

    @property
    def acting(self) -> FigureView | None:
        """The figure the awaited decision is about (the one acting, dodging or betting), if any."""
        figure = (self.waiting or {}).get("about", {}).get("figure")
        if isinstance(figure, int) and not isinstance(figure, bool) and 0 <= figure < len(self.figures):
            return self.figures[figure]
        return None

    @property
    def over(self) -> bool:
        return self.ending is not None


class _Reader:
    """One JSON object of the document, each field fetched with its expected type or the error naming it."""

    def __init__(self, data: Any, path: str) -> None:
        if not isinstance(data, dict):
            raise DedaleError("error.bad_document", field=path or "document")
        self.data, self.path = data, path

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def child(self, key: str) -> _Reader:
        return _Reader(self.data.get(key), self.where(key))

    def get(self, key: str, kind: Any) -> Any:
        """The field, of type `kind` (a type or a union); booleans are not numbers here."""
        value = self.data.get(key)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise DedaleError("error.bad_document", field=self.where(key))
        return value

    def optional(self, key: str, kind: Any) -> Any:
        return None if self.data.get(key) is None else self.get(key, kind)

    def choice(self, key: str, accepted: tuple[str, ...]) -> str:
        value = self.get(key, str)
        if value not in accepted:
            raise DedaleError("error.bad_document", field=self.where(key))
        return value

    def optional_choice(self, key: str, accepted: tuple[str, ...]) -> str | None:
        return None if self.data.get(key) is None else self.choice(key, accepted)

    def count(self, key: str, least: int = 0) -> int:
        value = self.get(key, int)
        if value < least:
            raise DedaleError("error.bad_document", field=self.where(key))
        return value

    def number(self, key: str) -> float:
        value = self.get(key, int | float)
        if not math.isfinite(value):
            raise DedaleError("error.bad_document", field=self.where(key))
        return float(value)

    def flag(self, key: str) -> bool:
        return bool(self.optional(key, bool))

    def items(self, key: str) -> list[_Reader]:
        return [_Reader(entry, f"{self.where(key)}.{index}") for index, entry in enumerate(self.get(key, list))]


def _name(data: _Reader, kind: str, item: str) -> Word:
    """A profile's or scenario's name: kept in the document when it is the player's own (or the document is
    older than language-free ones), else the shipped one, looked up by id."""
    if "name" not in data.data:
        return data_word("zombstone", kind, item)
    name = data.get("name", str | dict)
    if isinstance(name, dict) and not (name and all(isinstance(v, str) for v in name.values())):
        raise DedaleError("error.bad_document", field=data.where("name"))
    return given(name)


def _battlefield(scenario: _Reader) -> Battlefield:
    """The table, checked by the battlefield itself; its finer complaint becomes the document's field."""
    try:
        return Battlefield.from_json({key: scenario.data.get(key) for key in ("width", "height", "terrain")})
    except DedaleError as err:
        param = err.args_.get("param")
        field = f"scenario.{param}" if err.key == "error.battlefield.size" else "scenario.terrain"
        raise DedaleError("error.bad_document", field=field) from err


def _figure(entry: _Reader, profiles: dict[str, ProfileView]) -> FigureView:
    profile = entry.optional_choice("profile", tuple(profiles))
    figure = FigureView(entry.count("id"), profile, entry.choice("side", SIDES), entry.number("x"), entry.number("y"),
                        entry.count("ticked"), entry.choice("state", STATES), entry.flag("wounded"),
                        entry.flag("hidden"), entry.optional("fame", int) or 0, entry.flag("hired"))
    if profile is None and not figure.hidden:  # only a hidden figure may be masked
        raise DedaleError("error.bad_document", field=entry.where("profile"))
    most = 0 if profile is None else profiles[profile].cartridges  # a masked figure shows no damage
    if figure.ticked > most:
        raise DedaleError("error.bad_document", field=entry.where("ticked"))
    return figure


def _fire(entry: _Reader, figures: int, current: bool) -> FireView:
    ends = []
    for key in ("from", "to"):
        end = entry.count(key)
        if end >= figures:
            raise DedaleError("error.bad_document", field=entry.where(key))
        ends.append(end)
    line = entry.get("line", list)
    if len(line) != 4 or not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                                 for v in line):
        raise DedaleError("error.bad_document", field=entry.where("line"))
    x1, y1, x2, y2 = (float(v) for v in line)
    return FireView(ends[0], ends[1], entry.choice("kind", FIRE_KINDS), entry.count("turn"), (x1, y1, x2, y2),
                    entry.optional_choice("won", WINNERS), current)


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise DedaleError("error.bad_document", field=field)
    return value

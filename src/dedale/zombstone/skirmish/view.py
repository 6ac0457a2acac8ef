"""A skirmish as its pictures see it: read from the JSON document a session saves (`Session.to_json`) as
its shapes (`document.py`) and checked, so a renderer draws from plain, trusted fields and a malformed document
fails with one clear message (`error.bad_document`, naming the field) rather than a traceback halfway through a
drawing."""

from __future__ import annotations

import json
import math
import string
from dataclasses import dataclass
from typing import Any

from dedale.core.documents import UnsetType, dump, load_result
from dedale.core.errors import DedaleError
from dedale.i18n import Word, data_word, given, say, t
from dedale.zombstone.skirmish.battlefield import Battlefield
from dedale.zombstone.skirmish.catalogue import SIDES
from dedale.zombstone.skirmish.document import (
    FigureShape,
    Fire,
    ProfileShape,
    ScenarioShape,
    SkirmishResult,
)
from dedale.zombstone.skirmish.model import IN_PLAY

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
    profile: str | None  # None: a hidden figure of the other side, in a seat's view (who it is is unknown)
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
        """A token the viewer may not know: its profile is left out of the seat's view."""
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
        """The view of a session's document (the object, or its JSON text), read as its shapes
        (`document.py`); `error.bad_document` names the first field missing or malformed."""
        if isinstance(document, str | bytes):
            try:
                document = json.loads(document)
            except ValueError as err:
                raise DedaleError("error.bad_document", field="document") from err
        if not isinstance(document, dict):
            raise DedaleError("error.bad_document", field="document")
        result = load_result(SkirmishResult, document)
        scenario, game = result.scenario, result.game
        profiles = {key: _profile(key, profile) for key, profile in result.profiles.items()}
        figures = tuple(_figure(index, figure, profiles) for index, figure in enumerate(game.figures))
        fire = tuple(_fire(f"$.game.{field}[{index}]", line, len(figures), current)
                     for current, field in ((False, "last_fire"), (True, "fire"))
                     for index, line in enumerate(getattr(game, field)))
        for side in SIDES:
            if side not in game.sides:
                raise DedaleError("error.bad_document", field=f"$.game.sides.{side}")
        waiting = None if result.waiting is None else {
            "side": result.waiting.side, "kind": result.waiting.kind, "about": result.waiting.about}
        duel = None
        if (outcome := game.duel) is not None:
            if outcome.winner and not outcome.folded and len(outcome.hands) != len(SIDES):  # won at the showdown
                raise DedaleError("error.bad_document", field="$.game.duel.hands")
            duel = {"kind": outcome.kind or "holdem",  # a poker duel's has none
                    "winner": outcome.winner, "folded": outcome.folded, "hands": outcome.hands}
        return cls(_name(scenario.name, "scenario", scenario.id, "$.scenario.name"), _battlefield(scenario),
                   scenario.turns, game.turn, game.initiative, profiles, figures, fire, game.winner, game.ending, duel,
                   waiting, {side: len(game.sides[side].hand) for side in SIDES}, game.decided_by)

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


def _name(name: str | dict[str, str] | UnsetType, kind: str, item: str, where: str) -> Word:
    """A profile's or scenario's name: kept in the document when it is the player's own (or the document is
    older than language-free ones), else the shipped one, looked up by id."""
    if isinstance(name, UnsetType):
        return data_word("zombstone", kind, item)
    if isinstance(name, dict) and not name:
        raise DedaleError("error.bad_document", field=where)
    return given(name)


def _profile(key: str, profile: ProfileShape) -> ProfileView:
    if profile.red > profile.cartridges:
        raise DedaleError("error.bad_document", field=f"$.profiles.{key}.red")
    return ProfileView(key, _name(profile.name, "profile", key, f"$.profiles.{key}.name"), profile.status,
                       profile.cartridges, profile.red, profile.cost)


def _battlefield(scenario: ScenarioShape) -> Battlefield:
    """The table, checked by the battlefield itself; its finer complaint becomes the document's field."""
    try:
        return Battlefield.from_json({"width": scenario.width, "height": scenario.height,
                                      "terrain": dump(scenario.terrain)})
    except DedaleError as err:
        param = err.args_.get("param")
        field = f"$.scenario.{param}" if err.key == "error.battlefield.size" else "$.scenario.terrain"
        raise DedaleError("error.bad_document", field=field) from err


def _figure(index: int, figure: FigureShape, profiles: dict[str, ProfileView]) -> FigureView:
    where = f"$.game.figures[{index}]"
    if figure.id != index:  # the game finds a figure by its place in the list
        raise DedaleError("error.bad_document", field=f"{where}.id")
    if figure.profile is None and not figure.hidden:  # only a hidden figure may be masked
        raise DedaleError("error.bad_document", field=f"{where}.profile")
    if figure.profile is not None and figure.profile not in profiles:
        raise DedaleError("error.bad_document", field=f"{where}.profile")
    for key in ("x", "y"):
        if not math.isfinite(getattr(figure, key)):
            raise DedaleError("error.bad_document", field=f"{where}.{key}")
    most = 0 if figure.profile is None else profiles[figure.profile].cartridges  # a masked figure shows no damage
    if figure.ticked > most:
        raise DedaleError("error.bad_document", field=f"{where}.ticked")
    return FigureView(figure.id, figure.profile, figure.side, float(figure.x), float(figure.y), figure.ticked,
                      figure.state, figure.wounded, figure.hidden, figure.fame, figure.hired)


def _fire(where: str, fire: Fire, figures: int, current: bool) -> FireView:
    for key, end in (("from", fire.from_), ("to", fire.to)):
        if not 0 <= end < figures:
            raise DedaleError("error.bad_document", field=f"{where}.{key}")
    if not all(math.isfinite(v) for v in fire.line):
        raise DedaleError("error.bad_document", field=f"{where}.line")
    x1, y1, x2, y2 = (float(v) for v in fire.line)
    return FireView(fire.from_, fire.to, fire.kind, fire.turn, (x1, y1, x2, y2), fire.won, current)

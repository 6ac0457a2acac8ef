"""The skirmish's data: weapons, character profiles, bands and scenarios, read from TOML files (the shipped
ones, or a player's folder whose files replace those of the same name), each checked with a clear message
naming the file, the entry and what is accepted.

Documents name a shipped profile or scenario by its id (its name is looked up when shown, `shipped_label`);
one from a player's file keeps its names as the file gives them."""

from __future__ import annotations

import os
import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from dedale.core.documents import UNSET
from dedale.core.errors import DedaleError
from dedale.core.files import read_data
from dedale.i18n import Word, data_word, given, pick
from dedale.zombstone.entries import Entry, entries
from dedale.zombstone.hands import POTENTIALS
from dedale.zombstone.skirmish.battlefield import Battlefield, Terrain
from dedale.zombstone.skirmish.document import FavouredShape, ProfileShape, ScenarioShape, VictoryShape
from dedale.zombstone.skirmish.skills import SKILLS
from dedale.zombstone.weapons import Weapon, read_weapons

STATUSES = ("star", "supporting", "extra")
SIDES = ("lawmen", "zombies")
LIMITS = {"star": 2, "supporting": 4}  # a band's Stars and Supporting roles (Extras: no limit)
VICTORIES = ("dollars", "survive_lawmen", "survive_zombies", "hold", "escort", "eliminate_stars")  # `victory.py`
DUEL_KINDS = ("holdem", "simple")  # the seed's poker duel (its idea no. 2), or a Guts roll each (no. 1)
FILES = ("weapons.toml", "profiles.toml", "bands.toml", "scenarios.toml")


@dataclass(frozen=True)
class Profile:
    id: str
    names: dict[str, str]
    status: str
    potential: tuple[int, int]  # reroll dice unhurt, wounded
    hand: int
    cartridges: int
    red: int
    gun: str | None  # a weapon id
    melee: str  # a weapon id (fists when the profile names none)
    skills: tuple[str, ...]
    cost: int
    roles: dict[str, str]
    shipped: bool = True  # False: from a player's own file

    def name(self, lang: str = "en") -> str:
        return pick(self.names, lang)

    @property
    def word(self) -> Word:
        """The name as documents keep it (`i18n`)."""
        return data_word("zombstone", "profile", self.id) if self.shipped else given(self.names)

    def has(self, skill: str) -> bool:
        return skill in self.skills

    def shape(self) -> ProfileShape:
        return ProfileShape(name=_own_name(self.word), status=self.status,  # type: ignore[arg-type]
                            potential=list(self.potential), hand=self.hand, cartridges=self.cartridges, red=self.red,
                            gun=self.gun, melee=self.melee, skills=list(self.skills), cost=self.cost)


@dataclass(frozen=True)
class Band:
    id: str
    names: dict[str, str]
    side: str
    members: tuple[str, ...]

    def name(self, lang: str = "en") -> str:
        return pick(self.names, lang)


@dataclass(frozen=True)
class Duel:
    """A scenario's duel: who faces whom, how far apart, where the others deploy, and how it is played."""

    duellists: dict[str, str]  # side -> profile id
    apart: float = 12.0
    cover_within: float = 12.0
    hidden: bool = False  # the others deploy as hidden tokens, revealed when an enemy sees them
    kind: str = "holdem"  # one of DUEL_KINDS


@dataclass(frozen=True)
class Victory:
    """How the scenario is won besides eliminating the other side (`victory.py`)."""

    kind: str = "dollars"
    place: tuple[float, float, float, float] | None = None  # hold: the place; escort: where the character goes
    escort: str | None = None  # escort: the profile escorted
    side: str | None = None  # escort: the side of the escorted character

    def shape(self) -> VictoryShape:
        escorted = self.escort is not None
        return VictoryShape(self.kind, UNSET if self.place is None else list(self.place),  # type: ignore[arg-type]
                            self.escort if escorted else UNSET, self.side if escorted else UNSET)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Favoured:
    """A scenario that is not even says so: the side the default AIs see win more often, and why."""

    side: str
    why: dict[str, str]

    def shape(self) -> FavouredShape:
        return FavouredShape(self.side, self.why)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Scenario:
    id: str
    names: dict[str, str]
    story: dict[str, str]
    battlefield: Battlefield
    turns: int
    first: str  # the side that declares its initiative first
    bands: dict[str, str]  # side -> band id
    deploy: dict[str, tuple[float, float, float, float]]  # side -> zone (x, y, w, h)
    duel: Duel | None
    victory: Victory = Victory()
    shipped: bool = True  # False: from a player's own file
    favoured: Favoured | None = None  # an uneven scenario's declared favourite

    def name(self, lang: str = "en") -> str:
        return pick(self.names, lang)

    @property
    def word(self) -> Word:
        """The name as documents keep it (`i18n`)."""
        return data_word("zombstone", "scenario", self.id) if self.shipped else given(self.names)

    def shape(self) -> ScenarioShape:
        """What a document says of the scenario: its table, its length, how it is won."""
        field = self.battlefield
        return ScenarioShape(id=self.id, name=_own_name(self.word), width=field.width, height=field.height,
                             terrain=[piece.shape() for piece in field.terrain], turns=self.turns,
                             victory=self.victory.shape(),
                             favoured=UNSET if self.favoured is None else self.favoured.shape())


def _own_name(name: Word) -> Any:
    """The name of a profile or scenario of the player's own files (as they give it), UNSET for a shipped one:
    a document's reader looks its name up by id."""
    return name.get("l", UNSET)


@dataclass(frozen=True)
class Catalogue:
    weapons: dict[str, Weapon]
    profiles: dict[str, Profile]
    bands: dict[str, Band]
    scenarios: dict[str, Scenario]

    def profile(self, profile_id: str) -> Profile:
        return _find(self.profiles, profile_id, "profile")

    def band(self, band_id: str) -> Band:
        return _find(self.bands, band_id, "band")

    def scenario(self, scenario_id: str) -> Scenario:
        return _find(self.scenarios, scenario_id.strip().lower().replace("-", "_").replace(" ", "_"), "scenario")


def _find(found: dict[str, Any], key: str, what: str) -> Any:
    if key not in found:
        raise DedaleError("error.skirmish.unknown", what=what, value=key, accepted=", ".join(found))
    return found[key]


def load_catalogue(folder: str | None = None) -> Catalogue:
    """The shipped data, with the files of `folder` replacing those of the same name."""
    stamp: tuple[tuple[str, int], ...] = ()
    if folder is not None:
        path = Path(folder)
        if not os.path.isdir(path):  # os.path's: False, not an error, for an impossible path
            raise DedaleError("error.skirmish.folder", path=folder)
        stamp = tuple((name, (path / name).stat().st_mtime_ns) for name in FILES if os.path.isfile(path / name))
    return _load(folder, stamp)


def shipped_label(source: str, kind: str, item: str) -> dict[str, str] | None:
    """The names by language of a shipped profile or scenario (`kind`), None when there is none such."""
    shipped = _load(None, ())
    found = (shipped.profiles if kind == "profile" else shipped.scenarios).get(item)
    return None if found is None else found.names


@lru_cache(maxsize=8)
def _load(folder: str | None, stamp: tuple[tuple[str, int], ...]) -> Catalogue:
    documents = {name: _read(folder, name) for name in FILES}
    weapons = read_weapons(*documents["weapons.toml"])
    profiles = _profiles(*documents["profiles.toml"], weapons)
    bands = _bands(*documents["bands.toml"], profiles)
    return Catalogue(weapons, profiles, bands, _scenarios(*documents["scenarios.toml"], bands, profiles))


def _shipped(file: str) -> bool:
    return file.startswith("dedale.zombstone.skirmish:data/")  # `_read`'s name for a file of the package


def _read(folder: str | None, name: str) -> tuple[str, dict[str, Any]]:
    if folder is not None and os.path.isfile(Path(folder) / name):
        path = Path(folder) / name
        try:
            file, text = str(path), read_data(path).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DedaleError("table.unreadable", file=str(path), problem=str(exc)) from None
    else:
        package = "dedale.zombstone" if name == "weapons.toml" else "dedale.zombstone.skirmish"
        file, text = f"{package}:data/{name}", resources.files(package).joinpath("data", name).read_text("utf-8")
    try:
        return file, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DedaleError("table.syntax", file=file, problem=str(exc)) from None


def _profiles(file: str, document: dict[str, Any], weapons: dict[str, Weapon]) -> dict[str, Profile]:
    found = {}
    for entry in entries(file, document, "profile"):
        potential = entry.get("potential", list)
        if not 1 <= len(potential) <= 2 or not all(isinstance(p, int) and p in POTENTIALS for p in potential):
            raise entry.fail("error.skirmish.potential", value=repr(potential))
        cartridges = entry.number("cartridges", 1, 12, 6)
        gun = melee = None
        for weapon_id in entry.get("weapons", list, []):
            if weapon_id not in weapons:
                raise entry.fail("error.skirmish.weapon", value=weapon_id, accepted=", ".join(weapons))
            slot = "melee" if weapons[weapon_id].melee else "gun"
            if (melee if slot == "melee" else gun) is not None:
                raise entry.fail("error.skirmish.two_weapons", slot=slot)
            gun, melee = (gun, weapon_id) if slot == "melee" else (weapon_id, melee)
        skills = entry.get("skills", list, [])
        for skill in skills:
            if skill not in SKILLS:
                raise entry.fail("error.skirmish.skill", value=skill, accepted=", ".join(SKILLS))
        profile_id = entry.get("id", str)
        found[profile_id] = Profile(
            profile_id, entry.labels("name"), entry.choice("status", STATUSES),
            (potential[0], potential[-1]), entry.number("hand", 0, 5, 1), cartridges,
            entry.number("red", 1, cartridges, min(2, cartridges)), gun, melee or "fists", tuple(skills),
            entry.number("cost", 0, 10_000, 0), entry.labels("role", {}) if "role" in entry.data else {},
            _shipped(file))
    return found


def _bands(file: str, document: dict[str, Any], profiles: dict[str, Profile]) -> dict[str, Band]:
    found = {}
    for entry in entries(file, document, "band"):
        members = entry.get("members", list)
        if not members:
            raise entry.fail("error.skirmish.field", field="members", value="[]")
        for member in members:
            if member not in profiles:
                raise entry.fail("error.skirmish.profile", value=member, accepted=", ".join(profiles))
        check_limits(entry, [profiles[m] for m in members])
        found[entry.get("id", str)] = Band(entry.get("id", str), entry.labels("name"), entry.choice("side", SIDES),
                                           tuple(members))
    return found


def check_limits(entry: Entry | None, members: list[Profile]) -> None:
    """At most 2 Stars and 4 Supporting roles a band."""
    counts = Counter(p.status for p in members)
    for status, most in LIMITS.items():
        if counts[status] > most:
            raise DedaleError("error.skirmish.limit", file=entry.file if entry else "-",
                              entry=entry.where if entry else "-", status=status, count=counts[status], most=most)


def _scenarios(file: str, document: dict[str, Any], bands: dict[str, Band],
               profiles: dict[str, Profile]) -> dict[str, Scenario]:
    found = {}
    for entry in entries(file, document, "scenario"):
        width = entry.number("width", 6, 120, 36.0, whole=False)
        height = entry.number("height", 6, 120, 36.0, whole=False)
        terrain = []
        for i, piece in enumerate(entry.get("terrain", list, [])):
            part = Entry(file, f"{entry.where}: terrain", i, piece)
            x, y, w, h = (float(part.number(k, -1000, 1000, whole=False)) for k in "xywh")
            terrain.append(Terrain(part.get("kind", str), x, y, w, h, part.get("name", str, ""),
                                   float(part.number("height", 0, 1000, 1.0, whole=False))))
        try:
            battlefield = Battlefield(float(width), float(height), tuple(terrain))
        except DedaleError as exc:
            raise entry.fail("error.skirmish.entry", problem=exc.message("en")) from None
        chosen = entry.get("bands", dict)
        deploy = entry.get("deploy", dict)
        for side in SIDES:
            band = bands.get(chosen.get(side))
            if band is None or band.side != side:
                accepted = ", ".join(b.id for b in bands.values() if b.side == side)
                raise entry.fail("error.skirmish.band", side=side, value=chosen.get(side), accepted=accepted)
            zone = deploy.get(side)
            if not (isinstance(zone, list) and len(zone) == 4 and all(isinstance(v, int | float) for v in zone)
                    and zone[2] > 0 and zone[3] > 0 and zone[0] >= 0 and zone[1] >= 0
                    and zone[0] + zone[2] <= width and zone[1] + zone[3] <= height):
                raise entry.fail("error.skirmish.deploy", side=side, value=repr(zone))
        duel = None
        if "duel" in entry.data:
            part = Entry(file, f"{entry.where}: duel", 0, entry.get("duel", dict))
            duellists = {side: part.get(side, str) for side in SIDES}
            for side, duellist in duellists.items():
                if duellist not in bands[chosen[side]].members:
                    raise part.fail("error.skirmish.duellist", value=duellist, band=chosen[side])
            duel = Duel(duellists, float(part.number("apart", 2, 40, 12.0, whole=False)),
                        float(part.number("cover_within", 1, 40, 12.0, whole=False)), part.get("hidden", bool, False),
                        part.choice("kind", DUEL_KINDS, "holdem"))
        found[entry.get("id", str)] = Scenario(
            entry.get("id", str), entry.labels("name"), entry.labels("story", {}), battlefield,
            entry.number("turns", 1, 50, 8), entry.choice("first", SIDES, "lawmen"),
            {side: chosen[side] for side in SIDES}, {side: _box(deploy[side]) for side in SIDES},
            duel, _victory(entry, {side: bands[chosen[side]] for side in SIDES}), _shipped(file), _favoured(entry))
    return found


def _victory(entry: Entry, bands: dict[str, Band]) -> Victory:
    """`victory`, with the `place` a hold or an escort needs, and the escort's character (`escort`)."""
    kind = entry.choice("victory", VICTORIES, "dollars")
    if kind not in ("hold", "escort"):
        return Victory(kind)
    place = entry.get("place", list)
    width, height = entry.data.get("width", 36.0), entry.data.get("height", 36.0)
    if not (len(place) == 4 and all(isinstance(v, int | float) and not isinstance(v, bool) for v in place)
            and place[2] > 0 and place[3] > 0 and place[0] >= 0 and place[1] >= 0
            and place[0] + place[2] <= width and place[1] + place[3] <= height):
        raise entry.fail("error.skirmish.field", field="place", value=repr(place))
    if kind == "hold":
        return Victory(kind, _box(place))
    escort = entry.get("escort", str)
    side = next((side for side, band in bands.items() if escort in band.members), None)
    if side is None or bands[side].members.count(escort) != 1:
        raise entry.fail("error.skirmish.field", field="escort", value=repr(escort))
    return Victory(kind, _box(place), escort, side)


def _favoured(entry: Entry) -> Favoured | None:
    if "favoured" not in entry.data:
        return None
    part = Entry(entry.file, f"{entry.where}: favoured", 0, entry.get("favoured", dict))
    return Favoured(part.choice("side", SIDES), part.labels("why"))


def _box(numbers: Any) -> tuple[float, float, float, float]:
    x, y, w, h = map(float, numbers)
    return x, y, w, h

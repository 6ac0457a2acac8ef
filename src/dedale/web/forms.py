"""Each system's parameters as a web form (and as the API's `params`): the fields, their defaults, and
limits tighter than the command line's, so that no request can exhaust the machine."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dedale.core.errors import DedaleError
from dedale.crawler.params import CrawlerParams
from dedale.hexcrawl.params import ORDERS, HexParams, parse_hex
from dedale.keylock.params import KeylockParams
from dedale.paper.params import PaperParams
from dedale.zombstone.policy import MAX_ROUNDS
from dedale.zombstone.skirmish.ai import POLICIES
from dedale.zombstone.skirmish.catalogue import SIDES, load_catalogue
from dedale.zombstone.skirmish.duel import STYLES
from dedale.zombstone.skirmish.duel_session import MAX_ADDED, DuelParams
from dedale.zombstone.skirmish.params import SkirmishParams


@dataclass(frozen=True)
class Field:
    name: str
    kind: str  # "int", "float", "text", "choice" or "bool"
    default: Any
    low: float | None = None
    high: float | None = None
    options: tuple[str, ...] = ()
    optional: bool = False


FIELDS: dict[str, tuple[Field, ...]] = {
    "crawler": (
        Field("size", "text", "3d6"), Field("board", "int", 5, 2, 10), Field("zone", "int", 5, 2, 12),
        Field("boss_size", "text", "", optional=True), Field("start", "text", "", optional=True),
        Field("fill_chance", "float", 0.3, 0, 1), Field("stock", "text", "", optional=True),
        Field("early_boss", "bool", True), Field("contents", "choice", "tables", options=("tables", "dungeon-roll")),
    ),
    "paper": (
        Field("width", "int", 60, 4, 150), Field("height", "int", 60, 4, 150), Field("max_cards", "int", 80, 1, 500),
        Field("order", "choice", "oldest", options=("oldest", "newest", "random")),
        Field("kings", "choice", "reshuffle", options=("reshuffle", "set-aside")),
        Field("start_size", "int", 4, 3, 20),
    ),
    "hexcrawl": (
        Field("radius", "int", 12, 0, 40), Field("order", "choice", "spiral", options=ORDERS),
        Field("obstacle_chance", "float", 0.25, 0, 1), Field("variant", "choice", "rule", options=("rule", "weighted")),
        Field("start", "text", "0,0"), Field("sites", "bool", True),
    ),
    "keylock": (
        Field("unique", "int", 3, 0, 200), Field("multi", "int", 1, 0, 50), Field("multi_max_locks", "int", 2, 1, 10),
        Field("multi_max_keys", "int", 4, 1, 20), Field("permanent", "int", 1, 0, 50),
        Field("permanent_max_locks", "int", 2, 1, 10), Field("spread", "float", 0.01, 0.0001, 100),
    ),
    "zombstone": (
        Field("scenario", "choice", "ok_corral", options=tuple(load_catalogue().scenarios)),
        Field("side", "choice", "lawmen", options=SIDES),
        Field("policy", "choice", "default", options=POLICIES),
        Field("rounds", "int", 1, 1, MAX_ROUNDS),
    ),
    "zombstone-duel": (
        Field("added", "int", 0, 0, MAX_ADDED), Field("ai_added", "int", 0, 0, MAX_ADDED),
        Field("style", "choice", "cautious", options=tuple(STYLES)),
    ),
}
MAX_KEYLOCK_OBJECTS = 2000
MAX_RANDOM_WALK_RADIUS = 20  # the spec's random walk takes about 30 steps a hex: 0.2 s and 36,000 rolls here


def read(system: str, values: dict[str, Any], strict: bool = False) -> dict[str, Any]:
    """The typed value of each field from a form or an API body (missing: the default), checked; with
    `strict`, a value no field takes is refused rather than ignored (a misspelt parameter would otherwise
    silently give its default)."""
    if system not in FIELDS:
        raise DedaleError("error.system", value=system, accepted=", ".join(FIELDS))
    names = [field.name for field in FIELDS[system]]
    if strict and (unknown := sorted(set(values) - set(names))):
        raise DedaleError("error.unknown_params", value=", ".join(unknown), system=system, accepted=", ".join(names))
    typed: dict[str, Any] = {}
    for field in FIELDS[system]:
        raw = values.get(field.name)
        typed[field.name] = field.default if raw is None or raw == "" else _typed(field, raw)
    return typed


def _typed(field: Field, raw: Any) -> Any:
    try:
        if field.kind == "bool":
            return raw if isinstance(raw, bool) else str(raw).lower() in ("1", "true", "on", "yes")
        if field.kind == "int":
            value: Any = int(raw) if not isinstance(raw, bool) else None
        elif field.kind == "float":
            value = float(raw) if not isinstance(raw, bool) else None
        else:
            value = str(raw).strip()
    except (TypeError, ValueError):
        value = None
    if value is None or (field.low is not None and field.high is not None and not field.low <= value <= field.high):
        if field.kind in ("int", "float"):
            raise DedaleError("error.web_range", param=field.name, value=raw, low=field.low, high=field.high)
        raise DedaleError("error.one_of", param=field.name, value=raw, accepted=", ".join(field.options))
    if field.kind == "choice" and value not in field.options:
        raise DedaleError("error.one_of", param=field.name, value=raw, accepted=", ".join(field.options))
    return value


def _crawler(v: dict[str, Any]) -> CrawlerParams:
    return CrawlerParams.parse(board=v["board"], zone=v["zone"], size=v["size"], boss_size=v["boss_size"] or None,
                               start=v["start"] or None, fill_chance=v["fill_chance"], stock=v["stock"] or None,
                               early_boss=v["early_boss"], contents=v["contents"])


def _paper(v: dict[str, Any]) -> PaperParams:
    return PaperParams(width=v["width"], height=v["height"], max_cards=v["max_cards"], order=v["order"],
                       kings=v["kings"], start_size=v["start_size"])


def _hexcrawl(v: dict[str, Any]) -> HexParams:
    return HexParams(radius=v["radius"], order=v["order"], obstacle_chance=v["obstacle_chance"],
                     variant=v["variant"], start=parse_hex(v["start"], "start"), sites=v["sites"])


def _keylock(v: dict[str, Any]) -> KeylockParams:
    return KeylockParams(**v)


def _zombstone(v: dict[str, Any]) -> Any:
    other = "policy_zombies" if v["side"] == "lawmen" else "policy_lawmen"
    return SkirmishParams(v["scenario"], v["side"], rounds=v["rounds"], **{other: v["policy"]})


def _duel(v: dict[str, Any]) -> Any:
    return DuelParams(v["added"], v["ai_added"], v["style"])


BUILDERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "crawler": _crawler, "paper": _paper, "hexcrawl": _hexcrawl, "keylock": _keylock, "zombstone": _zombstone,
    "zombstone-duel": _duel}


def params_for(system: str, values: dict[str, Any], strict: bool = False) -> Any:
    params = BUILDERS[system](read(system, values, strict))
    check_limits(system, params)
    return params


def check_limits(system: str, params: Any) -> None:
    """Parameters within the web's limits, whether from a form or from a document (an upload, a permalink),
    and no data folder of the server's disk named by a visitor."""
    document = params.to_json()
    if document.get("data") is not None:
        raise DedaleError("error.web_data")
    if system == "zombstone" and document.get("side") is None:
        raise DedaleError("error.one_of", param="side", value="-", accepted="lawmen, zombies")
    for field in FIELDS[system]:
        names = {"board": "board_zones", "zone": "zone_cells"}
        value = document.get(names.get(field.name, field.name))
        if field.kind in ("int", "float") and isinstance(value, int | float) and field.high is not None \
                and not (field.low or 0) <= value <= field.high:
            raise DedaleError("error.web_range", param=field.name, value=value, low=field.low, high=field.high)
    if system == "keylock" and params.most_objects > MAX_KEYLOCK_OBJECTS:
        raise DedaleError("error.too_many_objects", value=params.most_objects, high=MAX_KEYLOCK_OBJECTS)
    if system == "hexcrawl" and params.order == "random-walk" and params.radius > MAX_RANDOM_WALK_RADIUS:
        raise DedaleError("error.random_walk_radius", value=params.radius, high=MAX_RANDOM_WALK_RADIUS)

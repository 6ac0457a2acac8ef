"""What a hexcrawl map is made of: explored hexes, communities and sites. They are the document's own shapes
(`core.documents`): declared once, they are its codec and its JSON Schema; the session builds them, the
renderers draw them.

A hex's record is also the log's entry for its exploration: the dice that decided it are kept once, in the
record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from dedale.core.documents import (
    DECISIONS_ARE_EVENTS,
    LOG_KINDS,
    UNSET,
    DocumentKind,
    LogEntry,
    Meta,
    Shape,
    UnsetType,
    load_result,
)
from dedale.core.errors import DedaleError
from dedale.core.session import check_format
from dedale.hexcrawl.hexes import RELIEFS, Direction, Hex, Relief, on_map
from dedale.hexcrawl.params import MAX_RADIUS
from dedale.i18n import Word, data_word, given, say, word

OwnLabel = Annotated[str | dict[str, str], Meta(description=(
    "Only for a row of the player's own tables: its label as their file gives it (one text, or a text by "
    "language). A shipped row has none: its label is looked up by id, in the reader's language."))]
Position = Annotated[int, Meta(ge=1, le=7, description="Its place in the hex (1D7): 1 centre, 2 N, 3 NE, 4 SE, "
                                                       "5 S, 6 SW, 7 NW")]
Die = Annotated[int, Meta(ge=1)]
EightSided = Annotated[int, Meta(ge=1, le=8)]
CommunityKind = Literal["city", "community", "fae"]
SiteKind = Literal["satellite", "ruin"]
Pair = Annotated[list[int], Meta(min_length=2, max_length=2)]


class Row(Shape):
    """A table's row as a result keeps it (`core.tables.Row.item`): its id, and a player's own row's label."""

    id: str
    label: OwnLabel | UnsetType = UNSET


class Obstacle(Shape, kw_only=True):
    """A natural obstacle in a hex."""

    kind: Annotated[str, Meta(description="The obstacles table's row id")]
    label: OwnLabel | UnsetType = UNSET
    position: Position
    die: Die | None


class HexRecord(Shape, kw_only=True):
    """An explored hex: where it is, and every die that decided it."""

    q: int
    r: int
    label: Annotated[str, Meta(pattern="^[0-9]{4,}$", description="The hex's label on the map (column, row)")]
    order: Annotated[int, Meta(ge=0, description="Its place in the exploration order, from 0")]
    # The rules' variant rolls the neighbour and relief dice, the weighted one the weights die: the others null.
    neighbour_die: EightSided | None
    relief_die: EightSided | None
    weights_die: Die | None
    relief: Annotated[int, Meta(ge=0, le=len(RELIEFS) - 1)]
    relief_name: Relief
    inherited_from: Annotated[Direction | None, Meta(
        description="The neighbour it took its relief from, or null")]
    vegetation: Annotated[str, Meta(description="The vegetation table's row id")]
    vegetation_label: OwnLabel | UnsetType = UNSET
    vegetation_die: Die
    obstacle_roll: Annotated[int, Meta(ge=1, le=10_000, description=(
        "The die for the obstacle chance: a d100, or a d1000 or a d10000 when whole percents do not say it"))]
    obstacle: Obstacle | None

    @property
    def hex(self) -> Hex:
        return self.q, self.r

    def log_entry(self, words: dict[tuple[str, str], Word]) -> dict[str, Any]:
        """The log's line for this hex's exploration: every die, and what each decided (`words`: the rows'
        labels, by table and row id)."""
        source = "weighted" if self.weights_die is not None else self.inherited_from or "rolled"
        obstacle = self.obstacle
        args = {"label": self.label, "neighbour_die": self.neighbour_die, "relief_die": self.relief_die,
                "weights_die": self.weights_die, "relief": word(f"hexcrawl.relief.{self.relief_name}"),
                "source": word(f"hexcrawl.source.{source}"), "vegetation_die": self.vegetation_die,
                "vegetation": words.get(("vegetation", self.vegetation), self.vegetation),
                "obstacle_roll": self.obstacle_roll,
                "obstacle": word("hexcrawl.no_obstacle") if obstacle is None
                else words.get(("obstacles", obstacle.kind), obstacle.kind),
                "obstacle_die": None if obstacle is None else obstacle.die,
                "position": None if obstacle is None else obstacle.position}
        return {"note": "hexcrawl.explored", "args": args, "hex": [self.q, self.r]}


class Community(Shape):
    """A community, placed before play (the city first)."""

    id: Annotated[int, Meta(ge=1)]
    kind: CommunityKind
    name: Annotated[str, Meta(description="A proper name, the same in every language")]
    q: int
    r: int
    label: Annotated[str, Meta(description="The hex's label on the map (column, row)")]
    position: Position
    nature: Annotated[Row, Meta(description="A row of its kind's table (city, community or fae nature)")]
    themes: Annotated[list[Row], Meta(min_length=2, max_length=2)]
    function: Row
    people: Row


class Site(Shape):
    """Beyond the rules: one of the city's satellites, or a ruin."""

    id: Annotated[int, Meta(ge=1)]
    kind: SiteKind
    q: int
    r: int
    label: Annotated[str, Meta(description="The hex's label on the map (column, row)")]
    position: Position
    type: Annotated[Row, Meta(description="A row of the satellites' or the ruins' table")]


class HexcrawlResult(Shape):
    """A hexcrawl document's own fields: the explored hexes in exploration order, the communities and sites
    (a party's view: only those on explored hexes), the party's hex, and how much is explored."""

    hexes: list[HexRecord]
    communities: list[Community]
    sites: list[Site]
    party: Annotated[Pair, Meta(description="The party's hex, [q, r]")]
    explored: Annotated[int, Meta(ge=0)]
    total: Annotated[int, Meta(ge=1)]
    stopped: bool


class HexcrawlLogEntry(LogEntry, omit_defaults=True):
    hex: Annotated[Pair, Meta(description="A hex explored (its note's arguments say with what dice)")] | \
        UnsetType = UNSET


DOCUMENT = DocumentKind(
    HexcrawlResult, title="Dédale hexcrawl map",
    description="A hexcrawl map or an exploration in progress: seed, parameters, events (to replay), the explored "
                "hexes in exploration order with the dice that decided each, the communities and sites, the "
                "party's hex, and the log.",
    versions={1: "its walk was the uniform random walk (random-walk now)",
              2: "a reason asked only on the waters; the obstacle chance in whole percents",
              3: "a reason asked wherever a community clashes with its relief; the obstacle chance rolled exactly",
              4: DECISIONS_ARE_EVENTS},
    log_entry=HexcrawlLogEntry, log_kinds=tuple(kind for kind in LOG_KINDS if "faces" not in kind["required"]),
    envelope={"seed": {"description": "The seed (null in a party's view, which it would give away)"}})


@dataclass
class HexMap:
    """The result, as renderers see it (a session's state or a loaded JSON document)."""

    radius: int
    hexes: dict[Hex, HexRecord]  # in exploration order
    communities: list[Community]
    sites: list[Site]
    party: Hex | None = None
    own: dict[tuple[str, str], Any] = field(default_factory=dict)  # a player's own rows' labels, as given
    seed: int | str | None = None  # a document writes a long seed as its text (`core.seeds`)

    def row_label(self, table: str, row_id: str, lang: str) -> str:
        """A vegetation's or an obstacle's label in `lang`."""
        own = self.own.get((table, row_id))
        return say(data_word("hexcrawl", table, row_id) if own is None else given(own), lang)

    @classmethod
    def from_json(cls, data: Any) -> HexMap:
        """A hexcrawl document (a party's view too), checked: its shapes, then each hex on the map, once, in
        its place in the exploration order."""
        check_format(data, "hexcrawl")
        params = data.get("params")
        radius = params.get("radius") if isinstance(params, dict) else None
        if not isinstance(radius, int) or isinstance(radius, bool) or not 0 <= radius <= MAX_RADIUS:
            raise DedaleError("error.bad_document", field="$.params.radius")
        result = load_result(HexcrawlResult, data)
        hexes: dict[Hex, HexRecord] = {}
        own: dict[tuple[str, str], Any] = {}
        for order, record in enumerate(result.hexes):
            h = record.q, record.r
            if record.order != order or record.relief_name != RELIEFS[record.relief] or not on_map(h, radius) \
                    or hexes.setdefault(h, record) is not record:
                raise DedaleError("error.bad_document", field=f"$.hexes[{order}]")
            if record.vegetation_label:
                own[("vegetation", record.vegetation)] = record.vegetation_label
            if record.obstacle is not None and record.obstacle.label:
                own[("obstacles", record.obstacle.kind)] = record.obstacle.label
        return cls(radius, hexes, result.communities, result.sites, (result.party[0], result.party[1]), own,
                   data.get("seed"))


def party_view(document: dict[str, Any]) -> dict[str, Any]:
    """The party view of the land: the hexes explored, and only the communities and sites on them
    (the others were placed before play, for the GM)."""
    seen = {(h["q"], h["r"]) for h in document["hexes"]}
    return {"communities": [c for c in document["communities"] if (c["q"], c["r"]) in seen],
            "sites": [s for s in document.get("sites", []) if (s["q"], s["r"]) in seen]}

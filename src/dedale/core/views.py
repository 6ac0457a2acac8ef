"""Who a picture or a file is for. The GM's view is the document as it is; a player's view keeps what the
party has discovered and nothing the GM alone knows (each system says what that is: a room's contents, a
community not yet seen). A player's view leaves out the seed, the secret key, the events and the roll log too,
which would give the rest away; like any view with `"hidden": true`, it is for reading and drawing, not for
continuing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from dedale.core.errors import DedaleError

View = Literal["gm", "player"]
VIEWS: tuple[View, ...] = ("gm", "player")


def check_view(value: str, system: str, has_player_view: bool) -> View:
    """A view the system has: every system has the GM's, the crawler, paper dungeon and hexcrawl a player's."""
    if value not in VIEWS:
        raise DedaleError("error.one_of", param="view", value=value, accepted=", ".join(VIEWS))
    if value == "player" and not has_player_view:
        raise DedaleError("error.no_player_view", system=system)
    return "player" if value == "player" else "gm"


def as_seen(document: dict[str, Any], view: str, system: str,
            discovered: Callable[[dict[str, Any]], dict[str, Any]] | None) -> dict[str, Any]:
    """The document as `view` sees it; `discovered` gives the result's fields a player may see (None: the
    system keeps nothing from its players but what its rules hide during play)."""
    if check_view(view, system, discovered is not None) == "gm" or discovered is None:
        return document
    try:
        seen = discovered(document)
    except (KeyError, TypeError, AttributeError):
        raise DedaleError("error.bad_document", field="rooms/hexes") from None
    kept = {key: value for key, value in document.items() if key != "secret"}
    return {**kept, **seen, "seed": None, "events": [], "log": [], "hidden": True, "view": "player"}

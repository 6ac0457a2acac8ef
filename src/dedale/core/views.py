"""Who a picture or a file is for. The GM's view is the document as it is; the party view (formerly the player
view) keeps what the party has discovered and nothing the GM alone knows (each system says what that is: a
room's contents, a community not yet seen). The party view leaves out the seed, the secret key, the events and
the roll log too, which would give the rest away; like any view with `"hidden": true`, it is for reading and
drawing, not for continuing. What one seat of a game may see while its rules hide something is another matter:
a session's `seat_*` calls (`core.rules.Secrets`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from dedale.core.errors import DedaleError

View = Literal["gm", "party"]
VIEWS: tuple[View, ...] = ("gm", "party")
# The party view's former name, still accepted from old scripts, links and saved documents.
ALIASES: dict[str, View] = {"player": "party"}


def check_view(value: str, system: str, has_party_view: bool) -> View:
    """A view the system has: every system has the GM's, the crawler, paper dungeon and hexcrawl a party
    view ("player", its former name, is read as "party")."""
    view = ALIASES.get(value, value)
    if view == "gm":
        return "gm"
    if view != "party":
        raise DedaleError("error.one_of", param="view", value=value, accepted=", ".join(VIEWS))
    if not has_party_view:
        raise DedaleError("error.no_party_view", system=system)
    return "party"


def in_view(document: dict[str, Any], view: str, system: str,
            party_view: Callable[[dict[str, Any]], dict[str, Any]] | None) -> dict[str, Any]:
    """The document as `view` sees it; `party_view` gives the result's fields the party has discovered (None:
    the system keeps nothing from its players but what its rules hide during play)."""
    if check_view(view, system, party_view is not None) == "gm" or party_view is None:
        return document
    try:
        seen = party_view(document)
    except (KeyError, TypeError, AttributeError):
        raise DedaleError("error.bad_document", field="rooms/hexes") from None
    kept = {key: value for key, value in document.items() if key != "secret"}
    return {**kept, **seen, "seed": None, "events": [], "log": [], "hidden": True, "view": "party"}

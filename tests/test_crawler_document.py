"""The crawler's document, declared once (`crawler/model.py`): written from its shapes, read back through them
(closed to unknown fields, the path of what is wrong named), and its schema made from them."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from dedale.core.documents import dump, load
from dedale.core.errors import DedaleError
from dedale.core.session import Session
from dedale.crawler.model import CrawlerResult, Dungeon, Tile
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerRules
from dedale.crawler.tiles import TILE_NAMES
from dedale.systems import system

OLD = Path(__file__).parent / "data" / "old" / "crawler.json"


def document(seed: int = 3, **params: Any) -> dict[str, Any]:
    session = Session(CrawlerRules, CrawlerParams(**params), seed).run_autopilot()
    found: dict[str, Any] = json.loads(json.dumps(session.to_json()))
    return found


def result_of(data: dict[str, Any]) -> dict[str, Any]:
    return {name: data[name] for name in CrawlerResult.__struct_fields__}


def refused(data: dict[str, Any]) -> str:
    with pytest.raises(DedaleError) as caught:
        Dungeon.from_json(data)
    assert caught.value.key == "error.bad_document"
    return str(caught.value.args_["field"])


def test_a_field_unknown_inside_the_result_is_refused_with_its_path() -> None:
    data = document()
    data["rooms"][1]["colour"] = 1
    assert refused(data) == "$.rooms[1].colour"
    data = document()
    data["rooms"][0]["contents"]["creatures"][0]["colour"] = 1
    assert refused(data) == "$.rooms[0].contents.creatures[0].colour"


def test_a_field_of_the_wrong_type_or_missing_is_refused_with_its_path() -> None:
    data = document()
    data["doors"][0]["cells"] = [[1, 2]]  # a door separates two cells
    assert refused(data) == "$.doors[0].cells"
    data = document()
    data["rooms"][0]["tile"] = "6x6"
    assert refused(data) == "$.rooms[0].tile"
    data = document()
    data["doors"][1]["rooms"] = [1, None]  # only the entrance's first room is none
    assert refused(data) == "$.doors[1].rooms[1]"
    data = document()
    del data["passages"]
    assert refused(data) == "$.passages"
    data = document()
    del data["params"]["zone_cells"]
    assert refused(data) == "params"


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 30), table=st.booleans(),
       roll=st.booleans(), party=st.booleans())
def test_a_result_read_through_its_shapes_is_written_back_as_it_was(seed: int, steps: int, table: bool,
                                                                    roll: bool, party: bool) -> None:
    """Mid-game too, at the table (a room whose contents wait for the dice entered is empty), and as the party
    sees it (no contents)."""
    session = Session(CrawlerRules, CrawlerParams(contents="dungeon-roll" if roll else "tables"), seed, table)
    pick = random.Random(seed)
    for _ in range(steps):
        if session.is_over:
            break
        session.step(pick.choice(session.choices()))
    data = json.loads(json.dumps(session.to_json()))
    if party:
        data = system("crawler").in_view(data, "party")
    assert json.loads(json.dumps(dump(load(CrawlerResult, result_of(data))))) == result_of(data)


def test_documents_of_older_versions_and_rows_of_a_players_own_tables_load() -> None:
    old = json.loads(OLD.read_text(encoding="utf-8"))
    assert Dungeon.from_json(old).rooms[0].contents == old["rooms"][0]["contents"]
    data = document()
    data["rooms"][0]["contents"]["kind"]["label"] = {"en": "Cellar", "fr": "Cellier"}
    labelled = copy.deepcopy(data["rooms"][0]["contents"])
    assert Dungeon.from_json(data).rooms[0].contents == labelled


def test_the_tiles_a_document_names_are_the_d8s() -> None:
    assert get_args(Tile) == TILE_NAMES


V3 = Path(__file__).parent / "data" / "crawler" / "version3-room-corners.json"  # made before `door_corners`


def test_parameters_recorded_before_door_corners_keep_the_room_reading() -> None:
    """A version-3 document was made with no door on a room's corner cells: it loads with that reading
    (`door_corners` room), is checked in full, and is written again as today's version with the reading it was
    made with (its autopilot steps as today's decisions); with the zone reading, the default now, its events
    would not replay. A stored web session's parameters
    and a permalink's, recorded then, read the same way; parameters that name nothing take every default."""
    old = json.loads(V3.read_text(encoding="utf-8"))
    assert old["version"] == 3 and "door_corners" not in old["params"]
    loaded = Session.from_json(CrawlerRules, old)
    assert loaded.params.door_corners == "room"
    again = loaded.to_json()
    assert again["version"] == CrawlerRules.version and again["params"] == {**old["params"], "door_corners": "room"}
    assert {k: v for k, v in again.items() if k not in ("version", "params", "events")} == \
        {k: v for k, v in old.items() if k not in ("version", "params", "events")}
    assert [e["choice"] for e in again["events"]] == [e["choice"] for e in old["events"]]
    assert all(e["by"] == "default" for e in again["events"] if "by" in e)
    with pytest.raises(DedaleError, match="does not replay"):
        Session.from_json(CrawlerRules, {**old, "params": {**old["params"], "door_corners": "zone"}})
    assert CrawlerRules.params_from_json(old["params"]).door_corners == "room"  # a web session's record
    assert CrawlerRules.params_from_json({}).door_corners == "zone"  # a permalink naming no parameter
    assert CrawlerParams().door_corners == "zone" and document()["params"]["door_corners"] == "zone"

"""Documents free of language: a session keeps ids and message keys, never words, so the same seed and the same
events make the same document whatever language it was played, shown or saved in; the words are put in when
shown (a picture, a text view, a page, a log line), in the reader's language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import markupsafe
import pytest
from fastapi.testclient import TestClient

from dedale.core.errors import DedaleError
from dedale.core.logtext import describe
from dedale.core.session import Session
from dedale.core.tables import TableSet
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerRules
from dedale.i18n import LANGUAGES, catalogue, say
from dedale.paper.params import PaperParams
from dedale.paper.session import PaperRules
from dedale.systems import names, system, system_of
from dedale.zombstone.skirmish.catalogue import load_catalogue
from dedale.zombstone.skirmish.duel_session import DuelParams, DuelRules

SYSTEMS = [name for name in names() if system(name).package.startswith("dedale.")]  # not an installed package's
OLD = Path(__file__).parent / "data" / "old"  # documents saved in French before documents were free of language
# The games with the most words to show (a duel before the skirmish, a bigger map); any other system: its example
PARAMS: dict[str, dict[str, Any]] = {"crawler": {}, "paper": {"max_cards": 16}, "hexcrawl": {"radius": 3},
                                     "keylock": {}, "zombstone": {"scenario": "high_noon", "side": "lawmen"},
                                     "zombstone-duel": {}}
WEB_PARAMS = {**PARAMS, "paper": {"max_cards": 12}, "zombstone": {"scenario": "high_noon"}}


def params_of(name: str, web: bool = False) -> dict[str, Any]:
    return (WEB_PARAMS if web else PARAMS).get(name, dict(system(name).example))


def new_session(name: str, seed: int) -> Session:
    found = system(name)
    return Session(found.rules, found.params.from_options(params_of(name), strict=True), seed)


def shown(session: Session, lang: str) -> str:
    """Everything a face shows of a session, in `lang`: its log, question, choices, picture and text view."""
    found = system(session.system)
    document = session.seat_json()
    pictures = [found.export(document, ext, lang=lang).decode() for ext in (".svg", ".txt")]
    return "\n".join([*(describe(entry, lang) for entry in session.seat_log()), say(session.question() or "", lang),
                      *(choice.label(lang) for choice in session.choices()), *pictures])


def played(name: str, seed: int, lang: str, steps: int = 40) -> tuple[Session, str]:
    """A session played by the autopilot, step by step, each step shown in `lang` first (wording must not change
    the game); the session and all that was shown."""
    session = new_session(name, seed)
    seen = [shown(session, lang)]
    for _ in range(steps):
        if session.is_over:
            break
        session.auto_step()
        seen.append(shown(session, lang))
    return session, "\n".join(seen)


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def translated() -> set[str]:
    """The words a document must not hold: every shipped label and name, and every message, in each language
    (less those that are also ids, or too short to tell from a value)."""
    labels = {label for package in ("dedale.crawler", "dedale.paper", "dedale.hexcrawl")
              for table in TableSet.load(package).tables.values() for row in table.rows
              for label in row.labels.values() if label.lower() != row.id.replace("_", " ")}
    data = load_catalogue()
    names = {name for item in (*data.profiles.values(), *data.scenarios.values()) for name in item.names.values()}
    messages = {text for lang in LANGUAGES for text in catalogue(lang).values() if "{" not in text}
    return {word for word in labels | names | messages if len(word) > 4 and not word.islower()}


# --- the library ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SYSTEMS)
def test_a_document_is_the_same_whatever_language_it_was_shown_in(name: str) -> None:
    english, english_words = played(name, 7, "en")
    french, french_words = played(name, 7, "fr")
    assert json.dumps(english.to_json()) == json.dumps(french.to_json())
    assert english_words != french_words  # the translation still happens, on the faces


@pytest.mark.parametrize("name", SYSTEMS)
def test_a_document_holds_ids_and_message_keys_not_words(name: str) -> None:
    session, _ = played(name, 3, "en", steps=200)
    document = json.loads(json.dumps(session.to_json()))
    assert "lang" not in document
    assert not set(strings(document)) & translated()
    for entry in document["log"]:
        if "choice" in entry:
            assert set(entry) <= {"choice", "key", "args", "by"} and entry["key"] in catalogue("en")
    again = Session.from_json(type(session.rules), document)
    assert json.dumps(again.to_json()) == json.dumps(session.to_json())


def test_choice_messages_are_worded_only_when_read() -> None:
    session = Session(PaperRules, PaperParams(), 3)
    ends = [choice for choice in session.choices() if choice.id.startswith("end:")]
    assert ends and all(callable(choice.says) for choice in ends)  # the autopilot never words them
    assert ends[0].message["t"] in ("paper.choice.end", "paper.choice.end_room")
    assert ends[0].label("en") != ends[0].label("fr")


def test_a_question_is_a_message() -> None:
    duel = Session(DuelRules, DuelParams(), 5)
    question = duel.question()
    assert question is not None and question["t"] == "duel.your_turn"
    assert say(question, "en") != say(question, "fr")


# --- a player's own tables ------------------------------------------------------------------------------------------

def test_a_players_own_labels_are_kept_as_their_file_gives_them(tmp_path: Path) -> None:
    shipped = Path(__file__).parents[1] / "src/dedale/crawler/data/tables/contents.toml"
    text = shipped.read_text(encoding="utf-8")
    # one row with both languages changed, one with a single label (no translation: the same in every language)
    text = text.replace('label = { en = "Cellar", fr = "Cellier" }', 'label = { en = "Wine cellar", fr = "Cave" }')
    (tmp_path / "contents.toml").write_text(text, encoding="utf-8")
    session = Session(CrawlerRules, CrawlerParams(tables=str(tmp_path)), 4).run_autopilot()
    rooms = session.to_json()["rooms"]
    cellars = [room for room in rooms if room["contents"]["kind"]["id"] == "cellar"]
    assert cellars and cellars[0]["contents"]["kind"]["label"] == {"en": "Wine cellar", "fr": "Cave"}
    model = system("crawler").load(session.to_json())
    assert "Cave" in system("crawler").text(model, "fr") and "Wine cellar" in system("crawler").text(model, "en")
    document = Session(CrawlerRules, CrawlerParams(), 4).run_autopilot().to_json()
    assert "label" not in document["rooms"][0]["contents"]["kind"]


# --- the CLI --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [("crawler",), ("paper", "--max-cards", "20"), ("hexcrawl", "--radius", "3"),
                                  ("keylock",)])
def test_the_cli_writes_the_same_json_in_every_language(cli, args: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    outputs = []
    for lang in LANGUAGES:
        code, out, err = cli(*args, "--seed", "5", "--json", "--lang", lang)
        assert code == 0, err
        outputs.append(out)
    assert outputs[0] == outputs[1] and '"lang"' not in outputs[0]
    texts = [cli(*args, "--seed", "5", "--lang", lang)[1] for lang in LANGUAGES]
    assert texts[0] != texts[1]  # the text view is translated


@pytest.mark.parametrize("args", [("crawler", "play"), ("zombstone", "play", "--scenario", "high_noon")])
def test_a_game_saved_in_the_terminal_is_the_same_in_every_language(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                     args: tuple[str, ...]) -> None:
    saved, shown_words = [], []
    for lang in LANGUAGES:
        save = tmp_path / f"{lang}.json"
        code, out, err = cli(*args, "--seed", "5", "--save", str(save), "--lang", lang, stdin="a\n" * 12 + "q\n")
        assert code == 0, err
        saved.append(save.read_bytes())
        shown_words.append(out.replace(str(save), ""))
    assert saved[0] == saved[1]
    assert shown_words[0] != shown_words[1]
    resumed = Session.from_json(system_of(json.loads(saved[0])).rules, json.loads(saved[0]))
    code, out, _ = cli(*args[:2], "--load", str(tmp_path / "en.json"), "--lang", "fr", stdin="q\n")
    assert code == 0 and resumed.choices()[0].label("fr") in out  # played in English, resumed in French


def test_render_draws_a_document_in_the_language_asked(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    document = tmp_path / "crawler.json"
    assert cli("crawler", "--seed", "4", "-o", str(document), "--lang", "en")[0] == 0
    for lang, legend in (("en", "Rooms"), ("fr", "Salles")):
        picture = tmp_path / f"{lang}.svg"
        assert cli("render", str(document), "--lang", lang, "-o", str(picture))[0] == 0
        assert f">{legend}<" in picture.read_text(encoding="utf-8")
    assert "Salle du boss" in cli("render", str(document), "--lang", "fr")[1]


# --- the web ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SYSTEMS)
def test_the_api_exports_the_same_document_whatever_language_made_it(client: TestClient, name: str) -> None:
    exported = []
    for lang in LANGUAGES:
        body = {"system": name, "seed": 12, "params": params_of(name, web=True), "lang": lang, "autopilot": True}
        created = client.post("/api/sessions", json=body)
        assert created.status_code == 201, created.text
        exported.append(client.get(f"/api/sessions/{created.json()['id']}/export/json").content)
    assert exported[0] == exported[1] and b'"lang"' not in exported[0]


def test_a_session_made_in_english_is_shown_in_french(client: TestClient) -> None:
    client.cookies.set("lang", "en")
    response = client.post("/new/crawler", data={"seed": "8"})
    session_id = response.headers["location"].rsplit("/", 1)[1]
    for _ in range(3):
        client.post(f"/play/{session_id}/auto", data={"to": "one"})
    session = client.app.state.sessions.get(session_id)  # type: ignore[attr-defined]
    english = client.get(f"/play/{session_id}").text
    client.cookies.set("lang", "fr")
    french = client.get(f"/play/{session_id}").text
    lines = [describe(entry, "fr") for entry in session.log[-5:]]
    labels = [choice.label("fr") for choice in session.choices()]
    for words in (*lines, *labels):  # the log and the choices
        assert escape(words) in french, words
    assert ">Salles<" in french and ">Entrée<" in french  # the picture's legend
    assert escape(labels[0]) not in english and escape(lines[-1]) not in english
    assert b'"lang"' not in client.get(f"/play/{session_id}/export.json").content
    assert ">Salles<" in client.get(f"/play/{session_id}/export.svg").text


def test_a_skirmish_made_in_english_shows_french_names_in_french(client: TestClient) -> None:
    created = client.post("/api/sessions", json={"system": "zombstone", "seed": 4, "lang": "en",
                                                 "params": {"scenario": "ok_corral"}})
    session_id = created.json()["id"]
    deputy = load_catalogue().profile("deputy")
    client.cookies.set("lang", "fr")
    page = client.get(f"/play/{session_id}").text
    assert deputy.name("fr") in page and deputy.name("en") not in page
    state = client.get(f"/api/sessions/{session_id}").json()
    assert state["choices"][0]["label"] == client.app.state.sessions.get(session_id).choices()[0].label("fr")  # type: ignore[attr-defined]


def escape(text: str) -> str:
    """As the pages' templates escape text."""
    return str(markupsafe.escape(text))


# --- documents made before ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SYSTEMS)
def test_a_document_saved_with_its_language_still_loads(name: str) -> None:
    """It replays, and is saved again without words; a skirmish of then, played by an AI no longer kept, opens
    as it was saved (`test_zombstone_readings.py`)."""
    old = json.loads((OLD / f"{name}.json").read_text(encoding="utf-8"))
    assert old["lang"] == "fr"
    found = system_of(old)
    if name == "zombstone":
        archived = Session.opened(found.rules, old)
        assert archived.archived is not None and archived.to_json() == old
        assert found.export(old, ".txt", lang="fr")
        return
    session = Session.from_json(found.rules, old)
    document = session.to_json()
    assert "lang" not in document
    fresh = Session.replay(found.rules, session.params, session.seed, session.events, session.table)
    assert json.dumps(fresh.to_json()) == json.dumps(document)
    assert found.export(old, ".txt", lang="fr")  # and it is drawn as it was saved


@pytest.mark.parametrize("name", ["crawler", "hexcrawl", "paper"])
def test_a_document_saved_with_its_language_is_still_checked(name: str) -> None:
    old = json.loads((OLD / f"{name}.json").read_text(encoding="utf-8"))
    roll = next(entry for entry in old["log"] if "dice" in entry and "roll" in entry)
    roll["total"] += 1
    with pytest.raises(DedaleError) as refused:
        Session.from_json(system_of(old).rules, old)
    assert refused.value.key == "error.save_mismatch"

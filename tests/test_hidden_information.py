"""A player sees only what the rules let them know. While a session `hides()` something, `seat_log`,
`seat_result` and `seat_json` leave out or mask the AI's secrets: its hole cards and bluff rolls in the poker
duel, its hand of inspiration cards and its hidden tokens in a skirmish. The saved document (`to_json`) stays
whole, to be continued; a seat's view cannot be."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schemas
from budget import examples
from dedale.core.errors import DedaleError
from dedale.core.logtext import describe
from dedale.core.session import Session
from dedale.crawler.params import CrawlerParams
from dedale.crawler.session import CrawlerRules
from dedale.i18n import LANGUAGES, say, word
from dedale.render import duel_svg
from dedale.render.zombstone_svg import render_svg
from dedale.render.zombstone_text import render_text
from dedale.systems import system
from dedale.zombstone.skirmish.document import Fire
from dedale.zombstone.skirmish.duel import STYLES
from dedale.zombstone.skirmish.duel_session import AI_SEAT, PLAYER, DuelParams, DuelRules, load_duel
from dedale.zombstone.skirmish.model import Figure
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.session import SkirmishRules, SkirmishSession
from dedale.zombstone.skirmish.showdown import SEATS
from dedale.zombstone.skirmish.table import Ask
from dedale.zombstone.skirmish.view import GameView

DATA = Path(__file__).parents[1] / "src" / "dedale" / "zombstone" / "skirmish" / "data"
HIDDEN = ["??", "??"]


def shows(text: str, words: str) -> bool:
    """`words` stand in `text` on their own (a card code, a name), not as part of a longer word."""
    return re.search(rf"(?<!\w){re.escape(words)}(?!\w)", text) is not None


def bluffs(log: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    return [entry for entry in log if entry.get("for") == "duel.bluff" and entry["args"]["seat"] == seat]


def hole_draws(log: list[dict[str, Any]], seat: int) -> list[str]:
    return [entry["draw"] for entry in log if entry.get("for") == "duel.hole" and entry["args"]["seat"] == seat]


def saved(document: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(document))


# --- the poker duel: the player at seat 0, the AI at seat 1 --------------------------------------------------------
@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**64 - 1), style=st.sampled_from(list(STYLES)), autopilot=st.sampled_from(list(STYLES)))
def test_duel_while_it_is_played_the_player_sees_neither_the_ais_cards_nor_its_bluffs(seed: int, style: str,
                                                                                      autopilot: str) -> None:
    session = Session(DuelRules, DuelParams(style=style), seed)
    while not session.is_over:
        assert session.hides()
        log, full = session.seat_log(), session.to_json()["log"]
        assert not bluffs(log, AI_SEAT) and hole_draws(log, AI_SEAT) == HIDDEN
        assert len(full) - len(log) == len(bluffs(full, AI_SEAT))  # the whole log keeps them
        document = session.seat_json()
        assert document["seed"] is None and document["hidden"] is True and document["log"] == log
        assert document["duel"]["hole"][AI_SEAT] == HIDDEN
        text = json.dumps(document)
        assert not [card.code for card in session.state.duel.hole[AI_SEAT] if shows(text, card.code)]
        session.auto_step(session.autopilot(autopilot))
    assert not session.hides() and session.seat_json() == session.to_json()


def test_duel_the_ais_bluff_rolls_are_left_out_the_players_own_autopilots_kept() -> None:
    left_out = kept = 0
    for seed in range(30):
        session = Session(DuelRules, DuelParams(style="bold"), seed)
        while not session.is_over:
            left_out += len(bluffs(session.to_json()["log"], AI_SEAT))
            kept += len(bluffs(session.seat_log(), PLAYER))
            session.auto_step(session.autopilot("bold"))
    assert left_out and kept


def test_duel_a_players_view_follows_the_schema_and_draws_the_ais_cards_face_down() -> None:
    session = Session(DuelRules, DuelParams(), 7)
    document = saved(session.seat_json())
    schemas.validate(document, json.loads(system("zombstone-duel").schema()))
    picture, text = duel_svg.render_svg(load_duel(document)), duel_svg.render_text(load_duel(document))
    assert picture.count('fill="url(#back)"') == 2
    assert "[??] [??]" in text and "seed" not in text and str(session.seed) not in text


# --- the skirmish: the player's side against the AI's -------------------------------------------------------------
def other(side: str) -> str:
    return next(s for s in SEATS if s != side)


def bet(plan: str, ids: list[str], street: str) -> str:
    """The player's bet: `shove` all in on the river (the AI folds a hand that made nothing; it calls a shove
    before the flop, as fleeing costs more), `fold` whenever it may, `call` down to a showdown."""
    if plan == "shove" and street != "river":
        plan = "call"
    wanted = {"shove": ("allin", "call", "check"), "fold": ("fold", "check"), "call": ("check", "call")}[plan]
    return next(choice for choice in wanted if choice in ids)


ENDINGS = {"the AI folds": "shove", "the player folds": "fold", "a showdown": "call"}


def high_noon_duel(side: str, ending: str) -> SkirmishSession:
    """A High Noon whose duel ended as `ending` says, just after it, seat 0's view checked at each bet."""
    for seed in range(40):
        session = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side=side), seed)
        while session.state.duel is None:
            log = session.seat_log()
            assert hole_draws(log, SEATS.index(other(side))) == HIDDEN and not bluffs(log, SEATS.index(other(side)))
            ask = session.rules.ask
            assert isinstance(ask, Ask)
            session.step(bet(ENDINGS[ending], [c.id for c in session.choices()], ask.about["duel"].street))
        folded = session.state.duel["folded"]
        if folded == {"the AI folds": other(side), "the player folds": side, "a showdown": None}[ending]:
            return session
    raise AssertionError(f"no duel ends as {ending}")


def duel_text(document: dict[str, Any]) -> str:
    """What a skirmish's document says of its duel (its poker deck is not the inspiration cards: the same codes
    may stand elsewhere)."""
    log = [entry for entry in document["log"] if entry.get("for", entry.get("note", "")).startswith("duel.")]
    return json.dumps([document["game"]["duel"], document["waiting"], log])


@pytest.mark.parametrize("side", SEATS)
@pytest.mark.parametrize("ending", ENDINGS)
def test_skirmish_the_ai_duellists_cards_stay_hidden_unless_shown_down(side: str, ending: str) -> None:
    session = high_noon_duel(side, ending)
    seat = SEATS.index(other(side))
    hole = session.state.duel["hole"][seat]
    for _ in range(12):  # the skirmish goes on
        shown = hole if ending == "a showdown" else HIDDEN
        assert hole_draws(session.seat_log(), seat) == shown
        assert session.seat_result()["game"]["duel"]["hole"][seat] == shown
        assert hole_draws(session.to_json()["log"], seat) == hole  # the saved log, as it always was
        text = duel_text(session.seat_json())
        assert ending == "a showdown" or not [code for code in hole if shows(text, code)]
        session.auto_step()
    session.run_autopilot()
    assert not session.hides() and session.seat_json() == session.to_json()


def test_skirmish_the_ai_duellists_bluff_rolls_are_left_out() -> None:
    left_out = 0
    for side in SEATS:
        seat = SEATS.index(other(side))
        for seed in range(6):
            session = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side=side), seed)
            while session.state.duel is None:
                session.auto_step()
            own = [session.rules.log_entry(entry) for entry in bluffs(session.log, 1 - seat)]  # as the log words it
            assert not bluffs(session.seat_log(), seat) and bluffs(session.seat_log(), 1 - seat) == own
            left_out += len(bluffs(session.log, seat))
    assert left_out


@pytest.mark.parametrize("side", SEATS)
def test_skirmish_the_ai_sides_hand_and_draws_are_masked_the_players_own_shown(side: str) -> None:
    session = Session(SkirmishRules, SkirmishParams(scenario="bird_cage", side=side), 11)
    ai = other(side)
    for _ in range(80):
        hands = {s: [card.code for card in session.state.sides[s].hand] for s in SEATS}
        document = session.seat_json()
        sides = document["game"]["sides"]
        assert sides[ai]["hand"] == ["??"] * len(hands[ai]) and sides[side]["hand"] == hands[side]
        draws = {s: [e["draw"] for e in document["log"] if e.get("for") == "skirmish.upkeep_draw"
                     and e["args"]["side"] == word(f"skirmish.side.{s}")] for s in SEATS}
        assert draws[ai] and set(draws[ai]) == {"??"} and "??" not in draws[side]
        assert isinstance(document["game"]["deck"]["pile"], int)  # a count: the pile's cards are not listed
        text = json.dumps(document)
        assert not [code for code in hands[ai] if shows(text, code)]
        assert GameView.from_json(document).hands == {s: len(hands[s]) for s in SEATS}
        session.auto_step()
    assert not session.is_over


@pytest.fixture(scope="module")
def hidden_tokens(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A data folder where High Noon's bands deploy as hidden tokens (the optional rule)."""
    folder = tmp_path_factory.mktemp("hidden_tokens")
    text = (DATA / "scenarios.toml").read_text(encoding="utf-8")
    assert "hidden = false" in text
    (folder / "scenarios.toml").write_text(text.replace("hidden = false", "hidden = true", 1), encoding="utf-8")
    return str(folder)


def masked(session: SkirmishSession) -> list[Figure]:
    """The AI's figures hidden from the player now."""
    return [f for f in session.state.figures if f.side != session.params.side and f.hidden]


def secret_words(session: SkirmishSession, figures: list[Figure], ids: bool = True) -> set[str]:
    """What would name those figures (their names, as the log gives them or not; with `ids`, their profile ids)
    and nothing the player may see (another figure's name, or its profile's id, skills and weapons)."""
    table = session.rules.table_top

    def words(figure: Figure) -> set[str]:
        names = {say(name, lang) for name in (table.name(figure), table.named(figure) or table.name(figure))
                 for lang in LANGUAGES}
        return names | {figure.profile} if ids else names

    profiles = session.rules.result_json()["profiles"]
    known = {w for f in session.state.figures if f not in figures
             for w in (*words(f), f.profile, *re.findall(r'"([^"]*)"', json.dumps(profiles[f.profile])))}
    return {w for f in figures for w in words(f) if not any(shows(seen, w) for seen in known)}


@pytest.mark.parametrize("side", SEATS)
def test_skirmish_the_ais_hidden_tokens_are_anonymous_until_spotted(hidden_tokens: str, side: str) -> None:
    session = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side=side, data=hidden_tokens), 3)
    tokens = masked(session)
    secrets = secret_words(session, tokens)
    assert tokens and session.rules.ask.kind == "bet" and secrets
    document = saved(session.seat_json())
    schemas.validate(document, json.loads(system("zombstone").schema()))
    view = GameView.from_json(document)
    for where, text in (("json", json.dumps(document, ensure_ascii=False)),
                        *((f"svg {lang}", render_svg(view, lang=lang)) for lang in LANGUAGES),
                        *((f"text {lang}", render_text(view, lang)) for lang in LANGUAGES)):
        assert not [w for w in secrets if shows(text, w)], where
    assert sorted(f.id for f in view.figures if f.masked) == sorted(f.id for f in tokens)  # in other places
    own = [f for f in session.state.figures if f.side == side and f.hidden]
    assert own and all(f.profile in document["profiles"] for f in own)  # the player's own are theirs to know
    while all(f.hidden for f in tokens):
        session.auto_step()
    spotted = [f for f in tokens if not f.hidden]
    document = session.seat_json()
    text = render_text(GameView.from_json(document))
    log = "\n".join(describe(entry) for entry in document["log"])
    for figure in spotted:
        name = say(session.rules.table_top.who(figure))
        assert figure.profile in document["profiles"] and shows(text, name) and shows(log, name)


@pytest.fixture(scope="module")
def walled_tokens(tmp_path_factory: pytest.TempPathFactory) -> str:
    """High Noon's bands as hidden tokens, a wall down the middle of Main Street between them: unseen, they
    move and are named in the full log before an enemy sees them (on the open street, none is)."""
    folder = tmp_path_factory.mktemp("walled_tokens")
    text = (DATA / "scenarios.toml").read_text(encoding="utf-8")
    saloon = '  { kind = "building", x = 1, y = 1, w = 8, h = 6, name = "saloon" },'
    assert "hidden = false" in text and saloon in text
    text = text.replace("hidden = false", "hidden = true", 1).replace(
        saloon, saloon + '\n  { kind = "building", x = 14, y = 8, w = 2, h = 14, name = "wall" },', 1)
    (folder / "scenarios.toml").write_text(text, encoding="utf-8")
    return str(folder)


def test_skirmish_no_log_line_question_or_choice_names_or_targets_a_hidden_enemy(walled_tokens: str) -> None:
    named = shooting = 0  # how often a hidden enemy was named in the full log, or shot: the masking had work to do
    for side in SEATS:
        for seed in range(6):
            session = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side=side, data=walled_tokens),
                              seed)
            while not session.is_over and masked(session):
                tokens = masked(session)
                secrets = secret_words(session, tokens, ids=False)
                named += sum(shows(describe(entry), w) for entry in session.log for w in secrets)
                seen = "\n".join([describe(e) for e in session.seat_log()] + [say(session.question() or "")]
                                 + [choice.label() for choice in session.choices()])
                assert not [w for w in secrets if shows(seen, w)]
                assert not [c.id for c in session.choices() if c.data.get("figure") in {f.id for f in tokens}]
                shooter = session.rules.ask.about.get("shooter")
                if shooter in {f.id for f in tokens}:  # the token shown shooting is the one that shoots
                    result = session.seat_result()
                    drawn = result["game"]["figures"][result["waiting"]["about"]["shooter"]]
                    figure = session.state.figure(shooter)
                    assert drawn["profile"] is None and (drawn["x"], drawn["y"]) == (round(figure.x, 3),
                                                                                   round(figure.y, 3))
                    shooting += 1
                if shooter is None and isinstance(session.rules.ask, Ask) and not shooting:
                    # a token shooting while hidden (it sees its target, which then sees it: rare, so asked once
                    # here): the token shown shooting is the token in its place, as above
                    session.rules.ask.about["shooter"] = tokens[0].id
                    result = session.seat_result()
                    drawn = result["game"]["figures"][result["waiting"]["about"]["shooter"]]
                    del session.rules.ask.about["shooter"]
                    assert drawn["profile"] is None and (drawn["x"], drawn["y"]) == (round(tokens[0].x, 3),
                                                                                   round(tokens[0].y, 3))
                    shooting += 1
                session.auto_step()
    assert named and shooting, (named, shooting)


def test_skirmish_a_tokens_place_in_the_list_does_not_tell_who_it_is(hidden_tokens: str) -> None:
    """Figures are listed in their band's order: the AI's hidden ones swap places, as only the seed predicts."""
    orders = set()
    for seed in range(6):
        session = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side="lawmen", data=hidden_tokens), seed)
        drawn = {(f["x"], f["y"]): f["id"] for f in session.seat_result()["game"]["figures"] if f["profile"] is None}
        order = tuple(drawn[(round(f.x, 3), round(f.y, 3))] for f in masked(session))
        assert sorted(order) == [f.id for f in masked(session)]
        orders.add(order)
    assert len(orders) > 1 and tuple(f.id for f in masked(session)) not in orders
    token, target = masked(session)[0], session.state.figure(0)  # a shot from a token that stays hidden (rare)
    session.state.fire.append(Fire(token.id, target.id, "dodge", 0, [token.x, token.y, target.x, target.y], "nothing",
                                   "nothing", None))
    result = session.seat_result()
    drawn = result["game"]["figures"][result["game"]["fire"][-1]["from"]]
    assert drawn["profile"] is None and (drawn["x"], drawn["y"]) == (round(token.x, 3), round(token.y, 3))


# --- what is never hidden, and what cannot be continued -------------------------------------------------------------
def test_a_players_view_cannot_be_continued_the_saved_document_can() -> None:
    duel = Session(DuelRules, DuelParams(), 5)
    skirmish = Session(SkirmishRules, SkirmishParams(side="zombies"), 5)
    skirmish.auto_step()
    for session in (duel, skirmish):
        with pytest.raises(DedaleError) as raised:
            Session.from_json(type(session.rules), saved(session.seat_json()))
        assert raised.value.key == "error.hidden_view"
        assert "cannot be continued" in raised.value.message("en")
        assert "ne peut pas être poursuivi" in raised.value.message("fr")
        assert Session.from_json(type(session.rules), saved(session.to_json())).to_json() == saved(session.to_json())


def test_table_mode_hides_nothing() -> None:
    duel = Session(DuelRules, DuelParams(), 0, table=True)
    for card in ("AS", "KD", "2C", "7H"):
        duel.step(f"enter:{card}")
    skirmish = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side="lawmen"), 0, table=True)
    for session in (duel, skirmish):
        assert not session.is_over and session.has_secrets() and not session.hides()
        assert session.seat_json() == session.to_json() and session.seat_log() == session.to_json()["log"]


def test_a_game_between_two_ais_and_a_system_without_secrets_hide_nothing() -> None:
    ais = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side=None), 4)
    crawler = Session(CrawlerRules, CrawlerParams(), 4)
    crawler.auto_step()
    for session in (ais, crawler):
        assert not session.has_secrets() and not session.hides()
        assert session.seat_json() == session.to_json() and session.seat_result() == session.rules.result_json()


def test_the_seat_log_from_an_entry_on() -> None:
    session = Session(DuelRules, DuelParams(style="bold"), 3)
    session.run_autopilot()
    session = session.remade(session.events[:-1])  # one step before the end: the AI's cards still hidden
    assert session.seat_log(4) == session.seat_log()[4:] and len(session.seat_log(4)) > 0


# --- the terminal --------------------------------------------------------------------------------------------------
def test_the_terminal_prints_the_players_view_and_saves_the_whole_game(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "game.json"
    code, out, _ = cli("zombstone", "play", "--scenario", "high_noon", "--seed", "0", "--save", str(save),
                       stdin="a\n" * 12 + "q\n")
    document = json.loads(save.read_text(encoding="utf-8"))
    players = [event for event in document["events"] if event["seat"] == 0]
    assert code == 0 and bluffs(document["log"], AI_SEAT) and len(players) == 12
    assert any(e["seat"] == AI_SEAT and e["by"] == "default" for e in document["events"])  # the AI's, recorded
    assert "a bluff by the zombies" not in out and "a bluff by the lawmen" in out
    assert "a hole card for the zombies: drew ??" in out and "An inspiration card for the zombies: drew ??" in out
    assert not re.search(r"for the zombies: drew (?!\?\?)", out)


# --- the AI's decisions, events of its own (issue 39) ---------------------------------------------------------------
NAMING = ("activate", "charisma", "melee", "shoot", "aim")  # decisions that name a figure by its id


def test_the_ais_decisions_show_the_player_only_what_the_rules_let_them_see(walled_tokens: str) -> None:
    """The AI's decisions are events of seat 1 now: in the player's view, one naming a hidden token names it as
    the picture does (by the token's id there), and one whose very asking tells of a card the AI held (to play
    none of the cards that would help, to spend no Last Breath) is left out; the full document keeps them all."""
    swapped = unplayed = 0
    for seed in range(4):
        session = Session(SkirmishRules, SkirmishParams(scenario="high_noon", side="lawmen", data=walled_tokens),
                          seed)
        while not session.is_over and masked(session):
            tokens = {f.id: f for f in masked(session)}
            view = session.seat_json(0)
            assert len(view["events"]) <= len(session.events)
            drawn = {(f["x"], f["y"]): f["id"] for f in view["game"]["figures"] if f["profile"] is None}
            shown = iter(view["events"])
            for event in session.events:
                if event.get("seat") == 1 and event["choice"] in ("cards:none", "last_breath:no"):
                    unplayed += 1
                    continue  # left out
                seen = next(shown)
                kind, _, named = event["choice"].partition(":")
                if kind in NAMING and named.isdigit() and int(named) in tokens:  # a token, as the picture names it
                    token = tokens[int(named)]
                    assert seen["choice"] == f"{kind}:{drawn[(round(token.x, 3), round(token.y, 3))]}"
                    swapped += seen["choice"] != event["choice"]
                else:  # as it was made, but the AI's bluff rolls (test_the_ais_bluff_rolls_are_left_out...)
                    assert {k: v for k, v in seen.items() if k != "drew"} == {k: v for k, v in event.items()
                                                                                if k != "drew"}
                    assert event.get("seat") == 0 or "duel.bluff" not in json.dumps(seen)
            session.auto_step()
    assert swapped, "no AI decision named a hidden token under another id"


def test_the_ais_bluff_rolls_are_left_out_of_its_decisions_in_the_players_view() -> None:
    for seed in range(40):
        session = Session(DuelRules, DuelParams(style="bold"), seed)
        while not session.is_over and any(c.id == "check" for c in session.choices()):
            session.step("check")
        bluffing = [e for e in session.events if e.get("seat") == 1 and any(
            entry["for"] == "duel.bluff" for entry in e.get("drew", []))]
        if bluffing and not session.is_over:
            view = session.seat_json(0)
            assert not [e for e in view["events"] if "drew" in e and e["seat"] == 1]
            assert [e["choice"] for e in view["events"]] == [e["choice"] for e in session.events]
            assert "duel.bluff" not in json.dumps(view) and "duel.bluff" in json.dumps(session.to_json())
            return
    raise AssertionError("no duel in 40 seeds where the AI rolled a bluff before the end")


def test_a_decision_to_play_no_card_is_kept_from_the_other_side() -> None:
    """Between two people: a side is asked which cards to play only when it holds one that would help, so its
    choice of none tells the other side of that card; the other seat's view leaves it out (a spectator's too)."""
    for seed in range(30):
        session = Session(SkirmishRules, SkirmishParams(scenario="ok_corral", opponent="human"), seed)
        for _ in range(400):
            if session.is_over:
                break
            asked = session.rules.ask
            if isinstance(asked, Ask) and asked.kind == "cards":
                seat = session.seat_to_act()
                assert seat is not None
                session.step("cards:none", seat=seat)
                kept = [e for e in session.events if e["choice"] == "cards:none" and e["seat"] == seat]
                assert kept and "cards:none" in [e["choice"] for e in session.seat_json(seat)["events"]]
                for other in (1 - seat, -1):
                    assert "cards:none" not in [e.get("choice") for e in session.seat_json(other)["events"]]
                return
            session.auto_step()
    raise AssertionError("no side was asked for its cards in 30 games")


def test_a_page_following_a_game_learns_of_no_event_the_player_may_not_see(client: Any) -> None:
    """The AI's decisions are events too, some of them kept from the player (to play none of the cards it was
    asked about): what the page and its live updates compare is the session's revision, one a change made, never
    a count of the events."""
    made = client.post("/new/zombstone", data={"scenario": "high_noon", "side": "lawmen", "seed": "7"})
    session_id = made.headers["location"].rsplit("/", 1)[1]
    page = f"/play/{session_id}"
    session = client.app.state.sessions.get(session_id)
    for changes in range(1, 41):
        client.post(f"{page}/auto", data={"to": "one"})
        shown = re.search(r'id="play"[^>]* data-revision="(\d+)"', client.get(page).text)
        assert shown is not None and shown.group(1) == client.get(f"{page}/revision").text == str(changes)
        if session.is_over:
            break
    assert len(session.events) > changes  # the AI's decisions, which the revision does not count

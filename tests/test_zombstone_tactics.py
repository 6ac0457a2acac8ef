"""The skirmish AI's tactics (issue 32) and the table of `dedale zombstone balance`: aimed shots taken when one
beats two plain shots, gunmen in cover that move to shoot rather than idle, a horde that walks around
buildings, a Last Breath spent shooting, no move back the way it came, a defender that cannot win rerolling to
lose by less; High Noon's deployment as the text
says it."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

from dedale.core.cards import Card
from dedale.core.rng import Roller, SeededSource
from dedale.zombstone.combinatorics import index_of, keeps
from dedale.zombstone.hands import best_key, counts_of
from dedale.zombstone.skirmish.ai import AI, SECOND_SHOT
from dedale.zombstone.skirmish.ai_report import Watcher, ai_report, watched_game
from dedale.zombstone.skirmish.battlefield import Battlefield, Terrain
from dedale.zombstone.skirmish.catalogue import Victory, load_catalogue
from dedale.zombstone.skirmish.fight import defender_keep, shot_damage
from dedale.zombstone.skirmish.model import Figure, Game, Side
from dedale.zombstone.skirmish.params import SkirmishParams
from dedale.zombstone.skirmish.setup import duellist, setup
from dedale.zombstone.skirmish.simulate import game_seed, play_game, run
from dedale.zombstone.skirmish.table import OTHER, Ask, Option, Table
from dedale.zombstone.skirmish.turn import action_ask, activate
from dedale.zombstone.skirmish.victory import inside

CATALOGUE = load_catalogue()
DOLLARS = Victory()
SIDE_OF = {member: band.side for band in CATALOGUE.bands.values() for member in band.members}


def table(*figures: tuple[str, float, float], terrain: tuple[Terrain, ...] = ()) -> Table:
    """Two AIs at a game on a 36-inch table with the terrain and the figures (profile, x, y) given."""
    game = Game(scenario="ok_corral")
    for profile, x, y in figures:
        game.figures.append(Figure(len(game.figures), profile, SIDE_OF[profile], x, y))
    for side, band in (("lawmen", "earp_brothers"), ("zombies", "clanton_clan")):
        game.sides[side] = Side(side, band)
    scenario = dataclasses.replace(CATALOGUE.scenario("ok_corral"), battlefield=Battlefield(36, 36, terrain),
                                   victory=DOLLARS)
    return Table(game, CATALOGUE, scenario, Roller(SeededSource(1), game.log), {"lawmen": AI(), "zombies": AI()},
                 activation=activate)


def choose(t: Table, figure: Figure, actions: int = 2, moves: int = 2) -> str:
    ask = action_ask(t, figure, actions, moves, [t.profile(figure).hand])
    return AI().choose(t, ask)


def test_a_precise_shooter_aims_when_cover_takes_its_rerolls_and_shoots_twice_in_the_open() -> None:
    """Ike (Potential 1, Precise: his aim is free) behind two light covers rolls at -1: one aimed shot beats two
    plain ones. In the open, two plain shots are worth more."""
    fences = (Terrain("light", 14, 10, 0.5, 16), Terrain("light", 18, 10, 0.5, 16))
    t = table(("ike_clanton", 11, 18), ("deputy", 20, 18), terrain=fences)
    assert choose(t, t.game.figure(0), moves=0) == "aim:1"
    t = table(("ike_clanton", 11, 18), ("deputy", 20, 18))
    assert choose(t, t.game.figure(0), moves=0) == "shoot:1"


def test_a_gunman_in_cover_out_of_range_moves_to_shoot_unless_the_scenario_is_won_as_things_stand() -> None:
    """Wyatt behind a wagon, the Cajun 14 inches away, out of his Colt's 12: when the lawmen win the scenario by
    surviving, he waits in cover for the enemy to come; when only the dollars at the turn limit would decide it
    (he is worth $20 more), he moves where he can shoot (issue 40: a band that waited for the dollars left its
    games undecided at the table; issue 32: he used to wait whenever an enemy stood within his range and 4
    inches)."""
    wagon = (Terrain("heavy", 21, 14, 1, 8),)
    t = table(("wyatt_earp", 23, 18), ("the_cajun", 9, 18), terrain=wagon)
    t.scenario = dataclasses.replace(t.scenario, victory=Victory("survive_lawmen"))
    assert choose(t, t.game.figure(0)) == "end"
    for figures in ((("wyatt_earp", 23, 18), ("the_cajun", 9, 18)),
                    (("wyatt_earp", 23, 18), ("the_cajun", 9, 18), ("billy_clanton", 4, 30))):
        t = table(*figures, terrain=wagon)
        wyatt = t.game.figure(0)
        ask = action_ask(t, wyatt, 2, 2, [2])
        moved = ask.option(AI().choose(t, ask))
        assert moved is not None and moved.id.startswith("move:")
        gun = t.gun(wyatt)
        assert gun is not None and math.dist(moved.data["to"], (9, 18)) <= gun.range


def test_a_zombie_walks_around_a_building_in_its_way() -> None:
    """A building between the zombie and the deputy, the straight way blocked: the zombie's walk shortens the
    way it must go (around the building), never leaving it stuck against the wall."""
    store = (Terrain("building", 12, 8, 4, 20),)
    t = table(("deputy", 22, 18), ("zombie", 11.4, 18), terrain=store)
    zombie = t.game.figure(1)
    for _ in range(4):
        ask = action_ask(t, zombie, 2, 1, [0])
        option = ask.option(AI().choose(t, ask))
        assert option is not None and option.id.startswith("move:")
        before = zombie.pos
        zombie.place(option.data["to"])
        assert math.dist(before, zombie.pos) > 1
    assert zombie.y < 8 or zombie.y > 28 or zombie.x > 16  # around a corner of the store


@pytest.mark.parametrize("kind", ["escort", "hold"])
def test_a_figure_an_inch_short_of_its_place_steps_into_it(kind: str) -> None:
    """Mayor Clum's ride: the mayor 0.7 inches from the mine's edge, with an action left, walks in (the walk,
    measured to the place's inch squares, gained less than the inch asked of a move that only gets nearer)."""
    t = table(("john_clum", 32.3, 21.3), ("ike_clanton", 18.5, 2.2))
    place = (33.0, 0.0, 3.0, 36.0)
    victory = Victory(kind, place, "john_clum", "lawmen") if kind == "escort" else Victory(kind, place)
    t.scenario = dataclasses.replace(t.scenario, victory=victory)
    mayor = t.game.figure(0)
    ask = action_ask(t, mayor, 1, 1, [0])
    option = ask.option(AI().choose(t, ask))
    assert option is not None and inside(option.data["to"], place)


def test_a_last_breath_is_spent_shooting_not_walking_into_cover() -> None:
    wagon = (Terrain("heavy", 18, 20, 2, 2),)
    t = table(("wyatt_earp", 20, 18), ("billy_clanton", 11, 18), terrain=wagon)
    wyatt = t.game.figure(0)
    wyatt.ticked = t.profile(wyatt).cartridges  # his last cartridge ticked: Last Breath's free activation
    assert choose(t, wyatt).startswith(("shoot:", "aim:"))
    wyatt.ticked = 0  # unhurt, out of cover: into cover first (behind the wagon), from where he still shoots
    assert choose(t, wyatt).startswith("move:")


@pytest.mark.parametrize("rounds", [1, 2])
def test_a_defender_that_cannot_win_rerolls_for_a_hand_that_loses_by_less(rounds: int) -> None:
    """Against five Aces nothing wins: the defender (Potential 2) showing a pair of Kings keeps them, rerolling
    the odd dice for two pairs or three of a kind (each rank higher, a cartridge less lost)."""
    five_aces = best_key(counts_of([5] * 5))
    showing = counts_of([4, 4, 0, 1, 2])  # a pair of Kings, a 9, a 10, a Jack
    kept = keeps(5)[defender_keep((2, rounds, None, None), five_aces, False, 0, index_of(5)[showing])]
    assert kept[4] == 2 and sum(kept) == 3  # both Kings kept, two dice rerolled (its Potential)


def test_a_gunman_does_not_walk_back_the_way_it_came() -> None:
    t = table(("deputy", 23, 18), ("the_cajun", 4, 18))
    deputy = t.game.figure(0)
    t.roller.note("skirmish.activates", figure=t.who(deputy))
    start = deputy.pos
    deputy.place((27.0, 18.0))  # it stepped 4 inches east (away), this activation
    t.roller.note("skirmish.moved", figure=t.who(deputy), inches=4.0, way={"t": "dir.E"}, arrival={"t": "x"})
    ask = action_ask(t, deputy, 1, 1, [1])
    option = ask.option(AI().choose(t, ask))
    assert option is not None
    assert not (option.id.startswith("move:") and math.dist(option.data["to"], start) < 1)


@pytest.mark.parametrize("seed", range(1, 21))
def test_high_noon_deploys_every_band_in_cover_from_the_enemy_duellist_and_apart(seed: int) -> None:
    """The text: "déployée à couvert" within 12 inches of the duellists; each band on its own half (they hid
    behind the same wagon, 2.7 inches apart)."""
    scenario = CATALOGUE.scenario("high_noon")
    assert scenario.duel is not None
    game = Game()
    t = Table(game, CATALOGUE, scenario, Roller(SeededSource(seed), game.log), {"lawmen": AI(), "zombies": AI()},
              activation=activate)
    setup(t)
    middle = t.field.width / 2
    for figure in game.figures:
        own, enemy = duellist(t, figure.side), duellist(t, OTHER[figure.side])
        if figure is own:
            continue
        assert t.covers(enemy.pos, figure.pos), t.profile(figure).id
        assert math.dist(figure.pos, own.pos) <= scenario.duel.cover_within
        assert (figure.x - middle) * (own.x - middle) > 0  # on its duellist's side of the table
    lawmen = [f.pos for f in game.figures if f.side == "lawmen"]
    zombies = [f.pos for f in game.figures if f.side == "zombies"]
    assert min(math.dist(a, b) for a in lawmen for b in zombies) >= 6


def test_balance_without_a_field_prints_every_scenario_at_every_ai_level(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("zombstone", "balance", "--games", "2", "--seed", "3", "--workers", "1")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2 + len(CATALOGUE.scenarios)  # the title, the columns' header, a line a scenario
    assert "at the table" in lines[1] and "turns" in lines[1]
    for scenario, line in zip(CATALOGUE.scenarios, lines[2:], strict=True):
        assert line.split()[:2] == [scenario, "standard"]
    code, out, _ = cli("zombstone", "balance", "--games", "3", "--seed", "3", "--workers", "1", "--scenario",
                       "clum_ride", "--json")
    row = json.loads(out)["rows"][0]
    assert code == 0 and row["scenario"] == "clum_ride" and row["ai"] == "standard"
    assert row["decided"] == 1.0  # the escort decides every game, at the turn limit or before
    assert sum(w["games"] for w in row["wins"].values()) == 3


@pytest.mark.parametrize(("args", "problem"), [
    (("--ai", "genius"), "genius"),
    (("--scenario", "alamo"), "alamo"),
    (("--profile", "deputy", "--field", "hand"), "--values"),
])
def test_balance_table_refuses_bad_input(cli, args: tuple[str, ...], problem: str) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("zombstone", "balance", "--games", "2", "--seed", "1", *args)
    assert code == 2 and problem in err and "Traceback" not in err


# --- issue 40: an AI that fights like a player --------------------------------------------------------------
def test_a_gunman_under_fire_from_an_armed_zombie_moves_to_shoot_back() -> None:
    """Seed 90210's turn 6, set out again: Wyatt behind a wagon, Frank McLaury's Winchester (24 inches) on him
    from 16 inches, out of reach of his Colt (12). An armed zombie is a gun, not a horde that walks up anyway:
    Wyatt moves to where he can shoot back (he waited in cover, and the Winchester killed him the next turn)."""
    wagon = (Terrain("heavy", 21, 14, 1, 8),)
    t = table(("wyatt_earp", 23, 18), ("frank_mclaury", 7, 18), terrain=wagon)
    wyatt = t.game.figure(0)
    ask = action_ask(t, wyatt, 2, 2, [2])
    moved = ask.option(AI().choose(t, ask))
    gun = t.gun(wyatt)
    assert moved is not None and moved.id.startswith("move:") and gun is not None
    assert math.dist(moved.data["to"], (7, 18)) <= gun.range and t.sight(moved.data["to"], (7, 18))


def test_the_horde_walks_front_first_and_the_one_behind_then_walks_too() -> None:
    """Mayor Clum's ride, seed 31337's jam set out again: Billy Clanton (a Supporting armed zombie) behind a zombie,
    both against the stage station's east wall, the townsmen south-west. The one ahead along the walk goes first
    (Billy used to, by his status, and stood still behind the zombie), and then Billy has room to walk."""
    station = (Terrain("building", 12, 1, 6, 5),)
    t = table(("billy_clanton", 18.6, 3.5), ("zombie", 18.6, 4.7), ("deputy", 12, 10), terrain=station)
    options = tuple(Option(f"activate:{i}", "skirmish.option.activate", {}, {"figure": i}) for i in (0, 1))
    assert AI().choose(t, Ask("zombies", "activate", options, {})) == "activate:1"
    front = t.game.figure(1)
    ask = action_ask(t, front, 2, 2, [1])
    walked = ask.option(AI().choose(t, ask))
    assert walked is not None and walked.id.startswith("move:")
    front.place(walked.data["to"])
    billy = t.game.figure(0)
    ask = action_ask(t, billy, 2, 2, [1])
    answer = AI().choose(t, ask)
    assert answer.startswith(("move:", "shoot:")), answer


def test_a_joker_pays_for_an_aimed_shot_when_one_beats_two_plain_ones_in_expected_damage() -> None:
    """A deputy holding a Joker, Billy Clanton behind two fences: the cover takes the deputy's rerolls and one
    aimed shot deals more than two plain ones, so he aims (the Joker buys nothing else; he used to keep it). In
    the open two plain shots deal more, and he shoots."""
    fences = (Terrain("light", 16, 10, 0.5, 16), Terrain("light", 19, 10, 0.5, 16))
    t = table(("deputy", 11, 18), ("billy_clanton", 23, 18), terrain=fences)
    t.game.sides["lawmen"].hand = [Card.parse("JKS")]
    deputy, billy = t.game.figures
    assert shot_damage(t, deputy, billy, True) > (1 + SECOND_SHOT) * shot_damage(t, deputy, billy, False)
    assert choose(t, deputy, moves=0) == "aim:1"
    t = table(("deputy", 11, 18), ("billy_clanton", 23, 18))
    t.game.sides["lawmen"].hand = [Card.parse("JKS")]
    assert choose(t, t.game.figure(0), moves=0) == "shoot:1"


def test_a_last_breath_is_paid_for_only_when_its_activation_can_hurt_an_enemy() -> None:
    """Doc Holliday's last cartridge with a heart in hand: the free activation is worth the card when an enemy is
    within his Colt's reach (15 inches: a move and a shot); 32 inches away it can hurt nobody, and the heart is
    kept (45% of OK Corral's Last Breaths did nothing)."""
    for zombie_x, paid in ((17, True), (34, False)):
        t = table(("doc_holliday", 2, 18), ("zombie", zombie_x, 18))
        t.game.sides["lawmen"].hand = [Card.parse("5H")]
        options = (Option("last_breath:5H", "skirmish.option.last_breath", {}),
                   Option("last_breath:no", "skirmish.option.no_last_breath", {}))
        answer = AI().choose(t, Ask("lawmen", "last_breath", options, {"figure": 0}))
        assert (answer == "last_breath:5H") == paid, zombie_x


def test_the_ai_report_counts_each_side_s_activations_and_the_faults_among_them() -> None:
    """`make bench`'s AI report, on two games: every fault counted is one of the activations (or shots, Jokers,
    Last Breaths) it is a share of, and a game played under the watch is the game played without it."""
    params = SkirmishParams(scenario="ok_corral", side=None)
    found = ai_report(params, 2, 40)
    for counts in found.values():
        idle_or_waiting = counts["gun_open_idle"] + counts["gun_open_waited"]
        assert counts["activations"] > 0 and idle_or_waiting <= counts["gun_open"] <= counts["activations"]
        assert counts["horde_still"] <= counts["horde"] and counts["aimed"] <= counts["shots"]
        assert counts["last_breaths_wasted"] <= counts["last_breaths"]
    shots = sum(found[side]["shots"] for side in found)
    assert shots == sum(run(params, 2, 40)[n].shots for n in range(2))


@dataclasses.dataclass(frozen=True)
class _Idle:
    """An AI whose gunmen end every activation at once (the fault the report's idle measure is for)."""

    inner: AI = dataclasses.field(default_factory=AI)
    name: str = "idle"

    def choose(self, t: Table, ask: Ask) -> str:
        if ask.kind == "action" and ask.about["actions"] == 2 and t.gun(t.game.figure(ask.about["figure"])):
            return "end"
        return self.inner.choose(t, ask)


def test_the_ai_report_tells_a_gunman_idle_under_fire_from_one_waiting_for_a_brawler() -> None:
    """Gunmen that never act, watched over an OK Corral game, are idle with the Clantons' guns on them; the
    standard Earps of a High Noon game (seed 40, game 3) wait in cover for the brawlers twice and are never idle."""
    found = Watcher(_Idle(), "lawmen")
    play_game(SkirmishParams(scenario="ok_corral", side=None), game_seed(40, 0),
              watch=lambda side, ai: found if side == "lawmen" else ai)
    counts = found.finish()
    assert counts["gun_open_idle"] == counts["gun_open"] > 0
    earps = watched_game(SkirmishParams(scenario="high_noon", side=None), 40, 3)["lawmen"]
    assert (earps["gun_open_idle"], earps["gun_open_waited"]) == (0, 2)


def test_an_answer_is_found_in_the_same_group_whichever_the_ai_listed_first() -> None:
    """A move toward an enemy that ends in cover is offered under one id in two groups, worded otherwise in each:
    the game takes the same one whether the AI looked at the cover first (as it played) or at nothing (as its
    replay does), so the log of a game and of its replay say the same (a finished game's replay once differed)."""
    def ask() -> Ask:
        return Ask("zombies", "action", (), {}, {
            "toward": lambda: [Option("move:1,2", "skirmish.arrival.toward")],
            "cover": lambda: [Option("move:1,2", "skirmish.arrival.cover_by")]})
    played = ask()
    assert played.more("cover")[0].key == "skirmish.arrival.cover_by"  # the AI looked at its cover first
    replayed = ask()
    assert played.option("move:1,2") == replayed.option("move:1,2") == Option("move:1,2", "skirmish.arrival.toward")

"""The turn (`zombstone.md`): upkeep (hands back up to 5 cards; a band that lost all its Stars holds 3 at most),
initiative (a poker die each, ties rolled again, or a card played instead), then alternating activations of
two actions each (move, shoot, melee); the whole game around it is `game.play`.

Choices the spec leaves to the project, documented here:
- The side named first by the scenario declares its initiative first; the other then knows whether the
  first plays a card. A card's face is its result (2 to 8 below a 9); tied players roll again. A card is
  offered only if it may do better than a roll (10 or higher, not below the other side's card); a side
  with no such card rolls unasked.
- A character in base contact with an enemy fights or moves away; it does not shoot.
- Frightening: a character takes a Guts test when a Frightening enemy charges it into contact, and when it
  begins an activation in contact with one.
- Charismatic: after its actions, the character may send an Extra of its band that has not acted this turn,
  with the other such Extras within 3 inches of it (a group), to act at once, one after the other.
- An aimed shot takes both actions, for one more reroll die. It costs a Joker (Precise aims "without spending a
  Joker card"), within the Hand; a Precise character pays nothing. With `aim_cost` "any_card" (Dédale's reading
  before, the deck then having no Joker), any card pays: the lowest a Hand may spare, a 2 to 8 first.
- A Joker is no face and no suit: it completes no hand, switches on no skill and is no card for the initiative.
- At the turn limit, the side whose characters still in play are worth more dollars wins; equal, a draw.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import cache
from types import MappingProxyType
from typing import Any, Final

from dedale.core.cards import Card
from dedale.i18n import word
from dedale.zombstone.chances import whole_percent
from dedale.zombstone.hands import FACES
from dedale.zombstone.skirmish import skills
from dedale.zombstone.skirmish.battlefield import CONTACT, distance
from dedale.zombstone.skirmish.fight import COMPASS, _point_id, _rounded, confront, flee, guts, remove, shot_chances
from dedale.zombstone.skirmish.model import Figure
from dedale.zombstone.skirmish.table import OTHER, Ask, Flow, Option, Table
from dedale.zombstone.skirmish.victory import after_move
from dedale.zombstone.skirmish.wording import moved

MOVE: Final = 4.0  # inches a move action covers
HAND: Final = 5  # cards a side draws up to at upkeep
HAND_WITHOUT_STARS: Final = 3
CHARGE_STOP: Final = CONTACT - 0.05
REACH: Final = MOVE + CONTACT  # an enemy this close may be charged in one move
END = Option("end", "skirmish.option.end")
LOW_CARDS = ("2", "3", "4", "5", "6", "7", "8")


def turn(t: Table) -> Flow[None]:
    game = t.game
    game.turn += 1
    game.last_fire, game.fire = game.fire, []
    t.roller.note("skirmish.turn", turn=game.turn)
    for figure in game.figures:
        figure.activated = False
    yield from upkeep(t)
    first = yield from initiative(t)
    yield from activations(t, first)


def upkeep(t: Table) -> Flow[None]:
    """Each side draws up to its hand: 5 cards, or 3 for a band that has lost all its Stars, which may hold no
    more ("trois cartes maximum en main"): it gives up the rest, keeping those worth most (`_kept`), face down
    into the pile (the discard pile is in everyone's sight, and would show the other side cards of its hand)."""
    for name, side in t.game.sides.items():
        stars = any(t.profile(f).status == "star" for f in t.standing(name))
        limit = HAND_WITHOUT_STARS if side.had_stars and not stars else HAND
        if len(side.hand) > limit:
            held, side.hand[:] = side.hand[:], _kept(side.hand, limit)
            for extra in held:
                if extra not in side.hand:  # back into the pile, unseen: the discard pile is there for all to see
                    t.game.deck.put_back(extra)
            t.roller.note("skirmish.hand_limit", side=word(f"skirmish.side.{name}"), count=len(held) - limit)
        while len(side.hand) < limit:
            card = yield from t.draw("skirmish.upkeep_draw", side=word(f"skirmish.side.{name}"))
            if card is None:
                t.roller.note("skirmish.deck_empty")
                break
            side.hand.append(card)


def _kept(hand: list[Card], limit: int) -> list[Card]:
    """The cards a band kept to `limit` keeps, in the order it held them: its Jokers (each pays an Aimed shot),
    then the highest (they win the initiative and complete the better hands). Dédale's choice: the text says how
    many a band may hold, not which; a rule, not a decision, so that no card need be named to the other side."""
    best = sorted(hand, key=lambda c: (c.joker, _card_value(c)), reverse=True)[:limit]
    return [c for c in hand if c in best]


def initiative(t: Table) -> Flow[str]:
    """Who activates first this turn (a High Noon duel's winner has it on the first turn)."""
    game = t.game
    if game.initiative is not None and game.turn == 1:
        winner = game.initiative
    else:
        order = [t.scenario.first, *(s for s in game.sides if s != t.scenario.first)]
        results: dict[str, int | None] = {}
        for name in order:
            hand = game.sides[name].hand
            other = results.get(OTHER[name])  # the card the other side played first, if it did
            options = [Option("initiative:roll", "skirmish.option.roll_initiative", {})]
            options += [Option(f"initiative:{c.code}", "skirmish.option.card_initiative", {"card": c.word})
                        for c in sorted(hand, key=_card_value, reverse=True) if _worth_playing(_card_value(c), other)]
            if len(options) == 1:  # no card worth playing: the side rolls, unasked
                answer = "initiative:roll"
            else:
                answer = yield from t.decide(Ask(name, "initiative", tuple(options), {"others": dict(results)}))
            if answer == "initiative:roll":
                results[name] = None
            else:
                card = next(c for c in hand if c.code == answer.removeprefix("initiative:"))
                hand.remove(card)
                game.deck.discard(card)
                results[name] = _card_value(card)
                t.roller.note("skirmish.initiative_card", side=word(f"skirmish.side.{name}"), card=card.code)
        values: dict[str, int] = {}
        for name in order:
            value = results[name]
            values[name] = value if value is not None else (yield from t.faces(1, "skirmish.initiative",
                                                                               side=word(f"skirmish.side.{name}")))[0]
        while values[order[0]] == values[order[1]]:  # a tie: both roll again
            for name in order:
                again = yield from t.faces(1, "skirmish.initiative_again", side=word(f"skirmish.side.{name}"))
                values[name] = again[0]
        winner = max(values, key=lambda name: values[name])
    game.initiative = winner
    who_starts = (Option("first:me", "skirmish.option.go_first", {}),
                  Option("first:other", "skirmish.option.let_start", {}))
    answer = yield from t.decide(Ask(winner, "first", who_starts, {}))
    first = winner if answer == "first:me" else _other(t, winner)
    t.roller.note("skirmish.initiative_won", side=word(f"skirmish.side.{winner}"), first=word(f"skirmish.side.{first}"))
    return first


def _worth_playing(value: int, other: int | None) -> bool:
    """A card is offered for the initiative only if it may do better than a roll: it beats a die's lowest
    face (a 9, worth 0) and does not lose to the card the other side played first, `other` (an equal card is
    a tie, rolled again: better than a roll that may lose to it)."""
    return value > 0 and (other is None or value >= other)


def _card_value(card: Card) -> int:
    """A card played for the initiative: its face as a poker die's, 2 to 8 below a 9 (a Joker, no face, below
    them all: never worth playing)."""
    if card.joker:
        return -len(LOW_CARDS) - 1
    return FACES.index(card.rank) if card.rank in FACES else LOW_CARDS.index(card.rank) - len(LOW_CARDS)


def _other(t: Table, side: str) -> str:
    return OTHER[side]


def activations(t: Table, first: str) -> Flow[None]:
    """Alternating activations; a side with no one left to activate lets the other go on."""
    current = first
    while not t.over:
        ready = _waiting(t, current)
        if not ready:
            current = _other(t, current)
            if not _waiting(t, current):
                return
            continue
        options = tuple(_activation(f.id) for f in ready)
        answer = yield from t.decide(Ask(current, "activate", options, {}))
        yield from activate(t, t.game.figure(int(answer.removeprefix("activate:"))))
        current = _other(t, current)


@cache
def _activation(figure_id: int) -> Option:
    """The option to activate a figure: the same all game, made once (and read-only: games share it)."""
    about = MappingProxyType({"figure": figure_id})
    return Option(f"activate:{figure_id}", "skirmish.option.activate", about, about)


@cache
def _attack(kind: str, enemy_id: int, cover: int | None = None) -> Option:
    """A melee, shot or aimed shot at an enemy (behind `cover` pieces of cover): made once, read-only."""
    args = {"target": enemy_id} if cover is None else {"target": enemy_id, "cover": cover}
    return Option(f"{kind}:{enemy_id}", f"skirmish.option.{kind}", MappingProxyType(args),
                  MappingProxyType({"figure": enemy_id}))


def _waiting(t: Table, side: str) -> list[Figure]:
    return [f for f in t.standing(side) if not f.activated]


def activate(t: Table, figure: Figure, free: bool = False) -> Flow[None]:
    """One activation: a fleeing character's Guts first, then two actions; a Charismatic one may then send
    Extras. `free`: Last Breath's extra activation."""
    figure.activated = True
    profile = t.profile(figure)
    budget = [profile.hand]
    t.roller.note("skirmish.activates", figure=t.who(figure))
    if figure.state == "fleeing" and not free:
        if (yield from guts(t, figure, "rally", budget)):
            figure.state = "ready"
        else:
            danger = _nearest(t, figure)
            if danger is not None and bool(t.covers(danger.pos, figure.pos)):
                t.roller.note("skirmish.stays_in_cover", figure=t.who(figure))
            else:
                yield from remove(t, figure, "gone")
            return
    frightening = [e for e in _in_contact(t, figure) if t.profile(e).has("frightening")]
    if frightening and not free and not (yield from guts(t, figure, "frightened", budget)):
        flee(t, figure, frightening[0].pos)
        return
    yield from act(t, figure, 2, skills.move_actions(profile.skills, figure.wounded), budget, free)


def act(t: Table, figure: Figure, actions: int, moves: int, budget: list[int], free: bool = False) -> Flow[None]:
    """An activation from its actions on, `actions` and `moves` left and `budget` the cards its Hand may still
    play (a look-ahead's rollout, `lookahead.py`, starts here at an action); then a Charismatic character may
    send Extras."""
    profile = t.profile(figure)
    while actions > 0 and figure.in_play and not t.over:
        ask = action_ask(t, figure, actions, moves, budget)
        answer = yield from t.decide(ask)
        chosen = ask.option(answer)
        assert chosen is not None
        kind = chosen.id.split(":")[0]
        if kind == "end":
            break
        actions -= 2 if kind in ("aim", "jump") else 1
        if kind in ("move", "jump"):  # a long jump may take both actions, and both moves (the text)
            moves -= 2 if kind == "jump" else 1
            yield from _move(t, figure, chosen.data)
        elif kind in ("shoot", "aim"):
            if kind == "aim" and not skills.aims_free(profile.skills):
                _pay_aim(t, figure, budget, _aim_cards(t, figure))
            yield from confront(t, figure, t.game.figure(chosen.data["figure"]), False, kind == "aim", budget)
        else:
            yield from confront(t, figure, t.game.figure(chosen.data["figure"]), True, False, budget)
        reveal(t)
    if profile.has("charismatic") and figure.in_play and not t.over and not free:
        yield from _charisma(t, figure)


def action_ask(t: Table, figure: Figure, actions: int, moves: int, budget: list[int]) -> Ask:
    """Every action the figure may take now: melees, shots, aimed shots, moves, or ending its activation.
    An AI sees its shots and moves only if it looks for them (listing them is most of an AI's time, and a
    brawler that charges never looks at its gun)."""
    engaged = _in_contact(t, figure)
    melees = [_attack("melee", enemy.id) for enemy in engaged]
    about = {"figure": figure.id, "actions": actions, "moves": moves}
    if t.controllers.get(figure.side) is None:
        shots = [] if engaged else _shots(t, figure, actions, budget)
        if moves == 0:
            return Ask(figure.side, "action", (*melees, *shots, END), about)
        jumps = jump_options(t, figure) if actions == 2 and moves >= 2 else []
        return Ask(figure.side, "action", (*melees, *shots, *move_options(t, figure), *jumps, END), about)
    later: dict[str, Callable[[], list[Option]]] = {
        "shots": lambda: [] if engaged else _shots(t, figure, actions, budget)}
    if moves > 0:
        later.update({"toward": lambda: move_options(t, figure, ("toward",)),
                      "cover": lambda: move_options(t, figure, ("cover",)),
                      "compass": lambda: move_options(t, figure, ("compass",))})
    return Ask(figure.side, "action", (*melees, END), about, later)


def _shots(t: Table, figure: Figure, actions: int, budget: list[int]) -> list[Option]:
    """The shots and aimed shots of a figure in contact with no enemy."""
    options: list[Option] = []
    if t.gun(figure) is None:
        return options
    can_aim = actions == 2 and (skills.aims_free(t.profile(figure).skills)
                                or (budget[0] > 0 and bool(_aim_cards(t, figure))))
    for enemy, cover in targets(t, figure):
        options.append(_attack("shoot", enemy.id, cover))
        if can_aim:
            options.append(_attack("aim", enemy.id, cover))
    return options


def with_chances(t: Table, shooter: Figure, shot: Option) -> Option:
    """A shot as a person is offered it: saying its chance to hit before it is chosen (`fight.shot_chances`),
    in its words and in what it points at (the chance against a dodge, for the map's badge). Only what is
    shown pays for it: an AI weighs its shots otherwise."""
    chances = shot_chances(t, shooter, t.game.figure(shot.data["figure"]), shot.id.startswith("aim:"))
    args = {**shot.args, "chance": whole_percent(chances["dodge"])}
    if "return" in chances:
        args["back"] = whole_percent(chances["return"])
    key = f"{shot.key}_odds{'_back' if 'return' in chances else ''}"
    data = {**shot.data, "chance": float(chances["dodge"])}
    return Option(shot.id, key, MappingProxyType(args), MappingProxyType(data))


def targets(t: Table, figure: Figure) -> list[tuple[Figure, int]]:
    """The enemies the figure can shoot (seen, in range, not hidden), with how many pieces of cover stand
    between."""
    gun = t.gun(figure)
    found: list[tuple[Figure, int]] = []
    if gun is None:
        return found
    at, reach, seen, covers = figure.pos, gun.range, t.field.seen, t.field.cover_kinds  # read once, not per enemy
    for enemy in t.enemies(figure):
        if enemy.hidden or distance(at, enemy.pos) > reach:
            continue
        if seen(at, enemy.pos):
            found.append((enemy, len(covers(at, enemy.pos))))
    return found


def move_options(t: Table, figure: Figure, groups: tuple[str, ...] = ("toward", "cover", "compass")) -> list[Option]:
    """Where one move may take the figure: toward each enemy (a charge when it reaches contact), behind
    cover from the nearest enemy, and the eight compass directions; each destination once. An AI, which
    goes for the enemy or for cover, looks at the nearest enemy, those it could charge, and the best cover."""
    others = t.others(figure)
    found: dict[tuple[float, float], Option] = {}
    person = t.controllers.get(figure.side) is None
    start, field = figure.pos, t.field
    enemies = t.visible(OTHER[figure.side]) if "toward" in groups or "cover" in groups else []
    away = [distance(start, e.pos) for e in enemies]
    order = sorted(range(len(enemies)), key=away.__getitem__)  # nearest first (stable: ties in band order)
    near = order[:4] if person else order[:1] + [i for i in order[1:] if away[i] <= REACH]
    for enemy in (enemies[i] for i in near) if "toward" in groups else ():
        to = field.move(start, enemy.pos, MOVE, others, stop_at=CHARGE_STOP)
        if (place := _new_place(found, start, to)) is not None:
            charge = distance(to, enemy.pos) <= CONTACT
            found[place] = Option(f"move:{_point_id(place)}", "skirmish.option.charge" if charge else
                                  "skirmish.option.toward", {"target": enemy.id},
                                  {"to": to, "figure": enemy.id, "charge": charge})
    if enemies and "cover" in groups:
        for spot in field.cover_spots(start, MOVE, [enemies[order[0]].pos], others, 3 if person else 1):
            to = field.move(start, spot, MOVE, others)
            if (place := _new_place(found, start, to)) is not None:
                found[place] = Option(f"move:{_point_id(place)}", "skirmish.option.to_cover", {},
                                      {"to": to, "cover": True})
    if "compass" in groups:
        for name, (dx, dy) in COMPASS.items():
            to = field.move(start, (figure.x + dx * MOVE, figure.y + dy * MOVE), MOVE, others)
            if (place := _new_place(found, start, to)) is not None:
                found[place] = Option(f"move:{_point_id(place)}", "skirmish.option.move",
                                      {"way": f"dir.{name}"}, {"to": to})
    return list(found.values())


def jump_options(t: Table, figure: Figure) -> list[Option]:
    """The long jumps the figure may make with both its actions (the text: a jump halves the move, and may
    take both actions): each compass way where a gap stops one move short and two moves clear it."""
    field, start = t.field, figure.pos
    if not field.gaps:  # most tables: nothing to jump
        return []
    others = t.others(figure)
    found: dict[tuple[float, float], Option] = {}
    for name, (dx, dy) in COMPASS.items():
        far = (figure.x + dx * 2 * MOVE, figure.y + dy * 2 * MOVE)
        one = field.move(start, (figure.x + dx * MOVE, figure.y + dy * MOVE), MOVE, others)
        two = field.move(start, far, 2 * MOVE, others)
        cleared = field.leaps(start, two) and not field.leaps(start, one) and distance(start, two) > distance(
            start, one)
        if cleared and (place := _new_place(found, start, two)) is not None:
            found[place] = Option(f"jump:{_point_id(place)}", "skirmish.option.jump", {"way": f"dir.{name}"},
                                  {"to": two})
    return list(found.values())


def _new_place(found: dict[tuple[float, float], Option], start: tuple[float, float],
               to: tuple[float, float]) -> tuple[float, float] | None:
    """Where a move ends, rounded (its option's key and id), unless a move to there is listed already or it
    goes nowhere (less than a quarter of an inch)."""
    if math.dist(start, to) < 0.25:
        return None
    place = _rounded(to)
    return None if place in found else place


def _move(t: Table, figure: Figure, data: Mapping[str, Any]) -> Flow[None]:
    """Move as the chosen option says (`data`: where to, and toward whom or into cover, which the log tells)."""
    start = figure.pos
    figure.place(data["to"])
    t.roller.note("skirmish.moved", **moved(t, figure, start, data))
    after_move(t, figure)
    if t.over:
        return
    if t.profile(figure).has("frightening"):  # a Frightening charge: whoever it reaches tests its Guts
        for enemy in _in_contact(t, figure):
            if not (yield from guts(t, enemy, "frightened")):
                flee(t, enemy, figure.pos)
            if t.over:
                return


def _in_contact(t: Table, figure: Figure) -> list[Figure]:
    return [e for e in t.enemies(figure) if distance(figure.pos, e.pos) <= CONTACT]


def _nearest(t: Table, figure: Figure) -> Figure | None:
    enemies = t.enemies(figure)
    return min(enemies, key=lambda e: distance(figure.pos, e.pos)) if enemies else None


def _aim_cards(t: Table, figure: Figure) -> list[Card]:
    """The cards of the side's hand that may pay an Aimed shot: its Jokers (any card, `aim_cost` "any_card")."""
    hand = t.game.sides[figure.side].hand
    return list(hand) if t.aim_cost == "any_card" else [c for c in hand if c.joker]


def _pay_aim(t: Table, figure: Figure, budget: list[int], cards: list[Card]) -> None:
    """Pay an Aimed shot with one of `cards`: the lowest the hand may spare, a 2 to 8 first."""
    hand = t.game.sides[figure.side].hand
    card = min(cards, key=lambda c: (c.rank not in LOW_CARDS, _card_value(c)))
    hand.remove(card)
    t.game.deck.discard(card)
    budget[0] -= 1
    t.roller.note("skirmish.aim_paid", figure=t.who(figure), card=card.code)


def _charisma(t: Table, leader: Figure) -> Flow[None]:
    extras = [f for f in _waiting(t, leader.side) if t.profile(f).status == "extra"]
    if not extras:
        return
    options = (Option("charisma:none", "skirmish.option.no_charisma", {}),
               *(Option(f"charisma:{f.id}", "skirmish.option.charisma", {"figure": f.id}, {"figure": f.id})
                 for f in extras))
    answer = yield from t.decide(Ask(leader.side, "charisma", options, {"figure": leader.id}))
    if answer == "charisma:none":
        return
    first = t.game.figure(int(answer.removeprefix("charisma:")))
    group = [first, *(f for f in extras if f is not first
                      and distance(f.pos, first.pos) <= skills.GROUP_REACH)]
    t.roller.note("skirmish.charisma", figure=t.who(leader), count=len(group))
    for extra in group:
        if extra.in_play and not extra.activated and not t.over:
            yield from activate(t, extra)


def reveal(t: Table) -> None:
    """Hidden tokens an enemy now sees become figures."""
    for figure in t.game.figures:
        if figure.hidden and figure.in_play and any(t.sight(e.pos, figure.pos) for e in t.enemies(figure)):
            figure.hidden = False
            t.changed()
            t.roller.note("skirmish.revealed", figure=t.who(figure))

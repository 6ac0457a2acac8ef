"""Confrontations at the table (`zombstone.md`): a shot (the target dodges or returns fire, cover counts) or a
melee; each side rolls its poker dice, rerolls at most its Potential, may add inspiration cards after the
roll; the better hand wins and the loser ticks cartridges. Then wounds, the zombie rule, Guts and flight.

The attacker rolls and rerolls first, then the defender, who sees the attacker's dice. An AI rerolls with
the dice engine's optimal policy for the confrontation (each side playing to win); a person chooses among
every allowed reroll, each shown with its value under that policy.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from fractions import Fraction
from functools import cache, lru_cache, partial
from typing import Any, Final

import numpy as np

from dedale.core.cards import Card
from dedale.i18n import Word, word
from dedale.zombstone.advice import advise
from dedale.zombstone.combinatorics import allowed_keeps, index_of, keeps, transitions
from dedale.zombstone.confront import hit_chance, net_damage, policies
from dedale.zombstone.hands import (
    FACES,
    HANDS,
    Counts,
    Turn,
    as_counts,
    best_key,
    counts_of,
    describe,
    plus,
    with_skill,
)
from dedale.zombstone.policy import RollSpec, categories, hand_keys, optimise, total_ways
from dedale.zombstone.skirmish import skills
from dedale.zombstone.skirmish.battlefield import distance
from dedale.zombstone.skirmish.document import Fire
from dedale.zombstone.skirmish.model import Figure
from dedale.zombstone.skirmish.table import OTHER, Ask, Flow, Option, Table
from dedale.zombstone.skirmish.victory import check_end

GUTS_HAND = HANDS.index("two_pairs")
FLIGHT: Final = 6.0  # inches a failed Guts test flees
DODGE: Final = 2.0
RETURN_MALUS: Final = 2  # the Potential of a target that returns fire
OUTCOME_FIRST: Final = 100  # a defender's win or tie outweighs any damage it saves (a hand loses by 7 at most)
CARD_FACES = {"9": 0, "10": 1, "J": 2, "Q": 3, "K": 4, "A": 5}


# A roll as `spec_for` makes it: Potential, rounds, skill, and how an unarmed fighter's malus is read (None: armed)
Spec = tuple[int, int, Turn | None, str | None]


@lru_cache(maxsize=512)  # a skirmish meets a few hundred pairs of rolls; only the keeps are kept
def attacker_plan(a_spec: Spec, d_spec: Spec, deals: bool) -> tuple[tuple[int, ...], ...]:
    """The attacker's optimal keeps (per round, per multiset), against a defender that answers optimally;
    as Python integers, which an AI's roll reads one at a time (a NumPy scalar is slower to read). Keyed by
    `Spec`s: a tuple of integers hashes faster than a `RollSpec`."""
    return tuple(tuple(c.tolist()) for c in policies(_spec(*a_spec), _spec(*d_spec), deals)[0].choices)


@cache
def _ranked(spec: RollSpec) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """The spec's hands in order, and each final multiset's place among them."""
    order = sorted(set(hand_keys(spec)))
    place = {key: i for i, key in enumerate(order)}
    return order, np.array([place[k] for k in hand_keys(spec)], dtype=np.int64)


@lru_cache(maxsize=4096)  # the same few hundred hands are seen again and again; read-only, shared
def defender_terminal(d_spec: Spec, a_key: tuple[int, ...], deals: bool) -> np.ndarray:
    """What each of the defender's finals is worth against the hand it sees (cards included): less 1 when
    the attacker beats it, 0 for a tie, and 1 when it wins, if it deals damage (otherwise 0)."""
    order, place = _ranked(_spec(*d_spec))
    below, above = bisect_left(order, a_key), bisect_right(order, a_key)
    terminal = np.where(place >= above, int(deals), np.where(place < below, -1, 0))
    terminal.flags.writeable = False
    return terminal


@cache
def _transitions(dice: int) -> np.ndarray:
    return transitions(dice).astype(np.float64)  # exact: small integers; float products run on BLAS


def defender_keep(d_spec: Spec, a_key: tuple[int, ...], deals: bool, round_: int, index: int) -> int:
    """The defender's best keep for the multiset it shows, against the hand it sees (`defender_goal`: to win,
    then to lose by less). With one round left, the best of that multiset's allowed keeps (every keep's value
    worked out once per hand seen); with more, from the whole optimal policy."""
    spec = _spec(*d_spec)
    if spec.rounds - round_ == 1:
        allowed = allowed_keeps(spec.dice, spec.budget)[index]
        return int(allowed[_last_round_values(d_spec, a_key, deals)[allowed].argmax()])
    later = RollSpec(spec.dice, spec.budget, spec.rounds - round_, spec.cards, spec.skill)
    return int(optimise(later, defender_goal(d_spec, a_key, deals)).choices[0][index])


@lru_cache(maxsize=4096)
def defender_goal(d_spec: Spec, a_key: tuple[int, ...], deals: bool) -> np.ndarray:
    """What the defender plays for: the fight's outcome first (`defender_terminal`, weighed by OUTCOME_FIRST),
    then the least damage taken (a defender that cannot win still rerolls for a hand that loses by less)."""
    order, place = _ranked(_spec(*d_spec))
    terminal = defender_terminal(d_spec, a_key, deals)
    categories = np.array([key[0] for key in order], dtype=np.int64)[place]
    taken = np.where(terminal < 0, 1 + a_key[0] - categories, 0) if a_key[0] > 0 else np.zeros_like(terminal)
    goal = terminal * OUTCOME_FIRST - taken
    goal.flags.writeable = False
    return goal


@lru_cache(maxsize=2048)
def _last_round_values(d_spec: Spec, a_key: tuple[int, ...], deals: bool) -> np.ndarray:
    """What each keep is worth to the defender with one round left, against the hand it sees (exact: sums of
    small integers, whatever the order of summing)."""
    values = _transitions(_spec(*d_spec).dice) @ defender_goal(d_spec, a_key, deals)
    values.flags.writeable = False
    return values


@lru_cache(maxsize=256)
def guts_plan(spec: RollSpec) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(c.tolist()) for c in optimise(spec, guts_terminal(spec)).choices)


@cache
def guts_terminal(spec: RollSpec) -> np.ndarray:
    return (categories(spec) >= GUTS_HAND).astype(np.int64)


def spec_for(t: Table, figure: Figure, bonus: int, unarmed: bool = False) -> RollSpec:
    return _spec(*spec_of(t, figure, bonus, unarmed))


def spec_of(t: Table, figure: Figure, bonus: int, unarmed: bool = False) -> Spec:
    """How the figure rolls, with `bonus` reroll dice (or fewer dice, negative), as a `Spec`."""
    profile = t.profile(figure)
    return (profile.potential[figure.wounded] + bonus, t.rounds,
            skills.turned_face(profile.skills, t.turned_die == "any"), t.unarmed_malus if unarmed else None)


@cache
def _spec(potential: int, rounds: int, skill: Turn | None, unarmed: str | None) -> RollSpec:
    if unarmed is not None:
        return RollSpec.unarmed(potential, rounds, unarmed, skill)
    return RollSpec.from_potential(potential, rounds, skill=skill)


@cache
def _choice_left(dice: int, budget: int) -> tuple[bool, ...]:
    """For each multiset of `dice`, whether more than one keep is allowed (a roll with one has no reroll)."""
    return tuple(len(set(allowed.tolist())) > 1 for allowed in allowed_keeps(dice, budget))


# --- rolling a hand --------------------------------------------------------------------------------------
def roll_hand(t: Table, figure: Figure, spec: RollSpec, advice: Any, policy: Any, purpose: str,
              budget: list[int], helps: Helps | None = None) -> Flow[tuple[int, ...]]:
    """Roll, reroll round by round, then add cards: the hand's key. `advice(round)` gives the values of the
    final multisets for a person's options; `policy(round, index)` the optimal keep, which the options mark as
    advised; `helps`, whether cards making a hand better than the roll's change anything (`improving` unless
    given). Every keep is a decision of the side's (its AI's too: a decision like any other), but an AI is
    offered the advised keep first and the others only if it looks, without their values (working those out
    is for a person's eyes)."""
    dice, who = spec.dice, t.who(figure)
    counts = counts_of((yield from t.faces(dice, purpose, figure=who)))
    indices, choice_left = index_of(dice), _choice_left(dice, spec.budget)  # read once, not once a round
    by_ai = t.controllers.get(figure.side) is not None
    for round_ in range(spec.rounds if spec.budget else 0):
        index = indices[counts]
        if not choice_left[index]:
            break
        best = int(policy(round_, index))
        choices = dict.fromkeys(allowed_keeps(spec.dice, spec.budget)[index].tolist())
        about = {"figure": figure.id, "dice": counts, "purpose": purpose}
        if by_ai:
            advised = _keep_option(counts, keeps(dice)[best], True)
            ask = Ask(figure.side, "reroll", (advised,), about, {"keeps": partial(_other_keeps, counts, choices, best)})
        else:  # a person: every reroll, with its value
            ask = Ask(figure.side, "reroll", _valued(spec, round_, counts, advice(round_), tuple(
                _keep_option(counts, keeps(spec.dice)[k], k == best) for k in choices), best), about)
        answer = yield from t.decide(ask)
        kept = keeps(dice)[next(k for k in (best, *choices) if _keep_id(keeps(dice)[k]) == answer)]  # mostly best
        rerolled = counts_of((yield from t.faces(dice - sum(kept), purpose + "_again", figure=who)))
        counts = plus(kept, rerolled)
    return (yield from add_cards(t, figure, counts, spec.skill, budget, helps or improving))


def _other_keeps(counts: Counts, choices: dict[int, None], best: int) -> list[Option]:
    """The keeps an AI is not advised (listed only if it looks, or a replay names one)."""
    dice = sum(counts)
    return [_keep_option(counts, keeps(dice)[k], False) for k in choices if k != best]


def _keep_id(kept: Counts) -> str:
    return "keep:" + ("-".join(FACES[f] for f in range(5, -1, -1) for _ in range(kept[f])) or "none")


@lru_cache(maxsize=8192)  # an AI's every reroll asks with one: the same few thousand, made once
def _keep_option(showing: Counts, kept: Counts, advised: bool) -> Option:
    rerolled = tuple(a - b for a, b in zip(showing, kept, strict=True))
    return Option(_keep_id(kept), "skirmish.option.keep", {"keep": describe(kept) or "-", "count": sum(rerolled)},
                  {"advised": advised})


def _valued(spec: RollSpec, round_: int, showing: Counts, values: tuple[np.ndarray, int, str],
            options: tuple[Option, ...], best: int) -> tuple[Option, ...]:
    """A person's options with what each is worth under the optimal play, the engine's pick first and
    starred. `values`: the final multisets' values, their scale, and what they measure: the chance to win
    (`win`), not to be hit (`safe`, from values of -1 and 0), to pass a Guts test (`pass`), or, when both
    can deal damage, the chance to win less the chance to lose (`edge`)."""
    terminal, scale, measure = values
    later = RollSpec(spec.dice, spec.budget, spec.rounds - round_, spec.cards, spec.skill)
    worth = {_keep_id(o.keep): float(o.value) for o in advise(later, showing, terminal, scale)}
    best_id = _keep_id(keeps(spec.dice)[best])
    ranked = sorted(options, key=lambda o: (o.id != best_id, -worth[o.id]))

    def shown(value: float) -> str:
        return f"{value:+.0%}" if measure == "edge" else f"{1 + value if measure == 'safe' else value:.0%}"
    return tuple(Option(o.id, f"skirmish.option.keep_{measure}", {**o.args, "value": shown(worth[o.id]),
                                                                   "mark": "★ " if o.id == best_id else ""}, o.data)
                 for o in ranked)


Key = tuple[int, ...]  # a hand's key: its category, then its faces (`hands.best_key`)
Helps = Callable[[Key, Key], bool]  # whether cards making the first hand instead of the second change anything


def improving(better: Key, key: Key) -> bool:
    """The attacker's cards, its opponent yet to roll: any better hand, unless it stays Nothing (which never
    deals damage)."""
    return better > key and better[0] > 0


def reaching(target: int) -> Helps:
    """A roll that only has to reach a category (a Guts test): cards that lift it from below to there."""
    return lambda better, key: key[0] < target <= better[0]


def answering(a_key: Key, deals: bool) -> Helps:
    """The defender's cards, the attacker's hand seen: those that change what the fight does to it (a loss
    into a tie or a win, less damage taken, or, if it can hurt back, more damage dealt)."""
    return lambda better, key: _balance(better, a_key, deals) != _balance(key, a_key, deals)


def _balance(d_key: Key, a_key: Key, deals: bool) -> int:
    """The defender's damage dealt less taken, weapons aside."""
    if a_key > d_key and a_key[0] > 0:
        return d_key[0] - a_key[0] - 1
    if d_key > a_key and deals and d_key[0] > 0:
        return 1 + d_key[0] - a_key[0]
    return 0


def add_cards(t: Table, figure: Figure, counts: Counts, skill: Turn | None, budget: list[int],
              helps: Helps = improving) -> Flow[Key]:
    """After the roll, inspiration cards of a face 9 to Ace may join the dice (the best five count), as
    many as the character's Hand still allows: the hand's key. Only cards that change something (`helps`)
    are offered, two together only when each adds to what the other makes alone; none, nothing is asked."""
    key = best_key(with_skill(counts, skill))
    if budget[0] <= 0:  # no card left to play (a zombie's Hand is none): the hand not even looked at
        return key
    hand = t.game.sides[figure.side].hand
    usable = sorted((c for c in hand if c.rank in CARD_FACES), key=lambda c: -CARD_FACES[c.rank])
    if not usable:
        return key
    alone = {card: _with(counts, [card], skill) for card in usable}
    options = [Option(f"cards:{card.code}", "skirmish.option.card",
                      {"card": card.word, "hand": _made(better, key)}, {"key": better})
               for card, better in alone.items() if helps(better, key)]
    if budget[0] >= 2:
        for i, a in enumerate(usable):
            for b in usable[i + 1:]:
                better = _with(counts, [a, b], skill)
                if helps(better, max(alone[a], alone[b], key)):
                    options.append(Option(f"cards:{a.code}+{b.code}", "skirmish.option.cards",
                                          {"first": a.word, "second": b.word, "hand": _made(better, key)},
                                          {"key": better}))
    if not options:
        return key
    none = Option("cards:none", "skirmish.option.no_card", {"hand": _made(key, key)})
    answer = yield from t.decide(Ask(figure.side, "cards", (none, *options), {"figure": figure.id, "dice": counts,
                                                                              "key": key}))
    if answer == "cards:none":
        return key
    played = [next(c for c in hand if c.code == code) for code in answer.removeprefix("cards:").split("+")]
    for card in played:
        hand.remove(card)
        t.game.deck.discard(card)
    budget[0] -= len(played)
    t.roller.note("skirmish.cards_played", cards=" ".join(c.code for c in played), figure=t.who(figure))
    return _with(counts, played, skill)


def _made(key: Key, before: Key) -> Word:
    """The hand a choice of cards makes, in words: "four of a kind", "a pair, with higher cards" when the cards
    lift only the faces of a hand of the same kind."""
    made = word(f"skirmish.made.{HANDS[key[0]]}")
    return word("skirmish.made.higher", hand=made) if key > before and key[0] == before[0] else made


def _with(counts: Counts, cards: list[Card], skill: Turn | None) -> tuple[int, ...]:
    played = [0] * 6
    for card in cards:
        played[CARD_FACES[card.rank]] += 1
    return best_key(with_skill(counts, skill, as_counts(played)))


# --- a confrontation -------------------------------------------------------------------------------------
def confront(t: Table, attacker: Figure, defender: Figure, melee: bool, aimed: bool,
             budget: list[int]) -> Flow[None]:
    """A shot or a melee from `attacker` (whose activation's card budget is `budget`) on `defender`."""
    reaction = "melee" if melee else (yield from _reaction(t, attacker, defender))
    covers = () if melee else t.covers(attacker.pos, defender.pos)
    a_bonus, d_bonus = _bonuses(t, attacker, defender, reaction, aimed)
    a_bonus += (yield from _fame(t, attacker))
    d_bonus += (yield from _fame(t, defender))
    a_weapon = t.melee_weapon(attacker) if melee else t.gun(attacker)
    d_weapon = t.melee_weapon(defender) if melee else t.gun(defender)
    assert a_weapon is not None
    a_of = spec_of(t, attacker, a_bonus, melee and a_weapon.unarmed)
    d_of = spec_of(t, defender, d_bonus, melee and d_weapon is not None and d_weapon.unarmed)
    a_spec, d_spec = _spec(*a_of), _spec(*d_of)
    deals = reaction != "dodge"
    t.roller.note("skirmish.confront", attacker=t.who(attacker), defender=t.who(defender),
                  how=word(f"skirmish.how.{reaction}"), covers=len(covers), a_dice=a_spec.dice, a_rerolls=a_spec.budget,
                  d_dice=d_spec.dice, d_rerolls=d_spec.budget)

    def a_advice(round_: int) -> tuple[np.ndarray, int, str]:
        return policies(a_spec, d_spec, deals)[2], total_ways(d_spec), "edge" if deals else "win"

    a_plan = attacker_plan(a_of, d_of, deals)
    a_key = yield from roll_hand(t, attacker, a_spec, a_advice, lambda r, i: a_plan[r][i], "skirmish.roll_attack",
                                 budget)
    d_terminal = defender_terminal(d_of, a_key, deals)
    d_budget = [t.profile(defender).hand]  # a reaction has a Hand budget of its own
    d_key = yield from roll_hand(t, defender, d_spec, lambda r: (d_terminal, 1, "edge" if deals else "safe"),
                                 lambda r, i: defender_keep(d_of, a_key, deals, r, i),
                                 "skirmish.roll_defend", d_budget,
                                 answering(a_key, deals))
    fire = Fire(attacker.id, defender.id, reaction, t.game.turn,  # type: ignore[arg-type]
                [round(attacker.x, 2), round(attacker.y, 2), round(defender.x, 2), round(defender.y, 2)],
                HANDS[a_key[0]], HANDS[d_key[0]], None)
    t.game.fire.append(fire)
    if a_key > d_key and a_key[0] > 0:
        fire.won = "attacker"
        points = max(0, 1 + a_key[0] - d_key[0] + a_weapon.damage)
        t.roller.note("skirmish.hit", winner=t.who(attacker), loser=t.who(defender), damage=points)
        yield from damage(t, defender, points, attacker, d_budget)
    elif d_key > a_key and deals and d_key[0] > 0 and d_weapon is not None:
        fire.won = "defender"
        points = max(0, 1 + d_key[0] - a_key[0] + d_weapon.damage)
        t.roller.note("skirmish.hit", winner=t.who(defender), loser=t.who(attacker), damage=points)
        yield from damage(t, attacker, points, defender, budget)
    else:
        t.roller.note("skirmish.no_hit", attacker=t.who(attacker), defender=t.who(defender))
    if reaction == "dodge" and defender.in_play and not t.over:
        yield from _dodge(t, defender, attacker)


def _bonuses(t: Table, attacker: Figure, defender: Figure, reaction: str, aimed: bool) -> tuple[int, int]:
    """Each side's reroll dice (fewer dice, negative) from cover, return fire and aiming, before Fame."""
    a_bonus = d_bonus = 0
    if reaction != "melee":
        covers = t.covers(attacker.pos, defender.pos)
        if reaction == "dodge":
            a_bonus -= sum(1 for kind in covers if kind == "light")
            d_bonus += sum(1 for kind in covers if kind != "light")
        else:  # every cover counts as light and hampers each shooter along its own line of fire, the cover
            # within 1 inch of that shooter excepted: the target's own wall does not hinder its return shot
            d_bonus -= RETURN_MALUS + len(t.covers(defender.pos, attacker.pos))
            a_bonus -= len(covers)
    return a_bonus + (skills.AIM_BONUS if aimed else 0), d_bonus


def shot_chances(t: Table, shooter: Figure, target: Figure, aimed: bool) -> dict[str, Fraction]:
    """A shot's chance to hit before it is taken, by each reaction the target may choose (a dodge; return fire
    when it can): the dice's exact odds, both sides playing to win, before Fame and inspiration cards."""
    return {reaction: _hit_chance(a_spec, d_spec, reaction != "dodge")
            for reaction, a_spec, d_spec in _reactions(t, shooter, target, aimed)}


def shot_damage(t: Table, shooter: Figure, target: Figure, aimed: bool) -> float:
    """A shot's expected damage before it is taken (before a zombie's Aces), less what return fire deals back,
    against the reaction that suits the target best: what an AI weighs an aimed shot against two plain ones by."""
    gun, back = t.gun(shooter), t.gun(target)
    dealt = gun.damage if gun is not None else 0
    return float(min(_net_damage(a_spec, d_spec, reaction != "dodge", dealt,
                                 back.damage if reaction != "dodge" and back is not None else 0)
                     for reaction, a_spec, d_spec in _reactions(t, shooter, target, aimed)))


def _reactions(t: Table, shooter: Figure, target: Figure, aimed: bool) -> list[tuple[str, Spec, Spec]]:
    """Each reaction the target may choose to a shot (a dodge; return fire when it can), with both rolls."""
    found = []
    for reaction in ("dodge", "return") if can_return_fire(t, shooter, target) else ("dodge",):
        a_bonus, d_bonus = _bonuses(t, shooter, target, reaction, aimed)
        found.append((reaction, spec_of(t, shooter, a_bonus), spec_of(t, target, d_bonus)))
    return found


@lru_cache(maxsize=1024)
def _net_damage(a_spec: Spec, d_spec: Spec, deals: bool, bonus_a: int, bonus_d: int) -> Fraction:
    return net_damage(_spec(*a_spec), _spec(*d_spec), deals, bonus_a, bonus_d)


@lru_cache(maxsize=1024)  # an AI weighs every shot it may take, each activation: a game meets a few dozen pairs
def _hit_chance(a_spec: Spec, d_spec: Spec, deals: bool) -> Fraction:
    """`confront.hit_chance` of two rolls, keyed by their `Spec`s (which hash faster than `RollSpec`s)."""
    return hit_chance(_spec(*a_spec), _spec(*d_spec), deals)


def can_return_fire(t: Table, shooter: Figure, target: Figure) -> bool:
    """Whether the target may answer a shot with its own: a gun in range of a shooter it sees, and ready."""
    gun = t.gun(target)
    return (gun is not None and t.sight(target.pos, shooter.pos) and distance(target.pos, shooter.pos) <= gun.range
            and target.state == "ready")


def _reaction(t: Table, shooter: Figure, target: Figure) -> Flow[str]:
    if not can_return_fire(t, shooter, target):
        return "dodge"  # the only reaction: nothing to ask
    options = (Option("dodge", "skirmish.option.dodge", {"figure": target.id}),
               Option("return", "skirmish.option.return", {"figure": target.id}))
    return (yield from t.decide(Ask(target.side, "reaction", options, {"figure": target.id, "shooter": shooter.id})))


def _fame(t: Table, figure: Figure) -> Flow[int]:
    """A Fame point, spent before a roll, is one more reroll die."""
    if figure.fame <= 0:
        return 0
    options = (Option("fame:yes", "skirmish.option.fame_yes", {"left": figure.fame}),
               Option("fame:no", "skirmish.option.fame_no", {}))
    if (yield from t.decide(Ask(figure.side, "fame", options, {"figure": figure.id}))) == "fame:no":
        return 0
    figure.fame -= 1
    t.roller.note("skirmish.fame_spent", figure=t.who(figure))
    return 1


def _dodge(t: Table, figure: Figure, shooter: Figure) -> Flow[None]:
    """The dodging figure moves 2 inches where its player chooses (not into melee), whatever the result:
    a person into cover, straight away from the shooter or any compass way; an AI straight away (behind the
    cover it has, if any: the shooter's line does not change)."""
    enemies = [f.pos for f in t.enemies(figure)]
    others = t.others(figure)
    options: dict[tuple[float, float], Option] = {}
    person = t.controllers.get(figure.side) is None
    for spot in t.field.cover_spots(figure.pos, DODGE, [shooter.pos], others, 3) if person else ():
        to = t.field.dodge(figure.pos, spot, others, enemies)
        if to != figure.pos and bool(t.covers(shooter.pos, to)) and (place := _rounded(to)) not in options:
            options[place] = Option(f"dodge:{_point_id(place)}", "skirmish.option.dodge_cover", {},
                                    {"to": to, "cover": True})
    away = (2 * figure.x - shooter.x, 2 * figure.y - shooter.y)
    to = t.field.dodge(figure.pos, away, others, enemies)
    if to != figure.pos and (place := _rounded(to)) not in options:
        options[place] = Option(f"dodge:{_point_id(place)}", "skirmish.option.dodge_away", {}, {"to": to, "away": True})
    if person:  # a person may dodge any way (an AI dodges to cover, or away)
        for name, (dx, dy) in COMPASS.items():
            to = t.field.dodge(figure.pos, (figure.x + dx * DODGE, figure.y + dy * DODGE), others, enemies)
            if to != figure.pos and (place := _rounded(to)) not in options:
                options[place] = Option(f"dodge:{_point_id(place)}", "skirmish.option.dodge_to",
                                        {"way": f"dir.{name}"}, {"to": to})
    if not options:  # nowhere to go
        return
    choices = tuple(options.values())
    answer = yield from t.decide(Ask(figure.side, "dodge", choices, {"figure": figure.id, "shooter": shooter.id}))
    figure.place(next(o for o in choices if o.id == answer).data["to"])


COMPASS = {"N": (0, -1), "NE": (0.7071, -0.7071), "E": (1, 0), "SE": (0.7071, 0.7071), "S": (0, 1),
           "SW": (-0.7071, 0.7071), "W": (-1, 0), "NW": (-0.7071, -0.7071)}


def _rounded(p: tuple[float, float]) -> tuple[float, float]:
    return (round(p[0], 2), round(p[1], 2))


def _point_id(place: tuple[float, float]) -> str:
    """An option's id for a place already `_rounded`."""
    return f"{place[0]:g},{place[1]:g}"


# --- damage, wounds, Guts ---------------------------------------------------------------------------------
def damage(t: Table, figure: Figure, points: int, source: Figure, budget: list[int] | None = None) -> Flow[None]:
    """`points` of damage from `source` to a figure whose activation or reaction has `budget` cards left to play
    (None: a Hand of its own), for its Guts test or its Last Breath."""
    profile = t.profile(figure)
    if figure.ticked >= profile.cartridges:  # in its Last Breath: nothing left to tick, no second last breath
        return
    if points and profile.has("zombie"):  # each point counts only on an Ace
        rolled = yield from t.faces(points, "skirmish.zombie_roll", figure=t.who(figure))
        points = sum(1 for face in rolled if face == skills.ACE)
        t.roller.log[-1]["decided"] = {"key": "skirmish.zombie_counts", "points": points}
    if points <= 0:
        return
    white = profile.cartridges - profile.red
    before = figure.ticked
    figure.ticked = min(profile.cartridges, before + points)
    t.roller.note("skirmish.ticked", figure=t.who(figure), points=figure.ticked - before, left=profile.cartridges -
                  figure.ticked)
    if figure.ticked >= profile.cartridges:
        yield from _last_cartridge(t, figure, _cards_left(t, figure, budget))
        return
    if not figure.wounded and figure.ticked > white:
        figure.wounded = True
        t.roller.note("skirmish.wounded", figure=t.who(figure))
        if not (yield from guts(t, figure, "wounded", budget)):
            flee(t, figure, source.pos)


def _cards_left(t: Table, figure: Figure, budget: list[int] | None) -> list[int]:
    """The cards the figure may still play: its activation's or reaction's `budget` ("à son activation, ou
    alors en réaction"); a Hand of its own when there is none, or when the table counts Guts tests and Last
    Breath apart (`card_limit` "apart", Dédale's reading before)."""
    return [t.profile(figure).hand] if budget is None or t.card_limit == "apart" else budget


def _last_cartridge(t: Table, figure: Figure, budget: list[int]) -> Flow[None]:
    """The last cartridge: out of play, unless Last Breath (a heart card, within the Hand's `budget`) gives one
    free last activation."""
    hearts = [c for c in t.game.sides[figure.side].hand if c.suit == "hearts" and not c.joker]
    if t.profile(figure).has("last_breath") and hearts and budget[0] > 0:
        options = (Option(f"last_breath:{hearts[0].code}", "skirmish.option.last_breath", {"card": hearts[0].word}),
                   Option("last_breath:no", "skirmish.option.no_last_breath", {}))
        answer = yield from t.decide(Ask(figure.side, "last_breath", options, {"figure": figure.id}))
        if answer != "last_breath:no":
            card = hearts[0]
            t.game.sides[figure.side].hand.remove(card)
            t.game.deck.discard(card)
            budget[0] -= 1
            t.roller.note("skirmish.last_breath", figure=t.who(figure), card=card.code)
            yield from t.activation(t, figure, True)
    yield from remove(t, figure, "out")


def remove(t: Table, figure: Figure, state: str) -> Flow[None]:
    """Out of play (killed) or gone (fled for good). A Star killed: every character of its band tests."""
    if not figure.in_play:
        return
    figure.state = state
    t.changed()
    t.roller.note(f"skirmish.{state}", figure=t.who(figure))
    check_end(t, figure)
    if state == "out" and t.profile(figure).status == "star" and not t.over:
        for other in t.game.in_play(figure.side):
            if not (yield from guts(t, other, "star_killed")):
                danger = nearest_seen_enemy(t, other)  # the danger is the enemy, not the fallen Star
                flee(t, other, figure.pos if danger is None else danger.pos)
            if t.over:
                return


def guts(t: Table, figure: Figure, why: str, budget: list[int] | None = None) -> Flow[bool]:
    """Two pairs or better: a roll with rerolls, played for that target, which inspiration cards may
    complete like any roll, within the Hand's `budget` of the activation or reaction it is part of (None: a
    test of its own, a Hand's worth). Living Legends always pass."""
    if skills.passes_guts(t.profile(figure).skills):
        t.roller.note("skirmish.guts_legend", figure=t.who(figure))
        return True
    spec = spec_for(t, figure, 0)
    terminal = guts_terminal(spec)
    found = guts_plan(spec)
    key = yield from roll_hand(t, figure, spec, lambda r: (terminal, 1, "pass"), lambda r, i: found[r][i],
                               "skirmish.guts_roll", _cards_left(t, figure, budget), reaching(GUTS_HAND))
    passed = key[0] >= GUTS_HAND
    t.roller.note("skirmish.guts_passed" if passed else "skirmish.guts_failed", figure=t.who(figure),
                  why=word(f"skirmish.why.{why}"))
    return passed


def nearest_seen_enemy(t: Table, figure: Figure) -> Figure | None:
    """The nearest enemy in play that is not a hidden token (fleeing from a token would give it away)."""
    return min(t.visible(OTHER[figure.side]), key=lambda e: distance(figure.pos, e.pos), default=None)


def flee(t: Table, figure: Figure, danger: tuple[float, float]) -> None:
    """A failed Guts test: 6 inches away from the danger, into heavy cover if the way crosses one."""
    if not figure.in_play:
        return
    figure.place(t.field.flee(figure.pos, danger, FLIGHT, t.others(figure)))
    figure.state = "fleeing"
    t.roller.note("skirmish.flees", figure=t.who(figure))

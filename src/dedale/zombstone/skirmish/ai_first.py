"""The skirmish AI as it played before issue 32, kept only so that documents of version 3 and before replay as
they were made (`SkirmishParams.tactics` "first", set when such a document loads): new games play `ai.py`.
Its own docstring follows.

AI opponents: deterministic policies answering a side's asks from what is on the table. Rerolls follow
the dice engine's optimal policy (the option it marks as advised); the rest is tactics:

- the horde (zombies, and brawlers without a gun) closes in and fights: it charges the weakest enemy in
  reach, else walks toward the nearest, and an armed zombie shoots only with the action its walk leaves;
- gunmen keep their distance: one a brawler could charge next steps away from it first; one out of cover
  takes cover before shooting; they shoot the best target (the one the dice favour most: least cover,
  wounded, worth most), aiming when they can afford it, and seek cover when nothing is in sight;
- a Charismatic character acts before the Extras of its band, so that it can send them; Stars and the
  other leaders play an Ace or a King for the initiative when the hand can spare it;
- `cautious` lets the opponent act first; `aggressive` never steps back or takes cover first, plays an Ace
  for initiative whatever its hand, always returns fire when it can hurt back, aims more and advances.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter
from typing import Final

from dedale.zombstone.hands import FACES
from dedale.zombstone.skirmish import skills
from dedale.zombstone.skirmish.battlefield import CONTACT, distance
from dedale.zombstone.skirmish.model import Figure
from dedale.zombstone.skirmish.table import OTHER, Ask, Option, Table
from dedale.zombstone.skirmish.turn import MOVE
from dedale.zombstone.skirmish.victory import inside

POLICIES = ("default", "cautious", "aggressive")
STATUS_WEIGHT = {"star": 3, "supporting": 2, "extra": 1}
_POSITION = attrgetter("pos")  # a figure's (x, y)
SPARE_HAND: Final = 4  # cards a side holds for it to spend one on the initiative (the next upkeep refills it)


@dataclass(frozen=True)
class AI:
    style: str = "default"

    @property
    def name(self) -> str:
        return self.style

    def choose(self, t: Table, ask: Ask) -> str:
        handler = _HANDLERS.get(ask.kind)
        option = handler(self, t, ask) if handler is not None else None
        return (option or ask.options[0]).id

    # --- the turn -------------------------------------------------------------------------------------
    def _initiative(self, t: Table, ask: Ask) -> Option | None:
        """An Ace (aggressive: always; else an Ace or a King, when the hand holds 4 cards or more, which the
        next upkeep refills) unless the other side already played a card as good."""
        cards = ask.options[1:]  # the best first
        if not cards:
            return None
        best = cards[0]
        rank = best.id.removeprefix("initiative:")[:-1]  # a card code: its rank, then its suit
        played = [v for v in ask.about["others"].values() if v is not None]
        wanted = ("A",) if self.style == "aggressive" else ("A", "K")
        enough = self.style == "aggressive" or len(cards) >= SPARE_HAND
        if rank in wanted and enough and not any(v >= FACES.index(rank) for v in played):
            return best
        return None  # roll

    def _first(self, t: Table, ask: Ask) -> Option:
        return ask.options[1] if self.style == "cautious" else ask.options[0]

    def _activate(self, t: Table, ask: Ask) -> Option:
        """Who acts first: those in a fight, then a Charismatic leader with Extras to send (the Extras wait
        for it), then those with an enemy in range, the more important first."""
        if len(ask.options) == 1:
            return ask.options[0]
        enemies = [e.pos for e in t.visible(OTHER[ask.side])]
        waiting = [t.game.figure(o.data["figure"]) for o in ask.options]
        extras = any(t.profile(f).status == "extra" for f in waiting)
        leader = extras and any(t.profile(f).has("charismatic") for f in waiting)

        def urgency(option: Option) -> tuple[float, ...]:
            figure = t.game.figure(option.data["figure"])
            profile = t.profile(figure)
            away = min(map(distance, repeat(figure.pos, len(enemies)), enemies), default=99.0)
            gun = t.gun(figure)
            sends = leader and profile.has("charismatic")
            sent_later = leader and profile.status == "extra"
            return (figure.state == "ready", away <= 1.2, sends, not sent_later, gun is not None and away <= gun.range,
                    STATUS_WEIGHT[profile.status], -away)
        return max(ask.options, key=urgency)

    def _charisma(self, t: Table, ask: Ask) -> Option:
        sendable = [o for o in ask.options if "figure" in o.data]
        if not sendable:
            return ask.options[0]
        return min(sendable, key=lambda o: _enemy_distance(t, t.game.figure(o.data["figure"])))

    def _action(self, t: Table, ask: Ask) -> Option:
        figure = t.game.figure(ask.about["figure"])
        melees = [o for o in ask.options if o.id.startswith("melee:")]
        if melees:
            return min(melees, key=lambda o: _weakest(t, t.game.figure(o.data["figure"])))
        goal, horde = _goal(t, figure), _horde(t, figure)
        if goal is not None and ask.about["moves"] > 0:
            if horde and (charge := _charge(t, ask)) is not None:
                return charge
            if not inside(figure.pos, goal):
                walk = _toward_place(ask, figure, goal)
                if walk is not None:
                    return walk
            elif horde:  # in the place: it stays, and shoots if it can
                shots = _shots(ask)
                return self._best_shot(t, figure, shots) if shots else ask.options[-1]
        if horde:
            return self._close_in(t, ask, figure)
        careful = self.style != "aggressive"
        in_cover = careful and _in_cover(t, figure)  # asked once: the answers below all read it
        if ask.about["moves"] > 0 and careful and not in_cover and goal is None:
            step = _step_back(t, ask, figure)
            if step is not None:
                return step
        shots = _shots(ask)
        if shots:  # with its two actions: into cover first, if it is not in cover and can move there
            if (careful and ask.about["actions"] == 2 and ask.about["moves"] > 0
                    and not in_cover and (cover_moves := [
                        o for o in _moves(ask, "cover") if goal is None or inside(o.data["to"], goal)])):
                return cover_moves[0]
            return self._best_shot(t, figure, shots)
        return self._advance(t, ask, figure, in_cover)

    def _close_in(self, t: Table, ask: Ask, figure: Figure) -> Option:
        """The horde: a charge at the weakest enemy it can reach, else a walk toward the nearest; a gun only
        with the action the walk leaves (or when it cannot get nearer)."""
        if ask.about["moves"] > 0:
            if (charge := _charge(t, ask)) is not None:
                return charge
            nearer = [o for o in _moves(ask, "toward") if distance(o.data["to"], t.game.figure(o.data["figure"]).pos)
                      < distance(figure.pos, t.game.figure(o.data["figure"]).pos) - 0.5]
            if nearer:
                return min(nearer, key=lambda o: distance(o.data["to"], t.game.figure(o.data["figure"]).pos))
            around = _around(t, ask, figure)  # the straight way is blocked (a building, a figure)
            if around is not None:
                return around
        shots = _shots(ask)
        return self._best_shot(t, figure, shots) if shots else ask.options[-1]

    def _advance(self, t: Table, ask: Ask, figure: Figure, in_cover: bool) -> Option:
        """A gunman with nobody in reach: it waits in cover for the enemy to come into range (unless
        aggressive: then `in_cover` is False), else moves into cover that gets it nearer, else toward the enemy
        (the moves toward it worked out only then)."""
        end = ask.options[-1]
        if in_cover and _enemy_distance(t, figure) <= _reach(t, figure) + 4:
            return end
        enemies = [e.pos for e in t.visible(OTHER[figure.side])]
        now = _distance_to(enemies, figure.pos)
        cover_moves = _moves(ask, "cover") if self.style != "aggressive" else []
        covered = next((o for o in cover_moves if _distance_to(enemies, o.data["to"]) < now - 0.5), None)
        if covered is not None:
            return covered
        nearer = [(away, o) for o in _moves(ask, "toward") if (away := _distance_to(enemies, o.data["to"])) < now - 0.5]
        if nearer:
            return min(nearer, key=lambda pair: pair[0])[1]
        return cover_moves[0] if cover_moves else end

    def _best_shot(self, t: Table, figure: Figure, shots: list[Option]) -> Option:
        """The shot worth most: the least cover, aimed when the aim is worth its card, then at the wounded, the
        more important, the one with fewer cartridges left, the lower Potential (each target weighed once)."""
        precise = t.profile(figure).has("precise")
        weighed: dict[int, tuple[bool, tuple[bool, int, int, int]]] = {}  # escorted, then the rest

        def worth(option: Option) -> tuple[float, ...]:
            target_id = option.data["figure"]
            if (found := weighed.get(target_id)) is None:
                enemy = t.game.figure(target_id)
                left, steadiness = _toughness(t, enemy)
                found = weighed[target_id] = (_escorted(t, enemy), (
                    enemy.wounded, STATUS_WEIGHT[t.profile(enemy).status], -left, -steadiness))
            escorted, target = found
            if escorted:  # the escort stopped wins the game
                return (1, *target)
            aimed = option.id.startswith("aim:")
            cover = option.args["cover"]
            return (0, -cover, (aimed and (self.style == "aggressive" or cover > 0 or precise)) or not aimed, *target)
        return max(shots, key=worth)

    def _reaction(self, t: Table, ask: Ask) -> Option:
        target = t.game.figure(ask.about["figure"])
        shooter = t.game.figure(ask.about["shooter"])
        mine = t.profile(target).potential[target.wounded] - 2
        theirs = t.profile(shooter).potential[shooter.wounded]
        fire_back = mine >= theirs or (self.style == "aggressive" and mine >= 1)
        return next((o for o in ask.options if o.id == "return"), ask.options[0]) if fire_back else ask.options[0]

    def _dodge(self, t: Table, ask: Ask) -> Option:
        cover = [o for o in ask.options if o.data.get("cover")]
        away = [o for o in ask.options if o.data.get("away")]
        return (cover or away or list(ask.options))[0]

    # --- the dice and the cards -----------------------------------------------------------------------
    def _reroll(self, t: Table, ask: Ask) -> Option:
        return next(o for o in ask.options if o.data.get("advised"))

    def _cards(self, t: Table, ask: Ask) -> Option:
        """A card only when it lifts the hand to a better kind (cards are few, and shared by the band)."""
        current = ask.about["key"]
        better = [o for o in ask.options if "key" in o.data and o.data["key"][0] > current[0]]
        if not better:
            return ask.options[0]
        return max(better, key=lambda o: (o.data["key"], -o.id.count("+")))

    def _fame(self, t: Table, ask: Ask) -> Option:
        return ask.options[0]  # spend it: Fame is for rolling better

    def _last_breath(self, t: Table, ask: Ask) -> Option:
        return ask.options[0]

    # --- the duel -------------------------------------------------------------------------------------
    def _bet(self, t: Table, ask: Ask) -> Option | None:
        from dedale.zombstone.skirmish.duel import ai_action

        return ask.option(ai_action(ask.about["duel"], t.roller, "bold" if self.style == "aggressive" else "cautious"))

    def _winnings(self, t: Table, ask: Ask) -> Option:
        return max(ask.options, key=lambda o: (o.data.get("fame", 0), o.id == "winnings:bank"))

    def _free_move(self, t: Table, ask: Ask) -> Option:
        cover = [o for o in ask.options if o.data.get("cover")]
        return cover[0] if cover else ask.options[0]


# The answer to each kind of ask (`Ask.kind`): the method named after it, found once, not at every ask. A kind
# the AI had no method for would fail here, at import.
_HANDLERS: dict[str, Callable[[AI, Table, Ask], Option | None]] = {
    kind: getattr(AI, f"_{kind}") for kind in (
        "initiative", "first", "activate", "action", "reaction", "reroll", "cards", "dodge", "charisma", "last_breath",
        "fame", "bet", "winnings", "free_move")}


def _shots(ask: Ask) -> list[Option]:
    """An action ask's shots and aimed shots: listed later for an AI (`_moves`)."""
    if ask.later:
        return list(ask.more("shots"))
    return [o for o in ask.options if o.id.startswith(("shoot:", "aim:"))]


def _moves(ask: Ask, group: str) -> list[Option]:
    """An action ask's moves of a group: listed later for an AI, or found among all the options a person
    (or the autopilot playing for one) sees."""
    if ask.later:
        return list(ask.more(group))
    if group == "compass":
        return [o for o in ask.options if o.id.startswith("move:") and "way" in o.args]
    wanted = "cover" if group == "cover" else "figure"
    return [o for o in ask.options if o.id.startswith("move:") and o.data.get(wanted) not in (None, False)]


def _goal(t: Table, figure: Figure) -> tuple[float, float, float, float] | None:
    """The place the figure must stand in: everyone's when a place is to be held; the escorted character's."""
    victory = t.scenario.victory
    if victory.kind == "hold" or (victory.kind == "escort" and _escorted(t, figure)):
        return victory.place
    return None


def _escorted(t: Table, figure: Figure) -> bool:
    victory = t.scenario.victory
    return victory.kind == "escort" and figure.profile == victory.escort and figure.side == victory.side


def _weakest(t: Table, enemy: Figure) -> tuple[bool, int, int]:
    """The enemy to charge first: the escorted character, then the one with the fewest cartridges left."""
    return (not _escorted(t, enemy), *_toughness(t, enemy))


def _charge(t: Table, ask: Ask) -> Option | None:
    """The charge at the enemy to charge first (`_weakest`), if the figure can reach any."""
    charges = [o for o in _moves(ask, "toward") if o.data.get("charge")]
    return min(charges, key=lambda o: _weakest(t, t.game.figure(o.data["figure"])), default=None)


def _around(t: Table, ask: Ask, figure: Figure) -> Option | None:
    """The compass move that gets the figure nearest the nearest enemy, if it gets it an inch nearer."""
    enemies = [e.pos for e in t.visible(OTHER[figure.side])]
    now = _distance_to(enemies, figure.pos)
    best = min(_moves(ask, "compass"), key=lambda o: _distance_to(enemies, o.data["to"]), default=None)
    return best if best is not None and _distance_to(enemies, best.data["to"]) <= now - 1.0 else None


def _toward_place(ask: Ask, figure: Figure, place: tuple[float, float, float, float]) -> Option | None:
    """The compass move that gets the figure nearest the middle of the place, if it gets it an inch nearer."""
    x, y, w, h = place
    middle = (x + w / 2, y + h / 2)
    best = min(_moves(ask, "compass"), key=lambda o: distance(o.data["to"], middle), default=None)
    if best is None or distance(best.data["to"], middle) > distance(figure.pos, middle) - 1.0:
        return None
    return best


def _horde(t: Table, figure: Figure) -> bool:
    """A brawler without a gun, or a zombie that is no marksman (a Precise zombie is a gunslinger still)."""
    profile = t.profile(figure)
    return t.gun(figure) is None or (profile.has("zombie") and not profile.has("precise"))


def _charge_reach(t: Table, figure: Figure) -> float:
    """How near an enemy must stand for the figure to charge it at its next activation."""
    return skills.move_actions(t.profile(figure).skills, figure.wounded) * MOVE + CONTACT


def _step_back(t: Table, ask: Ask, figure: Figure) -> Option | None:
    """A gunman that the horde could charge next: the move (a compass way or into cover) that leaves the
    nearest such brawler farthest, when it gets the gunman at least an inch farther."""
    dangers = [e.pos for e in t.visible(OTHER[figure.side])
               if _horde(t, e) and distance(e.pos, figure.pos) <= _charge_reach(t, e)]
    if not dangers:
        return None
    now = _distance_to(dangers, figure.pos)
    best = max(_moves(ask, "compass") + _moves(ask, "cover"), key=lambda o: _distance_to(dangers, o.data["to"]),
               default=None)
    if best is None or _distance_to(dangers, best.data["to"]) < now + 1.0:
        return None
    return best


def _nearest(t: Table, figure: Figure) -> Figure | None:
    enemies = t.visible(OTHER[figure.side])
    if not enemies:
        return None
    away = list(map(distance, repeat(figure.pos), map(_POSITION, enemies)))
    return enemies[away.index(min(away))]


def _enemy_distance(t: Table, figure: Figure) -> float:
    enemy = _nearest(t, figure)
    return distance(figure.pos, enemy.pos) if enemy else math.inf


def _distance_to(enemies: list[tuple[float, float]], point: tuple[float, float]) -> float:
    """From `point` to the nearest of the enemies (where they stand)."""
    return min(map(distance, repeat(point, len(enemies)), enemies), default=math.inf)


def _reach(t: Table, figure: Figure) -> float:
    gun = t.gun(figure)
    return gun.range if gun else 1.0


def _in_cover(t: Table, figure: Figure) -> bool:
    enemy = _nearest(t, figure)
    return enemy is not None and bool(t.covers(enemy.pos, figure.pos))


def _toughness(t: Table, figure: Figure) -> tuple[int, int]:
    """How hard the figure is to finish: cartridges left, then its Potential."""
    profile = t.profile(figure)
    return (profile.cartridges - figure.ticked, profile.potential[figure.wounded])

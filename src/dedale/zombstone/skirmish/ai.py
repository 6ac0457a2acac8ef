"""AI opponents: deterministic policies answering a side's asks from what is on the table. Rerolls follow
the dice engine's optimal policy (the option it marks as advised); the rest is tactics, played to the
scenario's victory condition:

- the horde (zombies, and brawlers without a gun) closes in and fights: it charges the weakest enemy in
  reach, else walks the way that shortens its walking distance to an enemy (around buildings, and around its
  own side's figures when they cut its way short), its front first; an armed zombie shoots only with the
  action its walk leaves;
- gunmen keep their distance: one a brawler could charge next steps away from it first; one out of cover
  takes cover (where it can still shoot) before shooting; they take the shot worth most (the exact chance to
  hit times what a hit is worth), aimed when one aimed shot beats two plain ones in expected damage; with
  nobody in their sights they move where they can shoot, unless their side wins by the scenario's condition
  as things stand, a brawler without a gun comes to them anyway, or they hold the scenario's place; under
  fire they never wait (an armed zombie is a gun); no move goes back the way the figure came; a Last Breath
  is paid for only when it can hurt or take the place, and spent shooting or charging;
- the escorted character acts first; a Charismatic character acts before the Extras of its band, so that
  it can send them; Stars and the other leaders play an Ace or a King for the initiative when the hand can
  spare it;
- `cautious` lets the opponent act first; `aggressive` never waits in cover for the enemy (it advances to
  shoot), plays an Ace for initiative whatever its hand, and always returns fire when it can hurt back."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from heapq import heapify, heappop, heappush
from itertools import repeat
from operator import attrgetter
from typing import Final, NamedTuple

from dedale.zombstone.hands import FACES
from dedale.zombstone.skirmish import skills
from dedale.zombstone.skirmish.battlefield import CONTACT, ROUGH_KINDS, Battlefield, distance
from dedale.zombstone.skirmish.fight import shot_chances, shot_damage
from dedale.zombstone.skirmish.model import Figure
from dedale.zombstone.skirmish.table import OTHER, Ask, Option, Table
from dedale.zombstone.skirmish.turn import MOVE, move_options, targets
from dedale.zombstone.skirmish.victory import inside
from dedale.zombstone.skirmish.wording import WAYS, compass

POLICIES = ("default", "cautious", "aggressive")
SECOND_SHOT: Final = 0.7  # what a second plain shot is worth beside the first: its target has dodged (to cover)
NEAREST: Final = 3  # enemies the horde weighs, the nearest first
STARS_FIRST: Final = 5  # how much more a Star's cartridges are worth when the Stars decide the game
ZOMBIE_ODDS: Final = 6  # a zombie counts a damage point on an Ace of a poker die only
Cell = tuple[int, int]  # an inch square of the table: (column, row)
STEPS = ((1, 0, 1.0), (-1, 0, 1.0), (0, 1, 1.0), (0, -1, 1.0), (1, 1, math.sqrt(2)), (1, -1, math.sqrt(2)),
         (-1, 1, math.sqrt(2)), (-1, -1, math.sqrt(2)))
CARD_WORTH: Final = 0.1  # the damage an inspiration card must buy for an aimed shot to pay it (`aim_cost` any_card)
# A Joker buys nothing but an Aimed shot, and while it is held the hand has one card fewer to complete hands with:
# spending it gives that place back to the next upkeep's draw, worth this much damage
JOKER_PLACE: Final = 0.5
STATUS_WEIGHT = {"star": 3, "supporting": 2, "extra": 1}
_POSITION = attrgetter("pos")  # a figure's (x, y)
AROUND: Final = 2.0  # inches of its walk a figure gives up to go around its own side's figures in its way
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
        """Who acts first: the escorted character (before the others stand in its way), those in a fight, then a
        Charismatic leader with Extras to send (the Extras wait
        for it), then those with an enemy in range, the more important first."""
        if len(ask.options) == 1:
            return ask.options[0]
        enemies = [e.pos for e in t.visible(OTHER[ask.side])]
        waiting = [t.game.figure(o.data["figure"]) for o in ask.options]
        extras = any(t.profile(f).status == "extra" for f in waiting)
        leader = extras and any(t.profile(f).has("charismatic") for f in waiting)
        # the horde's front walks first (by the way it walks), or it blocks those behind: weighed when two may
        hordes = [f for f in waiting if _horde(t, f)]
        walks = {f.id: _walk_left(t, f)(f.pos) for f in hordes} if len(hordes) > 1 else {}

        def urgency(option: Option) -> tuple[float, ...]:
            figure = t.game.figure(option.data["figure"])
            profile = t.profile(figure)
            away = min(map(distance, repeat(figure.pos, len(enemies)), enemies), default=99.0)
            gun = t.gun(figure)
            sends = leader and profile.has("charismatic")
            sent_later = leader and profile.status == "extra"
            horde = figure in hordes
            return (figure.state == "ready", _escorted(t, figure), away <= 1.2, sends, not sent_later,
                    not horde and gun is not None and away <= gun.range,
                    -walks.get(figure.id, 0.0) if horde else STATUS_WEIGHT[profile.status], -away)
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
        if figure.ticked >= t.profile(figure).cartridges:  # Last Breath: its last actions hurt, it hides no more
            return self._last_stand(t, ask, figure)
        goal, horde = _goal(t, figure), _horde(t, figure)
        if goal is not None and ask.about["moves"] > 0:
            if horde and (charge := _charge(t, ask)) is not None:
                return charge
            if not inside(figure.pos, goal):
                walk = _toward_place(t, ask, figure, goal)
                if walk is not None:
                    return walk
            elif horde:  # in the place: it stays, and shoots if it can
                shots = _shots(ask)
                return self._best_shot(t, figure, shots, ask) if shots else ask.options[-1]
        if horde:
            return self._close_in(t, ask, figure)
        in_cover = _in_cover(t, figure)  # asked once: the answers below all read it
        if ask.about["moves"] > 0 and not in_cover and goal is None:
            step = _step_back(t, ask, figure)
            if step is not None:
                return step
        shots = _shots(ask)
        if shots:  # with its two actions: into cover first, if it is not in cover and can still shoot from there
            if (ask.about["actions"] == 2 and ask.about["moves"] > 0 and not in_cover
                    and (spot := _firing_spot(t, ask, figure, goal, _moves(ask, "cover"))) is not None):
                return spot
            return self._best_shot(t, figure, shots, ask)
        return self._advance(t, ask, figure, in_cover, goal)

    def _last_stand(self, t: Table, ask: Ask, figure: Figure) -> Option:
        """Last Breath's free activation: the best shot, else a charge, else a walk toward the enemy (the figure
        is removed after it: cover would serve it nothing)."""
        shots = _shots(ask)
        if shots:
            return self._best_shot(t, figure, shots, ask)
        if ask.about["moves"] > 0:
            if (charge := _charge(t, ask)) is not None:
                return charge
            toward = _moves(ask, "toward")
            if ask.about["actions"] == 2 and (spot := _firing_spot(
                    t, ask, figure, None, [*toward, *_moves(ask, "cover"), *_moves(ask, "compass")])) is not None:
                return spot
            if toward:
                return toward[0]
        return ask.options[-1]

    def _close_in(self, t: Table, ask: Ask, figure: Figure) -> Option:
        """The horde: a charge at the weakest enemy it can reach, else a walk toward the nearest, around what
        stands in the way; a gun only with the action the walk leaves (or when it cannot get nearer)."""
        if ask.about["moves"] > 0:
            if (charge := _charge(t, ask)) is not None:
                return charge
            walk = _around(t, ask, figure)
            if walk is not None:
                return walk
        shots = _shots(ask)
        return self._best_shot(t, figure, shots, ask) if shots else ask.options[-1]

    def _advance(self, t: Table, ask: Ask, figure: Figure, in_cover: bool,
                 goal: tuple[float, float, float, float] | None) -> Option:
        """A gunman with nobody in its sights: it moves where it can shoot from (into cover first), else into
        cover that gets it nearer, else toward the enemy. It waits in cover when it holds the scenario's place,
        and (unless aggressive) when its side wins as things stand (the enemy must come to it) or the nearest
        enemy is a brawler without a gun (it comes anyway); never while an enemy gun has it in range and sight."""
        end = ask.options[-1]
        if ask.about["moves"] == 0:
            return end
        under_fire = _under_fire(t, figure)  # waiting would only give the enemy its shots
        waits = not under_fire and self.style != "aggressive" and (_winning(t, figure.side) or _coming(t, figure))
        if in_cover and (waits or (goal is not None and not under_fire)):
            return end
        covers = _moves(ask, "cover")
        toward = _moves(ask, "toward")
        if ask.about["actions"] == 2:  # a move, then a shot: into cover first
            firing = _firing_spot(t, ask, figure, goal, covers)
            if firing is None and under_fire:  # shot at, and no cover to shoot back from: out of the guns' way
                firing = _out_of_fire(t, figure, goal, [*covers, *_moves(ask, "compass")])
            if firing is None:  # else into the open, to shoot (any way, when shot at)
                firing = _firing_spot(t, ask, figure, goal, toward)
                if firing is None and under_fire:
                    firing = _firing_spot(t, ask, figure, goal, _moves(ask, "compass"))
            if firing is not None:
                return firing
        if goal is not None:
            return end
        enemies = [e.pos for e in t.visible(OTHER[figure.side])]
        now = _distance_to(enemies, figure.pos)
        covered = next((o for o in covers if _distance_to(enemies, o.data["to"]) < now - 0.5), None)
        if covered is not None:
            return covered
        nearer = [(away, o) for o in toward if (away := _distance_to(enemies, o.data["to"])) < now - 0.5]
        if nearer and not _undoes(t, figure, min(nearer, key=lambda pair: pair[0])[1]):
            return min(nearer, key=lambda pair: pair[0])[1]
        if not in_cover and covers:
            return covers[0]
        return end

    def _best_shot(self, t: Table, figure: Figure, shots: list[Option], ask: Ask) -> Option:
        """The shot worth most: the escorted character first (stopping it wins the game), then the chance to hit
        (the dice's exact odds, against the reaction that suits the target best) times what a hit is worth
        (a zombie feels one damage point in six; a Star more than an Extra, most when the Stars decide; the
        fewer cartridges left, the more). Aimed when one aimed shot beats two plain ones in expected damage, less
        what return fire deals back: the second plain shot meets a target that has dodged (`SECOND_SHOT`); a card
        is worth something, but a Joker, which buys nothing else, is worth more spent (`JOKER_PLACE`); the
        Precise pay nothing."""
        if len(shots) == 1:  # nothing to weigh it against
            return shots[0]
        aim_cost = (0.0 if skills.aims_free(t.profile(figure).skills)
                    else -JOKER_PLACE if t.aim_cost == "joker" else CARD_WORTH)
        stars = t.scenario.victory.kind == "eliminate_stars"
        best: tuple[float, ...] | None = None
        chosen = shots[0]
        plain = {o.data["figure"]: o for o in shots if o.id.startswith("shoot:")}
        for option in shots:
            target_id = option.data["figure"]
            enemy = t.game.figure(target_id)
            aimed = option.id.startswith("aim:")
            escorted, hit_worth = _escorted(t, enemy), _hit_worth(t, enemy, stars)
            if best is not None and (escorted, hit_worth, True) <= best:
                continue  # a sure hit would be worth no more than the best shot so far: its odds are not needed
            if aimed:  # worth it when one aimed shot beats two plain ones in expected damage (less return fire)
                if target_id not in plain or shot_damage(t, figure, enemy, True) - aim_cost <= (
                        1 + SECOND_SHOT) * shot_damage(t, figure, enemy, False):
                    continue
                chance = _chance(t, figure, enemy, True)
            else:
                chance = _chance(t, figure, enemy, False)
                if ask.about["actions"] == 2:
                    chance = chance + (1 - chance) * chance * SECOND_SHOT
            worth = (escorted, chance * hit_worth, aimed)
            if best is None or worth > best:
                best, chosen = worth, option
        return chosen

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
        """The heart is paid only when the free activation can hurt an enemy (a shot from where the figure
        stands or after a move, a charge) or take the scenario's place."""
        figure = t.game.figure(ask.about["figure"])
        moves = skills.move_actions(t.profile(figure).skills, figure.wounded)
        enemies = t.visible(OTHER[figure.side])
        charges = any(distance(figure.pos, e.pos) <= moves * MOVE + CONTACT for e in enemies)
        hurts = charges or bool(targets(t, figure)) or (moves > 0 and any(
            _shoots_from(t, figure, o.data["to"]) for o in move_options(t, figure)))
        goal = _goal(t, figure)
        takes = goal is not None and moves > 0 and _to_place(figure.pos, goal) <= moves * MOVE
        return ask.options[0] if hurts or takes else ask.options[-1]

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
    """The move that gets the figure nearest an enemy by the way it must walk (around buildings and high
    walls, difficult ground counted twice): the straight move toward the nearest when it gains half an inch,
    else the best compass way, if it gains a quarter of an inch; else, when its own side's figures cut its way
    short, a way of an inch or more that leaves them farther behind, losing `AROUND` of the walk at most."""
    if not t.visible(OTHER[figure.side]):
        return None
    left = _walk_left(t, figure)
    now = left(figure.pos)
    straight = [o for o in _moves(ask, "toward") if not o.data.get("charge")]
    if straight and left(straight[0].data["to"]) <= now - 0.5:
        return straight[0]
    moves = [*straight, *_moves(ask, "compass")]
    best = min(moves, key=lambda o: left(o.data["to"]), default=None)
    if best is not None and left(best.data["to"]) <= now - 0.25:
        return best
    # its way cut short by its own side: around them, sideways
    friends = [f.pos for f in t.standing(figure.side) if f is not figure and distance(f.pos, figure.pos) <= 2 * MOVE]
    aside = [o for o in moves if left(o.data["to"]) <= now + AROUND and distance(o.data["to"], figure.pos) >= 1.0
             and not _undoes(t, figure, o)]
    if not friends or not aside:
        return None
    return max(aside, key=lambda o: (_distance_to(friends, o.data["to"]) - _distance_to(friends, figure.pos),
                                     -left(o.data["to"])))


def _walk_left(t: Table, figure: Figure) -> Callable[[tuple[float, float]], float]:
    """How far a point is, walking, from the nearest of the `NEAREST` enemies nearest the figure."""
    enemies = sorted(t.visible(OTHER[figure.side]), key=lambda e: distance(figure.pos, e.pos))[:NEAREST]
    fields = [_walk_field(t.field, (_cell(e.pos),)) for e in enemies]

    def left(point: tuple[float, float]) -> float:
        nearest = math.inf
        for walk in fields:
            nearest = walk.to(point, nearest)
        return nearest
    return left


def _toward_place(t: Table, ask: Ask, figure: Figure, place: tuple[float, float, float, float]) -> Option | None:
    """The compass move that gets the figure into the place, else nearest it by the way it must walk, if it gets
    it an inch nearer; of those as near, the one the fewest enemy guns see."""
    x, y, w, h = place
    squares = tuple((i, j) for i in range(math.ceil(x), math.ceil(x + w))
                    for j in range(math.ceil(y), math.ceil(y + h)))
    walk = _walk_field(t.field, squares or (_cell((x + w / 2, y + h / 2)),))
    guns = [(e.pos, gun.range) for e in t.visible(OTHER[figure.side]) if (gun := t.gun(e)) is not None]

    def cost(option: Option) -> tuple[float, int]:
        to = option.data["to"]
        return (round(walk.to(to)), sum(1 for at, reach in guns if distance(at, to) <= reach and t.sight(at, to)))
    moves = _moves(ask, "compass")
    into = [o for o in moves if inside(o.data["to"], place)]
    if into:  # however little nearer it gets: the walk is measured to the place's inch squares, not its edge
        return min(into, key=cost)
    best = min(moves, key=cost, default=None)
    if best is None or walk.to(best.data["to"]) > walk.to(figure.pos) - 1.0:
        return None
    return best


def _to_place(point: tuple[float, float], place: tuple[float, float, float, float]) -> float:
    """How far the point is from the place, as the crow flies (0 inside)."""
    x, y, w, h = place
    return math.hypot(max(x - point[0], 0.0, point[0] - x - w), max(y - point[1], 0.0, point[1] - y - h))


def _cell(point: tuple[float, float]) -> Cell:
    return (int(point[0]), int(point[1]))


@dataclass(frozen=True)
class _Squares:
    """The inch squares of the table as a graph, each square numbered `column * rows + row` (lists indexed by
    number walk faster than dicts keyed by pairs): for each, the squares a step reaches from it and what the step
    costs, or None where a figure may not stand."""

    columns: int
    rows: int
    steps: tuple[tuple[tuple[int, float], ...] | None, ...]

    def number(self, cell: Cell) -> int | None:
        """The square's number, None off the board."""
        i, j = cell
        return i * self.rows + j if 0 <= i < self.columns and 0 <= j < self.rows else None


@lru_cache(maxsize=8)
def _squares(field: Battlefield) -> _Squares:
    """The squares a figure may stand in, each with the squares a step reaches from it and what the step costs
    (eight ways, not across a corner; an inch over difficult ground counts two)."""
    rough = [p for p in field.terrain if p.kind in ROUGH_KINDS and (p.kind != "wall" or p.climbable)]
    columns, rows = int(field.width), int(field.height)
    cost: dict[Cell, float] = {}
    for i in range(columns):
        for j in range(rows):
            centre = (i + 0.5, j + 0.5)
            if field.free(centre, ()):
                cost[(i, j)] = 2.0 if any(p.contains(centre) for p in rough) else 1.0
    steps: list[tuple[tuple[int, float], ...] | None] = [None] * (columns * rows)
    for (i, j), here in cost.items():
        steps[i * rows + j] = tuple(
            ((i + di) * rows + j + dj, step * (cost[(i + di, j + dj)] + here) / 2) for di, dj, step in STEPS
            if (i + di, j + dj) in cost and not (di and dj and ((i + di, j) not in cost or (i, j + dj) not in cost)))
    return _Squares(columns, rows, tuple(steps))


class _Walk(NamedTuple):
    """How far each inch square of the table is from a goal, walking (`_walk_field`)."""

    columns: int
    rows: int
    far: tuple[float, ...]  # by square number (`_Squares`); infinite where no walk reaches

    def to(self, point: tuple[float, float], best: float = math.inf) -> float:
        """How far `point` is from the goal, walking: through its square, or the nearest one reached; `best` if
        that is nearer (a walk from another goal: the squares no nearer are not measured)."""
        rows, far = self.rows, self.far
        i, j = int(point[0]), int(point[1])
        for column in range(max(i - 1, 0), min(i + 2, self.columns)):
            for row in range(max(j - 1, 0), min(j + 2, rows)):
                away = far[column * rows + row]
                if away < best:  # else no shorter through it (an unreached square is infinitely far)
                    away += math.dist(point, (column + 0.5, row + 0.5))
                    if away < best:
                        best = away
        return best


@lru_cache(maxsize=256)  # enemies stand still most of a game, and games on one table meet the same places
def _walk_field(field: Battlefield, goals: tuple[Cell, ...]) -> _Walk:
    """How far each inch square of the table is from the nearest of the goal squares, walking around what
    blocks (Dijkstra over `_squares`). A goal square a figure cannot stand in (by a wall) starts from its free
    neighbours."""
    squares = _squares(field)
    steps = squares.steps
    far = [math.inf] * len(steps)
    for i, j in goals:
        here = squares.number((i, j))
        starts = [(0.0, here)] if here is not None and steps[here] is not None else [
            (step, near) for di, dj, step in STEPS
            if (near := squares.number((i + di, j + dj))) is not None and steps[near] is not None]
        for away, square in starts:
            if away < far[square]:
                far[square] = away
    queue = [(away, square) for square, away in enumerate(far) if away < math.inf]
    heapify(queue)
    while queue:
        away, square = heappop(queue)
        if away > far[square]:
            continue
        for near, step in steps[square]:  # type: ignore[union-attr]  # only squares to stand in are reached
            reached = away + step
            if reached < far[near]:
                far[near] = reached
                heappush(queue, (reached, near))
    return _Walk(squares.columns, squares.rows, tuple(far))  # shared by every figure: read-only


def _firing_spot(t: Table, ask: Ask, figure: Figure, goal: tuple[float, float, float, float] | None,
                 moves: list[Option]) -> Option | None:
    """The first of the moves (inside the scenario's place, if the figure must hold it; not undoing its last
    move) from which the figure's gun reaches an enemy it sees."""
    gun = t.gun(figure)
    if gun is None:
        return None
    for option in moves:
        to = option.data["to"]
        if goal is not None and not inside(to, goal):
            continue
        if _shoots_from(t, figure, to) and not _undoes(t, figure, option):
            return option
    return None


def _shoots_from(t: Table, figure: Figure, to: tuple[float, float]) -> bool:
    """Whether the figure's gun would reach an enemy it sees from `to`."""
    gun = t.gun(figure)
    return gun is not None and any(distance(to, e.pos) <= gun.range and t.sight(to, e.pos)
                                   for e in t.visible(OTHER[figure.side]))


def _undoes(t: Table, figure: Figure, option: Option) -> bool:
    """Whether the move goes back the way the figure came this activation (a move into cover, then out)."""
    who = t.who(figure)
    for entry in reversed(t.game.log):
        note = entry.get("note")
        if note in ("skirmish.moved", "skirmish.activates") and entry["args"]["figure"] is who:
            if note == "skirmish.activates":
                return False
            came = WAYS.index(entry["args"]["way"]["t"].removeprefix("dir."))
            going = WAYS.index(compass(figure.pos, option.data["to"]))
            return abs((came - going + 4) % 8 - 4) >= 3  # within 45 degrees of straight back
    return False


def _winning(t: Table, side: str) -> bool:
    """Whether the side wins by the scenario's own condition if the game ends as things stand. Not by the dollars
    at the turn limit: a band that waited in cover for them left its games undecided at the table."""
    victory = t.scenario.victory
    if victory.kind.startswith("survive_"):
        return side == victory.kind.removeprefix("survive_")
    if victory.kind == "escort":
        return side != victory.side
    if victory.kind == "hold" and victory.place is not None:
        place = victory.place
        holding = [s for s in OTHER if any(inside(f.pos, place) for f in t.standing(s))]
        return len(holding) == 1 and holding[0] == side
    return False


def _coming(t: Table, figure: Figure) -> bool:
    """Whether the nearest enemy the figure sees is a brawler without a gun, which walks up to it whatever it does
    (an armed zombie walks too, but shoots from where it stands: it is a gun, not something to wait for)."""
    enemy = _nearest(t, figure)
    return enemy is not None and t.gun(enemy) is None


def _under_fire(t: Table, figure: Figure, at: tuple[float, float] | None = None) -> bool:
    """Whether an enemy gun the figure sees has it in range and sight (where it stands, or at `at`)."""
    at = at or figure.pos
    return any((gun := t.gun(e)) is not None and distance(e.pos, at) <= gun.range and t.sight(e.pos, at)
               for e in t.visible(OTHER[figure.side]))


def _out_of_fire(t: Table, figure: Figure, goal: tuple[float, float, float, float] | None,
                 moves: list[Option]) -> Option | None:
    """The first of the moves (inside the scenario's place, if the figure must hold it) to where no enemy gun has
    it in range and sight."""
    return next((o for o in moves if (goal is None or inside(o.data["to"], goal))
                 and not _under_fire(t, figure, o.data["to"])), None)


def _chance(t: Table, shooter: Figure, target: Figure, aimed: bool) -> float:
    """The shot's chance to hit, against the reaction that suits the target best."""
    return float(min(shot_chances(t, shooter, target, aimed).values()))


def _hit_worth(t: Table, enemy: Figure, stars: bool) -> float:
    """What hitting the enemy is worth: its dollars, over the cartridges it has left (a zombie counts one
    damage point in six), a Star five times over when the Stars decide the game."""
    profile = t.profile(enemy)
    worth = profile.cost * (STARS_FIRST if stars and profile.status == "star" else 1)
    return worth / max(1, profile.cartridges - enemy.ticked) / (ZOMBIE_ODDS if profile.has("zombie") else 1)


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

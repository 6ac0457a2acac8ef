"""How a game is won (`zombstone.md`, the end), and which condition decided it (`Game.decided_by`):

- at once, a side with no character left in play loses: `elimination`, or `flight` when the last of it
  fled for good;
- `eliminate_stars`: at once, a side whose Stars are all out of play (killed or fled) loses: `stars`;
- `escort`: at once, the escorted character's side wins when it ends a move in the scenario's place, and
  loses when it leaves play: `escort`; at the turn limit, not there, its side loses (`escort` too);
- `hold`: at the turn limit, a side with characters in the place while the other has none wins: `hold`;
  when neither holds it alone, the dollars decide;
- `survive_lawmen` / `survive_zombies`: at the turn limit that side wins (it has someone left): `survival`;
- `dollars` (and what the others leave undecided): at the turn limit, the side whose characters still in
  play are worth more dollars wins, equal worth is a draw: `dollars`.
"""

from __future__ import annotations

from dedale.zombstone.skirmish.model import Figure
from dedale.zombstone.skirmish.table import OTHER, Table


def check_end(t: Table, gone: Figure) -> None:
    """After `gone` left play: a side with no one left loses; the Stars or the escort may decide it too."""
    if t.over:
        return
    standing = {side: bool(t.standing(side)) for side in t.game.sides}
    if not all(standing.values()):
        winner = next((side for side, left in standing.items() if left), None)
        _end(t, winner, "eliminated" if winner else "draw", "flight" if gone.state == "gone" else "elimination",
             "skirmish.ending_eliminated" if winner else "skirmish.ending_draw")
        return
    victory = t.scenario.victory
    if victory.kind == "eliminate_stars" and t.profile(gone).status == "star":
        side = gone.side
        if not any(t.profile(f).status == "star" for f in t.standing(side)):
            _end(t, OTHER[side], "condition", "stars", "skirmish.ending_stars")
    elif victory.kind == "escort" and gone.profile == victory.escort and gone.side == victory.side:
        _end(t, OTHER[gone.side], "condition", "escort", "skirmish.ending_escort_lost")


def after_move(t: Table, figure: Figure) -> None:
    """An escorted character that ends a move in the place wins the game for its side."""
    victory = t.scenario.victory
    if (not t.over and victory.kind == "escort" and figure.profile == victory.escort and figure.side == victory.side
            and victory.place is not None and inside(figure.pos, victory.place)):
        _end(t, figure.side, "condition", "escort", "skirmish.ending_escorted")


def time_up(t: Table) -> None:
    """The turn limit: the scenario's condition, else the dollars still standing."""
    victory = t.scenario.victory
    worth = {side: sum(t.profile(f).cost for f in t.game.in_play(side)) for side in t.game.sides}
    if victory.kind.startswith("survive_"):
        _end(t, victory.kind.removeprefix("survive_"), "turns", "survival", "skirmish.ending_survived")
        return
    if victory.kind == "escort" and victory.side is not None:
        _end(t, OTHER[victory.side], "turns", "escort", "skirmish.ending_escort_late")
        return
    if victory.kind == "hold" and victory.place is not None:
        place = victory.place
        holding = [side for side in t.game.sides if any(inside(f.pos, place) for f in t.game.in_play(side))]
        if len(holding) == 1:
            _end(t, holding[0], "turns", "hold", "skirmish.ending_held")
            return
    ranked = sorted(worth, key=lambda side: -worth[side])
    winner = ranked[0] if worth[ranked[0]] > worth[ranked[1]] else None
    t.game.winner, t.game.ending, t.game.decided_by = winner, "turns" if winner else "draw", "dollars"
    if winner is None:  # as many dollars standing on each side
        t.roller.note("skirmish.ending_turns_draw", lawmen=worth["lawmen"], zombies=worth["zombies"])
    else:
        t.roller.note("skirmish.ending_turns", winner=winner, lawmen=worth["lawmen"], zombies=worth["zombies"])


def inside(point: tuple[float, float], place: tuple[float, float, float, float]) -> bool:
    x, y, w, h = place
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def _end(t: Table, winner: str | None, ending: str, decided_by: str, note: str) -> None:
    t.game.winner, t.game.ending, t.game.decided_by = winner, ending, decided_by
    t.roller.note(note, winner=winner or "-")

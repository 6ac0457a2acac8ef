"""The poker duel as a picture: the felt, the board, both duellists' hole cards (the AI's face down until
the showdown), the pot and the stacks, the last actions; and the same as text for the terminal. Suits are
drawn as their symbols, hearts and diamonds also red, so colour is never needed to read a card."""

from __future__ import annotations

from typing import Any

from dedale.core.cards import SUIT_SYMBOLS, Card
from dedale.i18n import t
from dedale.render import svg
from dedale.zombstone.skirmish.duel_session import HIDDEN_CARD

FELT = "#2f6b4f"
RED = "#c0392b"
WIDTH, HEIGHT = 640, 430
CARD_W, CARD_H = 56, 80


def _card(x: float, y: float, card: Card | None) -> str:
    """A card face up, or its back when `card` is None."""
    if card is None:
        return (f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="6" fill="#7a2e2e" '
                f'stroke="#fbf8f1" stroke-width="3"/><rect x="{x + 7:g}" y="{y + 7:g}" width="{CARD_W - 14}" '
                f'height="{CARD_H - 14}" rx="3" fill="url(#back)"/>')
    colour = RED if card.red else svg.INK
    return (f'<g><rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="6" fill="white" '
            f'stroke="#333" stroke-width="1"/>'
            + svg.text(x + 7, y + 20, card.rank, 17, weight="bold", fill=colour)
            + svg.text(x + CARD_W / 2, y + CARD_H / 2 + 16, SUIT_SYMBOLS[card.suit], 30, "middle", fill=colour)
            + "</g>")


def _slot(x: float, y: float) -> str:
    return (f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="6" fill="none" '
            f'stroke="#9fc3ad" stroke-width="1.5" stroke-dasharray="5 4"/>')


def render_svg(document: dict[str, Any], lang: str = "en") -> str:
    """The duel of a `dedale/zombstone-duel` document."""
    duel = document["duel"]
    hole = [[None if c == HIDDEN_CARD else Card.parse(c) for c in cards] for cards in duel["hole"]]
    board = [Card.parse(c) for c in duel["board"]]
    shown = duel["over"] and duel["folded"] is None  # a showdown shows both hands
    body = [f'<rect x="20" y="56" width="{WIDTH - 40}" height="{HEIGHT - 76}" rx="60" fill="{FELT}" '
            f'stroke="#5b3b22" stroke-width="10"/>',
            svg.text(24, 26, t("render.duel.title", lang), 19, weight="bold"),
            svg.text(24, 46, t("render.duel.summary", lang, seed=_seed(document),
                               street=t(f"duel.street.{duel['street']}", lang), pot=_pot(duel)), 12.5)]
    for i in range(5):
        x = WIDTH / 2 - 2.5 * (CARD_W + 10) + i * (CARD_W + 10) + 5
        body.append(_card(x, HEIGHT / 2 - CARD_H / 2 + 10, board[i]) if i < len(board)
                    else _slot(x, HEIGHT / 2 - CARD_H / 2 + 10))
    seats = ((1, 66, t("render.duel.ai", lang)), (0, HEIGHT - 40 - CARD_H, t("render.duel.you", lang)))
    for seat, y, who in seats:
        for i, card in enumerate(hole[seat]):
            body.append(_card(WIDTH / 2 - CARD_W - 5 + i * (CARD_W + 10), y, card if seat == 0 or shown else None))
        label = t("render.duel.stack", lang, who=who, stack=duel["stacks"][seat], bet=duel["bets"][seat])
        body.append(svg.text(WIDTH / 2 + CARD_W + 30, y + 30, label, 14, weight="bold", fill="white"))
        if shown and duel["hands"]:
            body.append(svg.text(WIDTH / 2 + CARD_W + 30, y + 52, t(f"duel.hand.{duel['hands'][seat]}", lang), 13,
                                 fill="#f0e442"))
        if duel["to_act"] == seat and not duel["over"]:
            body.append(svg.text(WIDTH / 2 - CARD_W - 30, y + 45, "▶", 22, "end", fill="#f0e442"))
    body.append(svg.text(WIDTH / 2, HEIGHT / 2 - CARD_H / 2 - 2, t("render.duel.pot", lang, pot=_pot(duel)), 15,
                         "middle", "bold", "white"))
    if duel["over"]:
        body.append(_banner(duel, lang))
    defs = svg.hatch("back", "#fbf8f1", 5, 1.2)
    return svg.document(WIDTH, HEIGHT, body, t("render.duel.title", lang), defs)


def _banner(duel: dict[str, Any], lang: str) -> str:
    return (f'<rect x="{WIDTH / 2 - 230:g}" y="{HEIGHT / 2 + 58:g}" width="460" height="30" rx="8" fill="#fbf8f1" '
            f'stroke="{svg.ACCENT}" stroke-width="2"/>'
            + svg.text(WIDTH / 2, HEIGHT / 2 + 78, _outcome(duel, lang), 14, "middle", "bold"))


def _outcome(duel: dict[str, Any], lang: str) -> str:
    if duel["folded"] is not None:
        return t("render.duel.folded", lang, who=_who(duel["folded"], lang))
    if duel["winner"] is None:
        return t("render.duel.split", lang)
    return t("render.duel.won", lang, who=_who(duel["winner"], lang), pot=sum(duel["payout"]))


def _pot(duel: dict[str, Any]) -> int:
    """The pot on the table, or once won, what was in it."""
    return sum(duel["payout"]) if duel["over"] else duel["pot"]


def _seed(document: dict[str, Any]) -> Any:
    """The seed, or a dash (a player's view made during play has none)."""
    seed = document.get("seed")
    return "-" if seed is None else seed


def _who(seat: int, lang: str) -> str:
    return t("render.duel.you" if seat == 0 else "render.duel.ai", lang)


def render_text(document: dict[str, Any], lang: str = "en") -> str:
    duel = document["duel"]
    shown = duel["over"] and duel["folded"] is None

    def cards(codes: list[str], hidden: bool = False) -> str:
        return " ".join("[??]" if hidden or c == HIDDEN_CARD else f"[{Card.parse(c).shown}]" for c in codes)

    lines = [t("render.duel.title", lang),
             t("render.duel.summary", lang, seed=_seed(document),
               street=t(f"duel.street.{duel['street']}", lang), pot=_pot(duel)),
             "",
             f"  {t('render.duel.ai', lang)}: {cards(duel['hole'][1], not shown)}   "
             + t("render.duel.stack_short", lang, stack=duel["stacks"][1], bet=duel["bets"][1]),
             f"  {t('render.duel.board', lang)}: {cards(duel['board']) or '-'}",
             f"  {t('render.duel.you', lang)}: {cards(duel['hole'][0])}   "
             + t("render.duel.stack_short", lang, stack=duel["stacks"][0], bet=duel["bets"][0])]
    if duel["over"]:
        lines += ["", _outcome(duel, lang)]
    return "\n".join(lines) + "\n"

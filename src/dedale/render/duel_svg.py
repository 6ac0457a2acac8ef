"""The poker duel as a picture: the felt, the board, both duellists' hole cards (the AI's face down until
the showdown), the pot and the stacks, the last actions; and the same as text for the terminal. Suits are
drawn as their symbols, hearts and diamonds also red, so colour is never needed to read a card."""

from __future__ import annotations

from typing import Any

from dedale.core.cards import SUIT_SYMBOLS, Card
from dedale.core.seeds import readable
from dedale.i18n import t
from dedale.render import svg
from dedale.zombstone.skirmish.duel_session import HIDDEN_CARD

FELT = "#2f6b4f"
RED = "#c0392b"
WIDTH, HEIGHT = 640, 430
CARD_W, CARD_H = 56, 80


def _card(x: float, y: float, card: Card | None, lang: str) -> str:
    """A card face up, or its back when `card` is None."""
    if card is None:
        return (f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="6" fill="#7a2e2e" '
                f'stroke="#fbf8f1" stroke-width="3"/><rect x="{x + 7:g}" y="{y + 7:g}" width="{CARD_W - 14}" '
                f'height="{CARD_H - 14}" rx="3" fill="url(#back)"/>')
    colour = RED if card.red else svg.INK
    return (f'<g role="img" aria-label="{card.short(lang)}"><rect x="{x:g}" y="{y:g}" width="{CARD_W}" '
            f'height="{CARD_H}" rx="6" fill="white" '
            f'stroke="#333" stroke-width="1"/>'
            + svg.text(x + 7, y + 20, card.short(lang)[:-1], 17, weight="bold", fill=colour)
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
            svg.text(24, 46, _summary(document, lang), 12.5)]
    for i in range(5):
        x = WIDTH / 2 - 2.5 * (CARD_W + 10) + i * (CARD_W + 10) + 5
        body.append(_card(x, HEIGHT / 2 - CARD_H / 2 + 10, board[i], lang) if i < len(board)
                    else _slot(x, HEIGHT / 2 - CARD_H / 2 + 10))
    me = _viewer(document)
    seats = ((1 - me, 66, _who(1 - me, document, lang)), (me, HEIGHT - 40 - CARD_H, _who(me, document, lang)))
    for seat, y, who in seats:
        for i, card in enumerate(hole[seat]):
            body.append(_card(WIDTH / 2 - CARD_W - 5 + i * (CARD_W + 10), y, card if seat == me or shown else None,
                                lang))
        # who, then the stack below: each line fits beside the cards in every language ("14 $ restants")
        stack = t("render.duel.stack_short", lang, stack=duel["stacks"][seat], bet=duel["bets"][seat])
        body.append(svg.text(WIDTH / 2 + CARD_W + 24, y + 26, who, 14, weight="bold", fill="white"))
        body.append(svg.text(WIDTH / 2 + CARD_W + 24, y + 45, stack, 11.5, fill="white"))
        if shown and duel["hands"]:
            body.append(svg.text(WIDTH / 2 + CARD_W + 24, y + 66, t(f"duel.hand.{duel['hands'][seat]}", lang), 13,
                                 fill="#f0e442"))
        if duel["to_act"] == seat and not duel["over"]:
            body.append(svg.text(WIDTH / 2 - CARD_W - 30, y + 45, "▶", 22, "end", fill="#f0e442"))
    body.append(svg.text(WIDTH / 2, HEIGHT / 2 - CARD_H / 2 - 2, t("render.duel.pot", lang, pot=_pot(duel)), 15,
                         "middle", "bold", "white"))
    if duel["over"]:
        body.append(_banner(document, lang))
    defs = svg.hatch("back", "#fbf8f1", 5, 1.2)
    return svg.document(WIDTH, HEIGHT, body, t("render.duel.title", lang), defs)


def _banner(document: dict[str, Any], lang: str) -> str:
    return (f'<rect x="{WIDTH / 2 - 230:g}" y="{HEIGHT / 2 + 58:g}" width="460" height="30" rx="8" fill="#fbf8f1" '
            f'stroke="{svg.ACCENT}" stroke-width="2"/>'
            + svg.text(WIDTH / 2, HEIGHT / 2 + 78, _outcome(document, lang), 14, "middle", "bold"))


def _outcome(document: dict[str, Any], lang: str) -> str:
    duel = document["duel"]
    if duel["folded"] is not None:
        return t("render.duel.folded", lang, who=_who(duel["folded"], document, lang))
    if duel["winner"] is None:
        return t("render.duel.split", lang)
    return t("render.duel.won", lang, who=_who(duel["winner"], document, lang), pot=sum(duel["payout"]))


def _pot(duel: dict[str, Any]) -> int:
    """The pot on the table, or once won, what was in it."""
    return sum(duel["payout"]) if duel["over"] else duel["pot"]


def _summary(document: dict[str, Any], lang: str) -> str:
    """The seed when the document has one (a seat's view made during play has none: then nothing is said of
    it), the street and the pot."""
    duel = document["duel"]
    seed = "" if document.get("seed") is None else t("render.seed", lang, seed=readable(document["seed"])) + " · "
    return seed + t("render.duel.summary", lang, street=t(f"duel.street.{duel['street']}", lang), pot=_pot(duel))


def _viewer(document: dict[str, Any]) -> int:
    """Whose side of the table the picture is drawn from: `player`, the seat the document was shown to."""
    return 1 if document.get("player") == 1 else 0


def _who(seat: int, document: dict[str, Any], lang: str) -> str:
    """A duellist as the log and the status name it too: its side in a skirmish, its seat between two
    people, else You and the AI."""
    if "names" in document:  # the duellists of a skirmish: their sides
        return str(document["names"][seat])
    if (document.get("params") or {}).get("opponent") == "human":
        return t("render.duel.other", lang, seat=seat + 1)
    return t("render.duel.you", lang) if seat == _viewer(document) else t("render.duel.ai", lang)


def render_text(document: dict[str, Any], lang: str = "en") -> str:
    duel = document["duel"]
    shown = duel["over"] and duel["folded"] is None
    me = _viewer(document)
    other = 1 - me

    def cards(codes: list[str], hidden: bool = False) -> str:
        return " ".join("[??]" if hidden or c == HIDDEN_CARD else f"[{Card.parse(c).short(lang)}]" for c in codes)

    def row(who: str, shown_cards: str, seat: int | None = None) -> str:
        stack = "" if seat is None else "   " + t("render.duel.stack_short", lang, stack=duel["stacks"][seat],
                                                   bet=duel["bets"][seat])
        return "  " + t("render.duel.row", lang, who=who, cards=shown_cards) + stack

    lines = [t("render.duel.title", lang),
             _summary(document, lang),
             "",
             row(_who(other, document, lang), cards(duel["hole"][other], not shown), other),
             row(t("render.duel.board", lang), cards(duel["board"]) or "-"),
             row(_who(me, document, lang), cards(duel["hole"][me]), me)]
    if duel["over"]:
        lines += ["", _outcome(document, lang)]
    return "\n".join(lines) + "\n"

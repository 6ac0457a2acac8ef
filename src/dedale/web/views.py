"""What a page shows of a session: its picture (with the choices one can click on it), its summary, its
log in words, and the result the table is asked for, all in the page's language (the session has none).
Presentation only: the rules are the library's."""

from __future__ import annotations

from typing import Any

from dedale.core.cards import Card
from dedale.core.logtext import describe, describe_request
from dedale.core.session import Choice, Session
from dedale.i18n import say, t

LOG_LINES = 80


def picture(session: Session, listed: list[Choice], lang: str) -> str:
    """The session's SVG in `lang`, with what the `listed` choices point at marked on it."""
    system = session.system
    if system == "crawler":
        from dedale.core.grid import Rect
        from dedale.render.crawler_svg import Highlight, render_svg

        highlights = [Highlight(Rect(*c.data["rect"]), str(n), c.id, c.label(lang))
                      for n, c in enumerate(listed, 1) if c.data.get("kind") == "place"]
        return render_svg(session.dungeon(), highlights, lang=lang)  # type: ignore[attr-defined]
    if system == "paper":
        from dedale.render.paper_svg import render_svg as paper_svg

        return paper_svg(session.paper_map(), lang=lang)  # type: ignore[attr-defined]
    if system == "hexcrawl":
        from dedale.render.hex_svg import render_svg as hex_svg

        links = {tuple(c.data["hex"]): (c.id, c.label(lang)) for c in listed if c.data.get("kind") == "move"}
        return hex_svg(session.hex_map(), links, lang)  # type: ignore[attr-defined, arg-type]
    if system == "zombstone":
        from dedale.render.zombstone_svg import render_svg as zombstone_svg
        from dedale.zombstone.skirmish.view import GameView

        links = {c.id: {**c.data, "label": c.label(lang)} for c in listed if "to" in c.data or "figure" in c.data}
        return zombstone_svg(GameView.from_json(session.player_result()), links, lang)
    if system == "zombstone-duel":
        from dedale.render.duel_svg import render_svg as duel_svg

        return duel_svg({**session.player_result(), "seed": session.player_seed()}, lang)
    from dedale.render.keylock_svg import render_svg as keylock_svg

    return keylock_svg(session.diagram, session.analysis, lang)  # type: ignore[attr-defined]


def log_lines(session: Session, lang: str) -> list[str]:
    """The newest lines of the log as the player may see it, newest first."""
    entries = session.player_log(max(0, len(session.log) - 2 * LOG_LINES))[-LOG_LINES:]
    return [describe(entry, lang) for entry in reversed(entries)]



def prompt(session: Session, lang: str) -> str | None:
    return None if session.pending is None else describe_request(session.pending, lang)


def face(session: Session, choice: Choice, lang: str) -> tuple[str, str]:
    """How a die face or a card to enter is shown: a card with its suit's symbol, hearts and diamonds red."""
    if session.pending is not None and session.pending.kind == "card":
        card = Card.parse(choice.label(lang))
        return card.shown, "red" if card.red else ""
    return choice.label(lang), ""


def choices(session: Session) -> list[Choice]:
    return [] if session.is_over else session.choices()


def analysis_lines(session: Session, lang: str) -> list[str]:
    """A key-lock diagram's analysis in words (the walk, the suggested ends, the empty locks)."""
    if session.system != "keylock":
        return []
    from dedale.render.keylock_text import analysis_text

    return analysis_text(session.diagram, session.analysis, lang).splitlines()  # type: ignore[attr-defined]


def context(session: Session, session_id: str, lang: str) -> dict[str, Any]:
    """Everything the play page's panel needs."""
    listed = choices(session)
    question = session.question()
    return {"id": session_id, "session": session, "system": session.system, "picture": picture(session, listed, lang),
            "choices": listed, "faces": [face(session, c, lang) for c in listed],
            "prompt": prompt(session, lang), "question": None if question is None else say(question, lang),
            "log": log_lines(session, lang), "seed": session.player_seed(),
            "over": session.is_over, "steps": len(session.events), "pending": session.pending,
            "analysis": analysis_lines(session, lang), "title": t(f"web.system.{session.system}", lang)}

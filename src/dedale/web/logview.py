"""The whole log of a session, as a seat may read it: in pages, each page's entries under the step (the
choice) they follow, with their true numbers; and the same as plain text, to download. The play panel shows
only the newest lines (`views.log_lines`); this is the rest.

A step begins at the entry a choice logs (`Session._perform` logs one a choice, the player's or an
autopilot's), so the k-th such entry is step k; what the rules rolled before the first choice is the start.
The web's bounds on every parameter keep a log to some thousands of entries: reading it all a request is
cheap, wording it is done for one page only (except for the text, which is the whole log by definition).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dedale.core.logtext import describe
from dedale.core.rng import LogEntry
from dedale.core.session import Session
from dedale.i18n import t

PAGE_ENTRIES = 200


@dataclass
class Step:
    number: int  # 0: what the rules rolled at the start, before any choice
    entries: list[tuple[int, str]] = field(default_factory=list)  # (its number in the log, from 1; words)


@dataclass
class LogPage:
    page: int  # from 1
    pages: int
    total: int  # entries in the log as the seat may read it
    steps: list[Step]


def log_page(session: Session, lang: str, page: int = 1, seat: int = 0) -> LogPage:
    """Page `page` of the log (clamped to the pages there are), its entries worded in `lang`."""
    entries = session.seat_log(0, seat)  # masked, or with entries left out, while something is hidden
    pages = pages_of(len(entries))
    page = min(max(page, 1), pages)
    start = (page - 1) * PAGE_ENTRIES
    step = sum(1 for entry in entries[:start] if _is_choice(entry))
    steps = [Step(step)]
    for number, entry in enumerate(entries[start:start + PAGE_ENTRIES], start + 1):
        if _is_choice(entry):
            step += 1
            steps.append(Step(step))
        steps[-1].entries.append((number, describe(entry, lang)))
    return LogPage(page, pages, len(entries), [s for s in steps if s.entries])


def pages_of(total: int) -> int:
    return max(1, -(-total // PAGE_ENTRIES))


def log_text(session: Session, lang: str, seat: int = 0) -> str:
    """The whole log as text: a heading a step, then its entries, numbered as on the page."""
    lines: list[str] = [t("web.log_start", lang)]
    step = 0
    for number, entry in enumerate(session.seat_log(0, seat), 1):
        if _is_choice(entry):
            step += 1
            lines.append("")
            lines.append(t("web.log_step", lang, step=step))
        lines.append(f"{number}. {describe(entry, lang)}")
    return "\n".join(lines) + "\n"


def _is_choice(entry: LogEntry) -> bool:
    return isinstance(entry, dict) and "choice" in entry

"""Solo play in the terminal, for any system's session: show the state, list the legal choices numbered,
read one, show each roll and what it decided. In table mode, ask for each die or card instead of rolling.
`u` undoes, `a` lets the autopilot make one choice, `s` saves, `q` quits; Ctrl-C saves and quits. The player sees
what the rules let them see (`Session.seat_log`); a save keeps the whole session, to be continued."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from dedale.core.errors import DedaleError
from dedale.core.logtext import describe, describe_request
from dedale.core.numbers import whole
from dedale.core.rules import Rules
from dedale.core.seeds import seed_text
from dedale.core.session import Session
from dedale.i18n import say, t

COMMANDS = ("u", "a", "s", "q", "?")


class Player:
    def __init__(self, session: Session, show: Callable[[Session, str], str], save_to: Path, lang: str) -> None:
        self.session = session
        self.show = show  # (session, language) -> its view
        self.save_to = save_to
        self.lang = lang
        self.shown = 0  # log entries already printed

    def say(self, key: str, **args: object) -> None:
        typer.echo(t(key, self.lang, **args))

    def run(self) -> None:
        try:
            self._loop()
        except (KeyboardInterrupt, EOFError):
            typer.echo("")
            self.save()

    def _loop(self) -> None:
        show_map = True
        while True:
            session = self.session
            if show_map and session.pending is None:
                typer.echo(self.show(session, self.lang))
            self._print_log()
            if session.is_over:
                self.say("play.over")
                self.save()
                return
            show_map = self._turn(input(self._prompt()).strip().lower())

    def _print_log(self) -> None:
        """The new log entries as the player may see them (masked, or left out, while the session hides
        something: an AI's cards, its bluff rolls)."""
        log = self.session.log
        self.shown = min(self.shown, len(log))
        for entry in self.session.seat_log(self.shown):
            typer.echo("  " + describe(entry, self.lang))
        self.shown = len(log)

    def _prompt(self) -> str:
        session = self.session
        if session.pending is not None:
            options, kind = session.pending.options, session.pending.kind
            if kind == "die":
                accepted = f"{options[0]}-{options[-1]}"
            elif kind == "card":
                accepted = t("play.card", self.lang, left=len(options))
            else:
                accepted = ", ".join(options)
            return t("play.enter", self.lang, what=describe_request(session.pending, self.lang),
                     accepted=accepted) + " "
        question = session.question()
        if question:
            typer.echo(say(question, self.lang))
        for number, choice in enumerate(session.choices(), 1):
            key = f" [{choice.data['key']}]" if "key" in choice.data else ""
            typer.echo(f"  {number:>3}. {choice.label(self.lang)}{key}")
        return t("play.choose", self.lang, count=len(session.choices())) + " "

    def _turn(self, line: str) -> bool:
        """Apply one line of input; True when the map should be shown again."""
        session = self.session
        try:
            if line in COMMANDS:
                return self._command(line)
            if session.pending is not None:
                for token in line.replace(",", " ").split():  # several dice at once: "3 5 2"
                    value = token.upper() if session.pending.kind == "card" else token
                    if value not in session.pending.options:
                        raise DedaleError("error.entry_impossible", value=token,
                                          accepted=_accepted(session.pending.options))
                    session.step("enter:" + value)
                    if session.pending is None:
                        break
                return session.pending is None
            keys = {str(c.data["key"]).lower(): c.id for c in session.choices() if "key" in c.data}
            if line in keys:  # a choice's own key, such as a direction
                session.step(keys[line])
                return True
            number = whole(line)
            if number is None or not 1 <= number <= len(session.choices()):
                shown = [str(c.data["key"]) for c in session.choices() if "key" in c.data]
                self.say("play.bad_keys" if shown else "play.bad_number", value=line, count=len(session.choices()),
                         keys=", ".join(shown))
                return False
            session.step(session.choices()[number - 1].id)
            return True
        except DedaleError as exc:
            typer.echo(exc.message(self.lang))
            return False

    def _command(self, command: str) -> bool:
        if command == "u":
            self.session.undo()
            self.say("play.undone")
        elif command == "a":
            self.session.auto_step()
        elif command == "s":
            self.save()
            return False
        elif command == "q":
            self.save()
            raise SystemExit(0)
        else:
            self.say("play.help")
            return False
        return True

    def save(self) -> None:
        from dedale.core.files import write_atomic

        text = json.dumps(self.session.to_json(), ensure_ascii=False, indent=2) + "\n"
        write_atomic(self.save_to, text.encode("utf-8"))
        self.say("play.saved", path=str(self.save_to))


def _accepted(options: tuple[str, ...]) -> str:
    return ", ".join(options) if len(options) <= 12 else f"{', '.join(options[:6])}, ... ({len(options)})"


def play(rules: type[Rules[Any, Any]], load: Path | None, make: Callable[[], Session], save: Path | None,
         lang: str, show: Callable[[Any, str], str]) -> None:
    """The `SYSTEM play` command: resume a saved session or start one, and play it to the end in `lang`
    (whatever language it was played in before: a session has none)."""
    from dedale.core.files import check_target, read_json

    saved = read_json(load) if load is not None else None
    if (target := save or load) is not None:
        check_target(target)  # before the game, not when it is saved at its end
    session = Session.opened(rules, saved) if load is not None else make()
    if session.archived is not None:  # shown and drawn as saved (`dedale render`), never continued
        raise DedaleError("error.archived", why=session.archived)
    Player(session, show, save or load or Path(f"dedale-{session.system}-{seed_text(session.seed)}.json"),
           lang).run()

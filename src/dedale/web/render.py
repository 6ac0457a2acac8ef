"""Templates (Jinja2) with the player's language."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from dedale import __version__
from dedale.core.errors import DedaleError
from dedale.core.seeds import seed_text
from dedale.i18n import LANGUAGES, t
from dedale.web import csrf
from dedale.web.seats import migrate

# The answer to each refusal that is not a plain 400 (bad input).
STATUS = {"error.no_session": 404, "error.system": 404, "error.csrf": 403, "error.seat_token": 403,
          "error.spectator": 403, "error.party_log": 403, "error.owner": 403, "error.owner_first": 403,
          "error.too_many_watchers": 503,
          "error.conflict": 409, "error.raced": 409, "error.not_seated": 409, "error.unknown_params": 422,
          "error.upload_size": 413}


def status_of(error: DedaleError) -> int:
    return STATUS.get(error.key, 400)


def lang_of(request: Request) -> str:
    lang = request.cookies.get("lang", "en")
    return lang if lang in LANGUAGES else "en"


@cache
def environment() -> Environment:
    folder = str(resources.files("dedale.web").joinpath("templates"))
    # the templates are the package's files: compiled once, never looked at again for changes
    made = Environment(loader=FileSystemLoader(folder), autoescape=select_autoescape(["html"]), auto_reload=False)
    made.filters["seed"] = seed_text  # a seed as a person reads it: a long one in base 32, grouped
    return made


def _here(request: Request) -> str:
    """The page's address, to come back to after switching languages."""
    return request.url.path + (f"?{request.url.query}" if request.url.query and request.method == "GET" else "")


def page(request: Request, template: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    """A page in the player's language, its forms carrying this browser's token."""
    lang = lang_of(request)

    def tr(key: str, **args: Any) -> str:
        return t(key, lang, **args)

    token, new_browser = csrf.page_token(request)
    fetch = csrf.fetch_token(request.app.state.secret, new_browser or csrf.browser(request) or "")

    def signed(address: str) -> str:
        """An address this page's browser asks for (a picture, a download, live updates), carrying its fetch
        token: a browser that names no place it asks from is let through by that (`guard.py`)."""
        return f"{address}{'&' if '?' in address else '?'}k={fetch}"

    html = environment().get_template(template).render(**context, t=tr, lang=lang, languages=LANGUAGES,
                                                       path=request.url.path, here=_here(request),
                                                       version=__version__, csrf=token, signed=signed,
                                                       fetch=fetch)
    response = HTMLResponse(html, status_code=status)
    if new_browser is not None:
        csrf.remember(response, new_browser)
    else:  # a browser whose id owned its games before rings: they move to a ring of its own now
        migrate(request, response, request.app.state.sessions)
    return response


def problem(request: Request, message: str, status: int, headers: dict[str, str] | None = None) -> Response:
    """A refusal: `{"error": message}` for the API, a page for a person."""
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=status, headers=headers)
    response = page(request, "error.html", {"message": message}, status)
    response.headers.update(headers or {})
    return response


def refusal(request: Request, error: DedaleError, status: int) -> Response:
    return problem(request, error.message(lang_of(request)), status)

"""Templates (Jinja2) with the player's language."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from dedale import __version__
from dedale.i18n import LANGUAGES, t


def lang_of(request: Request) -> str:
    lang = request.cookies.get("lang", "en")
    return lang if lang in LANGUAGES else "en"


@cache
def environment() -> Environment:
    folder = str(resources.files("dedale.web").joinpath("templates"))
    return Environment(loader=FileSystemLoader(folder), autoescape=select_autoescape(["html"]))


def _here(request: Request) -> str:
    """The page's address, to come back to after switching languages."""
    return request.url.path + (f"?{request.url.query}" if request.url.query and request.method == "GET" else "")


def page(request: Request, template: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    lang = lang_of(request)

    def tr(key: str, **args: Any) -> str:
        return t(key, lang, **args)

    html = environment().get_template(template).render(**context, t=tr, lang=lang, languages=LANGUAGES,
                                                       path=request.url.path, here=_here(request),
                                                       version=__version__)
    return HTMLResponse(html, status_code=status)

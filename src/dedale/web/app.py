"""The web app: `create_app(db)` gives the FastAPI application; `dedale serve` runs it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.types import Scope

from dedale import __version__
from dedale.core.errors import DedaleError
from dedale.i18n import t
from dedale.web import api, pages, service
from dedale.web.guard import Guard, allowed_hosts
from dedale.web.render import lang_of, problem, refusal, status_of
from dedale.web.store import Sessions, Store

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
CACHE_ENTRIES = 400_000  # sessions kept in memory: events and log entries in all (about 1 KiB each)


def create_app(db: Path | str, host: str = "127.0.0.1", allow_hosts: Iterable[str] = ()) -> FastAPI:
    """The app on the sessions' file `db` (held by this app alone until it shuts down), answering the
    loopback names, `host` and `allow_hosts` (see `guard.py`). The sessions in play stay in memory, up to
    `CACHE_ENTRIES` events and log entries in all (the largest sessions the limits allow hold 10,000 to
    20,000); the others are replayed when asked for."""
    store = Store(db)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        store.open()  # again, when the app was stopped and is started anew
        yield
        store.close()  # the file is free for another server

    # No /docs nor /redoc: their pages load scripts from a CDN, and nothing is served from outside the package.
    app = FastAPI(title="Dédale", version=__version__, docs_url=None, redoc_url=None, lifespan=lifespan,
                  description="Procedural tabletop systems: sessions, choices, the autopilot, exports.")
    app.state.sessions = Sessions(store, service.build, cache_entries=CACHE_ENTRIES)
    app.state.sessions.bring_up_to_date()  # once: a file's sessions of before decisions were events, as today's
    app.state.secret = store.secret()
    app.state.watchers = service.Places(service.MAX_WATCHERS, service.WATCHER_SHARE)
    app.add_middleware(Guard, hosts=allowed_hosts(host, allow_hosts), refuse=refusal, secret=app.state.secret)
    static = resources.files("dedale.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        """What a browser asks for on every page, whatever the page links to."""
        return Response(static.joinpath("favicon.svg").read_bytes(), media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=86400"})

    @app.exception_handler(DedaleError)
    def refused(request: Request, error: DedaleError) -> Response:
        """Bad input: a clear message, 400 (or the status its kind calls for), never a traceback."""
        return refusal(request, error, status_of(error))

    @app.exception_handler(RequestValidationError)
    def malformed(request: Request, error: RequestValidationError) -> Response:
        """A request the declared types refuse: 422, each field named with its problem (never echoing what
        was sent: it may not even be printable)."""
        problems = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in error.errors()]
        message = "; ".join(f"{'.'.join(map(str, p['loc'][1:])) or p['loc'][0]}: {p['msg']}" for p in problems)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message, "detail": problems}, status_code=422)
        return problem(request, message, 422)

    @app.exception_handler(HTTPException)
    def http_error(request: Request, error: HTTPException) -> Response:
        """Starlette's own refusals (no such page, a method a path does not take) in the app's words; a 405
        names every method the path takes (several routes may share it)."""
        lang = lang_of(request)
        if error.status_code == 405:
            allowed = _methods(app, request.scope)
            return problem(request, t("error.method", lang, value=request.method, accepted=", ".join(allowed)), 405,
                           {"Allow": ", ".join(allowed)})
        if error.status_code == 404:
            return problem(request, t("error.not_found", lang, value=request.url.path), 404)
        return problem(request, str(error.detail), error.status_code, dict(error.headers or {}))

    return app


def _methods(app: FastAPI, scope: Scope) -> list[str]:
    """The methods some route takes at this request's path."""
    return [method for method in METHODS
            if any(route.matches({**scope, "method": method})[0] is Match.FULL for route in app.router.routes)]

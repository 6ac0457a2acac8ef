"""The web app: `create_app(db)` gives the FastAPI application; `dedale serve` runs it."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exception_handlers import request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from dedale import __version__
from dedale.core.errors import DedaleError
from dedale.core.store import Sessions, Store
from dedale.web import api, pages, service
from dedale.web.render import lang_of, page

NOT_FOUND = {"error.no_session", "error.system"}


def create_app(db: Path | str, cache_size: int = 256) -> FastAPI:
    # No /docs nor /redoc: their pages load scripts from a CDN, and nothing is served from outside the package.
    app = FastAPI(title="Dédale", version=__version__, docs_url=None, redoc_url=None,
                  description="Procedural tabletop systems: sessions, choices, the autopilot, exports.")
    app.state.sessions = Sessions(Store(db), service.build, cache_size)
    static = resources.files("dedale.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)

    @app.exception_handler(DedaleError)
    def refused(request: Request, error: DedaleError) -> Response:
        """Bad input: a clear message, 400 (404 for what does not exist), never a traceback."""
        status = 404 if error.key in NOT_FOUND else 400
        message = error.message(lang_of(request))
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=status)
        return page(request, "error.html", {"message": message}, status)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, error: RequestValidationError) -> Response:
        """A request the pages' or the API's declared types refuse: 422, each field named with its problem."""
        if request.url.path.startswith("/api/"):
            return await request_validation_exception_handler(request, error)
        problems = "; ".join(f"{'.'.join(map(str, e['loc'][1:])) or e['loc'][0]}: {e['msg']}" for e in error.errors())
        return page(request, "error.html", {"message": problems}, 422)

    return app

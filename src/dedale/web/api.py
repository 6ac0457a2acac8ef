"""The JSON API (`/api/...`, described at `/openapi.json`): the same calls the pages make."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Request, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from dedale.core.errors import DedaleError
from dedale.core.jsontext import parse_json
from dedale.core.params import fields_of, json_type
from dedale.core.seeds import MAX_SHORT_SEED
from dedale.systems import names, system
from dedale.web import forms, seats, service
from dedale.web.render import lang_of
from dedale.web.store import Sessions
from dedale.zombstone.hands import FACES, HANDS, POTENTIALS


class StrictJson(Request):
    """A request whose JSON body is read as strictly as an uploaded file (`core.jsontext`), once: a body
    FastAPI's plain `json.loads` would let through (a lone surrogate, `NaN`, 4,000 digits, nesting 1,000
    deep) is a 400 naming the problem, before anything else sees it. Read in the thread pool: a document of a
    few megabytes takes a good part of a second, which on the event loop every other request would wait for."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                self._json = await run_in_threadpool(parse_json, await self.body(), "body")
            except DedaleError as error:
                raise HTTPException(400, error.message(lang_of(self))) from None
        return self._json


class StrictJsonRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handle(StrictJson(request.scope, request.receive))

        return strict


class Problem(BaseModel):
    error: str = Field(description="What was wrong, and what is accepted, in the client's language")


def _refusals(statuses: dict[int, str]) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": Problem, "description": text} for status, text in statuses.items()}


# Every answer the API may give besides its success, documented where it can happen (a route's own 403 says
# every reason it has: it replaces the one of `ANY`).
ANY = _refusals({400: "Bad input, or a Host this server does not answer to",
                 403: "Asked for by another site's page (its Origin, Referer or Sec-Fetch-Site)",
                 503: "The server is busy: every connection it holds is in use (try again in a second)"})
CHANGE = _refusals({403: "A change sent from another site's page (its Origin, Referer or Sec-Fetch-Site)",
                    413: "A body larger than the limit (64 KiB; an upload 8 MiB)"})
SESSION = _refusals({403: "A linked game asked for without a seat's token (X-Seat-Token, or its link's cookie), "
                          "or by another site's page",
                     404: "No such session"})
FIELDS = _refusals({422: "A field or a parameter the operation does not have, or of the wrong type"})
STEP = {**CHANGE, **SESSION, **_refusals({
    403: "Not a seat that may play this linked game (its token as X-Seat-Token: a spectator's watches), or a change "
         "from another site's page",
    409: "The session changed meanwhile (another writer on its database), or a game for two browsers waits for "
         "its second seat (nothing is dealt until it joins)"})}
SEATED = _refusals({409: "A game for two browsers waiting for its second seat: nothing is dealt until it joins"})
CREATE = {**CHANGE, **_refusals({422: "A field or a parameter the system does not have, or of the wrong type"})}

router = APIRouter(prefix="/api", tags=["api"], responses=ANY, route_class=StrictJsonRoute)


class Strict(BaseModel):
    # A misspelt field is an error, not a default; a value of the wrong JSON type too (true is not the seed 1,
    # nor "yes" true), as the schema says.
    model_config = ConfigDict(extra="forbid", strict=True)


class Session(BaseModel):
    """A session's state, as the request's seat may see it (more fields than these, by system)."""

    model_config = ConfigDict(extra="allow")
    id: str = Field(description="The session's id, for `/api/sessions/{session_id}` and the calls under it")
    system: str
    name: str
    seed: int | str | None = Field(description="A short seed (a number), or a long one (its text: 26 characters of "
                                   "Crockford's base 32, grouped); null while the game hides it from this seat")
    over: bool
    steps: int


class Created(Session):
    """A new session's state (as `GET /api/sessions/{id}` gives it), with the owner's token, given only here."""

    owner_token: str = Field(description="The owner's token, shown once (only its hash is kept): sent as the "
                             "X-Seat-Token header, it renames, deletes and makes links, and in a linked game plays "
                             "seat 0")
    owner_url: str = Field(description="The owner's link: opened in a browser, it makes that browser an owner")
    seat_token: str | None = Field(default=None, description="A linked game's: the owner's token again, seat 0's")


# A new session: its state, id first, documented for the clients (and fuzzers) that chain calls by the schema.
CREATED: dict[int | str, dict[str, Any]] = {201: {"model": Created, "description": "The new session"}}


def _registry_systems(schema: dict[str, Any]) -> None:
    schema["enum"] = names()  # the registry's systems when the API is described, not when this was imported


def _params_by_system(schema: dict[str, Any]) -> None:
    """Each system's parameters, as the server reads them: their JSON types, bounds and words."""
    schema["allOf"] = [{"if": {"properties": {"system": {"const": name}}, "required": ["system"]},
                        "then": {"properties": {"params": system(name).params.form_schema()}}} for name in names()]


class NewSession(Strict):
    model_config = ConfigDict(json_schema_extra=_params_by_system)  # with Strict's own
    system: str = Field(max_length=100, json_schema_extra=_registry_systems)
    params: dict[str, Any] = Field(default_factory=dict, description="The system's fields, as its form names them")
    # < 2**64 rather than <= MAX_SHORT_SEED: the OpenAPI document writes bounds as floats, and a float holds 2**64
    # exactly, not 2**64 - 1 (the schema would let 2**64 through)
    seed: Annotated[int, Field(ge=0, lt=MAX_SHORT_SEED + 1)] | Annotated[str, Field(max_length=60)] | None = Field(
        default=None, description="A short seed (a number), or a long one as Dédale writes it (its text). Not "
        "given: a long seed of 130 random bits, which keeps the game's secrets (a seed given keeps none from "
        "whoever knows it; a game for two browsers refuses one)")
    table_dice: bool = False
    lang: Literal["en", "fr"] = Field(default="en", description="The language of this answer's words (and of the "
                                      "default name): the session itself has none")
    name: str = Field(default="", max_length=service.MAX_NAME)
    autopilot: bool = Field(default=False, description="Let the autopilot play to the end at once")
    seating: Literal["solo", "hot-seat", "linked"] = Field(
        default="solo", description="One player; two on one screen; or through seat links (the creator, its "
        "owner, is seat 0)")

    @field_validator("seed", mode="before")
    @classmethod
    def _one_kind_of_number(cls, value: Any) -> Any:
        """JSON has one kind of number: 5.0 is the whole number 5, as the schema's "integer" says; a seed is such
        a number, or a seed's text ("5", or a long seed's 26 characters), never true nor 5.5 (what the text says
        is checked when the game is made: `core.seeds`)."""
        value = int(value) if isinstance(value, float) and value.is_integer() else value
        if value is None or isinstance(value, str) or (
                isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SHORT_SEED):
            return value
        raise PydanticCustomError("seed_type", "a seed is a whole number from 0 to {high}, or a seed's text",
                                  {"high": MAX_SHORT_SEED})

    @field_validator("system")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in names():
            raise ValueError(f"not a system; use one of {', '.join(names())}")
        return value

    @field_validator("params")
    @classmethod
    def _typed(cls, values: dict[str, Any], info: ValidationInfo) -> dict[str, Any]:
        """Each parameter in its JSON type (null: its default); a name the system does not have is refused
        when the parameters are read."""
        if info.data.get("system") in names():
            fields = {field.option: field for field in fields_of(system(info.data["system"]).params)}
            for name, value in values.items():
                if name in fields and value is not None and json_type(value) != fields[name].json_type():
                    raise PydanticCustomError("param_type", "{param} takes a JSON {accepted}, not a JSON {found}",
                                              {"param": name, "accepted": fields[name].json_type(),
                                               "found": json_type(value)})
        return values


class LinkBody(Strict):
    role: Literal["seat1", "player", "spectator", "spectator_gm", "owner"]


OWNER = {**CHANGE, **SESSION, **_refusals({403: "Not the owner's request (its browser, or its token as X-Seat-Token), "
                                                 "or a change from another site's page"})}


class StepBody(Strict):
    choice: str = Field(max_length=200)


class AutopilotBody(Strict):
    to_end: bool = False


class RenameBody(Strict):
    name: str = Field(min_length=1, max_length=service.MAX_NAME)


def _sessions(request: Request) -> Sessions:
    return request.app.state.sessions


def _state(request: Request, session_id: str, lang: str | None = None) -> dict[str, Any]:
    """A session's state as the request's seat may see it, its words in `lang` or the client's language (a game
    for two browsers waiting for its second seat: that it waits)."""
    sessions = _sessions(request)
    record = sessions.store.record(session_id)
    seat = seats.seat_of(request, sessions, session_id, record.seating)
    if record.waiting and seat == 1:  # the second player sits down: the game is dealt
        sessions.store.set_seated(session_id)
    elif record.waiting:
        return service.waiting_state(record, seats.rules_seat(seat))
    session = sessions.get(session_id)
    return service.state(session, session_id, record.name, lang or lang_of(request), seats.rules_seat(seat),
                         seats.held_view(session, seat))


@router.get("/systems")
def systems(request: Request) -> dict[str, Any]:
    """The systems one can play, with their fields and defaults."""
    return {name: [{key: field[key] for key in ("name", "kind", "default", "low", "high", "options")}
                   for field in forms.form(name, lang_of(request))] for name in names()}


@router.post("/sessions", status_code=201, response_model=None, responses={**CREATE, **CREATED})
def create_session(request: Request, response: Response, body: NewSession) -> dict[str, Any]:
    """A new session, owned by the request: its answer carries the owner's token, to send as the `X-Seat-Token`
    header (a request from a browser also makes that browser an owner, by a ring of its own: `seats.py`)."""
    owners, token = seats.creator(request)
    session_id = service.create(_sessions(request), body.system, body.params, body.seed, body.table_dice,
                                body.lang, body.name, body.autopilot, strict=True, seating=body.seating, owners=owners)
    seats.own_in_browser(request, response, _sessions(request), session_id)
    return _made(request, session_id, token, body.lang)


def _made(request: Request, session_id: str, token: str, lang: str | None = None) -> dict[str, Any]:
    """A new session as its owner sees it, with the owner's token (`Created`)."""
    sessions = _sessions(request)
    record = sessions.store.record(session_id)
    linked = record.seating == "linked"
    if record.waiting:
        shown = service.waiting_state(record, 0)
    else:
        shown = service.state(sessions.get(session_id), session_id, record.name, lang or lang_of(request),
                              0 if linked else None)
    return {**shown, "owner_token": token, "owner_url": f"/join/{session_id}/{token}",
            **({"seat_token": token} if linked else {})}


@router.get("/sessions")
def list_sessions(request: Request) -> list[dict[str, Any]]:
    """The saved sessions; a seed only where it hides nothing from the request (`service.listed_seed`)."""
    records = _sessions(request).store.list()
    mine = seats.administered(request, _sessions(request), (r.id for r in records))
    return [{"id": r.id, "system": r.system, "name": r.name, "steps": r.steps, "over": r.over, "created": r.created,
             "updated": r.updated, "seed": service.listed_seed(r, r.id in mine)} for r in records]


@router.get("/sessions/{session_id}", responses=SESSION)
@service.one_at_a_time
def get_session(request: Request, session_id: str) -> dict[str, Any]:
    return _state(request, session_id)


@router.post("/sessions/{session_id}/step", responses={**STEP, **FIELDS})
@service.one_at_a_time
def step(request: Request, session_id: str, body: StepBody) -> dict[str, Any]:
    sessions = _sessions(request)
    seat = seats.rules_seat(seats.may_play(request, sessions, session_id))
    service.step(sessions, session_id, body.choice, seat)
    return _state(request, session_id)


@router.post("/sessions/{session_id}/autopilot", responses={**STEP, **FIELDS})
@service.one_at_a_time
def autopilot(request: Request, session_id: str, body: AutopilotBody) -> dict[str, Any]:
    sessions = _sessions(request)
    seat = seats.rules_seat(seats.may_play(request, sessions, session_id))
    service.autopilot(sessions, session_id, body.to_end, seat)
    return _state(request, session_id)


@router.post("/sessions/{session_id}/undo", responses=STEP)
@service.one_at_a_time
def undo(request: Request, session_id: str) -> dict[str, Any]:
    sessions = _sessions(request)
    seat = seats.rules_seat(seats.may_play(request, sessions, session_id))
    service.undo(sessions, session_id, seat)
    return _state(request, session_id)


@router.post("/sessions/{session_id}/links", status_code=201, responses={**OWNER, **FIELDS, **_refusals({
    400: "Bad input, or a link that would keep something from whoever opens it in a game whose seed was chosen "
         "(whoever knows that seed can remake all of it)"})})
@service.one_at_a_time
def links(request: Request, session_id: str, body: LinkBody) -> dict[str, Any]:
    """A new link, made by the owner: for the other player of a two-sided game (`seat1`), another player of a
    game with one side (`player`, who chooses but does not administer), a spectator, or the owner itself
    (`owner`, for another browser or program); the token is shown once (only its hash is kept)."""
    token = seats.share(request, _sessions(request), session_id, body.role)
    return {"role": body.role, "token": token, "url": f"/join/{session_id}/{token}"}


@router.patch("/sessions/{session_id}", responses={**OWNER, **FIELDS})
@service.one_at_a_time
def rename(request: Request, session_id: str, body: RenameBody) -> dict[str, Any]:
    """The owner's."""
    seats.check_owner(request, _sessions(request), session_id)
    _sessions(request).store.rename(session_id, service.check_name(body.name))
    return _state(request, session_id)


@router.delete("/sessions/{session_id}", status_code=204, responses=OWNER)
@service.one_at_a_time
def delete(request: Request, session_id: str) -> Response:
    """The owner's."""
    sessions = _sessions(request)
    seats.check_owner(request, sessions, session_id)
    sessions.store.delete(session_id)
    sessions.forget(session_id)
    return Response(status_code=204)


ExportFormat = Literal["json", "svg", "png", "pdf", "tiles.pdf", "txt", "dot", "dd2vtt", "uvtt", "foundry.json",
                       "foundry.zip"]
GridPx = Annotated[int | None, Query(description="Virtual tabletops: the picture's pixels a square (or a hex's "
                                                 "height), 20 to 400; 100 by default, as Foundry and the importers")]
SceneImage = Annotated[Literal["png", "webp"] | None, Query(description="Foundry scenes: the picture's format")]
ViewName = Annotated[Literal["gm", "party", "player"], Query(
    description="gm (everything) or party (what the party has discovered, without the GM's key; player, its "
                "former name, is still accepted)")]


@router.get("/sessions/{session_id}/export/{fmt}", responses={**SESSION, **FIELDS, **SEATED})
@service.one_at_a_time
def export(request: Request, session_id: str, fmt: ExportFormat, view: ViewName = "gm", grid_px: GridPx = None,
           image: SceneImage = None) -> Response:
    sessions = _sessions(request)
    session, seat, held, record = seats.reader(request, sessions, session_id)
    options = service.tabletop(session, record.name, held or view, seat, grid_px, image)
    content, media = service.export(session, fmt, options, lang=lang_of(request), view=held or view, seat=seat)
    name = service.download_name(session, record.name, fmt, held or view, seat)
    return Response(content, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.post("/upload", status_code=201, response_model=None, responses={**CHANGE, **FIELDS, **CREATED})
def upload(request: Request, response: Response, document: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
    """Continue a saved document (at most 8 MiB, UTF-8, UTF-16 or UTF-32): it is replayed from its events,
    checked, and kept as a new session, owned by the request (as `POST /api/sessions`)."""
    owners, token = seats.creator(request)
    session_id = service.upload_document(_sessions(request), document, lang_of(request), owners)
    seats.own_in_browser(request, response, _sessions(request), session_id)
    return _made(request, session_id, token)


def _one_of(words: tuple[str, ...]) -> Any:
    """A query parameter that is one of `words` (the zombstone package's declaration)."""
    return Query(pattern="^(" + "|".join(words) + ")$", description="One of: " + ", ".join(words))


Potential = Annotated[int, Query(ge=POTENTIALS[0], le=POTENTIALS[-1])]


@router.get("/zombstone/odds")
def zombstone_odds(potential: Potential, objective: Literal["target", "rank"] = "rank",
                   target: Annotated[str | None, _one_of(HANDS[1:])] = None,
                   card: Annotated[str | None, _one_of(FACES)] = None) -> dict[str, Any]:
    from dedale.web.zombstone import odds_document

    return odds_document(potential, objective, target, card)


@router.get("/zombstone/duel-odds")
def zombstone_duel(attacker: Potential, defender: Potential,
                   melee: bool = False, cover: Literal["light", "heavy"] | None = None,
                   reaction: Literal["dodge", "return"] = "dodge", attacker_weapon: str | None = None,
                   defender_weapon: str | None = None,
                   objective: Literal["win", "damage"] = "win") -> dict[str, Any]:
    from dedale.web.zombstone import duel_document

    return duel_document(attacker, defender, melee, cover, reaction, attacker_weapon, defender_weapon, objective)

"""The HTML pages: server-rendered, with a little htmx (a click swaps the play panel; without JavaScript
the same forms post and redirect)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Depends, Form, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from dedale.core.errors import DedaleError
from dedale.core.seeds import seed_text
from dedale.core.session import SPECTATOR, Session
from dedale.i18n import LANGUAGES, t
from dedale.systems import names
from dedale.systems import system as find
from dedale.web import csrf, forms, logview, seats, service, views
from dedale.web.render import lang_of, page, status_of
from dedale.web.store import Record, Sessions, new_token

# Every change a page makes carries the browser's token (a GET changes nothing: a link from anywhere is safe).
router = APIRouter(include_in_schema=False, dependencies=[Depends(csrf.check)])


def _sessions(request: Request) -> Sessions:
    return request.app.state.sessions


def _after(request: Request, session: Session, session_id: str, seat: int | None, record: Record, view: str,
           ready: int | None = None) -> Response:
    """The play panel for htmx (the session as this request left it, in the view it was played in), a redirect
    to the play page otherwise; on a shared screen, the seat that just played goes on seeing its view while it
    is still its turn (`ready`)."""
    if request.headers.get("HX-Request"):
        return _panel(request, session, session_id, seat, record, ready, view)
    query = {**({} if view == "gm" else {"view": view}), **({} if ready is None else {"ready": ready})}
    return RedirectResponse(f"/play/{session_id}" + (f"?{urlencode(query)}" if query else ""), status_code=303)


def _playing(request: Request, sessions: Sessions, session_id: str, view: str) -> tuple[Record, int | None, str]:
    """The session's record, the seat (as the rules see it) of a request that changes the session, and the view
    it plays in: the one it is held to (a co-op game's other player of a map: the party's), else the one its
    page shows."""
    record = sessions.store.record(session_id)
    seat = seats.may_play(request, sessions, session_id, record.seating)
    session = sessions.get(session_id)
    return record, seats.rules_seat(seat), seats.held_view(session, seat) or service.view_of(session, view)


def panel(request: Request, session_id: str, ready: int | None = None, view: str = "gm") -> HTMLResponse:
    """The panel a page fetches again when the game changed: as its seat sees it, in the view the page shows
    (a spectator held to the party view sees that one, live too); a game still waiting for its second seat
    says so."""
    sessions = _sessions(request)
    record = sessions.store.record(session_id)
    seat = seats.seat_of(request, sessions, session_id, record.seating)
    if record.waiting:
        return page(request, "panel.html", {**views.waiting(record, seats.rules_seat(seat), lang_of(request)),
                                            "oob": True, "revision": _revision(request, session_id)})
    session = sessions.get(session_id)
    held = seats.held_view(session, seat)
    return _panel(request, session, session_id, seats.rules_seat(seat), record, ready,
                  held or service.view_of(session, view))


def _panel(request: Request, session: Session, session_id: str, seat: int | None, record: Record,
           ready: int | None, view: str = "gm") -> HTMLResponse:
    context = views.context(session, session_id, lang_of(request), view, seat=seat, seating=record.seating,
                            ready=ready)
    named = _named(context, record)
    return page(request, "panel.html", {**named, "oob": True,  # with the header's seed and Another one
                                         "revision": _revision(request, session_id)})


def _revision(request: Request, session_id: str) -> int:
    """What a page following the game compares with the live stream's `change` to know whether it shows the
    game as it is: the stored session's revision, one a change. (Not the number of events: an AI's decision
    that a seat may not know of is an event too.)"""
    return _sessions(request).store.version(session_id).revision


def _named(context: dict[str, Any], record: Record) -> dict[str, Any]:
    """Another one keeps the name its player gave."""
    if context.get("regenerate") is None:
        return context
    return {**context, "regenerate": {**context["regenerate"], "name": service.given_name(record)}}


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return page(request, "home.html", {"systems": names()})  # each card's Generate: `create`, autopilot on


@router.get("/lang/{code}")
def set_language(code: str, next: str = "/") -> Response:
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    if code in LANGUAGES:
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="lax")
    return response


@router.get("/new/{system}", response_class=HTMLResponse)
def new(request: Request, system: str) -> HTMLResponse:
    if system not in names():
        raise DedaleError("error.system", value=system, accepted=", ".join(names()))
    return _form(request, system)


def _form(request: Request, system: str, values: dict[str, str] | None = None,
          refused: DedaleError | None = None) -> HTMLResponse:
    """The form of a new game: empty, or as it was sent, with the one line that says why it was refused."""
    fields = forms.form(system, lang_of(request))
    if values:
        fields = [{**field, "default": _sent(field, values)} for field in fields]
    return page(request, "new.html", {"system": system, "fields": fields, "values": values or {},
                                      "table_mode": find(system).rules.table_mode,
                                      "seatings": seats.SEATINGS if forms.two_sided(system) else (),
                                      "refused": refused and refused.message(lang_of(request))},
                status_of(refused) if refused else 200)


def _sent(field: dict[str, Any], values: dict[str, str]) -> Any:
    sent = values.get(field["name"], field["default"])
    return sent == "1" if field["kind"] == "bool" else sent


@router.post("/new/{system}")
async def create(request: Request, system: str) -> Response:
    """The form read here, its session made in the thread pool as any other request's work: on the event loop
    it would hold every other player's click until it is made (a key-lock diagram at the web's limits takes a
    good part of a second)."""
    form = await request.form()
    values = {key: form.getlist(key)[-1] for key in form if key != csrf.FIELD}  # a checkbox follows its hidden "0"
    seating = str(values.get("seating", "solo"))
    response = RedirectResponse("/", status_code=303)
    try:
        session_id = await run_in_threadpool(
            _made_by, request, response, service.create, _sessions(request), system,
            {key: value for key, value in values.items() if key != "seating"}, values.get("seed"),
            values.get("table_dice") == "1", lang_of(request), str(values.get("name", "")),
            autopilot=values.get("autopilot") == "1", seating=seating)
    except DedaleError as refused:
        if system not in names():
            raise
        return _form(request, system, {key: str(value) for key, value in values.items()}, refused)
    response.headers["location"] = f"/play/{session_id}"
    return response


def _made_by(request: Request, response: Response, make: Callable[..., str], *args: Any, **kwargs: Any) -> str:
    """A session a page makes, owned by its browser: by a ring minted for it now (`seats.claim`), whose cookie
    `response` sets; the ring is kept once the session is made (a refused one changes nothing)."""
    ring = new_token()
    session_id = make(*args, **kwargs, owners=[ring])
    seats.claim(request, response, _sessions(request), ring)
    return session_id


@router.get("/play/{session_id}", response_class=HTMLResponse)
@service.one_at_a_time
def play(request: Request, session_id: str, view: str = "gm", link: str = "", role: str = "",
         ready: int | None = None) -> HTMLResponse:
    sessions = _sessions(request)
    record = sessions.store.record(session_id)
    seat = seats.seat_of(request, sessions, session_id, record.seating)
    owner = seats.is_owner(request, sessions, session_id)
    if record.waiting:
        waiting = {**views.waiting(record, seats.rules_seat(seat), lang_of(request)), "name": record.name,
                   "roles": service.roles(None, record, owner), "seating": record.seating,
                   "revision": _revision(request, session_id)}
        return page(request, "play.html", {**waiting, **_link(request, link, role)})
    session = sessions.get(session_id)
    held = seats.held_view(session, seat)
    view = held or service.view_of(session, view)
    seat = seats.rules_seat(seat)
    context: dict[str, Any] = {**views.context(session, session_id, lang_of(request), view, seat, record.seating,
                                               ready),
                               "name": record.name, "formats": service.downloads(session, lang_of(request)),
                               "view": view, "drawing": [name for name, _ in find(session.system).drawing],
                               "tabletops": [f for f in service.formats_of(session) if f in service.TABLETOPS],
                               "views": service.has_party_view(session) and held is None, "seating": record.seating,
                               "roles": service.roles(session, record, owner), **_link(request, link, role),
                               "revision": _revision(request, session_id)}
    context = _named(context, record)
    if context["seed"] is not None and session.secret is None:  # a permalink remakes the game from its seed
        context["permalink"] = f"/permalink/{session.system}?" + urlencode(
            {"seed": seed_text(session.seed), "params": json.dumps(session.params.to_json(), separators=(",", ":"))})
    return page(request, "play.html", context)


def _link(request: Request, link: str, role: str) -> dict[str, Any]:
    """A link just made, shown once to whoever asked for it."""
    if link.startswith("/join/") and link.isascii() and len(link) < 120:
        return {"link": str(request.base_url).rstrip("/") + link, "owner_link": role == "owner"}
    return {}


@router.get("/play/{session_id}/panel", response_class=HTMLResponse)
@service.one_at_a_time
def play_panel(request: Request, session_id: str, ready: int | None = None, view: str = "gm") -> HTMLResponse:
    return panel(request, session_id, ready=ready, view=view)


@router.get("/play/{session_id}/screen", response_class=HTMLResponse)
@service.one_at_a_time
def screen(request: Request, session_id: str) -> HTMLResponse:
    """The picture alone, full screen, for a second screen the players look at: what every one of them may
    see (the party view of a map; neither side's secrets), following the game live."""
    return page(request, "screen.html", _screen(request, session_id))


@router.get("/play/{session_id}/screen/picture", response_class=HTMLResponse)
@service.one_at_a_time
def screen_picture(request: Request, session_id: str) -> HTMLResponse:
    return page(request, "screen_picture.html", _screen(request, session_id))


def _screen(request: Request, session_id: str) -> dict[str, Any]:
    sessions = _sessions(request)
    seats.seat_of(request, sessions, session_id)  # a linked game's screen needs one of its links, as its pages
    session = sessions.get(session_id)
    found = find(session.system)
    shown = session.seat_json(SPECTATOR)  # what neither seat could keep secret
    if found.party_view is not None:
        shown = found.in_view(shown, "party")
    return {"id": session_id, "name": sessions.store.record(session_id).name,
            "revision": _revision(request, session_id),
            "picture": found.export(shown, ".svg", {}, lang_of(request)).decode("utf-8")}


@router.get("/play/{session_id}/log", response_class=HTMLResponse)
@service.one_at_a_time
def log(request: Request, session_id: str, page_number: int = Query(1, alias="page", ge=1, le=1_000_000)
        ) -> HTMLResponse:
    """The whole log, a page at a time, grouped by the choices made."""
    sessions = _sessions(request)
    session, seat, held, record = seats.reader(request, sessions, session_id)
    if held is not None:
        raise DedaleError("error.party_log")
    return page(request, "log.html", {"id": session_id, "name": record.name,
                                      "log": logview.log_page(session, lang_of(request), page_number, seat)})


@router.get("/play/{session_id}/log.txt")
@service.one_at_a_time
def log_text(request: Request, session_id: str) -> Response:
    sessions = _sessions(request)
    session, seat, held, record = seats.reader(request, sessions, session_id)
    if held is not None:
        raise DedaleError("error.party_log")
    name = quote(service.download_name(session, record.name, "txt", seat=seat, part="log"))
    return Response(logview.log_text(session, lang_of(request), seat), media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'inline; filename="{name}"'})


@router.get("/play/{session_id}/live")
async def live(request: Request, session_id: str) -> Response:
    """Server-sent events: `change` when the session changes (another player chose), for the page to fetch
    its panel again."""
    await run_in_threadpool(seats.seat_of, request, _sessions(request), session_id)
    return await service.live(request, _sessions(request), session_id)


@router.get("/play/{session_id}/revision")
@service.one_at_a_time
def revision(request: Request, session_id: str) -> Response:
    """The session's revision, as the live stream's `change` says it: what a page refused a place among those
    following games live asks every 2 s instead (`static/app.js`)."""
    seats.seat_of(request, _sessions(request), session_id)
    return Response(str(_revision(request, session_id)), media_type="text/plain",
                    headers={"Cache-Control": "no-store"})


@router.post("/play/{session_id}/share")
@service.one_at_a_time
def share(request: Request, session_id: str, role: str = Form(max_length=20)) -> Response:
    response = RedirectResponse("/", status_code=303)
    token = seats.share(request, _sessions(request), session_id, role, response)
    response.headers["location"] = f"/play/{session_id}?" + urlencode({"link": f"/join/{session_id}/{token}",
                                                                       "role": role})
    return response


@router.get("/join/{session_id}/{token}")
@service.one_at_a_time
def join(request: Request, session_id: str, token: str) -> Response:
    """A seat's or the owner's link: what it opens kept for this browser (`seats.open_link`), then the game."""
    response = RedirectResponse(f"/play/{session_id}", status_code=303)
    seats.open_link(request, _sessions(request), session_id, token, response)
    return response


@router.post("/play/{session_id}/step")
@service.one_at_a_time
def step(request: Request, session_id: str, choice: str = Form(max_length=200), view: str = "gm") -> Response:
    sessions = _sessions(request)
    record, seat, view = _playing(request, sessions, session_id, view)
    to_act = sessions.get(session_id).seat_to_act() if record.seating == "hot-seat" else None
    return _after(request, service.step(sessions, session_id, choice, seat), session_id, seat, record, view, to_act)


@router.post("/play/{session_id}/auto")
@service.one_at_a_time
def auto(request: Request, session_id: str, to: str = Form("one"), view: str = "gm") -> Response:
    sessions = _sessions(request)
    record, seat, view = _playing(request, sessions, session_id, view)
    return _after(request, service.autopilot(sessions, session_id, to == "end", seat), session_id, seat, record,
                  view)


@router.post("/play/{session_id}/undo")
@service.one_at_a_time
def undo(request: Request, session_id: str, view: str = "gm") -> Response:
    sessions = _sessions(request)
    record, seat, view = _playing(request, sessions, session_id, view)
    return _after(request, service.undo(sessions, session_id, seat), session_id, seat, record, view)


@router.get("/play/{session_id}/export.{fmt}")
@service.one_at_a_time
def export(request: Request, session_id: str, fmt: str, view: str = "gm") -> Response:
    sessions = _sessions(request)
    session, seat, held, record = seats.reader(request, sessions, session_id)
    view = held or view
    drawing = {name: True for name, _ in find(session.system).drawing if request.query_params.get(name)}
    options = {**drawing, **service.tabletop(session, record.name, view, seat, request.query_params.get("grid_px"),
                                             request.query_params.get("image"))}
    content, media = service.export(session, fmt, options, lang=lang_of(request), view=view, seat=seat)
    name = quote(service.download_name(session, record.name, fmt, view, seat))
    return Response(content, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'})


SORTS = {"played": lambda r: -r.updated, "created": lambda r: -r.created, "system": lambda r: (r.system, -r.updated),
         "name": lambda r: (r.name.casefold(), -r.updated)}


@router.get("/sessions", response_class=HTMLResponse)
def saved(request: Request, system: str = Query("", max_length=40), sort: str = Query("played", max_length=20)
          ) -> HTMLResponse:
    """The saved sessions, the last played first (or by `sort`), of one system or all."""
    if system and system not in names():
        raise DedaleError("error.web_list", value=system, what=t("web.list_filter", lang_of(request)),
                          accepted=", ".join(names()))
    if sort not in SORTS:
        raise DedaleError("error.web_list", value=sort, what=t("web.list_sort", lang_of(request)),
                          accepted=", ".join(SORTS))
    sessions = _sessions(request)
    every = sessions.store.list()
    records = sorted((r for r in every if not system or r.system == system), key=SORTS[sort])
    mine = seats.administered(request, sessions, (r.id for r in records))
    return page(request, "sessions.html", {
        "records": records, "any": bool(every), "system": system, "sort": sort, "systems": names(),
        "sorts": list(SORTS), "when": _when, "mine": mine, "joined": seats.joined(request, sessions),
        "seed_of": lambda record: None if service.listed_seed(record, record.id in mine) is None else record.seed})


def _when(moment: float) -> Markup:
    """A date and time, in UTC (the page's script shows it in the reader's own time and language)."""
    at = datetime.fromtimestamp(moment, UTC)
    return Markup('<time datetime="{}">{}</time>').format(at.isoformat(timespec="seconds"),
                                                          at.strftime("%Y-%m-%d %H:%M UTC"))


@router.post("/sessions/{session_id}/rename")
@service.one_at_a_time
def rename(request: Request, session_id: str, name: str = Form(min_length=1, max_length=service.MAX_NAME)) -> Response:
    seats.check_owner(request, _sessions(request), session_id)
    _sessions(request).store.rename(session_id, service.check_name(name))
    return RedirectResponse("/sessions", status_code=303)


@router.post("/sessions/{session_id}/delete")
@service.one_at_a_time
def delete(request: Request, session_id: str) -> Response:
    sessions = _sessions(request)
    seats.check_owner(request, sessions, session_id)
    sessions.store.delete(session_id)
    sessions.forget(session_id)
    return RedirectResponse("/sessions", status_code=303)


@router.get("/upload", response_class=HTMLResponse)
def upload_form(request: Request) -> HTMLResponse:
    return page(request, "upload.html", {})


@router.post("/upload")
async def upload(request: Request, document: UploadFile) -> Response:
    raw = await document.read(service.MAX_UPLOAD + 1)
    response = RedirectResponse("/", status_code=303)
    session_id = await run_in_threadpool(_made_by, request, response, service.upload, _sessions(request), raw,
                                         lang_of(request))  # as create's
    response.headers["location"] = f"/play/{session_id}"
    return response


@router.get("/permalink/{system}", response_class=HTMLResponse)
def permalink(request: Request, system: str, seed: str, params: str = "{}") -> HTMLResponse:
    """What a permalink remakes, and a button to make it: opening a link changes nothing (any page may
    link here), the button's form does."""
    parsed, seed_value = service.permalink_values(system, seed, params)
    return page(request, "permalink.html", {"system": system, "seed": seed_value, "params": params,
                                            "shown": forms.worded(parsed, lang_of(request))})


@router.post("/permalink/{system}")
def make_permalink(request: Request, system: str, seed: str = Form(max_length=40),
                   params: str = Form("{}", max_length=4096)) -> Response:
    parsed, seed_value = service.permalink_values(system, seed, params)
    response = RedirectResponse("/", status_code=303)
    session_id = _made_by(request, response, service.create_from_params, _sessions(request), system, parsed,
                          seed_value, lang_of(request))
    response.headers["location"] = f"/play/{session_id}"
    return response


@router.get("/zombstone", response_class=HTMLResponse)
def zombstone(request: Request, potential: int | None = None, objective: str = "rank", target: str | None = None,
              card: str | None = None, attacker: int | None = None, defender: int | None = None,
              melee: bool = False, cover: str | None = None, reaction: str = "dodge",
              attacker_weapon: str | None = None, defender_weapon: str | None = None) -> HTMLResponse:
    from dedale.web import zombstone as calculator
    from dedale.zombstone.hands import FACES, HANDS, POTENTIALS, check_potential
    from dedale.zombstone.weapons import weapons

    lang = lang_of(request)
    odds = duel = None
    odds_query = {"potential": potential, "objective": objective, "target": target or "", "card": card or ""}
    duel_query = {"attacker": attacker, "defender": defender, "melee": str(melee).lower(), "cover": cover or "",
                  "reaction": reaction, "attacker_weapon": attacker_weapon or "",
                  "defender_weapon": defender_weapon or ""}
    if potential is not None:
        check_potential(potential, "potential")
        odds = calculator.odds_document(potential, objective, target or None, card or None)
    if attacker is not None and defender is not None:
        check_potential(attacker, "attacker")
        check_potential(defender, "defender")
        duel = calculator.duel_document(attacker, defender, melee, cover or None, reaction, attacker_weapon or None,
                                        defender_weapon or None, "win")
    return page(request, "zombstone.html", {
        "odds": odds, "duel": duel, "query": dict(request.query_params), "percent": calculator.percent,
        "fraction": calculator.fraction, "answer": calculator.answer(odds, lang) if odds else None,
        "duel_heading": calculator.duel_heading(duel, lang) if duel else None,
        "weapons": [(w.id, w.label(lang), w.melee) for w in weapons().values()],
        "hands": [(h, t(f"zombstone.hand.{h}", lang)) for h in HANDS[1:]], "faces": [(f, f) for f in FACES],
        "potentials": (POTENTIALS[0], POTENTIALS[-1]),
        "odds_plot": "/zombstone/odds.png?" + urlencode(odds_query),
        "duel_plot": "/zombstone/duel.png?" + urlencode(duel_query)})


@router.get("/zombstone/odds.png")
def zombstone_odds_plot(request: Request, potential: int, objective: str = "rank", target: str | None = None,
                        card: str | None = None) -> Response:
    from dedale.web import zombstone as calculator
    from dedale.zombstone.hands import check_potential

    check_potential(potential, "potential")
    png = calculator.odds_plot(potential, objective, target or None, card or None, lang_of(request))
    return Response(png, media_type="image/png")


@router.get("/zombstone/duel.png")
def zombstone_duel_plot(request: Request, attacker: int, defender: int, melee: bool = False,
                        cover: str | None = None, reaction: str = "dodge", attacker_weapon: str | None = None,
                        defender_weapon: str | None = None) -> Response:
    from dedale.web import zombstone as calculator
    from dedale.zombstone.hands import check_potential

    check_potential(attacker, "attacker")
    check_potential(defender, "defender")
    png = calculator.duel_plot(lang_of(request), attacker, defender, melee, cover or None, reaction,
                               attacker_weapon or None, defender_weapon or None, "win")
    return Response(png, media_type="image/png")

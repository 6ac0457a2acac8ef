"""The registry: each system described once, as a `System` (its parameters, rules, renderers and file
formats, the live picture and text of a session being played, a small game for the tests, its rules page),
built only when asked for. The library, the CLI and the web app loop over it, so a system touches no face.

Dédale's own systems are listed here (`_FACTORIES`), known without any installed metadata; a system from
another package comes from the entry-point group `dedale.systems` of its distribution (docs/architecture.md,
"Adding a system")."""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from dedale.core.documents import DocumentKind
from dedale.core.errors import DedaleError
from dedale.core.extras import need

if TYPE_CHECKING:  # for the types only: --help lists the systems without loading the session machinery
    from dedale.core.params import Declared
    from dedale.core.rules import Choice, Rules
    from dedale.core.tables import TableSet

class Picture(Protocol):
    """What a page shows of a live session, the choices listed marked on it, in a language: drawn on `model`, the
    session's own (the GM's) when None, else one loaded from a view of it (the party's, for who plays in it)."""

    def __call__(self, session: Any, listed: list[Choice], lang: str, model: Any = None) -> str: ...


@dataclass(frozen=True)
class System:
    name: str
    params: type[Declared]
    rules: type[Rules[Any, Any]]  # played by the generic session: `Session(system.rules, params, seed)`
    load: Callable[[Any], Any]  # a result document -> the model the renderers draw
    # extension -> render (model, drawing options, language); documents hold no words, pictures do
    formats: dict[str, Callable[[Any, dict[str, Any], str], bytes]]
    text: Callable[[Any, str], str]  # (model, language) -> the terminal's view
    picture: Picture  # what a page shows of a live session, choices marked on it
    show: Callable[[Any, str], str]  # what the terminal shows of a live session
    tables: Callable[[str | None], TableSet] | None = None  # the player's folder (or None) -> checked tables
    # its documents' shape, declared once (`core.documents`): their JSON, their loading and their JSON Schema
    document: DocumentKind | None = None
    generates: bool = True  # the CLI's `dedale SYSTEM` generates by the autopilot (else: `play` and extras)
    cli: str | None = None  # a module adding commands of its own: `extend(app)`
    drawing: tuple[tuple[str, str], ...] = ()  # options of its pictures: (name, help), e.g. the paper's cards
    details: Callable[[Any, str], str] | None = None  # more for a page to show beside the picture (an analysis)
    hint: str | None = None  # a message key: how to play on its picture (click a hex)
    party_view: Callable[[dict[str, Any]], dict[str, Any]] | None = None  # its party view's fields (core/views)
    # the parameters of a small game, still played through every phase: what the contract tests play
    example: Mapping[str, Any] = field(default_factory=dict)
    # parameters worth a test of their own beside the defaults: small games, each another shape of result
    variants: tuple[Mapping[str, Any], ...] = ()
    rules_page: str | None = None  # its rules page: a file of docs/rules/ for Dédale's own, an address for others
    # its messages by language, nested as in locales/*.toml (`cli.about.NAME`, `web.system.NAME`,
    # `web.about.NAME`, its choices' and log's words): a system from outside brings its own
    words: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def package(self) -> str:
        return self.rules.__module__.rsplit(".", 1)[0]

    def export(self, document: dict[str, Any], ext: str, options: dict[str, Any] | None = None,
               lang: str = "en", view: str = "gm") -> bytes:
        """A result document in a file format, as `view` sees it (the GM's: all of it; the party's: what the
        party has discovered): .json as it is, the others drawn in `lang`."""
        document = self.in_view(document, view)
        if ext == ".json":
            return json_text(document).encode("utf-8")
        seen = "party" if document.get("view") == "party" else "gm"  # a saved party view drawn again stays one
        return self.formats[ext](self.load(document), {**(options or {}), "view": seen}, lang)

    def write(self, path: Path, document: dict[str, Any], ext: str, options: dict[str, Any] | None = None,
              lang: str = "en", view: str = "gm") -> None:
        """`export` into a file, atomically."""
        from dedale.core.files import write_atomic

        write_atomic(path, self.export(document, ext, options, lang, view))

    @property
    def extensions(self) -> list[str]:
        """What its results can be written as: .json (the document itself), then its formats."""
        return [".json", *self.formats]

    def in_view(self, document: dict[str, Any], view: str) -> dict[str, Any]:
        """The document in the GM's view or the party view."""
        from dedale.core.views import in_view

        return in_view(document, view, self.name, self.party_view)

    @property
    def cli_path(self) -> tuple[str, ...]:
        return cli_path(self.name)

    def __post_init__(self) -> None:
        if self.document is None:
            raise TypeError(f"the system {self.name!r} declares no documents: System(..., document=DocumentKind(...))")

    def schema(self) -> str:
        """The JSON Schema of its documents: the result's shape and the envelope's from their declarations
        (`core.documents`), the parameters' from theirs (never written twice)."""
        assert self.document is not None  # `__post_init__`
        return json.dumps(self.document.schema(self.name, self.params.json_schema()), ensure_ascii=False, indent=2)


def json_text(document: dict[str, Any]) -> str:
    """A document's JSON text as the files and the CLI write it (a line of its own)."""
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _crawler() -> System:
    from dedale.crawler.contents import load_tables
    from dedale.crawler.model import DOCUMENT, Dungeon, party_view
    from dedale.crawler.params import CrawlerParams
    from dedale.crawler.session import CrawlerRules
    from dedale.render.crawler_svg import choice_marks, render_svg
    from dedale.render.crawler_text import render_text
    from dedale.render.png import svg_to_png

    def picture(session: Any, listed: list[Choice], lang: str, model: Any = None) -> str:
        dungeon = model or session.rules.dungeon()
        marks = choice_marks(dungeon, [(str(n), c.id, c.label(lang), c.data) for n, c in enumerate(listed, 1)])
        return render_svg(dungeon, marks, lang=lang)

    return System("crawler", CrawlerParams, CrawlerRules, Dungeon.from_json, {
        ".svg": lambda d, _, lang: render_svg(d, lang=lang).encode("utf-8"),
        ".png": lambda d, _, lang: svg_to_png(render_svg(d, lang=lang)),
        ".txt": lambda d, _, lang: render_text(d, lang=lang).encode("utf-8"),
        ".pdf": lambda d, _, lang: _pdf(render_svg(d, lang=lang)),
        ".tiles.pdf": _crawler_pdf,  # to print: the board at 1:1 across A4 pages, after the map on one page
        **_tabletops("crawler_map"),
    }, lambda d, lang: render_text(d, lang=lang), picture,
        lambda s, lang: render_text(s.rules.dungeon(), s.rules.focus(), lang), load_tables, cli="dedale.cli.crawler",
        party_view=party_view, example={"size": "6"}, rules_page="crawler.md", document=DOCUMENT,
        variants=({"size": "6"}, {"size": "2d6", "passed_boss": "reroll", "contents": "dungeon-roll"}))


def _crawler_pdf(dungeon: Any, _: dict[str, Any], lang: str) -> bytes:
    from dedale.render.crawler_pdf import board_pdf  # loads cairo: only when a PDF is asked for

    return board_pdf(dungeon, lang, overview=True)


def _tabletops(plan: str) -> dict[str, Callable[[Any, dict[str, Any], str], bytes]]:
    """Universal VTT (both its extensions), a Foundry scene, and the scene with its picture beside it (a zip),
    from a floor plan (render/vtt.py's `plan`: model, lang -> the plan, its title), its module loaded only when
    a tabletop file is asked for. The options: `view`, `grid_px`, `image`, `name`, and the scene's `file` name
    in the zip."""

    def uvtt(model: Any, options: dict[str, Any], lang: str) -> bytes:
        from dedale.render import vtt

        drawn, title = getattr(vtt, plan)(model, lang)
        return vtt.universal_vtt(drawn, title, vtt.Tabletop.of(options))

    def scene(model: Any, options: dict[str, Any], lang: str) -> tuple[bytes, bytes]:
        from dedale.render import vtt

        drawn, title = getattr(vtt, plan)(model, lang)
        return vtt.foundry_scene(drawn, title, vtt.Tabletop.of(options))

    return {".dd2vtt": uvtt, ".uvtt": uvtt, **_scenes(scene)}


def _scenes(scene: Callable[[Any, dict[str, Any], str], tuple[bytes, bytes]]) -> dict[
        str, Callable[[Any, dict[str, Any], str], bytes]]:
    """A Foundry scene's formats, from `scene(model, options, lang)` -> (scene, picture): the scene with its
    picture in it (.foundry.json), and both as files, the scene referring to the picture (.foundry.zip)."""

    def files(model: Any, options: dict[str, Any], lang: str) -> bytes:
        from dedale.render import vtt

        return vtt.zipped(vtt.scene_files(str(options.get("file") or "scene.foundry.json"),
                                          vtt.Tabletop.of(options).image,
                                          lambda picture: scene(model, {**options, "picture": picture}, lang)))

    return {".foundry.json": lambda model, options, lang: scene(model, options, lang)[0], ".foundry.zip": files}


def _paper() -> System:
    from dedale.paper.contents import load_tables
    from dedale.paper.model import DOCUMENT, PaperMap, party_view
    from dedale.paper.params import PaperParams
    from dedale.paper.session import PaperRules
    from dedale.render.paper_svg import choice_marks, render_svg
    from dedale.render.paper_text import render_text
    from dedale.render.png import svg_to_png

    def picture(session: Any, listed: list[Choice], lang: str, model: Any = None) -> str:
        marks = choice_marks([(str(n), c.id, c.label(lang), c.data) for n, c in enumerate(listed, 1)])
        return render_svg(model or session.rules.paper_map(), lang=lang, marks=marks)

    return System("paper", PaperParams, PaperRules, PaperMap.from_json, {
        ".svg": lambda m, o, lang: render_svg(m, bool(o.get("cards")), lang).encode("utf-8"),
        ".png": lambda m, o, lang: svg_to_png(render_svg(m, bool(o.get("cards")), lang)),
        ".txt": lambda m, _, lang: render_text(m, lang).encode("utf-8"),
        ".pdf": lambda m, o, lang: _pdf(render_svg(m, bool(o.get("cards")), lang)),
        **_tabletops("paper_map"),
    }, render_text, picture,
        lambda s, lang: render_text(s.rules.paper_map(), lang), load_tables,
        drawing=(("cards", "Draw the card that made each feature."),), party_view=party_view,
        example={"max_cards": 12}, rules_page="paper-dungeon.md", document=DOCUMENT,
        variants=({"max_cards": 12}, {"max_cards": 30, "kings": "set-aside"}))


def _hexcrawl() -> System:
    from dedale.hexcrawl.model import DOCUMENT, HexMap, party_view
    from dedale.hexcrawl.params import HexParams
    from dedale.hexcrawl.session import HexcrawlRules
    from dedale.hexcrawl.tables import load_tables
    from dedale.render.hex_svg import render_svg
    from dedale.render.hex_text import render_text

    def picture(session: Any, listed: list[Choice], lang: str, model: Any = None) -> str:
        links = {tuple(c.data["hex"]): (c.id, c.label(lang), str(n))
                 for n, c in enumerate(listed, 1) if c.data.get("kind") == "move"}
        return render_svg(model or session.rules.hex_map(), links, lang)

    def draw(hex_map: Any, options: dict[str, Any], lang: str) -> str:
        return render_svg(hex_map, lang=lang, numbers=not options.get("unnumbered"))

    formats = _drawn(draw, render_text) | _scenes(_hex_scene)
    return System("hexcrawl", HexParams, HexcrawlRules, HexMap.from_json, formats, render_text, picture,
                  lambda s, lang: render_text(s.rules.hex_map(), lang), load_tables, hint="web.click_hex",
                  party_view=party_view, example={"radius": 2}, rules_page="hexcrawl.md", document=DOCUMENT,
                  variants=({"radius": 2}, {"radius": 4, "sites": False}),
                  drawing=(("unnumbered", "Leave out each hex's number (the map's edges keep its column and row)."),))


def _hex_scene(hex_map: Any, options: dict[str, Any], lang: str) -> tuple[bytes, bytes]:
    from dedale.render import vtt  # only when a scene is asked for

    return vtt.hex_scene(hex_map, lang, vtt.Tabletop.of(options))


def _drawn(draw: Callable[[Any, dict[str, Any], str], str], text: Callable[[Any, str], str]) -> dict[
        str, Callable[[Any, dict[str, Any], str], bytes]]:
    """The formats of a result drawn by one SVG function given the drawing options (`draw(model, options,
    lang)`): .svg, .png and .pdf from it, .txt from `text`."""
    from dedale.render.png import svg_to_png

    return {".svg": lambda m, o, lang: draw(m, o, lang).encode("utf-8"),
            ".png": lambda m, o, lang: svg_to_png(draw(m, o, lang)),
            ".txt": lambda m, _, lang: text(m, lang).encode("utf-8"),
            ".pdf": lambda m, o, lang: _pdf(draw(m, o, lang))}


def _pictures(draw: Callable[..., str], text: Callable[[Any, str], str]) -> dict[
        str, Callable[[Any, dict[str, Any], str], bytes]]:
    """The formats of a result drawn by one SVG function without drawing options (`draw(model, lang=...)`)."""
    return _drawn(lambda m, _, lang: draw(m, lang=lang), text)


def _keylock() -> System:
    from dedale.keylock.model import DOCUMENT
    from dedale.keylock.params import KeylockParams, check_pdf_size
    from dedale.keylock.session import KeylockRules
    from dedale.render.keylock_dot import render_dot
    from dedale.render.keylock_svg import render_svg
    from dedale.render.keylock_text import PAGE_VISITS, analysis_text, render_text
    from dedale.render.png import svg_to_png

    return System("keylock", KeylockParams, KeylockRules, _keylock_load, {
        ".svg": lambda d, _, lang: render_svg(d[0], d[1], lang).encode("utf-8"),
        ".png": lambda d, _, lang: svg_to_png(render_svg(d[0], d[1], lang)),
        ".txt": lambda d, _, lang: render_text(d[0], d[1], lang).encode("utf-8"),
        ".pdf": lambda d, _, lang: _pdf(render_svg(check_pdf_size(d[0]), d[1], lang)),
        ".dot": lambda d, _, lang: render_dot(d[0], d[1], lang).encode("utf-8"),
    }, lambda d, lang: render_text(d[0], d[1], lang),
        lambda s, _, lang, model=None: render_svg(s.rules.diagram, s.rules.analysis, lang),
        lambda s, lang: render_text(s.rules.diagram, s.rules.analysis, lang), cli="dedale.cli.keylock",
        details=lambda s, lang: analysis_text(s.rules.diagram, s.rules.analysis, lang, PAGE_VISITS),
        rules_page="keylock.md", document=DOCUMENT, variants=({}, {"unique": 5, "multi": 2, "permanent": 2}))


def _keylock_load(document: Any) -> tuple[Any, dict[str, Any]]:
    """A diagram and its analysis (worked out again if the document has none, or an older one)."""
    from dedale.core.documents import load
    from dedale.keylock.analysis import analyse
    from dedale.keylock.model import Analysis, Diagram
    from dedale.keylock.session import KeylockRules

    diagram = Diagram.from_json(document)
    analysis = document.get("analysis")
    if isinstance(analysis, dict) and document.get("version") == KeylockRules.version:
        load(Analysis, analysis)
        return diagram, analysis
    return diagram, analyse(diagram)


def _zombstone() -> System:
    from dedale.render.zombstone_svg import render_svg
    from dedale.render.zombstone_text import render_text
    from dedale.zombstone.skirmish.document import DOCUMENT
    from dedale.zombstone.skirmish.params import SkirmishParams
    from dedale.zombstone.skirmish.session import SkirmishRules
    from dedale.zombstone.skirmish.view import GameView

    def view(session: Any) -> GameView:
        return GameView.from_json(session.seat_result())

    def picture(session: Any, listed: list[Choice], lang: str, model: Any = None) -> str:
        links = {c.id: {**c.data, "label": c.label(lang)} for c in listed if "to" in c.data or "figure" in c.data}
        return render_svg(model or view(session), links, lang)

    return System("zombstone", SkirmishParams, SkirmishRules, GameView.from_json,
                  _pictures(render_svg, render_text), render_text, picture, lambda s, lang: render_text(view(s), lang),
                  generates=False, cli="dedale.cli.zombstone", rules_page="zombstone.md", document=DOCUMENT,
                  variants=({}, {"side": "zombies"}, {"side": None}, {"scenario": "high_noon"}, {"opponent": "human"}))


def _duel() -> System:
    from dedale.render.duel_svg import render_svg, render_text
    from dedale.zombstone.skirmish.duel_session import DOCUMENT, DuelParams, DuelRules, load_duel

    def view(session: Any) -> dict[str, Any]:
        return {**session.seat_result(), "seed": session.seat_seed()}

    return System("zombstone-duel", DuelParams, DuelRules, load_duel, _pictures(render_svg, render_text),
                  render_text, lambda s, _, lang, model=None: render_svg(model or view(s), lang),
                  lambda s, lang: render_text(view(s), lang),
                  generates=False, rules_page="zombstone.md", document=DOCUMENT,
                  variants=({}, {"style": "bold", "added": 3}, {"opponent": "human"}))


MAX_PDF_SIDE = 14_400  # points (200 inches): the largest page PDF readers open


def _pdf(svg_text: str) -> bytes:
    """One page, shrunk to fit the largest page readers open (a vector picture loses nothing by it)."""
    from dedale.render.png import svg_size

    cairosvg = need("render", "cairosvg")  # loads cairo: only when a PDF is asked for

    scale = min(1.0, MAX_PDF_SIDE / (0.75 * max(*svg_size(svg_text), 1.0)))  # cairo: a pixel is 3/4 of a point
    return cairosvg.svg2pdf(bytestring=svg_text.encode("utf-8"), scale=scale)


_FACTORIES: dict[str, Callable[[], System]] = {  # Dédale's own, known without installed metadata
    "crawler": _crawler, "paper": _paper, "hexcrawl": _hexcrawl, "keylock": _keylock, "zombstone": _zombstone,
    "zombstone-duel": _duel}
ENTRY_POINTS = "dedale.systems"  # the group where another distribution declares its systems: NAME = "module:attr"


@cache
def _plugins() -> dict[str, Callable[[], System]]:
    """The systems other installed distributions declare in the entry-point group `dedale.systems`, each a
    `System` or a function of no argument making one, loaded once (their words are needed as soon as the
    systems are listed). A name Dédale has stays Dédale's; one that cannot be loaded is left out with a
    warning, so that a broken package does not take the others down."""
    from importlib.metadata import entry_points

    found: dict[str, Callable[[], System]] = {}
    for point in entry_points(group=ENTRY_POINTS):
        if point.name in _FACTORIES or point.name in found:
            continue
        try:
            loaded = point.load()
            made = loaded if isinstance(loaded, System) else loaded()
            if not isinstance(made, System) or made.name != point.name:
                raise TypeError(f"{point.value} is not a System named {point.name!r}")
        except Exception as exc:  # whatever a third party's import raises
            warnings.warn(f"dedale: the system {point.name!r} ({point.value}) was left out: {exc}", stacklevel=2)
            continue
        _learn_words(made)
        found[point.name] = _already(made)
    return found


def _already(made: System) -> Callable[[], System]:
    return lambda: made


def _learn_words(made: System) -> None:
    from dedale.i18n import add_messages

    for lang, messages in made.words.items():
        add_messages(lang, messages)


_BUILT: dict[str, tuple[Callable[[], System], System]] = {}  # by name: the factory and what it built


def system(name: str) -> System:
    """The system, built once (a page asks for it a few times a click) by its factory of now. Dédale's own
    are found without looking at the installed packages (`dedale crawler` does not pay for it)."""
    factory = _FACTORIES.get(name) or _plugins().get(name)
    if factory is None:
        raise DedaleError("error.system", value=name, accepted=", ".join(names()))
    built = _BUILT.get(name)
    if built is None or built[0] is not factory:
        built = _BUILT[name] = (factory, factory())
        if name in _FACTORIES:  # a plugin's words were learned as it was found (`_plugins`)
            _learn_words(built[1])
    return built[1]


def system_of(document: Any) -> System:
    """The system a JSON document belongs to, from its `format` ("dedale/SYSTEM")."""
    found = document.get("format") if isinstance(document, dict) else None
    name = found[7:] if isinstance(found, str) and found.startswith("dedale/") else None
    if name is None or (name not in _FACTORIES and name not in _plugins()):
        expected = " or ".join(f"dedale/{known}" for known in names())
        raise DedaleError("error.format", expected=expected, found=found)
    return system(name)


def extension_of(path: str | os.PathLike[str], found: System) -> str:
    """The format a file's name asks for: the longest of the system's extensions it ends with (so that
    scene.foundry.json is a Foundry scene and map.json the document), else its last suffix."""
    name = Path(path).name.lower()
    known = sorted([".json", *found.formats], key=len, reverse=True)
    return next((ext for ext in known if name.endswith(ext) and len(name) > len(ext)), Path(name).suffix)


def names() -> list[str]:
    """Every system: Dédale's own, then those of installed packages."""
    return [*_FACTORIES, *_plugins()]


_COMMANDS = {"zombstone-duel": ("zombstone", "duel")}  # where a system's CLI commands sit, when not `dedale NAME`


def cli_path(name: str) -> tuple[str, ...]:
    """Where the system's commands sit on the CLI (known without building the system)."""
    return _COMMANDS.get(name, (name,))


def top_commands() -> dict[str, str]:
    """The CLI's system commands and their one-line summaries, without loading any of Dédale's systems."""
    return {cli_path(name)[0]: summary(cli_path(name)[0]) for name in names()}


def systems_at(top: str) -> list[str]:
    """The systems whose commands sit at `dedale TOP` (Dédale's own known without looking further)."""
    own = [name for name in _FACTORIES if cli_path(name)[0] == top]
    return own or [name for name in _plugins() if cli_path(name)[0] == top]


def summary(top: str) -> str:
    """`dedale TOP`'s one line in --help."""
    from dedale.i18n import t

    return t(f"cli.about.{top}", "en")


def check_tables(folder: Path) -> list[tuple[Path, int]]:
    """Check a folder of the player's tables: FOLDER/SYSTEM/ for each system it has, or FOLDER itself for
    every system with tables. Returns (folder, number of tables) for each set checked."""
    if not os.path.isdir(folder):
        raise DedaleError("error.tables_dir", path=str(folder))
    with_tables = [s for s in map(system, names()) if s.tables is not None]
    per_system = [(s, folder / s.name) for s in with_tables if os.path.isdir(folder / s.name)]
    checked = []
    for each, path in per_system or [(s, folder) for s in with_tables]:
        assert each.tables is not None
        checked.append((path, len(each.tables(str(path)).tables)))
    return checked

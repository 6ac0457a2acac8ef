"""The layers, one way (docs/architecture.md): words <- core <- each system <- render <- the registry <- the
API <- the web <- the CLI. Read from the source (every `import` and `from ... import`, at any depth: a
function-level import counts as much as a module-level one), so `make lint` refuses an upward import or a
cycle before any test imports anything.

- A module imports only from its own layer or from lower ones; a system imports no other system.
- Imports under `if TYPE_CHECKING:` obey the layers too (a type from above is a dependency on it), but are
  left out of the cycles: they are never run.
- No import cycle at all, inside a package or across packages: two modules that need each other are one
  module, or a third below both holds what they share.
- A module that imports by a computed name (`import_module(name)`) hides its edge from this check: only
  those listed in `COMPUTED` may, each for a reason."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import dedale

# Lowest first: each layer's packages (a module's package is its name's first two parts, `dedale.core`).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("words", ("dedale.i18n", "dedale.locales")),
    ("core", ("dedale.core",)),
    ("a system", ("dedale.crawler", "dedale.paper", "dedale.hexcrawl", "dedale.keylock", "dedale.zombstone")),
    ("render", ("dedale.render",)),
    ("the registry", ("dedale.systems",)),
    ("the API", ("dedale.api", "dedale", "dedale.testing")),  # `dedale` itself re-exports the API
    ("the web", ("dedale.web",)),
    ("the CLI", ("dedale.cli",)),  # `dedale serve` starts the web app
)
SYSTEMS = 2  # the layer whose packages know nothing of each other
# The modules that import by a computed name, and why that hides no upward edge.
COMPUTED = {
    "dedale": "the API's names, loaded when first used (`dedale.generate` -> dedale.api)",
    "dedale.core.extras": "the optional libraries of an extra (cairosvg, fastapi, dask), none of Dédale's",
    "dedale.cli.options": "a system's own CLI commands, the module its registry entry names (`System.cli`)",
}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the imported module (or the package whose name is imported)
    line: int
    where: str  # "module", "function" or "types" (under TYPE_CHECKING)
    path: Path

    def __str__(self) -> str:
        return f"{self.path}:{self.line} imports {self.target} (at {self.where} level)"


def source_root() -> Path:
    return Path(dedale.__file__).parent


@cache
def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package: its name -> (its file, whether it is a package's `__init__`)."""
    root = source_root()
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def _targets(module: str, package: bool, node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:  # relative: from the module's package, one level up a dot
        base = module.split(".") if package else module.split(".")[:-1]
        base = base[:len(base) - node.level + 1]
        source = ".".join([*base, *([node.module] if node.module else [])])
    else:
        source = node.module or ""
    # `from dedale.core import batch` imports the module dedale.core.batch
    return sorted({f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules() else source
                   for alias in node.names})


@cache
def imports() -> tuple[tuple[Import, ...], tuple[tuple[str, int], ...]]:
    """Every import of a Dédale module by one, and every call importing by a computed name (module, line)."""
    found: list[Import] = []
    computed: list[tuple[str, int]] = []

    def walk(node: ast.AST, where: str, module: str, path: Path, package: bool) -> None:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.extend(Import(module, target, node.lineno, where, path) for target in _targets(module, package, node)
                         if target == "dedale" or target.startswith("dedale."))
        elif isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] in ("import_module", "__import__"):
            computed.append((module, node.lineno))
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for child in node.body:
                walk(child, "types", module, path, package)
            for child in node.orelse:
                walk(child, where, module, path, package)
            return
        if where == "module" and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            where = "function"
        for inner in ast.iter_child_nodes(node):
            walk(inner, where, module, path, package)

    for module, (path, package) in modules().items():
        walk(ast.parse(path.read_text(encoding="utf-8"), str(path)), "module", module, path, package)
    return tuple(found), tuple(computed)


def package_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def layer_of(module: str) -> int:
    package = package_of(module)
    for number, (_, packages) in enumerate(LAYERS):
        if package in packages:
            return number
    raise AssertionError(f"{module} is in no layer: add its package to LAYERS (tests/test_layers.py)")


def upward(found: tuple[Import, ...]) -> list[str]:
    """The imports that go up a layer, or across from one system to another."""
    wrong = []
    for each in found:
        mine, theirs = layer_of(each.module), layer_of(each.target)
        apart = mine == theirs == SYSTEMS and package_of(each.module) != package_of(each.target)
        if theirs > mine or apart:
            wrong.append(f"{each}: {LAYERS[mine][0]} ({package_of(each.module)}) imports only from its own "
                         f"{'package' if mine == SYSTEMS else 'layer'} or lower ones, and {each.target} is "
                         f"{LAYERS[theirs][0]}")
    return wrong


def cycles(found: tuple[Import, ...]) -> list[list[str]]:
    """The import cycles (strongly connected modules) among the imports that run (not the types')."""
    graph: dict[str, set[str]] = {module: set() for module in modules()}
    for each in found:
        if each.where != "types" and each.target != each.module and each.target in graph:
            graph[each.module].add(each.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    strong: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's: the modules never go deep enough for the recursion limit
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                strong.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return strong


def test_every_import_goes_down_the_layers() -> None:
    found, _ = imports()
    assert len(found) > 500  # the check reads the source it means to (every module's imports)
    wrong = upward(found)
    assert not wrong, "upward imports:\n" + "\n".join(wrong)


def test_no_module_imports_by_a_computed_name_but_those_listed() -> None:
    _, computed = imports()
    hidden = [f"{modules()[module][0]}:{line} imports by a computed name" for module, line in computed
              if module not in COMPUTED]
    assert not hidden, ("an import by name escapes this check; import the module, or have what it holds "
                        "registered from above (i18n.register_labels):\n" + "\n".join(hidden))
    assert {module for module, _ in computed} == set(COMPUTED)  # no stale reason kept


def test_no_import_cycle() -> None:
    found, _ = imports()
    strong = cycles(found)
    lines = []
    for component in strong:
        members = set(component)
        edges = [str(each) for each in found if each.module in members and each.target in members
                 and each.where != "types" and each.target != each.module]
        lines.append(" <-> ".join(component) + "\n  " + "\n  ".join(edges))
    assert not strong, "import cycles:\n" + "\n".join(lines)


def test_the_check_sees_an_upward_import_a_cycle_and_a_function_level_import() -> None:
    """The rules themselves, on made-up imports: each kind of fault is caught."""
    path = Path("made-up.py")
    deep = Import("dedale.core.session", "dedale.api", 1, "function", path)
    across = Import("dedale.crawler.model", "dedale.paper.model", 1, "module", path)
    typed = Import("dedale.core.session", "dedale.systems", 1, "types", path)
    down = Import("dedale.render.svg", "dedale.core.errors", 1, "module", path)
    assert len(upward((deep, across, typed, down))) == 3
    assert "the API" in upward((deep,))[0] and "at function level" in upward((deep,))[0]
    loop = (Import("dedale.core.rng", "dedale.core.dice", 1, "module", path),
            Import("dedale.core.dice", "dedale.core.rng", 2, "function", path))
    assert cycles(loop) == [["dedale.core.dice", "dedale.core.rng"]]
    assert cycles((loop[0], Import("dedale.core.dice", "dedale.core.rng", 2, "types", path))) == []

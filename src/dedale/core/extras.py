"""The optional parts of Dédale (pyproject's extras) and the libraries each brings: a missing one is refused
in one line naming the extra to install, never an ImportError's traceback."""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from types import ModuleType

from dedale.core.errors import DedaleError

# extra -> (the message key saying what needs it, the modules it installs)
EXTRAS = {
    "render": ("error.render_extra", ("cairosvg", "cairocffi", "matplotlib")),
    "web": ("error.web_extra", ("fastapi", "uvicorn", "jinja2", "multipart")),
    "cluster": ("error.cluster_extra", ("dask", "distributed")),
    "check": ("error.check_extra", ("jsonschema",)),
}


def need(extra: str, module: str) -> ModuleType:
    """`module`, imported; a DedaleError naming `extra` when it is not installed."""
    try:
        return import_module(module)
    except ImportError:
        raise DedaleError(EXTRAS[extra][0]) from None


def require(extra: str) -> None:
    """Check that every library of `extra` is installed (without importing any), or refuse naming it."""
    key, modules = EXTRAS[extra]
    for module in modules:
        try:
            found = find_spec(module)
        except ImportError:  # an import hook refusing the module
            found = None
        if found is None:
            raise DedaleError(key)

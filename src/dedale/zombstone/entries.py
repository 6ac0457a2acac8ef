"""Zombstone's data files read entry by entry (weapons here, the skirmish's profiles, bands and scenarios),
each error naming the file, the entry and what is accepted."""

from __future__ import annotations

from collections import Counter
from typing import Any

from dedale.core.errors import DedaleError


class Entry:
    """One entry of a data file, read field by field with errors that name the file and the entry."""

    def __init__(self, file: str, kind: str, index: int, data: Any) -> None:
        self.file, self.data = file, data
        self.where = f"{kind} {index + 1}"
        if not isinstance(data, dict):
            raise self.fail("error.skirmish.entry", problem="not a table")
        if isinstance(data.get("id"), str):
            self.where += f" ({data['id']})"

    def fail(self, key: str, **args: Any) -> DedaleError:
        return DedaleError(key, file=self.file, entry=self.where, **args)

    def get(self, name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        """The field `name`, of type `kind` (a TOML true is not a number, though Python says it is an int)."""
        if name not in self.data:
            if default is ...:
                raise self.fail("error.skirmish.missing", field=name)
            return default
        value = self.data[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise self.fail("error.skirmish.field", field=name, value=repr(value))
        return value

    def number(self, name: str, low: float, high: float, default: Any = ..., whole: bool = True) -> Any:
        value = self.get(name, int if whole else (int, float), default)
        if not low <= value <= high:
            raise self.fail("error.skirmish.range", field=name, value=value, low=low, high=high)
        return value

    def labels(self, name: str, default: Any = ...) -> dict[str, str]:
        value = self.get(name, (str, dict), default)
        if isinstance(value, str):
            return {"en": value}
        if not value or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            raise self.fail("error.skirmish.field", field=name, value=repr(value))
        return dict(value)

    def choice(self, name: str, accepted: tuple[str, ...] | list[str], default: Any = ...) -> str:
        value = self.get(name, str, default)
        if value not in accepted:
            raise self.fail("error.skirmish.one_of", field=name, value=value, accepted=", ".join(accepted))
        return value


def entries(file: str, document: dict[str, Any], kind: str) -> list[Entry]:
    """The entries of `kind` in a data file: at least one, each a table, no id twice."""
    items = document.get(kind, [])
    if not isinstance(items, list) or not items:
        raise DedaleError("error.skirmish.no_entries", file=file, kind=kind)
    found = [Entry(file, kind, i, item) for i, item in enumerate(items)]
    seen = Counter(entry.get("id", str) for entry in found)
    twice = [key for key, n in seen.items() if n > 1]
    if twice:
        raise DedaleError("error.skirmish.duplicate", file=file, kind=kind, value=twice[0])
    return found

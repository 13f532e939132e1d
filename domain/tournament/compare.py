"""Where two versions of a tournament differ, named field by field (for `verify`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

# Long texts (decklists, uploaded files) are shown by their beginning, not in full.
_SHOWN = 60


@dataclass(frozen=True, slots=True)
class Difference:
    """One place where the stored tables differ from the folded log: a thing the tables
    lack (`missing`), one they have that the log does not (`extra`), or a value that
    differs (`changed`, with both values as shown). The command line says it in the
    reader's language; `str()` is the log's English."""

    path: str
    kind: Literal["missing", "extra", "changed"]
    logged: str = ""
    stored: str = ""

    def __str__(self) -> str:
        if self.kind == "missing":
            return f"{self.path}: missing from the tables"
        if self.kind == "extra":
            return f"{self.path}: in the tables, not in the log"
        return f"{self.path}: log {self.logged} ≠ tables {self.stored}"


def differences(expected: Any, actual: Any, path: str = "") -> list[Difference]:
    """Every place where `actual` (the tables) differs from `expected` (the folded log)."""
    if expected == actual:
        return []
    if (
        dataclasses.is_dataclass(expected)
        and type(expected) is type(actual)
        and not isinstance(expected, type)
    ):
        found: list[Difference] = []
        for field in dataclasses.fields(expected):
            found += differences(
                getattr(expected, field.name),
                getattr(actual, field.name),
                f"{path}.{field.name}" if path else field.name,
            )
        return found
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        found = []
        for key in sorted(expected.keys() | actual.keys(), key=str):
            where = f"{path}[{key}]"
            if key not in actual:
                found.append(Difference(where, "missing"))
            elif key not in expected:
                found.append(Difference(where, "extra"))
            else:
                found += differences(expected[key], actual[key], where)
        return found
    if (
        isinstance(expected, tuple)
        and isinstance(actual, tuple)
        and len(expected) == len(actual)
        and expected
        and dataclasses.is_dataclass(expected[0])
    ):
        found = []
        for index, (left, right) in enumerate(zip(expected, actual, strict=True)):
            found += differences(left, right, f"{path}[{_label(left, index)}]")
        return found
    return [Difference(path, "changed", _short(expected), _short(actual))]


def _label(item: Any, index: int) -> str:
    """Rounds by number, matches by table: how organizers name them."""
    for name in ("number", "table"):
        value = getattr(item, name, None)
        if isinstance(value, int):
            return f"{name} {value}"
    return str(index)


def _short(value: Any) -> str:
    text = repr(value.value if hasattr(value, "value") else value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"

"""Where two versions of a tournament differ, named field by field (for `verify`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

# Long texts (decklists, uploaded files) are shown by their length, not in full.
_SHOWN = 60


def differences(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Every place where `actual` differs from `expected`, as `path: expected → actual`."""
    if expected == actual:
        return []
    if (
        dataclasses.is_dataclass(expected)
        and type(expected) is type(actual)
        and not isinstance(expected, type)
    ):
        found: list[str] = []
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
                found.append(f"{where}: missing from the tables")
            elif key not in expected:
                found.append(f"{where}: in the tables, not in the log")
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
    return [f"{path}: log {_short(expected)} ≠ tables {_short(actual)}"]


def _label(item: Any, index: int) -> str:
    """Rounds by number, matches by table: how organizers name them."""
    for name in ("number", "table"):
        value = getattr(item, name, None)
        if isinstance(value, int):
            return f"{name} {value}"
    return str(index)


def _short(value: Any) -> str:
    text = repr(value.value if hasattr(value, "value") else value)
    return text if len(text) <= _SHOWN else f"<{len(text)} characters>"

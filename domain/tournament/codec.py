"""Frozen dataclasses to JSON-ready dicts and back, losslessly, from their type hints.

The operations of the action log are stored with this, so a payload read back gives an
operation equal to the one applied. Supported field types: `int`, `str`, `bool`, `datetime`
(ISO 8601 with its offset), `date`, `StrEnum`s, nested frozen dataclasses, `tuple[X, ...]`,
`tuple[X, Y]` and `X | None` of those.

A field added to an operation after payloads were logged says, in its metadata
(`when_absent`), what an older payload without it meant, so the old log still folds to
the tables it wrote.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from datetime import date, datetime
from enum import Enum
from functools import cache
from typing import Any, TypeVar

from domain.errors import InvalidInput

T = TypeVar("T")

_WHEN_ABSENT = "when_absent"


def when_absent(value: Any) -> dict[str, Any]:
    """Field metadata: the value a payload logged before the field existed stands for."""
    return {_WHEN_ABSENT: value}


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def encode(value: Any) -> Any:
    """A dataclass (or a field value) as JSON-ready data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: encode(getattr(value, field.name)) for field in _fields(type(value))}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple):
        return [encode(item) for item in value]
    return value


def decode(cls: type[T], data: Any) -> T:
    """The dataclass `cls` from `encode`'s output; a malformed payload raises `InvalidInput`."""
    try:
        return typing.cast(T, _decode(cls, data))
    except (TypeError, ValueError, KeyError) as error:
        raise InvalidInput("log.bad_payload", kind=cls.__name__, details=str(error)) from None


def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(field for field in dataclasses.fields(cls) if field.init)


def _decode(hint: Any, data: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if data is None and type(None) in options:
            return None
        (inner,) = [option for option in options if option is not type(None)]
        return _decode(inner, data)
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(data, list):
            raise TypeError(f"expected a list, got {type(data).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], item) for item in data)
        if len(args) != len(data):
            raise ValueError(f"expected {len(args)} items, got {len(data)}")
        return tuple(_decode(arg, item) for arg, item in zip(args, data, strict=True))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(data, dict):
            raise TypeError(f"expected an object for {hint.__name__}")
        hints = _hints(hint)
        return hint(
            **{
                f.name: f.metadata[_WHEN_ABSENT]
                if f.name not in data and _WHEN_ABSENT in f.metadata
                else _decode(hints[f.name], data[f.name])
                for f in _fields(hint)
            }
        )
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(data)
    if hint is datetime:
        return datetime.fromisoformat(_text(data))
    if hint is date:
        return date.fromisoformat(_text(data))
    if hint is bool:
        if not isinstance(data, bool):
            raise TypeError("expected true or false")
        return data
    if hint is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise TypeError("expected an integer")
        return data
    if hint is str:
        return _text(data)
    raise TypeError(f"unsupported field type {hint!r}")


def _text(data: Any) -> str:
    if not isinstance(data, str):
        raise TypeError("expected a string")
    return data

"""Frozen dataclasses to JSON-ready dicts and back, losslessly, from their type hints.

The operations of the action log are stored with this, so a payload read back gives an
operation equal to the one applied. Supported field types: `int`, `str`, `bool`, `datetime`
(ISO 8601 with its offset), `date`, `StrEnum`s, nested frozen dataclasses, `tuple[X, ...]`,
`tuple[X, Y]` and `X | None` of those, and `dict[str, Any]` (a JSON object kept as it is: an
earlier operation's logged payload, quoted by the notice of its undo).

A field added to an operation after payloads were logged says, in its metadata
(`when_absent`), what an older payload without it meant, so the old log still folds to
the tables it wrote.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
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
        read: Decoder = _decoder(typing.cast(Any, cls))
        return typing.cast(T, read(data))
    except (TypeError, ValueError, KeyError) as error:
        raise InvalidInput("log.bad_payload", kind=cls.__name__, details=str(error)) from None


def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(field for field in dataclasses.fields(cls) if field.init)


Decoder = Callable[[Any], Any]
_ABSENT = object()  # a field without `when_absent`: a payload must carry it


@cache
def _decoder(hint: Any) -> Decoder:
    """The function that reads data of type `hint`, worked out once per type from its hints
    (a replay decodes every operation of the log: tens of thousands)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        (inner,) = [option for option in options if option is not type(None)]
        return _optional(_decoder(inner)) if type(None) in options else _decoder(inner)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return _tuple_of(_decoder(args[0]))
        return _fixed_tuple(tuple(_decoder(arg) for arg in args))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(hint)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint
    if hint is datetime:
        return lambda data: datetime.fromisoformat(_text(data))
    if hint is date:
        return lambda data: date.fromisoformat(_text(data))
    if origin is dict and typing.get_args(hint) == (str, Any):
        return _object
    if hint is bool:
        return _bool
    if hint is int:
        return _int
    if hint is str:
        return _text
    raise TypeError(f"unsupported field type {hint!r}")


def _optional(inner: Decoder) -> Decoder:
    return lambda data: None if data is None else inner(data)


def _tuple_of(item: Decoder) -> Decoder:
    def read(data: Any) -> tuple[Any, ...]:
        if not isinstance(data, list):
            raise TypeError(f"expected a list, got {type(data).__name__}")
        return tuple(item(value) for value in data)

    return read


def _fixed_tuple(items: tuple[Decoder, ...]) -> Decoder:
    def read(data: Any) -> tuple[Any, ...]:
        if not isinstance(data, list):
            raise TypeError(f"expected a list, got {type(data).__name__}")
        if len(items) != len(data):
            raise ValueError(f"expected {len(items)} items, got {len(data)}")
        return tuple(item(value) for item, value in zip(items, data, strict=True))

    return read


def _dataclass(cls: type) -> Decoder:
    hints = _hints(cls)
    fields = [
        (field.name, _decoder(hints[field.name]), field.metadata.get(_WHEN_ABSENT, _ABSENT))
        for field in _fields(cls)
    ]

    def read(data: Any) -> Any:
        if not isinstance(data, dict):
            raise TypeError(f"expected an object for {cls.__name__}")
        values = {}
        for name, decode_field, absent in fields:
            if absent is not _ABSENT and name not in data:
                values[name] = absent
            else:
                values[name] = decode_field(data[name])
        return cls(**values)

    return read


def _bool(data: Any) -> bool:
    if not isinstance(data, bool):
        raise TypeError("expected true or false")
    return data


def _object(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict) or not all(isinstance(key, str) for key in data):
        raise TypeError("expected an object")
    return dict(data)


def _int(data: Any) -> int:
    if isinstance(data, bool) or not isinstance(data, int):
        raise TypeError("expected an integer")
    return data


def _text(data: Any) -> str:
    if not isinstance(data, str):
        raise TypeError("expected a string")
    return data

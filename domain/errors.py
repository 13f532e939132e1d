"""Typed errors that carry a message key instead of text.

The domain never formats user-facing text: it names a message (`key`, looked up in the
catalogs under `bot/locales/`), the values to fill in (`params`) and, when a rule of
`rules/RULES.md` was broken, its id (`rule`). The bot turns that into Japanese or English.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType
from typing import TypeVar


class DomainError(Exception):
    """A problem the user can fix: shown to them in their language, never as a traceback."""

    def __init__(self, key: str, /, *, rule: str | None = None, **params: object) -> None:
        self.key = key
        self.rule = rule
        self.params: Mapping[str, object] = MappingProxyType(dict(params))
        detail = ", ".join(f"{name}={value!r}" for name, value in params.items())
        super().__init__(f"{key}{f' [{rule}]' if rule else ''}{f' ({detail})' if detail else ''}")


class PermissionDenied(DomainError):
    """The actor may not do this. Raised by the service layer, never trusted to the UI."""


class NotFound(DomainError):
    """The thing asked for does not exist, or is not visible from where it was asked."""


class InvalidInput(DomainError):
    """Input that cannot be understood: a bad file, an unparseable line, an out-of-range value."""


class IllegalTransition(DomainError):
    """A step the tournament state machine does not allow now."""


E = TypeVar("E", bound=Enum)


def one_of(kind: type[E], value: str, key: str) -> E:
    """`value` as one of the choices of `kind`, or InvalidInput(`key`, value=…) saying so."""
    try:
        return kind(value)
    except ValueError:
        raise InvalidInput(key, value=value) from None

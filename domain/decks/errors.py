"""The errors of decklists and of the organizer's data files.

Each carries a message key of `bot/locales/*/decks.toml` and its parameters, never text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from domain.errors import InvalidInput

MAX_REPORTED_PROBLEMS = 20
"""A decklist error lists at most this many bad lines; `params["count"]` says how many in all."""


@dataclass(frozen=True)
class LineProblem:
    """One bad line of a decklist: `t(key, lang, line=line, **params)` explains it."""

    line: int
    key: str
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def message_params(self) -> dict[str, object]:
        return {"line": self.line, **self.params}


class DecklistError(InvalidInput):
    """A decklist that cannot be read. The only exception `parse_decklist` raises.

    Either the whole input is unusable (`key` says why: too large, too many lines, not text,
    no cards) and `problems` is empty, or `key` is `decks.parse.invalid` and `problems` lists
    every bad line (the first `MAX_REPORTED_PROBLEMS` of them, `params["count"]` in all).
    """

    def __init__(
        self, key: str, /, *, problems: Iterable[LineProblem] = (), **params: object
    ) -> None:
        init: Callable[..., None] = super().__init__
        init(key, **params)
        self.problems: tuple[LineProblem, ...] = tuple(problems)

    @classmethod
    def from_problems(cls, problems: Iterable[LineProblem]) -> DecklistError:
        found = sorted(problems, key=lambda problem: problem.line)
        shown = found[:MAX_REPORTED_PROBLEMS]
        return cls(
            "decks.parse.invalid",
            problems=shown,
            count=len(found),
            shown=len(shown),
            lines=tuple(problem.line for problem in shown),  # joined per language
        )


class DataFileError(InvalidInput):
    """An organizer's titles file, restricted list or card database that is malformed.

    `params["where"]` names the file and the entry (`restricted.toml [[limit]] #3`,
    `cards.csv:12`); `params["field"]`, when present, names the field.
    """

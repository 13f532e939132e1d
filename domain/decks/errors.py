"""The errors of decklists and of the organizer's data files.

Each carries a message key of `bot/locales/*/decks.toml` and its parameters, never text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from domain.errors import InvalidInput

MAX_REPORTED_GROUPS = 20
"""A decklist error tells at most this many kinds of problem; `params["count"]` says how many
bad lines there are in all, and `params["lines"]` which."""

# Parameters that describe one line (its text, how to rewrite it): a group of lines with the
# same problem shows its first line's.
PER_LINE_PARAMS = frozenset({"text", "example"})


class LineNumbers(tuple[int, ...]):
    """Line numbers of a decklist, in order. The bot shows neighbours as a range (3–17)."""

    __slots__ = ()


@dataclass(frozen=True)
class LineProblem:
    """One bad line of a decklist: `t(key, lang, lines=…, **params)` explains it; `rule`, when
    the line breaks a rule of RULES.md rather than the format."""

    line: int
    key: str
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    rule: str | None = None

    def message_params(self) -> dict[str, object]:
        return {"lines": LineNumbers((self.line,)), **self.params}

    def kind(self) -> tuple[object, ...]:
        """What lines with the same problem share: everything but their own text."""
        shared = sorted((k, repr(v)) for k, v in self.params.items() if k not in PER_LINE_PARAMS)
        return (self.key, self.rule, *shared)


@dataclass(frozen=True)
class ProblemGroup:
    """Bad lines with the same problem, told once: `t(key, lang, **message_params())`,
    the parameters of its first line."""

    key: str
    lines: LineNumbers
    params: Mapping[str, object]
    rule: str | None = None

    def message_params(self) -> dict[str, object]:
        return {"lines": self.lines, **self.params}


def group_problems(problems: Iterable[LineProblem]) -> tuple[ProblemGroup, ...]:
    """`problems` by kind, in the order of each kind's first line."""
    groups: dict[tuple[object, ...], list[LineProblem]] = {}
    for problem in sorted(problems, key=lambda problem: problem.line):
        groups.setdefault(problem.kind(), []).append(problem)
    return tuple(
        ProblemGroup(
            members[0].key,
            LineNumbers(problem.line for problem in members),
            MappingProxyType(dict(members[0].params)),
            members[0].rule,
        )
        for members in groups.values()
    )


class DecklistError(InvalidInput):
    """A decklist that cannot be read. The only exception `parse_decklist` raises.

    Either the whole input is unusable (`key` says why: too large, too many lines, not text,
    no cards) and `problems` is empty, or `key` is `decks.parse.invalid` and `problems` lists
    every bad line (at most `MAX_LINES` of them); `groups` gathers them by kind, so that a
    person reads each kind of problem once (the first `MAX_REPORTED_GROUPS` kinds).
    """

    def __init__(
        self, key: str, /, *, problems: Iterable[LineProblem] = (), **params: object
    ) -> None:
        init: Callable[..., None] = super().__init__
        init(key, **params)
        self.problems: tuple[LineProblem, ...] = tuple(problems)
        self.groups: tuple[ProblemGroup, ...] = group_problems(self.problems)[:MAX_REPORTED_GROUPS]

    @classmethod
    def from_problems(cls, problems: Iterable[LineProblem]) -> DecklistError:
        found = sorted(problems, key=lambda problem: problem.line)
        return cls(
            "decks.parse.invalid",
            problems=found,
            count=len(found),
            lines=LineNumbers(problem.line for problem in found),  # shown per language
        )


class DataFileError(InvalidInput):
    """An organizer's titles file, restricted list or card database that is malformed.

    `params["where"]` names the file and the entry (`restricted.toml [[limit]] #3`,
    `cards.csv:12`); `params["field"]`, when present, names the field.
    """

"""A parsed decklist, its canonical forms and its fingerprint (R-DECK-4)."""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Literal

from domain.decks.cards import CardKey, base_number, title_key

DecklistFormat = Literal["csv", "tsv", "text"]
CSV_HEADER: tuple[str, ...] = ("count", "title", "number", "name")
FINGERPRINT_LENGTH = 12


@dataclass(frozen=True)
class DeckLine:
    """One card line as written: its line number, count, title, printed number and name.

    `title` and `number` are normalised (NFKC; `number` canonical, parallel letters kept).
    """

    line: int
    count: int
    title: str
    number: str
    name: str = ""

    @property
    def key(self) -> CardKey:
        return CardKey(self.title, base_number(self.number))


@dataclass(frozen=True)
class DeckEntry:
    """All the copies of one card (R-DECK-2): parallels and duplicate lines summed (R-DECK-3)."""

    key: CardKey
    count: int
    name: str
    numbers: tuple[str, ...]
    lines: tuple[int, ...]

    @property
    def has_parallels(self) -> bool:
        return any(number != self.key.number for number in self.numbers)


def _sort_key(key: CardKey) -> tuple[str, str, str, str]:
    return (title_key(key.title), key.title, key.number.casefold(), key.number)


@dataclass(frozen=True)
class Decklist:
    """The card lines of a decklist, in the order written."""

    lines: tuple[DeckLine, ...]
    format: DecklistFormat = "text"

    @property
    def total(self) -> int:
        return sum(line.count for line in self.lines)

    @property
    def entries(self) -> tuple[DeckEntry, ...]:
        """One entry per card, sorted by title then number."""
        grouped: dict[CardKey, list[DeckLine]] = {}
        for line in self.lines:
            grouped.setdefault(line.key, []).append(line)
        entries = []
        for key in sorted(grouped, key=_sort_key):
            lines = grouped[key]
            numbers: list[str] = []
            for line in lines:
                if line.number not in numbers:
                    numbers.append(line.number)
            entries.append(
                DeckEntry(
                    key=key,
                    count=sum(line.count for line in lines),
                    name=next((line.name for line in lines if line.name), ""),
                    numbers=tuple(numbers),
                    lines=tuple(line.line for line in lines),
                )
            )
        return tuple(entries)

    def counts(self) -> dict[CardKey, int]:
        """Copies of each card: the list's content without names, line numbers or order."""
        return {entry.key: entry.count for entry in self.entries}

    def with_titles(self, canonical: Callable[[str], str]) -> Decklist:
        """The list with each title replaced by `canonical(title)` (e.g. a catalogue's name)."""
        return replace(
            self, lines=tuple(replace(line, title=canonical(line.title)) for line in self.lines)
        )

    def canonical_csv(self) -> str:
        """The canonical interchange form: `count,title,number,name`, one row per card, sorted.

        Parallel letters are dropped (R-DECK-3) and duplicate lines summed; parsing the result
        gives back the same cards and counts.
        """
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(CSV_HEADER)
        for entry in self.entries:
            writer.writerow((entry.count, entry.key.title, entry.key.number, entry.name))
        return buffer.getvalue()

    def canonical_text(self) -> str:
        """The same content in the text format: `# title` sections and `count number name` lines."""
        out: list[str] = []
        current: str | None = None
        for entry in self.entries:
            if entry.key.title != current:
                if current is not None:
                    out.append("")
                out.append(f"# {entry.key.title}")
                current = entry.key.title
            out.append(" ".join(filter(None, (str(entry.count), entry.key.number, entry.name))))
        return "\n".join(out) + "\n" if out else ""


def fingerprint_of(counts: Iterable[tuple[CardKey, int]]) -> str:
    canonical = "".join(
        f"{count}\t{key.title}\t{key.number}\n"
        for key, count in sorted(counts, key=lambda item: _sort_key(item[0]))
    )
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()[
        :FINGERPRINT_LENGTH
    ]


def fingerprint(decklist: Decklist) -> str:
    """A short, stable hash of the list's cards and counts (R-DECK-4).

    12 hex digits of SHA-256 over the sorted `count<TAB>title<TAB>number` rows: independent of
    line order, width (NFKC), duplicate lines, parallel letters, names and comments. Resolve
    titles first (`Decklist.with_titles`, or `DeckCheck.fingerprint`) so that an alias and the
    title's own name give the same fingerprint.
    """
    return fingerprint_of(decklist.counts().items())

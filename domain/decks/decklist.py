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


def _group(lines: Iterable[DeckLine]) -> tuple[DeckEntry, ...]:
    grouped: dict[CardKey, list[DeckLine]] = {}
    for line in lines:
        grouped.setdefault(line.key, []).append(line)
    entries = []
    for key in sorted(grouped, key=_sort_key):
        group = grouped[key]
        numbers: list[str] = []
        for line in group:
            if line.number not in numbers:
                numbers.append(line.number)
        entries.append(
            DeckEntry(
                key=key,
                count=sum(line.count for line in group),
                name=next((line.name for line in group if line.name), ""),
                numbers=tuple(numbers),
                lines=tuple(line.line for line in group),
            )
        )
    return tuple(entries)


EX_SECTION = "EX"
"""The text format's header of the EX deck (`# EX`), and the CSV `deck` column's value."""
MAIN_SECTION = "main"


@dataclass(frozen=True)
class Decklist:
    """The card lines of a decklist, in the order written.

    `lines` is the main deck; `ex_lines` the EX deck (エクストラデッキ), empty unless the list has
    an EX section. `total`, `entries` and `counts` are the main deck's.
    """

    lines: tuple[DeckLine, ...]
    format: DecklistFormat = "text"
    ex_lines: tuple[DeckLine, ...] = ()

    @property
    def total(self) -> int:
        return sum(line.count for line in self.lines)

    @property
    def entries(self) -> tuple[DeckEntry, ...]:
        """One entry per card of the main deck, sorted by title then number."""
        return _group(self.lines)

    @property
    def ex_total(self) -> int:
        return sum(line.count for line in self.ex_lines)

    @property
    def ex_entries(self) -> tuple[DeckEntry, ...]:
        """One entry per card of the EX deck, sorted by title then number."""
        return _group(self.ex_lines)

    @property
    def all_entries(self) -> tuple[DeckEntry, ...]:
        """One entry per card, main and EX deck counted together."""
        return _group((*self.lines, *self.ex_lines))

    @property
    def titles(self) -> tuple[str, ...]:
        """The titles the list plays, most cards first (main and EX deck together), then by
        name: what a player's record shows of a published list."""
        cards: dict[str, int] = {}
        for entry in self.all_entries:
            cards[entry.key.title] = cards.get(entry.key.title, 0) + entry.count
        return tuple(sorted(cards, key=lambda title: (-cards[title], title)))

    def counts(self) -> dict[CardKey, int]:
        """Copies of each card: the list's content without names, line numbers or order."""
        return {entry.key: entry.count for entry in self.entries}

    def ex_counts(self) -> dict[CardKey, int]:
        return {entry.key: entry.count for entry in self.ex_entries}

    def with_titles(self, canonical: Callable[[str], str]) -> Decklist:
        """The list with each title replaced by `canonical(title)` (e.g. a catalogue's name)."""
        return replace(
            self,
            lines=tuple(replace(line, title=canonical(line.title)) for line in self.lines),
            ex_lines=tuple(replace(line, title=canonical(line.title)) for line in self.ex_lines),
        )

    def canonical_csv(self) -> str:
        """The canonical interchange and storage form: `count,title,number,name`, one row per
        card, sorted; with an EX deck, a fifth column `deck` (`main` or `EX`) and the EX rows
        after the main deck's.

        Parallel letters are dropped (R-DECK-3) and duplicate lines summed; titles and names are
        written as they are. `read_stored_decklist` gives back exactly these cards, counts,
        titles and names, whatever its size.
        """
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        if not self.ex_lines:
            writer.writerow(CSV_HEADER)
            for entry in self.entries:
                writer.writerow((entry.count, entry.key.title, entry.key.number, entry.name))
            return buffer.getvalue()
        writer.writerow((*CSV_HEADER, "deck"))
        for section, entries in ((MAIN_SECTION, self.entries), (EX_SECTION, self.ex_entries)):
            for entry in entries:
                writer.writerow(
                    (entry.count, entry.key.title, entry.key.number, entry.name, section)
                )
        return buffer.getvalue()

    def canonical_text(self) -> str:
        """The same content in the text format: `# title` sections and `count number name` lines;
        the EX deck, if any, after a `# EX` line, with its own title sections."""
        out = _text_sections(self.entries)
        if self.ex_lines:
            out += ["", f"# {EX_SECTION}", *_text_sections(self.ex_entries)]
        return "\n".join(out) + "\n" if out else ""


def _text_sections(entries: Iterable[DeckEntry]) -> list[str]:
    out: list[str] = []
    current: str | None = None
    for entry in entries:
        if entry.key.title != current:
            if current is not None:
                out.append("")
            out.append(f"# {entry.key.title}")
            current = entry.key.title
        out.append(" ".join(filter(None, (str(entry.count), entry.key.number, entry.name))))
    return out


def _rows(counts: Iterable[tuple[CardKey, int]]) -> str:
    return "".join(
        f"{count}\t{key.title}\t{key.number}\n"
        for key, count in sorted(counts, key=lambda item: _sort_key(item[0]))
    )


def fingerprint_of(
    counts: Iterable[tuple[CardKey, int]], ex_counts: Iterable[tuple[CardKey, int]] = ()
) -> str:
    canonical = _rows(counts)
    ex_rows = _rows(ex_counts)
    if ex_rows:
        # Only a list with an EX deck hashes this part, so other fingerprints stay as they were.
        canonical += f"{EX_SECTION}\n{ex_rows}"
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()[
        :FINGERPRINT_LENGTH
    ]


def fingerprint(decklist: Decklist) -> str:
    """A short, stable hash of the list's cards and counts (R-DECK-4).

    12 hex digits of SHA-256 over the sorted `count<TAB>title<TAB>number` rows: independent of
    line order, width (NFKC), duplicate lines, parallel letters, names and comments. Resolve
    titles first (`Decklist.with_titles`, or `DeckCheck.fingerprint`) so that an alias and the
    title's own name give the same fingerprint. An EX deck's rows follow an `EX` line.
    """
    return fingerprint_of(decklist.counts().items(), decklist.ex_counts().items())

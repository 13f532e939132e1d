"""An optional card database: which cards exist and when each was released (R-REG-8).

CSV (or TSV) with a header row and the columns `title,number,name,type,release_date[,product]`
(any order; other columns are ignored). `release_date` is `YYYY-MM-DD` (also `YYYY/M/D`). A
parallel (`01-001a`) is the same card as `01-001` (R-DECK-3); when both are listed, the earlier
release date counts.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from domain.decks.cards import CardKey, card_number, normalise_text, title_key, title_text
from domain.decks.datafiles import decode_file, parse_date, show_value
from domain.decks.decoding import split_lines
from domain.decks.errors import DataFileError

CARD_DB_COLUMNS: tuple[str, ...] = ("title", "number", "name", "type", "release_date")
OPTIONAL_COLUMNS: tuple[str, ...] = ("product",)


@dataclass(frozen=True)
class CardRecord:
    title: str
    number: str
    name: str
    type: str
    release_date: dt.date
    product: str = ""

    @property
    def key(self) -> CardKey:
        return CardKey(self.title, self.number)


class CardDatabase:
    """Cards by (title, number); look a card up after mapping titles with `canonical`."""

    def __init__(self, records: Iterable[CardRecord]) -> None:
        self.records: tuple[CardRecord, ...] = tuple(records)

    def __len__(self) -> int:
        return len(self.records)

    def index(self, canonical: Callable[[str], str] = title_text) -> dict[CardKey, CardRecord]:
        """The records by card, titles mapped through `canonical`; the earliest release wins."""
        found: dict[CardKey, CardRecord] = {}
        for record in self.records:
            key = CardKey(canonical(record.title), record.number)
            current = found.get(key)
            if current is None or record.release_date < current.release_date:
                found[key] = record
        return found


def load_card_database(data: str | bytes, *, source: str = "cards.csv") -> CardDatabase:
    """Read a card database; a `DataFileError` names the line (`cards.csv:12`) and column."""
    lines = split_lines(decode_file(data, source))
    numbered = [(index, line) for index, line in enumerate(lines, start=1) if line.strip()]
    if not numbered:
        raise DataFileError("decks.data.no_entries", where=source, table="CSV")
    header_line = numbered[0][1]
    delimiter = "\t" if "\t" in header_line else ","
    header = [normalise_text(name).casefold() for name in _row(header_line, delimiter, source)]
    missing = [column for column in CARD_DB_COLUMNS if column not in header]
    if missing:
        raise DataFileError(
            "decks.data.bad_header",
            where=f"{source}:{numbered[0][0]}",
            expected=",".join((*CARD_DB_COLUMNS, *OPTIONAL_COLUMNS)),
            field=missing[0],
        )
    at = {
        column: header.index(column)
        for column in (*CARD_DB_COLUMNS, *OPTIONAL_COLUMNS)
        if column in header
    }
    records: list[CardRecord] = []
    for index, line in numbered[1:]:
        where = f"{source}:{index}"
        fields = _row(line, delimiter, where)
        if not any(field.strip() for field in fields):
            continue
        if len(fields) <= max(at[column] for column in CARD_DB_COLUMNS):
            raise DataFileError(
                "decks.data.bad_row", where=where, found=len(fields), expected=len(header)
            )

        def value(column: str, fields: list[str] = fields) -> str:
            position = at.get(column)
            return (
                fields[position].strip() if position is not None and position < len(fields) else ""
            )

        title = value("title")
        if not title_key(title):
            raise DataFileError("decks.data.bad_text", where=where, field="title")
        number = card_number(value("number"))
        if number is None:
            raise DataFileError(
                "decks.data.bad_number",
                where=where,
                field="number",
                value=show_value(value("number")),
            )
        release = parse_date(value("release_date"))
        if release is None:
            raise DataFileError(
                "decks.data.bad_date",
                where=where,
                field="release_date",
                value=show_value(value("release_date")),
            )
        records.append(
            CardRecord(
                title=title,
                number=number,
                name=normalise_text(value("name")),
                type=normalise_text(value("type")),
                release_date=release,
                product=normalise_text(value("product")),
            )
        )
    if not records:
        raise DataFileError("decks.data.no_entries", where=source, table="CSV")
    return CardDatabase(records)


def _row(line: str, delimiter: str, where: str) -> list[str]:
    try:
        return next(csv.reader([line], delimiter=delimiter, strict=True), [])
    except csv.Error:
        raise DataFileError("decks.data.bad_quotes", where=where) from None

"""Reading back a stored decklist: the exact inverse of `Decklist.canonical_csv`.

A list is checked against the input limits (`MAX_BYTES`, `MAX_LINES`) when a player sends it.
What is stored is its canonical form, which can be larger than what was sent: CSV doubles
every `"`, and NFKC can turn one character into many (`ﷺ` is 18). So a stored list is read
here, without input limits and without normalising anything again: titles keep the titles
file's spelling (`けいおん！`, not `けいおん!`), and the fingerprint stays the one computed at
submission.
"""

from __future__ import annotations

import re

from domain.decks.cards import normalise_number
from domain.decks.decklist import CSV_HEADER, DeckLine, Decklist
from domain.decks.errors import DecklistError
from domain.decks.parsing import deck_section

_MAX_COUNT_DIGITS = 9

# One field of the CSV `csv.writer` wrote: quoted (`""` inside for `"`) or plain. Read by hand
# because the csv module refuses fields over 131,072 characters, and one stored name can be
# longer (a 60 KB name of `ﷺ` is a million characters after NFKC).
_FIELD = re.compile(r'"(?P<quoted>[^"]*(?:""[^"]*)*)"|(?P<plain>[^,"\r\n]*)')


def _rows(text: str) -> list[list[str]] | None:
    """The rows of `text`, or None when it is not CSV as `csv.writer` writes it."""
    rows: list[list[str]] = []
    row: list[str] = []
    position = 0
    while position < len(text):
        match = _FIELD.match(text, position)
        assert match is not None  # the plain branch matches the empty string
        quoted = match["quoted"]
        row.append(quoted.replace('""', '"') if quoted is not None else match["plain"])
        position = match.end()
        if text.startswith(",", position):
            position += 1
            continue
        for ending in ("\r\n", "\n"):
            if text.startswith(ending, position):
                position += len(ending)
                break
        else:
            if position < len(text):
                return None  # a stray quote or line break inside a plain field
        rows.append(row)
        row = []
    return rows


def read_stored_decklist(text: str) -> Decklist:
    """The decklist `Decklist.canonical_csv()` wrote.

    Raises `DecklistError("decks.parse.stored_corrupt")` naming the row when `text` is not
    such a list (a damaged database), and nothing else.
    """
    rows = _rows(text)
    if rows is None:
        raise DecklistError("decks.parse.stored_corrupt", row=0)
    if not rows or tuple(rows[0][:4]) != CSV_HEADER or len(rows[0]) > 5:
        raise DecklistError("decks.parse.stored_corrupt", row=1)
    width = len(rows[0])
    main: list[DeckLine] = []
    ex: list[DeckLine] = []
    for index, row in enumerate(rows[1:], start=2):
        if len(row) != width:
            raise DecklistError("decks.parse.stored_corrupt", row=index)
        count_text, title, number_text, name = row[:4]
        number = normalise_number(number_text)
        section = deck_section(row[4]) if width == 5 else False
        if (
            not count_text.isascii()
            or not count_text.isdecimal()
            or len(count_text) > _MAX_COUNT_DIGITS
            or int(count_text) < 1
            or number is None
            or section is None
        ):
            raise DecklistError("decks.parse.stored_corrupt", row=index)
        line = DeckLine(index, int(count_text), title, number, name)
        (ex if section else main).append(line)
    if not main and not ex:
        raise DecklistError("decks.parse.stored_corrupt", row=1)
    return Decklist(lines=tuple(main), format="csv", ex_lines=tuple(ex))

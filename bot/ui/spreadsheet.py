"""CSV files for spreadsheets (the standings export): the one place that writes them.

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula, and a tab or
a carriage return at the start can smuggle one in (CSV injection). Spreadsheets may fold
full-width and small forms (`＝＋－＠`, `﹦﹢﹣﹫`) to those, so the first character is compared
after NFKC, the same folding. Such a cell is written with a leading `'`, which shows it as
text.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Sequence

_FORMULA_START = frozenset("=+-@\t\r")


def spreadsheet_cell(text: str) -> str:
    """`text` as a cell that a spreadsheet shows as text, never runs as a formula."""
    if text and unicodedata.normalize("NFKC", text[0])[:1] in _FORMULA_START:
        return "'" + text
    return text


def spreadsheet_csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    """A CSV file in UTF-8 with a byte-order mark, which Japanese Excel needs to read it as
    UTF-8 rather than Shift_JIS, and Excel's CRLF line ends. Every text cell, the header's
    too, goes through `spreadsheet_cell`; numbers are written as they are."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in (header, *rows):
        writer.writerow(spreadsheet_cell(cell) if isinstance(cell, str) else cell for cell in row)
    return "\ufeff".encode() + out.getvalue().encode("utf-8")

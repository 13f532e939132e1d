"""CSV files the bot writes never run as formulas (CSV injection): a cell starting with
= + - @, their full-width forms ＝＋－＠ (a spreadsheet may fold them to ASCII), a tab or a
carriage return is written with a leading ' so that it shows as text. One function decides
this for every CSV the bot writes."""

from __future__ import annotations

import csv
import io
import unicodedata
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ui.spreadsheet import spreadsheet_cell, spreadsheet_csv
from bot.ui.standings import StandingRow, standings_csv

REPO_ROOT = Path(__file__).resolve().parents[2]

FORMULA_STARTS = [
    "=",
    "+",
    "-",
    "@",
    "＝",  # full-width
    "＋",
    "－",
    "＠",
    "﹦",  # small forms fold the same way
    "﹢",
    "﹣",
    "﹫",
    "\t",
    "\r",
]


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_a_cell_that_could_start_a_formula_is_quoted(start: str) -> None:
    text = f'{start}HYPERLINK("http://example.invalid")'
    assert spreadsheet_cell(text) == "'" + text


@pytest.mark.parametrize("text", ["平沢 唯", "Alice", "'quoted", "1-2", "＃1", " =1", "", "・唯"])
def test_other_cells_are_written_as_they_are(text: str) -> None:
    assert spreadsheet_cell(text) == text


@pytest.mark.parametrize("start", ["＝", "＋", "－", "＠", "﹦", "="])
def test_standings_names_with_full_width_formula_signs_are_quoted(start: str) -> None:
    rows = [StandingRow(1, f"{start}1+1", 3, Fraction(0))]
    table = list(csv.reader(io.StringIO(standings_csv(rows, "ja").decode("utf-8-sig"))))
    assert table[1][1] == f"'{start}1+1"


@given(st.text(max_size=20))
def test_a_quoted_cell_never_starts_a_formula_after_folding(text: str) -> None:
    cell = spreadsheet_cell(text)
    folded = unicodedata.normalize("NFKC", cell)
    assert not folded.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert cell in (text, "'" + text)


def test_the_file_is_utf8_with_a_bom_and_crlf_and_every_text_cell_is_checked() -> None:
    data = spreadsheet_csv(["名前", "＝"], [["＝SUM(A1)", 3], ["-1", "@x"]])
    assert data.startswith(b"\xef\xbb\xbf")
    assert data.endswith(b"\r\n")
    table = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert table == [["名前", "'＝"], ["'＝SUM(A1)", "3"], ["'-1", "'@x"]]


def test_every_csv_the_bot_writes_goes_through_the_one_function() -> None:
    # The bot's CSV files are written by bot/ui/spreadsheet.py only. (The decklist's
    # canonical CSV in domain/ is a storage format read back by the bot, not a file for a
    # spreadsheet.)
    writers = [
        path.relative_to(REPO_ROOT).as_posix()
        for folder in ("bot", "cogs")
        for path in sorted((REPO_ROOT / folder).rglob("*.py"))
        if "csv.writer(" in path.read_text("utf-8") or "csv.DictWriter(" in path.read_text("utf-8")
    ]
    assert writers == ["bot/ui/spreadsheet.py"]

"""Standings as Discord pages and as a CSV file (R-FMT-4, R-FMT-5).

`standings_page(rows, title, lang, page)` gives one embed and the page count: a code block
whose columns line up by display width, so Japanese names (two columns a character) and
ASCII names sit in the same grid on a phone. `standings_csv(rows, lang)` gives the whole
table for Excel.

Ranks come in already shared (R-FMT-5: equal points and opponents' points, same rank);
this module only shows them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

import discord

from bot.i18n import Lang, t
from bot.ui.emoji import ZWJ, is_skin_tone, joins_emoji, without_stray_joiners
from bot.ui.spreadsheet import spreadsheet_csv
from bot.ui.text import code_block

EMBED_DESCRIPTION_LIMIT = 4096
EMBED_TITLE_LIMIT = 256
NAME_COLUMNS = 16  # display columns for a name: the table stays about 40 columns wide

Status = Literal["active", "dropped", "disqualified"]


@dataclass(frozen=True)
class StandingRow:
    rank: int
    name: str
    points: int
    opponents_points: Fraction
    status: Status = "active"
    record: str | None = None  # "2-1-0"; the column shows only when some row has one
    top_cut: int | None = None  # the final placing in the top cut: 1, 2, 4 (ベスト4), 8 …
    explanation: str | None = None  # why this row stands above rows with more points
    seed: int | None = None  # the bracket's seed, where seeded players share a rank


def _width_at(text: str, index: int) -> int:
    """Columns `text[index]` adds: wide and full-width characters two, combining marks,
    format characters (zero-width space, joiners) and what merges into the emoji before it
    (a skin tone, the next emoji of 👨‍👩‍👧) none."""
    char = text[index]
    if unicodedata.combining(char) or unicodedata.category(char) in ("Cf", "Mn", "Me"):
        return 0
    if is_skin_tone(char) or (index and joins_emoji(text, index - 1)):
        return 0
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


@lru_cache(maxsize=65536)
def display_width(text: str) -> int:
    """Columns `text` takes in a monospace block (see `_width_at`). Kept per text: a table
    of 4,096 players measures the same names at every version."""
    if text.isascii():  # one column a character (no wide, joining or zero-width ones)
        return len(text)
    return sum(_width_at(text, index) for index in range(len(text)))


def truncate(text: str, columns: int) -> str:
    """`text` cut to at most `columns` display columns, ending in "…" when cut."""
    if display_width(text) <= columns:
        return text
    used = 0
    for index in range(len(text)):
        used += _width_at(text, index)
        if used > columns - 1:
            # A cut between a joiner and its emoji would leave the joiner joining nothing.
            return without_stray_joiners(text[:index]).rstrip() + "…"
    return text


def pad(text: str, columns: int, *, right: bool = False) -> str:
    fill = " " * max(columns - display_width(text), 0)
    return fill + text if right else text + fill


@lru_cache(maxsize=16384)  # the names of four 4,096-player events
def clean_name(name: str) -> str:
    """A name that keeps to its line: no control characters, line breaks, zero-width or
    bidi characters (which would reorder the row), runs of spaces made one. Zero-width
    joiners between two emoji stay: they make 👨‍👩‍👧 one family. Kept per name: the
    standings of 4,096 players clean the same names at every version, a large share of the
    table's layout (docs/BENCHMARKS.md, "How the time was found")."""
    kept = []
    for char in name:
        category = unicodedata.category(char)
        if category in ("Zs", "Zl", "Zp") or char in "\t\n\r":
            kept.append(" ")
        elif category not in ("Cc", "Cf") or char == ZWJ:
            kept.append(char)
    return " ".join(without_stray_joiners("".join(kept)).split()) or "?"


_MENTION_WORD = re.compile(r"@(everyone|here)", re.IGNORECASE)


def unpinged(name: str) -> str:
    """`@everyone` in a name with a zero-width space after the @: it reads the same and
    can never become a mention, even copied out of the code block."""
    return _MENTION_WORD.sub("@\u200b\\1", name)


@lru_cache(maxsize=4096)
def format_points(value: Fraction | int) -> str:
    """Points exactly as a person writes them: 7 not 7.0, 15/2 as 7.5.

    Opponents' points are whole or halves (a bye counts 3 × rounds ÷ 2, R-FMT-4); a value
    with no finite decimal (never produced by the rules) is shown to two places."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{float(value):.2f}"
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
    whole, fraction = divmod(int(value * 10**places), 10**places)
    return f"{whole}.{fraction:0{places}d}"


def top_cut_label(best: int | None, lang: Lang) -> str:
    """決勝T: 優勝, 準優勝, ベスト4, ベスト8 … (nothing for a player not in the top cut)."""
    if best is None:
        return ""
    if best in (1, 2):
        return t(f"standings.top_cut.{'winner' if best == 1 else 'runner_up'}", lang)
    return t("standings.top_cut.best", lang, best=best)


def explanation_lines(rows: Sequence[StandingRow], lang: Lang) -> list[str]:
    """One line for each row ranked above rows with more points: why."""
    return [
        t(
            f"standings.explanation.{row.explanation}",
            lang,
            rank=row.rank,
            name=unpinged(clean_name(row.name)),
            place=top_cut_label(row.top_cut, lang),
        )
        for row in rows
        if row.explanation
    ]


def _status_word(status: Status, lang: Lang, *, short: bool) -> str:
    if status == "active":
        return ""
    return t(f"standings.{'short' if short else 'status'}.{status}", lang)


@dataclass(frozen=True)
class _Columns:
    rank: int
    top_cut: int | None  # the 決勝T column, after the finish of an event with a top cut
    seed: int | None  # the シード column, once the bracket is seeded, where ranks are shared
    name: int
    points: int
    opponents: int
    record: int | None


def _columns(rows: Sequence[StandingRow], lang: Lang) -> _Columns:
    """Column widths over every row, so that all pages share one grid."""
    names = [
        display_width(clean_name(row.name))
        + (display_width(_status_word(row.status, lang, short=True)) + 1) * (row.status != "active")
        for row in rows
    ]
    has_record = any(row.record for row in rows)

    def widest(header: str, cells: Sequence[str]) -> int:
        return max([display_width(header), *(display_width(cell) for cell in cells)])

    has_top_cut = any(row.top_cut for row in rows)
    has_seed = any(row.seed for row in rows)
    return _Columns(
        rank=widest(t("standings.col.rank", lang), [str(row.rank) for row in rows]),
        top_cut=widest(
            t("standings.col.top_cut", lang), [top_cut_label(row.top_cut, lang) for row in rows]
        )
        if has_top_cut
        else None,
        seed=widest(t("standings.col.seed", lang), [_seed(row) for row in rows])
        if has_seed
        else None,
        name=max(display_width(t("standings.col.name", lang)), min(max(names), NAME_COLUMNS)),
        points=widest(t("standings.col.points", lang), [str(row.points) for row in rows]),
        opponents=widest(
            t("standings.col.opponents", lang),
            [format_points(row.opponents_points) for row in rows],
        ),
        record=widest(t("standings.col.record", lang), [row.record or "" for row in rows])
        if has_record
        else None,
    )


def _header(columns: _Columns, lang: Lang) -> str:
    cells = [pad(t("standings.col.rank", lang), columns.rank, right=True)]
    if columns.top_cut is not None:
        cells.append(pad(t("standings.col.top_cut", lang), columns.top_cut))
    if columns.seed is not None:
        cells.append(pad(t("standings.col.seed", lang), columns.seed))
    cells += [
        pad(t("standings.col.name", lang), columns.name),
        pad(t("standings.col.points", lang), columns.points, right=True),
        pad(t("standings.col.opponents", lang), columns.opponents, right=True),
    ]
    if columns.record is not None:
        cells.append(t("standings.col.record", lang))
    return " ".join(cells).rstrip()


def _line(row: StandingRow, columns: _Columns, lang: Lang) -> str:
    # The status word sits at the right end of the name column; the name gets the rest.
    status = _status_word(row.status, lang, short=True)
    room = columns.name - (display_width(status) + 1 if status else 0)
    name = unpinged(truncate(clean_name(row.name), room))
    name_cell = pad(name, room) + (" " + status if status else "")
    cells = [pad(str(row.rank), columns.rank, right=True)]
    if columns.top_cut is not None:
        cells.append(pad(top_cut_label(row.top_cut, lang), columns.top_cut))
    if columns.seed is not None:
        cells.append(pad(_seed(row), columns.seed, right=True))
    cells += [
        name_cell,
        pad(str(row.points), columns.points, right=True),
        pad(format_points(row.opponents_points), columns.opponents, right=True),
    ]
    if columns.record is not None:
        cells.append(row.record or "")
    return " ".join(cells).rstrip()


def _seed(row: StandingRow) -> str:
    return str(row.seed) if row.seed else ""


def _legend(rows: Sequence[StandingRow], lang: Lang) -> str:
    """What the columns mean: always the points; the 決勝T and シード columns when shown."""
    parts = [t("standings.legend", lang)]
    if any(row.top_cut for row in rows):
        parts.append(t("standings.legend_top_cut", lang))
    if any(row.seed for row in rows):
        parts.append(t("standings.legend_seed", lang))
    return "\n".join(parts)


def _escaped_length(line: str) -> int:
    return len(line) + line.count("`")  # code_block adds a zero-width space per backtick


def _pages(lines: Sequence[str], per_page: int, budget: int) -> list[list[str]]:
    pages: list[list[str]] = [[]]
    used = 0
    for line in lines:
        size = _escaped_length(line) + 1
        if pages[-1] and (len(pages[-1]) >= per_page or used + size > budget):
            pages.append([])
            used = 0
        pages[-1].append(line)
        used += size
    return pages


@dataclass(frozen=True)
class StandingsLayout:
    """Every row of the standings as a line of one grid, split into pages: made once for a
    tournament version and a language, then each page is a slice (4,096 rows are measured
    character by character only once, not at every page turn)."""

    header: str
    legend: str
    pages: tuple[tuple[str, ...], ...]
    notes: tuple[tuple[str, ...], ...]  # each page's explanations (only top-cut rows have one)
    rows: int


def standings_layout(
    rows: Sequence[StandingRow], lang: Lang, per_page: int = 20
) -> StandingsLayout:
    """The lines of `rows` in the order given, with their ranks as given, in pages whose
    description stays within Discord's 4096 characters whatever the names: a page holds
    fewer rows when its lines are long."""
    legend = _legend(rows, lang)
    if not rows:
        return StandingsLayout("", legend, (), (), 0)
    columns = _columns(rows, lang)
    header = _header(columns, lang)
    # Fences, header, legend, and room for every explanation (only top-cut rows have one).
    overhead = len(code_block(header)) + 1 + len(legend) + 2
    overhead += sum(len(line) + 1 for line in explanation_lines(rows, lang))
    pages = _pages(
        [_line(row, columns, lang) for row in rows], per_page, EMBED_DESCRIPTION_LIMIT - overhead
    )
    notes = []
    first = 0
    for page in pages:
        notes.append(tuple(explanation_lines(rows[first : first + len(page)], lang)))
        first += len(page)
    return StandingsLayout(
        header, legend, tuple(tuple(page) for page in pages), tuple(notes), len(rows)
    )


def entrants_layout(rows: Sequence[StandingRow], lang: Lang, per_page: int = 20) -> StandingsLayout:
    """Before any round has finished there are no ranks: the players in the order given
    (their order of entry), each with their status, in pages as `standings_layout`'s."""
    legend = t("standings.no_round_yet", lang, players=len(rows))
    if not rows:
        return StandingsLayout("", legend, (), (), 0)
    header = t("standings.col.name", lang)
    lines = []
    for row in rows:
        status = _status_word(row.status, lang, short=True)
        name = unpinged(truncate(clean_name(row.name), NAME_COLUMNS * 2))
        lines.append(name + (" " + status if status else ""))
    overhead = len(code_block(header)) + 1 + len(legend) + 2
    pages = _pages(lines, per_page, EMBED_DESCRIPTION_LIMIT - overhead)
    return StandingsLayout(
        header, legend, tuple(tuple(page) for page in pages), tuple(() for _ in pages), len(rows)
    )


def layout_page(
    layout: StandingsLayout, title: str, lang: Lang, page: int
) -> tuple[discord.Embed, int]:
    """Page `page` (0-based, clamped into range) of a laid-out table, and the page count."""
    embed = discord.Embed(title=truncate(clean_name(title), EMBED_TITLE_LIMIT - 1))
    if not layout.pages:
        embed.description = t("standings.empty", lang)
        return embed, 1
    index = min(max(page, 0), len(layout.pages) - 1)
    body = "\n".join([layout.header, *layout.pages[index]])
    notes = "".join(f"{line}\n" for line in layout.notes[index])
    embed.description = f"{code_block(body)}\n{notes}{layout.legend}"
    embed.set_footer(
        text=t(
            "standings.footer",
            lang,
            page=index + 1,
            pages=len(layout.pages),
            players=layout.rows,
        )
    )
    return embed, len(layout.pages)


def standings_page(
    rows: Sequence[StandingRow],
    title: str,
    lang: Lang,
    page: int,
    per_page: int = 20,
) -> tuple[discord.Embed, int]:
    """Page `page` (0-based, clamped into range) of the standings, and the page count (see
    `standings_layout`)."""
    return layout_page(standings_layout(rows, lang, per_page), title, lang, page)


def standings_csv(rows: Sequence[StandingRow], lang: Lang) -> bytes:
    """Every row as CSV for Excel (`spreadsheet_csv`: UTF-8 with a BOM, no formulas). The
    header is in the reader's language; names are complete. The top-cut placing comes last,
    so that the columns a spreadsheet already reads keep their places, then the bracket's
    seed where seeded players share a rank (as the table shows it)."""
    columns = ["rank", "name", "points", "opponents", "record", "status", "top_cut"]
    with_seed = any(row.seed for row in rows)
    if with_seed:
        columns.append("seed")
    header = [t(f"standings.csv.{column}", lang) for column in columns]
    return spreadsheet_csv(
        header,
        (
            [
                row.rank,
                clean_name(row.name),
                row.points,
                format_points(row.opponents_points),
                row.record or "",
                _status_word(row.status, lang, short=False),
                top_cut_label(row.top_cut, lang),
                *([_seed(row)] if with_seed else []),
            ]
            for row in rows
        ),
    )

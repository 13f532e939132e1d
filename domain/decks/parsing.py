"""Reading decklists: CSV/TSV (`count,title,number[,name]`) and the text format.

The text format, for pasting in Discord (see docs/decklists.md):

    # けいおん！              ← a title section; also [けいおん！], 【けいおん！】, 作品: けいおん！
    4 01-001 平沢 唯          ← count, card number, name (optional)
    4x 01-002 秋山 澪         ← also 4枚, x4, ×4, ×4枚, full-width digits
    01-003 田井中 律 ×2        ← the count at the end (with ×, x, * or 枚)
    琴吹 紬 01-004 ×4         ← the name first: then the count at the end
    // a comment              ← also ; comment, and `// …` after a card line
    # EX                      ← the cards below are the EX deck (also エクストラ, EXデッキ);
    # けいおん！                 title sections go on as before; `# メイン` goes back
    2 01-100

`parse_decklist` finds every bad line at once and raises one `DecklistError` listing them.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator

from domain.decks.cards import (
    DECK_SIZE,
    NUMBER_PATTERN,
    normalise_number,
    normalise_text,
    title_key,
    title_text,
)
from domain.decks.decklist import EX_SECTION, DeckLine, Decklist, DecklistFormat
from domain.decks.decoding import byte_size, decode, split_lines
from domain.decks.errors import DecklistError, LineProblem
from domain.decks.titles import TitleCatalogue

MAX_BYTES = 64 * 1024
MAX_LINES = 200
MAX_LINE_COUNT = DECK_SIZE
"""A single line may not claim more copies than a whole deck holds."""

_SNIPPET = 40

# Header names accepted in CSV/TSV, after NFKC and case folding. English is canonical; the
# Japanese column names are what players type in spreadsheets.
_HEADER_NAMES: dict[str, str] = {
    "count": "count",
    "qty": "count",
    "quantity": "count",
    "枚数": "count",
    "title": "title",
    "作品": "title",
    "作品名": "title",
    "number": "number",
    "no": "number",
    "no.": "number",
    "card number": "number",
    "カード番号": "number",
    "カードナンバー": "number",
    "name": "name",
    "card name": "name",
    "カード名": "name",
    "名前": "name",
    "deck": "deck",
    "section": "deck",
    "デッキ": "deck",
    "区分": "deck",
}

# The EX deck (エクストラデッキ) and the main deck, as a text-format header or a `deck` value,
# compared by `title_key`.
_EX_NAMES = frozenset(
    title_key(name)
    for name in (
        EX_SECTION,
        "EX deck",
        "EXデッキ",
        "extra",
        "extra deck",
        "エクストラ",
        "エクストラデッキ",
    )
)
_MAIN_NAMES = frozenset(title_key(name) for name in ("main", "main deck", "メイン", "メインデッキ"))
_REQUIRED_COLUMNS = ("count", "title", "number")

_COUNT = r"(?:[x×*]\s*)?(?P<count>\d+)\s*(?:[x×*]|枚)?"
_NUMBER = rf"(?P<number>{NUMBER_PATTERN})"
# A name follows the number after a space, or directly when it starts with a non-ASCII
# character (`01-001平沢 唯`).
_NAME = r"(?:\s+(?P<name>.+)|(?P<tight>[^\x00-\x7f].*))?"
# A count at the end of a line needs its mark: `x4`, `×4`, `*4`, `4枚`, `×4枚`. An `x` ending
# a word is the word's (`Max 4枚` is 4 of Max).
_COUNT_AT_END = r"(?:(?:(?<![a-z])x|[×*])\s*(?P<count>\d+)(?:\s*枚)?|(?P<count2>\d+)\s*枚)"
_COUNT_FIRST_RE = re.compile(rf"{_COUNT}\s*:?\s+{_NUMBER}{_NAME}", re.IGNORECASE)
_COUNT_LAST_RE = re.compile(rf"{_NUMBER}(?:\s+(?P<name>.*?))?\s*{_COUNT_AT_END}", re.IGNORECASE)
# The name first (`西住みほ 02-001 ×4`), then the number after a space, or directly after a
# non-ASCII character (`西住みほ02-001×4`), then the count at the end. The lines above are
# tried first, so a count or a number at the start keeps its meaning; a line starting like a
# title section is never a card.
_NAME_THEN_NUMBER = rf"(?P<name>(?![#\[【■◆●])\S.*?)(?:\s+|(?<=[^\x00-\x7f])){_NUMBER}"
_NAME_FIRST_RE = re.compile(rf"{_NAME_THEN_NUMBER}\s*{_COUNT_AT_END}", re.IGNORECASE)
_NAME_BEFORE_NUMBER_RE = re.compile(rf"{_NAME_THEN_NUMBER}(?:\s.*)?", re.IGNORECASE)
_COUNT_FIELD_RE = re.compile(_COUNT, re.IGNORECASE)
_STARTS_WITH_COUNT_RE = re.compile(r"(?:[x×*]\s*)?\d+\s*(?:[x×*]|枚)?(?:\s|$)", re.IGNORECASE)
_STARTS_WITH_NUMBER_RE = re.compile(rf"{_NUMBER}(?:\s|$)", re.IGNORECASE)
# `01-003 律 4`: the count at the end, but without the mark a count there needs.
_UNMARKED_COUNT_AT_END_RE = re.compile(rf"{_NUMBER}(?:\s+(?P<name>.*?))?\s+(?P<count>\d{{1,2}})")

_COMMENT_RE = re.compile(r"(?:^|\s)(?://|;).*$")
_TOTAL_RE = re.compile(r"(?:合計|計|total|sum)(?:[\s:=(（]|\d).*|合計|total", re.IGNORECASE)
_SECTION_RES = (
    re.compile(r"#+\s*(?P<title>.*?)\s*#*"),
    re.compile(r"\[\s*(?P<title>.*?)\s*\]"),
    re.compile(r"【\s*(?P<title>.*?)\s*】"),
    re.compile(r"[■◆●]\s*(?P<title>.*)"),
    re.compile(r"(?:作品名?|タイトル|title)\s*:\s*(?P<title>.*)", re.IGNORECASE),
)


def parse_decklist(
    data: bytes | str, *, filename: str | None = None, titles: TitleCatalogue | None = None
) -> Decklist:
    """Read a decklist in either format; raises `DecklistError` and nothing else.

    CSV/TSV is recognised by its header (or a `.csv`/`.tsv` file name); anything else is the
    text format. Bytes are read as UTF-8 (BOM or not), else CP932. With `titles`, a line of the
    text format holding nothing but a known title also starts that title's section.
    """
    size = byte_size(data)
    if size > MAX_BYTES:
        raise DecklistError("decks.parse.too_large", size=size, limit=MAX_BYTES)
    text = decode(data)
    if text is None:
        raise DecklistError("decks.parse.undecodable")
    lines = split_lines(text)
    if len(lines) > MAX_LINES:
        raise DecklistError("decks.parse.too_many_lines", lines=len(lines), limit=MAX_LINES)

    delimiter = _detect_table(lines, filename)
    fmt: DecklistFormat
    if delimiter is None:
        fmt = "text"
        cards, problems = _parse_text(lines, titles)
    else:
        fmt = "tsv" if delimiter == "\t" else "csv"
        cards, problems = _parse_table(lines, delimiter)
    if problems:
        raise DecklistError.from_problems(problems)
    if not cards:
        raise DecklistError("decks.parse.empty")
    return Decklist(
        lines=tuple(line for line, ex in cards if not ex),
        format=fmt,
        ex_lines=tuple(line for line, ex in cards if ex),
    )


def deck_section(text: str) -> bool | None:
    """True for a name of the EX deck (`EX`, `エクストラ`), False for the main deck (`main`,
    `メイン`, or nothing), None for anything else."""
    key = title_key(text)
    if key in _EX_NAMES:
        return True
    if not key or key in _MAIN_NAMES:
        return False
    return None


# --- shared ------------------------------------------------------------------------------------


def _count(index: int, text: str, problems: list[LineProblem]) -> int | None:
    """A line's count, 1 to 60 (`4`, `４`, `4x`, `x4`, `4枚`); else a problem is recorded."""
    match = _COUNT_FIELD_RE.fullmatch(normalise_text(text))
    digits = match["count"] if match else ""
    if not digits.isascii() or not digits.isdecimal():
        problems.append(LineProblem(index, "decks.parse.bad_count", {"text": _snippet(text)}))
        return None
    count = int(digits) if len(digits) <= 4 else MAX_LINE_COUNT + 1
    if not 1 <= count <= MAX_LINE_COUNT:
        # R-DECK-1: one line cannot hold more copies than a whole deck.
        params = {"text": _snippet(text), "max": MAX_LINE_COUNT}
        problems.append(LineProblem(index, "decks.parse.count_range", params, rule="R-DECK-1"))
        return None
    return count


def _snippet(text: str) -> str:
    tidy = normalise_text(text)
    return tidy if len(tidy) <= _SNIPPET else f"{tidy[: _SNIPPET - 1]}…"


# --- CSV / TSV ---------------------------------------------------------------------------------


def _split_row(line: str, delimiter: str) -> list[str] | None:
    try:
        return next(csv.reader([line], delimiter=delimiter, strict=True), [])
    except csv.Error:
        return None


def _header_columns(line: str, delimiter: str) -> list[str] | None:
    """The column roles of a header line, or None when `line` is not a decklist header."""
    fields = _split_row(line, delimiter)
    if fields is None:
        return None
    roles = [_HEADER_NAMES.get(normalise_text(field).casefold(), "") for field in fields]
    if (
        all(roles.count(column) == 1 for column in _REQUIRED_COLUMNS)
        and roles.count("name") < 2
        and roles.count("deck") < 2
    ):
        return roles
    return None


def _detect_table(lines: list[str], filename: str | None) -> str | None:
    """The delimiter when the input is CSV/TSV, else None (the text format)."""
    first = next((line for line in lines if line.strip()), None)
    if first is not None:
        for delimiter in ("\t", ","):
            if _header_columns(first, delimiter) is not None:
                return delimiter
    suffix = filename.rsplit(".", 1)[-1].casefold() if filename and "." in filename else ""
    if suffix == "tsv":
        return "\t"
    if suffix == "csv":
        return "\t" if first is not None and "\t" in first else ","
    return None


Card = tuple[DeckLine, bool]
"""A card line and whether it is in the EX deck."""


def _parse_table(lines: list[str], delimiter: str) -> tuple[list[Card], list[LineProblem]]:
    cards: list[Card] = []
    problems: list[LineProblem] = []
    rows = ((index, line) for index, line in enumerate(lines, start=1) if line.strip())
    first = next(rows, None)
    if first is None:
        return cards, problems
    roles = _header_columns(first[1], delimiter)
    if roles is None:
        problems.append(
            LineProblem(first[0], "decks.parse.csv_header", {"text": _snippet(first[1])})
        )
        return cards, problems
    columns = ("count", "title", "number", "name", "deck")
    at: dict[str, int] = {role: roles.index(role) for role in columns if role in roles}
    needed = max(at[role] for role in _REQUIRED_COLUMNS) + 1
    for index, line in rows:
        fields = _split_row(line, delimiter)
        if fields is None:
            problems.append(LineProblem(index, "decks.parse.csv_quotes", {"text": _snippet(line)}))
            continue
        if not any(field.strip() for field in fields):
            continue
        if len(fields) < needed:
            problems.append(
                LineProblem(
                    index,
                    "decks.parse.csv_fields",
                    {"found": len(fields), "expected": len(roles), "text": _snippet(line)},
                )
            )
            continue
        name = ""
        if "name" in at and at["name"] < len(fields):
            # An unquoted comma inside the last column's name belongs to the name.
            last = at["name"] == len(roles) - 1
            name = delimiter.join(fields[at["name"] :]) if last else fields[at["name"]]
        before = len(problems)
        ex: bool | None = False
        if "deck" in at and at["deck"] < len(fields):
            ex = deck_section(fields[at["deck"]])
            if ex is None:
                problems.append(
                    LineProblem(
                        index, "decks.parse.bad_deck", {"text": _snippet(fields[at["deck"]])}
                    )
                )
        count = _count(index, fields[at["count"]], problems)
        title = title_text(fields[at["title"]])
        if not title_key(title):
            problems.append(LineProblem(index, "decks.parse.empty_title", {}))
        number_text = fields[at["number"]]
        number = normalise_number(number_text)
        if number is None:
            problems.append(
                LineProblem(index, "decks.parse.bad_number", {"text": _snippet(number_text)})
            )
        if len(problems) == before and count is not None and number is not None:
            cards.append((DeckLine(index, count, title, number, normalise_text(name)), bool(ex)))
    return cards, problems


# --- text format -------------------------------------------------------------------------------


def _content_lines(lines: list[str]) -> Iterator[tuple[int, str]]:
    """Numbered lines, normalised, without comments; blank lines left out."""
    for index, raw in enumerate(lines, start=1):
        line = _COMMENT_RE.sub("", normalise_text(raw)).strip()
        if line:
            yield index, line


def _section_title(line: str, titles: TitleCatalogue | None) -> str | None:
    for pattern in _SECTION_RES:
        match = pattern.fullmatch(line)
        if match is not None:
            return title_text(match["title"])
    if titles is not None and titles.resolve(line) is not None:
        return title_text(line)
    return None


def _parse_text(
    lines: list[str], titles: TitleCatalogue | None
) -> tuple[list[Card], list[LineProblem]]:
    cards: list[Card] = []
    problems: list[LineProblem] = []
    title: str | None = None
    ex = False
    for index, line in _content_lines(lines):
        card = (
            _COUNT_FIRST_RE.fullmatch(line)
            or _COUNT_LAST_RE.fullmatch(line)
            or _NAME_FIRST_RE.fullmatch(line)
        )
        if card is not None:
            groups = card.groupdict()
            count = _count(index, groups.get("count") or groups.get("count2") or "", problems)
            number = normalise_number(card["number"])
            name = (groups.get("name") or groups.get("tight") or "").strip()
            if title is None:
                problems.append(LineProblem(index, "decks.parse.card_before_title", {}))
            elif count is not None and number is not None:
                cards.append((DeckLine(index, count, title, number, name), ex))
            continue
        section = _section_title(line, titles)
        if section is not None:
            marker = deck_section(section) if title_key(section) else None
            if marker is not None:
                ex = marker  # `# EX` / `# メイン`: the title section goes on
            elif title_key(section):
                title = section
            continue
        if title_key(line) in _EX_NAMES | _MAIN_NAMES:
            ex = title_key(line) in _EX_NAMES  # a bare `EX` / `メインデッキ` line
            continue
        if _TOTAL_RE.fullmatch(line):
            continue
        problems.append(_explain(index, line))
    return cards, problems


def _explain(index: int, line: str) -> LineProblem:
    """The most helpful reading of a line that is neither a card, a section nor a comment."""
    text = {"text": _snippet(line)}
    unmarked = _UNMARKED_COUNT_AT_END_RE.fullmatch(line)
    if unmarked is not None:
        count, number = unmarked["count"], normalise_number(unmarked["number"])
        example = f"{count} {number} {unmarked['name'] or ''}".strip()
        return LineProblem(
            index,
            "decks.parse.count_without_mark",
            {**text, "count": count, "example": _snippet(example)},
        )
    if _STARTS_WITH_NUMBER_RE.match(line):
        return LineProblem(index, "decks.parse.missing_count", text)
    named = _NAME_BEFORE_NUMBER_RE.fullmatch(line)
    if named is not None:
        # `西住みほ 02-001` or `4 西住みほ 02-001`: show the line in the order it is read.
        name = named["name"]
        count = _STARTS_WITH_COUNT_RE.match(name)
        digits = _COUNT_FIELD_RE.fullmatch(count[0].strip()) if count else None
        if count is not None:
            name = name[count.end() :]
        number = normalise_number(named["number"])
        example = f"{digits['count'] if digits else 4} {number} {name}".strip()
        return LineProblem(
            index, "decks.parse.name_before_number", {**text, "example": _snippet(example)}
        )
    if _STARTS_WITH_COUNT_RE.match(line):
        return LineProblem(index, "decks.parse.bad_number", text)
    return LineProblem(index, "decks.parse.unrecognised", text)

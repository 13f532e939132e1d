"""Shared checks for the organizer's data files (titles, restricted lists, card databases)."""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections.abc import Mapping

from domain.decks.cards import normalise_text, title_key
from domain.decks.decoding import decode
from domain.decks.errors import DataFileError
from domain.syntax import toml_problem

_DATE_RE = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})")


def decode_file(data: str | bytes, source: str) -> str:
    text = decode(data)
    if text is None:
        raise DataFileError("decks.data.undecodable", where=source)
    return text


def load_toml(data: str | bytes, source: str) -> dict[str, object]:
    """The TOML document of `data`; a `DataFileError` naming the file on bad syntax."""
    text = decode_file(data, source)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        problem = toml_problem(error)
        if problem.line is None:
            raise DataFileError(
                "decks.data.toml_syntax_at_end", where=source, problem=problem.code
            ) from None
        raise DataFileError(
            "decks.data.toml_syntax",
            where=source,
            line=problem.line,
            column=problem.column,
            problem=problem.code,
        ) from None
    except RecursionError:
        # tomllib recurses once per nested array or inline table: `a = [[[[…`.
        raise DataFileError("decks.data.toml_too_deep", where=source) from None
    except ValueError:
        # Python refuses to convert integers of more than 4300 digits (int_max_str_digits).
        raise DataFileError("decks.data.toml_too_long", where=source) from None


def require_text(
    entry: Mapping[str, object], field: str, where: str, *, shown_as: str | None = None
) -> str:
    """`entry[field]` trimmed; a `DataFileError` when missing or not a non-empty string.

    `shown_as` is the field's name in the message when it differs (`cards[2].title`).
    """
    if field not in entry:
        raise DataFileError("decks.data.missing_field", where=where, field=shown_as or field)
    value = entry[field]
    if not isinstance(value, str) or not title_key(value):
        raise DataFileError("decks.data.bad_text", where=where, field=shown_as or field)
    return value.strip()


def parse_date(value: object) -> dt.date | None:
    """A date from TOML (`2014-05-03`) or text (`2014-05-03`, `2014/5/3`); None if not one."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        match = _DATE_RE.fullmatch(normalise_text(value))
        if match:
            try:
                return dt.date(int(match[1]), int(match[2]), int(match[3]))
            except ValueError:
                return None
    return None


def require_date(entry: Mapping[str, object], field: str, where: str) -> dt.date:
    if field not in entry:
        raise DataFileError("decks.data.missing_field", where=where, field=field)
    date = parse_date(entry[field])
    if date is None:
        raise DataFileError(
            "decks.data.bad_date", where=where, field=field, value=show_value(entry[field])
        )
    return date


def require_count(entry: Mapping[str, object], field: str, where: str) -> int:
    """A whole number 0 or more (`bool` is not one, although TOML would allow it in Python)."""
    if field not in entry:
        raise DataFileError("decks.data.missing_field", where=where, field=field)
    value = entry[field]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DataFileError(
            "decks.data.bad_count", where=where, field=field, value=show_value(value)
        )
    return value


def reject_unknown_fields(entry: Mapping[str, object], allowed: set[str], where: str) -> None:
    extra = sorted(set(entry) - allowed)
    if extra:
        raise DataFileError(
            "decks.data.unknown_field",
            where=where,
            field=extra[0],
            allowed=", ".join(sorted(allowed)),
        )


def show_value(value: object, limit: int = 40) -> str:
    """`value` as short text for a message."""
    text = str(value)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"

"""Dates and times as people type them: `2026/12/24 13:00`, `２０２６年１２月２４日 13時`, ISO.

Organizers type on Japanese keyboards, so full-width digits and separators (NFKC) are as
good as ASCII, and slashes, dots or 年月日 as good as ISO dashes. Pure functions: the caller
passes the time zone; nothing here reads the clock.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo

from domain.errors import InvalidInput

JST = timezone(timedelta(hours=9), "JST")

# Year, month and day with one separator kind: 2026-12-24, 2026/12/24, 2026.12.24, 2026年12月24日.
_DATE = (
    r"(?P<y>\d{4})(?:(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})"
    r"|年(?P<jm>\d{1,2})月(?P<jd>\d{1,2})日?)"
)
# 13:00, 13:00:00, 13時, 13時30分 (the hour may be 1 or 2 digits).
_TIME = r"(?P<h>\d{1,2})(?::(?P<mi>\d{2})(?::(?P<s>\d{2}))?|時(?:(?P<jmi>\d{1,2})分)?)"
_OFFSET = r"(?P<z>Z|[+-]\d{2}:?\d{2})?"

_DATE_ONLY = re.compile(rf"{_DATE}")
_DATE_TIME = re.compile(rf"{_DATE}(?:T|\s*){_TIME}\s*{_OFFSET}")


def _normalise(text: str) -> str:
    """Full-width digits, colons, slashes and spaces → ASCII; ends trimmed."""
    return unicodedata.normalize("NFKC", text).strip()


def _date_of(match: re.Match[str]) -> date:
    month = match["m"] or match["jm"]
    day = match["d"] or match["jd"]
    return date(int(match["y"]), int(month), int(day))


def parse_date(text: str) -> date:
    """A calendar date. Raises InvalidInput(`tournament.bad_date`, value=text) otherwise."""
    match = _DATE_ONLY.fullmatch(_normalise(text))
    try:
        if match is None:
            raise ValueError(text)
        return _date_of(match)
    except ValueError:
        raise InvalidInput("tournament.bad_date", value=text) from None


def _offset(text: str | None, default: tzinfo) -> tzinfo:
    if not text:
        return default
    if text == "Z":
        return UTC
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:])
    if hours > 23 or minutes > 59:
        raise ValueError(text)
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def parse_local_datetime(text: str, tz: tzinfo = JST) -> datetime:
    """A date and a time of day, read in `tz` (Japan time) unless the text gives an offset.

    Raises InvalidInput(`tournament.bad_start_time`, value=text) for anything else,
    including impossible dates and times (2026-02-30, 25:00).
    """
    match = _DATE_TIME.fullmatch(_normalise(text))
    try:
        if match is None:
            raise ValueError(text)
        minute = match["mi"] or match["jmi"] or "0"
        moment = time(int(match["h"]), int(minute), int(match["s"] or 0))
        return datetime.combine(_date_of(match), moment, tzinfo=_offset(match["z"], tz))
    except ValueError:
        raise InvalidInput("tournament.bad_start_time", value=text) from None


def typed_count(text: str, *, key: str, rule: str) -> int:
    """A small whole number as people type it (full-width digits too), e.g. a point-zone
    count or the minutes of an extension; the rules check its range. Anything else raises
    InvalidInput(`key`, value=…) naming `rule`."""
    value = _normalise(text)
    if not (value.isascii() and value.isdigit()) or len(value) > 3:
        raise InvalidInput(key, value=text.strip()[:10], rule=rule)
    return int(value)

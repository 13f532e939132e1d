"""Dates and times as people type them: `2026/12/24 13:00`, `２０２６年１２月２４日 13時`, ISO,
and, given the moment it is now, `今日 21時`, `明日 21時`, `21:00`, `21時30分`, `12/5 21時`.

Organizers type on Japanese keyboards, so full-width digits and separators (NFKC) are as
good as ASCII, and slashes, dots or 年月日 as good as ISO dashes. Pure functions: the caller
passes the time zone and the moment it is now; nothing here reads the clock.
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

# A day named from today (今日, 明日), or a month and day without the year (12/5, 12月5日).
DAYS_FROM_TODAY = {"今日": 0, "本日": 0, "明日": 1, "あした": 1, "あす": 1}
_DAY = (
    r"(?:(?P<word>" + "|".join(DAYS_FROM_TODAY) + r")"
    r"|(?P<rm>\d{1,2})(?:/(?P<rd>\d{1,2})|月(?P<rjd>\d{1,2})日?))"
)
_RELATIVE = re.compile(rf"(?:{_DAY}\s*)?{_TIME}")


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


def parse_local_datetime(text: str, tz: tzinfo = JST, *, now: datetime | None = None) -> datetime:
    """A date and a time of day, read in `tz` (Japan time) unless the text gives an offset.

    Given `now` (the caller's clock), also a day named from today (`今日 21時`, `明日 21時`),
    a time alone (`21:00`, `21時30分`: today) and a month and day without the year
    (`12/5 21時`: the next 5 December, this year's unless it has passed).

    Raises InvalidInput(`tournament.bad_start_time`, value=text) for anything else,
    including impossible dates and times (2026-02-30, 25:00).
    """
    normalised = _normalise(text)
    try:
        match = _DATE_TIME.fullmatch(normalised)
        if match is not None:
            return datetime.combine(
                _date_of(match), _time_of(match), tzinfo=_offset(match["z"], tz)
            )
        relative = _RELATIVE.fullmatch(normalised) if now is not None else None
        if relative is None or now is None:
            raise ValueError(text)
        day = _day_from(relative, now.astimezone(tz).date())
        return datetime.combine(day, _time_of(relative), tzinfo=tz)
    except ValueError:
        raise InvalidInput("tournament.bad_start_time", value=text) from None


def _time_of(match: re.Match[str]) -> time:
    minute = match["mi"] or match["jmi"] or "0"
    return time(int(match["h"]), int(minute), int(match["s"] or 0))


def _day_from(match: re.Match[str], today: date) -> date:
    """The day of a relative start: named from today, or the next such month and day."""
    if match["word"]:
        return today + timedelta(days=DAYS_FROM_TODAY[match["word"]])
    if match["rm"] is None:
        return today
    month, day = int(match["rm"]), int(match["rd"] or match["rjd"])
    this_year = date(today.year, month, day)
    return this_year if this_year >= today else date(today.year + 1, month, day)


def typed_count(text: str, *, key: str, rule: str, maximum: int) -> int:
    """A whole number from 0 to `maximum` as people type it (full-width digits too), e.g. a
    point-zone count or the minutes of an extension. Anything else raises
    InvalidInput(`key`, value=…, max=`maximum`) naming `rule`, so the refusal can say which
    numbers are accepted."""
    value = _normalise(text)
    if not (value.isascii() and value.isdigit()) or len(value) > 3 or int(value) > maximum:
        raise InvalidInput(key, value=text.strip()[:10], max=maximum, rule=rule)
    return int(value)

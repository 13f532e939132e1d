"""Dates and times typed the way people type them: ISO, slashes, 年月日, full width."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import InvalidInput
from domain.timeparse import JST, parse_date, parse_local_datetime

FULL_WIDTH = str.maketrans("0123456789/:-. ", "０１２３４５６７８９／：－．　")


@pytest.mark.parametrize(
    "text",
    [
        "2026-12-24",
        "2026/12/24",
        "2026.12.24",
        "2026年12月24日",
        "2026年12月24",
        " 2026/12/24 ",
        "２０２６／１２／２４",
        "２０２６年１２月２４日",
    ],
)
def test_dates_in_every_usual_spelling(text: str) -> None:
    assert parse_date(text) == date(2026, 12, 24)


def test_single_digit_month_and_day() -> None:
    assert parse_date("2027/1/5") == date(2027, 1, 5)


@pytest.mark.parametrize(
    "text", ["", "24/12/2026", "2026-12/24", "2026-02-30", "2026-13-01", "tomorrow", "2026-12"]
)
def test_unreadable_dates_raise_a_keyed_error(text: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_date(text)
    assert caught.value.key == "tournament.bad_date"
    assert caught.value.params == {"value": text}


@pytest.mark.parametrize(
    "text",
    [
        "2026-12-24 13:00",
        "2026/12/24 13:00",
        "2026-12-24T13:00",
        "2026/12/24 13:00:00",
        "2026年12月24日 13時",
        "2026年12月24日13時00分",
        "２０２６／１２／２４　１３：００",
        "2026/12/24 13:00 +09:00",
    ],
)
def test_japan_time_in_every_usual_spelling(text: str) -> None:
    assert parse_local_datetime(text) == datetime(2026, 12, 24, 13, 0, tzinfo=JST)


def test_an_explicit_offset_wins_over_the_default_zone() -> None:
    moment = parse_local_datetime("2026-12-24 04:00Z")
    assert moment == datetime(2026, 12, 24, 13, 0, tzinfo=JST)
    assert moment.utcoffset() == timedelta(0)


def test_the_zone_is_the_callers() -> None:
    utc = parse_local_datetime("2026/12/24 13:00", tz=UTC)
    assert utc.utcoffset() == timedelta(0)
    assert utc.hour == 13


@pytest.mark.parametrize(
    "text",
    ["", "2026-12-24", "13:00", "2026/12/24 25:00", "2026/12/24 13:60", "2026/02/30 10:00", "x"],
)
def test_unreadable_times_raise_a_keyed_error(text: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_local_datetime(text)
    assert caught.value.key == "tournament.bad_start_time"
    assert caught.value.params == {"value": text}


SEPARATORS = st.sampled_from(["-", "/", "."])


def _spell(day: date, separator: str, padded: bool, full_width: bool) -> str:
    fmt = "{:02d}" if padded else "{}"
    text = separator.join([str(day.year), fmt.format(day.month), fmt.format(day.day)])
    return text.translate(FULL_WIDTH) if full_width else text


@given(
    st.dates(min_value=date(1000, 1, 1), max_value=date(9999, 12, 31)),
    SEPARATORS,
    st.booleans(),
    st.booleans(),
)
def test_any_date_round_trips_in_any_spelling(
    day: date, separator: str, padded: bool, full_width: bool
) -> None:
    assert parse_date(_spell(day, separator, padded, full_width)) == day


@given(
    st.dates(min_value=date(1000, 1, 1), max_value=date(9999, 12, 31)),
    st.times().map(lambda t: t.replace(microsecond=0)),
    SEPARATORS,
    st.booleans(),
)
def test_any_moment_round_trips_as_japan_time(
    day: date, moment: time, separator: str, full_width: bool
) -> None:
    text = f"{_spell(day, separator, True, False)} {moment.isoformat()}"
    text = text.translate(FULL_WIDTH) if full_width else text
    parsed = parse_local_datetime(text)
    assert parsed == datetime.combine(day, moment, tzinfo=JST)
    assert parsed.utcoffset() == timedelta(hours=9)


@given(st.text(max_size=30))
def test_anything_else_is_a_date_or_a_keyed_error(text: str) -> None:
    outcome: object
    try:
        outcome = parse_date(text)
    except InvalidInput as error:
        outcome = error.key
    assert isinstance(outcome, date) or outcome == "tournament.bad_date"


def test_a_count_is_read_as_typed_with_full_width_digits() -> None:
    from domain.timeparse import typed_count

    assert typed_count("５", key="ui.report.not_a_count", rule="R-MATCH-2", maximum=6) == 5
    assert typed_count(" 12 ", key="ui.judge.not_minutes", rule="R-MATCH-7", maximum=60) == 12
    for bad in ("", "-1", "五", "1.5", "9999"):
        with pytest.raises(InvalidInput) as refused:
            typed_count(bad, key="ui.report.not_a_count", rule="R-MATCH-2", maximum=6)
        assert refused.value.key == "ui.report.not_a_count"
        assert refused.value.rule == "R-MATCH-2"


# An organizer typed 「今日 21時」 and was refused. Given the moment it is now (the
# caller's clock: the domain never reads one), the day can be named from today.
NOW = datetime(2026, 12, 1, 4, 0, tzinfo=UTC)  # 13:00 on 1 December in Japan


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("今日 21時", datetime(2026, 12, 1, 21, 0, tzinfo=JST)),
        ("今日21時", datetime(2026, 12, 1, 21, 0, tzinfo=JST)),
        ("本日 9:30", datetime(2026, 12, 1, 9, 30, tzinfo=JST)),
        ("明日 21時", datetime(2026, 12, 2, 21, 0, tzinfo=JST)),
        ("21:00", datetime(2026, 12, 1, 21, 0, tzinfo=JST)),
        ("２１：００", datetime(2026, 12, 1, 21, 0, tzinfo=JST)),
        ("21時30分", datetime(2026, 12, 1, 21, 30, tzinfo=JST)),
        ("12/5 21時", datetime(2026, 12, 5, 21, 0, tzinfo=JST)),
        ("12月5日 21時", datetime(2026, 12, 5, 21, 0, tzinfo=JST)),
        ("1/5 13:00", datetime(2027, 1, 5, 13, 0, tzinfo=JST)),  # January has passed: next year's
        ("12/1 10時", datetime(2026, 12, 1, 10, 0, tzinfo=JST)),  # today is not "passed"
        ("2026/12/24 13:00", datetime(2026, 12, 24, 13, 0, tzinfo=JST)),  # the full form too
    ],
)
def test_a_start_named_from_today_is_japan_time(text: str, expected: datetime) -> None:
    assert parse_local_datetime(text, now=NOW) == expected


def test_today_is_the_day_in_japan_not_in_utc() -> None:
    late_evening_utc = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)  # 5:00 on 2 December in Japan
    assert parse_local_datetime("今日 21時", now=late_evening_utc).date() == date(2026, 12, 2)
    assert parse_local_datetime("明日 21時", now=late_evening_utc).date() == date(2026, 12, 3)


@pytest.mark.parametrize(
    "text", ["今日", "明日 25時", "13/5 21時", "2/30 10:00", "来週 21時", "21"]
)
def test_a_relative_start_that_makes_no_sense_is_refused(text: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_local_datetime(text, now=NOW)
    assert caught.value.key == "tournament.bad_start_time"


def test_without_the_clock_a_relative_start_is_refused() -> None:
    for text in ("今日 21時", "21:00", "12/5 21時"):
        with pytest.raises(InvalidInput):
            parse_local_datetime(text)


@given(st.integers(min_value=0, max_value=23), st.integers(min_value=0, max_value=59))
def test_a_time_alone_is_today_at_that_time(hour: int, minute: int) -> None:
    parsed = parse_local_datetime(f"{hour}:{minute:02d}", now=NOW)
    assert parsed == datetime(2026, 12, 1, hour, minute, tzinfo=JST)
    assert parse_local_datetime(f"{hour}時{minute}分", now=NOW) == parsed


def test_a_count_above_its_maximum_is_refused_naming_the_range() -> None:
    # The time-out form's error names the accepted range, from the rule's constant.
    from domain.engine.results import MAX_POINT_ZONE
    from domain.timeparse import typed_count

    assert typed_count("6", key="k", rule="R-MATCH-2", maximum=MAX_POINT_ZONE) == 6
    with pytest.raises(InvalidInput) as refused:
        typed_count("7", key="ui.report.not_a_count", rule="R-MATCH-2", maximum=MAX_POINT_ZONE)
    assert refused.value.params == {"value": "7", "max": MAX_POINT_ZONE}

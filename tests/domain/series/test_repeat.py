"""Copying an event and repeating it weekly: the next date at the same local time,
every choice and setting carried over, validated like a new event."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import InvalidInput
from domain.event import EventFormat, make_event_config
from domain.series.repeat import (
    Repeat,
    next_date,
    next_start,
    parse_repeat,
    plan_next_event,
    plan_repeat,
)
from domain.timeparse import JST
from domain.tournament.apply import apply
from domain.tournament.model import Settings
from domain.tournament.operations import ChangeSettings, MissingDeckPolicy, NoShowTiebreak
from tests.domain.tournament.support import ORGANIZER, T0, new_tournament

CONFIG = make_event_config(
    name="第13回 交流会",
    format="swiss_top_cut",
    regulation="event",
    event_date=date(2026, 12, 3),
    rounds=4,
    top_cut=4,
    time_limit_minutes=30,
    titles="けいおん！, ゆるゆり",
    max_players=24,
)
# Thursday 2026-12-03 19:30 in Japan, stored as UTC as the database keeps it.
STARTS = datetime(2026, 12, 3, 10, 30, tzinfo=UTC)
SETTINGS = Settings(
    late_registration_rounds=1,
    decklist_required=False,
    missing_deck_policy=MissingDeckPolicy.START_ANYWAY,
    starts_at=STARTS,
    checkin_minutes=30,
    mix_two_minimum=20,
    ex_deck=True,
    noshow_minutes=5,
    noshow_tiebreak=NoShowTiebreak.BYE_VALUE,
)


def test_weekly_moves_a_week_at_the_same_japan_time_and_keeps_everything() -> None:
    following = plan_next_event(CONFIG, SETTINGS, Repeat.WEEKLY)
    assert following.config == replace(CONFIG, name="第14回 交流会", event_date=date(2026, 12, 10))
    assert following.settings == replace(SETTINGS, starts_at=STARTS + timedelta(weeks=1))
    assert following.settings.starts_at is not None
    assert following.settings.starts_at.astimezone(JST).hour == 19
    # The check-in window is minutes before the start, so it moves with it.
    assert following.settings.checkin_opens == datetime(2026, 12, 10, 10, 0, tzinfo=UTC)


def test_biweekly_moves_two_weeks() -> None:
    following = plan_next_event(CONFIG, SETTINGS, Repeat.BIWEEKLY)
    assert following.config.event_date == date(2026, 12, 17)
    assert following.settings.starts_at == STARTS + timedelta(weeks=2)


def test_a_one_off_copy_needs_a_date_and_keeps_the_time_of_day() -> None:
    with pytest.raises(InvalidInput) as refused:
        plan_next_event(CONFIG, SETTINGS, Repeat.NONE)
    assert refused.value.key == "series.repeat.needs_date"
    copy = plan_next_event(
        CONFIG, SETTINGS, Repeat.NONE, event_date=date(2027, 1, 9), name="新春 交流会"
    )
    assert copy.config.name == "新春 交流会"
    assert copy.config.event_date == date(2027, 1, 9)
    assert copy.settings.starts_at == datetime(2027, 1, 9, 19, 30, tzinfo=JST)


def test_the_copy_is_validated_like_a_new_event() -> None:
    with pytest.raises(InvalidInput) as refused:
        plan_next_event(CONFIG, SETTINGS, Repeat.WEEKLY, name="x" * 65)
    assert refused.value.key == "event.name_too_long"
    with pytest.raises(InvalidInput) as mention:
        plan_next_event(CONFIG, SETTINGS, Repeat.WEEKLY, name="@everyone 交流会")
    assert mention.value.key == "event.name_mentions"


def test_the_next_name_skips_names_the_server_already_has() -> None:
    following = plan_next_event(
        CONFIG, SETTINGS, Repeat.WEEKLY, taken_names={"第14回 交流会", "第15回 交流会"}
    )
    assert following.config.name == "第16回 交流会"


def test_without_a_start_time_only_the_date_moves() -> None:
    following = plan_next_event(CONFIG, Settings(), Repeat.WEEKLY)
    assert following.settings == Settings()
    assert following.settings_change is None


def test_the_settings_change_recreates_the_settings_through_the_operation() -> None:
    # The later part creates the next event with CreateTournament, then this change: what it
    # applies must be exactly the copied settings, recorded as an organizer's operation.
    tournament = new_tournament(
        name="第13回 交流会",
        format=EventFormat.SWISS,
        regulation="single",
        event_date=CONFIG.event_date,
    )
    settings = replace(SETTINGS, mix_two_minimum=15, ex_deck=False)
    following = plan_next_event(tournament.config, settings, Repeat.WEEKLY)
    change = following.settings_change
    assert change is not None
    changed, _ = apply(tournament, ChangeSettings(change), T0, ORGANIZER)
    assert changed.settings == following.settings


def test_plan_repeat_reads_the_tournament() -> None:
    tournament = new_tournament(name="Weekly 7")
    following = plan_repeat(tournament, Repeat.WEEKLY)
    assert following.config.name == "Weekly 8"
    assert following.config.event_date == tournament.event_date + timedelta(weeks=1)
    assert following.config.format is tournament.format


def test_parse_repeat() -> None:
    assert parse_repeat(" Weekly ") is Repeat.WEEKLY
    assert parse_repeat("biweekly") is Repeat.BIWEEKLY
    with pytest.raises(InvalidInput) as refused:
        parse_repeat("monthly")
    assert refused.value.key == "series.repeat.unknown"
    assert refused.value.params["value"] == "monthly"


def test_the_local_time_holds_across_a_daylight_saving_change() -> None:
    # Japan has no daylight saving; a server elsewhere keeps its wall clock all the same.
    berlin = ZoneInfo("Europe/Berlin")
    before = datetime(2026, 10, 21, 19, 0, tzinfo=berlin)  # CEST, UTC+2
    after = next_start(before, Repeat.WEEKLY, berlin)  # 2026-10-28 is CET, UTC+1
    assert (after.hour, after.minute) == (19, 0)
    # (Same-zone subtraction is wall-clock time in Python; in UTC the week was an hour longer.)
    assert after.astimezone(UTC) - before.astimezone(UTC) == timedelta(weeks=1, hours=1)


@given(
    st.datetimes(
        min_value=datetime(2000, 1, 1),
        max_value=datetime(2090, 1, 1),
        timezones=st.sampled_from([UTC, JST, timezone(timedelta(hours=-5))]),
    ),
    st.sampled_from([Repeat.WEEKLY, Repeat.BIWEEKLY]),
)
def test_a_repeat_keeps_the_japan_time_of_day_and_the_weekday(
    start: datetime, repeat: Repeat
) -> None:
    following = next_start(start, repeat)
    local, later = start.astimezone(JST), following.astimezone(JST)
    assert later.time() == local.time()
    assert later.date() == next_date(local.date(), repeat)
    assert later.weekday() == local.weekday()
    assert following - start == repeat.interval


def test_every_setting_can_be_carried_by_the_operation() -> None:
    # A setting the operation cannot carry would be dropped silently from the copy.
    from dataclasses import fields

    from domain.tournament.operations import SETTING_NAMES

    assert set(SETTING_NAMES) == {spec.name for spec in fields(Settings)}


def test_a_start_on_another_day_than_the_event_date_repeats_from_the_start() -> None:
    """An event created on Monday with today's date and its start then set for Saturday is
    held on Saturday: the next one is the Saturday after, not the Monday."""
    monday = date(2026, 11, 30)
    saturday_night = datetime(2026, 12, 5, 0, 31, tzinfo=JST)  # past midnight, Saturday
    config = replace(CONFIG, event_date=monday)
    following = plan_next_event(config, replace(SETTINGS, starts_at=saturday_night), Repeat.WEEKLY)
    assert following.config.event_date == date(2026, 12, 12)
    assert following.settings.starts_at == saturday_night + timedelta(weeks=1)


@given(
    st.dates(min_value=date(2001, 1, 1), max_value=date(2089, 1, 1)),
    st.integers(min_value=-3 * 24 * 60, max_value=10 * 24 * 60),
    st.sampled_from([Repeat.WEEKLY, Repeat.BIWEEKLY]),
)
def test_the_next_start_is_always_one_interval_after_the_start(
    event_date: date, minutes_after: int, repeat: Repeat
) -> None:
    """Wherever the organizer puts the start relative to the event's date, the next event
    starts one interval later, on the date it is dated."""
    start = datetime.combine(event_date, datetime.min.time(), tzinfo=JST) + timedelta(
        minutes=minutes_after
    )
    config = replace(CONFIG, event_date=event_date)
    following = plan_next_event(config, replace(SETTINGS, starts_at=start), repeat)
    assert following.settings.starts_at == start + repeat.interval
    assert following.settings.starts_at.astimezone(JST).date() == following.config.event_date

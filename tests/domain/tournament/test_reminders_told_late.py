"""What a round's reminder says when it goes out late (domain/tournament/clock.py): Discord
was away while it waited in the outbox. Within the clock's grace it says its own minutes;
later it says the whole minutes really left (R-MATCH-1: the players play to the announced
time, so a reminder must not say 「あと 10 分」 with four left), or nothing when a shorter
reminder, or the time-up, says it by now."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from domain.tournament.clock import CLOCK_GRACE, REMINDER_MINUTES, reminder_minutes

ENDS = datetime(2026, 5, 1, 14, 40, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def said(minutes: int, late: timedelta, grace: timedelta = CLOCK_GRACE) -> int | None:
    """What the reminder of `minutes` left says, `late` after its moment."""
    return reminder_minutes(minutes, ENDS, ENDS - minutes * MINUTE + late, grace)


def test_on_time_or_within_the_grace_it_says_its_own_minutes() -> None:
    assert said(10, timedelta(0)) == 10
    assert said(10, timedelta(seconds=90)) == 10  # the default grace: a minute and a half
    assert said(5, timedelta(seconds=60)) == 5


def test_late_it_says_the_time_really_left() -> None:
    assert said(10, 3 * MINUTE) == 7
    assert said(10, 2 * MINUTE + timedelta(seconds=30)) == 7  # whole minutes, never more
    assert said(5, 2 * MINUTE) == 3


def test_nothing_when_a_shorter_reminder_or_the_time_up_says_it() -> None:
    assert said(10, 5 * MINUTE) is None  # five left: the 5-minute reminder is due
    assert said(10, 4 * MINUTE + timedelta(seconds=30)) is None  # 5 whole: it comes at once
    assert said(5, 4 * MINUTE + timedelta(seconds=30)) is None  # under a minute: time-up next
    assert said(5, 6 * MINUTE) is None  # past the end


def test_a_longer_grace_keeps_its_own_minutes() -> None:
    """The tests' fast clocks set a long grace: a reminder never changes there."""
    assert said(10, 8 * MINUTE, grace=timedelta(hours=1)) == 10


@given(
    minutes=st.sampled_from(REMINDER_MINUTES),
    late=st.integers(min_value=0, max_value=20 * 60).map(lambda s: timedelta(seconds=s)),
)
def test_it_never_says_more_time_than_is_left(minutes: int, late: timedelta) -> None:
    now = ENDS - minutes * MINUTE + late
    told = reminder_minutes(minutes, ENDS, now, CLOCK_GRACE)
    if told is not None:
        assert 1 <= told <= minutes
        assert ENDS - now >= told * MINUTE or late <= CLOCK_GRACE

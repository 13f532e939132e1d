"""The round clock's notices through the services on real SQLite: each is due once, a
notice missed while the bot was down is skipped rather than posted late, and a report
nobody confirms is flagged to the judges after the set minutes."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.services import Services
from bot.services.clock import SCALED_CLOCK_ORIGIN, ClockTimes, scaled_clock
from bot.store.backend import Database
from domain.tournament.clock import NoticeKind
from tests.services.conftest import (
    GUILD,
    JUDGE_ROLE,
    LEGAL_DECK,
    NOW,
    ORGANIZER_ROLE,
    admin,
    organizer,
    player,
)


async def running_round(database: Database, clock: list) -> Services:  # type: ignore[type-arg]
    times = ClockTimes(unconfirmed_after=timedelta(minutes=10), grace=timedelta(seconds=90))
    services = Services(database, clock=lambda: clock[0], seeds=lambda: 7, clock_times=times)
    await services.guilds.configure(
        admin(), organizer_role_id=ORGANIZER_ROLE, judge_role_id=JUDGE_ROLE, locale="ja"
    )
    await services.tournaments.create(
        organizer(), name="Clock Cup", format="swiss", regulation="single"
    )
    for number in range(1, 5):
        await services.registration.register(player(number), None)
        await services.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
    await services.lifecycle.start(organizer(), None)
    await services.rounds.pair(organizer(), None)
    await services.rounds.start_clock(organizer(), None)  # 40 minutes from NOW (R-MATCH-1)
    return services


async def due_kinds(services: Services) -> list[tuple[NoticeKind, int, bool]]:
    found = []
    for due in await services.round_clock.due():
        assert await services.round_clock.claim(due)
        found.append((due.notice.kind, due.notice.minutes_left, due.late))
    return found


async def test_reminders_come_once_each_at_10_and_5_minutes_then_time_up(
    database: Database,
) -> None:
    clock = [NOW]
    services = await running_round(database, clock)
    assert await due_kinds(services) == []
    clock[0] = NOW + timedelta(minutes=30, seconds=5)
    assert await due_kinds(services) == [(NoticeKind.REMINDER, 10, False)]
    assert await due_kinds(services) == []  # posted once, never twice
    clock[0] = NOW + timedelta(minutes=35, seconds=5)
    assert await due_kinds(services) == [(NoticeKind.REMINDER, 5, False)]
    clock[0] = NOW + timedelta(minutes=40, seconds=5)
    assert await due_kinds(services) == [(NoticeKind.TIME_UP, 0, False)]


async def test_a_notice_missed_while_the_bot_was_down_is_not_posted_late(
    database: Database,
) -> None:
    clock = [NOW]
    services = await running_round(database, clock)
    # The bot was down from minute 20 to minute 36: the 10-minute reminder (due at 30) is
    # six minutes overdue, past the grace period; the 5-minute one (35) is just due.
    clock[0] = NOW + timedelta(minutes=36)
    assert await due_kinds(services) == [
        (NoticeKind.REMINDER, 10, True),  # recorded as missed, not posted
        (NoticeKind.REMINDER, 5, False),
    ]
    assert await due_kinds(services) == []


async def test_an_unconfirmed_report_is_flagged_to_the_judges_after_ten_minutes(
    database: Database,
) -> None:
    clock = [NOW]
    services = await running_round(database, clock)
    clock[0] = NOW + timedelta(minutes=2)
    mine = await services.rounds.my_match(player(1), None)
    await services.rounds.report(player(1), None, "win")
    clock[0] = NOW + timedelta(minutes=11)
    assert await due_kinds(services) == []
    clock[0] = NOW + timedelta(minutes=12, seconds=1)
    dues = await services.round_clock.due()
    assert [(d.notice.kind, d.notice.tables) for d in dues] == [
        (NoticeKind.UNCONFIRMED, (mine.match.table,))
    ]
    assert dues[0].tournament.guild_id == GUILD


def test_the_test_clock_runs_faster_ahead_and_on_from_where_it_was() -> None:
    """CLOCK_SPEED and CLOCK_OFFSET_MINUTES (test-only): a restarted bot with a larger offset
    finds its clock moved on by exactly that much."""
    real = [SCALED_CLOCK_ORIGIN + timedelta(seconds=10)]

    def now() -> datetime:
        return real[0]

    fast = scaled_clock(60, now)
    ahead = scaled_clock(60, now, ahead=timedelta(minutes=11))
    assert fast() == SCALED_CLOCK_ORIGIN + timedelta(minutes=10)
    assert ahead() == fast() + timedelta(minutes=11)
    real[0] += timedelta(seconds=1)
    assert ahead() == SCALED_CLOCK_ORIGIN + timedelta(minutes=22)
    assert scaled_clock(1, now) is now  # production: the real clock itself
    assert scaled_clock(1, now, ahead=timedelta(minutes=5))() == now() + timedelta(minutes=5)

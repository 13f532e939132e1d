"""The notices around an event's date: what the plan says when an event is called off, when
its start time moves (the server's calendar), and before it (the players' reminders); and what
their renderers say, or do not say any more."""

from __future__ import annotations

from datetime import timedelta

from bot.notify.payloads import EntryReminder
from bot.notify.plan import Context, Notice, Place, Say, plan, plan_reminder
from bot.ui.notices import RENDERERS, Telling
from domain.tournament.calendar import CalendarStatus
from domain.tournament.operations import (
    CancelTournament,
    ChangeSettings,
    Register,
    SetHandle,
    SetLivePage,
    SettingsChange,
    StartTournament,
    Unregister,
)
from domain.tournament.reminders import due_reminders
from tests.domain.tournament.support import ORGANIZER, Clock, new_tournament, player


def registered(count: int = 2) -> Clock:
    clock = Clock(new_tournament())
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, count + 1):
        clock.apply(Register(player(number).user_id, f"Player {number}"), player(number))
    return clock


def told(clock: Clock, operation: object, actor: object = ORGANIZER) -> list[Notice]:
    before = clock.tournament
    clock.apply(operation, actor)  # type: ignore[arg-type]
    kind = operation.kind  # type: ignore[attr-defined]
    return plan(clock.events, Context(before, clock.tournament, kind, 1, "Org"))


def test_calling_an_event_off_tells_everyone_who_entered_each_privately() -> None:
    clock = registered(3)
    clock.apply(Unregister(player(3).user_id), player(3))  # left: not told
    clock.apply(ChangeSettings(SettingsChange(starts_at=clock.at + timedelta(days=2))))
    notices = told(clock, CancelTournament())
    assert [(n.say, n.places, n.user) for n in notices] == [
        (Say.CANCELLED, (Place.ANNOUNCEMENTS, Place.ORIGIN), None),
        (Say.REGISTRATION_REFRESH, (Place.REGISTRATION_POST,), None),
        (Say.CALENDAR, (Place.CALENDAR,), None),
        (Say.CANCELLED_TO_PLAYER, (Place.PLAYER,), 101),
        (Say.CANCELLED_TO_PLAYER, (Place.PLAYER,), 102),
        (Say.PANEL_REFRESH, (Place.PANEL,), None),
    ]


def test_the_calendar_hears_of_the_start_time_and_of_nothing_without_one() -> None:
    clock = registered(2)
    assert Say.CALENDAR not in [n.say for n in told(clock, StartTournament(seed=1))]
    timed = registered(2)
    moved = told(timed, ChangeSettings(SettingsChange(starts_at=timed.at + timedelta(days=1))))
    assert Say.CALENDAR in [n.say for n in moved]
    other = told(timed, ChangeSettings(SettingsChange(noshow_minutes=5)))
    assert Say.CALENDAR not in [n.say for n in other]
    started = told(timed, StartTournament(seed=1))
    assert [n.say for n in started].count(Say.CALENDAR) == 1


def test_the_calendar_entry_moves_to_the_live_page_while_it_is_public() -> None:
    timed = registered(1)
    timed.apply(ChangeSettings(SettingsChange(starts_at=timed.at + timedelta(days=1))))
    shown = told(timed, SetLivePage(True, "a" * 22))
    assert [n.say for n in shown] == [Say.CALENDAR, Say.PANEL_REFRESH]
    untimed = registered(1)
    assert [n.say for n in told(untimed, SetLivePage(True, "b" * 22))] == [Say.PANEL_REFRESH]


def test_a_new_name_is_said_by_the_posts_that_follow_not_by_a_notice() -> None:
    clock = registered(1)
    notices = told(clock, SetHandle(101, "Player 1", "ゆい"), player(1))
    assert [n.say for n in notices] == [Say.PANEL_REFRESH]


def test_a_reminder_goes_to_the_player_keyed_by_its_deadline() -> None:
    clock = registered(1)
    start = clock.at + timedelta(days=2)
    clock.apply(ChangeSettings(SettingsChange(starts_at=start)))
    (reminder,) = due_reminders(clock.tournament, start - timedelta(minutes=30))
    notice = plan_reminder(reminder)
    assert notice.say is Say.ENTRY_REMINDER
    assert notice.places == (Place.PLAYER,)
    assert notice.user == 101
    assert notice.key == reminder.key
    assert notice.data == EntryReminder(1, int(start.timestamp()))
    now = start - timedelta(minutes=30)
    text = (
        RENDERERS[Say.ENTRY_REMINDER](
            Telling(clock.tournament, notice.data, notice.user, "ja", now)
        )
        .messages[0]
        .content
    )
    assert text is not None
    assert f"<t:{int(start.timestamp())}:F>" in text
    # The start moved since it was planned, or the player left: nothing is said.
    moved = Clock(clock.tournament)
    moved.at = clock.at
    moved.apply(ChangeSettings(SettingsChange(starts_at=start + timedelta(hours=2))))
    assert not RENDERERS[Say.ENTRY_REMINDER](
        Telling(moved.tournament, notice.data, notice.user, "ja", now)
    ).messages
    moved.apply(Unregister(101), player(1))
    assert not RENDERERS[Say.ENTRY_REMINDER](
        Telling(moved.tournament, notice.data, notice.user, "ja", now)
    ).messages


def test_the_registration_post_of_an_event_called_off_loses_its_buttons() -> None:
    clock = registered(1)
    clock.apply(CancelTournament())
    (message,) = RENDERERS[Say.REGISTRATION_REFRESH](
        Telling(clock.tournament, {}, None, "ja", clock.at)
    ).messages
    assert message.content is not None
    assert "中止" in message.content
    assert message.view is not None
    assert message.view.children == []


def test_the_calendar_entry_says_how_the_event_is_and_names_it_in_either_language() -> None:
    clock = registered(2)
    start = clock.at + timedelta(days=1)
    clock.apply(ChangeSettings(SettingsChange(starts_at=start)))
    said = RENDERERS[Say.CALENDAR](Telling(clock.tournament, {}, None, "en", clock.at))
    assert said.messages == []
    calendar = said.calendar
    assert calendar is not None
    assert calendar.entry.status is CalendarStatus.SCHEDULED
    assert calendar.entry.start == start
    assert calendar.description.splitlines()[-1] == "Tournament ID 1"
    assert calendar.marker == ("大会 ID 1", "Tournament ID 1")
    assert calendar.location is None  # no public page: the delivery links the post
    clock.apply(StartTournament(seed=1))
    after = RENDERERS[Say.CALENDAR](Telling(clock.tournament, {}, None, "ja", clock.at))
    assert after.calendar is not None
    assert after.calendar.entry.status is CalendarStatus.ACTIVE

"""Beyond one event, the rules on one tournament: calling it off (中止), a player's handle as
the name the event shows, the repeat and reminders settings, the reminders' moments and the
calendar's entry. Each rule is the domain's; these check it through `apply`, as the bot
applies it."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.engine.players import PlayerStatus
from domain.engine.state import Phase
from domain.errors import IllegalTransition, InvalidInput, PermissionDenied
from domain.event import EventFormat
from domain.series.repeat import Repeat as SeriesRepeat
from domain.tournament import events as ev
from domain.tournament.calendar import (
    BETWEEN_ROUNDS,
    CalendarStatus,
    calendar_entry,
    expected_end,
    expected_rounds,
)
from domain.tournament.operations import (
    CancelTournament,
    ChangeSettings,
    CreateTournament,
    FinishTournament,
    Register,
    Repeat,
    SetHandle,
    SettingsChange,
    StartTournament,
    Unregister,
)
from domain.tournament.reminders import REMINDERS, due_reminder, due_reminders
from domain.tournament.replay import LoggedOperation, fold
from domain.tournament.steps import next_steps
from tests.domain.series.support import play_event
from tests.domain.tournament.support import ORGANIZER, T0, Clock, new_tournament, player


def registered(count: int = 3, **config: object) -> Clock:
    clock = Clock(new_tournament(**config))
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, count + 1):
        clock.apply(Register(player(number).user_id, f"Player {number}"), player(number))
    return clock


# -- 中止 --------------------------------------------------------------------------------------


def test_an_event_not_started_is_called_off_and_its_players_are_named() -> None:
    clock = registered(3, max_players=2)  # player 3 waits
    clock.apply(Unregister(player(2).user_id), player(2))  # player 3 moves up
    clock.apply(CancelTournament())
    assert clock.tournament.phase is Phase.CANCELLED
    assert not clock.tournament.is_open
    (cancelled,) = clock.events
    assert cancelled == ev.Cancelled((player(1).user_id, player(3).user_id))
    assert next_steps(clock.tournament) == frozenset()


def test_a_started_event_is_finished_not_called_off() -> None:
    clock = registered(2)
    clock.apply(StartTournament(seed=1))
    with pytest.raises(IllegalTransition) as refused:
        clock.apply(CancelTournament())
    assert refused.value.key == "tournament.cancel_after_start"
    with pytest.raises(IllegalTransition):
        replace(clock.tournament.state, phase=Phase.RUNNING).cancel()


def test_only_an_organizer_calls_an_event_off() -> None:
    clock = registered(1)
    with pytest.raises(PermissionDenied):
        clock.apply(CancelTournament(), player(1))


def test_nothing_more_happens_to_an_event_called_off() -> None:
    clock = registered(2)
    clock.apply(CancelTournament())
    with pytest.raises(IllegalTransition) as twice:
        clock.apply(CancelTournament())
    assert twice.value.key == "tournament.already_cancelled"
    with pytest.raises(IllegalTransition) as late:
        clock.apply(Register(player(5).user_id, "Late"), player(5))
    assert late.value.key == "registration.closed"
    with pytest.raises(IllegalTransition) as settings:
        clock.apply(ChangeSettings(SettingsChange(checkin_minutes=10)))
    assert settings.value.key == "tournament.cancelled"
    with pytest.raises(IllegalTransition):
        clock.apply(StartTournament(seed=1))
    with pytest.raises(IllegalTransition):
        clock.apply(FinishTournament())


# -- handles --------------------------------------------------------------------------------


def test_a_handle_given_at_registration_is_the_name_the_event_shows() -> None:
    clock = Clock(new_tournament())
    clock.apply(Register(player(1).user_id, "Yui Hirasawa", "ゆい"), player(1))
    assert clock.tournament.players[player(1).user_id].display_name == "ゆい"


def test_a_handle_is_checked_as_a_chosen_name() -> None:
    clock = Clock(new_tournament())
    with pytest.raises(InvalidInput):
        clock.apply(Register(player(1).user_id, "Yui", "@everyone"), player(1))
    assert player(1).user_id not in clock.tournament.players


def test_a_handle_set_later_renames_the_player_and_clearing_it_brings_the_discord_name() -> None:
    clock = registered(2)
    user = player(1).user_id
    clock.apply(SetHandle(user, "Player 1", "ムギ"), player(1))
    assert clock.tournament.players[user].display_name == "ムギ"
    assert clock.events == (ev.NameChanged(user, "Player 1", "ムギ"),)
    clock.apply(SetHandle(user, "Tsumugi", None), player(1))  # the Discord name as it is now
    assert clock.tournament.players[user].display_name == "Tsumugi"
    clock.apply(SetHandle(user, "Tsumugi", None), player(1))
    assert clock.events == ()  # nothing changed, nothing said


def test_a_player_renames_only_themselves_and_a_finished_event_keeps_its_names() -> None:
    clock = registered(2)
    with pytest.raises(PermissionDenied):
        clock.apply(SetHandle(player(2).user_id, "Player 2", "X"), player(1))
    clock.apply(SetHandle(player(2).user_id, "Player 2", "Organizer's doing"))  # an import
    finished = play_event([101, 102])
    with pytest.raises(IllegalTransition):
        Clock(finished).apply(SetHandle(101, "P1", "Later"), player(1))


# -- settings: repeat and reminders ----------------------------------------------------------


def test_repeat_and_reminders_are_settings_that_a_copy_carries() -> None:
    clock = registered(0)
    clock.apply(ChangeSettings(SettingsChange(repeat=Repeat.BIWEEKLY, reminders=False)))
    settings = clock.tournament.settings
    assert settings.repeat is Repeat.BIWEEKLY
    assert settings.reminders is False
    assert SeriesRepeat is Repeat  # one enum: the setting is what the series' planner reads


def test_operations_logged_before_these_fields_read_back_as_they_were_applied() -> None:
    # Payloads written before these fields existed: no handle, no copy, no repeat.
    assert Register.from_payload({"player_id": 101, "display_name": "Yui"}) == Register(101, "Yui")
    created = CreateTournament(new_tournament().config).to_payload()
    del created["copied_from"], created["repeated"]
    assert CreateTournament.from_payload(created) == CreateTournament(new_tournament().config)
    change = ChangeSettings(SettingsChange(checkin_minutes=10)).to_payload()
    del change["change"]["repeat"], change["change"]["reminders"]
    assert ChangeSettings.from_payload(change) == ChangeSettings(SettingsChange(checkin_minutes=10))


def test_the_new_operations_fold_back_from_the_log() -> None:
    clock = registered(2)
    operations = [
        (SetHandle(player(1).user_id, "Player 1", "ゆい"), player(1)),
        (ChangeSettings(SettingsChange(repeat=Repeat.WEEKLY)), ORGANIZER),
        (CancelTournament(), ORGANIZER),
    ]
    log = [
        LoggedOperation(
            1,
            "create_tournament",
            CreateTournament(clock.tournament.config, 7, True).to_payload(),
            ORGANIZER.user_id,
            ORGANIZER.role,
            T0,
        ),
        LoggedOperation(
            2,
            "change_settings",
            ChangeSettings(SettingsChange(decklist_required=False)).to_payload(),
            ORGANIZER.user_id,
            ORGANIZER.role,
            T0,
        ),
    ]
    for number in (1, 2):
        op = Register(player(number).user_id, f"Player {number}")
        log.append(
            LoggedOperation(
                len(log) + 1,
                op.kind,
                op.to_payload(),
                player(number).user_id,
                player(number).role,
                T0,
            )
        )
    for operation, actor in operations:
        clock.apply(operation, actor)
        log.append(
            LoggedOperation(
                len(log) + 1, operation.kind, operation.to_payload(), actor.user_id, actor.role, T0
            )
        )
    folded = fold(1, 1000, log)
    assert folded.phase is Phase.CANCELLED
    assert folded.players[player(1).user_id].display_name == "ゆい"
    assert folded.settings.repeat is Repeat.WEEKLY


# -- reminders -------------------------------------------------------------------------------


def with_start(clock: Clock, hours_ahead: float, **settings: object) -> None:
    start = clock.at + timedelta(hours=hours_ahead)
    clock.apply(ChangeSettings(SettingsChange(starts_at=start, **settings)))  # type: ignore[arg-type]


def test_a_day_and_an_hour_before_the_start_each_registered_player_is_due_a_reminder() -> None:
    clock = registered(2, max_players=2)
    clock.apply(Register(player(3).user_id, "Waiting"), player(3))  # waitlisted: not reminded
    with_start(clock, 48)
    start = clock.tournament.starts_at
    assert start is not None
    assert due_reminders(clock.tournament, start - timedelta(hours=25)) == []
    day = due_reminders(clock.tournament, start - timedelta(hours=24))
    assert [(r.player_id, r.hours) for r in day] == [(101, 24), (102, 24)]
    hour = due_reminders(clock.tournament, start - timedelta(minutes=59))
    assert [(r.player_id, r.hours) for r in hour] == [(101, 1), (102, 1)]
    assert due_reminders(clock.tournament, start) == []
    assert len({r.key for r in day + hour}) == 4  # each planned once


def test_a_player_who_registers_after_a_reminders_moment_gets_only_the_next_one() -> None:
    clock = registered(1)
    with_start(clock, 5)  # three hours ago it was a day before: too late for that one
    start = clock.tournament.starts_at
    assert start is not None
    assert due_reminders(clock.tournament, clock.at) == []
    assert [r.hours for r in due_reminders(clock.tournament, start - timedelta(minutes=30))] == [1]


def test_a_moved_start_makes_new_reminders_and_none_come_when_turned_off() -> None:
    clock = registered(1)
    with_start(clock, 48)
    first = clock.tournament.starts_at
    assert first is not None
    before = due_reminders(clock.tournament, first - timedelta(hours=2))
    with_start(clock, 72)
    second = clock.tournament.starts_at
    assert second is not None
    after = due_reminders(clock.tournament, second - timedelta(hours=2))
    assert {r.key for r in before}.isdisjoint(r.key for r in after)
    clock.apply(ChangeSettings(SettingsChange(reminders=False)))
    assert due_reminders(clock.tournament, second - timedelta(hours=2)) == []


@given(st.integers(min_value=-48 * 60, max_value=48 * 60))
def test_at_most_one_reminder_is_due_at_any_moment(minutes: int) -> None:
    deadline = T0 + timedelta(days=3)
    now = deadline + timedelta(minutes=minutes)
    due = due_reminder(deadline, now)
    windows = [
        deadline - before
        <= now
        < deadline - (REMINDERS[i + 1] if i + 1 < len(REMINDERS) else timedelta(0))
        for i, before in enumerate(REMINDERS)
    ]
    assert sum(windows) <= 1
    assert (due is not None) == any(windows)
    if due is not None:
        assert deadline - due <= now < deadline


# -- the calendar -----------------------------------------------------------------------------


def test_the_calendar_entry_follows_the_event() -> None:
    clock = registered(4, rounds=3)
    assert calendar_entry(clock.tournament).status is CalendarStatus.NONE
    with_start(clock, 24)
    entry = calendar_entry(clock.tournament)
    start = clock.tournament.starts_at
    assert entry.status is CalendarStatus.SCHEDULED
    assert entry.start == start
    assert start is not None
    assert entry.end == start + 3 * (timedelta(minutes=40) + BETWEEN_ROUNDS)
    clock.apply(StartTournament(seed=1))
    assert calendar_entry(clock.tournament).status is CalendarStatus.ACTIVE
    finished = play_event([101, 102])
    assert calendar_entry(finished).status is CalendarStatus.COMPLETED
    called_off = registered(1)
    called_off.apply(CancelTournament())
    assert calendar_entry(called_off.tournament).status is CalendarStatus.CANCELLED


def test_an_event_is_expected_to_last_its_rounds() -> None:
    swiss = registered(8)  # Swiss rounds from the players: 3
    assert expected_rounds(swiss.tournament) == 3
    cut = Clock(new_tournament(format=EventFormat.SWISS_TOP_CUT, top_cut=8, max_players=32))
    assert expected_rounds(cut.tournament) == 5 + 3  # 32 expected, then a top 8
    start = T0 + timedelta(days=1)
    assert expected_end(cut.tournament, start) > start
    assert all(
        expected_rounds(registered(n).tournament) >= 1 for n in (0, 1, 2)
    )  # never nothing: at least the smallest event's round
    assert registered(0).tournament.count(PlayerStatus.REGISTERED) == 0

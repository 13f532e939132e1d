"""Copying an event, once or as the next of a weekly series.

The copy keeps everything the organizer chose for the last one: format, regulation, titles,
time limit, rounds, top cut, capacity, and every setting (check-in window, late entry,
decklists, restricted list, no-show rules …). What changes is the name (the next number,
`naming.next_event_name`) and the date: a week or two later for a repeat, at the same local
time of day (Japan time unless told), or the date the organizer gives for a one-off copy.
Players, decks and results are never copied.

The copy is validated again by `make_event_config`, so a copy of an old event is refused
with the same keyed error as a new one would be (e.g. a name grown too long).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, tzinfo

from domain.errors import InvalidInput, one_of
from domain.event import EventConfig, make_event_config
from domain.series.naming import next_event_name
from domain.timeparse import JST
from domain.tournament.model import Settings, Tournament
from domain.tournament.operations import SETTING_NAMES, SettingsChange
from domain.tournament.operations import Repeat as Repeat  # how often: a setting


def parse_repeat(text: str) -> Repeat:
    """A `Repeat` from its value; InvalidInput(`series.repeat.unknown`, value=…) otherwise."""
    return one_of(Repeat, text.strip().lower(), "series.repeat.unknown")


def next_date(previous: date, repeat: Repeat) -> date:
    """The calendar day of the next event: 7 or 14 days later."""
    return previous + _interval(repeat)


def next_start(previous: datetime, repeat: Repeat, tz: tzinfo = JST) -> datetime:
    """The next start: 7 or 14 days later at the same local time of day in `tz`."""
    return same_time_on(previous, previous.astimezone(tz).date() + _interval(repeat), tz)


def same_time_on(moment: datetime, day: date, tz: tzinfo = JST) -> datetime:
    """`moment`'s local time of day in `tz` on `day`, as an aware time in `tz`: the wall
    clock people read, also across a daylight-saving change where `tz` has one."""
    if moment.tzinfo is None:
        raise ValueError("the start time must be timezone-aware")
    local = moment.astimezone(tz)
    return datetime.combine(day, local.time().replace(tzinfo=None), tzinfo=tz)


def _interval(repeat: Repeat) -> timedelta:
    interval = repeat.interval
    if interval is None:
        raise InvalidInput("series.repeat.needs_date")
    return interval


@dataclass(frozen=True)
class NextEvent:
    """What the next tournament is created with: `CreateTournament(config)`, then, when
    `settings_change` is not None, `ChangeSettings(settings_change)` in the same transaction,
    so the copied settings are in the action log like an organizer's own."""

    config: EventConfig
    settings: Settings

    @property
    def settings_change(self) -> SettingsChange | None:
        """The change from a new tournament's default settings to `settings` (None: none)."""
        defaults = Settings()
        changed = {
            name: getattr(self.settings, name)
            for name in SETTING_NAMES
            if getattr(self.settings, name) != getattr(defaults, name)
        }
        # From the defaults nothing is cleared: a None here is a default that stays.
        return SettingsChange(**changed) if changed else None


def plan_next_event(
    config: EventConfig,
    settings: Settings,
    repeat: Repeat,
    *,
    name: str | None = None,
    event_date: date | None = None,
    tz: tzinfo = JST,
    taken_names: Collection[str] = (),
) -> NextEvent:
    """The next event after the one with `config` and `settings`.

    `name` defaults to the next name (`next_event_name`, avoiding `taken_names`). With a
    repeat, the date moves by its interval; with `Repeat.NONE`, `event_date` is required (an
    `event_date` given with a repeat wins over the computed one). `starts_at` moves to the new
    day at the same local time in `tz`; the check-in window, set in minutes before the
    start, moves with it. Refused with the keyed errors of `make_event_config`, and
    `series.repeat.needs_date`. A repeat counts from the start's day in `tz` when there is a
    start, else from the event's date.
    """
    starts_at = settings.starts_at
    # The event is held on its start's day when it has one: an event created on Monday
    # (dated that day by default) and started on Saturday repeats on Saturdays.
    held_on = starts_at.astimezone(tz).date() if starts_at is not None else config.event_date
    day = event_date if event_date is not None else next_date(held_on, repeat)
    if starts_at is not None:
        starts_at = same_time_on(starts_at, day, tz)
    next_config = make_event_config(
        name=name if name is not None else next_event_name(config.name, taken_names),
        format=config.format.value,
        regulation=config.regulation,
        event_date=day,
        rounds=config.rounds,
        top_cut=config.top_cut,
        time_limit_minutes=config.time_limit_minutes,
        titles=", ".join(config.titles),
        max_players=config.max_players,
    )
    return NextEvent(next_config, replace(settings, starts_at=starts_at))


def plan_repeat(
    tournament: Tournament,
    repeat: Repeat,
    *,
    name: str | None = None,
    event_date: date | None = None,
    tz: tzinfo = JST,
    taken_names: Collection[str] = (),
) -> NextEvent:
    """`plan_next_event` for the event of `tournament` (finished or not: an upcoming event
    can be copied too)."""
    return plan_next_event(
        tournament.config,
        tournament.settings,
        repeat,
        name=name,
        event_date=event_date,
        tz=tz,
        taken_names=taken_names,
    )

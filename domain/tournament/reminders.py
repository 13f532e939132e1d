"""Reminders to the registered players before an event: 24 hours and 1 hour
before check-in closes, which is the start (check-in is open until the start; an event
without check-in is reminded of its start). Pure: the bot looks at the clock and keeps
each reminder once (its `key`).

Which players, and when:

- a reminder is due from its moment (`deadline - before`) until the next, nearer reminder
  is due (or, for the last one, until the deadline): a bot that was down at the moment sends
  it late rather than never, and never sends a day-before reminder when the hour-before one
  is already due;
- it goes, once each, to every player in the event (registered, not waitlisted) who had
  registered by its moment: a player who registers later was just told everything by the
  registration's answer, and hears from the next reminder (an event set to start in three
  hours reminds its players an hour before, not a day before);
- a start time moved to another moment makes new reminders (the key names the deadline),
  so players hear of the new time; the old ones are not sent again;
- nothing before an event whose organizer turned them off (`Settings.reminders`), an event
  without a start time, and once it has started or is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from domain.engine.players import PlayerStatus
from domain.engine.state import Phase
from domain.tournament.model import Tournament

# Nearest last: each reminder is due until the next one is.
REMINDERS = (timedelta(hours=24), timedelta(hours=1))


@dataclass(frozen=True)
class Reminder:
    """One player's reminder of one event's deadline."""

    tournament_id: int
    player_id: int
    before: timedelta  # how long before the deadline it is meant to come
    deadline: datetime  # when check-in closes: the start

    @property
    def hours(self) -> int:
        return int(self.before.total_seconds() // 3600)

    @property
    def key(self) -> str:
        """What the bot remembers a reminder by, so that it is planned once."""
        stamp = int(self.deadline.timestamp())
        return f"entry_reminder:{self.tournament_id}:{stamp}:{self.hours}:{self.player_id}"


def reminder_deadline(tournament: Tournament) -> datetime | None:
    """When check-in closes, which is the start; None when there is nothing to remind of."""
    if tournament.phase is not Phase.REGISTRATION or not tournament.settings.reminders:
        return None
    return tournament.settings.starts_at


def due_reminder(deadline: datetime, now: datetime) -> timedelta | None:
    """The reminder due at `now` before `deadline` (None: none is)."""
    for index, before in enumerate(REMINDERS):
        opens = deadline - before
        closes = deadline - REMINDERS[index + 1] if index + 1 < len(REMINDERS) else deadline
        if opens <= now < closes:
            return before
    return None


def due_reminders(tournament: Tournament, now: datetime) -> list[Reminder]:
    """The reminders due at `now`, one per player in the event, in arrival order."""
    deadline = reminder_deadline(tournament)
    if deadline is None:
        return []
    before = due_reminder(deadline, now)
    if before is None:
        return []
    moment = deadline - before
    return [
        Reminder(tournament.id, entry.user_id, before, deadline)
        for entry in tournament.entries(PlayerStatus.REGISTERED)
        if entry.registered_at <= moment
    ]

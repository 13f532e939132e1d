"""The server's calendar (Discord's scheduled events): what a tournament's entry
should say now. Pure: the delivery compares it with what Discord has and changes only what
differs, so sending it twice, or after a crash, changes nothing more.

- before the start, with a start time: scheduled at that time, ending when the event is
  expected to end (`expected_end`);
- before the start, without one: no entry (one made for an earlier time is removed);
- running: under way (Discord's 「開催中」);
- finished: completed; cancelled (中止): cancelled.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from domain.engine.rounds import default_rounds
from domain.engine.state import Phase
from domain.event import EventFormat
from domain.tournament.model import IN_EVENT, Tournament
from domain.tournament.registration import MINIMUM_PLAYERS

# Between two rounds: results, standings and the next pairing.
BETWEEN_ROUNDS = timedelta(minutes=10)
# Players expected before anyone registered, when no capacity is set.
EXPECTED_PLAYERS = 8


class CalendarStatus(StrEnum):
    NONE = "none"  # no entry on the calendar
    SCHEDULED = "scheduled"
    ACTIVE = "active"
    COMPLETED = "completed"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class CalendarEntry:
    status: CalendarStatus
    start: datetime | None = None  # the start to show (None: leave it as it is)
    end: datetime | None = None


def calendar_entry(tournament: Tournament) -> CalendarEntry:
    """The tournament's calendar entry as it should be now."""
    phase = tournament.phase
    if phase is Phase.CANCELLED:
        return CalendarEntry(CalendarStatus.CANCELLED)
    if phase is Phase.FINISHED:
        return CalendarEntry(CalendarStatus.COMPLETED)
    if phase in (Phase.RUNNING, Phase.TOP_CUT):
        return CalendarEntry(CalendarStatus.ACTIVE)
    start = tournament.settings.starts_at
    if start is None:
        return CalendarEntry(CalendarStatus.NONE)
    return CalendarEntry(CalendarStatus.SCHEDULED, start, expected_end(tournament, start))


def expected_rounds(tournament: Tournament) -> int:
    """The rounds the event will likely play: its Swiss rounds (fixed, or from the players
    expected) and its bracket."""
    entered = tournament.count(*IN_EVENT)  # the waitlist plays only if someone leaves
    players = max(entered or tournament.max_players or EXPECTED_PLAYERS, MINIMUM_PLAYERS)
    if tournament.format is EventFormat.ELIMINATION:
        return default_rounds(players)
    swiss = tournament.round_count or default_rounds(players)
    cut = tournament.top_cut or 0
    return swiss + (default_rounds(cut) if cut else 0)


def expected_end(tournament: Tournament, start: datetime) -> datetime:
    """When the event is expected to end: each round its time limit and the pause after."""
    per_round = timedelta(minutes=tournament.time_limit_minutes) + BETWEEN_ROUNDS
    return start + per_round * expected_rounds(tournament)

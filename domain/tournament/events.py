"""What an applied operation did, beyond the new state: what the bot tells people about."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from domain.engine.results import MatchResult
from domain.tournament.penalties import JudgeCall, Penalty


@dataclass(frozen=True)
class Event:
    pass


E = TypeVar("E", bound=Event)


def only(events: Iterable[Event], kind: type[E]) -> E:
    """The one event of `kind` an operation produced (its result for the caller)."""
    (found,) = [event for event in events if isinstance(event, kind)]
    return found


@dataclass(frozen=True)
class TournamentCreated(Event):
    tournament_id: int


@dataclass(frozen=True)
class Registered(Event):
    player_id: int
    waitlist_position: int | None  # None: in the event
    joined_round: int  # 0 unless joining a running event (R-FMT-8)


@dataclass(frozen=True)
class Unregistered(Event):
    player_id: int


@dataclass(frozen=True)
class Promoted(Event):
    """The first waitlisted player moved into the event."""

    player_id: int


@dataclass(frozen=True)
class CheckedIn(Event):
    player_id: int


@dataclass(frozen=True)
class DeckStored(Event):
    player_id: int
    fingerprint: str
    total: int


@dataclass(frozen=True)
class SettingsChanged(Event):
    names: tuple[str, ...]


@dataclass(frozen=True)
class Started(Event):
    playing: tuple[int, ...]
    without_deck: tuple[int, ...]  # no legal list at the start
    dropped: tuple[int, ...]  # removed at the start (no deck per setting, or no check-in)
    not_checked_in: tuple[int, ...]


@dataclass(frozen=True)
class DecksPublished(Event):
    count: int


@dataclass(frozen=True)
class LivePageChanged(Event):
    """The public live page was turned on or off."""

    public: bool


@dataclass(frozen=True)
class RoundPaired(Event):
    round: int


@dataclass(frozen=True)
class RoundUnpaired(Event):
    round: int


@dataclass(frozen=True)
class RoundCompleted(Event):
    """The last result of the current round came in: the next step is the organizer's."""

    round: int


@dataclass(frozen=True)
class ClockStarted(Event):
    round: int
    ends_at: datetime


@dataclass(frozen=True)
class ReportFiled(Event):
    """A report waits for the opponent's confirmation."""

    round: int
    table: int
    player_id: int


@dataclass(frozen=True)
class ReportsDisagree(Event):
    """Both players reported, differently: the judges decide."""

    round: int
    table: int


@dataclass(frozen=True)
class ResultConfirmed(Event):
    round: int
    table: int
    by_both: bool  # two matching reports, rather than a Confirm press


@dataclass(frozen=True)
class ResultDisputed(Event):
    round: int
    table: int
    player_id: int
    reason: str


@dataclass(frozen=True)
class ResultSet(Event):
    """A judge set or corrected a result (the old one for the log's readers)."""

    round: int
    table: int
    old: MatchResult | None
    new: MatchResult


@dataclass(frozen=True)
class Dropped(Event):
    player_id: int
    after_round: int
    match_unfinished: bool  # their current match still needs its result


@dataclass(frozen=True)
class Undropped(Event):
    player_id: int


@dataclass(frozen=True)
class TableExtended(Event):
    round: int
    table: int
    total_minutes: int
    ends_at: datetime


@dataclass(frozen=True)
class RoundExtended(Event):
    """R-MATCH-7, for the whole round: `tables` (those still playing) got `minutes` more;
    `ends_at` is when a table without an earlier extension now ends."""

    round: int
    minutes: int
    tables: tuple[int, ...]
    ends_at: datetime


@dataclass(frozen=True)
class Finished(Event):
    pass


@dataclass(frozen=True)
class Cancelled(Event):
    """Called off before the start (中止): `entered` were registered or waitlisted."""

    entered: tuple[int, ...]


@dataclass(frozen=True)
class NameChanged(Event):
    """A player's name in the event changed (their handle was set or cleared)."""

    player_id: int
    old: str
    new: str


@dataclass(frozen=True)
class PenaltyGiven(Event):
    penalty: Penalty


@dataclass(frozen=True)
class PenaltyRevoked(Event):
    penalty: Penalty


@dataclass(frozen=True)
class JudgeCalled(Event):
    call: JudgeCall


@dataclass(frozen=True)
class CallClaimed(Event):
    call: JudgeCall


@dataclass(frozen=True)
class CallResolved(Event):
    call: JudgeCall


@dataclass(frozen=True)
class Undone(Event):
    """An organizer took back an earlier operation (its log row, as it was logged)."""

    action_id: int
    kind: str
    actor_id: int
    payload: dict[str, Any]

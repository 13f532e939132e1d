"""The round clock's notices (R-MATCH-1, R-MATCH-2, R-MATCH-7): reminders before the end,
the time-up instruction per end time (an extended table ends later), and reports that
nobody confirmed in time. Pure: the bot decides when to look and remembers what it posted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from domain.tournament.penalties import REPING_AFTER, JudgeCall
from domain.tournament.rounds import Round

REMINDER_MINUTES = (10, 5)
# How late a clock notice may still go out as if on time (the bot's CLOCK_GRACE_SECONDS).
CLOCK_GRACE = timedelta(seconds=90)


class NoticeKind(StrEnum):
    REMINDER = "reminder"  # N minutes left
    TIME_UP = "time_up"  # R-MATCH-2: finish the turn after this one, then count
    UNCONFIRMED = "unconfirmed"  # a report waited too long for the opponent
    CALL_REPING = "call_reping"  # a judge call nobody claimed: ping the judges once more


@dataclass(frozen=True)
class Notice:
    kind: NoticeKind
    round: int
    due: datetime
    tables: tuple[int, ...]
    minutes_left: int = 0
    call_id: int = 0

    @property
    def ends(self) -> datetime:
        """When the notice's tables end: a reminder comes `minutes_left` before."""
        return self.due + timedelta(minutes=self.minutes_left)

    @property
    def key(self) -> str:
        """What the bot remembers a notice by, so that it is posted once."""
        if self.kind is NoticeKind.CALL_REPING:
            return f"{self.kind.value}:{self.call_id}"
        tables = ",".join(map(str, self.tables)) if self.kind is NoticeKind.UNCONFIRMED else ""
        return f"{self.kind.value}:{self.minutes_left}:{self.due.isoformat()}:{tables}"


def reminder_ends(played: Round, tables: Sequence[int]) -> datetime | None:
    """When the tables a reminder is for end: the round's end, or an extended table's own
    (R-MATCH-7)."""
    first = played.match_at(tables[0]) if tables else None
    return played.table_ends_at(first) if first is not None else played.ends_at


def reminder_minutes(minutes: int, ends: datetime, now: datetime, grace: timedelta) -> int | None:
    """What a reminder of `minutes` left says when it goes out at `now`: its own minutes
    while it is within `grace` of its moment. Later (Discord was away while it waited), the
    whole minutes really left, so that nobody plays to a clock that is wrong; nothing when
    a shorter reminder, or the time-up, says it by now."""
    if now - (ends - timedelta(minutes=minutes)) <= grace:
        return minutes
    left = (ends - now) // timedelta(minutes=1)
    shorter = [other for other in REMINDER_MINUTES if other < minutes]
    if left < 1 or (shorter and left <= max(shorter)):
        return None
    return min(left, minutes)


def call_notices(calls: Sequence[JudgeCall]) -> list[Notice]:
    """A call still unclaimed after three minutes is pinged once more."""
    return [
        Notice(
            NoticeKind.CALL_REPING,
            call.round,
            call.called_at + REPING_AFTER,
            (call.table,) if call.table else (),
            call_id=call.id,
        )
        for call in calls
        if call.open and call.claimed_by is None
    ]


def clock_notices(current: Round, *, unconfirmed_after: timedelta) -> list[Notice]:
    """Every notice the round's clock gives, due or not, for the tables still playing."""
    if current.ends_at is None:
        return []
    playing = [m for m in current.matches if not current.finished(m)]
    if not playing:
        return []
    # An extended table (R-MATCH-7) has its own end: its reminders and its time-up follow
    # that end, not the round's.
    by_end: dict[datetime, list[int]] = {}
    for match in playing:
        ends = current.table_ends_at(match)
        assert ends is not None
        by_end.setdefault(ends, []).append(match.table)
    notices = [
        Notice(
            NoticeKind.REMINDER,
            current.number,
            ends - timedelta(minutes=minutes),
            tuple(tables),
            minutes,
        )
        for ends, tables in sorted(by_end.items())
        for minutes in REMINDER_MINUTES
    ]
    notices += [
        Notice(NoticeKind.TIME_UP, current.number, ends, tuple(tables))
        for ends, tables in sorted(by_end.items())
    ]
    for match in playing:
        if match.reports and not match.disputed:
            oldest = min(report.at for report in match.reports)
            notices.append(
                Notice(
                    NoticeKind.UNCONFIRMED,
                    current.number,
                    oldest + unconfirmed_after,
                    (match.table,),
                )
            )
    return sorted(notices, key=lambda notice: notice.due)

"""The bot's timed jobs: the round clock's notices, each planned once and never posted late as
if on time after the bot was down, and the registration posts' チェックイン button, shown while
the check-in window is open. What they say goes through the outbox, like every notice."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.notify.plan import Notice, Place, Say, plan_clock, plan_clock_rooms
from bot.services.base import Clock, Service
from bot.store.uow import Store
from domain.tournament.clock import CLOCK_GRACE, call_notices, clock_notices
from domain.tournament.clock import Notice as ClockNotice
from domain.tournament.model import Tournament
from domain.tournament.rounds import Round

# A fixed origin, so that a restarted bot's fast clock goes on from where it was.
SCALED_CLOCK_ORIGIN = datetime(2026, 1, 1, tzinfo=UTC)


def scaled_clock(
    speed: float,
    now: Clock,
    origin: datetime = SCALED_CLOCK_ORIGIN,
    *,
    ahead: timedelta = timedelta(0),
) -> Clock:
    """A clock that runs `speed` times faster than `now` and `ahead` of it (the CLOCK_SPEED
    and CLOCK_OFFSET_MINUTES test settings)."""
    if speed == 1 and not ahead:
        return now

    def scaled() -> datetime:
        return origin + (now() - origin) * speed + ahead

    return scaled


@dataclass(frozen=True)
class DueNotice:
    tournament: Tournament
    round: Round
    notice: ClockNotice
    late: bool  # overdue past the grace period: record it, do not post it


@dataclass(frozen=True)
class ClockTimes:
    """How the round clock judges time (the settings UNCONFIRMED_REPORT_MINUTES and
    CLOCK_GRACE_SECONDS)."""

    # A report nobody confirmed is flagged to the judges after this long.
    unconfirmed_after: timedelta = timedelta(minutes=10)
    # A notice overdue by more than this (the bot was down) is recorded, not posted.
    grace: timedelta = CLOCK_GRACE


class ClockService(Service):
    def __init__(self, store: Store, times: ClockTimes, **shared: Any) -> None:
        super().__init__(store, **shared)
        self.unconfirmed_after = times.unconfirmed_after
        self.grace = times.grace

    async def due(self) -> list[DueNotice]:
        """Notices whose time has come and that were never planned (posted or skipped)."""
        now = self.clock()
        found: list[DueNotice] = []
        for guild_id, tournament_id in await self.store.posts.running():
            async with self.reader(guild_id) as tx:
                tournament = await tx.load(tournament_id)
                current = tournament.current if tournament else None
                if tournament is None or current is None:
                    continue
                planned = await tx.planned(tournament_id, f"clock:{tournament_id}:")
            notices = clock_notices(current, unconfirmed_after=self.unconfirmed_after)
            notices += [n for n in call_notices(tournament.calls) if n.round == current.number]
            for notice in notices:
                if notice.due > now or self._planned(notice, tournament).key in planned:
                    continue
                late = now - notice.due > self.grace
                found.append(DueNotice(tournament, current, notice, late))
        return found

    async def claim(self, due: DueNotice) -> bool:
        """Plan the notice (a late one as skipped): False when it was planned already."""
        async with self.bookkeeping(due.tournament.guild_id) as tx:
            told = self._planned(due.notice, due.tournament)
            # The tables' rooms hear it too: planned with it, never after it was claimed.
            rooms = plan_clock_rooms(due.notice, due.tournament)
            written = await tx.tell(due.tournament, [told, *rooms], sent=not due.late)
        return written > 0

    def _planned(self, notice: ClockNotice, tournament: Tournament) -> Notice:
        minutes = int(self.unconfirmed_after.total_seconds() // 60)
        return plan_clock(notice, tournament, unconfirmed_minutes=minutes)

    async def tick(self) -> int:
        """Plan every notice due now; how many go out."""
        planned = 0
        for due in await self.due():
            if await self.claim(due) and not due.late:
                planned += 1
        return planned

    def checkin_open(self, tournament: Tournament) -> bool:
        return tournament.checkin_open(self.clock())

    async def refresh_entry_posts(self) -> int:
        """Registration posts whose チェックイン button should appear or go are edited; how
        many."""
        changed = 0
        for post in await self.store.posts.entry_posts():
            async with self.reader(post.guild_id) as tx:
                tournament = await tx.load(post.tournament_id)
            if tournament is None:
                continue
            show = self.checkin_open(tournament)
            if show == post.checkin_shown:
                continue
            async with self.bookkeeping(post.guild_id) as tx:
                await tx.save_entry_post(replace(post, checkin_shown=show))
                refresh = Notice(Say.REGISTRATION_REFRESH, (Place.REGISTRATION_POST,))
                await tx.tell(tournament, [refresh])
            changed += 1
        return changed

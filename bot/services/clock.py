"""The round clock: which notices are due now, remembered so each is posted once, and
never posted late as if on time after the bot was down."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.services.base import Clock, Service
from bot.store.notices import (
    entry_posts,
    record_notice,
    recorded_notices,
    round_post,
    running_tournaments,
    save_entry_post,
    save_round_post,
)
from domain.tournament.clock import Notice, call_notices, clock_notices
from domain.tournament.model import Tournament
from domain.tournament.rounds import Round

# A fixed origin, so that a restarted bot's fast clock goes on from where it was.
SCALED_CLOCK_ORIGIN = datetime(2026, 1, 1, tzinfo=UTC)


def scaled_clock(speed: float, now: Clock, origin: datetime = SCALED_CLOCK_ORIGIN) -> Clock:
    """A clock that runs `speed` times faster than `now` (the CLOCK_SPEED test setting)."""
    if speed == 1:
        return now

    def scaled() -> datetime:
        return origin + (now() - origin) * speed

    return scaled


@dataclass(frozen=True)
class DueNotice:
    tournament: Tournament
    round: Round
    notice: Notice
    late: bool  # overdue past the grace period: record it, do not post it
    channel_id: int | None
    thread_id: int | None


class ClockService(Service):
    unconfirmed_after = timedelta(minutes=10)
    grace = timedelta(seconds=90)

    async def due(self) -> list[DueNotice]:
        """Notices whose time has come and that were never posted or skipped."""
        now = self.clock()
        async with self.store.database.read() as connection:
            running = await running_tournaments(connection)
        found: list[DueNotice] = []
        for guild_id, tournament_id in running:
            async with self.reader(guild_id) as tx:
                tournament = await tx.load(tournament_id)
                current = tournament.current if tournament else None
                if tournament is None or current is None:
                    continue
                recorded = await recorded_notices(tx.connection, tournament_id, current.number)
                place = await round_post(tx.connection, tournament_id, current.number)
            notices = clock_notices(current, unconfirmed_after=self.unconfirmed_after)
            notices += [n for n in call_notices(tournament.calls) if n.round == current.number]
            for notice in notices:
                if notice.due > now or notice.key in recorded:
                    continue
                found.append(
                    DueNotice(
                        tournament,
                        current,
                        notice,
                        late=now - notice.due > self.grace,
                        channel_id=place[0] if place else None,
                        thread_id=place[1] if place else None,
                    )
                )
        return found

    async def claim(self, due: DueNotice) -> bool:
        """Record the notice before posting it: False when another look already took it."""
        async with self.store.database.write() as connection:
            return await record_notice(
                connection,
                due.tournament.id,
                due.round.number,
                due.notice.key,
                posted=not due.late,
                at=self.clock().astimezone(UTC),
            )

    async def remember_round_post(
        self, tournament_id: int, number: int, channel_id: int, thread_id: int | None
    ) -> None:
        async with self.store.database.write() as connection:
            await save_round_post(connection, tournament_id, number, channel_id, thread_id)

    async def remember_entry_post(
        self, tournament: Tournament, channel_id: int, message_id: int
    ) -> bool:
        """Remember a registration post; True when its チェックイン button is shown now."""
        shown = tournament.checkin_open(self.clock())
        async with self.store.database.write() as connection:
            await save_entry_post(connection, tournament.id, channel_id, message_id, shown)
        return shown

    def checkin_open(self, tournament: Tournament) -> bool:
        return tournament.checkin_open(self.clock())

    async def entry_posts_to_update(self) -> list[tuple[Tournament, int, int, bool]]:
        """Registration posts whose チェックイン button should appear or go: (tournament,
        channel id, message id, show it). Recorded as done when returned."""
        async with self.store.database.read() as connection:
            posts = await entry_posts(connection)
        changes = []
        for guild_id, tournament_id, channel_id, message_id, shown in posts:
            async with self.reader(guild_id) as tx:
                tournament = await tx.load(tournament_id)
            if tournament is None:
                continue
            show = tournament.checkin_open(self.clock())
            if show != shown:
                async with self.store.database.write() as connection:
                    await save_entry_post(connection, tournament_id, channel_id, message_id, show)
                changes.append((tournament, channel_id, message_id, show))
        return changes

    async def round_place(self, tournament_id: int, number: int) -> tuple[int, int | None] | None:
        async with self.store.database.read() as connection:
            return await round_post(connection, tournament_id, number)

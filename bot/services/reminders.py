"""The reminders before an event: a timed job that plans, once each, the DM every
registered player gets 24 hours and 1 hour before check-in closes (the start), unless the
organizer turned them off (`domain.tournament.reminders` decides who and when). What they
say goes through the outbox, like every notice: by DM, or privately at the player's next
command when their DMs are closed."""

from __future__ import annotations

from bot.notify.plan import plan_reminder
from bot.services.base import Service
from domain.tournament.reminders import due_reminders


class ReminderService(Service):
    async def tick(self) -> int:
        """Plan every reminder due now that was never planned; how many."""
        now = self.clock()
        planned = 0
        for guild_id, tournament_id in await self.store.posts.upcoming():
            async with self.reader(guild_id) as tx:
                tournament = await tx.load(tournament_id)
                if tournament is None:
                    continue
                due = due_reminders(tournament, now)
                if not due:
                    continue
                known = await tx.planned(tournament_id, f"entry_reminder:{tournament_id}:")
            notices = [plan_reminder(reminder) for reminder in due if reminder.key not in known]
            if not notices:
                continue
            async with self.bookkeeping(guild_id) as tx:
                planned += await tx.tell(tournament, notices)
        return planned

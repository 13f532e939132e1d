"""The server's calendar: a tournament's Discord scheduled event, made once and then kept
in step with the tournament. It is read before it is changed, and only what differs from
how the tournament is now is sent; the event's id is remembered once made, and an event
made just before a crash is found again by its description (its creator is the bot, its
last line names the tournament), not made twice."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

import discord

from bot.delivery.calls import call as _call
from bot.store.uow import Store
from bot.ui.notices import CalendarText
from domain.tournament.calendar import CalendarStatus
from domain.tournament.model import Tournament

log = logging.getLogger(__name__)

EventStatus = discord.EventStatus
FINISHED_EVENT = frozenset({EventStatus.completed, EventStatus.cancelled})
CALENDAR_STATUS = {
    CalendarStatus.ACTIVE: EventStatus.active,
    CalendarStatus.COMPLETED: EventStatus.completed,
    CalendarStatus.CANCELLED: EventStatus.cancelled,
}


class Calendar:
    def __init__(self, client: discord.Client, store: Store, clock: Callable[[], datetime]) -> None:
        self.client = client
        self.store = store
        self.clock = clock

    async def keep(self, tournament: Tournament, text: CalendarText) -> bool:
        """Bring the tournament's scheduled event in step with `text.entry`: make it, move
        its time, start, complete or cancel it, or remove it. False when there was nothing
        to do (no event, and none wanted), or Discord refused what was asked (a time it
        takes for past, …): the calendar is a convenience, never worth an error."""
        try:
            return await self._calendar_in_step(tournament, text)
        except discord.HTTPException as error:
            if isinstance(error, discord.Forbidden | discord.NotFound):
                raise  # the place does not work here: said by the caller
            log.warning("the calendar of tournament %s was not changed: %s", tournament.id, error)
            return False

    async def _calendar_in_step(self, tournament: Tournament, text: CalendarText) -> bool:
        guild = self.client.get_guild(tournament.guild_id)
        if guild is None:
            guild = await _call(self.client.fetch_guild(tournament.guild_id))
        event = await self._calendar_event(guild, tournament, text)
        entry, now = text.entry, self.clock()
        wanted = entry.status
        if event is not None and event.status in FINISHED_EVENT:
            if wanted is not CalendarStatus.SCHEDULED:
                return True  # over on the calendar already, as the tournament is
            event = None  # over on the calendar, but the event was moved later: a new one
        if event is None:
            if wanted is not CalendarStatus.SCHEDULED or entry.start is None or entry.start <= now:
                return False  # nothing to show: no time, or one already past
            assert entry.end is not None
            made = await _call(
                guild.create_scheduled_event(
                    name=text.name,
                    start_time=entry.start,
                    end_time=entry.end,
                    entity_type=discord.EntityType.external,
                    privacy_level=discord.PrivacyLevel.guild_only,
                    location=await self._calendar_location(tournament, text),
                    description=text.description,
                )
            )
            await self.store.calendar.remember(tournament.id, made.id)
            return True
        if wanted is CalendarStatus.NONE:
            await _call(event.delete())
            await self.store.calendar.forget(tournament.id)
            return True
        if wanted is CalendarStatus.CANCELLED and event.status is not EventStatus.scheduled:
            await _call(event.delete())  # under way on the calendar: it never took place
            await self.store.calendar.forget(tournament.id)
            return True
        changes: dict[str, Any] = {}
        if event.name != text.name:
            changes["name"] = text.name
        if (event.description or "") != text.description:
            changes["description"] = text.description
        location = await self._calendar_location(tournament, text)
        if event.location != location:
            changes["location"] = location
        if wanted is CalendarStatus.SCHEDULED and event.status is EventStatus.scheduled:
            if entry.start is not None and entry.start != event.start_time and entry.start > now:
                changes["start_time"] = entry.start
            if entry.end is not None and entry.end != event.end_time:
                changes["end_time"] = entry.end
        status = CALENDAR_STATUS.get(wanted)
        if status is not None and event.status is not status:
            if status is EventStatus.completed and event.status is EventStatus.scheduled:
                event = await _call(event.edit(status=EventStatus.active))
            changes["status"] = status
        if changes:
            await _call(event.edit(**changes))
        return True

    async def _calendar_event(
        self, guild: discord.Guild, tournament: Tournament, text: CalendarText
    ) -> discord.ScheduledEvent | None:
        """The tournament's event: by the id remembered, or, when none is, the bot's own
        event whose description ends with the tournament's line (made just before a
        crash, its id not yet remembered)."""
        known = await self.store.calendar.event_id(tournament.id)
        if known is not None:
            try:
                return await _call(guild.fetch_scheduled_event(known, with_counts=False))
            except discord.NotFound:  # deleted on Discord by someone: made again if wanted
                await self.store.calendar.forget(tournament.id)
                return None
        me = self.client.user.id if self.client.user else None
        for event in await _call(guild.fetch_scheduled_events(with_counts=False)):
            lines = (event.description or "").splitlines()
            if event.creator_id == me and lines and lines[-1] in text.marker:
                await self.store.calendar.remember(tournament.id, event.id)
                return event
        return None

    async def _calendar_location(self, tournament: Tournament, text: CalendarText) -> str:
        """Where to find the event: its live page while public, else its registration post,
        else the server."""
        if text.location is not None:
            return text.location[:100]
        post = await self.store.posts.entry_post(tournament.id)
        if post is not None:
            return f"https://discord.com/channels/{tournament.guild_id}/{post.channel_id}/{post.message_id}"
        return text.fallback_location

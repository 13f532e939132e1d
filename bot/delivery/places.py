"""Where a notice goes: each of its places resolved to a channel, a DM or a post to edit,
and the places that refuse the bot remembered.

A place refuses when Discord answers 403 or 404 for it (a permission taken away, the
channel deleted, closed DMs). It is remembered (in the database, so a restart does not try
it again): its notices go to their next place at once; the staff are told once; a channel
is tried again after `RETRY_REFUSING`, and closed DMs after a day (or when the player uses
the bot in their DMs with it, which shows them open). A player's notice falls back only
to places players can read: never to a channel the server's members cannot see.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import discord

from bot.notify.plan import Place, Say
from bot.store.outbox import Outgoing
from bot.store.posts import RoundPlace
from bot.store.refusing import RefusingChannel
from bot.store.uow import Store
from domain.guild import GuildConfig

log = logging.getLogger(__name__)

RETRY_REFUSING = timedelta(minutes=10)
CLOSED_DMS_FOR = timedelta(days=1)
# A tournament's panel, looked up in the outbox at most this often (a rush of reports
# refreshes it at each commit); a panel posted here is known at once.
PANEL_SECONDS = 5.0


def wall_clock() -> datetime:
    """What refusals are remembered by: Discord's time, not the bot's (which tests speed
    up)."""
    return datetime.now(UTC)


DIRECT = (Place.PLAYER, Place.PLAYER_WITHOUT_THREAD, Place.PLAYER_WITHOUT_ROOM)
# The staff's places: notices there never wait behind the players' (`bot.delivery.pace`).
STAFF_PLACES = frozenset({Place.LOG, Place.JUDGES, Place.STAFF, Place.PANEL})
# Where a notice for everyone may fall back to only if the server's members can read it.
CHECKED_FALLBACKS = frozenset({Place.ORIGIN})

# Discord's error codes for a channel that refuses (docs: topics/opcodes-and-status-codes).
UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
CANNOT_DM = 50007
MISSING_PERMISSIONS = 50013


@dataclass(frozen=True)
class Target:
    """A place resolved: post in a channel (or a DM), edit a message, bring the calendar or
    a round's pairings post up to date, or keep a player's notice for their next command
    (`kept`: their DMs are closed)."""

    place: Place
    channel_id: int | None = None
    message_id: int | None = None  # an edit of this message
    user_id: int | None = None  # a DM to this user
    ping_role: int | None = None
    kept: bool = False
    owner: int | None = None  # the tournament, for the places that are its own

    @property
    def direct(self) -> bool:
        return self.user_id is not None

    @property
    def staff(self) -> bool:
        return self.place in STAFF_PLACES

    @property
    def lane(self) -> Hashable:
        """What is sent one after the other: one channel's posts, one post's edits, one
        person's DMs, one tournament's calendar entry or pairings marks."""
        if self.place in (Place.CALENDAR, Place.PAIRINGS_POST, Place.ROOMS):
            return (self.place, self.owner)
        if self.user_id is not None:
            return ("dm", self.user_id)
        if self.message_id is not None:
            return ("edit", self.channel_id, self.message_id)
        return ("post", self.channel_id)


class Places:
    """Resolves places against the server's settings and the bot's posts, and remembers
    the places that refuse."""

    def __init__(self, client: discord.Client, store: Store) -> None:
        self.client = client
        self.store = store
        self.refusing: dict[int, RefusingChannel] = {}
        self.closed_dms: dict[int, datetime] = {}
        self.dm_channels: dict[int, int] = {}  # user → their DM channel, once opened
        self._round_places: dict[tuple[int, int], RoundPlace | None] = {}
        # Tournament → (when looked up, its panel's channel and message).
        self._panels: dict[int, tuple[float, tuple[int, int]]] = {}

    async def load(self) -> None:
        """What was remembered before a restart."""
        self.refusing = {found.channel_id: found for found in await self.store.refusing.channels()}
        self.closed_dms = await self.store.refusing.closed_dms()
        self.dm_channels = await self.store.refusing.dm_channels()

    # -- resolving ----------------------------------------------------------------------

    async def resolve(
        self, notice: Outgoing, config: GuildConfig, now: datetime, start: int = 0
    ) -> tuple[int, Target] | None:
        """The first of the notice's places from `start` on that exists here and does not
        refuse the bot: (its index, where it is)."""
        for index in range(start, len(notice.places)):
            place = notice.places[index]
            target = await self._resolve(place, notice, config)
            if target is None:
                continue
            if target.channel_id is not None and self._refuses(target.channel_id, now):
                continue
            if index > 0 and place in CHECKED_FALLBACKS and not self._members_read(notice, target):
                log.info("notice %s (%s): %s is not for everyone", notice.id, notice.say, place)
                continue
            if target.user_id is not None and self._dms_closed(target.user_id, now):
                target = Target(place, user_id=target.user_id, kept=True, owner=target.owner)
            return index, target
        return None

    async def _resolve(self, place: Place, notice: Outgoing, config: GuildConfig) -> Target | None:
        tournament = notice.tournament_id
        if place is Place.PLAYER:
            return Target(place, user_id=notice.user) if notice.user is not None else None
        if place in (Place.PLAYER_WITHOUT_THREAD, Place.PLAYER_WITHOUT_ROOM):
            if notice.user is None:
                return None
            if place is Place.PLAYER_WITHOUT_ROOM:
                room = await self.table_room(notice)
                if room is not None and not self._refusing_now(room):
                    return None  # the room's chat told them, with the table's other player
            found = await self.round_place(tournament, notice.data.about_round)
            if found is not None and found.thread_id and not self._refusing_now(found.thread_id):
                return None  # the thread told them, with the table's other player
            return Target(place, user_id=notice.user)
        if place is Place.TABLE_ROOM:
            room = await self.table_room(notice)
            return Target(place, room, owner=tournament) if room is not None else None
        if place in (Place.CALENDAR, Place.PAIRINGS_POST, Place.ROOMS):
            return Target(place, owner=tournament)
        if place in (Place.ROUND_THREAD, Place.ROUND_CHANNEL):
            found = await self.round_place(tournament, notice.data.about_round)
            if found is None:
                return None
            channel = found.thread_id if place is Place.ROUND_THREAD else found.channel_id
            return Target(place, channel) if channel else None
        if place is Place.REGISTRATION_POST:
            assert tournament is not None
            post = await self.store.posts.entry_post(tournament)
            return Target(place, post.channel_id, post.message_id) if post else None
        if place is Place.PANEL:
            assert tournament is not None
            newest = await self.panel(tournament)
            return Target(place, newest[0], newest[1]) if newest else None
        if place is Place.JUDGES:
            channel = config.judge_calls_channel_id or config.log_channel_id
            return Target(place, channel, ping_role=config.judge_role_id) if channel else None
        channel_id = {
            Place.PAIRINGS: config.pairings_channel_id,
            Place.STANDINGS: config.standings_channel_id,
            Place.ANNOUNCEMENTS: config.announcements_channel_id,
            Place.LOG: config.log_channel_id,
            Place.STAFF: config.staff_channel_id or config.log_channel_id,
            Place.ORIGIN: notice.data.origin,
        }[place]
        return Target(place, int(channel_id)) if channel_id else None

    async def round_place(self, tournament_id: int | None, number: int | None) -> RoundPlace | None:
        """Where round `number`'s pairings were posted (remembered once known); None for a
        notice about no round."""
        assert tournament_id is not None
        if number is None:
            return None
        key = (tournament_id, number)
        if key not in self._round_places:
            found = await self.store.posts.round_place(tournament_id, number)
            if found is None:
                return None  # not posted yet: asked again later
            self._round_places[key] = found
        return self._round_places[key]

    async def table_room(self, notice: Outgoing) -> int | None:
        """The match room of the notice's table in the notice's round, if it has one (the
        rooms as given now: a round's rooms go to the next round's tables)."""
        if notice.tournament_id is None:
            return None
        number, table = notice.data.about_round, notice.data.about_table
        if number is None or table is None:
            return None
        return (await self.store.rooms.rooms(notice.tournament_id, number)).get(table)

    def round_posted(self, tournament_id: int, number: int, place: RoundPlace) -> None:
        self._round_places[(tournament_id, number)] = place

    async def panel(self, tournament_id: int) -> tuple[int, int] | None:
        """(channel id, message id) of the tournament's newest panel, if one was posted."""
        now = time.monotonic()
        known = self._panels.get(tournament_id)
        if known is not None and now - known[0] < PANEL_SECONDS:
            return known[1]
        newest = await self.store.outbox.latest_post(tournament_id, Say.PANEL)
        if newest is not None:
            self._panels[tournament_id] = (now, newest)
        return newest

    def panel_posted(self, tournament_id: int, channel_id: int, message_id: int) -> None:
        self._panels[tournament_id] = (time.monotonic(), (channel_id, message_id))

    def _members_read(self, notice: Outgoing, target: Target) -> bool:
        """Whether the server's members can read the channel (from the bot's cache of the
        server: its permission overwrites for @everyone)."""
        guild = self.client.get_guild(notice.guild_id)
        channel = guild.get_channel_or_thread(target.channel_id or 0) if guild else None
        if guild is None or channel is None:
            return False
        return channel.permissions_for(guild.default_role).view_channel

    # -- remembering ---------------------------------------------------------------------

    def _refuses(self, channel_id: int, now: datetime) -> bool:
        found = self.refusing.get(channel_id)
        return found is not None and found.retry_at > now

    def _refusing_now(self, channel_id: int) -> bool:
        return channel_id in self.refusing

    def _dms_closed(self, user_id: int, now: datetime) -> bool:
        since = self.closed_dms.get(user_id)
        return since is not None and now - since < CLOSED_DMS_FOR

    async def refused(
        self, guild_id: int, channel_id: int, error: discord.HTTPException, now: datetime
    ) -> RefusingChannel | None:
        """A channel answered 403 or 404: remembered; the record when it is new (the staff
        are to be told), None when it was known already."""
        reason = (
            "unknown_channel"
            if error.code == UNKNOWN_CHANNEL or isinstance(error, discord.NotFound)
            else "missing_access"
            if error.code == MISSING_ACCESS
            else "missing_permissions"
        )
        known = self.refusing.get(channel_id)
        found = RefusingChannel(
            channel_id, guild_id, reason, known.since if known else now, now + RETRY_REFUSING
        )
        self.refusing[channel_id] = found
        new = await self.store.refusing.refuse(found)
        log.warning(
            "channel %s of server %s refuses the bot (%s): its notices go elsewhere",
            channel_id,
            guild_id,
            error.text or reason,
        )
        return found if new and known is None else None

    async def worked(self, channel_id: int) -> None:
        """A channel remembered as refusing took a post again."""
        if self.refusing.pop(channel_id, None) is not None:
            await self.store.refusing.accept([channel_id])
            log.info("channel %s takes the bot's posts again", channel_id)

    async def settings_changed(self, guild_id: int) -> None:
        """A server's channels or roles changed (a permission granted, a channel chosen
        anew): its channels remembered as refusing are tried again at their next notice."""
        found = [c for c, refusing in self.refusing.items() if refusing.guild_id == guild_id]
        for channel_id in found:
            del self.refusing[channel_id]
        if found:
            await self.store.refusing.accept(found)
            log.info("server %s changed: its channels are tried again", guild_id)

    async def dm_opened(self, user_id: int, channel_id: int) -> None:
        self.dm_channels[user_id] = channel_id
        await self.store.refusing.dm_channel_opened(user_id, channel_id)

    async def dm_refused(self, user_id: int, now: datetime) -> None:
        self.closed_dms[user_id] = now
        await self.store.refusing.close_dm(user_id, now)

    async def used_the_bot(self, user_id: int, *, in_their_dms: bool) -> None:
        """The player used the bot. Only a use in their DMs with it shows that those are
        open again (they are tried at the next notice); any other leaves the day's memory,
        so that a player who uses the bot often is still tried by DM at most once a day
        (each refused DM counts toward Discord's limit of refused requests)."""
        if in_their_dms and self.closed_dms.pop(user_id, None) is not None:
            await self.store.refusing.open_dm(user_id)

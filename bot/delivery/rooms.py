"""The match rooms (対戦部屋): a tournament's voice channels, brought in step with it.

One notice (`Say.ROOMS`) brings every room in step with the tournament as it is when it is
sent: the rooms its newest round's tables need are made (in categories of 50), or taken
over from the last round and given to their new pairs (their overwrites replaced whole,
so the last round's players keep nothing), and at the finish, a cancel or when rooms are
turned off they are removed, categories last. The server's channels are read once per
notice, so a room deleted by hand is seen and made again.

Every channel is written down before it is asked for: after a stop between the request
and its answer, the channel is found again by its name in the tournament's category
(or, for a category, among the server's categories no tournament owns) rather than made
twice. Only the channels written down for the tournament are ever deleted. An occupied
room outlives the end by a grace period (`GRACE`), so nobody is cut off mid-sentence.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any, Literal

import discord

from bot.delivery.calls import call
from bot.store.rooms import CATEGORY, ROOM, RoomChannel
from bot.store.uow import Store
from bot.ui.notices import RoomsText
from domain.guild import GuildConfig
from domain.tournament.model import Tournament
from domain.tournament.rooms import Access, Room, categories_needed, everyone_else, rooms_wanted

log = logging.getLogger(__name__)

VOICE: Literal[2] = 2  # Discord's channel types
CATEGORY_TYPE: Literal[4] = 4
ROLE_TARGET, MEMBER_TARGET = 0, 1  # an overwrite's type
GRACE = timedelta(minutes=5)  # an occupied room outlives the end by this much
# Discord allows 50 requests a second in all, and discord.py does not wait for that: a
# round's overwrites (one edit per room, 128 at 256 players) go at most this often.
EDIT_GAP = 1 / 40

Payload = dict[str, Any]

# What each access allows and denies, by Discord's permission names.
ALLOWED: Mapping[Access, tuple[str, ...]] = {
    Access.PLAY: (
        "view_channel",
        "connect",
        "speak",
        "stream",  # the camera and Go Live: the board shown to the opponent
        "use_voice_activation",
        "send_messages",
        "read_message_history",
    ),
    Access.STAFF: ("view_channel", "connect", "speak", "send_messages", "read_message_history"),
    Access.LISTEN: ("view_channel", "connect", "read_message_history"),
    Access.HIDDEN: (),
}
DENIED: Mapping[Access, tuple[str, ...]] = {
    Access.PLAY: (),
    Access.STAFF: (),
    # 「対戦中、観戦者や対戦相手以外のプレイヤーとは、いかなる会話も行ってはいけません」
    Access.LISTEN: ("speak", "stream", "send_messages"),
    Access.HIDDEN: ("view_channel", "connect"),
}
# The bot keeps seeing and managing what it made, whatever everyone else may do.
BOT_ALLOWED = ("view_channel", "connect", "manage_channels", "manage_roles")


def _bits(names: Iterable[str]) -> int:
    return discord.Permissions(**dict.fromkeys(names, True)).value


def _overwrite(target: int, kind: int, allow: Iterable[str], deny: Iterable[str] = ()) -> Payload:
    return {"id": str(target), "type": kind, "allow": str(_bits(allow)), "deny": str(_bits(deny))}


def room_overwrites(
    room: Room, tournament: Tournament, config: GuildConfig, bot_id: int
) -> list[Payload]:
    """A room's overwrites, whole: everyone else, the staff's roles, the table's players
    and the bot (`domain.tournament.rooms.access` decides who is who)."""
    others = everyone_else(tournament.settings.room_spectators)
    given = [
        _overwrite(tournament.guild_id, ROLE_TARGET, ALLOWED[others], DENIED[others]),
        *_staff(config),
        *(
            _overwrite(player, MEMBER_TARGET, ALLOWED[Access.PLAY])
            for player in room.players
            if player != bot_id
        ),
        _overwrite(bot_id, MEMBER_TARGET, BOT_ALLOWED),
    ]
    return given


def category_overwrites(tournament: Tournament, config: GuildConfig, bot_id: int) -> list[Payload]:
    """A category's: hidden from everyone else where the rooms are hidden, seen otherwise."""
    others = everyone_else(tournament.settings.room_spectators)
    given = [*_staff(config), _overwrite(bot_id, MEMBER_TARGET, BOT_ALLOWED)]
    if others is Access.HIDDEN:
        given.insert(0, _overwrite(tournament.guild_id, ROLE_TARGET, (), DENIED[others]))
    return given


def _staff(config: GuildConfig) -> list[Payload]:
    roles = {config.organizer_role_id, config.judge_role_id} - {None}
    return [
        _overwrite(role, ROLE_TARGET, ALLOWED[Access.STAFF], DENIED[Access.STAFF])
        for role in sorted(r for r in roles if r is not None)
    ]


def _same_overwrites(channel: Payload, wanted: list[Payload]) -> bool:
    def shape(overwrites: Iterable[Payload]) -> set[tuple[str, int, int, int]]:
        return {
            (str(o["id"]), int(o["type"]), int(o.get("allow") or 0), int(o.get("deny") or 0))
            for o in overwrites
        }

    return shape(channel.get("permission_overwrites") or []) == shape(wanted)


class Rooms:
    def __init__(
        self,
        client: discord.Client,
        store: Store,
        clock: Callable[[], datetime],
        later: Callable[[Tournament, GuildConfig, datetime], None] | None = None,
    ) -> None:
        self.client = client
        self.store = store
        self.clock = clock
        # Asks for the rooms to be brought in step again at a time of the bot's clock (an
        # occupied room's grace period ends): a new notice then, written by the sender.
        self.later = later
        # An occupied room that is no longer wanted: when it was first seen so (the grace
        # period counts from there; a restart begins it again).
        self._occupied_since: dict[int, datetime] = {}
        self._last_edit = 0.0

    async def keep(self, tournament: Tournament, text: RoomsText, config: GuildConfig) -> bool:
        """Bring the tournament's rooms in step with it. False when there was nothing to
        do, or Discord refused (the bot lost Manage Channels, the server is full): the
        round goes on without rooms rather than fail its other notices."""
        try:
            return await self._in_step(tournament, text, config)
        except (discord.Forbidden, discord.NotFound, discord.HTTPException) as error:
            if isinstance(error, discord.DiscordServerError):
                raise
            log.warning("the rooms of tournament %s were not changed: %s", tournament.id, error)
            return False

    @property
    def _bot_id(self) -> int:
        assert self.client.user is not None
        return self.client.user.id

    async def _in_step(self, tournament: Tournament, text: RoomsText, config: GuildConfig) -> bool:
        wanted = rooms_wanted(tournament)
        records = await self.store.rooms.of(tournament.id)
        if not wanted and not records:
            return False
        http = self.client.http
        channels: dict[int, Payload] = {
            int(c["id"]): c for c in await call(http.get_all_guild_channels(tournament.guild_id))
        }
        now = self.clock()
        kept: list[RoomChannel] = []
        for found in records:
            if found.channel_id is not None and found.channel_id not in channels:
                log.warning("room %s of tournament %s was deleted", found.name, tournament.id)
                await self.store.rooms.removed(tournament.guild_id, found, now, lost=True)
            else:
                kept.append(found)
        if not wanted:
            return await self._remove(tournament, config, kept)
        categories = {c.number: c for c in kept if c.kind == CATEGORY}
        rooms = {r.number: r for r in kept if r.kind == ROOM}
        owned = {c.channel_id for c in kept if c.channel_id is not None}
        category_ids: dict[int, int] = {}
        for number in range(1, categories_needed(wanted) + 1):
            category_ids[number] = await self._category(
                tournament, text, config, categories.get(number), number, channels, owned
            )
        for room in wanted:
            await self._room(
                tournament, text, config, room, rooms.get(room.number), category_ids, channels
            )
        # A room the round does not use: nobody's this round (its last pair keep nothing).
        playing = {room.number for room in wanted}
        current = wanted[0].round
        for number, spare in sorted(rooms.items()):
            if number in playing or spare.channel_id is None:
                continue
            idle = Room(number, (), current)
            await self._give(tournament, config, spare, idle, channels[spare.channel_id])
        return True

    async def _category(
        self,
        tournament: Tournament,
        text: RoomsText,
        config: GuildConfig,
        found: RoomChannel | None,
        number: int,
        channels: dict[int, Payload],
        owned: set[int],
    ) -> int:
        if found is not None and found.channel_id is not None:
            return found.channel_id
        name = text.category(number)
        if found is not None:  # asked for before a stop: made, if Discord has it
            taken = await self._owned_anywhere()
            for channel_id, channel in channels.items():
                if (
                    channel["type"] == CATEGORY_TYPE
                    and channel["name"] == found.name
                    and channel_id not in taken
                ):
                    await self.store.rooms.made(
                        tournament.guild_id, found, channel_id, self.clock(), again=True
                    )
                    owned.add(channel_id)
                    return channel_id
        await self.store.rooms.asking(tournament.id, CATEGORY, number, name, None)
        made = await call(
            self.client.http.create_channel(
                tournament.guild_id,
                CATEGORY_TYPE,
                name=name,
                permission_overwrites=category_overwrites(tournament, config, self._bot_id),
            )
        )
        channel_id = int(made["id"])
        record = RoomChannel(tournament.id, CATEGORY, number, name, None, None, 0)
        await self.store.rooms.made(tournament.guild_id, record, channel_id, self.clock())
        channels[channel_id] = dict(made)
        owned.add(channel_id)
        return channel_id

    async def _room(
        self,
        tournament: Tournament,
        text: RoomsText,
        config: GuildConfig,
        room: Room,
        found: RoomChannel | None,
        category_ids: dict[int, int],
        channels: dict[int, Payload],
    ) -> None:
        category_id = category_ids[room.category]
        if found is not None and found.channel_id is not None:
            await self._give(tournament, config, found, room, channels[found.channel_id])
            return
        name = text.room(room.number)
        if found is not None:  # asked for before a stop: made, if Discord has it
            for channel_id, channel in channels.items():
                if (
                    channel["type"] == VOICE
                    and channel["name"] == found.name
                    and str(channel.get("parent_id")) == str(found.category_id)
                ):
                    await self.store.rooms.made(
                        tournament.guild_id, found, channel_id, self.clock(), again=True
                    )
                    again = RoomChannel(
                        tournament.id, ROOM, room.number, found.name, channel_id, category_id, 0
                    )
                    await self._give(tournament, config, again, room, channel)
                    return
        await self.store.rooms.asking(tournament.id, ROOM, room.number, name, category_id)
        made = await call(
            self.client.http.create_channel(
                tournament.guild_id,
                VOICE,
                name=name,
                parent_id=category_id,
                permission_overwrites=room_overwrites(room, tournament, config, self._bot_id),
            )
        )
        record = RoomChannel(tournament.id, ROOM, room.number, name, None, category_id, 0)
        await self.store.rooms.made(
            tournament.guild_id,
            record,
            int(made["id"]),
            self.clock(),
            round_number=room.round,
            players=room.players,
        )

    async def _give(
        self,
        tournament: Tournament,
        config: GuildConfig,
        found: RoomChannel,
        room: Room,
        channel: Payload,
    ) -> None:
        """The room given to `room`'s table: its overwrites replaced whole, unless they are
        the table's already."""
        assert found.channel_id is not None
        wanted = room_overwrites(room, tournament, config, self._bot_id)
        if found.round == room.round and _same_overwrites(channel, wanted):
            return
        if not _same_overwrites(channel, wanted):
            await self._paced()
            await call(
                self.client.http.edit_channel(found.channel_id, permission_overwrites=wanted)
            )
        await self.store.rooms.permissioned(
            tournament.guild_id, found, room.round, room.players, self.clock()
        )

    async def _remove(
        self, tournament: Tournament, config: GuildConfig, records: list[RoomChannel]
    ) -> bool:
        """Every room, then every category, of the tournament deleted; an occupied room
        only after the grace period (a later notice, or the next start, removes it)."""
        now = self.clock()
        waiting = False
        left = GRACE
        for found in sorted(records, key=lambda r: (r.kind != ROOM, r.number)):
            if found.channel_id is None:  # asked for before a stop, never seen made
                await self.store.rooms.removed(tournament.guild_id, found, now, lost=False)
                continue
            if found.kind == CATEGORY and waiting:
                continue  # its rooms go first
            if found.kind == ROOM and self._occupied(tournament.guild_id, found.channel_id):
                since = self._occupied_since.setdefault(found.channel_id, now)
                if now - since < GRACE:
                    waiting = True
                    left = min(left, GRACE - (now - since))
                    continue
            with contextlib.suppress(discord.NotFound):  # deleted by someone meanwhile
                await call(self.client.http.delete_channel(found.channel_id))
            self._occupied_since.pop(found.channel_id, None)
            await self.store.rooms.removed(tournament.guild_id, found, now, lost=False)
        if waiting and self.later is not None:
            log.info("tournament %s: occupied rooms removed in %s", tournament.id, left)
            self.later(tournament, config, now + left)
        return True

    async def _paced(self) -> None:
        """Wait until `EDIT_GAP` has passed since the last edit (other notices share the
        global limit)."""
        wait = self._last_edit + EDIT_GAP - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self._last_edit = time.monotonic()

    def _occupied(self, guild_id: int, channel_id: int) -> bool:
        guild = self.client.get_guild(guild_id)
        channel = guild.get_channel(channel_id) if guild else None
        return isinstance(channel, discord.VoiceChannel) and bool(channel.voice_states)

    async def _owned_anywhere(self) -> set[int]:
        """Every channel any tournament's rooms own (a category is never taken twice)."""
        owned: set[int] = set()
        for _, tournament_id in await self.store.rooms.leftover():
            owned |= {
                found.channel_id
                for found in await self.store.rooms.of(tournament_id)
                if found.channel_id is not None
            }
        return owned

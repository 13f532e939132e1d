"""The match rooms (対戦部屋): a tournament's voice channels, brought in step with it.

One notice (`Say.ROOMS`) brings the rooms in step with the tournament as it is when it is
sent: the rooms its newest round's tables already have are given to their new pairs first
(their overwrites replaced whole, so the last round's players keep nothing), then the
rooms missing are made (in categories of 50), at most `MADE_PER_NOTICE` a notice: Discord
makes a server's channels slowly (about 5 in 10 s), and the round's pairings post waits
for this notice, so what is left goes on in the next notice (`Kept.more`) and the post is
brought up to date as rooms appear. At the finish, a cancel or when rooms are turned off
they are removed, categories last. The server's channels are read once per notice, so a
room deleted by hand is seen and made again.

Every channel is written down before it is asked for, with the lowest id it can have:
after a stop between the request and its answer, a channel of its name is taken for it
only if Discord made it since and it carries the overwrite the bot gives itself in every
channel it makes (`BOT_MARK`): a hand-made channel of the same name is never adopted, so
never deleted. Only the channels written down for the tournament are ever deleted. An
occupied room outlives the end by a grace period (`GRACE`), so nobody is cut off
mid-sentence.

When Discord refuses (the server full, Manage Channels or Manage Roles taken away), what
was made stays, the round goes on, and the caller tells the staff (`Kept.refused`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import discord

from bot.delivery.calls import call
from bot.store.rooms import CATEGORY, ROOM, RoomChannel
from bot.store.uow import Store
from bot.ui.notices import RoomsText
from domain.guild import GuildConfig
from domain.tournament.model import Tournament
from domain.tournament.rooms import Access, Room, everyone_else, rooms_wanted

log = logging.getLogger(__name__)

VOICE: Literal[2] = 2  # Discord's channel types
CATEGORY_TYPE: Literal[4] = 4
ROLE_TARGET, MEMBER_TARGET = 0, 1  # an overwrite's type
GRACE = timedelta(minutes=5)  # an occupied room outlives the end by this much
# Discord allows 50 requests a second in all, and discord.py does not wait for that: a
# round's overwrites (one edit per room, 128 at 256 players) go at most this often.
EDIT_GAP = 1 / 40
# Channels one notice makes at most: one window of Discord's channel creation (5 a server
# in 10 s, an assumed figure), so a notice never holds the round's post for long.
MADE_PER_NOTICE = 5
# A channel made before a stop is taken back only if its id is no older than the moment it
# was asked for, less this (the bot's clock and Discord's may differ a little).
CLOCKS_DIFFER = timedelta(minutes=1)
# Discord's codes for a refusal the staff can fix (docs: topics/opcodes-and-status-codes).
MAX_CHANNELS = 30013  # the server holds 500 channels
INVALID_FORM = 50035  # e.g. the category holds 50 already (channels added by hand)

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
# The bot keeps seeing and managing what it made, whatever everyone else may do: the
# overwrite it gives itself in every channel it makes, which also marks them as its own.
BOT_MARK = ("view_channel", "connect", "manage_channels", "manage_roles")
# And it posts in a room's chat (what it tells the table), with what it has on the server:
# an overwrite may only give what the bot has itself.
BOT_POSTS = ("send_messages", "embed_links", "read_message_history")


def _bits(names: Iterable[str]) -> int:
    return discord.Permissions(**dict.fromkeys(names, True)).value


def _overwrite(target: int, kind: int, allow: Iterable[str], deny: Iterable[str] = ()) -> Payload:
    return {"id": str(target), "type": kind, "allow": str(_bits(allow)), "deny": str(_bits(deny))}


def room_overwrites(
    room: Room,
    tournament: Tournament,
    config: GuildConfig,
    bot_id: int,
    bot_has: Iterable[str] = (),
) -> list[Payload]:
    """A room's overwrites, whole: everyone else, the staff's roles, the table's players
    and the bot (`domain.tournament.rooms.access` decides who is who); `bot_has`: the
    bot's server permissions, for what it may give itself to post in the room's chat."""
    others = everyone_else(tournament.settings.room_spectators)
    given = [
        _overwrite(tournament.guild_id, ROLE_TARGET, ALLOWED[others], DENIED[others]),
        *_staff(config),
        *(
            _overwrite(player, MEMBER_TARGET, ALLOWED[Access.PLAY])
            for player in room.players
            if player != bot_id
        ),
        _bots(bot_id, bot_has),
    ]
    return given


def category_overwrites(
    tournament: Tournament, config: GuildConfig, bot_id: int, bot_has: Iterable[str] = ()
) -> list[Payload]:
    """A category's: hidden from everyone else where the rooms are hidden, seen otherwise."""
    others = everyone_else(tournament.settings.room_spectators)
    given = [*_staff(config), _bots(bot_id, bot_has)]
    if others is Access.HIDDEN:
        given.insert(0, _overwrite(tournament.guild_id, ROLE_TARGET, (), DENIED[others]))
    return given


def _bots(bot_id: int, bot_has: Iterable[str]) -> Payload:
    has = set(bot_has)
    return _overwrite(bot_id, MEMBER_TARGET, (*BOT_MARK, *(p for p in BOT_POSTS if p in has)))


def marked_as_the_bots(channel: Payload, bot_id: int) -> bool:
    """Whether the channel carries the overwrite the bot gives itself in every channel it
    makes (a channel made by hand has none)."""
    mark = _bits(BOT_MARK)
    return any(
        str(o.get("id")) == str(bot_id)
        and int(o.get("type", ROLE_TARGET)) == MEMBER_TARGET
        and int(o.get("allow") or 0) & mark == mark
        for o in channel.get("permission_overwrites") or []
    )


def made_for(channel: Payload, found: RoomChannel, kind: int, bot_id: int) -> bool:
    """Whether `channel` is the one asked for as `found` before a stop: its name and type,
    made since it was asked for, and marked as the bot's (`marked_as_the_bots`)."""
    if channel.get("type") != kind or channel.get("name") != found.name:
        return False
    if found.asked_after is not None and int(channel["id"]) < found.asked_after:
        return False  # there before the bot asked: somebody else's
    return marked_as_the_bots(channel, bot_id)


def lowest_id_from_now() -> int:
    """The lowest id a channel asked for now can have (Discord's clock, not the bot's)."""
    return discord.utils.time_snowflake(datetime.now(UTC) - CLOCKS_DIFFER)


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


@dataclass(frozen=True)
class Refusal:
    """Why Discord refused the rooms: the server full (`server_full`), a category full of
    channels added by hand (`category_full`), a permission taken away (`missing_permissions`:
    `missing`, by Discord's names, as far as the bot's cache tells)."""

    reason: str
    missing: tuple[str, ...] = ()


@dataclass(frozen=True)
class Kept:
    """What one notice did to the rooms."""

    changed: bool = False  # something was made, given or removed
    more: bool = False  # rooms are still to be made: the next notice goes on with them
    # The rooms of the newest round's tables are not as they were: what names them (the
    # round's post, the live page) is brought up to date.
    shown: bool = False
    round: int = 0  # the newest round (0: none yet)
    refused: Refusal | None = None
    waiting: int = 0  # rooms the newest round's tables still wait for


class _Budget:
    def __init__(self, left: int) -> None:
        self.left = left

    def take(self) -> bool:
        if self.left <= 0:
            return False
        self.left -= 1
        return True


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

    async def keep(
        self,
        tournament: Tournament,
        text: RoomsText,
        config: GuildConfig,
        *,
        making: bool = True,
    ) -> Kept:
        """Bring the tournament's rooms in step with it, as far as one notice goes; without
        `making`, only give the rooms there are (the notice a round's post waits for: the
        rooms missing are made by the next notices, and the post edited as they appear).
        When Discord refuses (the bot lost Manage Channels, the server is full), what was
        made stays and the round goes on with it: `Kept.refused` says why, for the staff."""
        current = tournament.current_round or 0
        before = await self.store.rooms.rooms(tournament.id, current) if current else {}
        work = _Work(MADE_PER_NOTICE if making else 0)
        try:
            await self._in_step(tournament, text, config, work)
        except discord.HTTPException as error:
            if isinstance(error, discord.DiscordServerError):
                raise
            log.warning("the rooms of tournament %s were not changed: %s", tournament.id, error)
            work.refused = self._refusal(tournament.guild_id, error)
            work.more = False
        after = await self.store.rooms.rooms(tournament.id, current) if current else {}
        wanted = rooms_wanted(tournament)
        waiting = sum(1 for room in wanted if room.round and room.number not in after)
        return Kept(
            changed=work.changed,
            more=work.more,
            shown=after != before,
            round=current,
            refused=work.refused,
            waiting=waiting,
        )

    def _refusal(self, guild_id: int, error: discord.HTTPException) -> Refusal | None:
        if isinstance(error, discord.NotFound):
            return None  # a channel deleted meanwhile: its deletion brings them in step again
        if error.code == MAX_CHANNELS:
            return Refusal("server_full")
        if isinstance(error, discord.Forbidden):
            return Refusal("missing_permissions", tuple(self._missing(guild_id)))
        if error.code == INVALID_FORM:
            return Refusal("category_full")
        return Refusal("refused")

    def _missing(self, guild_id: int) -> list[str]:
        guild = self.client.get_guild(guild_id)
        if guild is None or guild.me is None:
            return []
        has = guild.me.guild_permissions
        if has.administrator:
            return []
        return [name for name in ("manage_channels", "manage_roles") if not getattr(has, name)]

    @property
    def _bot_id(self) -> int:
        assert self.client.user is not None
        return self.client.user.id

    def _bot_has(self, guild_id: int) -> list[str]:
        """The bot's server permissions it may give itself in a room (its cache's)."""
        guild = self.client.get_guild(guild_id)
        if guild is None or guild.me is None:
            return []
        has = guild.me.guild_permissions
        return [name for name in BOT_POSTS if has.administrator or getattr(has, name)]

    async def _in_step(
        self, tournament: Tournament, text: RoomsText, config: GuildConfig, work: _Work
    ) -> None:
        wanted = rooms_wanted(tournament)
        records = await self.store.rooms.of(tournament.id)
        if not wanted and not records:
            return
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
                work.changed = True
            else:
                kept.append(found)
        lacking = self._missing(tournament.guild_id)
        if lacking:  # its cache says Discord would refuse: not asked (refusals count to a ban)
            work.refused = Refusal("missing_permissions", tuple(lacking))
            return
        if not wanted:
            work.changed |= await self._remove(tournament, config, kept)
            return
        step = _Step(tournament, text, config, channels, self._bot_has(tournament.guild_id))
        step.categories = {c.number: c for c in kept if c.kind == CATEGORY}
        rooms = {r.number: r for r in kept if r.kind == ROOM}
        # The rooms there are first (one edit each): the round's post waits for them.
        missing: list[Room] = []
        for room in wanted:
            there = rooms.get(room.number)
            if there is not None and there.channel_id is not None:
                work.changed |= await self._give(step, there, room, channels[there.channel_id])
            else:
                missing.append(room)
        # A room the round does not use: nobody's this round (its last pair keep nothing).
        playing = {room.number for room in wanted}
        current = wanted[0].round
        for number, spare in sorted(rooms.items()):
            if number in playing or spare.channel_id is None:
                continue
            idle = Room(number, (), current)
            work.changed |= await self._give(step, spare, idle, channels[spare.channel_id])
        # Then the rooms missing, as many as one window of Discord's channel creation.
        budget = _Budget(work.making)
        for room in missing:
            category_id = await self._category(step, room.category, budget)
            if category_id is None or not await self._room(
                step, room, rooms.get(room.number), category_id, budget
            ):
                work.more = True
                return
            work.changed = True

    async def _category(self, step: _Step, number: int, budget: _Budget) -> int | None:
        """The tournament's `number`-th category: as written down, found again after a
        stop, or made (None: not within this notice's budget)."""
        if number in step.made_categories:
            return step.made_categories[number]
        tournament = step.tournament
        found = step.categories.get(number)
        if found is not None and found.channel_id is not None:
            step.made_categories[number] = found.channel_id
            return found.channel_id
        if found is not None:  # asked for before a stop: made, if Discord has it
            taken = await self._owned_anywhere()
            for channel_id, channel in step.channels.items():
                if channel_id not in taken and made_for(
                    channel, found, CATEGORY_TYPE, self._bot_id
                ):
                    await self.store.rooms.made(
                        tournament.guild_id, found, channel_id, self.clock(), again=True
                    )
                    step.made_categories[number] = channel_id
                    return channel_id
        if not budget.take():
            return None
        name = step.text.category(number)
        asked_after = lowest_id_from_now()
        await self.store.rooms.asking(tournament.id, CATEGORY, number, name, None, asked_after)
        made = await call(
            self.client.http.create_channel(
                tournament.guild_id,
                CATEGORY_TYPE,
                name=name,
                permission_overwrites=category_overwrites(
                    tournament, step.config, self._bot_id, step.bot_has
                ),
            )
        )
        channel_id = int(made["id"])
        record = RoomChannel(tournament.id, CATEGORY, number, name, None, None, 0, asked_after)
        await self.store.rooms.made(tournament.guild_id, record, channel_id, self.clock())
        step.channels[channel_id] = dict(made)
        step.made_categories[number] = channel_id
        return channel_id

    async def _room(
        self,
        step: _Step,
        room: Room,
        found: RoomChannel | None,
        category_id: int,
        budget: _Budget,
    ) -> bool:
        """The room made for its table, or found again after a stop (False: not within
        this notice's budget)."""
        tournament = step.tournament
        if found is not None:  # asked for before a stop: made, if Discord has it
            for channel_id, channel in step.channels.items():
                if str(channel.get("parent_id")) == str(found.category_id) and made_for(
                    channel, found, VOICE, self._bot_id
                ):
                    await self.store.rooms.made(
                        tournament.guild_id, found, channel_id, self.clock(), again=True
                    )
                    again = RoomChannel(
                        tournament.id, ROOM, room.number, found.name, channel_id, category_id, 0
                    )
                    await self._give(step, again, room, channel)
                    return True
        if not budget.take():
            return False
        name = step.text.room(room.number)
        asked_after = lowest_id_from_now()
        await self.store.rooms.asking(
            tournament.id, ROOM, room.number, name, category_id, asked_after
        )
        made = await call(
            self.client.http.create_channel(
                tournament.guild_id,
                VOICE,
                name=name,
                parent_id=category_id,
                permission_overwrites=room_overwrites(
                    room, tournament, step.config, self._bot_id, step.bot_has
                ),
            )
        )
        record = RoomChannel(
            tournament.id, ROOM, room.number, name, None, category_id, 0, asked_after
        )
        await self.store.rooms.made(
            tournament.guild_id,
            record,
            int(made["id"]),
            self.clock(),
            round_number=room.round,
            players=room.players,
        )
        return True

    async def _give(self, step: _Step, found: RoomChannel, room: Room, channel: Payload) -> bool:
        """The room given to `room`'s table: its overwrites replaced whole, unless they are
        the table's already. Whether anything changed."""
        assert found.channel_id is not None
        wanted = room_overwrites(room, step.tournament, step.config, self._bot_id, step.bot_has)
        if found.round == room.round and _same_overwrites(channel, wanted):
            return False
        if not _same_overwrites(channel, wanted):
            await self._paced()
            await call(
                self.client.http.edit_channel(found.channel_id, permission_overwrites=wanted)
            )
        await self.store.rooms.permissioned(
            step.tournament.guild_id, found, room.round, room.players, self.clock()
        )
        return True

    async def _remove(
        self, tournament: Tournament, config: GuildConfig, records: list[RoomChannel]
    ) -> bool:
        """Every room, then every category, of the tournament deleted; an occupied room
        only after the grace period (a later notice, or the next start, removes it)."""
        if not records:
            return False
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


class _Work:
    """What one notice did so far, and how many channels it may make."""

    def __init__(self, making: int) -> None:
        self.making = making
        self.changed = False
        self.more = False
        self.refused: Refusal | None = None


class _Step:
    """What one notice works from: the tournament, the server's channels as read, and the
    categories known or made so far."""

    def __init__(
        self,
        tournament: Tournament,
        text: RoomsText,
        config: GuildConfig,
        channels: dict[int, Payload],
        bot_has: list[str],
    ) -> None:
        self.tournament = tournament
        self.text = text
        self.config = config
        self.channels = channels
        self.bot_has = bot_has
        self.categories: dict[int, RoomChannel] = {}
        self.made_categories: dict[int, int] = {}

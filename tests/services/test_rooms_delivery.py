"""The match rooms' delivery (bot/delivery/rooms.py) on real SQLite and PostgreSQL, with
Discord's channel routes replaced by a small server of channels that answers as Discord
does (ids are snowflakes of the moment, a full server refuses with 30013, a bot without
Manage Channels with 403): what one notice makes, what it adopts after a stop, what it
tells when refused, and the live page's links to the rooms."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.delivery.rooms import (
    CATEGORY_TYPE,
    MADE_PER_NOTICE,
    VOICE,
    Rooms,
    category_overwrites,
)
from bot.services import Services
from bot.services.live import pairings
from bot.store.rooms import CATEGORY, ROOM
from bot.ui.notices import RoomsText
from domain.guild import GuildConfig
from domain.tournament.model import Tournament
from tests.services.conftest import GUILD, NOW, organizer, player

BOT = 4242
CAN_MAKE_ROOMS = frozenset({"manage_channels", "manage_roles"})
Payload = dict[str, Any]


class ChannelServer:
    """Discord's channel routes, as far as the rooms use them (discord.py's HTTPClient
    method names and shapes)."""

    def __init__(self) -> None:
        self.channels: dict[int, Payload] = {}
        self.created: list[Payload] = []
        self.edits = 0
        self.deleted: list[int] = []
        self.full = False
        self.forbidden = False
        self._counter = itertools.count(1)

    def new_id(self, at: datetime | None = None) -> int:
        return discord.utils.time_snowflake(at or datetime.now(UTC)) + next(self._counter)

    def add(self, name: str, kind: int, *, at: datetime | None = None, **extra: Any) -> Payload:
        """A channel made by someone (a moderator), at `at`."""
        channel = {"id": str(self.new_id(at)), "name": name, "type": kind, **extra}
        self.channels[int(channel["id"])] = channel
        return channel

    async def get_all_guild_channels(self, guild_id: int) -> list[Payload]:
        return list(self.channels.values())

    async def create_channel(self, guild_id: int, channel_type: int, **options: Any) -> Payload:
        if self.forbidden:
            raise discord.Forbidden(
                SimpleNamespace(status=403, reason="Forbidden"),
                {"code": 50013, "message": "Missing Permissions"},
            )
        if self.full:
            raise discord.HTTPException(
                SimpleNamespace(status=400, reason="Bad Request"),
                {"code": 30013, "message": "Maximum number of guild channels reached (500)"},
            )
        channel = {
            "id": str(self.new_id()),
            "type": channel_type,
            "name": options["name"],
            "parent_id": str(options["parent_id"]) if options.get("parent_id") else None,
            "permission_overwrites": options.get("permission_overwrites") or [],
        }
        self.channels[int(channel["id"])] = channel
        self.created.append(channel)
        return channel

    async def edit_channel(self, channel_id: int, **options: Any) -> Payload:
        self.edits += 1
        channel = self.channels[int(channel_id)]
        channel["permission_overwrites"] = options["permission_overwrites"]
        return channel

    async def delete_channel(self, channel_id: int, **options: Any) -> None:
        del self.channels[int(channel_id)]
        self.deleted.append(int(channel_id))

    def rooms(self) -> list[Payload]:
        return [c for c in self.channels.values() if c["type"] == VOICE]


class Client:
    def __init__(self, server: ChannelServer) -> None:
        self.http = server
        self.user = SimpleNamespace(id=BOT)

    def get_guild(self, guild_id: int) -> None:
        return None  # no cache: the bot knows only what Discord answers


def rooms_of(services: Services, server: ChannelServer) -> Rooms:
    return Rooms(Client(server), services.store, lambda: NOW)  # type: ignore[arg-type]


async def current(services: Services) -> Tournament:
    return (await services.tournaments.info(organizer(), None)).tournament


async def event_with_rooms(services: Services, players: int, *, paired: bool = True) -> None:
    await services.tournaments.create(
        organizer(), name="Room Cup", format="swiss", regulation="single"
    )
    await services.tournaments.update_settings(organizer(), None, decklist_required=False)
    for number in range(1, players + 1):
        await services.registration.register(player(number), None)
    await services.tournaments.set_rooms(organizer(), None, on=True, granted=CAN_MAKE_ROOMS)
    await services.lifecycle.start(organizer(), None)
    if paired:
        await services.rounds.pair(organizer(), None)


TEXT = RoomsText("Room Cup", "ja")
CONFIG = GuildConfig(GUILD)


async def test_one_notice_gives_the_rooms_there_are_then_makes_a_few_more(
    configured: Services,
) -> None:
    """Discord makes a server's channels slowly: a notice makes at most MADE_PER_NOTICE
    and says more are to come; the rooms that exist are given to the round's tables
    first (the round's post waits for this notice), and the next notices go on."""
    await event_with_rooms(configured, 16, paired=False)  # 8 tables: 9 channels
    server = ChannelServer()
    rooms = rooms_of(configured, server)
    started = await current(configured)
    kept = await rooms.keep(started, TEXT, CONFIG)
    assert len(server.created) == MADE_PER_NOTICE  # the category and 4 rooms
    assert kept.more
    assert kept.changed
    await configured.rounds.pair(organizer(), None)
    paired = await current(configured)
    # The notice the round's post waits for gives the rooms there are, and makes none.
    kept = await rooms.keep(paired, TEXT, CONFIG, making=False)
    assert server.edits == 4
    assert len(server.created) == MADE_PER_NOTICE
    assert kept.more
    assert kept.waiting == 4  # the post names the 4 there are; the organizer is told
    kept = await rooms.keep(paired, TEXT, CONFIG)  # the next notice
    assert len(server.created) == MADE_PER_NOTICE + 4  # the 4 missing ones
    assert not kept.more
    assert kept.shown
    assert kept.round == 1
    assert kept.waiting == 0
    given = await configured.store.rooms.rooms(paired.id, 1)
    assert sorted(given) == list(range(1, 9))
    again = await rooms.keep(paired, TEXT, CONFIG)
    assert not again.changed
    assert not again.shown


async def test_a_category_made_by_hand_with_the_same_name_is_never_adopted(
    configured: Services,
) -> None:
    """After a stop between asking for the category and hearing back, the bot takes a
    category of that name only if Discord made it since it asked and it carries the bot's
    own overwrite: a moderator's category of the same name stays theirs, and the bot's
    finish never deletes it."""
    await event_with_rooms(configured, 4, paired=False)
    server = ChannelServer()
    started = await current(configured)
    name = TEXT.category(1)
    # A moderator made a category of that name by hand, an hour ago; the bot's own was
    # made by Discord just before the bot stopped (it never heard the answer).
    by_hand = server.add(name, CATEGORY_TYPE, at=datetime.now(UTC) - timedelta(hours=1))
    later = server.add(name, CATEGORY_TYPE, at=datetime.now(UTC))  # by hand too: no mark
    asked_after = discord.utils.time_snowflake(datetime.now(UTC) - timedelta(minutes=1))
    await configured.store.rooms.asking(started.id, CATEGORY, 1, name, None, asked_after)
    theirs = server.add(
        name,
        CATEGORY_TYPE,
        permission_overwrites=category_overwrites(started, CONFIG, BOT),
    )
    await rooms_of(configured, server).keep(started, TEXT, CONFIG)
    records = {(r.kind, r.number): r for r in await configured.store.rooms.of(started.id)}
    assert records[(CATEGORY, 1)].channel_id == int(theirs["id"])  # the bot's own
    assert not [c for c in server.created if c["type"] == CATEGORY_TYPE]  # not made twice
    room = records[(ROOM, 1)]
    assert server.channels[room.channel_id or 0]["parent_id"] == theirs["id"]
    # The event ends: only what the bot made goes.
    await configured.tournaments.set_rooms(organizer(), None, on=False)
    await rooms_of(configured, server).keep(await current(configured), TEXT, CONFIG)
    assert int(by_hand["id"]) in server.channels
    assert int(later["id"]) in server.channels
    assert int(theirs["id"]) not in server.channels


async def test_without_its_own_category_the_bot_makes_one_beside_the_moderators(
    configured: Services,
) -> None:
    """The request was lost with the bot (Discord made nothing): a category of the same
    name made by hand meanwhile is not the bot's, so the bot makes its own."""
    await event_with_rooms(configured, 4, paired=False)
    server = ChannelServer()
    started = await current(configured)
    name = TEXT.category(1)
    asked_after = discord.utils.time_snowflake(datetime.now(UTC) - timedelta(minutes=1))
    await configured.store.rooms.asking(started.id, CATEGORY, 1, name, None, asked_after)
    by_hand = server.add(name, CATEGORY_TYPE)  # after the ask, but without the bot's mark
    await rooms_of(configured, server).keep(started, TEXT, CONFIG)
    records = {(r.kind, r.number): r for r in await configured.store.rooms.of(started.id)}
    assert records[(CATEGORY, 1)].channel_id != int(by_hand["id"])
    assert [c["name"] for c in server.created if c["type"] == CATEGORY_TYPE] == [name]


@pytest.mark.parametrize(
    ("refusal", "reason"), [("full", "server_full"), ("forbidden", "missing_permissions")]
)
async def test_a_refusal_keeps_what_was_made_and_says_why(
    configured: Services, refusal: str, reason: str
) -> None:
    """The server full (30013) or Manage Channels taken away (403) part-way: what was made
    stays and is given to its tables, nothing more is asked for, and the caller hears why
    and how many tables wait (the staff are told once)."""
    await event_with_rooms(configured, 8, paired=False)  # 4 tables
    server = ChannelServer()
    rooms = rooms_of(configured, server)
    await rooms.keep(await current(configured), TEXT, CONFIG)  # the category and 4 rooms
    lost = server.rooms()[-2:]
    for channel in lost:  # two rooms deleted by hand
        del server.channels[int(channel["id"])]
    setattr(server, refusal, True)
    await configured.rounds.pair(organizer(), None)
    kept = await rooms.keep(await current(configured), TEXT, CONFIG)
    assert kept.refused is not None
    assert kept.refused.reason == reason
    assert not kept.more  # not tried again and again
    assert kept.waiting == 2  # two tables play without a room
    given = await configured.store.rooms.rooms((await current(configured)).id, 1)
    assert len(given) == 2


async def test_the_live_page_links_each_table_to_its_room(configured: Services) -> None:
    """The page's pairings: each table's room as a link that opens it in Discord; the
    rooms are kept beside the tournament, so when they change its version moves on and
    the page is made again with them."""
    await event_with_rooms(configured, 8)
    slug = (await configured.tournaments.set_page(organizer(), None, True)).tournament.page_slug
    assert slug is not None
    before = await configured.live.open(slug)
    assert before is not None
    assert all(table.room is None for table in pairings(before.tournament, None, None).tables)
    server = ChannelServer()
    paired = await current(configured)
    kept = await rooms_of(configured, server).keep(paired, TEXT, CONFIG)
    assert kept.shown
    await configured.store.rooms_shown(GUILD, paired.id, NOW)  # as the delivery does
    page = await configured.live.open(slug)
    assert page is not None
    assert page.version == before.version + 1
    given = await configured.store.rooms.rooms(paired.id, 1)
    shown = pairings(page.tournament, None, page.views, page.rooms)
    assert {table.table: table.room for table in shown.tables} == {
        table: f"https://discord.com/channels/{GUILD}/{channel}" for table, channel in given.items()
    }

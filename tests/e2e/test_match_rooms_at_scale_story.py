"""Match rooms (対戦部屋) at Discord's own limits, through the real bot and the fake Discord:
a 104-player event (52 tables) with rooms on and hidden from spectators.

- the start makes 52 rooms: 50 in the tournament's category, the rest in a second one
  (Discord: 50 channels a category); the rooms and both categories are hidden from a
  member who does not play, a judge enters every room, a player only their table's;
- the server full (Discord: 500 channels), a room deleted by hand cannot be made again:
  Discord answers 30013, the staff are told once, in Japanese, and the table plays without
  a room;
- rooms asked for every table again while the server is full: refused before anything is
  changed, with the choice of rooms for the first tables only or none; the organizer
  chooses fewer, and the table beyond hears it has no room.

Not held to Discord's pace: what is tested is its channel limits, and under the fake's
assumed 5 channels in 10 s the start's 54 channels would take 100 s (bench/rooms.py
measures that pace); the module turns the rate limits off. One backend: the rooms'
bookkeeping on PostgreSQL is the same as on SQLite (tests/services/test_rooms_delivery.py
runs it on both).
"""

from __future__ import annotations

import asyncio

import pytest

from bot.services import Services
from bot.store.database import open_database
from tests.conftest import BACKENDS
from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, text_of
from tests.e2e.fake_discord.permissions import (
    CONNECT,
    MANAGE_CHANNELS,
    MANAGE_ROLES,
    SPEAK,
    VIEW_CHANNEL,
)
from tests.e2e.fake_discord.state import GUILD_CHANNEL_LIMIT
from tests.e2e.story import member_actor, tables_of

pytestmark = pytest.mark.e2e

CUP = "Scale Cup"
PLAYERS = [f"s{number:03d}" for number in range(1, 105)]
CATEGORIES = (f"{CUP} 対戦部屋", f"{CUP} 対戦部屋 2")
TALKS = VIEW_CHANNEL | CONNECT | SPEAK


def an_event_with_hidden_rooms(fake: FakeDiscord) -> None:
    """104 members and a watcher; the event with rooms on (hidden from everyone else)
    started through the services on the bot's database: its rooms are the bot's to make."""
    for name in [*PLAYERS, "watcher"]:
        fake.world.add_member(fake.guild, name)
    fake.grant_bot(MANAGE_CHANNELS | MANAGE_ROLES)
    asyncio.run(start_with_rooms(fake))


async def start_with_rooms(fake: FakeDiscord) -> None:
    database = await open_database(fake.database_location)
    try:
        services = Services(database, seeds=lambda: 104)
        organizer = member_actor(fake, "organizer", role_ids=frozenset({fake.role("Organizer").id}))
        await services.guilds.configure(
            member_actor(fake, "owner", manages_guild=True),
            organizer_role_id=fake.role("Organizer").id,
            judge_role_id=fake.role("Judge").id,
            **{
                f"{kind}_channel_id": fake.channel(name).id
                for kind, name in (
                    ("announcements", "announcements"),
                    ("pairings", "pairings"),
                    ("standings", "standings"),
                    ("judge_calls", "judge-calls"),
                    ("log", "log"),
                )
            },
            locale="ja",
        )
        await services.tournaments.create(organizer, name=CUP, format="swiss", regulation="single")
        await services.tournaments.update_settings(organizer, CUP, decklist_required=False)
        for name in PLAYERS:
            await services.registration.register(member_actor(fake, name), CUP)
        await services.tournaments.set_rooms(
            organizer,
            CUP,
            on=True,
            spectators="hidden",
            granted=frozenset({"manage_channels", "manage_roles"}),
        )
        await services.lifecycle.start(organizer, CUP)
    finally:
        await database.close()


fake = bot_fixture(
    "match-rooms-at-scale",
    before_start=an_event_with_hidden_rooms,
    options={"rate_limits": False, "timeout": 60.0},
    backends=(BACKENDS[0],),
)


def category(fake: FakeDiscord, name: str) -> int | None:
    found = [c.id for c in fake.guild.channels.values() if c.is_category and c.name == name]
    return found[0] if found else None


def rooms_in(fake: FakeDiscord, name: str) -> dict[str, int]:
    parent = category(fake, name)
    return {c.name: c.id for c in fake.voice_channels() if c.parent_id == parent}


def told_of_rooms(fake: FakeDiscord) -> list[str]:
    return [text_of(m) for m in fake.messages("log") if "対戦部屋を作れませんでした" in text_of(m)]


async def test_past_50_rooms_a_second_category_and_every_room_hidden(fake: FakeDiscord) -> None:
    def all_made() -> bool:
        return len(fake.voice_channels()) == 52

    await fake.wait_for(all_made, "the start's 52 rooms", within=60)
    first, second = (rooms_in(fake, name) for name in CATEGORIES)
    assert sorted(first, key=lambda n: int(n[1:])) == [f"卓{n}" for n in range(1, 51)]
    assert sorted(second) == ["卓51", "卓52"]
    paired = await fake.slash("round pair", user="organizer", locale="ja")
    assert "第 1 回戦" in paired.text
    tables = tables_of(fake, 1)
    assert len(tables) == 52
    room = second["卓51"]
    player, _ = tables[51]
    assert fake.permissions_in(player, room) & TALKS == TALKS
    assert fake.permissions_in(player, first["卓1"]) == 0  # hidden: not even seen
    assert fake.permissions_in("judge", room) & TALKS == TALKS
    for hidden in (room, first["卓1"], *(category(fake, name) or 0 for name in CATEGORIES)):
        assert fake.permissions_in("watcher", hidden) == 0
    post = "\n".join(m.get("content") or "" for m in fake.messages("pairings"))
    line = next(line for line in post.splitlines() if line.startswith("テーブル 51:"))
    assert f"<#{room}>" in line


async def test_a_full_server_refuses_a_room_and_the_staff_hear_it_once(fake: FakeDiscord) -> None:
    second = rooms_in(fake, CATEGORIES[1])
    # Discord is slow to make channels for a moment while the server fills up behind the
    # bot's back (its cache misses the new channels): the room it makes again meets 30013.
    held = fake.fail_discord(503, method="POST", path=f"/guilds/{fake.guild.id}/channels")
    await fake.delete_channel(second["卓52"])
    fillers = await fake.add_channels(
        GUILD_CHANNEL_LIMIT - fake.guild.channel_count, prefix="filler", tell_bot=False
    )
    held.end()
    told = await fake.wait_for(
        lambda: told_of_rooms(fake), "the staff told the server is full", within=60
    )
    assert "サーバーのチャンネル数が Discord の上限（500）に達しています" in told[0], told
    assert "部屋のない 1 卓は、部屋なしで対戦します" in told[0]
    made = fake.requests_to("POST", f"/guilds/{fake.guild.id}/channels")
    assert made[-1].status == 400
    await fake.delete_channel(second["卓51"])  # another room lost in the same round
    await fake.wait_for(lambda: "卓51" in rooms_in(fake, CATEGORIES[1]), "卓51 made again")
    await fake.settled()  # and 卓52 refused once more
    assert fake.guild.channel_count == GUILD_CHANNEL_LIMIT
    assert len(told_of_rooms(fake)) == 1  # told once
    for channel in fillers:  # the bot now hears of the moderator's channels
        await fake.dispatch("CHANNEL_CREATE", fake.channel(channel.id).payload())


async def test_every_table_again_is_refused_with_the_choice_of_fewer_rooms(
    fake: FakeDiscord,
) -> None:
    # Rooms for every table would need 2 channels more than the server's 1 left.
    asked = await fake.slash(
        "tournament rooms", user="organizer", options={"enabled": True}, locale="ja"
    )
    assert "まだ何も変更していません" in asked.text, asked.text
    labels = [str(c.get("label")) for c in asked.components if c.get("type") == 2]
    assert labels == ["卓 1〜51 だけ部屋を作る", "対戦部屋なしで進める"]
    chosen = await fake.click(asked, "卓 1〜51 だけ部屋を作る", user="organizer", locale="ja")
    assert "卓 1〜51 だけに作ります" in chosen.text, chosen.text
    beyond, _ = tables_of(fake, 1)[52]
    mine = await fake.slash("pairing", user=beyond, locale="ja")
    assert "この卓には対戦部屋がありません（部屋は卓 1〜51 だけです）" in mine.text, mine.text
    await fake.wait_for(
        lambda: any(
            "テーブル 52 以降には対戦部屋がありません" in (m.get("content") or "")
            for m in fake.messages("pairings")
        ),
        "the pairings post saying which tables have no room",
    )

"""Shards: several bot processes on one PostgreSQL database, through the fake Discord.

PostgreSQL only: SQLite serves one process, and these are stories of several.

- A rolling restart's overlap: the old process and its replacement both hold the guild's
  shard, and Discord delivers each interaction to both sessions. 200 reports (both players
  of 100 tables, agreeing, so each table is confirmed) are sent at once: two writers on one
  tournament, each interaction raced by both. Each operation is stored exactly once, the
  log equals the tables (`verify`), and every player got one answer.
- Two processes on two shards, one SIGKILLed mid-round: the other shard's guild goes on;
  the killed one restarts and resumes its clock notices, none posted twice.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.services import Services
from bot.services.actors import Actor
from bot.store.database import open_database
from tests.e2e.conftest import JSON, running_fake
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord.gateway import shard_of
from tests.e2e.fake_discord.state import Guild
from tests.e2e.story import FAST_CLOCK, database_rows, run_cli
from tests.support.big_event import running_event
from tests.support.postgres import PostgresServer

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

PLAYERS = 200


def actor(fake: FakeDiscord, name: str, guild: Guild, **extra: Any) -> Actor:
    return Actor(int(fake.member(name, guild).id), guild.id, name, **extra)


async def paired_event(fake: FakeDiscord, guild: Guild, players: list[str], name: str) -> None:
    database = await open_database(fake.database_location)
    try:
        await running_event(
            Services(database, seeds=lambda: 12),
            admin=actor(fake, "owner", guild, manages_guild=True),
            organizer=actor(
                fake, "organizer", guild, role_ids=frozenset({fake.role("Organizer", guild).id})
            ),
            players=[actor(fake, player, guild) for player in players],
            organizer_role=fake.role("Organizer", guild).id,
            judge_role=fake.role("Judge", guild).id,
            name=name,
            pairings_channel_id=fake.channel("pairings", guild).id,
        )
    finally:
        await database.close()


def players_and_an_event(fake: FakeDiscord) -> None:
    names = [f"p{number:03d}" for number in range(1, PLAYERS + 1)]
    for name in names:
        fake.world.add_member(fake.guild, name)
    asyncio.run(paired_event(fake, fake.guild, names, "Overlap Cup"))


@pytest.fixture(scope="module")
def overlap(
    synced_commands: list[JSON],
    tmp_path_factory: pytest.TempPathFactory,
    postgres_server: PostgresServer,
) -> Iterator[FakeDiscord]:
    with running_fake(
        synced_commands,
        tmp_path_factory.mktemp("overlap"),
        before_start=players_and_an_event,
        # Discord's rate limits off: this measures two processes racing on one store, both
        # serving the same server (as during a restart's overlap). Two clients of one token
        # keep no shared view of Discord's buckets, so under the limits both post into the
        # round's thread each on its own count and draw 429s: a property of any two
        # processes, not of how either tells.
        options={"log_level": "INFO", "timeout": 90.0, "rate_limits": False},
        database_url=postgres_server.create_database("overlap"),
    ) as fake:
        yield fake


def tables(fake: FakeDiscord) -> list[tuple[str, str]]:
    rows = database_rows(
        fake, "SELECT player1, player2 FROM matches WHERE round = 1 ORDER BY table_no"
    )
    names = {int(fake.member(f"p{n:03d}").id): f"p{n:03d}" for n in range(1, PLAYERS + 1)}
    return [(names[int(first)], names[int(second)]) for first, second in rows]


async def test_two_processes_racing_200_reports_on_one_tournament_store_each_once(
    overlap: FakeDiscord,
) -> None:
    fake = overlap
    await fake.settled()  # the pairings post went out
    replacement = await fake.start_process()  # the overlap: both hold the shard
    fake.gateway.every_session = True
    paired = tables(fake)
    assert len(paired) == PLAYERS // 2

    replies = await asyncio.gather(
        *(
            fake.slash("report result", user=name, options={"result": result}, locale="ja")
            for first, second in paired
            for name, result in ((first, "win"), (second, "lose"))
        )
    )

    for reply in replies:  # each player got one answer (the race's loser could not answer)
        assert reply.type in (4, 5), reply
        assert len(reply._record.callbacks) == 1
    ((logged, distinct),) = database_rows(
        fake,
        "SELECT COUNT(*), COUNT(DISTINCT request_id) FROM action_log WHERE kind = 'report_result'",
    )
    assert (logged, distinct) == (200, 200)  # each interaction once, though heard twice
    assert {int(r.interaction["id"]) for r in replies} == {
        int(row[0])
        for row in database_rows(
            fake, "SELECT request_id FROM action_log WHERE kind = 'report_result'"
        )
    }
    ((decided,),) = database_rows(
        fake, "SELECT COUNT(*) FROM matches WHERE round = 1 AND result_kind IS NOT NULL"
    )
    assert decided == PLAYERS // 2
    # Both processes did part of the work: each answered some of the interactions.
    assert fake.bot is not None
    for process in (fake.bot, replacement):
        assert "Traceback" not in process.stderr, process.tail()
    verified = await asyncio.to_thread(run_cli, "verify", **fake.database_env())
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "agrees (" in verified.stdout
    replacement.kill()


# -- two shards, one killed -------------------------------------------------------------


def second_guild_on_the_other_shard(fake: FakeDiscord) -> Guild:
    while True:
        guild = fake.add_guild("Shard Server", preferred_locale="ja")
        if shard_of(guild.id, 2) != shard_of(fake.guild.id, 2):
            return guild


def two_guilds_with_events(fake: FakeDiscord) -> None:
    other = second_guild_on_the_other_shard(fake)
    fake.load_commands(fake.commands(fake.guild), guild=other)
    names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
    for guild, cup in ((fake.guild, "Shard A Cup"), (other, "Shard B Cup")):
        asyncio.run(paired_event(fake, guild, names, cup))


@pytest.fixture(scope="module")
def two_shards(
    synced_commands: list[JSON],
    tmp_path_factory: pytest.TempPathFactory,
    postgres_server: PostgresServer,
) -> Iterator[FakeDiscord]:
    with running_fake(
        synced_commands,
        tmp_path_factory.mktemp("shards"),
        before_start=two_guilds_with_events,
        options={"timeout": 30.0},
        # Not held to Discord's limits yet: two processes post into the same channel (a
        # notice of the killed shard's guild is claimed by the other process; the restarted
        # one sends again what it had), each planning from its own view of the channel's
        # bucket, so Discord answers 429 (26 on one channel's POST /messages).
        check_limits=False,
        database_url=postgres_server.create_database("shards"),
        SHARD_COUNT="2",
        OUTBOX_CLAIM_SECONDS="2",
        # A 40-minute round lasts 20 s: the killed process is back before its time is up.
        **{**FAST_CLOCK, "CLOCK_SPEED": "120"},
    ) as fake:
        yield fake


def clock_posts(fake: FakeDiscord, guild: Guild) -> list[str]:
    """Every clock notice (⏰: reminders and time-up) in the guild's pairings channel and
    threads."""
    texts = [m.get("content") or "" for m in fake.messages("pairings", guild=guild)]
    for thread in fake.threads("pairings", guild=guild):
        texts += [m.get("content") or "" for m in fake.messages(thread.id, guild=guild)]
    return [text for text in texts if "⏰" in text]


def other_guild(fake: FakeDiscord) -> Guild:
    """The guild `second_guild_on_the_other_shard` kept (the others it made are spares)."""
    home = shard_of(fake.guild.id, 2)
    return next(g for g in fake.world.guilds.values() if shard_of(g.id, 2) != home)


async def test_a_process_killed_mid_round_resumes_its_clock_and_the_other_goes_on(
    two_shards: FakeDiscord, tmp_path: Path
) -> None:
    fake = two_shards
    home, away = fake.guild, other_guild(fake)
    # `fake.bot` was started before SHARD_IDS: it runs both shards. Replace it by one
    # process per shard, as a deployment of two processes would run.
    await fake.stop_bot()
    first = shard_of(home.id, 2)
    fake.bot = await fake.start_process(shard_ids=str(first))
    other = await fake.start_process(shard_ids=str(1 - first))
    for guild in (home, away):
        started = await fake.slash("round start", user="organizer", guild=guild, locale="ja")
        assert started.type in (4, 5), started
    await asyncio.sleep(3.0)  # six minutes of the fast clock: mid-round

    await fake.kill_bot()  # SIGKILL: no shutdown code runs
    killed, fake.bot = fake.bot, other  # the harness now waits on the live process

    # The other shard's guild goes on: commands are answered, its clock keeps posting.
    status = await fake.slash("round status", user="alice", guild=away, locale="ja")
    assert status.type in (4, 5)
    assert "第 1 回戦" in status.text
    # The killed process restarts (before its round's time is up) and resumes its clock.
    restarted = await fake.start_process(shard_ids=str(first))
    await fake.wait_for(
        lambda: time_up(clock_posts(fake, home)), "A's time-up after restart", within=40
    )
    await fake.wait_for(lambda: time_up(clock_posts(fake, away)), "B's time-up", within=30)
    await asyncio.sleep(2.0)  # anything posted twice would be posted by now
    for guild in (home, away):
        posts = clock_posts(fake, guild)
        repeated = [text for text, count in Counter(posts).items() if count > 1]
        assert not repeated, repeated  # no clock notice twice
    assert killed is not None
    assert "Traceback" not in killed.stderr + other.stderr + restarted.stderr
    restarted.kill()


def time_up(posts: list[str]) -> bool:
    return any("時間です（第 1 回戦" in text for text in posts)

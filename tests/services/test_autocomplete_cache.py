"""Autocomplete answers from memory: a flood of them never queues for the database, and
never waits behind the writer; the choices still follow every committed change."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, closing, suppress

import pytest

from bot.errors import StorageBusy
from bot.services import Services
from bot.store.backend import Database
from tests.services.conftest import GUILD, OTHER_GUILD, admin, organizer, player


@pytest.fixture
def backend() -> str:
    """SQLite only: it traces the SQLite connection's statements to show that a warm
    autocomplete reads nothing; the cache itself is the same on both backends."""
    return "sqlite"


@asynccontextmanager
async def statements(database: Database) -> AsyncIterator[list[str]]:
    """The SQL statements the bot's connections (the writer's and the reader's) run inside
    the block."""
    seen: list[str] = []
    connections = [database.connection, await database.reading_connection()]
    for connection in connections:
        await connection.set_trace_callback(seen.append)
    try:
        yield seen
    finally:
        for connection in connections:
            await connection.set_trace_callback(None)


async def create(services: Services, name: str, **settings: object) -> int:
    created = await services.tournaments.create(
        organizer(), name=name, format="swiss", regulation="single", **settings
    )
    return created.tournament.id


async def test_a_flood_reads_the_database_once_then_never(configured: Services) -> None:
    services, database = configured, configured.store.database
    await create(configured, "Spring Cup", max_players=8)
    await create(configured, "Summer Cup")
    async with statements(database) as cold:
        flood = await asyncio.gather(
            *(services.tournaments.autocomplete(GUILD, "cup", "ja") for _ in range(200))
        )
    assert all(answer == flood[0] for answer in flood)
    assert [label for label, _ in flood[0]] == [
        "【受付中】Summer Cup（0人）",
        "【受付中】Spring Cup（0人／定員8人）",
    ]
    # One read for all 200 (its BEGIN … ROLLBACK), not one each.
    assert sum(sql == "BEGIN" for sql in cold) == 1
    async with statements(database) as warm:
        for typed in ("", "spring", "SUMMER", "nothing"):
            await services.tournaments.autocomplete(GUILD, typed, "en")
    assert warm == []


async def test_the_choices_follow_each_commit_without_reading(configured: Services) -> None:
    services, database = configured, configured.store.database
    await create(configured, "Spring Cup", max_players=8)
    assert await services.tournaments.autocomplete(GUILD, "", "en") == [
        ("[Open] Spring Cup (0 players / 8 max)", "1")
    ]
    await services.registration.register(player(1), None)
    second = await create(configured, "Autumn Cup")
    await services.tournaments.update_settings(organizer(), "Autumn Cup", decklist_required=False)
    await services.registration.register(player(2), "Autumn Cup")
    await services.registration.register(player(3), "Autumn Cup")
    await services.lifecycle.start(organizer(), "Autumn Cup")
    async with statements(database) as seen:
        answer = await services.tournaments.autocomplete(GUILD, "", "en")
    assert seen == []
    assert answer == [
        ("[Running] Autumn Cup (2 players)", str(second)),
        ("[Open] Spring Cup (1 player / 8 max)", "1"),
    ]
    # A fresh bot on the same file reads the same choices.
    fresh = Services(database)
    assert await fresh.tournaments.autocomplete(GUILD, "", "en") == answer


async def test_an_autocomplete_never_waits_behind_the_writer(
    configured: Services, database: Database
) -> None:
    services = configured
    await create(configured, "Spring Cup")
    assert await services.tournaments.autocomplete(GUILD, "", "ja")  # the guild is known
    await database.connection.execute("PRAGMA busy_timeout = 1000")
    with closing(sqlite3.connect(database.path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # another program holds SQLite's write lock
        writer = asyncio.create_task(services.registration.register(player(1), None))
        for _ in range(1000):  # until the writer is in, waiting for SQLite's lock
            if database._lock.locked():
                break
            await asyncio.sleep(0)
        assert database._lock.locked()
        answer = await services.tournaments.autocomplete(GUILD, "spring", "en")
        assert not writer.done()  # answered while the writer still waits
        other.execute("ROLLBACK")
    assert answer == [("[Open] Spring Cup (0 players)", "1")]
    with suppress(StorageBusy):
        await writer


async def test_guilds_keep_their_own_choices(configured: Services) -> None:
    services = configured
    await services.guilds.configure(admin(OTHER_GUILD), locale="en")
    await create(configured, "Spring Cup")
    assert await services.tournaments.autocomplete(OTHER_GUILD, "", "en") == []
    await create(configured, "Summer Cup")
    assert await services.tournaments.autocomplete(OTHER_GUILD, "", "en") == []
    assert len(await services.tournaments.autocomplete(GUILD, "", "en")) == 2
    assert await services.tournaments.autocomplete(None, "", "en") == []


async def test_statements_sees_the_connections_sql(database: Database) -> None:
    async with statements(database) as seen, database.read() as connection:
        await connection.execute("SELECT 1")
    assert seen == ["BEGIN", "SELECT 1", "ROLLBACK"]

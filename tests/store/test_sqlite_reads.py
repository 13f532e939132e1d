"""SQLite's reads: on their own connection, reads at the same time share one read
transaction, and a read never misses a commit this process made before it began. On real
SQLite files with the migrations applied."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.services import Services
from bot.store import sqlite
from bot.store.sqlite import SqliteDatabase
from tests.services.conftest import GUILD, NOW, ORGANIZER_ROLE, admin, organizer, player


async def guilds(database: SqliteDatabase) -> set[int]:
    async with database.read() as connection:
        rows = await connection.execute_fetchall("SELECT guild_id FROM guild_config")
    return {row[0] for row in rows}


async def add_guild(database: SqliteDatabase, guild_id: int) -> None:
    async with database.write() as connection:
        await connection.execute(
            "INSERT INTO guild_config (guild_id, updated_at) VALUES (?, '2026-01-01')", (guild_id,)
        )


async def test_reads_at_the_same_time_share_one_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Young enough to join, whatever the machine's load: the 50 reads join in one turn of
    # the loop, which a busy machine may stretch past the bot's 50 ms.
    monkeypatch.setattr(sqlite, "SHARED_READ_SECONDS", 10.0)
    database = await SqliteDatabase.open_file(tmp_path / "bot.sqlite3")
    try:
        await add_guild(database, 1)
        seen: list[str] = []
        reader = await database.reading_connection()
        await reader.set_trace_callback(seen.append)
        answers = await asyncio.gather(*(guilds(database) for _ in range(50)))
        await reader.set_trace_callback(None)
        assert answers == [{1}] * 50
        assert seen.count("BEGIN") == 1  # not one BEGIN … ROLLBACK each
        assert seen.count("ROLLBACK") == 1
        # The query they all ask runs once (a hundred commands at the end of a
        # round each asked the server's settings and the tournament's version).
        assert seen.count("SELECT guild_id FROM guild_config") == 1
        assert not reader.in_transaction
        await add_guild(database, 2)
        assert await guilds(database) == {1, 2}  # the next snapshot asks again
    finally:
        await database.close()


async def test_readers_of_a_shared_answer_get_their_own_list(tmp_path: Path) -> None:
    database = await SqliteDatabase.open_file(tmp_path / "bot.sqlite3")
    try:
        await add_guild(database, 1)

        async def read_and_change() -> int:
            async with database.read() as connection:
                rows = await connection.execute_fetchall("SELECT guild_id FROM guild_config")
                rows.clear()  # a caller's own list: the other readers keep theirs
                await asyncio.sleep(0)
                again = await connection.execute_fetchall("SELECT guild_id FROM guild_config")
            return len(again)

        assert await asyncio.gather(*(read_and_change() for _ in range(5))) == [1] * 5
    finally:
        await database.close()


async def test_a_reader_that_stops_waiting_leaves_the_answer_to_the_others(
    tmp_path: Path,
) -> None:
    database = await SqliteDatabase.open_file(tmp_path / "bot.sqlite3")
    try:
        await add_guild(database, 1)
        first = asyncio.create_task(guilds(database))
        second = asyncio.create_task(guilds(database))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        first.cancel()  # a command cancelled while the shared query runs
        assert await second == {1}
        assert await guilds(database) == {1}
    finally:
        await database.close()


async def test_a_parameter_that_cannot_be_shared_is_asked_on_its_own(tmp_path: Path) -> None:
    database = await SqliteDatabase.open_file(tmp_path / "bot.sqlite3")
    try:
        await add_guild(database, 1)
        async with database.read() as connection:
            with pytest.raises(sqlite3.ProgrammingError):  # SQLite's own refusal, not a crash
                await connection.execute_fetchall(
                    "SELECT guild_id FROM guild_config WHERE guild_id = ?", ([1],)
                )
            rows = await connection.execute_fetchall(
                "SELECT guild_id FROM guild_config WHERE guild_id = ?", (1,)
            )
        assert [row[0] for row in rows] == [1]
    finally:
        await database.close()


async def test_a_read_sees_every_commit_made_before_it_began(tmp_path: Path) -> None:
    database = await SqliteDatabase.open_file(tmp_path / "bot.sqlite3")
    try:
        await add_guild(database, 1)
        holding = asyncio.Event()
        release = asyncio.Event()

        async def long_read() -> set[int]:
            async with database.read() as connection:
                first = await connection.execute_fetchall("SELECT guild_id FROM guild_config")
                holding.set()
                await release.wait()
                again = await connection.execute_fetchall("SELECT guild_id FROM guild_config")
            assert first == again  # one snapshot throughout
            return {row[0] for row in again}

        older = asyncio.create_task(long_read())
        await holding.wait()
        await add_guild(database, 2)  # committed while the older read is still open
        newer = asyncio.create_task(guilds(database))
        await asyncio.sleep(0.01)
        release.set()
        assert await older == {1}
        assert await newer == {1, 2}  # it did not join the older snapshot
    finally:
        await database.close()


async def test_a_failing_read_leaves_the_connection_usable(tmp_path: Path) -> None:
    database = await SqliteDatabase.open_file(tmp_path / "bot.sqlite3")
    try:
        await add_guild(database, 1)

        async def broken() -> None:
            async with database.read() as connection:
                await connection.execute("SELECT nothing FROM nowhere")

        results = await asyncio.gather(broken(), guilds(database), return_exceptions=True)
        assert isinstance(results[0], Exception)
        assert results[1] == {1}
        assert await guilds(database) == {1}
    finally:
        await database.close()


async def test_reads_at_the_same_time_load_a_tournament_once(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    database = await SqliteDatabase.open_file(path)
    try:
        services = Services(database, clock=lambda: NOW)
        await services.guilds.configure(admin(), organizer_role_id=ORGANIZER_ROLE, locale="ja")
        await services.tournaments.create(
            organizer(), name="Spring Cup", format="swiss", regulation="single"
        )
        for number in range(1, 9):
            await services.registration.register(player(number), None)
        fresh = Services(database, clock=lambda: NOW)  # a restarted bot: nothing cached
        seen: list[str] = []
        reader = await database.reading_connection()
        await reader.set_trace_callback(seen.append)
        answers = await asyncio.gather(*(fresh.rounds.standings(GUILD, None) for _ in range(20)))
        await reader.set_trace_callback(None)
        assert {answer.tournament.name for answer in answers} == {"Spring Cup"}
        assert len({id(answer.tournament) for answer in answers}) == 1  # one value, shared
        assert sum("FROM players" in sql for sql in seen) == 1
    finally:
        await database.close()

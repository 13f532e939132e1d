"""PostgreSQL's own failures are the bot's typed storage errors, as SQLite's are: a server
stopped, restarted or crashed, a connection cut mid-transaction, a pool with no free
connection, the server's connection limit, a deadlock. Each is a transient `StorageError`
(the reply is "not saved, try again", never "unexpected"), nothing of the transaction is
written, and the same call succeeds once the server is back.

Against a real server of this module's own (initdb + pg_ctl), stopped and started for real:
the session's shared server is never stopped under other tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import asyncpg
import pytest

from bot.errors import (
    StartupError,
    StorageConflict,
    StorageError,
    StoragePoolExhausted,
    StorageUnavailable,
)
from bot.notify.plan import plan
from bot.services import Services
from bot.store import postgres
from bot.store.database import open_database
from bot.store.postgres import PostgresDatabase
from bot.store.uow import CONFLICT_RETRIES, Store, retrying_conflicts
from domain.tournament.operations import Actor as TournamentActor
from tests.services.conftest import GUILD, NOW, admin, organizer, player
from tests.support.postgres import PostgresServer

pytestmark = pytest.mark.postgres


@pytest.fixture
def server(own_postgres_server: PostgresServer) -> Iterator[PostgresServer]:
    yield own_postgres_server
    with contextlib.suppress(Exception):  # a test that failed with the server stopped
        own_postgres_server.start()


@pytest.fixture
async def database(server: PostgresServer) -> AsyncIterator[PostgresDatabase]:
    opened = await open_database(server.create_database("outage"))
    assert isinstance(opened, PostgresDatabase)
    yield opened
    await opened.close()


@pytest.fixture
async def services(database: PostgresDatabase) -> Services:
    services = Services(database, clock=lambda: NOW, seeds=lambda: 424242)
    await services.guilds.configure(admin(), organizer_role_id=11, judge_role_id=12, locale="ja")
    await services.tournaments.create(
        organizer(), name="Outage Cup", format="swiss", regulation="single"
    )
    return services


async def registered(database: PostgresDatabase) -> list[int]:
    async with database.read() as connection:
        rows = await connection.execute_fetchall("SELECT user_id FROM players ORDER BY user_id")
    return [int(row["user_id"]) for row in rows]


async def logged(database: PostgresDatabase) -> int:
    async with database.read() as connection:
        rows = await connection.execute_fetchall("SELECT COUNT(*) FROM action_log")
    return int(rows[0][0])


async def test_a_stopped_server_is_unavailable_and_the_same_call_works_once_it_is_back(
    server: PostgresServer, services: Services, database: PostgresDatabase
) -> None:
    await services.registration.register(player(1), None)
    before = await logged(database)
    server.stop("fast")
    with pytest.raises(StorageUnavailable) as refused:
        await services.registration.register(player(2), None)
    assert refused.value.transient
    assert "unreachable" in str(refused.value)
    with pytest.raises(StorageUnavailable):  # a read too
        await services.tournaments.overview(player(2))
    server.start()
    await services.registration.register(player(2), None)
    assert await registered(database) == [101, 102]
    assert await logged(database) == before + 1  # the refused call wrote nothing


async def test_a_restart_between_two_calls_costs_neither_a_failure(
    server: PostgresServer, services: Services, database: PostgresDatabase
) -> None:
    """The pool's idle connections die with the server: the next transaction begins on a
    fresh one instead of failing on a stale one."""
    await asyncio.gather(*(services.registration.register(player(n), None) for n in (1, 2, 3)))
    away = server.restart("fast")
    assert away < 5
    await services.registration.register(player(4), None)
    await services.tournaments.overview(player(4))
    assert await registered(database) == [101, 102, 103, 104]


async def test_a_connection_cut_mid_transaction_writes_nothing(
    server: PostgresServer, services: Services, database: PostgresDatabase
) -> None:
    before = await logged(database)

    async def cut_while_holding_the_tournament() -> None:
        async with services.store.write(GUILD, NOW, lambda _: TournamentActor(109)) as tx:
            tournament = await tx.tournament(None)
            # The administrator ends this session (57P01) while it holds the tournament.
            raw = await asyncpg.connect(database.url)
            try:
                await raw.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = 'pmbot' AND datname = current_database()"
                    " AND state LIKE 'idle in transaction%'"
                )
            finally:
                await raw.close()
            await tx.load(tournament.id + 1)  # its next statement

    with pytest.raises(StorageUnavailable) as refused:
        await cut_while_holding_the_tournament()
    assert refused.value.transient
    assert await logged(database) == before
    await services.registration.register(player(9), None)  # the pool made a new connection
    assert await registered(database) == [109]


async def test_a_crash_mid_transaction_writes_nothing(
    server: PostgresServer, services: Services, database: PostgresDatabase
) -> None:
    before = await logged(database)
    # What committed is on disk first: this test server's commits are asynchronous, and a
    # crash would lose the last ones (a server for tests only).
    server.psql("CHECKPOINT")

    async def crash_half_way() -> None:
        async with database.write() as connection:
            await connection.execute(
                "INSERT INTO action_log (guild_id, actor_id, kind, created_at)"
                " VALUES (1, 1, 'half', 'now')"
            )
            server.stop("immediate")  # every session killed at once, as in a crash
            await connection.execute("SELECT 1")

    with pytest.raises(StorageUnavailable):
        await crash_half_way()
    server.start()
    assert await logged(database) == before


async def test_no_free_connection_in_the_pool_is_busy(
    server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One pooled connection, held by a long transaction: the next waits the pool's wait
    (shortened here from 10 s) and is refused as busy, a kind of `StorageBusy`."""
    monkeypatch.setattr(postgres, "POOL_WAIT_SECONDS", 0.3)
    database = await PostgresDatabase.connect(server.create_database("pool"), pool_size=1)
    try:
        holding, release = asyncio.Event(), asyncio.Event()

        async def hold() -> None:
            async with database.write():
                holding.set()
                await release.wait()

        holder = asyncio.create_task(hold())
        await holding.wait()
        try:
            with pytest.raises(StoragePoolExhausted) as refused:
                async with database.read():
                    pass
        finally:
            release.set()
            await holder
        assert refused.value.transient
        assert "database busy" in str(refused.value)
        async with database.read():  # free again
            pass
    finally:
        await database.close()


async def test_the_servers_connection_limit_is_busy(server: PostgresServer) -> None:
    """A role allowed one connection (a server's limit is the same refusal, 53300; a
    superuser, as the tests' own, is never limited): the second is refused as busy."""
    server.psql("DROP ROLE IF EXISTS limited_bot")
    server.psql("CREATE ROLE limited_bot LOGIN CONNECTION LIMIT 1")
    name = server.create_database("limited").rsplit("/", 1)[1]
    server.psql(f'ALTER DATABASE "{name}" OWNER TO limited_bot')
    url = f"postgresql://limited_bot@127.0.0.1:{server.port}/{name}"
    database = await PostgresDatabase.connect(url, pool_size=2)
    holding, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with database.write():
            holding.set()
            await release.wait()

    holder = asyncio.create_task(hold())
    try:
        await holding.wait()
        with pytest.raises(StoragePoolExhausted) as refused:
            async with database.read():
                pass
        assert refused.value.transient
        assert "53300" in refused.value.detail
    finally:
        release.set()
        await holder
        await database.close()


async def test_a_deadlock_is_a_conflict_and_the_other_writer_commits(
    database: PostgresDatabase,
) -> None:
    """Two writers take two tournaments' locks in opposite orders: PostgreSQL breaks the
    deadlock (40P01) by refusing one, which is rolled back whole; the other commits."""
    first_locked, second_locked = asyncio.Event(), asyncio.Event()

    async def writer(mine: int, theirs: int, locked: asyncio.Event, other: asyncio.Event) -> str:
        async with database.write() as connection:
            await database.lock_tournament(connection, mine)
            await connection.execute(
                "INSERT INTO action_log (guild_id, actor_id, kind, created_at)"
                " VALUES (1, ?, 'race', 'now')",
                (mine,),
            )
            locked.set()
            await other.wait()
            await database.lock_tournament(connection, theirs)
        return "committed"

    outcomes = await asyncio.gather(
        writer(7001, 7002, first_locked, second_locked),
        writer(7002, 7001, second_locked, first_locked),
        return_exceptions=True,
    )
    conflicts = [o for o in outcomes if isinstance(o, StorageConflict)]
    assert len(conflicts) == 1, outcomes
    assert outcomes.count("committed") == 1
    assert conflicts[0].transient
    assert "40P01" in conflicts[0].detail
    async with database.read() as connection:
        rows = await connection.execute_fetchall(
            "SELECT COUNT(*) FROM action_log WHERE kind = 'race'"
        )
    assert int(rows[0][0]) == 1  # the refused writer's row is gone with it


async def test_a_use_case_refused_in_a_deadlock_is_run_again_and_stored_once(
    services: Services, database: PostgresDatabase, caplog: pytest.LogCaptureFixture
) -> None:
    """A registration meets another transaction that holds the tournament's row and then
    wants the tournament's lock, which the registration holds: PostgreSQL breaks the
    deadlock by refusing the registration's transaction (40P01). It is run again after a
    short random wait and stored once; the player never reads "not saved". (Before, the
    first refusal was the answer.)"""
    caplog.set_level(logging.INFO, logger="bot.store.uow")
    ((tournament,),) = [tuple(row) for row in await rows(database, "SELECT id FROM tournaments")]
    before = await logged(database)
    other = await database.pool.acquire()
    watcher = await database.pool.acquire()
    try:
        # The other waits longest before looking for a deadlock: the registration, which
        # waits first, is the transaction PostgreSQL refuses.
        await other.execute("SET deadlock_timeout = '10s'")
        holding = other.transaction()
        await holding.start()
        await other.execute("SELECT 1 FROM tournaments WHERE id = $1 FOR UPDATE", tournament)
        registering = asyncio.create_task(services.registration.register(player(7), None))
        async with asyncio.timeout(10):  # until the registration waits for the row
            while not await watcher.fetchval(  # noqa: ASYNC110
                "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND datname = current_database()"
            ):
                await asyncio.sleep(0.01)
        await other.execute("SELECT pg_advisory_xact_lock($1)", tournament)  # the cycle
        await holding.commit()
    finally:
        await database.pool.release(other)
        await database.pool.release(watcher)
    registration = await asyncio.wait_for(registering, 10)
    assert registration.player.user_id == 107
    assert await registered(database) == [107]
    assert await logged(database) == before + 1  # once
    tried_again = [r.getMessage() for r in caplog.records if "trying again" in r.getMessage()]
    assert len(tried_again) == 1, tried_again
    assert "40P01" in tried_again[0]


async def test_a_conflict_after_a_commit_is_not_run_again(database: PostgresDatabase) -> None:
    """A use case is run again only while none of its transactions committed (what a
    commit told may be out already); one that committed nothing, at most
    `CONFLICT_RETRIES` more times."""
    store = Store(database, plan=plan)
    calls: list[str] = []

    async def commits_then_conflicts() -> None:
        calls.append("committed")
        async with store.write(GUILD, NOW, lambda _: TournamentActor(0)):
            pass
        raise StorageConflict("40P01: deadlock detected")

    with pytest.raises(StorageConflict):
        await retrying_conflicts(commits_then_conflicts)
    assert calls == ["committed"]

    async def conflicts() -> None:
        calls.append("refused")
        raise StorageConflict("40001: could not serialize access")

    calls.clear()
    with pytest.raises(StorageConflict):
        await retrying_conflicts(conflicts)
    assert calls == ["refused"] * (1 + CONFLICT_RETRIES)


async def rows(database: PostgresDatabase, sql: str) -> list[Any]:
    async with database.read() as connection:
        return list(await connection.execute_fetchall(sql))


def test_what_is_not_the_servers_fault_stays_unexpected() -> None:
    """A bug in a statement (a syntax error, a broken constraint) is no storage error."""
    assert postgres.storage_error(asyncpg.PostgresSyntaxError("syntax error")) is None
    assert postgres.storage_error(asyncpg.UniqueViolationError("duplicate key")) is None
    assert postgres.storage_error(ValueError("no")) is None
    assert isinstance(
        postgres.storage_error(asyncpg.SerializationError("could not serialize")),
        StorageConflict,
    )
    starting = postgres.storage_error(asyncpg.CannotConnectNowError("starting up"))
    assert isinstance(starting, StorageError)
    assert starting.transient


async def test_a_server_that_is_not_there_at_the_start_is_a_startup_error(
    server: PostgresServer,
) -> None:
    url = server.create_database("start")
    server.stop("fast")
    with pytest.raises(StartupError) as refused:
        await open_database(url)
    assert "127.0.0.1" in refused.value.message

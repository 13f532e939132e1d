"""PostgreSQL through asyncpg: the backend for several bot processes on one database.

An asyncpg pool; many transactions at once, from many processes. A write that loads a
tournament first takes `pg_advisory_xact_lock(tournament id)` (`lock_tournament`), so one
tournament has one writer at a time across every process. Here too: the connection adapter
the SQL functions use, this backend's migration runner, and the NOTIFY bridge that tells
other processes what committed.

The SQL functions of bot/store are written once, for aiosqlite's surface; `PgConnection`
gives them the same surface over an asyncpg connection:

- `?` placeholders become `$1, $2, …` (outside quoted strings; translated once per text);
- rows are asyncpg `Record`s, read by name or position like `aiosqlite.Row`;
- `execute` is awaited or used as `async with … as cursor`; the cursor has `fetchall`,
  `fetchone`, `rowcount` (from the command tag) and `lastrowid`: an `INSERT` into a table
  whose `id` is an identity column gets `RETURNING id` appended, as SQLite's rowid;
- `execute_fetchall` and `executemany` as in aiosqlite.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from bot.errors import (
    StartupError,
    StorageConflict,
    StorageError,
    StorageFull,
    StoragePoolExhausted,
    StorageUnavailable,
)
from bot.i18n import both_error
from bot.outage import Outage
from bot.store.backend import POSTGRES, Announced, Connection, Database, Publish, Snapshot
from bot.store.commits import Committed
from bot.store.migrations import (
    MIGRATIONS_DIR,
    Migration,
    MigrationFailed,
    discover_migrations,
    newest_known,
    refuse_newer,
)
from bot.store.shards import process_token
from bot.store.urls import safe_url

log = logging.getLogger(__name__)

# A connection of its own or one lent by the pool.
RawConnection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy

# The channel of the committed-changes bridge (bot/store/commits.py).
COMMITS_CHANNEL = "pmbot_commits"
# A session-level advisory lock held while migrating, so two processes starting at once
# migrate one after the other (the second then finds nothing to do).
MIGRATION_LOCK = 0x504D_4D49  # "PMMI"
_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES)\b|\bRETURNING\b", re.IGNORECASE)
_INSERT_INTO = re.compile(r"^\s*INSERT\s+INTO\s+([A-Za-z_][A-Za-z0-9_]*)", re.IGNORECASE)


@functools.lru_cache(maxsize=2048)
def numbered_placeholders(sql: str) -> str:
    """`?` → `$n`, leaving quoted strings alone."""
    out: list[str] = []
    number = 0
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            number += 1
            out.append(f"${number}")
        else:
            out.append(char)
    return "".join(out)


class PgCursor:
    """What one statement gave back, shaped like an aiosqlite cursor."""

    def __init__(
        self, rows: list[asyncpg.Record], rowcount: int, lastrowid: int | None = None
    ) -> None:
        self._rows = rows
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchall(self) -> list[asyncpg.Record]:
        return self._rows

    async def fetchone(self) -> asyncpg.Record | None:
        return self._rows[0] if self._rows else None

    async def close(self) -> None:
        return None


class PgResult:
    """`await connection.execute(…)` and `async with connection.execute(…) as cursor`."""

    def __init__(self, running: Awaitable[PgCursor]) -> None:
        self._running = running

    def __await__(self) -> Generator[Any, None, PgCursor]:
        return self._running.__await__()

    async def __aenter__(self) -> PgCursor:
        return await self._running

    async def __aexit__(self, *exc: object) -> None:
        return None


class PgConnection:
    """An asyncpg connection inside one transaction, with aiosqlite's surface."""

    def __init__(self, raw: RawConnection, id_tables: frozenset[str]) -> None:
        self.raw = raw
        self._id_tables = id_tables

    def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> PgResult:
        return PgResult(self._execute(sql, tuple(parameters or ())))

    async def _execute(self, sql: str, parameters: tuple[Any, ...]) -> PgCursor:
        query = numbered_placeholders(sql)
        if _RETURNS_ROWS.search(sql):
            rows = await self.raw.fetch(query, *parameters)
            return PgCursor(rows, len(rows))
        inserted = _INSERT_INTO.match(sql)
        if inserted is not None and inserted.group(1).lower() in self._id_tables:
            rows = await self.raw.fetch(query + " RETURNING id", *parameters)
            return PgCursor(rows, len(rows), int(rows[0]["id"]) if rows else None)
        status = await self.raw.execute(query, *parameters)
        count = status.rsplit(" ", 1)[-1]
        return PgCursor([], int(count) if count.isdigit() else -1)

    async def execute_fetchall(
        self, sql: str, parameters: Iterable[Any] | None = None
    ) -> Iterable[asyncpg.Record]:
        return await self.raw.fetch(numbered_placeholders(sql), *tuple(parameters or ()))

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> None:
        await self.raw.executemany(numbered_placeholders(sql), [tuple(row) for row in parameters])


# -- the pool ------------------------------------------------------------------------------


async def create_pool(url: str, *, size: int) -> asyncpg.Pool:
    """Connections are made when first wanted, and again after a restart of the server: no
    floor of open ones (`min_size=0`), which asyncpg restores by itself, logging a
    traceback at every attempt while the server is away."""
    pool = await asyncpg.create_pool(
        url, min_size=0, max_size=size, server_settings={"application_name": "pmbot"}
    )
    assert pool is not None
    return pool


async def identity_tables(connection: RawConnection) -> frozenset[str]:
    """Tables whose `id` column is an identity: their INSERTs return the new id."""
    rows = await connection.fetch(
        "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND column_name = 'id' AND is_identity = 'YES'"
    )
    return frozenset(str(row["table_name"]) for row in rows)


# How long a transaction waits for a pooled connection before it is refused as busy, as
# SQLite's busy timeout (5 s) refuses a write held up by another writer; longer, as reads
# wait too. Bursts of one server's writes queue in the process, not here (`Store.write`).
POOL_WAIT_SECONDS = 10.0
# How long closing the pool at the bot's stop may take (its shutdown has its own budget).
CLOSE_SECONDS = 5.0

# The server's answers that say it is going away or not there yet (not the statement's
# fault): 57P01 admin shutdown (a fast stop or restart), 57P02 crash shutdown, 57P03
# cannot connect now (starting up or shutting down).
_SERVER_AWAY = (
    asyncpg.AdminShutdownError | asyncpg.CrashShutdownError | asyncpg.CannotConnectNowError
)


def storage_error(
    error: BaseException, connection: RawConnection | None = None
) -> StorageError | None:
    """The typed error for a failure of PostgreSQL itself (its connection, its server, a
    race another transaction won), or None for any other error (a bug in a statement stays
    unexpected). `connection`: the connection the error came from, when there was one."""
    detail = _detail(error)
    if isinstance(error, asyncpg.TransactionRollbackError):  # 40001, 40P01
        return StorageConflict(detail)
    if isinstance(error, asyncpg.PostgresConnectionError | _SERVER_AWAY):  # 08…, 57P0x
        return StorageUnavailable(detail)
    if isinstance(error, asyncpg.TooManyConnectionsError):  # 53300
        return StoragePoolExhausted(detail)
    if isinstance(error, asyncpg.DiskFullError):  # 53100
        return StorageFull(detail)
    if isinstance(error, asyncpg.InterfaceError) and (connection is None or _gone(connection)):
        return StorageUnavailable(detail)  # "the underlying connection is closed"
    return None


def _gone(connection: RawConnection) -> bool:
    """Whether the server closed the connection. The pool takes back, by itself, a lent
    connection that the server closed: its proxy then refuses every call."""
    try:
        return connection.is_closed()
    except asyncpg.InterfaceError:
        return True  # "connection has been released back to the pool"


def _detail(error: BaseException) -> str:
    code = getattr(error, "sqlstate", None)
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return f"{code}: {text}" if code else f"{type(error).__name__}: {text}"


async def acquire(pool: asyncpg.Pool) -> asyncpg.pool.PoolConnectionProxy:
    """A pooled connection, connected: a server that cannot be reached, or a pool that has
    none free within `POOL_WAIT_SECONDS`, is a `StorageError`."""
    try:
        return await pool.acquire(timeout=POOL_WAIT_SECONDS)
    except TimeoutError as error:
        raise StoragePoolExhausted(
            f"no pooled connection free within {POOL_WAIT_SECONDS:.0f} s"
        ) from error
    except OSError as error:  # refused, reset, unreachable
        raise StorageUnavailable(_detail(error)) from error
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        typed = storage_error(error) or StorageUnavailable(_detail(error))
        raise typed from error


async def _release(pool: asyncpg.Pool, raw: asyncpg.pool.PoolConnectionProxy) -> None:
    """Back to the pool. A connection that went away meanwhile cannot be reset: asyncpg
    closes it (the pool makes a new one when wanted), and that is no failure of the
    transaction, which ended before."""
    try:
        await pool.release(raw)
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
        log.debug("a pooled connection was lost on its way back: %s", error)


@asynccontextmanager
async def transaction(
    pool: asyncpg.Pool, id_tables: frozenset[str], *, readonly: bool = False
) -> AsyncIterator[PgConnection]:
    """One transaction on a pooled connection: READ COMMITTED for writes (each statement
    sees what committed before it, so what a writer reads after taking a tournament's
    lock is the newest), REPEATABLE READ for reads (one snapshot for every query).

    A failure of PostgreSQL itself leaves as its `StorageError` (`storage_error`). A pooled
    connection that the server closed while it was idle (a restart) fails at its BEGIN,
    before anything was sent: the transaction begins once more on a fresh connection."""
    raw, transacting = await _begin(pool, readonly)
    try:
        try:
            yield PgConnection(raw, id_tables)
        except BaseException as failure:
            try:
                await transacting.rollback()
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
                # The connection is gone, and the transaction with it: say why it failed.
                typed = storage_error(failure, raw) or storage_error(error, raw)
                if typed is None:
                    raise
                raise typed from failure
            typed = storage_error(failure, raw)
            if typed is None:
                raise
            raise typed from failure
        try:
            await transacting.commit()
        except (asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            typed = storage_error(error, raw)
            if typed is None:
                raise
            raise typed from error
    finally:
        await _release(pool, raw)


async def _begin(
    pool: asyncpg.Pool, readonly: bool
) -> tuple[asyncpg.pool.PoolConnectionProxy, asyncpg.transaction.Transaction]:
    """A pooled connection with its transaction begun. After a restart every idle pooled
    connection is stale (the server closed it; the message saying so may have arrived while
    it was idle, which leaves asyncpg's protocol waiting for an answer that never comes):
    its BEGIN fails before anything was sent, so it is closed and the next one tried, until
    a fresh one is made."""
    for attempt in range(pool.get_max_size() + 1):
        raw = await acquire(pool)
        transacting = raw.transaction(
            isolation="repeatable_read" if readonly else "read_committed", readonly=readonly
        )
        try:
            await transacting.start()
        except (
            asyncpg.PostgresError,
            asyncpg.InterfaceError,
            asyncpg.InternalClientError,
        ) as error:
            if isinstance(error, asyncpg.InternalClientError):
                # "another operation is in progress": the protocol is stuck on a message
                # the server sent as it closed the connection.
                typed: StorageError | None = StorageUnavailable(_detail(error))
                with contextlib.suppress(asyncpg.InterfaceError):
                    raw.terminate()
            else:
                typed = storage_error(error, raw)
            await _release(pool, raw)
            if typed is None:
                raise
            if attempt == pool.get_max_size() or not isinstance(typed, StorageUnavailable):
                raise typed from error
            log.debug("a pooled connection was stale (%s): beginning on another", error)
            continue
        except BaseException:  # cancelled, or anything else: the connection goes back
            await _release(pool, raw)
            raise
        return raw, transacting
    raise AssertionError("unreachable")


# -- telling other processes ---------------------------------------------------------------


@dataclass(frozen=True)
class Heard:
    """A commit another process announced."""

    guild_id: int
    tournament_id: int | None
    version: int | None
    notices: int


async def announce(
    connection: PgConnection,
    sender: str,
    commits: Sequence[tuple[int, int | None, int | None, int]],
) -> None:
    """NOTIFY, inside the transaction: delivered to listeners only if it commits."""
    for guild_id, tournament_id, version, notices in commits:
        payload = json.dumps(
            {"p": sender, "g": guild_id, "t": tournament_id, "v": version, "n": notices}
        )
        await connection.raw.execute("SELECT pg_notify($1, $2)", COMMITS_CHANNEL, payload)


class Listener:
    """LISTEN on a connection of its own; each commit of another process is handed to
    `heard`. After the connection is lost and made again, `resync()` is called: PostgreSQL
    does not replay the notifications missed meanwhile."""

    def __init__(
        self,
        url: str,
        sender: str,
        heard: Callable[[Heard], None],
        resync: Callable[[], None],
        *,
        retry_seconds: float = 1.0,
    ) -> None:
        self.url = url
        self.sender = sender
        self.heard = heard
        self.resync = resync
        self.retry_seconds = retry_seconds
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="postgres listener")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        first = True
        # The server away (stopped, restarting): said once, and once that it is back, not
        # at every attempt to connect again.
        outage = Outage(
            "the commits listener's connection",
            log,
            meanwhile="other processes' commits are not heard until it is back, then all is"
            " re-read",
        )
        while True:
            lost = asyncio.Event()
            on_lost = functools.partial(_set_event, lost)
            try:
                connection = await asyncpg.connect(self.url)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                outage.failed(error)
                await asyncio.sleep(self.retry_seconds)
                continue
            try:
                connection.add_termination_listener(on_lost)
                await connection.add_listener(COMMITS_CHANNEL, self._notified)
                self.connected.set()
                outage.succeeded()
                if not first:
                    log.info("listening again for other processes' commits: re-reading all")
                    self.resync()
                first = False
                await lost.wait()
                outage.failed(ConnectionError("connection lost"))
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                outage.failed(error)
            finally:
                self.connected.clear()
                with contextlib.suppress(Exception):
                    await connection.close(timeout=1)
            await asyncio.sleep(self.retry_seconds)

    def _notified(self, connection: object, pid: int, channel: str, payload: object) -> None:
        try:
            data = json.loads(str(payload))
        except ValueError:
            log.warning("an unreadable commit notification: %r", str(payload)[:200])
            return
        if data.get("p") == self.sender:
            return  # our own: the local bus already published it
        self.heard(
            Heard(
                guild_id=int(data["g"]),
                tournament_id=data.get("t"),
                version=data.get("v"),
                notices=int(data.get("n") or 0),
            )
        )


# -- the database --------------------------------------------------------------------------


class PostgresDatabase(Database):
    """A pool of connections to one PostgreSQL database, shared by many processes."""

    dialect = POSTGRES
    shared_by_processes = True

    def __init__(self, pool: asyncpg.Pool, url: str, id_tables: frozenset[str]) -> None:
        self.pool = pool
        self.url = url
        self.label = safe_url(url)
        self.id_tables = id_tables
        self.sender = process_token()
        self.on_storage_full = []  # never called: PostgreSQL's disk is its server's

    @classmethod
    async def connect(cls, url: str, *, pool_size: int = 10) -> PostgresDatabase:
        label = safe_url(url)
        try:
            pool = await create_pool(url, size=pool_size)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StartupError(both_error("startup.database_unusable", error, path=label)) from None
        try:
            raw = await pool.acquire()  # the first connection: the server is there
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            pool.terminate()
            raise StartupError(both_error("startup.database_unusable", error, path=label)) from None
        try:
            await migrate(raw, database_label=label)
            id_tables = await identity_tables(raw)
        except BaseException:
            await pool.release(raw)
            await pool.close()
            raise
        await pool.release(raw)
        return cls(pool, url, id_tables)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[PgConnection]:
        """A failure of PostgreSQL itself (out of reach, the pool exhausted, a deadlock or
        a serialization failure) leaves as a `StorageError`, rolled back whole."""
        async with transaction(self.pool, self.id_tables) as connection:
            yield connection

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PgConnection]:
        async with transaction(self.pool, self.id_tables, readonly=True) as connection:
            yield connection

    async def close(self) -> None:
        """Close every connection, waiting for none longer than `CLOSE_SECONDS`: one the
        server dropped uncleanly (a restart) is ended at once instead, never holding up the
        bot's exit."""
        try:
            await asyncio.wait_for(self.pool.close(), CLOSE_SECONDS)
        except TimeoutError:
            log.warning("the database's connections did not close in time: ended at once")
            self.pool.terminate()

    async def lock_tournament(self, connection: Connection, tournament_id: int) -> None:
        assert isinstance(connection, PgConnection)
        await connection.raw.execute("SELECT pg_advisory_xact_lock($1)", tournament_id)

    async def announce(self, connection: Connection, commits: Sequence[Announced]) -> None:
        assert isinstance(connection, PgConnection)
        await announce(connection, self.sender, commits)

    async def listen(self, publish: Publish) -> Callable[[], Awaitable[None]]:
        def heard(found: Heard) -> None:
            publish(
                Committed(
                    guild_id=found.guild_id,
                    tournament_id=found.tournament_id,
                    version=found.version,
                    notices=found.notices,
                    remote=True,
                )
            )

        def resync() -> None:
            publish(Committed(guild_id=0, tournament_id=None, version=None, resync=True))

        listener = Listener(self.url, self.sender, heard, resync)
        listener.start()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(listener.connected.wait(), 10)
        return listener.stop


def _set_event(event: asyncio.Event, *_: object) -> None:
    event.set()


# -- migrations ----------------------------------------------------------------------------

_MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version BIGINT PRIMARY KEY,"
    " name TEXT NOT NULL,"
    " applied_at TEXT NOT NULL"
    " DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))"
)


async def schema_version(raw: RawConnection) -> int:
    """The newest migration applied (0 for an empty database)."""
    exists = await raw.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await raw.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))


async def migrate(
    raw: RawConnection, folder: Path = MIGRATIONS_DIR, *, database_label: str = "database"
) -> list[Migration]:
    """The migration files (or their twins, `bot.store.migrations`), each in one transaction
    with its version row, under an advisory lock so that processes starting together
    migrate one after the other."""
    try:
        migrations = discover_migrations(folder, POSTGRES)
        scripts = {migration.version: migration.sql for migration in migrations}
    except ValueError as error:
        raise MigrationFailed(
            both_error("startup.migration_failed", error, name=folder.name)
        ) from None
    await raw.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await raw.execute(_MIGRATIONS_TABLE)
        current = await schema_version(raw)
        refuse_newer(current, newest_known(migrations), database_label)
        applied: list[Migration] = []
        for migration in migrations:
            if migration.version <= current:
                continue
            try:
                async with raw.transaction():
                    await raw.execute(scripts[migration.version])
                    await raw.execute(
                        "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                        migration.version,
                        migration.name,
                    )
            except asyncpg.PostgresError as error:
                raise MigrationFailed(
                    both_error("startup.migration_failed", error, name=migration.path.name)
                ) from error
            applied.append(migration)
        return applied
    finally:
        await raw.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


async def _connect_once(url: str, label: str) -> asyncpg.Connection:
    try:
        return await asyncpg.connect(url)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise StartupError(both_error("startup.database_unusable", error, path=label)) from None


@asynccontextmanager
async def snapshot_of(url: str, label: str) -> AsyncIterator[Snapshot]:
    """The database at `url` in one REPEATABLE READ, read-only transaction: safe beside
    running bots (`label` names it in errors without its password)."""
    raw = await _connect_once(url, label)
    try:
        async with raw.transaction(isolation="repeatable_read", readonly=True):
            yield Snapshot(PgConnection(raw, frozenset()), await schema_version(raw))
    except asyncpg.PostgresError as error:
        raise StartupError(both_error("startup.database_unusable", error, path=label)) from None
    finally:
        await raw.close()


async def migrate_url(url: str, label: str) -> tuple[list[Migration], int]:
    """`python -m bot migrate` on PostgreSQL: the migrations applied, and the schema
    version after them."""
    raw = await _connect_once(url, label)
    try:
        applied = await migrate(raw, database_label=label)
        return applied, await schema_version(raw)
    finally:
        await raw.close()

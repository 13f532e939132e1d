"""SQLite through aiosqlite: the default backend, one file beside the bot.

One aiosqlite connection in WAL mode writes, with foreign keys on and a busy timeout; write
transactions are `BEGIN IMMEDIATE`, one at a time (SQLite has one writer anyway). Reads go
to a second connection and share snapshots (`SqliteDatabase`).

SQLite's failures of the storage itself (busy, disk full, I/O errors, a damaged file)
become the typed errors of `bot.errors` here (`storage_error`): every transaction runs
through `SqliteDatabase.write` or `read`, and start-up goes through `unusable_database`.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import aiosqlite

from bot.errors import (
    StartupError,
    StorageBusy,
    StorageCorrupt,
    StorageError,
    StorageFull,
    StorageIOError,
)
from bot.i18n import both, both_error
from bot.store.backend import SQLITE, Announced, Connection, Database, Publish, Snapshot
from bot.store.migrations import (
    MIGRATIONS_DIR,
    Migration,
    MigrationFailed,
    discover_migrations,
    pending,
)
from bot.store.shared_reads import SharedReads

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000


# SQLite's primary result codes (https://www.sqlite.org/rescode.html) that say the storage
# failed, not the statement. An extended code (SQLITE_IOERR_WRITE = 778) keeps its primary
# code in the low byte. Any other code is a bug in a statement and stays unexpected.
_STORAGE_ERRORS: dict[int, type[StorageError]] = {
    5: StorageBusy,  # SQLITE_BUSY: the busy timeout ran out
    6: StorageBusy,  # SQLITE_LOCKED
    13: StorageFull,  # SQLITE_FULL: disk or quota full
    10: StorageIOError,  # SQLITE_IOERR and its extended codes (a write past a size limit too)
    14: StorageIOError,  # SQLITE_CANTOPEN: e.g. the -wal file cannot be created
    8: StorageIOError,  # SQLITE_READONLY: the file or its folder became read-only
    11: StorageCorrupt,  # SQLITE_CORRUPT
    26: StorageCorrupt,  # SQLITE_NOTADB
}


def storage_error(error: sqlite3.Error) -> StorageError | None:
    """The typed error for a failure of the storage itself, or None for any other error."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:
        return None
    kind = _STORAGE_ERRORS.get(code & 0xFF)
    if kind is None:
        return None
    name = getattr(error, "sqlite_errorname", None) or f"SQLite error {code}"
    return kind(f"{name}: {error}")


@contextmanager
def storage_errors() -> Iterator[None]:
    """Raise a failure of the storage as its `StorageError` (the SQLite error is its cause)."""
    try:
        yield
    except sqlite3.Error as error:
        typed = storage_error(error)
        if typed is None:
            raise
        raise typed from error


def unusable_database(path: Path | str, error: BaseException) -> StartupError:
    """The start-up message for a database that cannot be opened: a damaged file gets the
    restore steps, anything else (permissions, a missing folder) SQLite's own words."""
    if isinstance(error, sqlite3.Error) and isinstance(storage_error(error), StorageCorrupt):
        return StartupError(both_error("startup.database_corrupt", error, path=path))
    return StartupError(both_error("startup.database_unusable", error, path=path))


async def opened(connecting: aiosqlite.Connection) -> aiosqlite.Connection:
    """The connection, once open. When SQLite refuses to open the file (a folder, a place
    not writable), aiosqlite stops its thread without waiting for it: wait here, so the
    thread's last word reaches a loop still running (else the thread printed 「RuntimeError:
    Event loop is closed」 after the error's own message)."""
    try:
        return await connecting
    except BaseException:
        await asyncio.to_thread(connecting._thread.join, 5)
        raise


async def connect(path: Path | str) -> aiosqlite.Connection:
    """Open `path` with the pragmas every connection needs.

    `isolation_level=None` hands transaction control to us: services open `BEGIN IMMEDIATE`
    themselves (see `transaction`), and migrations wrap their own script.
    """
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    connection = await opened(aiosqlite.connect(path, isolation_level=None))
    try:
        connection.row_factory = aiosqlite.Row
        await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        # The first statement that reads the file: a damaged one fails here.
        await connection.execute("PRAGMA journal_mode = WAL")
        await connection.execute("PRAGMA foreign_keys = ON")
        # FULL: each commit is on disk before the bot answers in Discord, so a power cut
        # loses nothing it confirmed (docs/OPERATIONS.md, docs/BENCHMARKS.md for the cost).
        await connection.execute("PRAGMA synchronous = FULL")
    except BaseException:
        # The connection's thread is not a daemon: left open, it keeps the process alive
        # after the error is printed, and a process manager never sees the bot exit.
        await connection.close()
        raise
    return connection


@asynccontextmanager
async def transaction(connection: aiosqlite.Connection) -> AsyncIterator[aiosqlite.Connection]:
    """One write transaction: committed on success, rolled back on any exception.

    `BEGIN IMMEDIATE` takes the write lock up front so two writers queue on the busy
    timeout instead of failing half-way with SQLITE_BUSY.
    """
    await connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
        await connection.commit()
    except BaseException:
        await _roll_back(connection)
        raise


async def _roll_back(connection: aiosqlite.Connection) -> None:
    """Undo the open transaction, if SQLite has not already (it does after a full disk or
    an I/O error). A failing rollback must not hide the error that caused it."""
    if not connection.in_transaction:
        return
    try:
        await connection.rollback()
    except sqlite3.Error as error:
        log.warning("could not roll back a failed transaction: %s", error)


async def schema_version(connection: aiosqlite.Connection) -> int:
    """The newest migration applied (0 for an empty database)."""
    await _ensure_migrations_table(connection)
    async with connection.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def _ensure_migrations_table(connection: aiosqlite.Connection) -> None:
    await connection.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY,"
        " name TEXT NOT NULL,"
        " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))"
    )


async def migrate(
    connection: aiosqlite.Connection,
    folder: Path = MIGRATIONS_DIR,
    *,
    database_label: str = "database",
) -> list[Migration]:
    """Apply pending migrations in order and return those applied.

    Refuses a database whose version is newer than the newest migration file.
    """
    migrations = discover_migrations(folder)
    current = await schema_version(connection)
    applied: list[Migration] = []
    for migration in pending(migrations, current, database_label):
        await _apply(connection, migration)
        applied.append(migration)
    return applied


async def _apply(connection: aiosqlite.Connection, migration: Migration) -> None:
    # sqlite3's executescript() commits any open transaction before it runs, so the
    # BEGIN/COMMIT must be inside the script itself; on failure the BEGIN is still open
    # and we roll it back, leaving neither the schema change nor the version row.
    script = (
        "BEGIN IMMEDIATE;\n"
        f"{migration.sql}\n;\n"
        "INSERT INTO schema_migrations (version, name) "
        f"VALUES ({migration.version}, '{migration.name}');\n"
        "COMMIT;"
    )
    try:
        await connection.executescript(script)
    except sqlite3.Error as error:
        await _roll_back(connection)
        if isinstance(storage_error(error), StorageCorrupt):
            raise  # not the migration's fault: the caller says how to restore a backup
        raise MigrationFailed(
            both_error("startup.migration_failed", error, name=migration.path.name)
        ) from error


# How long after its BEGIN an open read transaction takes new readers (see SqliteDatabase).
SHARED_READ_SECONDS = 0.05


class _Snapshot:
    """One read transaction on the reading connection, shared by the reads that join it."""

    def __init__(self, commits: int, began: float) -> None:
        self.commits = commits  # `SqliteDatabase._commits` when it began
        self.began = began  # the loop's time
        self.readers = 0
        self.opened = asyncio.Event()  # its BEGIN is done (or failed)
        self.failed = False
        self.ended = asyncio.Event()  # rolled back: the connection takes another BEGIN
        self.reads: SharedReads | None = None  # what its readers read through


class SqliteDatabase(Database):
    """The bot's writing connection, shared by every interaction, and a reading one.

    aiosqlite runs statements on one thread in order, but two coroutines could still
    interleave their statements inside one transaction; the lock makes each unit of work
    (a service call) run alone, which SQLite's single writer would force anyway. Reads go
    to a second connection (opened at the first read): in WAL mode a read sees every
    commit made before it began and never waits for a write, so a burst of writes at the
    end of a round does not hold up the players' look-ups.

    Reads at the same time share one read transaction (a `_Snapshot`): a hundred
    /standings in the same second each run their few statements in it, one after another
    on the reading thread, instead of queueing for a BEGIN … ROLLBACK each. A read joins
    the open snapshot only while that one sees everything this process committed (no
    commit since it began) and is young (`SHARED_READ_SECONDS`: another program's commits
    are seen soon too); else it waits for it to end and begins the next.
    """

    dialect = SQLITE
    shared_by_processes = False  # one process writes a file

    def __init__(
        self, connection: aiosqlite.Connection, path: str, applied: Sequence[Migration] = ()
    ) -> None:
        self.connection = connection
        self.path = path
        self.label = path
        self._lock = asyncio.Lock()
        self._reader: aiosqlite.Connection | None = None
        self._snapshot: _Snapshot | None = None  # the open read transaction
        self._commits = 0  # commits made through `write`: a snapshot older than one is stale
        self.applied = list(applied)  # the migrations `open_file` applied
        self.on_storage_full = []
        """Called once when the disk fills up, so staff can be told.

        The first `StorageFull` of a write calls each callback with that error; later
        failures do not, until a write commits again (space was freed), after which a new
        full disk is told again. Callbacks run on the event loop inside the failing call,
        before the error reaches the command: they must be quick and not touch this
        database (schedule a task to post to Discord). An exception in one is logged and
        does not hide the `StorageFull`. `storage_full` gives the same state as a flag.
        """
        self.storage_full = False
        """True from a write that failed on a full disk until a write commits again."""

    @classmethod
    async def open_file(cls, path: Path | str) -> SqliteDatabase:
        """Open and migrate `path`; a database that cannot be used is a `StartupError`."""
        try:
            connection = await connect(path)
        except (sqlite3.Error, OSError) as error:
            raise unusable_database(path, error) from None
        try:
            applied = await migrate(connection, database_label=str(path))
        except sqlite3.Error as error:
            await connection.close()
            raise unusable_database(path, error) from None
        except BaseException:
            await connection.close()
            raise
        return cls(connection, str(path), applied)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """A failure of the storage leaves as a `StorageError`, the transaction rolled back
        whole (see `bot.errors`)."""
        async with self._lock:
            try:
                with storage_errors():
                    async with transaction(self.connection) as connection:
                        yield connection
            except StorageFull as full:
                self._disk_full(full)
                raise
            finally:
                self._commits += 1  # a commit, or perhaps one (a failure after COMMIT)
            self.storage_full = False

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection | SharedReads]:
        """Reads go on their own connection (WAL: they neither wait for the writer nor hold
        it up); an in-memory database has only the one."""
        if self.path == ":memory:":  # a second connection would be another database
            async with self._lock:
                with storage_errors():
                    await self.connection.execute("BEGIN")
                    try:
                        yield self.connection
                    finally:
                        await _roll_back(self.connection)
            return
        with storage_errors():
            reader, snapshot = await self._join_snapshot()
            try:
                assert snapshot.reads is not None
                yield snapshot.reads
            finally:
                await self._leave_snapshot(reader, snapshot)

    async def _join_snapshot(self) -> tuple[aiosqlite.Connection, _Snapshot]:
        loop = asyncio.get_running_loop()
        while True:
            snapshot = self._snapshot
            if snapshot is None:
                break
            if snapshot.commits == self._commits and (
                loop.time() - snapshot.began < SHARED_READ_SECONDS
            ):
                snapshot.readers += 1
                try:
                    await snapshot.opened.wait()
                except BaseException:
                    snapshot.readers -= 1  # the opener is still in, and leaves it
                    raise
                if snapshot.failed:  # its BEGIN failed: begin another
                    continue
                return await self.reading_connection(), snapshot
            await snapshot.ended.wait()
        snapshot = self._snapshot = _Snapshot(self._commits, loop.time())
        snapshot.readers = 1
        try:
            reader = await self.reading_connection()
            await reader.execute("BEGIN")
            snapshot.reads = SharedReads(reader)
        except BaseException:
            snapshot.failed = True
            self._snapshot = None
            snapshot.opened.set()
            snapshot.ended.set()
            raise
        snapshot.opened.set()
        return reader, snapshot

    async def _leave_snapshot(self, reader: aiosqlite.Connection, snapshot: _Snapshot) -> None:
        snapshot.readers -= 1
        if snapshot.readers:
            return
        if self._snapshot is snapshot:
            # Taken down before the ROLLBACK is queued (synchronously, below): the next
            # snapshot's BEGIN queues after it on the reading thread.
            self._snapshot = None
        try:
            await _roll_back(reader)
        finally:
            snapshot.ended.set()

    async def reading_connection(self) -> aiosqlite.Connection:
        """The connection `read` uses (opened at the first call)."""
        if self._reader is None:
            reader = await connect(self.path)
            await reader.execute("PRAGMA query_only = ON")
            self._reader = reader
        return self._reader

    def _disk_full(self, error: StorageFull) -> None:
        if self.storage_full:
            return
        self.storage_full = True
        for callback in self.on_storage_full:
            try:
                callback(error)
            except Exception:
                log.exception("an on_storage_full callback failed")

    async def close(self) -> None:
        while self._snapshot is not None:
            await self._snapshot.ended.wait()
        if self._reader is not None:
            await self._reader.close()
            self._reader = None
        async with self._lock:
            await self.connection.close()

    async def lock_tournament(self, connection: Connection, tournament_id: int) -> None:
        """`BEGIN IMMEDIATE` made this transaction the only writer already."""

    async def announce(self, connection: Connection, commits: Sequence[Announced]) -> None:
        """One process: the in-process bus (`Store.commits`) tells everyone."""

    async def listen(self, publish: Publish) -> Callable[[], Awaitable[None]]:
        async def stop() -> None:
            return None

        return stop


@asynccontextmanager
async def read_only(path: Path) -> AsyncIterator[aiosqlite.Connection]:
    """The database opened read-only, safe beside a running bot (WAL)."""
    try:
        connection = await opened(aiosqlite.connect(f"file:{path}?mode=ro", uri=True))
        connection.row_factory = aiosqlite.Row
    except sqlite3.Error as error:
        raise unusable_database(path, error) from None
    try:
        yield connection
    except sqlite3.Error as error:
        raise unusable_database(path, error) from None
    finally:
        await connection.close()


async def open_file(path: Path | str) -> SqliteDatabase:
    """The bot's database at `path`, migrated (see `SqliteDatabase.open_file`)."""
    return await SqliteDatabase.open_file(path)


@asynccontextmanager
async def snapshot_of(path: Path, label: str) -> AsyncIterator[Snapshot]:
    """The file at `path`, which must exist, read-only in one snapshot (WAL: safe beside a
    running bot)."""
    if not path.is_file():  # noqa: ASYNC240 (a stat, before anything runs)
        raise StartupError(both("verify.no_database", path=path), exit_code=2)
    async with read_only(path) as connection:
        try:
            version = await _read_version(connection)
        except sqlite3.Error as error:
            raise unusable_database(label, error) from None
        yield Snapshot(connection, version)


async def _read_version(connection: aiosqlite.Connection) -> int:
    """The schema version of a database opened read-only (0 before any migration)."""
    (found,) = await connection.execute_fetchall(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    )
    if not found[0]:
        return 0
    (row,) = await connection.execute_fetchall(
        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"
    )
    return int(row[0])


async def migrate_file(location: str, label: str) -> tuple[list[Migration], int]:
    """`python -m bot migrate` on an SQLite file: the migrations applied, and the schema
    version after them."""
    try:
        connection = await connect(location)
    except (sqlite3.Error, OSError) as error:
        raise unusable_database(label, error) from None
    try:
        applied = await migrate(connection, database_label=label)
        return applied, await schema_version(connection)
    except sqlite3.Error as error:
        raise unusable_database(label, error) from None
    finally:
        await connection.close()

"""Connections, transactions and the migration runner.

Every connection runs in WAL mode with foreign keys on and a busy timeout. Migrations are
`migrations/NNNN_name.sql` files applied in order; each runs in one transaction together with
its row in `schema_migrations`, so a failing file leaves nothing behind.

This is also the one place where SQLite's failures of the storage itself (busy, disk full,
I/O errors, a damaged file) become the typed errors of `bot.errors` (`storage_error`): every
transaction runs through `Database.write` or `Database.read`, and the CLI's start-up goes
through `unusable_database`.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
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
from bot.i18n import both

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
BUSY_TIMEOUT_MS = 5000
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path

    @property
    def sql(self) -> str:
        return self.path.read_text(encoding="utf-8")


class DatabaseTooNew(StartupError):
    """The database was written by a newer bot: running on it could corrupt it."""


class MigrationFailed(StartupError):
    """A migration raised; its transaction was rolled back."""


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
        return StartupError(both("startup.database_corrupt", path=path, details=error))
    return StartupError(both("startup.database_unusable", path=path, details=error))


def discover_migrations(folder: Path = MIGRATIONS_DIR) -> list[Migration]:
    migrations: list[Migration] = []
    for path in sorted(folder.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise ValueError(f"migration file {path.name!r} is not named NNNN_name.sql")
        migrations.append(Migration(int(match.group(1)), match.group(2), path))
    versions = [migration.version for migration in migrations]
    if len(set(versions)) != len(versions):
        raise ValueError(f"two migrations share a version number in {folder}")
    return migrations


async def connect(path: Path | str) -> aiosqlite.Connection:
    """Open `path` with the pragmas every connection needs.

    `isolation_level=None` hands transaction control to us: services open `BEGIN IMMEDIATE`
    themselves (see `transaction`), and migrations wrap their own script.
    """
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    connection = await aiosqlite.connect(path, isolation_level=None)
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
    known = migrations[-1].version if migrations else 0
    current = await schema_version(connection)
    if current > known:
        raise DatabaseTooNew(
            both("startup.database_too_new", path=database_label, found=current, known=known)
        )
    applied: list[Migration] = []
    for migration in migrations:
        if migration.version <= current:
            continue
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
            both("startup.migration_failed", name=migration.path.name, details=error)
        ) from error


class Database:
    """The bot's one connection, shared by every interaction.

    aiosqlite runs statements on one thread in order, but two coroutines could still
    interleave their statements inside one transaction; the lock makes each unit of work
    (a service call) run alone, which SQLite's single writer would force anyway.

    A failure of the storage leaves `write` and `read` as a `StorageError`, the
    transaction rolled back whole (see `bot.errors`).
    """

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self.connection = connection
        self.path = path
        self._lock = asyncio.Lock()
        self.applied: list[Migration] = []  # the migrations `open` applied
        self.on_storage_full: list[Callable[[StorageFull], None]] = []
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
    async def open(cls, path: Path | str) -> Database:
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
        database = cls(connection, str(path))
        database.applied = applied
        return database

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; everything in it is committed together or not at all."""
        async with self._lock:
            try:
                with storage_errors():
                    async with transaction(self.connection) as connection:
                        yield connection
            except StorageFull as full:
                self._disk_full(full)
                raise
            self.storage_full = False

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A consistent snapshot for reads that span several queries."""
        async with self._lock:
            with storage_errors():
                await self.connection.execute("BEGIN")
                try:
                    yield self.connection
                finally:
                    await _roll_back(self.connection)

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
        async with self._lock:
            await self.connection.close()

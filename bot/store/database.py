"""Connections and the migration runner.

Every connection runs in WAL mode with foreign keys on and a busy timeout. Migrations are
`migrations/NNNN_name.sql` files applied in order; each runs in one transaction together with
its row in `schema_migrations`, so a failing file leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from bot.errors import StartupError
from bot.i18n import both

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
    connection.row_factory = aiosqlite.Row
    await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    await connection.execute("PRAGMA journal_mode = WAL")
    await connection.execute("PRAGMA foreign_keys = ON")
    # FULL: each commit is on disk before the bot answers in Discord, so a power cut
    # loses nothing it confirmed (docs/OPERATIONS.md, docs/BENCHMARKS.md for the cost).
    await connection.execute("PRAGMA synchronous = FULL")
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
    except BaseException:
        await connection.rollback()
        raise
    else:
        await connection.commit()


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
        if connection.in_transaction:
            await connection.rollback()
        raise MigrationFailed(
            both("startup.migration_failed", name=migration.path.name, details=error)
        ) from error


class Database:
    """The bot's one connection, shared by every interaction.

    aiosqlite runs statements on one thread in order, but two coroutines could still
    interleave their statements inside one transaction; the lock makes each unit of work
    (a service call) run alone, which SQLite's single writer would force anyway.
    """

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self.connection = connection
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str) -> Database:
        try:
            connection = await connect(path)
        except (sqlite3.Error, OSError) as error:
            raise StartupError(
                both("startup.database_unusable", path=path, details=error)
            ) from None
        try:
            await migrate(connection, database_label=str(path))
        except BaseException:
            await connection.close()
            raise
        return cls(connection, str(path))

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; everything in it is committed together or not at all."""
        async with self._lock, transaction(self.connection) as connection:
            yield connection

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A consistent snapshot for reads that span several queries."""
        async with self._lock:
            await self.connection.execute("BEGIN")
            try:
                yield self.connection
            finally:
                await self.connection.rollback()

    async def close(self) -> None:
        async with self._lock:
            await self.connection.close()


@asynccontextmanager
async def read_only(path: Path) -> AsyncIterator[aiosqlite.Connection]:
    """The database opened read-only, safe beside a running bot (WAL)."""
    try:
        connection = await aiosqlite.connect(f"file:{path}?mode=ro", uri=True)
        connection.row_factory = aiosqlite.Row
    except sqlite3.Error as error:
        raise StartupError(both("startup.database_unusable", path=path, details=error)) from None
    try:
        yield connection
    except sqlite3.Error as error:
        raise StartupError(both("startup.database_unusable", path=path, details=error)) from None
    finally:
        await connection.close()

"""Copy an SQLite database, action log included, into an empty PostgreSQL database, in
one transaction (`python -m bot migrate-to-postgres`), or into a backup file
(`python -m bot backup`)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

import aiosqlite

from bot.errors import StartupError, StorageCorrupt
from bot.i18n import both, both_error
from bot.store.database import open_database
from bot.store.migrations import discover_migrations
from bot.store.postgres import PostgresDatabase
from bot.store.sqlite import BUSY_TIMEOUT_MS, snapshot_of, storage_error, unusable_database


async def copy_database(source: Path, target: str) -> dict[str, int]:
    """Copy every table of `source` into the empty database at `target`; rows per table."""
    known = discover_migrations()[-1].version
    async with snapshot_of(source, str(source)) as snapshot:
        sqlite, version = snapshot.connection, snapshot.schema_version
        if version != known:
            raise StartupError(
                both("verify.schema_mismatch", path=source, found=version, known=known),
                exit_code=2,
            )
        tables = await _tables_in_order(sqlite)
        database = await open_database(target, pool_size=1)
        assert isinstance(database, PostgresDatabase)
        try:
            return await _copy(sqlite, database, tables)
        finally:
            await database.close()


async def _tables_in_order(sqlite: object) -> list[str]:
    """The tables to copy, each after the tables its foreign keys point at."""
    assert isinstance(sqlite, aiosqlite.Connection)
    rows = await sqlite.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " AND name != 'schema_migrations' ORDER BY name"
    )
    names = [str(row[0]) for row in rows]
    needs: dict[str, set[str]] = {}
    for name in names:
        keys = await sqlite.execute_fetchall(f'PRAGMA foreign_key_list("{name}")')
        needs[name] = {str(key[2]) for key in keys if str(key[2]) != name}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and needs[n] <= set(ordered)]
        if not ready:
            raise StartupError(both("migrate_to_postgres.cycle", tables=", ".join(names)))
        ordered.extend(ready)
    return ordered


async def _copy(sqlite: object, database: PostgresDatabase, tables: list[str]) -> dict[str, int]:
    assert isinstance(sqlite, aiosqlite.Connection)
    copied: dict[str, int] = {}
    async with database.pool.acquire() as raw, raw.transaction():
        for table in tables:
            if await raw.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):
                raise StartupError(
                    both("migrate_to_postgres.not_empty", table=table, url=database.label),
                    exit_code=2,
                )
        for table in tables:
            try:
                cursor = await sqlite.execute(f'SELECT * FROM "{table}"')
            except sqlite3.Error as error:
                raise StartupError(
                    both_error("startup.database_unusable", error, path=table)
                ) from None
            columns = [str(column[0]) for column in cursor.description]
            records = [tuple(row) for row in await cursor.fetchall()]
            await cursor.close()
            if records:
                await raw.copy_records_to_table(table, records=records, columns=columns)
            copied[table] = len(records)
        for table in sorted(database.id_tables):
            # The identity goes on after the copied ids (setval's third argument: the next
            # value is this one, not one past it).
            await raw.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f' COALESCE((SELECT MAX(id) FROM "{table}"), 0) + 1, false)'
            )
    return copied


def backup_sqlite_file(source: Path, partial: Path) -> int:
    """A consistent copy of the SQLite file `source` in `partial` (`python -m bot backup`),
    checked and made one self-contained file; the schema version it holds."""
    # mode=ro: a backup must never write to the live database (as_uri escapes the path).
    uri = source.resolve().as_uri() + "?mode=ro"
    with (
        contextlib.closing(sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000)) as live,
        contextlib.closing(sqlite3.connect(partial)) as copy,
    ):
        # One step (pages=-1): a stepwise copy restarts whenever the bot writes.
        live.backup(copy)
        # A plain rollback-journal file: the backup is one self-contained file to keep.
        copy.execute("PRAGMA journal_mode = DELETE")
        (check,) = copy.execute("PRAGMA quick_check").fetchone()
        if check != "ok":
            raise sqlite3.DatabaseError(f"the copy failed its integrity check: {check}")
        (version,) = copy.execute(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"
        ).fetchone()
    return int(version)


def backup_database(source: Path, target: Path) -> int:
    """Copy `source` to `target` (replacing it) and return the copy's schema version."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        version = backup_sqlite_file(source, partial)
        os.replace(partial, target)
    except sqlite3.Error as error:
        if isinstance(storage_error(error), StorageCorrupt):
            raise unusable_database(source, error) from None
        raise StartupError(both_error("backup.failed", error, path=source)) from None
    finally:
        partial.unlink(missing_ok=True)
    return version

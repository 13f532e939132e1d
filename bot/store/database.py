"""Opening a database by its location: the one place that knows both backends.

A path (the default) is an SQLite file (`bot.store.sqlite`); a `postgresql://` URL is a
PostgreSQL database (`bot.store.postgres`). What either offers once open is the interface
of `bot.store.backend`; the migration files are found and checked in `bot.store.migrations`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.store import postgres, sqlite
from bot.store.backend import Database, Snapshot
from bot.store.migrations import Migration
from bot.store.urls import is_postgres_url


async def open_database(location: Path | str, *, pool_size: int = 10) -> Database:
    """The bot's database at `location`, migrated: SQLite for a path, PostgreSQL for a
    `postgresql://` URL (a pool of `pool_size` connections)."""
    if is_postgres_url(str(location)):
        return await postgres.PostgresDatabase.connect(str(location), pool_size=pool_size)
    return await sqlite.open_file(location)


@asynccontextmanager
async def read_snapshot(location: str, label: str) -> AsyncIterator[Snapshot]:
    """The database at `location` read-only in one consistent snapshot, safe beside running
    bots: an SQLite file that must exist, or PostgreSQL (`label` names it in errors without
    its password)."""
    if is_postgres_url(location):
        async with postgres.snapshot_of(location, label) as snapshot:
            yield snapshot
    else:
        async with sqlite.snapshot_of(Path(location), label) as snapshot:
            yield snapshot


async def migrate_at(location: str, label: str) -> tuple[list[Migration], int]:
    """`python -m bot migrate`: the migrations applied to the database at `location`, and
    its schema version after them."""
    if is_postgres_url(location):
        return await postgres.migrate_url(location, label)
    return await sqlite.migrate_file(location, label)

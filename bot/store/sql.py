"""What the SQL functions of bot/store take: a connection of either backend.

The functions are written once, against aiosqlite's small surface (`execute`, used awaited
or as `async with`, `execute_fetchall`, `executemany`, a cursor's `fetchall`/`fetchone`,
`rowcount` and `lastrowid`), with `?` placeholders and rows read by column name. On
PostgreSQL `bot.store.postgres.PgConnection` offers the same surface over asyncpg, so the
same function serves both.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import aiosqlite
import asyncpg

from bot.store.postgres import PgConnection
from bot.store.shared_reads import SharedReads

# SharedReads: the reading connection of one shared SQLite snapshot (bot.store.database).
Connection: TypeAlias = aiosqlite.Connection | PgConnection | SharedReads
Row: TypeAlias = aiosqlite.Row | asyncpg.Record


async def fetch_rows(connection: Connection, query: str, params: tuple[Any, ...] = ()) -> list[Row]:
    """The rows of `query`, in one trip to the database's thread instead of three (execute,
    fetch, close), and shared by the readers of one SQLite snapshot (`SharedReads`)."""
    return list(await connection.execute_fetchall(query, params))

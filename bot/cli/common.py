"""Helpers shared by the subcommands: loading settings without a traceback, and opening the
configured database (SQLite or PostgreSQL) for reading."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite
from pydantic import ValidationError

from bot.config import Settings
from bot.errors import StartupError
from bot.i18n import both
from bot.store.database import is_postgres_url
from bot.store.sql import Connection


def load_settings() -> Settings:
    try:
        return Settings()
    except ValidationError as error:
        details = "; ".join(
            f"{'.'.join(str(part) for part in problem['loc']).upper()}: {problem['msg']}"
            for problem in error.errors()
        )
        raise StartupError(both("startup.invalid_settings", details=details)) from None


def require_token(settings: Settings) -> str:
    if settings.discord_token is None:
        raise StartupError(both("startup.missing_token"), exit_code=2)
    return settings.discord_token.get_secret_value()


def existing_database() -> Path:
    """DATABASE_PATH, which must exist: reading commands never create a database."""
    path = Path(load_settings().database_location)
    if not path.is_file():
        raise StartupError(both("verify.no_database", path=path), exit_code=2)
    return path


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


@asynccontextmanager
async def reading(settings: Settings) -> AsyncIterator[Connection]:
    """The configured database in one read-only snapshot, safe beside running bots: an
    SQLite file that must exist, or PostgreSQL in a REPEATABLE READ transaction."""
    location = settings.database_location
    if not is_postgres_url(location):
        path = Path(location)
        if not path.is_file():  # noqa: ASYNC240 (a stat, before anything runs)
            raise StartupError(both("verify.no_database", path=path), exit_code=2)
        async with read_only(path) as connection:
            yield connection
        return
    import asyncpg

    from bot.store.postgres import PgConnection

    label = settings.database_label
    try:
        raw = await asyncpg.connect(location)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise StartupError(both("startup.database_unusable", path=label, details=error)) from None
    try:
        async with raw.transaction(isolation="repeatable_read", readonly=True):
            yield PgConnection(raw, frozenset())
    except asyncpg.PostgresError as error:
        raise StartupError(both("startup.database_unusable", path=label, details=error)) from None
    finally:
        await raw.close()

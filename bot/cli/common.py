"""Helpers shared by the subcommands: loading settings without a traceback."""

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
from bot.store.database import unusable_database


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
    path = Path(load_settings().database_path)
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
        raise unusable_database(path, error) from None
    try:
        yield connection
    except sqlite3.Error as error:
        raise unusable_database(path, error) from None
    finally:
        await connection.close()

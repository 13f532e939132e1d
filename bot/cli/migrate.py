"""`python -m bot migrate`: apply pending database migrations and report them."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3

from bot.cli import Subcommands
from bot.cli.common import load_settings
from bot.config import Settings
from bot.errors import StartupError
from bot.i18n import both
from bot.store.database import (
    Migration,
    connect,
    is_postgres_url,
    migrate,
    migrate_postgres,
    schema_version,
)


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "migrate",
        help="apply pending database migrations / データベースを最新にする",
        description=(
            "Apply pending migrations to the database (DATABASE_URL, else DATABASE_PATH). "
            "The bot also does this at start."
        ),
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    settings = load_settings()
    applied, version = asyncio.run(_migrate(settings))
    for migration in applied:
        print(f"applied {migration.path.name}")
    print(f"{settings.database_label}: schema version {version}")
    return 0


async def _migrate(settings: Settings) -> tuple[list[Migration], int]:
    location, label = settings.database_location, settings.database_label
    if is_postgres_url(location):
        return await _migrate_postgres(location, label)
    try:
        connection = await connect(location)
    except (sqlite3.Error, OSError) as error:
        raise StartupError(both("startup.database_unusable", path=label, details=error)) from None
    try:
        applied = await migrate(connection, database_label=label)
        return applied, await schema_version(connection)
    finally:
        await connection.close()


async def _migrate_postgres(url: str, label: str) -> tuple[list[Migration], int]:
    import asyncpg

    from bot.store.postgres import PgConnection

    try:
        raw = await asyncpg.connect(url)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise StartupError(both("startup.database_unusable", path=label, details=error)) from None
    try:
        applied = await migrate_postgres(raw, database_label=label)
        return applied, await schema_version(PgConnection(raw, frozenset()))
    finally:
        await raw.close()

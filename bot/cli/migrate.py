"""`python -m bot migrate`: apply pending database migrations and report them."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3

from bot.cli import Subcommands
from bot.cli.common import load_settings
from bot.errors import StartupError
from bot.i18n import both
from bot.store.database import connect, migrate, schema_version


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "migrate",
        help="apply pending database migrations / データベースを最新にする",
        description="Apply pending migrations to DATABASE_PATH. The bot also does this at start.",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    settings = load_settings()
    return asyncio.run(_migrate(str(settings.database_path)))


async def _migrate(path: str) -> int:
    try:
        connection = await connect(path)
    except (sqlite3.Error, OSError) as error:
        raise StartupError(both("startup.database_unusable", path=path, details=error)) from None
    try:
        applied = await migrate(connection, database_label=path)
        version = await schema_version(connection)
    finally:
        await connection.close()
    for migration in applied:
        print(f"applied {migration.path.name}")
    print(f"{path}: schema version {version}")
    return 0

"""`python -m bot migrate`: apply pending database migrations and report them."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3

from bot.cli import Subcommands
from bot.cli.common import load_settings
from bot.store.database import Database, schema_version, unusable_database


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
    database = await Database.open(path)  # opening migrates
    try:
        version = await schema_version(database.connection)
    except sqlite3.Error as error:
        raise unusable_database(path, error) from None
    finally:
        await database.close()
    for migration in database.applied:
        print(f"applied {migration.path.name}")
    print(f"{path}: schema version {version}")
    return 0

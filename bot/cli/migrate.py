"""`python -m bot migrate`: apply pending database migrations and report them."""

from __future__ import annotations

import argparse
import asyncio

from bot.cli import Subcommands
from bot.cli.common import load_settings
from bot.store.database import migrate_at


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
    applied, version = asyncio.run(migrate_at(settings.database_location, settings.database_label))
    for migration in applied:
        print(f"applied {migration.path.name}")
    print(f"{settings.database_label}: schema version {version}")
    return 0

"""`python -m bot migrate`: apply pending database migrations and report them."""

from __future__ import annotations

import argparse
import asyncio

from bot.cli import Subcommands, text
from bot.cli.common import load_settings
from bot.store.database import migrate_at


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "migrate",
        help=text("cli.migrate.help"),
        description=text("cli.migrate.description"),
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    settings = load_settings()
    applied, version = asyncio.run(migrate_at(settings.database_location, settings.database_label))
    for migration in applied:
        print(text("cli.migrate.applied", name=migration.path.name))
    print(text("cli.migrate.version", database=settings.database_label, version=version))
    return 0

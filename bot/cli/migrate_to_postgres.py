"""`python -m bot migrate-to-postgres [--from PATH] [--to URL]`: copy an SQLite database,
action log included, into an empty PostgreSQL database.

The SQLite file (DATABASE_PATH by default) must be at this bot's schema version (run
`python -m bot migrate` first) and should not be written meanwhile (stop the bot). The
PostgreSQL database (DATABASE_URL by default) is migrated, must hold no data yet, and is
filled in one transaction: it ends with every row or none. Ids are kept, and the identity
columns go on after the highest copied id. Then `python -m bot verify` on the copy folds
every tournament's log and compares it with the copied tables.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from bot.cli import Subcommands, text
from bot.cli.common import load_settings
from bot.errors import StartupError
from bot.i18n import both
from bot.store.copy import copy_database
from bot.store.urls import is_postgres_url, safe_url


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "migrate-to-postgres",
        help=text("cli.migrate_to_postgres.help"),
        description=text("cli.migrate_to_postgres.description"),
    )
    parser.add_argument(
        "--from",
        dest="source",
        type=Path,
        metavar=text("cli.metavar.source"),
        help=text("cli.migrate_to_postgres.source"),
    )
    parser.add_argument(
        "--to",
        dest="target",
        metavar=text("cli.metavar.target"),
        help=text("cli.migrate_to_postgres.target"),
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    settings = load_settings()
    source: Path = args.source or settings.database_path
    target: str = args.target or settings.database_location
    if not is_postgres_url(target):
        raise StartupError(both("migrate_to_postgres.no_target"), exit_code=2)
    if not source.is_file():
        raise StartupError(both("verify.no_database", path=source), exit_code=2)
    copied = asyncio.run(copy_database(source, target))
    for table, count in copied.items():
        print(text("cli.migrate_to_postgres.rows", table=table, count=count))
    print(text("cli.migrate_to_postgres.done", source=source, target=safe_url(target)))
    return 0

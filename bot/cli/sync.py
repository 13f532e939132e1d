"""`python -m bot sync [--guild ID | --global]`: register the slash commands with Discord.

The bot also syncs at start-up when the tree changed since the last sync (AUTO_SYNC, see
bot/command_sync.py); this command forces a sync, e.g. to another server. Sync to one server
while developing (instant), globally for release.
"""

from __future__ import annotations

import argparse
import asyncio
import logging

from bot.cli import Subcommands, text
from bot.cli.common import load_settings, log_in, quiet_log_level, require_token
from bot.config import Settings
from bot.logging_setup import configure_logging
from bot.store.database import open_database

log = logging.getLogger("bot")


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "sync",
        help=text("cli.sync.help"),
        description=text("cli.sync.description"),
    )
    target = parser.add_mutually_exclusive_group()
    target.add_argument(
        "--guild", type=int, metavar=text("cli.metavar.guild"), help=text("cli.sync.guild")
    )
    target.add_argument(
        "--global", dest="sync_global", action="store_true", help=text("cli.sync.global")
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    settings = load_settings()
    token = require_token(settings)
    configure_logging(quiet_log_level(settings), secrets=[token, *settings.database_secrets])
    guild_id = None if args.sync_global else (args.guild or settings.dev_guild_id)
    count = asyncio.run(_sync(settings, token, guild_id))
    if guild_id:
        print(text("cli.sync.done_guild", count=count, guild=guild_id))
    else:
        print(text("cli.sync.done_global", count=count))
    return 0


async def _sync(settings: Settings, token: str, guild_id: int | None) -> int:

    from bot.app import TournamentBot, point_at_discord
    from bot.command_sync import sync_commands

    point_at_discord(settings)
    database = await open_database(settings.database_location, pool_size=2)
    try:
        bot = TournamentBot(settings, database)
        async with bot:
            await log_in(bot, token, settings)
            return await sync_commands(bot.tree, database, guild_id)
    finally:
        await database.close()

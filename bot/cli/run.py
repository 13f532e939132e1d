"""`python -m bot run` (the default): start the bot until Ctrl-C or SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal

from bot.cli import Subcommands
from bot.cli.common import load_settings, require_token
from bot.config import Settings
from bot.errors import StartupError
from bot.i18n import both
from bot.logging_setup import configure_logging
from bot.store.database import Database

log = logging.getLogger("bot")


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "run",
        help="run the bot (the default) / ボットを起動する(既定)",
        description="Connect to Discord and serve slash commands until Ctrl-C or SIGTERM.",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    settings = load_settings()
    token = require_token(settings)
    configure_logging(settings.log_level, secrets=[token])
    asyncio.run(serve(settings, token))
    return 0


async def serve(settings: Settings, token: str) -> None:
    # Imported here so `--help` and the offline subcommands stay fast.
    import discord

    from bot.app import TournamentBot, point_at_discord

    point_at_discord(settings)
    database = await Database.open(settings.database_path)
    log.info("database %s ready", settings.database_path)
    try:
        bot = TournamentBot(settings, database)
        loop = asyncio.get_running_loop()
        closing: list[asyncio.Task[None]] = []

        def request_stop(name: str) -> None:
            log.info("%s received: shutting down", name)
            closing.append(loop.create_task(bot.close()))

        for number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(number, request_stop, number.name)
        try:
            async with bot:
                await bot.start(token)
        except discord.LoginFailure:
            raise StartupError(both("startup.rejected_token"), exit_code=2) from None
        finally:
            for number in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(number)
            if closing:
                await asyncio.gather(*closing)
    finally:
        await database.close()
        log.info("database closed")

"""`python -m bot run` (the default): start the bot until Ctrl-C or SIGTERM.

On the first Ctrl-C or SIGTERM the bot stops taking interactions, lets those running finish
(up to SHUTDOWN_TIMEOUT seconds), then closes Discord and the database; a second signal
cuts the wait short.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
from collections.abc import Callable
from types import FrameType

from bot.cli import Subcommands, tell, text
from bot.cli.common import load_settings, log_in, require_token
from bot.config import Settings
from bot.logging_setup import configure_logging
from bot.store.database import open_database

log = logging.getLogger("bot")

STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM)


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "run",
        help=text("cli.run.help"),
        description=text("cli.run.description"),
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    settings = load_settings()
    token = require_token(settings)
    configure_logging(settings.log_level, secrets=[token, *settings.database_secrets])
    asyncio.run(serve(settings, token))
    tell("cli.run.stopped")
    return 0


def install_stop_handlers(
    loop: asyncio.AbstractEventLoop, on_signal: Callable[[str], None]
) -> Callable[[], None]:
    """Call `on_signal(name)` on the loop for Ctrl-C and SIGTERM; returns the undo function.

    Windows' event loops have no `add_signal_handler` (NotImplementedError), so there the
    handler goes through `signal.signal`, which runs in the main thread between bytecodes,
    and hands over to the loop thread-safely. Ctrl-Break (SIGBREAK) stops the bot there too.
    """
    try:
        for number in STOP_SIGNALS:
            loop.add_signal_handler(number, on_signal, number.name)
    except NotImplementedError:
        pass
    else:

        def remove() -> None:
            for number in STOP_SIGNALS:
                loop.remove_signal_handler(number)

        return remove

    def handler(number: int, frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(on_signal, signal.Signals(number).name)

    numbers = list(STOP_SIGNALS)
    sigbreak = getattr(signal, "SIGBREAK", None)
    if sigbreak is not None:
        numbers.append(sigbreak)
    previous = {number: signal.signal(number, handler) for number in numbers}

    def restore() -> None:
        for number, old in previous.items():
            signal.signal(number, old)

    return restore


async def serve(settings: Settings, token: str) -> None:
    # Imported here so `--help` and the offline subcommands stay fast.
    import discord

    from bot.app import TournamentBot, point_at_discord
    from bot.command_sync import sync_if_changed
    from bot.shutdown import InteractionGate

    point_at_discord(settings)
    database = await open_database(
        settings.database_location, pool_size=settings.database_pool_size
    )
    log.info("database %s ready", settings.database_label)
    try:
        bot = TournamentBot(settings, database)
        gate = InteractionGate(bot)
        gate.install()
        loop = asyncio.get_running_loop()
        closing: list[asyncio.Task[None]] = []

        async def shut_down() -> None:
            cut = await gate.drain(settings.shutdown_timeout)
            if cut:
                log.warning("%d interaction(s) did not finish in time", cut)
            await bot.close()

        def request_stop(name: str) -> None:
            if closing:
                log.info("%s received again: closing without waiting", name)
                tell("cli.run.stopping_now")
                gate.hurry()
                return
            log.info("%s received: shutting down", name)
            tell("cli.run.stopping")
            closing.append(loop.create_task(shut_down()))

        remove_handlers = install_stop_handlers(loop, request_stop)
        try:
            async with bot:
                await log_in(bot, token, settings)
                if settings.auto_sync and not closing:
                    try:
                        await sync_if_changed(bot.tree, database, settings.dev_guild_id)
                    except discord.HTTPException as error:
                        # The commands of the last sync still work: run on, and say why.
                        log.error("could not sync the slash commands: %s", error)
                await bot.connect()
        finally:
            remove_handlers()
            if closing:
                await asyncio.gather(*closing)
    finally:
        await database.close()
        log.info("database closed")

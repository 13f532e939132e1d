"""`python -m bot demo`: a simulated 32-player event on the live page, without Discord.

It plays through the real services on a temporary database (deleted at the end) at a speed
a person can follow (`--speed` multiplies it), serves the page on 127.0.0.1 and prints its
address.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import tempfile
from pathlib import Path

from bot.cli import Subcommands, text
from bot.cli.common import port_number
from bot.cli.run import install_stop_handlers
from bot.errors import StartupError
from bot.i18n import both
from bot.logging_setup import configure_logging

DEFAULT_PORT = 8765


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "demo",
        help=text("cli.demo.help"),
        description=text("cli.demo.description"),
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=1.0,
        metavar=text("cli.metavar.speed"),
        help=text("cli.demo.speed"),
    )
    parser.add_argument(
        "--port",
        type=port_number,
        metavar=text("cli.metavar.port"),
        default=DEFAULT_PORT,
        help=text("cli.demo.port", default=DEFAULT_PORT),
    )
    parser.add_argument("--exit", action="store_true", help=text("cli.demo.exit"))
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar=text("cli.metavar.seed"),
        help=text("cli.demo.seed"),
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    if not 0.05 <= args.speed <= 1000:
        raise StartupError(text("cli.demo.bad_speed", value=args.speed), exit_code=2)
    configure_logging("WARNING")
    asyncio.run(demo(args.speed, args.port, wait=not args.exit, seed=args.seed))
    return 0


async def demo(speed: float, port: int, *, wait: bool, seed: int | None = None) -> None:
    """The demo event on its page. With `seed`, every draw (the results, the lists, each
    round's pairing seed) comes from it, so two runs show the same event: the pictures of
    docs/live-page are drawn so."""
    from bot.demo import DemoEvent
    from bot.services import Services
    from bot.store.database import open_database
    from bot.web.server import WebLimits, WebServer

    stop = asyncio.Event()
    remove = install_stop_handlers(asyncio.get_running_loop(), lambda name: stop.set())
    with tempfile.TemporaryDirectory(prefix="pm-demo-") as folder:
        database = await open_database(Path(folder) / "demo.sqlite3")
        try:
            if seed is None:
                services = Services(database)
            else:
                draws = random.Random(seed)
                services = Services(database, seeds=lambda: draws.getrandbits(48))
            server = WebServer(services.live, "127.0.0.1", port, limits=WebLimits(burst=200))
            try:
                await server.start()
            except OSError:
                if port == 0:
                    raise
                server = WebServer(services.live, "127.0.0.1", 0, limits=WebLimits(burst=200))
                await server.start()
            try:
                print(both("web.cli.demo_start", speed=speed), flush=True)
                drawn_from = DemoEvent.seed if seed is None else seed
                event = DemoEvent(services, speed=speed, say=say, seed=drawn_from)
                started = await event.set_up()
                url = f"http://127.0.0.1:{server.port}/t/{started.page_slug}"
                print(both("web.cli.demo_url", url=url), flush=True)
                playing = asyncio.ensure_future(event.play())
                stopping = asyncio.ensure_future(stop.wait())
                await asyncio.wait({playing, stopping}, return_when=asyncio.FIRST_COMPLETED)
                if playing.done():
                    playing.result()
                    if wait:
                        print(both("web.cli.demo_done"), flush=True)
                        await stopping
                    else:
                        print(both("web.cli.demo_done_exit"), flush=True)
                playing.cancel()
                stopping.cancel()
            finally:
                remove()
                await server.stop()
        finally:
            await database.close()


def say(key: str, **params: object) -> None:
    """A step of the demo, as a line in the terminal's language."""
    line = text(key, **params)
    print(text("web.cli.demo_step", text=line), flush=True)
    logging.getLogger("bot.demo").info(line)

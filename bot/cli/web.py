"""`python -m bot web`: the live pages without Discord, from the same database.

For an organizer who wants the pages served by another process (or machine with the same
file) than the bot: it reads the bot's database (DATABASE_URL, else DATABASE_PATH) and looks
at the versions of the public pages twice a second, so a change the bot commits shows
within 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from pathlib import Path
from typing import Any

from bot.cli import Subcommands, text
from bot.cli.common import load_settings, port_number, quiet_log_level
from bot.cli.run import install_stop_handlers
from bot.config import only_here
from bot.errors import StartupError
from bot.i18n import both, system_error, t, terminal_languages
from bot.logging_setup import configure_logging
from bot.store.urls import is_postgres_url

log = logging.getLogger("bot")


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "web",
        help=text("cli.web.help"),
        description=text("cli.web.description"),
    )
    parser.add_argument("--host", metavar=text("cli.metavar.host"), help=text("cli.web.host"))
    parser.add_argument(
        "--port", type=port_number, metavar=text("cli.metavar.port"), help=text("cli.web.port")
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    settings = load_settings()
    configure_logging(quiet_log_level(settings))
    port = args.port if args.port is not None else settings.web_port
    if port is None:
        raise StartupError(both("web.cli.needs_port"), exit_code=2)
    # The pages of the bot's database: a file that is not there is refused, as verify and
    # backup refuse it, never made empty (it would serve nothing, silently).
    location = settings.database_location
    if not is_postgres_url(location) and not Path(location).is_file():
        raise StartupError(both("verify.no_database", path=location), exit_code=2)
    host = args.host or settings.web_host
    asyncio.run(serve(settings, host, port))
    return 0


async def print_pages(services: Any, url: str) -> None:
    """The address of each public page, which opens the page itself (`/t/` alone is no
    page); or how a page becomes public."""
    shown = []
    for ref in await services.live.pages():
        page = await services.live.open(ref.slug)
        if page is not None:
            shown.append(
                both("web.cli.serving_page", name=page.tournament.name, url=f"{url}/t/{ref.slug}")
            )
    print("\n".join(shown) if shown else both("web.cli.serving_none", url=url), flush=True)


async def serve(settings: object, host: str, port: int) -> None:
    from bot.app import services_for
    from bot.config import Settings
    from bot.store.database import open_database
    from bot.web.server import WebServer, limits_from

    assert isinstance(settings, Settings)
    # DATABASE_URL or DATABASE_PATH, as the bot's: beside bot processes on PostgreSQL, the
    # web process hears their commits (docs/OPERATIONS.md).
    database = await open_database(
        settings.database_location, pool_size=settings.database_pool_size
    )
    # Ctrl + C and SIGTERM are heard from before the first line is printed: one that came
    # while the pages were listed cancelled the task before the server was stopped, and the
    # database's close then waited for ever for the connection the server held.
    stop = asyncio.Event()
    remove = install_stop_handlers(asyncio.get_running_loop(), lambda name: stop.set())
    try:
        services = services_for(settings, database)  # as the bot's: its clock, its language
        server = WebServer(services.live, host, port, limits=limits_from(settings), poll=True)
        try:
            await server.start()
        except OSError as error:
            said = [
                t(
                    "web.cli.port_in_use",
                    lang,
                    host=host,
                    port=port,
                    details=system_error(error, lang),
                )
                for lang in terminal_languages()
            ]
            raise StartupError("\n".join(said), exit_code=2) from None
        try:
            shown_host = f"[{host}]" if ":" in host else host
            url = settings.web_base_url or f"http://{shown_host}:{server.port}"
            print(both("web.cli.serving", url=url), flush=True)
            await print_pages(services, url)
            if only_here(url):
                print(both("web.cli.serving_only_here"), flush=True)
            await stop.wait()
        finally:
            await server.stop()
    finally:
        remove()
        await database.close()

"""Helpers shared by the subcommands: loading settings without a traceback, and opening the
configured database (SQLite or PostgreSQL) for reading."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from bot.cli import text
from bot.cli.settings_errors import settings_message
from bot.config import Settings
from bot.errors import StartupError
from bot.i18n import both, terminal_languages
from bot.store.backend import Snapshot
from bot.store.database import read_snapshot

if TYPE_CHECKING:
    from bot.app import TournamentBot

MAX_PORT = 65535


def load_settings() -> Settings:
    """The settings; a value that cannot be used stops the command with what is wrong and
    how to correct it, in the terminal's language (`settings_message`)."""
    try:
        return Settings()
    except ValidationError as error:
        said = [settings_message(error, lang) for lang in terminal_languages()]
        raise StartupError("\n".join(said)) from None
    except UnicodeDecodeError:  # saved as Shift_JIS by an older Notepad
        raise StartupError(both("settings.env_not_utf8")) from None


def port_number(written: str) -> int:
    """A port as an option gives it: 0 (a free one) to 65535; anything else is refused in
    the terminal's language, as argparse refuses (not Python's OverflowError at the bind)."""
    try:
        port = int(written)
    except ValueError:
        port = -1
    if not 0 <= port <= MAX_PORT:
        raise argparse.ArgumentTypeError(text("cli.bad_port", value=written, highest=MAX_PORT))
    return port


def quiet_log_level(settings: Settings) -> str:
    """The log's level for a tool whose terminal an organizer reads (`web`, `sync`): the
    operators' lines (in English, at INFO) only when LOG_LEVEL asks for them, else
    warnings."""
    return settings.log_level if "log_level" in settings.model_fields_set else "WARNING"


def require_token(settings: Settings) -> str:
    if settings.discord_token is None:
        raise StartupError(both(missing_token_key(Path.cwd())), exit_code=2)
    return settings.discord_token.get_secret_value()


def missing_token_key(folder: Path) -> str:
    """Why there is no token: Windows hides extensions, so the `.env` an organizer saved
    is often `.env.txt`, which nothing reads; say so rather than "no token"."""
    if not (folder / ".env").exists() and (folder / ".env.txt").is_file():
        return "startup.env_txt"
    return "startup.missing_token"


def existing_database() -> Path:
    """DATABASE_PATH, which must exist: reading commands never create a database."""
    path = Path(load_settings().database_location)
    if not path.is_file():
        raise StartupError(both("verify.no_database", path=path), exit_code=2)
    return path


@asynccontextmanager
async def reading(settings: Settings) -> AsyncIterator[Snapshot]:
    """The configured database in one read-only snapshot, safe beside running bots."""
    async with read_snapshot(settings.database_location, settings.database_label) as snapshot:
        yield snapshot


async def log_in(bot: TournamentBot, token: str, settings: Settings) -> None:
    """Log in to Discord; a refused token or no network stops the bot with one bilingual
    message, not a traceback."""
    import aiohttp  # here, so that `--help` and the offline subcommands stay fast
    import discord

    try:
        await bot.login(token)
    except discord.LoginFailure:
        raise StartupError(both("startup.rejected_token"), exit_code=2) from None
    except (aiohttp.ClientConnectionError, TimeoutError):
        message = both("startup.no_network", address=settings.api_base_url)
        raise StartupError(message, exit_code=2) from None

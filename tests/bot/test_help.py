"""/help names each command the way the reader's Discord shows it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.app import EXTENSIONS, TournamentBot
from bot.config import Settings
from bot.i18n import set_command_ids
from bot.store.database import open_database
from cogs.meta import Meta


@pytest.fixture(autouse=True)
def no_synced_ids() -> Iterator[None]:
    set_command_ids({})
    yield
    set_command_ids({})


@pytest.fixture
async def meta(clean_env: Path) -> AsyncIterator[Meta]:
    database = await open_database(clean_env / "bot.sqlite3")
    bot = TournamentBot(Settings(), database)
    try:
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        yield Meta(bot)  # reads the tree every extension filled
    finally:
        await bot.close()
        await database.close()


async def test_japanese_readers_see_the_japanese_name_first(meta: Meta) -> None:
    lines = meta.help_lines("ja")
    assert "/参加登録（`/register`）: 大会に参加登録します" in lines
    assert any(line.startswith("/デッキ 提出（`/deck submit`）: ") for line in lines)
    assert not any(line.startswith("/register") for line in lines)


async def test_english_readers_see_the_english_name(meta: Meta) -> None:
    assert "/register: Register for a tournament" in meta.help_lines("en")


async def test_known_ids_make_every_name_a_link(meta: Meta) -> None:
    set_command_ids({"register": 42})
    assert "</register:42>（`/register`）: 大会に参加登録します" in meta.help_lines("ja")
    assert "</register:42>: Register for a tournament" in meta.help_lines("en")

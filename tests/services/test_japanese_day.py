"""Issue 20, "a Japanese-first day of play", on the services over real SQLite: the server's
button language, settings that apply completely or not at all, a start refused with the
reasons by name, and the commands that still make sense after the finish."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest

from bot.services import Services
from bot.store.database import Database
from tests.services.conftest import GUILD, NOW, admin


def guild_config_row(database: Database) -> sqlite3.Row:
    with sqlite3.connect(database.path) as raw:
        raw.row_factory = sqlite3.Row
        row = raw.execute("SELECT * FROM guild_config WHERE guild_id = ?", (GUILD,)).fetchone()
    assert row is not None
    return row


# -- 4. buttons in the server's language --------------------------------------------------


async def test_bilingual_buttons_are_off_until_the_organizer_asks(
    services: Services, database: Database
) -> None:
    config = await services.guilds.configure(admin(), locale="ja")
    assert config.bilingual_buttons is False
    assert guild_config_row(database)["bilingual_buttons"] == 0


async def test_bilingual_buttons_are_stored_and_kept_by_a_later_setup(
    services: Services, database: Database
) -> None:
    await services.guilds.configure(admin(), locale="ja", bilingual_buttons=True)
    # A later /setup that does not name the option keeps it.
    await services.guilds.configure(admin(), log_channel_id=77)
    fresh = Services(database, clock=lambda: NOW, seeds=lambda: 1)  # no cached config
    config = await fresh.guilds.config(GUILD)
    assert config.bilingual_buttons is True
    assert config == replace(config, locale="ja", log_channel_id=77)
    assert guild_config_row(database)["bilingual_buttons"] == 1
    off = await fresh.guilds.configure(admin(), bilingual_buttons=False)
    assert off.bilingual_buttons is False
    assert guild_config_row(database)["bilingual_buttons"] == 0


def test_the_column_accepts_only_yes_or_no(database: Database) -> None:
    insert = "INSERT INTO guild_config (guild_id, bilingual_buttons, updated_at) VALUES (5, ?, ?)"
    with sqlite3.connect(database.path) as raw, pytest.raises(sqlite3.IntegrityError):
        raw.execute(insert, (2, "now"))

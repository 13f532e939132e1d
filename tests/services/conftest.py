"""Services over a real database with the migrations applied (an SQLite file, and a
PostgreSQL database: every service test runs on both), a fixed clock and seeds."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.services import Services
from bot.services.actors import Actor
from bot.store.backend import Database
from bot.store.database import open_database
from tests.conftest import REPO_ROOT

GUILD = 1000
OTHER_GUILD = 2000
ORGANIZER_ROLE = 11
JUDGE_ROLE = 12
NOW = datetime(2026, 12, 1, 4, 0, tzinfo=UTC)  # 13:00 in Japan
LEGAL_DECK = (REPO_ROOT / "data" / "examples" / "keion.csv").read_bytes()


def admin(guild: int = GUILD) -> Actor:
    return Actor(user_id=1, guild_id=guild, display_name="Admin", manages_guild=True)


def organizer() -> Actor:
    return Actor(2, GUILD, "Organizer", frozenset({ORGANIZER_ROLE}))


def judge() -> Actor:
    return Actor(3, GUILD, "Judge", frozenset({JUDGE_ROLE}))


def player(number: int, guild: int = GUILD) -> Actor:
    return Actor(100 + number, guild, f"Player {number}")


@pytest.fixture
async def database(database_location: str) -> AsyncIterator[Database]:
    opened = await open_database(database_location)
    yield opened
    await opened.close()


@pytest.fixture
def services(database: Database) -> Services:
    return Services(database, clock=lambda: NOW, seeds=lambda: 424242)


@pytest.fixture
async def configured(services: Services) -> Services:
    await services.guilds.configure(
        admin(), organizer_role_id=ORGANIZER_ROLE, judge_role_id=JUDGE_ROLE, locale="ja"
    )
    return services

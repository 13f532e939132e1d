"""`python -m bot migrate-to-postgres`: an SQLite database, log included, copied into an
empty PostgreSQL database; `verify` agrees on the copy, and the bot goes on writing there.
PostgreSQL only: it is the copy's target."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.services import Services
from bot.store.database import open_database
from tests.bot.test_cli import run_cli
from tests.services.conftest import LEGAL_DECK, NOW, admin, organizer, player
from tests.support.postgres import PostgresServer

pytestmark = pytest.mark.postgres

TABLES = ("tournaments", "players", "decks", "rounds", "matches", "action_log", "outbox")


async def an_event_on_sqlite(path: Path) -> None:
    database = await open_database(path)
    services = Services(database, clock=lambda: NOW, seeds=lambda: 7)
    try:
        await services.guilds.configure(admin(), organizer_role_id=11, judge_role_id=12)
        await services.tournaments.create(
            organizer(), name="Copy Cup", format="swiss", regulation="single"
        )
        for number in range(1, 7):
            await services.registration.register(player(number), None)
            await services.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
        await services.lifecycle.start(organizer(), None)
        paired = await services.rounds.pair(organizer(), None)
        first, second = paired.round.matches[0].players
        await services.rounds.report(player(first - 100), None, "win")
        await services.rounds.confirm(player(second - 100), paired.tournament.id, 1, 1)
    finally:
        await database.close()


async def counts(location: str) -> dict[str, int]:
    database = await open_database(location)
    try:
        async with database.read() as connection:
            found = {}
            for table in TABLES:
                rows = list(await connection.execute_fetchall(f"SELECT COUNT(*) FROM {table}"))
                found[table] = int(rows[0][0])
            return found
    finally:
        await database.close()


async def test_the_copy_has_every_row_and_verifies(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    source = tmp_path / "bot.sqlite3"
    await an_event_on_sqlite(source)
    target = postgres_server.create_database("copy")

    copied = await asyncio.to_thread(
        run_cli, "migrate-to-postgres", "--from", str(source), "--to", target, cwd=tmp_path
    )
    assert copied.returncode == 0, copied.stderr
    assert "action_log:" in copied.stdout

    assert await counts(target) == await counts(str(source))
    assert (await counts(target))["action_log"] > 10
    verified = await asyncio.to_thread(run_cli, "verify", cwd=tmp_path, DATABASE_URL=target)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "agrees" in verified.stdout
    # The bot goes on there: new rows get ids after the copied ones.
    database = await open_database(target)
    try:
        services = Services(database, clock=lambda: NOW)
        await services.rounds.drop(player(5), None)
        async with database.read() as connection:
            rows = list(await connection.execute_fetchall("SELECT MAX(id) FROM action_log"))
    finally:
        await database.close()
    assert int(rows[0][0]) == (await counts(str(source)))["action_log"] + 1

    again = await asyncio.to_thread(
        run_cli, "migrate-to-postgres", "--from", str(source), "--to", target, cwd=tmp_path
    )
    assert again.returncode == 2
    assert "already has data" in again.stderr
    assert "すでにデータ" in again.stderr

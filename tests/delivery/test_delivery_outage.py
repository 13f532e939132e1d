"""The delivery when the database is away: the loop and the timed jobs pause, say so once
and once that it is back, and go on by themselves; a notice read from the outbox just before
the database went away is neither failed nor forgotten, and goes once it is back. Against a
real PostgreSQL of this module's own, stopped and started for real."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator

import discord
import pytest

from bot.delivery import Delivery
from bot.services import Services
from bot.store.database import open_database
from domain.guild import GuildConfig
from tests.services.conftest import NOW, admin, organizer
from tests.support.postgres import PostgresServer

pytestmark = pytest.mark.postgres


@pytest.fixture
def server(own_postgres_server: PostgresServer) -> Iterator[PostgresServer]:
    yield own_postgres_server
    with contextlib.suppress(Exception):  # a test that failed with the server stopped
        own_postgres_server.start()


@pytest.fixture
async def services(server: PostgresServer) -> AsyncIterator[Services]:
    """A server with a new tournament, whose notices wait in the outbox. No channel is set:
    they have nowhere to go (done with as skipped), so none reaches for Discord."""
    database = await open_database(server.create_database("delivery"))
    services = Services(database, clock=lambda: NOW, seeds=lambda: 424242)
    await services.guilds.configure(admin(), organizer_role_id=11, judge_role_id=12, locale="ja")
    await services.tournaments.create(
        organizer(), name="Outage Cup", format="swiss", regulation="single"
    )
    yield services
    await database.close()


def delivery_of(services: Services, jobs: tuple[object, ...] = ()) -> Delivery:
    client = discord.Client(intents=discord.Intents.default())  # never connected: not reached
    return Delivery(client, services.store, clock=lambda: NOW, jobs=jobs)  # type: ignore[arg-type]


async def outbox(services: Services) -> list[tuple[str, int]]:
    async with services.store.database.read() as connection:
        rows = await connection.execute_fetchall("SELECT state, attempts FROM outbox ORDER BY id")
    return [(str(row["state"]), int(row["attempts"])) for row in rows]


async def settled(delivery: Delivery) -> None:
    """Until every notice read is done with (10 s at most: a notice left read and never
    sent would keep it waiting for ever)."""
    await asyncio.wait_for(delivery._settled(), 10)


WAITING = [("pending", 0), ("pending", 0)]  # the registration post and the panel
DONE = [("skipped", 1), ("skipped", 1)]  # nowhere to go on this server


async def test_the_loop_pauses_once_and_goes_on_by_itself(
    server: PostgresServer, services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    """Ticks while the database is away: the jobs stop at the first the database fails
    (those after it wait for the next tick), nothing in the outbox changes, and the log says
    once that the database is away and once that it is back; then the notices go."""
    ran: list[str] = []

    async def clock_tick() -> None:
        ran.append("clock")
        await services.tournaments.overview(organizer())  # reads the database

    async def reminders() -> None:
        ran.append("reminders")

    delivery = delivery_of(services, jobs=(clock_tick, reminders))
    assert await outbox(services) == WAITING
    caplog.set_level(logging.INFO, logger="bot.delivery.loop")
    server.stop("fast")
    for _ in range(5):
        await delivery.tick()
    assert ran == ["clock"] * 5
    server.start()
    assert await outbox(services) == WAITING  # nothing marked, nothing counted
    await delivery.tick()
    await settled(delivery)
    assert ran[-2:] == ["clock", "reminders"]
    assert await outbox(services) == DONE
    # (Besides a line for each notice skipped: this server has no channel to take them.)
    records = [
        r
        for r in caplog.records
        if r.name == "bot.delivery.loop" and "skipped: none of its places" not in r.getMessage()
    ]
    told = [(r.levelname, r.getMessage()) for r in records]
    assert len(told) == 2, told  # once away, once back
    assert told[0][0] == "WARNING"
    assert told[0][1].startswith("the database is unavailable: database unreachable")
    assert "nothing is lost" in told[0][1]
    assert told[1][0] == "INFO"
    assert told[1][1].startswith("the database is available again after")
    assert all(r.exc_info is None for r in records)  # no traceback


async def test_notices_read_as_the_database_went_away_go_once_it_is_back(
    server: PostgresServer, services: Services
) -> None:
    """The outbox is read, then the server stops while the first notice is being let go
    (its server's settings are read): once the server is back, the next tick lets both go.
    (They used to stay read and never sent until the bot restarted.)"""
    delivery = delivery_of(services)
    settings = delivery._config
    stopped: list[bool] = []

    async def settings_as_the_server_stops(guild_id: int) -> GuildConfig:
        if not stopped:
            server.stop("fast")
            stopped.append(True)
        return await settings(guild_id)

    delivery._config = settings_as_the_server_stops  # type: ignore[method-assign]
    await delivery.tick()
    assert stopped
    server.start()
    assert await outbox(services) == WAITING
    await delivery.tick()
    await settled(delivery)
    assert await outbox(services) == DONE

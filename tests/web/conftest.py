"""The live page's routes on real SQLite: the demo event through the services, served by the
real application through aiohttp's test client."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.demo import DemoEvent
from bot.services import Services
from bot.store.database import open_database
from bot.web.pages import LivePages
from bot.web.server import WebLimits, build_app
from domain.tournament.model import Tournament


async def _make(path: Path, stage: str) -> None:
    database = await open_database(path)
    try:
        event = DemoEvent(Services(database), speed=1e6)
        await event.set_up()
        if stage == "finished":
            await event.play()
        else:
            await event.services.rounds.pair(event.admin, event.ref)
        await database.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        await database.close()


@pytest.fixture(scope="session")
def event_templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two databases made once: round 1 paired (lists private), and the event finished
    with its lists published."""
    folder = tmp_path_factory.mktemp("web-events")
    paths = {stage: folder / f"{stage}.sqlite3" for stage in ("running", "finished")}
    for stage, path in paths.items():
        asyncio.run(_make(path, stage))
    return paths


@dataclass
class Site:
    services: Services
    event: DemoEvent
    client: TestClient
    pages: LivePages

    async def tournament(self) -> Tournament:
        return (await self.services.tournaments.info(self.event.admin, self.event.ref)).tournament

    async def slug(self) -> str:
        slug = (await self.tournament()).page_slug
        assert slug is not None
        return slug


@asynccontextmanager
async def open_site(
    template: Path, folder: Path, limits: WebLimits | None = None
) -> AsyncIterator[Site]:
    path = folder / "bot.sqlite3"
    shutil.copy(template, path)
    database = await open_database(path)
    services = Services(database)
    pages = LivePages(services.live)
    stop = services.live.watch(pages.heard)
    client = TestClient(TestServer(build_app(pages, limits or WebLimits(burst=10_000))))
    await client.start_server()
    event = DemoEvent(services, speed=1e6)
    event.tournament_id = (await services.tournaments.overview(event.admin))[0].id
    try:
        yield Site(services, event, client, pages)
    finally:
        stop()
        pages.close_all()
        await client.close()
        await database.close()


@pytest.fixture
async def running(event_templates: dict[str, Path], tmp_path: Path) -> AsyncIterator[Site]:
    async with open_site(event_templates["running"], tmp_path) as site:
        yield site


@pytest.fixture
async def finished(event_templates: dict[str, Path], tmp_path: Path) -> AsyncIterator[Site]:
    async with open_site(event_templates["finished"], tmp_path) as site:
        yield site

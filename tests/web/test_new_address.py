"""A page whose address leaked gets a new one on demand: the old address answers 404 from
then on (its open streams are told the page is gone), the new one the same page."""

from __future__ import annotations

import asyncio

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.services import Services
from bot.store.actions import list_actions
from bot.store.database import open_database
from bot.store.verify import verify_all
from bot.web.pages import LivePages
from bot.web.server import WebLimits, build_app
from domain.errors import PermissionDenied
from tests.web.conftest import Site
from tests.web.test_routes import next_event

PATHS = ("", "/pairings", "/api/overview.json", "/api/pairings.json", "/api/version.json")


async def test_a_new_address_ends_the_old_one(running: Site) -> None:
    event = running.event
    old = await running.slug()
    for path in PATHS:
        assert (await running.client.get(f"/t/{old}{path}")).status == 200
    stream = await running.client.get(f"/t/{old}/events")
    name, _ = await asyncio.wait_for(next_event(stream.content), 2)
    assert name == "version"
    with pytest.raises(PermissionDenied):
        await running.services.tournaments.renew_page(event.entrants[0], event.ref)
    renewed = await running.services.tournaments.renew_page(event.admin, event.ref)
    new = renewed.tournament.page_slug
    assert new is not None
    assert new != old
    assert renewed.tournament.page_public
    name, _ = await asyncio.wait_for(next_event(stream.content), 2)
    assert name == "gone"
    stream.close()
    for path in PATHS:
        assert (await running.client.get(f"/t/{old}{path}")).status == 404, path
        assert (await running.client.get(f"/t/{new}{path}")).status == 200, path
    async with running.services.store.database.read() as connection:
        actions = await list_actions(connection, guild_id=event.admin.guild_id)
        verdicts = await verify_all(connection)
    assert [a.payload for a in actions if a.kind == "renew_live_page"] == [{"slug": new}]
    assert all(verdict.agrees for verdict in verdicts)


async def test_a_page_served_by_another_process_forgets_the_old_address(running: Site) -> None:
    other = await open_database(running.services.store.database.path)
    pages = LivePages(Services(other).live)
    client = TestClient(TestServer(build_app(pages, WebLimits(burst=1000))))
    await client.start_server()
    poller = asyncio.get_running_loop().create_task(pages.poll(0.1))
    try:
        old = await running.slug()
        assert (await client.get(f"/t/{old}/api/pairings.json")).status == 200
        event = running.event
        renewed = await running.services.tournaments.renew_page(event.admin, event.ref)
        new = renewed.tournament.page_slug
        for _ in range(30):
            await asyncio.sleep(0.1)
            if (await client.get(f"/t/{old}/api/pairings.json")).status == 404:
                break
        assert (await client.get(f"/t/{old}/api/pairings.json")).status == 404
        assert (await client.get(f"/t/{old}")).status == 404
        assert (await client.get(f"/t/{new}/api/pairings.json")).status == 200
    finally:
        poller.cancel()
        await client.close()
        await other.close()


async def test_a_hidden_page_keeps_hidden_at_its_new_address(running: Site) -> None:
    event = running.event
    old = await running.slug()
    await running.services.tournaments.set_page(event.admin, event.ref, False)
    renewed = await running.services.tournaments.renew_page(event.admin, event.ref)
    assert not renewed.tournament.page_public
    new = renewed.tournament.page_slug
    assert (await running.client.get(f"/t/{new}")).status == 404
    shown = await running.services.tournaments.set_page(event.admin, event.ref, True)
    assert shown.tournament.page_slug == new
    assert (await running.client.get(f"/t/{new}")).status == 200
    assert (await running.client.get(f"/t/{old}")).status == 404

"""The live page's story through the real bot (WEB_PORT set) and the fake Discord: the organizer
turns the live page on and gets its link; players and spectators keep it open; a result
confirmed in Discord shows on the page's event stream and JSON within 2 s; a player cannot
switch the page; turned off, the page answers 404 and its stream ends.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import time
from typing import Any

import aiohttp
import pytest

from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, Upload
from tests.e2e.story import (
    LEGAL_CSV,
    confirm_in_thread,
    posted_to,
    setup_server,
    start_event,
    tables_of,
)

pytestmark = pytest.mark.e2e

CUP = "Live Cup"
PLAYERS = ("alice", "bob", "carol", "dave")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


PORT = free_port()
fake = bot_fixture("live", WEB_PORT=str(PORT), WEB_HOST="127.0.0.1")


async def next_event(stream: aiohttp.StreamReader) -> tuple[str, dict[str, Any]]:
    name, data = "", ""
    while True:
        line = (await stream.readline()).decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data = line[6:]
        elif line == "" and name:
            return name, json.loads(data)


async def test_the_organizer_shows_the_page_and_a_result_reaches_it(fake: FakeDiscord) -> None:
    await setup_server(fake)
    await fake.slash(
        "tournament create",
        user="organizer",
        options={"name": CUP, "format": "swiss", "regulation": "single"},
    )
    refused = await fake.slash("tournament page", user="alice", options={"state": "on"})
    assert refused.ephemeral
    assert "organizer" in refused.text.lower()
    shown = await fake.slash(
        "tournament page", user="organizer", options={"state": "on"}, locale="ja"
    )
    assert shown.ephemeral
    found = re.search(rf"http://127\.0\.0\.1:{PORT}/t/([A-Za-z0-9_-]{{22}})", shown.text)
    assert found, shown.text
    url = found.group(0)
    # A loopback link opens only on the bot's PC: the organizer is told what to set instead,
    # and no player is handed it.
    assert "この PC でしか開けない" in shown.text
    assert "WEB_BASE_URL" in shown.text
    again = await fake.slash("tournament page", user="organizer", options={"state": "on"})
    assert url in again.text  # asking again gives the same link, and changes nothing
    for player in PLAYERS:
        await fake.slash("register", user=player)
        await fake.slash(
            "deck submit", user=player, options={"file": Upload("deck.csv", LEGAL_CSV)}
        )
    await start_event(fake)
    await fake.slash("round pair", user="organizer", locale="ja")
    await fake.slash("round start", user="organizer", locale="ja")
    told = posted_to(fake, "pairings") + posted_to(fake, "announcements")
    assert told
    assert not any("127.0.0.1" in content for content in told)

    async with aiohttp.ClientSession() as session:
        page = await session.get(url)
        assert page.status == 200
        assert CUP in await page.text()
        events = await session.get(f"{url}/events")
        _, hello = await asyncio.wait_for(next_event(events.content), 5)
        first, second = tables_of(fake, 1)[1]
        await fake.slash("report result", user=first, options={"result": "win"}, locale="ja")
        await confirm_in_thread(fake, 1, second)
        confirmed = time.monotonic()
        while True:
            _, notice = await asyncio.wait_for(next_event(events.content), 2)
            if notice["stamps"]["pairings"] != hello["stamps"]["pairings"]:
                pairings = await (await session.get(f"{url}/api/pairings.json")).json()
                table = next(t for t in pairings["tables"] if t["table"] == 1)
                if table["state"] == "finished":
                    break
        assert time.monotonic() - confirmed < 2
        winner = [s["name"] for s in table["seats"]][table["result"]["winner"]]
        assert winner.casefold() == first.casefold()
        body = json.dumps(pairings)
        assert all(str(fake.member(p).id) not in body for p in PLAYERS)  # no user ids
        # The lists are private until /deck publish: not found, not forbidden.
        assert (await session.get(f"{url}/decklists")).status == 404
        assert (await session.get(f"{url}/api/decklists/1.json")).status == 404

        hidden = await fake.slash("tournament page", user="organizer", options={"state": "off"})
        assert hidden.ephemeral
        name, _ = await asyncio.wait_for(next_event(events.content), 2)
        assert name == "gone"
        assert (await session.get(url)).status == 404
        assert (await session.get(f"{url}/api/overview.json")).status == 404
        events.close()
    fake.assert_no_errors_logged()

"""A public page facing strangers: its connections, its request budget and its caches stay
bounded, whatever one client (or many) sends."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import make_mocked_request

from bot.web import connections
from bot.web.connections import ConnectionBudget, QuietAccept, address_key, raise_file_limit
from bot.web.fonts import font_slices
from bot.web.server import Limits, WebLimits, WebServer
from tests.web.conftest import Site


@asynccontextmanager
async def serving(
    site: Site, budget: ConnectionBudget, limits: WebLimits | None = None
) -> AsyncIterator[WebServer]:
    server = WebServer(
        site.services.live,
        "127.0.0.1",
        0,
        limits=limits or WebLimits(burst=10_000),
        budget=budget,
        cut_fonts=False,
    )
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def idle_connection(
    port: int, source: str = "127.0.0.1"
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def closed(reader: asyncio.StreamReader, within: float = 2.0) -> bool:
    try:
        return await asyncio.wait_for(reader.read(1), within) == b""
    except (TimeoutError, ConnectionResetError):
        return isinstance(reader.exception(), ConnectionResetError) or reader.at_eof()


async def get_page(port: int, path: str) -> int:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        await response.read()
        return response.status


def test_the_budget_leaves_the_discord_side_its_descriptors() -> None:
    budget = ConnectionBudget.of(1024)
    assert budget.total <= 1024 - 256
    # Accepted in one go before the gate sees them, and made room for: still 256 left.
    assert budget.total + 2 * budget.accept_batch <= 1024 - 256
    assert budget.per_address < budget.total
    assert budget.streams < budget.total  # page loads always have room besides the streams
    assert ConnectionBudget.of(65_536).total > 40_000


def test_the_file_limit_is_raised_where_the_system_allows() -> None:
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 600:
        pytest.skip("the hard limit is too low to test")
    resource.setrlimit(resource.RLIMIT_NOFILE, (512, hard))
    try:
        raised = raise_file_limit(600)
        assert raised == 600
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == 600
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def test_one_address_gets_only_its_share_of_connections(running: Site) -> None:
    budget = ConnectionBudget(total=64, per_address=8, streams=16)
    async with serving(running, budget) as server:
        held = [await idle_connection(server.port) for _ in range(8)]
        extra = [await idle_connection(server.port) for _ in range(5)]
        for reader, _ in extra:
            assert await closed(reader)
        assert server.gate is not None
        assert len(server.gate) == 8
        for _, writer in held + extra:
            writer.close()


async def test_when_every_place_is_taken_the_oldest_idle_connection_makes_room(
    running: Site,
) -> None:
    budget = ConnectionBudget(total=6, per_address=100, streams=3)
    async with serving(running, budget) as server:
        held = [await idle_connection(server.port, "127.0.3.1") for _ in range(6)]
        slug = await running.slug()
        # A reader arriving now is answered: an idle connection gave its place.
        assert await get_page(server.port, f"/t/{slug}") == 200
        assert await closed(held[0][0])
        # But an address holding its fair share pushes nobody out: past the place the
        # reader left, it waits for one of its own.
        await asyncio.sleep(0.2)
        more = [await idle_connection(server.port, "127.0.3.1") for _ in range(3)]
        assert [await closed(reader, within=0.5) for reader, _ in more] == [False, True, True]
        assert server.gate is not None
        assert server.gate.refused == 2
        assert not any([await closed(reader, within=0.05) for reader, _ in held[1:]])
        for _, writer in held + more:
            writer.close()


async def test_a_connection_that_sends_nothing_is_closed_soon(
    running: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections, "IDLE_SECONDS", 0.3)
    async with serving(running, ConnectionBudget(64, 16, 16)) as server:
        reader, writer = await idle_connection(server.port)
        began = time.monotonic()
        assert await closed(reader, within=3)
        assert time.monotonic() - began < 2
        # A request begun and never finished is closed the same.
        reader, writer = await idle_connection(server.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
        assert await closed(reader, within=3)


async def test_a_closed_stream_gives_its_place_back_at_once(running: Site) -> None:
    limits = WebLimits(burst=10_000, streams_per_client=1)
    async with serving(running, ConnectionBudget(64, 16, 16), limits) as server:
        slug = await running.slug()
        url = f"http://127.0.0.1:{server.port}/t/{slug}/events"
        for _ in range(3):  # a reader clicking through the tabs
            async with aiohttp.ClientSession() as session, session.get(url) as response:
                assert response.status == 200
                await response.content.readline()
            await asyncio.sleep(0.1)


async def test_the_streams_leave_room_for_page_loads(running: Site) -> None:
    budget = ConnectionBudget(total=12, per_address=100, streams=4)
    async with serving(running, budget) as server:
        slug = await running.slug()
        url = f"http://127.0.0.1:{server.port}/t/{slug}/events"
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            responses = [await session.get(url) for _ in range(8)]
            assert sorted(r.status for r in responses).count(200) == 4
            assert await get_page(server.port, f"/t/{slug}") == 200
            for response in responses:
                response.close()


def test_accept_errors_are_logged_once_per_burst(caplog: pytest.LogCaptureFixture) -> None:
    loop = asyncio.new_event_loop()
    try:
        quiet = QuietAccept(loop)
        remove = quiet.install()
        context = {"message": "socket.accept() out of system resource", "exception": OSError(24)}
        with caplog.at_level(logging.ERROR):
            for _ in range(10_000):
                loop.call_exception_handler(dict(context))
        assert len([r for r in caplog.records if "accept" in r.getMessage()]) == 1
        remove()
        assert loop.get_exception_handler() is None
    finally:
        loop.close()


# -- the request budget ---------------------------------------------------------------------


def request_from(peer: str, forwarded: str | None = None) -> Any:
    headers = {"X-Forwarded-For": forwarded} if forwarded is not None else {}
    return make_mocked_request("GET", "/", headers=headers).clone(remote=peer)


def test_the_forwarded_address_is_believed_only_from_the_configured_proxy() -> None:
    limits = Limits(WebLimits(behind_proxy=True, trusted_proxies=("10.0.0.1",)))
    assert limits.client(request_from("10.0.0.1", "203.0.113.7")) == "203.0.113.7"
    # A proxy appended its own hop after the client's: the client is the last one not a proxy.
    assert limits.client(request_from("10.0.0.1", "1.2.3.4, 203.0.113.7, 10.0.0.1")) == (
        "203.0.113.7"
    )
    assert limits.client(request_from("198.51.100.9", "203.0.113.7")) == "198.51.100.9"
    assert limits.client(request_from("10.0.0.1", "not-an-address")) == "10.0.0.1"
    off = Limits(WebLimits(behind_proxy=False))
    assert off.client(request_from("198.51.100.9", "203.0.113.7")) == "198.51.100.9"


def test_an_ipv6_client_is_counted_by_its_64() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.1") == "192.0.2.1"
    limits = Limits(WebLimits(requests_per_second=0.001, burst=2))
    assert limits.allow(address_key("2001:db8::1"))
    assert limits.allow(address_key("2001:db8::2"))
    assert not limits.allow(address_key("2001:db8::3"))


def test_buckets_of_quiet_clients_are_forgotten_and_the_table_is_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [1000.0]
    monkeypatch.setattr("bot.web.server.time.monotonic", lambda: now[0])
    limits = Limits(WebLimits(requests_per_second=10, burst=40, buckets=5_000))
    for n in range(20_000):
        limits.allow(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")
    assert len(limits._buckets) <= 5_000
    now[0] += 10  # every bucket has refilled
    for n in range(3):
        limits.allow(f"192.0.2.{n}")
    for _ in range(5_000):
        limits.allow("192.0.2.200")
        now[0] += 0.2
    assert len(limits._buckets) < 10


class CountedLooks(OrderedDict[str, tuple[float, float]]):
    """The rate limits' table, counting the entries a sweep looks at."""

    looked = 0

    def items(self) -> Iterator[tuple[str, tuple[float, float]]]:  # type: ignore[override]
        for pair in super().items():
            self.looked += 1
            yield pair


def test_a_request_costs_the_same_however_many_clients_are_known(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The sweep looks at the two least recently used entries at the most, never the whole
    # table: with 200,000 clients known (none refilled yet: the clock stands), as with a few.
    monkeypatch.setattr("bot.web.server.time.monotonic", lambda: 1000.0)
    limits = Limits(WebLimits(buckets=250_000))
    table = CountedLooks()
    limits._buckets = table
    for n in range(200_000):
        limits.allow(f"f{n}")
    for n in range(10_000):
        looked = table.looked
        limits.allow(f"g{n}")
        assert table.looked - looked <= 2
    assert len(table) == 210_000


# -- the caches -----------------------------------------------------------------------------


async def test_a_parameter_a_part_does_not_use_makes_no_new_answer(running: Site) -> None:
    slug = await running.slug()
    for page in range(1, 60):
        for part in ("pairings", "overview"):
            response = await running.client.get(f"/t/{slug}/api/{part}.json?page={page}")
            assert response.status == 200
    state = await running.pages.state(slug)
    assert state is not None
    assert len([key for key in state.rendered if key[0] == "api"]) == 2
    assert len(state.parts) <= 2


async def test_a_page_beyond_the_last_is_not_found_and_not_kept(running: Site) -> None:
    slug = await running.slug()
    assert (await running.client.get(f"/t/{slug}/api/standings.json?page=1")).status == 200
    for page in range(2, 300):
        response = await running.client.get(f"/t/{slug}/api/standings.json?page={page}")
        assert response.status == 404
    state = await running.pages.state(slug)
    assert state is not None
    assert len(state.rendered) <= 2
    assert len(state.asked().recipes) <= 2


async def test_only_answers_asked_for_recently_are_made_again(
    running: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.web import pages as live_pages

    slug = await running.slug()
    await running.client.get(f"/t/{slug}/api/pairings.json")
    await running.client.get(f"/t/{slug}?lang=en")
    state = await running.pages.state(slug)
    assert state is not None
    assert len(state.asked().recipes) == 2
    state.asked_at[("api", "pairings", None, 1)] -= live_pages.RECENT_SECONDS + 1
    assert list(state.asked().recipes) == [("page", "overview", "en")]
    monkeypatch.setattr(live_pages, "MADE_AGAIN", 1)
    await running.client.get(f"/t/{slug}/api/overview.json")
    assert list(state.asked().recipes) == [("api", "overview", None, 1)]


def test_the_answers_of_a_version_are_bounded_least_recently_asked_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.web import pages as live_pages
    from bot.web.pages import PageState

    monkeypatch.setattr(live_pages, "RENDERED_PER_PAGE", 8)
    state = PageState(page=None, stamps={})  # type: ignore[arg-type]
    for n in range(40):
        key = ("api", "x", n, 1)
        state.asked_at[key] = float(n if n != 3 else 1000)  # 3 is asked again and again
        state.made(key, lambda _state: b"{}")
        assert len(state.rendered) <= 8
    assert ("api", "x", 3, 1) in state.rendered


async def test_an_unknown_address_is_not_remembered(running: Site) -> None:
    for n in range(200):
        response = await running.client.get(f"/t/{'x' * 21}{n:03d}")
        assert response.status == 404
    assert running.pages._asked_at.keys() <= {await running.slug()}


# -- the font -------------------------------------------------------------------------------


async def test_asking_for_every_font_slice_costs_the_bot_no_cutting(
    running: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slices = font_slices()
    if not slices.slices:
        pytest.skip("the fallback font is not installed")
    assert slices.folder is not None
    monkeypatch.setattr(slices, "folder", tmp_path / slices.folder.name)
    monkeypatch.setattr(slices, "_read", {})
    began = time.process_time()
    for piece in slices.slices:
        response = await running.client.get(f"/fonts/{piece.index}.woff")
        assert response.status == 404  # not cut yet: cut by the cutting process only
    assert time.process_time() - began < 5.0  # a cut costs ~0.9 s each: 207 would be ~3 min
    assert not slices.folder.exists()


async def test_the_server_starts_the_cutting_process_when_slices_are_missing(
    running: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slices = font_slices()
    if not slices.slices:
        pytest.skip("the fallback font is not installed")
    assert slices.folder is not None
    monkeypatch.setattr(slices, "folder", tmp_path / slices.folder.name)
    server = WebServer(running.services.live, "127.0.0.1", 0, budget=ConnectionBudget(64, 16, 16))
    await server.start()
    try:
        assert server._cutter is not None
        process = server._cutter.process
        assert process is not None
        assert process.returncode is None
    finally:
        await server.stop()
    assert process.returncode is not None  # stopped with the server

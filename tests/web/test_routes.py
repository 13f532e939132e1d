"""The live page's routes as a browser, an overlay or a spreadsheet uses them, and
every way to reach what must stay hidden."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.demo import FIRST_PLAYER_ID
from bot.store.actions import list_actions
from bot.store.database import open_database
from bot.store.rooms import ROOM, RoomChannel
from bot.web.fonts import font_slices
from bot.web.server import CSP, WebLimits
from domain.tournament.rounds import Round
from tests.conftest import cli_env
from tests.web.conftest import Site, open_site

SECTIONS = ("", "/pairings", "/standings", "/bracket")
PARTS = ("overview", "pairings", "standings", "bracket", "version")


async def get(site: Site, path: str, **headers: str) -> tuple[int, str, Any]:
    response = await site.client.get(path, headers=headers)
    body = await response.text()
    return response.status, body, response.headers


def data_island(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="pm-data">(.*?)</script>', page, re.S)
    assert found is not None
    loaded: dict[str, Any] = json.loads(found.group(1))
    return loaded


async def test_the_pages_are_served_with_their_data_and_a_strict_policy(running: Site) -> None:
    slug = await running.slug()
    for section in SECTIONS:
        status, page, headers = await get(running, f"/t/{slug}{section}")
        assert status == 200, section
        assert headers["Content-Security-Policy"] == CSP
        assert "script-src 'self'" in CSP
        assert "unsafe-inline" not in CSP
        # No inline script: every script is a file of ours or a JSON island.
        for tag in re.findall(r"<script[^>]*>", page):
            assert 'src="/static/' in tag or 'type="application/json"' in tag, tag
        assert data_island(page)["name"] == "プレメモ交流会（デモ）"
    for part in PARTS:
        response = await running.client.get(f"/t/{slug}/api/{part}.json")
        body = await response.json()
        if part == "bracket":  # no top cut yet
            assert response.status == 404
            continue
        assert response.status == 200, part
        assert response.headers["Access-Control-Allow-Origin"] == "*"
        assert body
    overview = await (await running.client.get(f"/t/{slug}/api/overview.json")).json()
    assert overview["registered"] == 32
    assert overview["current_round"] == 1
    pairings = await (await running.client.get(f"/t/{slug}/api/pairings.json")).json()
    assert len(pairings["tables"]) == 16
    assert {seat["points"] for t in pairings["tables"] for seat in t["seats"]} == {0}


async def test_japanese_first_english_by_accept_language_or_the_switch(running: Site) -> None:
    slug = await running.slug()
    _, ja, _ = await get(running, f"/t/{slug}")
    _, en, _ = await get(running, f"/t/{slug}", **{"Accept-Language": "en-US,en;q=0.9"})
    _, switched, _ = await get(running, f"/t/{slug}?lang=ja", **{"Accept-Language": "en"})
    _, prefers_ja, _ = await get(running, f"/t/{slug}", **{"Accept-Language": "en;q=0.5,ja"})
    assert data_island(ja)["lang"] == "ja"
    assert data_island(ja)["texts"]["nav_pairings"] == "対戦表"
    assert data_island(en)["lang"] == "en"
    assert data_island(en)["texts"]["nav_pairings"] == "Pairings"
    assert data_island(switched)["lang"] == "ja"
    assert data_island(prefers_ja)["lang"] == "ja"
    assert '<html lang="en">' in en
    assert f'href="/t/{slug}?lang=ja"' in en


async def test_no_user_id_reaches_any_page_or_json(finished: Site) -> None:
    slug = await finished.slug()
    tournament = await finished.tournament()
    paths = [f"/t/{slug}{s}" for s in (*SECTIONS, "/decklists", "/titles")]
    paths += [f"/t/{slug}/api/{p}.json" for p in (*PARTS, "decklists", "titles")]
    paths += [f"/t/{slug}/api/pairings.json?round={n}" for n in range(1, 9)]
    paths += [f"/t/{slug}/api/decklists/{e.seq}.json" for e in tournament.players.values()]
    paths += [f"/t/{slug}/decklists/{e.seq}" for e in tournament.players.values()]
    ids = {str(user) for user in tournament.players}
    assert all(str(FIRST_PLAYER_ID)[:12] in user for user in ids)
    for path in paths:
        status, body, _ = await get(finished, path)
        assert status == 200, path
        assert str(FIRST_PLAYER_ID)[:12] not in body, path
        assert "user_id" not in body, path


async def test_the_finished_event_shows_final_placings_lists_and_titles(finished: Site) -> None:
    slug = await finished.slug()
    standings = await (await finished.client.get(f"/t/{slug}/api/standings.json")).json()
    assert standings["final"] is True
    assert standings["total"] == 32
    bracket = await (await finished.client.get(f"/t/{slug}/api/bracket.json")).json()
    assert [len(r) for r in bracket["rounds"]] == [4, 2, 1]
    final = bracket["rounds"][-1][0]
    champion = final["seats"][final["winner"]]["name"]
    assert standings["rows"][0]["name"] == champion
    assert standings["rows"][0]["rank"] == 1
    # The order of the final placings is explained on the page as on Discord: each top-cut
    # player's place (優勝, 準優勝, ベスト4, ベスト8).
    assert [row["top_cut"] for row in standings["rows"][:9]] == [1, 2, 4, 4, 8, 8, 8, 8, None]
    # The top cut's rounds are named as people name them on the page.
    overview = await (await finished.client.get(f"/t/{slug}/api/overview.json")).json()
    names = [key for _, _, key, _ in overview["rounds"]]
    assert names[-3:] == ["stage_quarterfinal", "stage_semifinal", "stage_final"]
    assert set(names[:-3]) == {"round"}
    decks = await (await finished.client.get(f"/t/{slug}/api/decklists.json")).json()
    assert decks["total"] == 32
    assert decks["decks"][0]["rank"] == 1
    one = await (await finished.client.get(f"/t/{slug}/api/decklists/1.json")).json()
    assert sum(card["count"] for card in one["cards"]) == 60
    titles = await (await finished.client.get(f"/t/{slug}/api/titles.json")).json()
    assert titles["decks"] == 32
    assert sum(t["decks"] for t in titles["titles"]) >= 32
    assert any(1 in t["placings"] for t in titles["titles"])


def hidden_list_urls(slug: str) -> list[str]:
    """Every URL shape that could reach a decklist or the titles played."""
    shapes = []
    for stem in (f"/t/{slug}", f"/t/{slug}/"):
        shapes += [
            f"{stem}decklists" if stem.endswith("/") else f"{stem}/decklists",
        ]
    base = f"/t/{slug}"
    shapes += [
        f"{base}/decklists/",
        f"{base}/titles",
        f"{base}/titles/",
        f"{base}/decklists?page=1",
        f"{base}/decklists?lang=en",
        f"{base}/DECKLISTS",
        f"{base}/%64ecklists",
        f"{base}//decklists",
        f"{base}/api/decklists.json",
        f"{base}/api/decklists.json?page=1",
        f"{base}/api/decklists.json?page=2",
        f"{base}/api/titles.json",
        f"{base}/api/titles.json?lang=en",
        f"{base}/api/TITLES.json",
        f"{base}/api/decklists/0.json",
        f"{base}/api/decklists/01.json",
        f"{base}/api/decklists/-1.json",
        f"{base}/api/decklists/1.5.json",
        f"{base}/api/decklists/99999999999.json",
        f"{base}/api/decklists/%31.json",
        f"{base}/decklists/0",
        f"{base}/decklists/01",
    ]
    for number in range(1, 34):
        shapes += [
            f"{base}/decklists/{number}",
            f"{base}/decklists/{number}?lang=en",
            f"{base}/api/decklists/{number}.json",
        ]
    return shapes


async def test_unpublished_lists_cannot_be_read_by_any_url(running: Site) -> None:
    """Decklists are secret: lists stay private until /deck publish; the page answers 404
    (never 403) for every shape of address, and no card of any list is in any answer."""
    slug = await running.slug()
    tournament = await running.tournament()
    fingerprints = {deck.fingerprint for deck in tournament.decks.values()}
    for path in hidden_list_urls(slug):
        for method in ("GET", "HEAD"):
            response = await running.client.request(method, path)
            body = await response.text()
            assert response.status == 404, (method, path, response.status)
            assert "01-001" not in body, path
            assert not any(f in body for f in fingerprints), path
    # Nor do the pages that are public mention a list or link to one.
    for section in SECTIONS:
        _, page, _ = await get(running, f"/t/{slug}{section}")
        assert not any(f in page for f in fingerprints)
        assert "01-001" not in page
        assert data_island(page)["parts"]["overview"]["decks_published"] is False
    # The same addresses answer once the organizer publishes (a page load may be answered
    # from a version up to half a second old: within the page's 2 s).
    await running.services.decks.publish(running.event.admin, running.event.ref)
    deadline = asyncio.get_running_loop().time() + 2
    while (await running.client.get(f"/t/{slug}/decklists")).status != 200:
        assert asyncio.get_running_loop().time() < deadline, "the published lists within 2 s"
        await asyncio.sleep(0.05)
    for path in (f"/t/{slug}/decklists", f"/t/{slug}/api/titles.json", f"/t/{slug}/decklists/1"):
        assert (await running.client.get(path)).status == 200, path


async def test_a_hidden_page_is_not_found_everywhere_alike(running: Site) -> None:
    slug = await running.slug()
    paths = [f"{section}" for section in SECTIONS] + [f"/api/{part}.json" for part in PARTS]
    paths += ["/events", "/api/pairings.json?round=1"]
    # Read just before: hiding must not wait for the page's half-second freshness.
    assert (await running.client.get(f"/t/{slug}/pairings")).status == 200
    await running.services.tournaments.set_page(running.event.admin, running.event.ref, False)
    _, unknown_page, _ = await get(running, "/t/" + "A" * 22)
    _, unknown_json, _ = await get(running, "/t/" + "A" * 22 + "/api/overview.json")
    for path in paths:
        status, body, headers = await get(running, f"/t/{slug}{path}")
        assert status == 404, path
        assert body == (unknown_json if "/api/" in path else unknown_page), path
        assert headers["Content-Security-Policy"] == CSP
    for odd in ("/", "/t/", "/t/short", f"/t/{slug}x" * 3, "/t/../../etc/passwd", "/static/../x"):
        assert (await running.client.get(odd)).status == 404, odd
    # On again: the same address comes back.
    switch = await running.services.tournaments.set_page(
        running.event.admin, running.event.ref, True
    )
    assert switch.tournament.page_slug == slug
    assert (await running.client.get(f"/t/{slug}")).status == 200


async def test_there_is_no_write_endpoint(running: Site) -> None:
    slug = await running.slug()
    async with running.services.store.database.read() as connection:
        before = len(await list_actions(connection, guild_id=1))
    for path in (f"/t/{slug}", f"/t/{slug}/api/pairings.json", f"/t/{slug}/events", "/"):
        for method in ("POST", "PUT", "PATCH", "DELETE"):
            response = await running.client.request(method, path, data=b"{}")
            assert response.status in (404, 405), (method, path)
    routes = {
        route.method for route in running.client.app.router.routes() if route.method != "HEAD"
    }
    assert routes == {"GET"}
    async with running.services.store.database.read() as connection:
        assert len(await list_actions(connection, guild_id=1)) == before


async def next_event(lines: Any) -> tuple[str, dict[str, Any]]:
    name, data = "", ""
    async for raw in lines:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data = line[6:]
        elif line == "" and name:
            return name, json.loads(data)
    raise AssertionError("the stream ended")


async def test_a_confirmed_result_reaches_the_event_stream_within_two_seconds(
    running: Site,
) -> None:
    slug = await running.slug()
    response = await running.client.get(f"/t/{slug}/events")
    assert response.headers["Content-Type"] == "text/event-stream"
    assert response.headers["X-Accel-Buffering"] == "no"
    name, hello = await asyncio.wait_for(next_event(response.content), 2)
    assert name == "version"
    event = running.event
    _, current = await event.services.rounds.start_clock(event.admin, event.ref)
    name, started = await asyncio.wait_for(next_event(response.content), 2)
    assert started["version"] > hello["version"]
    assert started["stamps"]["overview"] == started["version"]
    table = current.matches[0]
    first, second = (event.by_id[p] for p in table.players)
    await event.services.rounds.report(first, event.ref, "win")
    await event.services.rounds.confirm(second, event.tournament_id, 1, table.table)
    confirmed_at = asyncio.get_running_loop().time()
    while True:
        name, notice = await asyncio.wait_for(next_event(response.content), 2)
        if notice["stamps"]["pairings"] != started["stamps"]["pairings"]:
            break
    assert asyncio.get_running_loop().time() - confirmed_at < 2
    # Only what changed moved: no list is public, nothing of the bracket either.
    assert notice["stamps"]["decklists"] == started["stamps"]["decklists"]
    pairings = await (await running.client.get(f"/t/{slug}/api/pairings.json")).json()
    shown = next(t for t in pairings["tables"] if t["table"] == table.table)
    assert shown["state"] == "finished"
    assert shown["result"]["winner"] == 0
    response.close()


async def test_a_new_version_is_made_before_anyone_asks_and_a_named_one_at_once(
    running: Site,
) -> None:
    """The page's answers are rebuilt off the request path: what was asked of the page as
    it was is made again for the new version before the readers hear of it, so their next
    load is a finished answer; a load naming the version it was told of gets that one."""
    slug = await running.slug()
    assert (await running.client.get(f"/t/{slug}/pairings")).status == 200
    stream = await running.client.get(f"/t/{slug}/events")
    _, hello = await asyncio.wait_for(next_event(stream.content), 2)
    event = running.event
    await event.services.rounds.start_clock(event.admin, event.ref)
    _, told = await asyncio.wait_for(next_event(stream.content), 2)
    assert told["version"] > hello["version"]
    made = await running.pages.state(slug)
    assert made is not None
    assert made.version == told["version"]
    assert ("page", "pairings", "ja") in made.rendered  # nobody asked since the commit
    _, page, _ = await get(running, f"/t/{slug}/pairings")
    assert data_island(page)["notice"]["version"] == told["version"]

    await event.services.rounds.extend(event.judge, event.ref, 1, 5)
    newest = running.pages.newest(event.tournament_id)
    assert newest is not None
    assert newest > told["version"]
    answer = await running.client.get(f"/t/{slug}/api/version.json?v={newest}")
    assert (await answer.json())["version"] == newest
    stream.close()


async def test_hiding_the_page_ends_its_streams(running: Site) -> None:
    slug = await running.slug()
    response = await running.client.get(f"/t/{slug}/events")
    await asyncio.wait_for(next_event(response.content), 2)
    await running.services.tournaments.set_page(running.event.admin, running.event.ref, False)
    name, _ = await asyncio.wait_for(next_event(response.content), 2)
    assert name == "gone"
    response.close()


async def test_each_client_has_a_request_budget_and_a_stream_cap(
    event_templates: dict[str, Path], tmp_path: Path
) -> None:
    limits = WebLimits(requests_per_second=0.5, burst=3, streams_per_client=1)
    async with open_site(event_templates["running"], tmp_path, limits) as site:
        slug = await site.slug()
        stream = await site.client.get(f"/t/{slug}/events")
        assert stream.status == 200
        second = await site.client.get(f"/t/{slug}/events")
        assert second.status == 429
        # Three requests in the burst (two streams and this page), then no more.
        assert (await site.client.get(f"/t/{slug}")).status == 200
        refused = await site.client.get(f"/t/{slug}")
        assert refused.status == 429
        assert refused.headers["Retry-After"]
        stream.close()


async def test_a_page_served_by_another_process_follows_by_polling(
    running: Site, tmp_path: Path
) -> None:
    """`python -m bot web`: its own connection to the same file hears no commits, so it
    polls the versions; a result confirmed by the bot still shows within 2 s."""
    from aiohttp.test_utils import TestClient, TestServer

    from bot.services import Services
    from bot.web.pages import LivePages
    from bot.web.server import build_app

    other = await open_database(running.services.store.database.path)
    pages = LivePages(Services(other).live)
    client = TestClient(TestServer(build_app(pages, WebLimits(burst=1000))))
    await client.start_server()
    poller = asyncio.get_running_loop().create_task(pages.poll(0.5))
    try:
        slug = await running.slug()
        before = await (await client.get(f"/t/{slug}/api/version.json")).json()
        event = running.event
        await event.services.rounds.start_clock(event.admin, event.ref)
        current: Round | None = (await running.tournament()).current
        assert current is not None
        table = current.matches[0]
        first, second = (event.by_id[p] for p in table.players)
        await event.services.rounds.report(first, event.ref, "win")
        await event.services.rounds.confirm(second, event.tournament_id, 1, table.table)
        for _ in range(20):
            await asyncio.sleep(0.1)
            now = await (await client.get(f"/t/{slug}/api/version.json")).json()
            if now["version"] > before["version"] + 2:
                break
        pairings = await (await client.get(f"/t/{slug}/api/pairings.json")).json()
        assert pairings["tables"][0]["state"] == "finished"
    finally:
        poller.cancel()
        await client.close()
        await other.close()


@pytest.mark.parametrize("path", ["/static/app.js", "/static/style.css", "/fonts/fonts.css"])
async def test_every_asset_is_served_by_the_bot(running: Site, path: str) -> None:
    response = await running.client.get(path)
    assert response.status == 200
    body = await response.text()
    assert "http://" not in body
    assert "https://" not in body


async def test_the_font_slices_cover_japanese_and_are_small(
    running: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slices = font_slices()
    assert slices.folder is not None
    monkeypatch.setattr(slices, "folder", tmp_path / "fonts" / slices.folder.name)
    monkeypatch.setattr(slices, "_read", {})
    css = await (await running.client.get("/fonts/fonts.css")).text()
    assert "U+3000-30FF" in css or "U+3000" in css
    index = next(
        int(n)
        for n, ranges in re.findall(r"/fonts/(\d+)\.woff.*?unicode-range:([^}]*)", css)
        if "U+3000" in ranges
    )
    # Not cut yet: not found (the browser keeps the reader's font); never cut on demand.
    assert (await running.client.get(f"/fonts/{index}.woff")).status == 404
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot.web.fonts", str(index)],
        env={**cli_env(), "FONT_SLICES_DIR": str(tmp_path / "fonts")},
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""  # what it did is in its log, not in the organizer's terminal
    assert "font slices cut" in (tmp_path / "fonts" / "cutting.log").read_text(encoding="utf-8")
    assert slices.file(index) is not None
    response = await running.client.get(f"/fonts/{index}.woff")
    body = await response.read()
    assert response.status == 200
    assert body[:4] == b"wOFF"
    assert len(body) < 200_000


async def test_before_any_round_has_finished_the_standings_are_the_entrants(running: Site) -> None:
    # Round 1 is paired and nothing is in: no ranks yet ("after round 0" means nothing), and
    # the page lists the entrants (the page script draws them without ranks).
    slug = await running.slug()
    standings = await (await running.client.get(f"/t/{slug}/api/standings.json")).json()
    assert standings["after_round"] == 0
    assert standings["final"] is False
    assert standings["total"] == 32
    assert all(row["top_cut"] is None and row["seed"] is None for row in standings["rows"])


async def test_each_table_links_to_its_match_room_once_the_room_is_given(running: Site) -> None:
    """The rooms are kept beside the tournament: when the delivery gives the round's rooms,
    the tournament's version moves on (`Store.rooms_shown`), the readers are told the
    pairings changed, and each table's JSON carries the link that opens its room."""

    event = running.event
    store = event.services.store
    slug = await running.slug()
    rooms_on = await event.services.tournaments.set_rooms(
        event.admin, event.ref, on=True, granted=frozenset({"manage_channels", "manage_roles"})
    )
    before = await (await running.client.get(f"/t/{slug}/api/pairings.json")).json()
    assert all(table["room"] is None for table in before["tables"])
    response = await running.client.get(f"/t/{slug}/events")
    _, hello = await asyncio.wait_for(next_event(response.content), 2)
    played = rooms_on.rounds[0]
    for match in played.matches:
        if len(match.players) == 2:
            record = RoomChannel(rooms_on.id, ROOM, match.table, f"卓{match.table}", None, 9, 0)
            await store.rooms.asking(rooms_on.id, ROOM, match.table, record.name, 9, 0)
            await store.rooms.made(
                rooms_on.guild_id,
                record,
                5000 + match.table,
                datetime.now(UTC),
                round_number=played.number,
                players=match.players,
            )
    await store.rooms_shown(rooms_on.guild_id, rooms_on.id, datetime.now(UTC))
    while True:
        _, notice = await asyncio.wait_for(next_event(response.content), 2)
        if notice["stamps"]["pairings"] != hello["stamps"]["pairings"]:
            break
    response.close()
    after = await (await running.client.get(f"/t/{slug}/api/pairings.json")).json()
    for table in after["tables"]:
        if len(table["seats"]) == 2:
            room = 5000 + table["table"]
            assert table["room"] == f"https://discord.com/channels/{rooms_on.guild_id}/{room}"
        else:
            assert table["room"] is None  # a bye plays nowhere

"""The real bot against the fake Discord: login, command tree, slash and button round trips,
gateway resume, restart on the same database, and what the fake itself promises."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from tests.e2e.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e

JSON = dict[str, Any]


async def test_the_bot_logs_in(fake: FakeDiscord) -> None:
    assert fake.bot is not None
    assert fake.bot.ready
    assert fake.requests_to("GET", "/users/@me")
    assert fake.requests_to("GET", "/oauth2/applications/@me")
    assert fake.gateway.identify_count == 1
    assert fake.gateway.ready


async def test_sync_records_the_tree_with_japanese_everywhere(fake: FakeDiscord) -> None:
    commands = await fake.sync_commands()
    assert fake.requests_to("PUT", f"/applications/{fake.world.app_id}/guilds/{fake.guild.id}/")
    assert "synced" in fake.processes[-1].stdout
    assert "help" in {c["name"] for c in commands}

    missing: list[str] = []

    def check(item: JSON, path: str) -> None:
        for key in ("name_localizations", "description_localizations"):
            if not ((item.get(key) or {}).get("ja") or "").strip():
                missing.append(f"{path}: {key}['ja']")
        for option in item.get("options") or []:
            check(option, f"{path} {option['name']}")
            for choice in option.get("choices") or []:
                if not ((choice.get("name_localizations") or {}).get("ja") or "").strip():
                    missing.append(f"{path} {option['name']} choice {choice['name']!r}")

    for command in commands:
        check(command, "/" + command["name"])
    assert not missing, "missing Japanese localizations:\n" + "\n".join(missing)

    global_commands = await fake.sync_commands(global_=True)
    assert fake.requests_to("PUT", f"/applications/{fake.world.app_id}/commands")
    assert sorted(c["name"] for c in global_commands) == sorted(c["name"] for c in commands)


@pytest.mark.parametrize(
    ("locale", "title"), [("en-US", "Commands"), ("ja", "コマンド一覧"), ("en-GB", "Commands")]
)
async def test_help_round_trip(fake: FakeDiscord, locale: str, title: str) -> None:
    reply = await fake.slash("help", user="alice", locale=locale)
    assert reply.type == 4
    assert reply.ephemeral
    assert reply.embed["title"] == title
    pages = [reply.text]
    while "/help" not in pages[-1] and "▶" in str(reply.components) and len(pages) < 10:
        reply = await fake.click(reply, "▶", user="alice", locale=locale)
        pages.append(reply.text)
    assert "/help" in pages[-1]  # /help lists itself, on some page


async def test_help_button_round_trip(fake: FakeDiscord) -> None:
    reply = await fake.slash("help", user="bob", locale="en-US")
    assert reply.embed["footer"]["text"].startswith("Page 1 of ")
    assert "pg:help:en:0:p" in reply.custom_ids  # restart-proof page buttons

    pressed = await fake.click(reply, "▶", user="bob")
    assert pressed.type == 7  # UPDATE_MESSAGE: the /help message itself changes
    assert pressed.embed["title"] == "Commands"
    assert pressed.embed["footer"]["text"].startswith("Page 2 of ")
    assert pressed.message is not None
    assert reply.message is not None
    assert pressed.message["id"] == reply.message["id"]
    assert reply.embed["footer"]["text"].startswith("Page 2 of ")  # replies read live state

    back = await fake.click(reply, "◀", user="bob")
    assert back.type == 7
    assert back.embed["footer"]["text"].startswith("Page 1 of ")


async def test_japanese_buttons_stay_japanese(fake: FakeDiscord) -> None:
    reply = await fake.slash("help", user="carol", locale="ja")
    with pytest.raises(AssertionError, match="is disabled"):
        await fake.click(reply, "◀", user="carol")  # nobody can press a disabled button
    assert "pg:help:ja:1:n" in reply.custom_ids
    pressed = await fake.click_custom_id(reply, "pg:help:ja:1:n", user="carol", locale="ja")
    assert pressed.type == 7
    assert pressed.embed["title"] == "コマンド一覧"
    assert pressed.embed["footer"]["text"].startswith("2/")


async def test_interactions_in_direct_messages(fake: FakeDiscord) -> None:
    reply = await fake.slash("help", user="dave", dm=True, locale="ja")
    assert reply.type == 4
    assert "guild_id" not in reply.interaction
    assert reply.interaction["user"]["username"] == "dave"


async def test_gateway_resume(fake: FakeDiscord) -> None:
    await fake.reconnect_gateway()
    assert fake.gateway.resume_count == 1
    assert fake.gateway.identify_count == 1
    reply = await fake.slash("help", user="erin")
    assert reply.embed["title"] == "Commands"


async def test_responses_look_like_discord(fake: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake.api_url}/users/@me", headers=headers) as response:
            assert response.status == 200
            assert response.headers["Content-Type"] == "application/json"
            for name in ("Limit", "Remaining", "Reset", "Reset-After", "Bucket"):
                assert f"X-RateLimit-{name}" in response.headers
        async with session.get(f"{fake.api_url}/users/@me") as response:
            assert response.status == 401
            assert await response.json() == {"message": "401: Unauthorized", "code": 0}
        async with session.get(f"{fake.api_url}/no/such/route", headers=headers) as response:
            assert response.status == 404
            assert response.headers["Content-Type"] == "application/json"
    assert fake.unknown_routes == ["GET /api/v10/no/such/route"]
    with pytest.raises(AssertionError, match="routes the fake does not know"):
        fake.assert_no_unknown_routes()
    fake.world.unknown_routes.clear()


async def test_the_token_never_reaches_the_log(fake: FakeDiscord) -> None:
    assert fake.bot is not None
    assert " DEBUG " in fake.bot.stderr, "the e2e bot should run at LOG_LEVEL=DEBUG"
    fake.assert_token_not_logged()


async def test_restart_on_the_same_database(fake: FakeDiscord) -> None:
    before = await fake.slash("help", user="frank", locale="en-US")
    database = fake.database
    stopped = await fake.stop_bot()  # SIGTERM → exit 0, token never logged
    assert "SIGTERM received" in stopped.stderr
    assert "database closed" in stopped.stderr
    assert "Traceback" not in stopped.stderr

    restarted = await fake.start_bot()
    assert restarted is not stopped
    assert fake.database == database
    assert fake.gateway.identify_count == 2
    # The page buttons carry their state in the custom id, so they survive the restart.
    pressed = await fake.click(before, "▶", user="frank")
    assert pressed.type == 7
    assert pressed.embed["footer"]["text"].startswith("Page 2 of ")
    fake.assert_no_errors_logged()

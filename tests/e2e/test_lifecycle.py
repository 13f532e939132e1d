"""Start-up failures of the real bot against the fake Discord (a fresh fake per test)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord.harness import BotProcess

pytestmark = pytest.mark.e2e


@pytest.fixture
def lonely_fake() -> Iterator[FakeDiscord]:
    with FakeDiscord() as fake:
        yield fake


def assert_rejected_token_message(process: BotProcess) -> None:
    assert "Traceback" not in process.stderr
    assert "DISCORD_TOKEN" in process.stderr
    assert "rejected" in process.stderr  # English
    assert "拒否" in process.stderr  # Japanese
    assert "Reset Token" in process.stderr


async def test_a_rejected_token_exits_2_with_a_bilingual_message(
    lonely_fake: FakeDiscord, tmp_path: Path
) -> None:
    fake = lonely_fake
    bot = await fake.start_bot(tmp_path, wait_ready=False, DISCORD_TOKEN="not-the-token")
    assert await fake.wait_exit() == 2
    assert_rejected_token_message(bot)
    assert "not-the-token" not in bot.stderr
    login = fake.requests_to("GET", "/users/@me")
    assert login
    assert login[0].status == 401
    assert fake.gateway.identify_count == 0


async def test_sync_with_a_rejected_token_exits_2(lonely_fake: FakeDiscord, tmp_path: Path) -> None:
    fake = lonely_fake
    fake.token = "another-token-the-fake-rejects"  # the bot keeps sending the old one
    fake.world.token = "the-only-token-the-fake-accepts"
    with pytest.raises(AssertionError, match="failed with 2"):
        await fake.sync_commands()
    assert_rejected_token_message(fake.processes[-1])
    assert fake.commands(fake.guild) == []


async def test_a_second_guild_is_served_separately(
    lonely_fake: FakeDiscord, tmp_path: Path, synced_commands: list[dict[str, object]]
) -> None:
    fake = lonely_fake
    second = fake.add_guild("Second Server", preferred_locale="en-US")
    fake.load_commands(synced_commands)
    fake.load_commands(synced_commands, guild=second)
    await fake.start_bot(tmp_path)
    here = await fake.slash("help", user="alice", locale="ja")
    there = await fake.slash("help", user="alice", guild=second, locale="en-US")
    assert here.interaction["guild_id"] == str(fake.guild.id)
    assert there.interaction["guild_id"] == str(second.id)
    assert there.interaction["guild_locale"] == "en-US"
    assert fake.member("alice", second).id == fake.member("alice").id  # same user, two guilds
    assert (here.embed["title"], there.embed["title"]) == ("コマンド一覧", "Commands")
    stopped = await fake.stop_bot()
    assert "database closed" in stopped.stderr

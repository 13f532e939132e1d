"""Start-up failures of the real bot against the fake Discord (a fresh fake per test)."""

from __future__ import annotations

import signal
import sqlite3
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


async def test_a_japanese_terminal_reads_the_start_and_the_stop_in_japanese(
    lonely_fake: FakeDiscord, tmp_path: Path
) -> None:
    # The README and the guide told the organizer to wait for 「bot ready: logged in as …」:
    # the operators' log line, in English. The organizer's lines are in the terminal's
    # language, in order with the log, and the README quotes them
    # (tests/docs/test_setup_in_two_languages.py).
    fake = lonely_fake
    bot = await fake.start_bot(tmp_path, LANG="ja_JP.UTF-8")
    await fake.wait_for(lambda: "起動しました" in bot.stderr, "the organizer's line")
    (ready,) = [line for line in bot.stderr_lines if "起動しました" in line]
    assert ready.startswith("起動しました（")
    assert "/ヘルプ" in ready
    assert "Ctrl + C" in ready
    stopped = await fake.stop_bot()
    lines = stopped.stderr_lines
    said = [line for line in lines if line.startswith(("止めています", "止まりました"))]
    assert said == [
        "止めています。実行中のコマンドが終わるのを待ってから、データを保存して終了します。",
        "止まりました。データはすべて保存されています。",
    ]
    assert lines[-1] == said[-1]  # the last line: after the database is closed
    english = await fake.start_bot(tmp_path)
    await fake.wait_for(lambda: "The bot is running" in english.stderr, "the English line")
    assert "Type /help in Discord" in english.stderr
    assert "Stopped. Everything is saved." in (await fake.stop_bot()).stderr


def hold_write_lock(database: Path) -> sqlite3.Connection:
    """Take SQLite's write lock from outside the bot, as a second process would.

    The bot's next write then waits on its busy timeout (5 s): a real command, made slow.
    """
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def count_lines(fake: FakeDiscord, text: str) -> int:
    assert fake.bot is not None
    return sum(text in line for line in list(fake.bot.stderr_lines))


async def test_sigterm_lets_a_command_in_flight_finish_and_turns_new_ones_away(
    lonely_fake: FakeDiscord, tmp_path: Path, synced_commands: list[dict[str, object]]
) -> None:
    fake = lonely_fake
    fake.load_commands(synced_commands, guild=fake.guild)
    await fake.start_bot(tmp_path)
    created = await fake.slash(
        "tournament create",
        user="owner",
        options={"name": "Drain Cup", "format": "swiss", "regulation": "mix"},
    )
    assert "Drain Cup" in created.text
    assert fake.database is not None
    holder = hold_write_lock(fake.database)
    try:
        started = count_lines(fake, "task(s) in flight)")
        # Acknowledged, not answered: the bot waits on SQLite. The Reply reads the answer
        # later.
        register = await fake.slash("register", user="alice", expect_response=False)
        await fake.wait_for_log("task(s) in flight)", after=started)
        assert register.type == 5  # acknowledged before its write, which waits on SQLite
        assert fake.bot is not None
        fake.bot.process.send_signal(signal.SIGTERM)
        await fake.wait_for_log("interaction(s) in flight")
        # Shutting down: a new command gets a polite private answer and changes nothing.
        late = await fake.slash("register", user="bob", locale="ja")
        assert late.ephemeral
        assert "再起動" in late.text
        assert fake.bot.alive, "the bot closed while a command was still running"
    finally:
        holder.rollback()
        holder.close()
    assert await fake.wait_exit() == 0
    assert 'You are registered for "Drain Cup"' in register.text
    stderr = fake.bot.stderr
    assert "Traceback" not in stderr
    assert "no active connection" not in stderr
    assert "did not finish in time" not in stderr
    assert stderr.index("interaction(s) in flight") < stderr.index("database closed")
    with sqlite3.connect(fake.database) as db:
        players = db.execute("SELECT COUNT(*) FROM players").fetchone()[0]
    assert players == 1  # alice, not bob


async def test_a_command_still_running_after_the_grace_period_is_cancelled(
    lonely_fake: FakeDiscord, tmp_path: Path, synced_commands: list[dict[str, object]]
) -> None:
    fake = lonely_fake
    fake.load_commands(synced_commands, guild=fake.guild)
    await fake.start_bot(tmp_path, SHUTDOWN_TIMEOUT="0.5")
    await fake.slash(
        "tournament create",
        user="owner",
        options={"name": "Late Cup", "format": "swiss", "regulation": "mix"},
    )
    assert fake.database is not None
    holder = hold_write_lock(fake.database)
    try:
        started = count_lines(fake, "task(s) in flight)")
        await fake.slash("register", user="alice", expect_response=False)
        await fake.wait_for_log("task(s) in flight)", after=started)
        assert fake.bot is not None
        fake.bot.process.send_signal(signal.SIGTERM)
        await fake.wait_for_log("cancelling 1 interaction(s) still running")
    finally:
        # SQLite's busy wait cannot be interrupted: let it return, into a cancelled task.
        holder.rollback()
        holder.close()
    assert await fake.wait_exit() == 0
    stderr = fake.bot.stderr
    assert "1 interaction(s) did not finish in time" in stderr
    assert "Traceback" not in stderr
    with sqlite3.connect(fake.database) as db:
        assert db.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 0


def global_syncs(fake: FakeDiscord) -> list[object]:
    return fake.requests_to("PUT", f"/applications/{fake.world.app_id}/commands")


def guild_syncs(fake: FakeDiscord) -> list[object]:
    return fake.requests_to("PUT", f"/applications/{fake.world.app_id}/guilds/")


async def test_start_up_syncs_only_when_the_command_tree_changed(
    lonely_fake: FakeDiscord, tmp_path: Path, synced_commands: list[dict[str, object]]
) -> None:
    fake = lonely_fake
    await fake.start_bot(tmp_path)
    assert len(global_syncs(fake)) == 1, "the first start did not sync"
    assert sorted(c["name"] for c in fake.commands()) == sorted(
        str(c["name"]) for c in synced_commands
    )
    ja_names = {c.get("name_localizations", {}).get("ja") for c in fake.commands()}
    assert ja_names - {None}, "the synced tree lost its Japanese names"
    await fake.restart_bot()
    assert len(global_syncs(fake)) == 1, "the second start synced an unchanged tree"
    await fake.stop_bot()
    # A different tree (here: a stale stored hash) syncs again.
    assert fake.database is not None
    with sqlite3.connect(fake.database) as db:
        db.execute("UPDATE command_sync SET tree_hash = 'stale'")
    await fake.start_bot()
    assert len(global_syncs(fake)) == 2
    await fake.stop_bot()


async def test_start_up_sync_goes_to_dev_guild_and_can_be_turned_off(
    lonely_fake: FakeDiscord, tmp_path: Path
) -> None:
    fake = lonely_fake
    await fake.start_bot(tmp_path, AUTO_SYNC="false")
    await fake.stop_bot()
    assert not global_syncs(fake)
    assert not guild_syncs(fake)
    await fake.start_bot(DEV_GUILD_ID=str(fake.guild.id))
    assert len(guild_syncs(fake)) == 1
    assert not global_syncs(fake)
    assert fake.commands(fake.guild)
    await fake.restart_bot()  # restart_bot keeps no overrides: this start syncs globally
    assert len(global_syncs(fake)) == 1
    await fake.stop_bot()
    await fake.start_bot(DEV_GUILD_ID=str(fake.guild.id))
    assert len(guild_syncs(fake)) == 1, "the guild's tree was unchanged"
    await fake.stop_bot()


async def test_manual_sync_counts_as_the_last_sync(
    lonely_fake: FakeDiscord, tmp_path: Path
) -> None:
    fake = lonely_fake
    fake.workdir = tmp_path
    await fake.sync_commands()  # python -m bot sync --guild ID, on the bot's database
    await fake.start_bot(DEV_GUILD_ID=str(fake.guild.id))
    assert len(guild_syncs(fake)) == 1
    await fake.stop_bot()

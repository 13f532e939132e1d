"""Fixtures of the end-to-end tests: one fake Discord and one real bot per test module.

`fake` (module scope) is a started `FakeDiscord` with the command tree synced once per
session by `python -m bot sync --guild`, and the bot running on a fresh database.
When a test fails, the bot's stderr is attached to the report.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.fake_discord import FakeDiscord

JSON = dict[str, Any]


@pytest.fixture(scope="session")
def synced_commands(tmp_path_factory: pytest.TempPathFactory) -> list[JSON]:
    """The command tree as `python -m bot sync --guild ID` registers it (run once)."""
    with FakeDiscord() as fake:
        fake.workdir = tmp_path_factory.mktemp("sync")
        commands = asyncio.run(fake.sync_commands())
        fake.assert_no_unknown_routes()
    assert commands, "`python -m bot sync` registered no commands"
    return commands


@pytest.fixture(scope="module")
def fake(
    synced_commands: list[JSON], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FakeDiscord]:
    """A fake Discord with the real bot logged in; shared by the tests of one module."""
    discord = FakeDiscord()
    discord.start()
    try:
        discord.load_commands(synced_commands)
        # The commands were synced to the guild (`python -m bot sync --guild`), as a
        # developer does; a global sync on top would give every command a second id.
        discord.default_env["AUTO_SYNC"] = "false"
        asyncio.run(discord.start_bot(tmp_path_factory.mktemp("bot")))
        yield discord
        if discord.bot is not None and discord.bot.alive:
            asyncio.run(discord.stop_bot())
        discord.assert_no_unknown_routes()
        discord.assert_token_not_logged()
    finally:
        discord.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.failed:
        fakes = [v for v in getattr(item, "funcargs", {}).values() if isinstance(v, FakeDiscord)]
        for found in fakes:
            for process in found.processes[-3:]:
                report.sections.append(
                    (f"bot stderr ({' '.join(process.args) or 'run'})", process.tail(200))
                )
    return report

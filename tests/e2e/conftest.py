"""Fixtures of the end-to-end tests: one fake Discord and one real bot per test module.

`fake` (module scope) is a started `FakeDiscord` with the command tree synced once per
session by `python -m bot sync --guild`, and the bot running on a fresh database: each
module runs twice, on SQLite and on PostgreSQL (`backends=` narrows it, saying why). A
module that needs other settings makes its own with `bot_fixture`, e.g.
`fake = bot_fixture("event", CLOCK_SPEED="300")`.
When a test fails, the bot's stderr is attached to the report.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import BACKENDS
from tests.e2e.fake_discord import FakeDiscord
from tests.support.postgres import PostgresServer

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


@contextmanager
def running_fake(
    synced_commands: list[JSON],
    workdir: Path,
    *,
    before_start: Callable[[FakeDiscord], None] | None = None,
    options: Mapping[str, Any] | None = None,
    database_url: str | None = None,
    check_limits: bool = True,
    **env: str,
) -> Iterator[FakeDiscord]:
    """A started fake Discord (`FakeDiscord(**options)`) with the real bot logged in, run in
    `workdir` on `workdir/bot.sqlite3` (or on PostgreSQL at `database_url`) with `env` on
    top of the defaults.

    `before_start(fake)` runs before the bot starts (add members, fill the database). On
    the way out the bot is stopped, and no unknown route may have been hit nor the token
    logged; with `check_limits`, the bot must have kept to Discord's limits (no 429, at
    most 1 invalid answer per 1,000 requests: `assert_within_discord_limits`).
    """
    discord = FakeDiscord(**(options or {}))
    discord.start()
    try:
        discord.load_commands(synced_commands)
        # The commands were synced to the guild (`python -m bot sync --guild`), as a
        # developer does; a global sync on top would give every command a second id.
        discord.default_env.update(AUTO_SYNC="false", **env)
        discord.database = workdir / "bot.sqlite3"
        discord.database_url = database_url
        if before_start is not None:
            before_start(discord)
        asyncio.run(discord.start_bot(workdir))
        yield discord
        if discord.bot is not None and discord.bot.alive:
            asyncio.run(discord.stop_bot())
        discord.assert_no_unknown_routes()
        discord.assert_token_not_logged()
        if check_limits and discord.rate_limits:
            discord.assert_within_discord_limits()
    finally:
        discord.close()


def bot_fixture(
    folder_name: str,
    *,
    before_start: Callable[[FakeDiscord], None] | None = None,
    options: Mapping[str, Any] | None = None,
    backends: tuple[Any, ...] = BACKENDS,
    check_limits: bool = True,
    **env: str,
) -> Any:
    """A module-scoped fixture: `running_fake` in a fresh folder named after `folder_name`,
    once per backend of `backends` (both by default; a fresh PostgreSQL database each).
    `check_limits=False` skips the teardown's check of Discord's limits for the module: say
    which behaviour of the bot breaks them.

    Assign it to the fixture's name in the module: `fake = bot_fixture("judges", ...)`.
    """

    @pytest.fixture(scope="module", params=backends)
    def running(
        request: pytest.FixtureRequest,
        synced_commands: list[JSON],
        tmp_path_factory: pytest.TempPathFactory,
    ) -> Iterator[FakeDiscord]:
        """A fake Discord with the real bot logged in; shared by the tests of one module."""
        database_url = None
        if request.param == "postgres":
            server: PostgresServer = request.getfixturevalue("postgres_server")
            database_url = server.create_database("e2e")
        with running_fake(
            synced_commands,
            tmp_path_factory.mktemp(folder_name),
            before_start=before_start,
            options=options,
            database_url=database_url,
            check_limits=check_limits,
            **env,
        ) as discord:
            yield discord

    return running


fake = bot_fixture("bot")


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

"""Shared fixtures: a clean environment so a developer's own `.env` never leaks into tests."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.postgres import PostgresServer, running_server

REPO_ROOT = Path(__file__).resolve().parents[1]

# Speed is measured in bench/, never asserted: no per-example deadline (200 ms by default),
# which a busy machine or a parallel run misses now and then. Tests that set their own keep it.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

_SETTINGS_VARIABLES = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "LOG_LEVEL",
    "DEV_GUILD_ID",
    "DEFAULT_LOCALE",
    "DISCORD_API_BASE_URL",
    "DISCORD_GATEWAY_URL",
    "GUILD_READY_TIMEOUT",
    "AUTO_SYNC",
    "SHUTDOWN_TIMEOUT",
    "UNCONFIRMED_REPORT_MINUTES",
    "CLOCK_TICK_SECONDS",
    "CLOCK_GRACE_SECONDS",
    "CLOCK_SPEED",
    "DATABASE_URL",
    "SHARD_COUNT",
    "SHARD_IDS",
    "OUTBOX_CLAIM_SECONDS",
    "CLOCK_OFFSET_MINUTES",
)

# The backends the store, service and end-to-end suites run against. A test that is for one
# backend only says why where it is marked.
BACKENDS = (
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole session (initdb + pg_ctl, about 3 s); skipped,
    saying how to run it, where PostgreSQL is not installed (a failure under
    REQUIRE_POSTGRES=1)."""
    with running_server() as server:
        yield server


@pytest.fixture(scope="module")
def own_postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the module's own, which its tests may stop, restart and crash
    for real: the session's shared one never stops under other tests."""
    with running_server() as server:
        yield server


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database_location(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a fresh database lives: an SQLite file, or a new PostgreSQL database (a copy of
    one migrated once per session)."""
    if backend == "sqlite":
        return str(tmp_path / "bot.sqlite3")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.create_database(template=server.migrated_template())


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Run in an empty folder (no `.env`) with none of the bot's variables set."""
    for name in _SETTINGS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


# Where the bot processes the tests start keep their compiled bytecode when the machine
# says not to write it beside the sources (PYTHONDONTWRITEBYTECODE, set on ours): else each
# of the ~100 processes of a run compiles the project again, a quarter of its start-up CPU.
BYTECODE_CACHE = Path(tempfile.gettempdir()) / "pmbot-test-pycache"


def cli_env(**overrides: str) -> dict[str, str]:
    """The environment for `python -m bot` in a subprocess: ours minus the bot's settings."""
    env = {k: v for k, v in os.environ.items() if k not in _SETTINGS_VARIABLES}
    # The command line speaks the terminal's language: the tests' terminal is not Japanese
    # unless a test says so (LANG=ja_JP.UTF-8), whatever the machine's.
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        env.pop(name, None)
    env["LANG"] = "C.UTF-8"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env["PYTHONIOENCODING"] = "utf-8"
    if env.pop("PYTHONDONTWRITEBYTECODE", None):
        env.setdefault("PYTHONPYCACHEPREFIX", str(BYTECODE_CACHE))
    env.update(overrides)
    return env


PYTHON = sys.executable


def database_env(location: str) -> dict[str, str]:
    """The variables that point `python -m bot` at the database at `location`."""
    if location.startswith("postgresql://"):
        return {"DATABASE_URL": location}
    return {"DATABASE_PATH": location}


def database_location_of(database: object) -> str:
    """Where an open `Database` lives (a path or a URL)."""
    url = getattr(database, "url", None)
    return str(url) if url is not None else str(getattr(database, "path"))  # noqa: B009


def edit_behind_the_bots_back(location: str, *statements: str) -> None:
    """Run SQL on the database directly, as someone with a database client would."""
    if location.startswith("postgresql://"):
        import asyncio

        import asyncpg

        async def run() -> None:
            raw = await asyncpg.connect(location)
            try:
                for statement in statements:
                    await raw.execute(statement)
            finally:
                await raw.close()

        asyncio.run(run())
        return
    import sqlite3

    with sqlite3.connect(location) as raw:
        for statement in statements:
            raw.execute(statement)

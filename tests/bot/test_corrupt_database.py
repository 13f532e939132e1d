"""A database file that is not a usable SQLite database (random bytes, or a real one cut short).

Every subcommand that opens the database must exit with code 2 and say, in Japanese and
English, that the file is damaged and how to restore a backup. Before, `run` and `migrate`
printed "file is not a database" and then hung forever: the aiosqlite thread of the
connection whose PRAGMA failed was never stopped, so a process manager never saw an exit.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import pytest

from bot.services import Services
from bot.services.actors import Actor
from bot.store.database import open_database
from tests.conftest import PYTHON, cli_env
from tests.support.big_event import running_event

# A hang is forever; this only keeps a regression from blocking the suite. The exit takes
# about a second (the figures are in the report of the change, not asserted here).
HANG = 30

# Each subcommand that opens DATABASE_PATH, with the arguments it needs.
SUBCOMMANDS: dict[str, tuple[str, ...]] = {
    "run (default)": (),
    "migrate": ("migrate",),
    "sync": ("sync", "--guild", "1"),
    "verify": ("verify",),
    "backup": ("backup", "copy.sqlite3"),
    "export": ("export", "1"),
}


def random_file(folder: Path) -> Path:
    path = folder / "bot.sqlite3"
    path.write_bytes(os.urandom(65536))
    return path


async def _fill(path: Path) -> None:
    database = await open_database(path)
    try:
        services = Services(database)
        guild = 1000
        await running_event(
            services,
            admin=Actor(1, guild, "Admin", manages_guild=True),
            organizer=Actor(2, guild, "Organizer", frozenset({11})),
            players=[Actor(100 + n, guild, f"Player {n}") for n in range(32)],
            organizer_role=11,
            judge_role=12,
        )
    finally:
        await database.close()


def half_truncated_file(folder: Path) -> Path:
    """A real database (migrations applied, an event with decks and a paired round) cut to
    half its size, as a full disk or a bad copy leaves it."""
    path = folder / "bot.sqlite3"
    asyncio.run(_fill(path))
    assert not Path(f"{path}-wal").exists()  # closing checkpointed everything into the file
    size = path.stat().st_size
    with path.open("r+b") as handle:
        handle.truncate(size // 2)
    return path


DAMAGES = {"random bytes": random_file, "cut to half": half_truncated_file}


@pytest.mark.parametrize("damage", DAMAGES)
@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_a_damaged_database_exits_2_with_restore_steps(
    tmp_path: Path, damage: str, command: str
) -> None:
    database = DAMAGES[damage](tmp_path)
    before = database.read_bytes()
    try:
        result = subprocess.run(
            [PYTHON, "-m", "bot", *SUBCOMMANDS[command]],
            cwd=tmp_path,
            env=cli_env(DATABASE_PATH=str(database), DISCORD_TOKEN="t.o.k"),
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=HANG,
        )
    except subprocess.TimeoutExpired as hung:
        pytest.fail(f"{command} did not exit on a damaged database: {hung.stderr!r}")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "壊れていて" in result.stderr
    assert "is damaged" in result.stderr
    # It says where the restore steps are, in both languages.
    assert "バックアップから戻して" in result.stderr
    assert "restore it from a backup" in result.stderr
    assert "README.md" in result.stderr
    assert "docs/OPERATIONS.md" in result.stderr
    # Nothing tried to repair or overwrite the damaged file: it is evidence to keep.
    assert database.read_bytes() == before
    assert not (tmp_path / "copy.sqlite3").exists()

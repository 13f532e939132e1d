"""A backup taken mid-event: the restored copy verifies and has the same
standings, while the live event goes on."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

from bot.services import Services
from bot.store.database import open_database
from tests.bot.test_cli import run_cli
from tests.conftest import database_env, database_location_of
from tests.services.conftest import LEGAL_DECK, NOW, organizer, player


async def test_a_backup_mid_event_restores_to_the_same_standings_and_verifies(
    configured: Services, tmp_path: Path
) -> None:
    services = configured
    await services.tournaments.create(
        organizer(), name="Backup Cup", format="swiss", regulation="single"
    )
    for number in range(1, 7):
        await services.registration.register(player(number), None)
        await services.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
    await services.lifecycle.start(organizer(), None)
    paired = await services.rounds.pair(organizer(), None)
    first, second = paired.round.matches[0].players
    await services.rounds.report(player(first - 100), None, "win")
    await services.rounds.confirm(player(second - 100), paired.tournament.id, 1, 1)
    before = await services.rounds.standings(1000, None)

    location = database_location_of(services.store.database)
    copy = tmp_path / "backup.dump"
    backed = await asyncio.to_thread(
        run_cli, "backup", str(copy), cwd=tmp_path, **database_env(location)
    )
    assert backed.returncode == 0, backed.stderr
    # The live event goes on after the backup; the copy keeps the moment it was taken.
    await services.rounds.drop(player(3), None)

    restored = await asyncio.to_thread(restore, copy, location, tmp_path)
    verified = await asyncio.to_thread(run_cli, "verify", cwd=tmp_path, **database_env(restored))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "agrees" in verified.stdout
    database = await open_database(restored)
    try:
        again = await Services(database, clock=lambda: NOW).rounds.standings(1000, None)
    finally:
        await database.close()
    assert again.lines == before.lines
    assert again.tournament == before.tournament


def restore(backup: Path, live: str, folder: Path) -> str:
    """Restore as README "Backups" says: copy the SQLite file over DATABASE_PATH, or
    pg_restore the dump into a new PostgreSQL database."""
    if not live.startswith("postgresql://"):
        restored = folder / "restored" / "bot.sqlite3"
        restored.parent.mkdir()
        shutil.copy(backup, restored)
        return str(restored)
    server_url, _ = live.rsplit("/", 1)
    name = "restored_" + folder.name.lower().replace("-", "_")[-20:]
    subprocess.run(
        ["psql", "-X", "-q", "-d", f"{server_url}/postgres", "-c", f'CREATE DATABASE "{name}"'],
        check=True,
    )
    subprocess.run(
        ["pg_restore", "--exit-on-error", f"--dbname={server_url}/{name}", str(backup)], check=True
    )
    return f"{server_url}/{name}"

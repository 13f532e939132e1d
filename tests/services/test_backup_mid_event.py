"""A backup taken mid-event (issue 12): the restored copy verifies and has the same
standings, while the live event goes on."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from bot.services import Services
from bot.store.database import Database
from tests.bot.test_cli import run_cli
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

    live = Path(services.store.database.path)
    copy = tmp_path / "backup.sqlite3"
    backed = await asyncio.to_thread(
        run_cli, "backup", str(copy), cwd=tmp_path, DATABASE_PATH=str(live)
    )
    assert backed.returncode == 0, backed.stderr
    # The live event goes on after the backup; the copy keeps the moment it was taken.
    await services.rounds.drop(player(3), None)

    restored = tmp_path / "restored" / "bot.sqlite3"
    restored.parent.mkdir()
    shutil.copy(copy, restored)  # README "Backups": copy the backup over DATABASE_PATH
    verified = await asyncio.to_thread(run_cli, "verify", cwd=tmp_path, DATABASE_PATH=str(restored))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "agrees" in verified.stdout
    database = await Database.open(restored)
    try:
        again = await Services(database, clock=lambda: NOW).rounds.standings(1000, None)
    finally:
        await database.close()
    assert again.lines == before.lines
    assert again.tournament == before.tournament

"""When SQLite itself fails (another program holds the write lock, the disk is full), a
service raises a typed `StorageError`, nothing of the transaction remains, and the same call
succeeds once the cause is gone. On real SQLite files with the migrations applied."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from bot.errors import StorageBusy, StorageError, StorageFull
from bot.services import Services
from bot.store.backend import Database
from tests.services.conftest import LEGAL_DECK, organizer, player

# The bot waits BUSY_TIMEOUT_MS (5 s) for the lock; these tests wait less, so the suite
# stays quick. The end-to-end test (tests/e2e/test_storage_errors.py) keeps the 5 s.
SHORT_BUSY_TIMEOUT_MS = 200


@pytest.fixture
def backend() -> str:
    """SQLite only: SQLite's own storage failures (its write lock held by another
    program, a full disk); PostgreSQL's are its server's."""
    return "sqlite"


def everything(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, read from the file by another connection."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as reader:
        tables = [
            name
            for (name,) in reader.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {table: sorted(reader.execute(f"SELECT * FROM {table}")) for table in tables}


@contextmanager
def write_lock_held(path: Path) -> Iterator[None]:
    """Another program's write transaction on `path`, open until the block ends."""
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE guild_config SET locale = locale")  # it writes too
        try:
            yield
        finally:
            other.execute("ROLLBACK")


PLAYERS = 256


@pytest.fixture
async def event(configured: Services, database: Database) -> Services:
    """A started event of 256 players, round 1 not yet paired: pairing it writes a round,
    128 matches and the log, more than the room left in the file's pages."""
    await configured.tournaments.create(
        organizer(), name="Cup", format="swiss", regulation="single"
    )
    for number in range(PLAYERS):
        await configured.registration.register(player(number), None)
        await configured.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
    await configured.lifecycle.start(organizer(), None)
    # No free pages left inside the file (migrations that rebuild a table leave some), so
    # "the file may not grow" means pairing finds no room.
    await database.connection.execute("VACUUM")
    await database.connection.execute(f"PRAGMA busy_timeout = {SHORT_BUSY_TIMEOUT_MS}")
    return configured


async def test_a_held_write_lock_is_storage_busy_and_nothing_is_written(
    event: Services, database: Database
) -> None:
    path = Path(database.path)
    before = everything(path)
    with write_lock_held(path):
        with pytest.raises(StorageBusy) as busy:
            await event.rounds.pair(organizer(), None)
        with pytest.raises(StorageBusy):
            await event.rounds.drop(player(1), None)
    assert "SQLITE_BUSY" in busy.value.detail
    assert isinstance(busy.value.__cause__, sqlite3.OperationalError)
    assert everything(path) == before
    # The lock is gone: the same calls go through, each logged once.
    paired = await event.rounds.pair(organizer(), None)
    assert len(paired.round.matches) == PLAYERS // 2
    await event.rounds.drop(player(1), None)
    added = [row for row in everything(path)["action_log"] if row not in before["action_log"]]
    assert len(added) == 2


async def test_a_full_disk_is_storage_full_rolled_back_and_told_once(
    event: Services, database: Database
) -> None:
    path = Path(database.path)
    told: list[StorageFull] = []
    database.on_storage_full.append(told.append)
    before = everything(path)
    # SQLite's own SQLITE_FULL: the file may not grow by a single page (SQLite keeps it at
    # its current size). Pairing needs several, so the failure comes in the middle of the
    # transaction, after some of its rows were written.
    await database.connection.execute("PRAGMA max_page_count = 1")
    for _ in range(2):
        with pytest.raises(StorageFull) as full:
            await event.rounds.pair(organizer(), None)
    assert "SQLITE_FULL" in full.value.detail
    assert everything(path) == before
    assert database.storage_full
    assert len(told) == 1  # the second failure is the same full disk
    # Reads still work while the disk is full.
    found, _ = await event.registration.players(player(1).guild_id, None)
    assert found.name == "Cup"
    # Space again: a write commits, and the next full disk is told again.
    await database.connection.execute("PRAGMA max_page_count = 1073741823")
    await event.rounds.drop(player(1), None)
    assert not database.storage_full
    await database.connection.execute("PRAGMA max_page_count = 1")
    with pytest.raises(StorageFull):
        await event.rounds.pair(organizer(), None)
    assert len(told) == 2
    await database.connection.execute("PRAGMA max_page_count = 1073741823")
    paired = await event.rounds.pair(organizer(), None)
    assert len(paired.round.matches) == PLAYERS // 2  # 255 players: 127 tables and a bye


async def test_a_failing_callback_does_not_hide_the_full_disk(
    event: Services, database: Database
) -> None:
    def broken(error: StorageFull) -> None:
        raise RuntimeError("the notifier is down")

    told: list[StorageFull] = []
    database.on_storage_full.extend([broken, told.append])
    await database.connection.execute("PRAGMA max_page_count = 1")
    with pytest.raises(StorageFull):
        await event.rounds.pair(organizer(), None)
    assert len(told) == 1


def test_a_statement_bug_is_not_a_storage_error() -> None:
    from bot.store.sqlite import storage_error

    with closing(sqlite3.connect(":memory:")) as connection:
        with pytest.raises(sqlite3.OperationalError) as bug:
            connection.execute("SELECT * FROM no_such_table")
        assert storage_error(bug.value) is None
        connection.execute("CREATE TABLE t (x UNIQUE)")
        connection.execute("INSERT INTO t VALUES (1)")
        with pytest.raises(sqlite3.IntegrityError) as duplicate:
            connection.execute("INSERT INTO t VALUES (1)")
        assert not isinstance(storage_error(duplicate.value), StorageError)

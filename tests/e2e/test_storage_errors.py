"""The database cannot save (another program holds the write lock, the disk is full, the
file may not grow): the player reads "could not save, try again" in their language, the log
has one WARNING line naming the cause and no traceback, and trying again works.

The bot keeps its real busy timeout (5 s) here. Its database lives on a small tmpfs of its
own when this machine lets the test mount one (root), so the disk can really fill up.
"""

from __future__ import annotations

import contextlib
import os
import resource
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import JSON, running_fake
from tests.e2e.fake_discord import FakeDiscord, Reply, Upload
from tests.e2e.story import LEGAL_CSV, database_rows, setup_server

pytestmark = pytest.mark.e2e

SAVE_FAILED = {
    "ja": "保存できませんでした。少し待ってからもう一度お試しください。",
    "en-US": "Could not save. Please wait a moment and try again.",
}
# Longer than two commands one after the other, each waiting the 5 s busy timeout.
HOLD_SECONDS = 12.5


@contextlib.contextmanager
def small_disk(folder: Path) -> Iterator[bool]:
    """A 4 MiB tmpfs mounted on `folder` (True), or nothing when mounting is not allowed."""
    folder.mkdir()
    mounted = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)],
            capture_output=True,
            check=False,
        ).returncode
        == 0
    )
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


@pytest.fixture(scope="module")
def fake(
    synced_commands: list[JSON], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FakeDiscord]:
    workdir = tmp_path_factory.mktemp("storage")
    with small_disk(workdir / "disk") as mounted:

        def on_the_small_disk(discord: FakeDiscord) -> None:
            discord.database = workdir / "disk" / "bot.sqlite3"
            discord.small_disk = mounted  # type: ignore[attr-defined]

        with running_fake(
            synced_commands, workdir, before_start=on_the_small_disk, options={"timeout": 30}
        ) as discord:
            yield discord


def log_lines_since(fake: FakeDiscord, start: int) -> list[str]:
    assert fake.bot is not None
    return fake.bot.stderr_lines[start:]


def problems(lines: list[str]) -> list[str]:
    return [
        line for line in lines if " WARNING " in line or " ERROR " in line or "Traceback" in line
    ]


async def submit(fake: FakeDiscord, user: str, locale: str) -> Reply:
    return await fake.slash(
        "deck submit", user=user, locale=locale, options={"file": Upload("deck.csv", LEGAL_CSV)}
    )


def decks_of(fake: FakeDiscord, user: str) -> int:
    rows = database_rows(
        fake, "SELECT COUNT(*) FROM decks WHERE user_id = ?", int(fake.member(user).id)
    )
    return int(rows[0][0])


async def test_an_event_to_save_into(fake: FakeDiscord) -> None:
    await setup_server(fake)
    await fake.slash(
        "tournament create",
        user="organizer",
        options={"name": "Storage Cup", "format": "swiss", "regulation": "single"},
    )
    for name in ("alice", "bob", "carol"):
        assert "Storage Cup" in (await fake.slash("register", user=name)).text


async def test_a_held_write_lock_asks_to_try_again_in_each_language(fake: FakeDiscord) -> None:
    assert fake.bot is not None
    assert fake.database is not None
    start = len(fake.bot.stderr_lines)
    locked, release = threading.Event(), threading.Event()

    def another_program() -> None:
        with contextlib.closing(sqlite3.connect(fake.database, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            locked.set()
            release.wait(HOLD_SECONDS)
            other.execute("ROLLBACK")

    holder = threading.Thread(target=another_program)
    holder.start()
    try:
        assert locked.wait(5)
        ja = await submit(fake, "alice", "ja")  # fails after the 5 s busy timeout
        en = await submit(fake, "bob", "en-US")  # and this one 5 s later
    finally:
        release.set()
        holder.join()
    assert ja.ephemeral
    assert en.ephemeral
    assert SAVE_FAILED["ja"] in ja.text
    assert SAVE_FAILED["en-US"] in en.text
    assert decks_of(fake, "alice") == decks_of(fake, "bob") == 0
    logged = problems(log_lines_since(fake, start))
    assert len(logged) == 2, logged  # one line per command, no traceback
    for line in logged:
        assert " WARNING " in line
        assert "/deck submit not saved, nothing written: database busy" in line
        assert "SQLITE_BUSY" in line
    # The lock is gone: the same command goes through.
    again = await submit(fake, "alice", "ja")
    assert SAVE_FAILED["ja"] not in again.text
    assert decks_of(fake, "alice") == 1


def fill(disk: Path) -> Path:
    """Take every free byte of `disk` with one file; the file (remove it to free the space)."""
    filler = disk / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        for size in (1 << 20, 4096, 1):  # big pieces, then what is left of the last page
            with contextlib.suppress(OSError):
                while os.write(descriptor, b"\0" * size):
                    pass
    finally:
        os.close(descriptor)
    assert os.statvfs(disk).f_bavail == 0
    return filler


async def test_a_full_disk_asks_to_try_again_and_logs_one_warning(fake: FakeDiscord) -> None:
    if not getattr(fake, "small_disk", False):
        pytest.skip("mounting a small tmpfs needs root; the service test covers SQLITE_FULL")
    assert fake.bot is not None
    assert fake.database is not None
    start = len(fake.bot.stderr_lines)
    filler = fill(fake.database.parent)
    try:
        ja = await submit(fake, "carol", "ja")
        en = await submit(fake, "bob", "en-US")
    finally:
        filler.unlink()
    assert SAVE_FAILED["ja"] in ja.text
    assert SAVE_FAILED["en-US"] in en.text
    logged = problems(log_lines_since(fake, start))
    assert len(logged) == 2, logged
    for line in logged:
        assert " WARNING " in line
        assert "not saved, nothing written: disk full (SQLITE_FULL" in line
    assert decks_of(fake, "carol") == decks_of(fake, "bob") == 0
    # The staff are told once, in the log channel, whatever the number of refusals.
    told = [m for m in fake.messages("log") if "ディスクがいっぱい" in (m.get("content") or "")]
    assert len(told) == 1
    # Space again: the same command goes through.
    again = await submit(fake, "carol", "ja")
    assert SAVE_FAILED["ja"] not in again.text
    assert decks_of(fake, "carol") == 1


async def test_a_file_size_limit_is_an_io_error(fake: FakeDiscord) -> None:
    """`prlimit --fsize` on the bot: a write past the limit fails with EFBIG, which SQLite
    reports as SQLITE_IOERR_WRITE (not SQLITE_FULL): the log says I/O error."""
    assert fake.bot is not None
    assert fake.database is not None
    pid = fake.bot.process.pid
    start = len(fake.bot.stderr_lines)
    wal_size = os.stat(f"{fake.database}-wal").st_size  # its next frame goes past the limit
    previous = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (wal_size, previous[1]))
    try:
        reply = await submit(fake, "bob", "en-US")
    finally:
        resource.prlimit(pid, resource.RLIMIT_FSIZE, previous)
    assert SAVE_FAILED["en-US"] in reply.text
    logged = problems(log_lines_since(fake, start))
    assert len(logged) == 1, logged
    assert " WARNING " in logged[0]
    assert "not saved, nothing written: I/O error (SQLITE_IOERR" in logged[0]
    again = await submit(fake, "bob", "en-US")
    assert SAVE_FAILED["en-US"] not in again.text
    assert decks_of(fake, "bob") == 1

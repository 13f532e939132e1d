"""The round clock when the database cannot save.

Another program holds SQLite's write lock while a round's clock has a reminder due. The
clock's timed job waits the busy timeout (5 s), pauses with one WARNING line that names the
cause (no ERROR, no traceback), and at the next tick, the lock gone, goes on: every reminder
and the time-up notice are posted, each once.

SQLite only: it is SQLite's own write lock (PostgreSQL's storage failures are its server's).
The bot's clock runs 120 times faster and the round lasts 11 minutes: its reminders at 10
and 5 minutes left are due 0.5 s and 3 s after the start, the time-up 5.5 s after it. The
lock catches whichever is due next, and holds it back for the 5 s of the busy timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterator

import pytest

from tests.e2e.conftest import JSON, running_fake
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.story import setup_server

pytestmark = pytest.mark.e2e

PAUSED = "the database is unavailable: database busy"


@pytest.fixture(scope="module")
def fake(
    synced_commands: list[JSON], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FakeDiscord]:
    with running_fake(
        synced_commands,
        tmp_path_factory.mktemp("clock-storage"),
        options={"timeout": 30},
        CLOCK_SPEED="120",
        CLOCK_TICK_SECONDS="0.2",
        CLOCK_GRACE_SECONDS="3600",  # 30 s of real time: nothing held back is skipped
    ) as discord:
        yield discord


@contextlib.contextmanager
def write_lock_held(database: str) -> Iterator[threading.Event]:
    """Another program's write transaction on the bot's file, held until the event is set
    (or the block ends)."""
    locked, release = threading.Event(), threading.Event()

    def another_program() -> None:
        with contextlib.closing(sqlite3.connect(database, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            locked.set()
            release.wait(30)
            other.execute("ROLLBACK")

    holder = threading.Thread(target=another_program)
    holder.start()
    try:
        assert locked.wait(5)
        yield release
    finally:
        release.set()
        holder.join()


async def wait_for(condition: Callable[[], bool], what: str, seconds: float = 20.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"waited {seconds} s for {what}")


def clock_posts(fake: FakeDiscord) -> list[str]:
    """The clock's reminders and time-up notices in the pairings channel, oldest first."""
    texts = [m.get("content") or "" for m in fake.messages("pairings")]
    return [text for text in texts if "残り時間はあと" in text or text.startswith("⏰")]


async def test_a_held_write_lock_pauses_the_clock_with_one_warning_then_it_goes_on(
    fake: FakeDiscord,
) -> None:
    await setup_server(fake, locale="ja")
    await fake.slash(
        "tournament create",
        user="organizer",
        options={"name": "Clock Cup", "format": "swiss", "regulation": "single", "time_limit": 11},
    )
    await fake.slash("tournament settings", user="organizer", options={"decklist_required": False})
    for player in ("alice", "bob"):
        await fake.slash("register", user=player)
    preview = await fake.slash("tournament start", user="organizer", locale="ja")
    await fake.click(preview, "開始する", user="organizer", locale="ja")
    await fake.slash("round pair", user="organizer", locale="ja")
    await fake.slash("round start", user="organizer", locale="ja")
    await fake.settled()
    bot, database = fake.bot, fake.database
    assert bot is not None
    assert database is not None
    start = len(bot.stderr_lines)

    with write_lock_held(str(database)) as release:
        # The next reminder falls due; the clock waits 5 s for the lock, then pauses.
        await wait_for(lambda: any(PAUSED in line for line in bot.stderr_lines[start:]), PAUSED)
        release.set()

    await wait_for(lambda: any(p.startswith("⏰") for p in clock_posts(fake)), "the time-up")
    await fake.settled()
    posted = clock_posts(fake)
    assert len(posted) == 3, posted  # each once
    assert "あと 10 分" in posted[0]
    assert "あと 5 分" in posted[1]
    assert posted[2].startswith("⏰ 時間です（第 1 回戦")
    logged = [
        line
        for line in bot.stderr_lines[start:]
        if " WARNING " in line or " ERROR " in line or "Traceback" in line
    ]
    assert len(logged) == 1, logged
    assert " WARNING " in logged[0]
    assert "SQLITE_BUSY" in logged[0]
    fake.assert_no_errors_logged()

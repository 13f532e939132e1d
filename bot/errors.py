"""Errors of the bot's own plumbing (settings, database).

`StartupError` stops the CLI with a bilingual message and no traceback. `StorageError` and
its kinds are what the store raises when SQLite itself fails (busy, disk full, I/O, a
damaged file) rather than the statement: `bot/store/database.py` converts SQLite's result
codes into them in one place, and `bot.app.answer_error` turns them into one reply.
"""

from __future__ import annotations

from typing import ClassVar


class StartupError(Exception):
    """Stops the CLI with a bilingual message and an exit code, never a traceback."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class StorageError(Exception):
    """The database could not complete a transaction; it was rolled back whole.

    Nothing of it was written, so the same command can simply be tried again. `cause`
    names the kind for the log; `detail` is SQLite's own code and message
    (`SQLITE_BUSY: database is locked`). `transient` kinds go away by themselves (a lock
    released, space freed); the others need staff (the file is damaged).
    """

    cause: ClassVar[str] = "storage error"
    transient: ClassVar[bool] = True

    def __init__(self, detail: str) -> None:
        super().__init__(f"{self.cause}: {detail}")
        self.detail = detail


class StorageBusy(StorageError):
    """Another program held the database's write lock for longer than the busy timeout."""

    cause = "database busy (another program held the write lock past the busy timeout)"


class StorageFull(StorageError):
    """The disk (or the file system's quota) is full: the commit could not be written."""

    cause = "disk full"


class StorageIOError(StorageError):
    """The operating system failed a read or write (or the file became read-only)."""

    cause = "I/O error"


class StorageCorrupt(StorageError):
    """The database file is damaged: only a backup helps (docs/OPERATIONS.md, Restoring)."""

    cause = "database file damaged"
    transient = False

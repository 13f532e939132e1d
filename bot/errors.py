"""Errors of the bot's own plumbing (settings, database).

`StartupError` stops the CLI with a bilingual message and no traceback. `StorageError` and
its kinds are what the store raises when the database itself fails rather than the
statement: SQLite busy, its disk full, an I/O error, a damaged file
(`bot/store/sqlite.py` converts SQLite's result codes), or PostgreSQL out of reach, its
pool exhausted, a transaction that lost a race (`bot/store/postgres.py` converts asyncpg's
errors); `bot.app.answer_error` turns every kind into one reply.
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

    Nothing of it was written, so the same command can simply be tried again (a
    connection lost during the COMMIT itself leaves it unknown whether the commit arrived:
    a command tried again is then refused as done, or, for a report, answered "already
    received"). `cause` names the kind for the log; `detail` is the database's own code and
    message (`SQLITE_BUSY: database is locked`, `57P01: terminating connection due to
    administrator command`). `transient` kinds go away by themselves (a lock released,
    space freed, the server back); the others need staff (the file is damaged).
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


class StorageUnavailable(StorageError):
    """PostgreSQL cannot be reached: the connection was lost, the server is restarting or
    shutting down, or it refuses connections. It comes back by itself."""

    cause = "database unreachable (connection lost, or the server restarting or stopped)"


class StoragePoolExhausted(StorageBusy):
    """Every pooled connection stayed in use past the pool's wait, or the server has no
    connection left to give (`max_connections`)."""

    cause = "database busy (no free connection in the pool in time, or the server's limit reached)"


class StorageConflict(StorageError):
    """PostgreSQL broke a deadlock or refused a serialization (another transaction was
    first): this one was rolled back whole."""

    cause = "database conflict (a deadlock or a serialization failure: another transaction won)"

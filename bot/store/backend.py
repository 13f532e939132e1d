"""What the store asks of a database, whichever it is: the interface both backends offer.

Two peers implement it, each importing only this module and `bot.store.migrations`:
`bot.store.sqlite` (one file, the default) and `bot.store.postgres` (several processes on
one server). `bot.store.database` opens the right one for a location; nothing else in the
store knows which backend it runs on.

The SQL of the store is written once, against a small surface both connections offer
(`Connection`): `execute`, awaited or used as `async with … as cursor`, `execute_fetchall`
and `executemany`, with `?` placeholders, rows read by column name or position.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Generator, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from bot.errors import StorageFull
from domain.errors import IllegalTransition

if TYPE_CHECKING:
    from bot.store.commits import Committed

SQLITE, POSTGRES = "sqlite", "postgres"


class Row(Protocol):
    """One row: read by column name or by position (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...

    def keys(self) -> Any: ...


class Cursor(Protocol):
    """What one statement gave back."""

    @property
    def rowcount(self) -> int: ...

    @property
    def lastrowid(self) -> int | None: ...

    async def fetchall(self) -> Iterable[Row]: ...

    async def fetchone(self) -> Row | None: ...


CursorT = TypeVar("CursorT", bound=Cursor, covariant=True)


class Statement(Protocol[CursorT]):
    """`await connection.execute(…)`, or `async with connection.execute(…) as cursor`."""

    def __await__(self) -> Generator[Any, None, CursorT]: ...

    async def __aenter__(self) -> CursorT: ...

    async def __aexit__(self, *exc: Any) -> Any: ...


class Connection(Protocol):
    """The surface the store's SQL functions use, on either backend."""

    def execute(self, sql: str, parameters: Iterable[Any] | None = ..., /) -> Statement[Cursor]: ...

    async def execute_fetchall(
        self, sql: str, parameters: Iterable[Any] | None = ..., /
    ) -> Iterable[Row]: ...

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]], /) -> Any: ...


async def fetch_rows(connection: Connection, query: str, params: tuple[Any, ...] = ()) -> list[Row]:
    """The rows of `query`, in one trip to the database instead of three (execute, fetch,
    close), and shared by the readers of one SQLite snapshot."""
    return list(await connection.execute_fetchall(query, params))


class WriteConflict(IllegalTransition):
    """Another writer changed the tournament under this unit of work (its version moved on,
    or PostgreSQL broke a deadlock): nothing of it was written; the person tries again."""

    def __init__(self) -> None:
        super().__init__("errors.write_conflict")


Publish = Callable[["Committed"], None]
# A commit as announced to other processes: (guild, tournament, version, notices written).
Announced = tuple[int, int | None, int | None, int]
Transaction = AbstractAsyncContextManager[Connection]


class Database(ABC):
    """The store's way to its backend. Services never see it: the unit of work does."""

    dialect: ClassVar[str]
    # More than one process may write (PostgreSQL): the outbox's notices are claimed
    # before they are sent, so two processes never send the same one.
    shared_by_processes: ClassVar[bool]
    label: str  # what logs and messages may show (a URL without its password)
    # Called once when the disk fills up (SQLite; PostgreSQL's disk is its server's).
    on_storage_full: list[Callable[[StorageFull], None]]

    @abstractmethod
    def write(self) -> Transaction:
        """One write transaction; everything in it is committed together or not at all."""

    @abstractmethod
    def read(self) -> Transaction:
        """A consistent snapshot for reads that span several queries."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def lock_tournament(self, connection: Connection, tournament_id: int) -> None:
        """Make this transaction the tournament's only writer until it ends."""

    @abstractmethod
    async def announce(self, connection: Connection, commits: Sequence[Announced]) -> None:
        """Tell other processes what this transaction commits, if it commits."""

    @abstractmethod
    async def listen(self, publish: Publish) -> Callable[[], Awaitable[None]]:
        """Publish other processes' commits on `publish` until the returned stop is
        awaited."""


@dataclass(frozen=True)
class Snapshot:
    """A database opened read-only in one consistent snapshot, safe beside running bots
    (`python -m bot verify`, `export`), with the schema version it is at."""

    connection: Connection
    schema_version: int

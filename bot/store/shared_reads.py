"""The reading connection as the reads sharing one SQLite snapshot see it.

At the end of a round a hundred players press /standings, /pairing or a page turn in the
same second, and every one of them first asks the same few questions: the server's
settings, its tournaments, the tournament's version. They share one read transaction
(`SqliteDatabase.read`), and inside it the answer to the same query cannot differ, so each
distinct query runs once per snapshot and every reader gets that answer. Before, the
reading thread ran the same statements a hundred times, one after another, while the
players waited behind each other (docs/BENCHMARKS.md, "How the time was found": reads at
the same moment).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

import aiosqlite

Answer = list[aiosqlite.Row]


class SharedReads:
    """`execute_fetchall` asked once per distinct query and parameters; everything else
    goes to the connection as it is."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection
        self._answers: dict[tuple[str, tuple[Any, ...]], asyncio.Future[Answer]] = {}

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] | None = None) -> Answer:
        key = (sql, tuple(parameters or ()))
        try:
            answer = self._answers.get(key)
        except TypeError:  # a parameter that cannot be a key: asked on its own
            return list(await self._connection.execute_fetchall(sql, key[1]))
        if answer is None:
            answer = asyncio.ensure_future(self._fetch(sql, key[1]))
            answer.add_done_callback(_retrieved)
            self._answers[key] = answer
        # Shielded: a reader that stops waiting (a cancelled command) leaves the query
        # running for the others. Each gets its own list: callers may change it.
        return list(await asyncio.shield(answer))

    async def _fetch(self, sql: str, parameters: tuple[Any, ...]) -> Answer:
        return list(await self._connection.execute_fetchall(sql, parameters))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


def _retrieved(answer: asyncio.Future[Answer]) -> None:
    """Mark a failed query's error as seen: every reader waiting on it raised it, and one
    that stopped waiting should not leave asyncio warning about it."""
    if not answer.cancelled():
        answer.exception()

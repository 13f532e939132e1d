"""Use cases: one transaction each, permissions decided here, every change logged."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from bot.store.database import Database

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class Services:
    """Everything the cogs may ask for. Built once per bot from the database and a clock."""

    def __init__(self, database: Database, clock: Clock = utc_now) -> None:
        self.database = database
        self.clock = clock

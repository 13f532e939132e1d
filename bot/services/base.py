"""What every service shares: the database, the clock and where seeds come from."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime

from bot.store.database import Database

Clock = Callable[[], datetime]
SeedSource = Callable[[], int]


def utc_now() -> datetime:
    return datetime.now(UTC)


def random_seed() -> int:
    return secrets.randbits(48)


class Service:
    def __init__(
        self,
        database: Database,
        *,
        clock: Clock = utc_now,
        seeds: SeedSource = random_seed,
        default_locale: str = "ja",
    ) -> None:
        self.database = database
        self.clock = clock
        self.seeds = seeds
        self.default_locale = default_locale

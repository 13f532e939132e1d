"""An outage of something the bot's own loops depend on (the database), told once.

A loop that runs by itself (the delivery of notices, the timed jobs, the commits listener)
meets a database that is away on every tick: logging each failure filled the log with one
traceback a tick (docs/OPERATIONS.md, "When PostgreSQL is away, restarts or refuses").
`Outage` remembers that the thing
is away: its first failure logs one warning, the failures after it nothing, and the first
success after them one line saying that it is back and how long it was away. Nothing here
knows what the loop does; the loop says what waits meanwhile.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable


class Outage:
    """Whether `what` is away, as one loop (or several sharing this object) sees it."""

    def __init__(
        self,
        what: str,
        log: logging.Logger,
        *,
        meanwhile: str = "",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self.log = log
        self.meanwhile = meanwhile  # what waits while it is away, for the warning
        self.clock = clock
        self.began: float | None = None  # when the ongoing outage was first seen
        self.failures = 0  # failures seen in the ongoing outage
        self.outages = 0  # outages seen since the start

    @property
    def ongoing(self) -> bool:
        return self.began is not None

    def failed(self, error: BaseException) -> bool:
        """A failure: the first of an outage is logged (True), the others are counted."""
        self.failures += 1
        if self.began is not None:
            return False
        self.began = self.clock()
        self.outages += 1
        meanwhile = f"; {self.meanwhile}" if self.meanwhile else ""
        self.log.warning("%s is unavailable: %s%s", self.what, error, meanwhile)
        return True

    def succeeded(self) -> float | None:
        """A success: the end of an outage is logged, with how long it lasted (returned)."""
        if self.began is None:
            return None
        lasted = self.clock() - self.began
        self.log.info(
            "%s is available again after %.1f s (%d failed attempts meanwhile)",
            self.what,
            lasted,
            self.failures,
        )
        self.began = None
        self.failures = 0
        return lasted

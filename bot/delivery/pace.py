"""The bot's pace against Discord's limits that discord.py does not plan for.

discord.py waits on each route's bucket from the headers, but it meets the global limit
(50 requests a second for the bot's token, interaction answers exempt) only once Discord
has refused a request with a global 429; and it does not count the refused requests for
which Discord bans the bot's address (10,000 answers 401, 403 or 429 in 10 minutes ban it
for an hour). So the delivery takes a turn from `Pace` before each request, the staff's
first, and `Refusals` counts every refused answer of every request the bot makes.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp

log = logging.getLogger(__name__)

# Discord's global limit is 50 requests in any second; the delivery keeps some of it for
# the commands' own requests (members fetched, a channel looked up), which take no turns
# here. Its burst plus a second's refill stays below the limit: 5 + 40 = 45.
DELIVERY_REQUESTS_PER_SECOND = 40.0
BURST = 5.0
# The priority of a turn: lower goes first.
STAFF, PLAYERS, EDITS = 0, 1, 2


class Pace:
    """At most `rate` requests a second after a burst of `burst`; waiting turns go by
    priority, then in the order they were asked for."""

    def __init__(
        self,
        rate: float = DELIVERY_REQUESTS_PER_SECOND,
        clock: Callable[[], float] = time.monotonic,
        burst: float = BURST,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._tokens = burst
        self._filled_at = clock()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._releaser: asyncio.Task[None] | None = None

    def _refill(self) -> None:
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._filled_at) * self.rate)
        self._filled_at = now

    async def take(self, priority: int = PLAYERS) -> None:
        self._refill()
        if not self._waiting and self._tokens >= 1:
            self._tokens -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), turn))
        if self._releaser is None or self._releaser.done():
            self._releaser = asyncio.create_task(self._release(), name="delivery pace")
        await turn

    async def _release(self) -> None:
        while self._waiting:
            self._refill()
            if self._tokens < 1:
                await asyncio.sleep((1 - self._tokens) / self.rate)
                continue
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():  # a waiter that gave up (cancelled) takes nothing
                self._tokens -= 1
                turn.set_result(None)

    def close(self) -> None:
        if self._releaser is not None:
            self._releaser.cancel()


# Discord bans the bot's address for an hour at 10,000 refused answers in 10 minutes.
REFUSAL_WINDOW_SECONDS = 600.0
DISCORD_REFUSAL_BAN = 10_000
# Warned at a tenth of that: a server whose channels refuse the bot, told at once, is fixed
# in minutes; a bug that retries a refused request shows here long before the ban.
REFUSAL_WARNING = 1_000
REFUSED_STATUSES = frozenset({401, 403, 429})


class Refusals:
    """The 401, 403 and 429 answers the bot received in a sliding 10 minutes (a 429 whose
    scope is `shared` is not counted, as Discord does not count it)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        warning: int = REFUSAL_WARNING,
    ) -> None:
        self.clock = clock
        self.warning = warning
        self._listeners: list[Callable[[int], None]] = []
        self._at: deque[float] = deque()
        self._warned_until = 0.0

    def note(self, status: int, scope: str | None = None) -> None:
        if status not in REFUSED_STATUSES or (status == 429 and scope == "shared"):
            return
        now = self.clock()
        self._at.append(now)
        count = self.count(now)
        if count >= self.warning and now >= self._warned_until:
            # Once per window: the count stays high for ten minutes after a burst.
            self._warned_until = now + REFUSAL_WINDOW_SECONDS
            log.warning(
                "Discord refused %s requests in the last 10 minutes (it bans the bot's"
                " address for an hour at %s)",
                count,
                DISCORD_REFUSAL_BAN,
            )
            for listener in self._listeners:
                listener(count)

    def on_warning(self, listener: Callable[[int], None]) -> None:
        """`listener(count)` each time the count reaches the warning (once per window)."""
        self._listeners.append(listener)

    def count(self, now: float | None = None) -> int:
        now = self.clock() if now is None else now
        while self._at and self._at[0] <= now - REFUSAL_WINDOW_SECONDS:
            self._at.popleft()
        return len(self._at)

    def trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace that counts every answer of the bot's Discord session (pass it
        to the client as `http_trace`)."""
        config = aiohttp.TraceConfig()

        async def ended(
            session: aiohttp.ClientSession,
            context: SimpleNamespace,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            response = params.response
            self.note(response.status, response.headers.get("X-RateLimit-Scope"))

        config.on_request_end.append(ended)
        return config

"""A lane: one place's notices, sent one after the other at that place's pace (Discord's
bucket for it: about a post a second in one channel), beside every other place's lane.

When Discord fails, the lane waits and tries the same notice again: what must follow it in
its place waits too, while other places go on. Every lane that waits is woken by the first
success anywhere (an outage over), so nothing waits out a long back-off after Discord is
back. Several tables' lines waiting for the same place go out together (`bot.ui.gathered`);
a staff decision for a table goes before other tables' lines (never before its own
table's, which the scheduler keeps in order).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field

from bot.delivery.sending import Interrupted, Outcome, Queued, Sender
from bot.errors import StorageError
from bot.notify.plan import TRAITS
from bot.store.outbox import Outgoing

log = logging.getLogger(__name__)

# Discord failing one place this often (over about twenty minutes) means it will not work.
MAX_ATTEMPTS = 12
LONGEST_WAIT = 300.0
# Lines sent together at most: several messages' worth.
MOST_GATHERED = 400

Finished = Callable[[Queued, Outcome | None, str | None], Awaitable[None]]
Failing = Callable[[Outgoing], Awaitable[None]]


def batch_of(queue: list[Queued]) -> list[Queued]:
    """What goes next from a lane: the staff's decisions for tables if any wait (together,
    when they are lines), else the oldest notice; with it, when it is a table's line, the
    lines that follow it (same tournament, same language) up to the first notice that is
    not a line."""
    urgent = [q for q in queue if TRAITS[q.notice.say].urgent]
    start = urgent[0] if urgent else queue[0]
    if not TRAITS[start.notice.say].gathers:
        return [start]
    candidates = urgent if urgent else queue
    batch = []
    for queued in candidates:
        notice = queued.notice
        if not TRAITS[notice.say].gathers:
            break
        if notice.tournament_id != start.notice.tournament_id or notice.lang != start.notice.lang:
            continue
        batch.append(queued)
        if len(batch) == MOST_GATHERED:
            break
    return batch


# An outage is over when something goes through after this long without any success:
# then every waiting lane tries again at once. A place that fails while others go through
# (one channel's trouble) waits out its own back-off instead.
QUIET_SECONDS = 3.0


@dataclass
class Recovery:
    """Wakes every waiting lane at the first success after a stretch without any."""

    quiet: float = QUIET_SECONDS
    failing: int = 0
    last_success: float = 0.0
    _event: asyncio.Event = field(default_factory=asyncio.Event)

    def failed(self) -> None:
        self.failing += 1

    def succeeded(self) -> None:
        now = time.monotonic()
        if self.failing and now - self.last_success >= self.quiet:
            self.wake()
        self.last_success = now

    def wake(self) -> None:
        self.failing = 0
        self._event.set()
        self._event = asyncio.Event()

    async def wait(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._event.wait(), seconds)


class Lane:
    def __init__(
        self,
        key: Hashable,
        sender: Sender,
        recovery: Recovery,
        finished: Finished,
        failing: Failing | None = None,
    ) -> None:
        self.key = key
        self.sender = sender
        self.recovery = recovery
        self.finished = finished
        self.failing = failing  # told of a notice's first failure (for the panel)
        self.queue: list[Queued] = []
        self.sending: list[Queued] = []  # the batch on its way now
        self.failures: dict[int, int] = {}
        self.waiting_since: float | None = None  # Discord failing it: since when
        self._task: asyncio.Task[None] | None = None

    @property
    def idle(self) -> bool:
        return not self.queue

    def waiting_refreshes(self, post: tuple[object, ...]) -> list[Queued]:
        """The refreshes of `post` waiting here, not yet on their way: taken out (a newer
        one replaces them)."""
        found = [
            queued
            for queued in self.queue
            if queued not in self.sending
            and (queued.notice.tournament_id, queued.notice.say, queued.notice.data.get("round"))
            == post
        ]
        for queued in found:
            self.queue.remove(queued)
        return found

    def put(self, queued: Queued) -> None:
        self.queue.append(queued)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name=f"lane {self.key}")

    async def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while self.queue:
            try:
                await self._step()
            except StorageError as error:
                # Writing down what was sent failed: the notices wait in the outbox, read
                # again once the database answers; the outage is the loop's to tell (once).
                log.debug("lane %s paused: %s", self.key, error)
                await asyncio.sleep(1.0)

    async def _step(self) -> None:
        """One batch sent, and what came of it written down."""
        if self.queue:
            batch = self.sending = batch_of(self.queue)
            try:
                in_batch = {queued.notice.id for queued in batch}
                outcomes = await self.sender.send(batch, lambda: self._decision_waits(in_batch))
            except asyncio.CancelledError:
                raise
            except Interrupted as interrupted:
                await self._done(batch, interrupted.done)
                await self._wait(batch, str(interrupted.cause))
                return
            except StorageError:
                raise  # paused by `_run`
            except Exception as error:  # a bug in a renderer: never retried in a loop
                log.exception("notices %s could not be rendered", [q.notice.id for q in batch])
                for queued in batch:
                    self.queue.remove(queued)
                    await self.finished(queued, None, repr(error))
                return
            self.recovery.succeeded()
            self.waiting_since = None
            await self._done(batch, outcomes)

    def _decision_waits(self, batch: set[int]) -> bool:
        """A staff decision came for this place while a batch of lines goes out in several
        messages: the batch stops after its message on the way, and the decision goes
        next (its table's earlier lines are done: the order let it go only then)."""
        return any(TRAITS[q.notice.say].urgent and q.notice.id not in batch for q in self.queue)

    async def _done(self, batch: list[Queued], outcomes: dict[int, Outcome]) -> None:
        for queued in batch:
            outcome = outcomes.get(queued.notice.id)
            if outcome is None:
                continue
            self.queue.remove(queued)
            self.failures.pop(queued.notice.id, None)
            await self.finished(queued, outcome, None)

    async def _wait(self, batch: list[Queued], error: str) -> None:
        """Discord failed: the lane waits, longer each time, until Discord works again."""
        self.recovery.failed()
        loop = asyncio.get_running_loop()
        if self.waiting_since is None:
            self.waiting_since = loop.time()
        head = batch[0].notice
        attempts = self.failures.get(head.id, head.attempts) + 1
        self.failures[head.id] = attempts
        await self.sender.store.outbox.failed_attempt(head.id, error)
        if attempts == 1 and self.failing is not None:
            await self.failing(head)
        if attempts >= MAX_ATTEMPTS:
            log.warning("notice %s (%s) failed for good: %s", head.id, head.say, error)
            for queued in batch:
                if queued in self.queue:
                    self.queue.remove(queued)
                    await self.finished(queued, Outcome.GIVEN_UP, error)
            return
        delay = min(LONGEST_WAIT, 2.0**attempts)
        log.warning(
            "notices for %s could not be sent (%s); trying again in %.0f s, or once Discord"
            " answers again",
            self.key,
            error,
            delay,
        )
        await self.recovery.wait(delay)

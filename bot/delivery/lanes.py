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

from bot.delivery.order import post_of
from bot.delivery.sending import Interrupted, Outcome, Queued, Sender
from bot.errors import StorageError
from bot.notify.plan import TRAITS
from bot.store.outbox import Outgoing

log = logging.getLogger(__name__)

# Discord failing one place this often (over about twenty minutes) means it will not work.
MAX_ATTEMPTS = 12
LONGEST_WAIT = 300.0
# What came of a batch when Discord answered its request (posted, or refused: the place
# works or is known not to); skipped and kept notices asked Discord nothing.
REACHED = frozenset({Outcome.SENT, Outcome.MOVED})
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
# (one channel's trouble) waits out its own back-off instead, unless its own place takes a
# request again (another lane's edit in the same channel, say).
QUIET_SECONDS = 3.0
# While lanes wait for Discord, one of them tries again this often at most (a 5xx counts
# toward no limit of Discord's): the end of an outage is found within it.
PROBE_SECONDS = 5.0


def place_of(key: Hashable) -> Hashable:
    """The place a lane sends to, as Discord fails it: a channel (its posts and its
    messages' edits are two lanes of one place), one person's DMs, or the lane itself."""
    if isinstance(key, tuple) and len(key) >= 2 and key[0] in ("post", "edit"):
        return ("channel", key[1])
    return key


@dataclass
class Recovery:
    """Wakes the lanes waiting on their back-off: those of a place when that place takes
    a request again, and every one at the first success after a stretch without any
    (Discord as a whole back)."""

    quiet: float = QUIET_SECONDS
    probe: float = PROBE_SECONDS
    last_success: float = 0.0
    clock: Callable[[], float] = time.monotonic
    _failing: set[Hashable] = field(default_factory=set)
    _places: dict[Hashable, asyncio.Event] = field(default_factory=dict)
    _prober: object = None

    @property
    def failing(self) -> int:
        """How many places Discord failed since the last wake."""
        return len(self._failing)

    def failed(self, place: Hashable = None) -> None:
        self._failing.add(place)

    def succeeded(self, place: Hashable = None) -> None:
        """A request to `place` went through."""
        now = self.clock()
        if self._failing and now - self.last_success >= self.quiet:
            self.wake()
        elif place in self._failing:
            self._failing.discard(place)
            self._wake_place(place)
        self.last_success = now

    def wake(self) -> None:
        self._failing.clear()
        for place in list(self._places):
            self._wake_place(place)

    def _wake_place(self, place: Hashable) -> None:
        waiting = self._places.pop(place, None)
        if waiting is not None:
            waiting.set()

    async def wait(self, seconds: float, place: Hashable = None, lane: object = None) -> None:
        """Up to `seconds`, or until the place or Discord as a whole works again. One lane
        waiting at a time (`lane`, the first to wait) tries again every `probe` seconds at
        most, for every lane: so the end of an outage is found within that, whatever the
        others' waits have grown to."""
        woken = self._places.setdefault(place, asyncio.Event())
        if lane is not None and self._prober in (None, lane):
            self._prober = lane
            seconds = min(seconds, self.probe)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), seconds)
        finally:
            if self._prober is lane:
                self._prober = None


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
        self.place = place_of(key)
        self.sender = sender
        self.recovery = recovery
        self.finished = finished
        self.failing = failing  # told of a notice's first failure (for the panel)
        self.queue: list[Queued] = []
        self.sending: list[Queued] = []  # the batch on its way now
        # The batch whose writing-down met the database away: sent again as it was, so each
        # message keeps its nonce and Discord answers a repeat with the message it made
        # (gathered again with lines come meanwhile, it would be a new message).
        self._unwritten = False
        self.failures: dict[int, int] = {}
        self.waiting_since: float | None = None  # Discord failing it: since when
        self.retry_at: float | None = None  # the end of its wait (loop time)
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
            if queued not in self.sending and post_of(queued.notice) == post
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
            again = [queued for queued in self.sending if queued in self.queue]
            batch = self.sending = again if self._unwritten and again else batch_of(self.queue)
            self._unwritten = False
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
                self._unwritten = True
                raise  # paused by `_run`
            except Exception as error:  # a bug in a renderer: never retried in a loop
                log.exception("notices %s could not be rendered", [q.notice.id for q in batch])
                for queued in batch:
                    self.queue.remove(queued)
                    await self.finished(queued, None, repr(error))
                return
            if not batch[0].target.kept and any(o in REACHED for o in outcomes.values()):
                self.recovery.succeeded(self.place)  # Discord took a request of this place
            self.waiting_since = self.retry_at = None
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
        """Discord failed: the lane waits, longer each time, until Discord works again. A
        try before the end of its wait (it probed Discord for every lane, or was woken by a
        success that Discord did not repeat) is not counted: the wait goes on to its end."""
        self.recovery.failed(self.place)
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self.waiting_since is None:
            self.waiting_since = now
        if self.retry_at is not None and now < self.retry_at:
            await self.recovery.wait(self.retry_at - now, self.place, self)
            return
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
        self.retry_at = now + delay
        log.warning(
            "notices for %s could not be sent (%s); trying again in %.0f s, or once Discord"
            " answers again",
            self.key,
            error,
            delay,
        )
        await self.recovery.wait(delay, self.place, self)

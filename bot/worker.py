"""Work that would hold up the event loop, done beside it.

The bot is one event loop: Discord's gateway heartbeat, every player's button and every
notice go through it. Work that reads every player of a large event (pairing a round,
standings, the final placings, a pairings post of 2,048 tables, an export, a bracket
picture, a page of the live site) runs here instead, in one worker thread, while the loop
goes on serving everyone else:

    lines = await off_loop(lambda: views.lines)

One thread, not a pool of processes: the work reads the tournament the loop already holds
(a process would first have to copy the whole event, which costs more than most of the work),
and CPU-bound Python gains nothing from a second thread. What is handed over must not be
changed by the loop meanwhile: the domain's values never are. Work done here builds no
asyncio object (no future, no task); the presentation's views are made loop-free for
that (`bot.ui.buttons.stateless_view`).

The loop keeps its turn: `sys.setswitchinterval` is lowered when the worker starts, so
the interpreter hands the GIL back to the loop within a millisecond instead of five while
the worker computes (`bench/burst.py` measures the loop's lag).

Work waits its turn by its `Priority`, then in order: what a writer does while it holds
the database's write lock (pairing a round, applying a change to every player), then the
round's pairings post, then what the staff read, then everything else read. At the end
of a round, fifty `/standings` and the post's marks queued before the organizer's `/round
pair` would otherwise hold up the pairing, and every report waiting for the write lock
behind it; a judge's decision would wait behind every player's answer.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import queue
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from enum import IntEnum
from functools import partial
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

SWITCH_INTERVAL = 0.001  # seconds a thread holds the GIL while another waits for it


class Priority(IntEnum):
    """Which work the worker takes first (the lowest)."""

    WRITE = 0  # under the write lock: everyone's writes wait for it
    POST = 1  # a post every player waits for (the round's pairings)
    STAFF = 2  # what a judge or an organizer reads (`for_the_staff`)
    READ = 3


# Set for the rest of a request made by a judge or an organizer: their reads go before the
# players' (a judge's decision answered in a rush of a round's reports, not after it).
_staff_request: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "staff_request", default=False
)


def for_the_staff() -> None:
    """The current request (its task) is the staff's: its reads in the worker go first."""
    _staff_request.set(True)


class _Worker:
    """One thread taking work by priority, then in order of arrival."""

    def __init__(self) -> None:
        self._queue: queue.PriorityQueue[tuple[int, int, Future[Any], Callable[[], Any]]]
        self._queue = queue.PriorityQueue()
        self._arrival = itertools.count()
        threading.Thread(target=self._run, name="pm-worker", daemon=True).start()

    def submit(self, priority: Priority, work: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        self._queue.put((priority, next(self._arrival), future, work))
        return future

    def _run(self) -> None:
        while True:
            _, _, future, work = self._queue.get()
            if not future.set_running_or_notify_cancel():
                continue  # its caller stopped waiting
            try:
                result = work()
            except BaseException as error:  # handed to the caller, raised there
                future.set_exception(error)
            else:
                future.set_result(result)


_worker: _Worker | None = None
_starting = threading.Lock()


def _the_worker() -> _Worker:
    global _worker
    with _starting:
        if _worker is None:
            sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
            _worker = _Worker()
    return _worker


async def off_loop(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`function(*args, **kwargs)`, computed in the worker thread; its exception, if any,
    is raised here."""
    priority = Priority.STAFF if _staff_request.get() else Priority.READ
    return await off_loop_as(priority, partial(function, *args, **kwargs))


async def off_loop_as(priority: Priority, work: Callable[[], T]) -> T:
    """`work()`, computed in the worker thread before any work of a lower priority."""
    return await asyncio.wrap_future(_the_worker().submit(priority, work))


async def at_hand(function: Callable[[], T], *, ready: bool) -> T:
    """`function()`: called here when `ready` says its answer is at hand already (worked out
    for this version: the hand-over, and the wait behind other work, would cost more than
    the call), else computed in the worker."""
    return function() if ready else await off_loop(function)

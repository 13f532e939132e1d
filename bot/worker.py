"""Work that would hold up the event loop, done beside it.

The bot is one event loop: Discord's gateway heartbeat, every player's button and every
notice go through it. Work that reads every player of a large event (pairing a round,
standings, the final placings, a pairings post of 2,048 tables, an export, a bracket
picture, a page of the live site) runs here instead, in a worker thread, while the loop
goes on serving everyone else:

    lines = await off_loop(lambda: views.lines)

Threads, not a pool of processes: the work reads the tournament the loop already holds
(a process would first have to copy 6 MB of it, which costs more than most of the work).
What is handed over must not be changed by the loop meanwhile: the domain's values never
are. Work done here builds no asyncio object (no future, no task); the presentation's
views are made loop-free for that (`bot.ui.buttons.stateless_view`).

The loop keeps its turn: `sys.setswitchinterval` is lowered when a worker starts, so
the interpreter hands the GIL back to the loop within a millisecond instead of five while
the workers compute (`bench/burst.py` measures the loop's lag).

Two lanes, each one thread taking its work by `Priority`, then in order: what a writer
does while it holds the database's write lock (pairing a round, applying a change to every
player) and the round's pairings post in one; everything read in the other. Work in
progress is never interrupted, and a read can take a quarter of a second at 4,096 players
(a standings layout, the marks on a 2,048-table post): in one thread, the organizer's
`/round pair` waited for it, and every report waited behind the pairing's write lock. In
its own lane the pairing runs beside the read, the interpreter switching between them
every millisecond: slower than alone, but never behind a read. CPU-bound Python gains
nothing from more threads than that.
"""

from __future__ import annotations

import asyncio
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
    READ = 2


class _Worker:
    """One thread taking work by priority, then in order of arrival."""

    def __init__(self, name: str) -> None:
        self._queue: queue.PriorityQueue[tuple[int, int, Future[Any], Callable[[], Any]]]
        self._queue = queue.PriorityQueue()
        self._arrival = itertools.count()
        threading.Thread(target=self._run, name=name, daemon=True).start()

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


_lanes: dict[bool, _Worker] = {}  # by whether the work is a read
_starting = threading.Lock()


def _lane(priority: Priority) -> _Worker:
    reading = priority is Priority.READ
    with _starting:
        lane = _lanes.get(reading)
        if lane is None:
            sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
            lane = _lanes[reading] = _Worker("pm-reader" if reading else "pm-writer")
    return lane


async def off_loop(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`function(*args, **kwargs)`, computed in the reading lane; its exception, if any,
    is raised here."""
    return await off_loop_as(Priority.READ, partial(function, *args, **kwargs))


async def off_loop_as(priority: Priority, work: Callable[[], T]) -> T:
    """`work()`, computed in its lane's thread before any work of a lower priority."""
    return await asyncio.wrap_future(_lane(priority).submit(priority, work))


async def at_hand(function: Callable[[], T], *, ready: bool) -> T:
    """`function()`: called here when `ready` says its answer is at hand already (worked out
    for this version: the hand-over, and the wait behind other work, would cost more than
    the call), else computed in the worker."""
    return function() if ready else await off_loop(function)

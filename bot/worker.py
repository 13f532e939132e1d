"""Work that would hold up the event loop, done beside it.

The bot is one event loop: Discord's gateway heartbeat, every player's button and every
notice go through it. Work that reads every player of a large event (pairing a round,
standings, the final placings, a pairings post of 2,048 tables, an export, a bracket
picture, a page of the live site) runs here instead, in one worker thread, while the loop
goes on serving everyone else:

    lines = await off_loop(lambda: views.lines)

One thread, not a pool of processes: the work reads the tournament the loop already holds
(a process would first have to copy 6 MB of it, which costs more than most of the work),
and CPU-bound Python gains nothing from a second thread. What is handed over must not be
changed by the loop meanwhile: the domain's values never are. Work done here builds no
asyncio object (no future, no task); the presentation's views are made loop-free for
that (`bot.ui.buttons.stateless_view`).

The loop keeps its turn: `sys.setswitchinterval` is lowered when the worker starts, so
the interpreter hands the GIL back to the loop within a millisecond instead of five while
the worker computes (`bench/burst.py` measures the loop's lag).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

SWITCH_INTERVAL = 0.001  # seconds a thread holds the GIL while another waits for it

_executor: ThreadPoolExecutor | None = None


def _worker() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pm-worker")
    return _executor


async def off_loop(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`function(*args, **kwargs)`, computed in the worker thread; its exception, if any,
    is raised here."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_worker(), partial(function, *args, **kwargs))


async def at_hand(function: Callable[[], T], *, ready: bool) -> T:
    """`function()`: called here when `ready` says its answer is at hand already (worked out
    for this version: the hand-over, and the wait behind other work, would cost more than
    the call), else computed in the worker."""
    return function() if ready else await off_loop(function)

"""The worker takes what a writer does under the write lock first, then the round's posts,
then reads, each in order of arrival (fifty /standings queued before the organizer's
/round pair held up the pairing, and every report behind its lock)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.worker import Priority, off_loop, off_loop_as


async def test_work_is_taken_by_priority_then_in_order() -> None:
    gate = threading.Event()
    done: list[str] = []

    def busy() -> None:
        gate.wait(5)

    def step(name: str) -> str:
        done.append(name)
        return name

    blocking = asyncio.ensure_future(off_loop(busy))
    await asyncio.sleep(0.05)  # the worker is busy: what follows queues
    queued = [
        asyncio.ensure_future(off_loop(step, "read 1")),
        asyncio.ensure_future(off_loop_as(Priority.POST, lambda: step("post"))),
        asyncio.ensure_future(off_loop(step, "read 2")),
        asyncio.ensure_future(off_loop_as(Priority.WRITE, lambda: step("write 1"))),
        asyncio.ensure_future(off_loop_as(Priority.WRITE, lambda: step("write 2"))),
    ]
    await asyncio.sleep(0.05)
    gate.set()
    await blocking
    assert await asyncio.gather(*queued) == ["read 1", "post", "read 2", "write 1", "write 2"]
    assert done == ["write 1", "write 2", "post", "read 1", "read 2"]


async def test_an_error_in_the_worker_is_raised_to_the_caller() -> None:
    def broken() -> None:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        await off_loop_as(Priority.WRITE, broken)
    assert await off_loop(lambda: 7) == 7  # the worker goes on

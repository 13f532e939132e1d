"""The workers: what a writer does under the write lock, then the round's posts, in one
lane; reads in the other; each in order of arrival (issue 21: fifty /standings queued before
the organizer's /round pair held up the pairing, and every report behind its lock; then the
marks on round 11's post, a read in progress, held it up by a third of a second)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.worker import Priority, off_loop, off_loop_as


def busy_until(gate: threading.Event) -> None:
    gate.wait(5)


async def test_writes_and_posts_are_taken_by_priority_then_in_order() -> None:
    gate = threading.Event()
    done: list[str] = []

    def step(name: str) -> str:
        done.append(name)
        return name

    blocking = asyncio.ensure_future(off_loop_as(Priority.POST, lambda: busy_until(gate)))
    await asyncio.sleep(0.05)  # the writing lane is busy: what follows queues
    queued = [
        asyncio.ensure_future(off_loop_as(Priority.POST, lambda: step("post"))),
        asyncio.ensure_future(off_loop_as(Priority.WRITE, lambda: step("write 1"))),
        asyncio.ensure_future(off_loop_as(Priority.WRITE, lambda: step("write 2"))),
    ]
    await asyncio.sleep(0.05)
    gate.set()
    await blocking
    assert await asyncio.gather(*queued) == ["post", "write 1", "write 2"]
    assert done == ["write 1", "write 2", "post"]


async def test_reads_are_taken_in_order() -> None:
    gate = threading.Event()
    done: list[int] = []
    blocking = asyncio.ensure_future(off_loop(busy_until, gate))
    await asyncio.sleep(0.05)
    queued = [asyncio.ensure_future(off_loop(done.append, n)) for n in range(5)]
    gate.set()
    await asyncio.gather(blocking, *queued)
    assert done == [0, 1, 2, 3, 4]


async def test_a_write_never_waits_for_a_read_in_progress() -> None:
    gate = threading.Event()
    reading = asyncio.ensure_future(off_loop(busy_until, gate))
    await asyncio.sleep(0.05)  # a long read is in progress
    try:
        paired = await asyncio.wait_for(off_loop_as(Priority.WRITE, lambda: "paired"), 2)
        posted = await asyncio.wait_for(off_loop_as(Priority.POST, lambda: "posted"), 2)
        assert (paired, posted) == ("paired", "posted")
        assert not reading.done()
    finally:
        gate.set()
        await reading


async def test_an_error_in_the_worker_is_raised_to_the_caller() -> None:
    def broken() -> None:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        await off_loop_as(Priority.WRITE, broken)
    assert await off_loop(lambda: 7) == 7  # the worker goes on

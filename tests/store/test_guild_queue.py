"""One writer per guild at a time (bot/store/uow.py `GuildQueue`): the staff's writes go
before the players' that wait, so a judge's decision does not wait behind a round's
reports; otherwise first come first served, and a cancelled waiter loses nothing."""

from __future__ import annotations

import asyncio

from bot.store.uow import GuildQueue


async def test_a_staff_writer_goes_before_the_players_waiting() -> None:
    queue = GuildQueue()
    order: list[str] = []
    release = asyncio.Event()

    async def write(name: str, *, staff: bool = False, hold: bool = False) -> None:
        async with queue.turn(1, staff=staff):
            order.append(name)
            if hold:
                await release.wait()

    holder = asyncio.create_task(write("first", hold=True))
    await asyncio.sleep(0)
    players = [asyncio.create_task(write(f"player {n}")) for n in range(3)]
    await asyncio.sleep(0)
    judge = asyncio.create_task(write("judge", staff=True))
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(holder, *players, judge)
    assert order == ["first", "judge", "player 0", "player 1", "player 2"]
    assert len(queue) == 0  # no entry kept for a quiet guild


async def test_a_waiter_cancelled_passes_its_turn_on() -> None:
    queue = GuildQueue()
    order: list[str] = []
    release = asyncio.Event()

    async def write(name: str, *, hold: bool = False) -> None:
        async with queue.turn(1):
            order.append(name)
            if hold:
                await release.wait()

    holder = asyncio.create_task(write("first", hold=True))
    await asyncio.sleep(0)
    cancelled = asyncio.create_task(write("gone"))
    after = asyncio.create_task(write("after"))
    await asyncio.sleep(0)
    cancelled.cancel()
    release.set()
    await asyncio.gather(holder, after)
    assert order == ["first", "after"]
    assert len(queue) == 0


async def test_guilds_do_not_wait_for_each_other() -> None:
    queue = GuildQueue()
    release = asyncio.Event()

    async def hold() -> None:
        async with queue.turn(1):
            await release.wait()

    holder = asyncio.create_task(hold())
    await asyncio.sleep(0)
    async with queue.turn(2):
        assert len(queue) == 2
    release.set()
    await holder

"""The delivery's share of Discord's global limit, and the count of refused answers
(bot/delivery/pace.py)."""

from __future__ import annotations

import asyncio
import time

from bot.delivery.pace import PLAYERS, STAFF, Pace, Refusals


async def test_turns_come_at_the_rate_the_staff_first() -> None:
    pace = Pace(rate=20.0)
    for _ in range(20):  # the burst of one second's worth
        await pace.take()
    order: list[str] = []

    async def take(name: str, priority: int) -> None:
        await pace.take(priority)
        order.append(name)

    started = time.monotonic()
    players = [asyncio.create_task(take(f"player {n}", PLAYERS)) for n in range(4)]
    await asyncio.sleep(0)
    staff = asyncio.create_task(take("staff", STAFF))
    await asyncio.gather(*players, staff)
    took = time.monotonic() - started
    assert order[0] == "staff"  # asked for last, served first
    assert order[1:] == [f"player {n}" for n in range(4)]
    assert took >= 4 / 20.0  # five turns past the burst at 20 a second
    pace.close()


async def test_a_turn_given_up_takes_nothing() -> None:
    pace = Pace(rate=10.0)
    for _ in range(10):
        await pace.take()
    waiting = asyncio.create_task(pace.take())
    await asyncio.sleep(0.01)
    waiting.cancel()
    started = time.monotonic()
    await pace.take()
    assert time.monotonic() - started < 0.2  # the first token after the burst, not the second
    pace.close()


def test_refused_answers_are_counted_over_ten_minutes_and_warned_once() -> None:
    now = [0.0]
    warned: list[int] = []
    refusals = Refusals(lambda: now[0], warning=3)
    refusals.on_warning(warned.append)
    for status in (200, 404, 403, 401):
        refusals.note(status)
    refusals.note(429, "shared")  # Discord does not count a shared bucket's 429
    assert refusals.count() == 2
    refusals.note(429, "user")
    refusals.note(403)
    assert warned == [3]  # once, at the warning
    now[0] = 599.0
    assert refusals.count() == 4
    now[0] = 601.0  # the first ones left the window
    assert refusals.count() == 0
    for _ in range(3):
        refusals.note(403)
    assert warned == [3, 3]  # a new burst, a new warning

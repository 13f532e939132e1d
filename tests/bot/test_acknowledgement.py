"""An answer that is slow to come is acknowledged first (Discord's 3 s); a quick one stays
one response."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.ui.messages import Acknowledgement


class Response:
    """What `Acknowledgement` uses of discord.py's `InteractionResponse`."""

    def __init__(self) -> None:
        self.deferred: list[dict[str, bool]] = []

    def is_done(self) -> bool:
        return bool(self.deferred)

    async def defer(self, **options: bool) -> None:
        await asyncio.sleep(0.01)  # the request to Discord
        self.deferred.append(options)


class Interaction:
    id = 1

    def __init__(self) -> None:
        self.response = Response()


async def test_a_quick_answer_is_not_acknowledged_first() -> None:
    interaction: Any = Interaction()
    async with Acknowledgement(interaction, after=0.05, ephemeral=True):
        await asyncio.sleep(0.001)
    await asyncio.sleep(0.1)  # the timer would have fired by now
    assert interaction.response.deferred == []


async def test_a_slow_answer_is_acknowledged_once_the_time_is_up() -> None:
    interaction: Any = Interaction()
    async with Acknowledgement(interaction, after=0.02, ephemeral=True, thinking=True):
        await asyncio.sleep(0.1)
        assert interaction.response.deferred == [{"ephemeral": True, "thinking": True}]
    assert interaction.response.is_done()


async def test_now_acknowledges_at_once_and_only_once() -> None:
    interaction: Any = Interaction()
    async with Acknowledgement(interaction, after=0.02) as ack:
        await ack.now()
        await asyncio.sleep(0.05)
        await ack.now()
    assert interaction.response.deferred == [{}]


async def test_an_answer_ready_while_acknowledging_waits_for_it() -> None:
    interaction: Any = Interaction()
    async with Acknowledgement(interaction, after=0.0):
        await asyncio.sleep(0.005)  # the timer fired; its request is under way
    # The block's end waited for the acknowledgement: the answer sees it done.
    assert interaction.response.is_done()

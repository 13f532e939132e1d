"""Ctrl-C and SIGTERM reach the shutdown code, with or without `loop.add_signal_handler`.

Windows' event loops raise NotImplementedError from `add_signal_handler`; the fallback is
tested here by making this loop do the same.
"""

from __future__ import annotations

import asyncio
import signal

import pytest

from bot.cli.run import install_stop_handlers


class Received:
    """The stop callback: records signal names, and says when two have arrived."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.both = asyncio.Event()

    def __call__(self, name: str) -> None:
        self.names.append(name)
        if len(self.names) == 2:
            self.both.set()

    async def wait(self) -> list[str]:
        await asyncio.wait_for(self.both.wait(), 2)
        return self.names


async def test_signals_reach_the_loop_through_add_signal_handler() -> None:
    loop = asyncio.get_running_loop()
    received = Received()
    remove = install_stop_handlers(loop, received)
    try:
        signal.raise_signal(signal.SIGTERM)
        signal.raise_signal(signal.SIGINT)
        assert await received.wait() == ["SIGTERM", "SIGINT"]
    finally:
        remove()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


async def test_without_add_signal_handler_the_fallback_still_stops_the_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loop = asyncio.get_running_loop()

    def unsupported(*args: object) -> None:
        raise NotImplementedError  # what Windows' ProactorEventLoop does

    monkeypatch.setattr(loop, "add_signal_handler", unsupported)
    before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    received = Received()
    restore = install_stop_handlers(loop, received)
    try:
        signal.raise_signal(signal.SIGINT)  # no KeyboardInterrupt: the handler took it
        signal.raise_signal(signal.SIGTERM)
        assert await received.wait() == ["SIGINT", "SIGTERM"]
    finally:
        restore()
    assert {number: signal.getsignal(number) for number in before} == before

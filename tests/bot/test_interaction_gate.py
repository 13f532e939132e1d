"""`InteractionGate` tracks exactly the tasks an INTERACTION_CREATE starts (bot/shutdown.py)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.shutdown import InteractionGate


def client_with(parser: Any) -> Any:
    """A client as far as the gate reads it: the gateway's parsers, and `dispatch`."""
    return SimpleNamespace(
        _connection=SimpleNamespace(parsers={"INTERACTION_CREATE": parser}),
        dispatch=lambda event, *args, **kwargs: None,
    )


async def test_the_gate_tracks_the_tasks_of_each_interaction_and_no_other() -> None:
    release = asyncio.Event()
    started: list[asyncio.Task[None]] = []

    def parser(data: Any) -> None:  # as discord.py: tasks created synchronously
        started.append(asyncio.get_running_loop().create_task(release.wait()))
        started.append(asyncio.ensure_future(release.wait()))

    client = client_with(parser)
    gate = InteractionGate(client)
    gate.install()
    unrelated = [asyncio.create_task(release.wait()) for _ in range(50)]
    client._connection.parsers["INTERACTION_CREATE"]({"id": "1"})
    client._connection.parsers["INTERACTION_CREATE"]({"id": "2"})
    assert gate._running == set(started)
    assert gate.in_flight == 4
    release.set()
    await asyncio.gather(*started, *unrelated)
    await asyncio.sleep(0)
    assert gate.in_flight == 0


async def test_the_gate_keeps_the_loops_own_task_factory() -> None:
    loop = asyncio.get_running_loop()
    made: list[Any] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
        task = asyncio.Task(coro, loop=loop, **kwargs)
        made.append(task)
        return task

    loop.set_task_factory(factory)
    try:
        client = client_with(lambda data: asyncio.ensure_future(asyncio.sleep(0)))
        gate = InteractionGate(client)
        gate.install()
        client._connection.parsers["INTERACTION_CREATE"]({"id": "1"})
        assert loop.get_task_factory() is factory
        assert gate._running == set(made)
        assert len(made) == 1
        await asyncio.gather(*made)
    finally:
        loop.set_task_factory(None)

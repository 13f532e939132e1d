"""A version about to be committed is promised to the tournament cache (bot/store/uow.py):
a read that sees it committed before the writer put it waits for the writer's value
instead of loading the whole tournament again, and loads it itself if the commit failed."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

from bot.store.uow import TournamentCache
from domain.tournament import Tournament


def tournament(version_label: str) -> Tournament:
    return cast(Tournament, SimpleNamespace(id=7, label=version_label))


async def test_a_read_of_a_promised_version_waits_for_the_writer_instead_of_loading() -> None:
    cache = TournamentCache()
    loads: list[str] = []

    async def load() -> Any:
        loads.append("loaded")
        return tournament("from the database")

    cache.promise(7, 5)
    reading = asyncio.create_task(cache.load_once(7, 5, load))
    await asyncio.sleep(0)
    written = tournament("the writer's")
    cache.kept(5, written)
    assert await reading is written
    assert loads == []
    assert cache.get(7, 5) is written


async def test_a_broken_promise_leaves_the_read_to_load_for_itself() -> None:
    cache = TournamentCache()
    loaded = tournament("from the database")

    async def load() -> Any:
        return loaded

    cache.promise(7, 5)
    reading = asyncio.create_task(cache.load_once(7, 5, load))
    await asyncio.sleep(0)
    cache.broken(7, 5)
    assert await reading is loaded

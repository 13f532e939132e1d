"""What every service shares: the store, the clock, where seeds come from, and the unit of
work that every change goes through."""

from __future__ import annotations

import inspect
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial, wraps
from typing import Any, TypeVar

from bot.services.actors import Actor, require_guild, role_of, tournament_actor
from bot.store.uow import Origin, Store, Transaction, retrying_conflicts
from bot.store.uow import TournamentRef as TournamentRef  # the services' and cogs' name
from bot.worker import for_the_staff
from domain.errors import DomainError, IllegalTransition
from domain.tournament.operations import Actor as TournamentActor
from domain.tournament.operations import Role

T = TypeVar("T")
Clock = Callable[[], datetime]
SeedSource = Callable[[], int]

ANYONE = TournamentActor(0)  # reads that anyone in the guild may make
SYSTEM = TournamentActor(0)  # the bot's own bookkeeping (the clock, its posts)


def _retried(method: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    @wraps(method)
    async def retried(*args: Any, **kwargs: Any) -> T:
        return await retrying_conflicts(partial(method, *args, **kwargs))

    return retried


def utc_now() -> datetime:
    return datetime.now(UTC)


def random_seed() -> int:
    return secrets.randbits(48)


class Service:
    """A group of use cases. Each public coroutine method of a service is run again when
    PostgreSQL refused its transaction for another that won (`retrying_conflicts`)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, method in list(vars(cls).items()):
            if not name.startswith("_") and inspect.iscoroutinefunction(method):
                setattr(cls, name, _retried(method))

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock = utc_now,
        seeds: SeedSource = random_seed,
        default_locale: str = "ja",
    ) -> None:
        self.store = store
        self.clock = clock
        self.seeds = seeds
        self.default_locale = default_locale

    @asynccontextmanager
    async def uow(self, actor: Actor) -> AsyncIterator[Transaction]:
        """One write transaction in the actor's guild, as the actor's tournament role. The
        request is acknowledged first (`Actor.acknowledge`), then written: the one way a
        person's change reaches the database, so none is ever written unacknowledged."""
        guild_id = require_guild(actor)
        if actor.acknowledge is not None:
            await actor.acknowledge()
        resolve = partial(tournament_actor, actor)
        origin = Origin(actor.display_name, actor.channel_id)
        # The staff's writes go first (from the settings as last read: only an order).
        known = self.store.guild_configs.get(guild_id)
        staff = known is not None and role_of(actor, known) >= Role.JUDGE
        if staff:
            for_the_staff()
        async with self.store.write(
            guild_id,
            self.clock(),
            resolve,
            request_id=actor.request_id,
            origin=origin,
            staff=staff,
        ) as tx:
            yield tx

    async def in_its_server(self, actor: Actor, tournament_id: int) -> Actor:
        """The actor of a button that carries `tournament_id`. Pressed in a DM (a notice
        sent there, as the round had no thread), it acts in that tournament's server, as a
        member without roles: a DM tells nothing of them, so only what any player may do
        goes through."""
        if actor.guild_id is not None:
            return actor
        guild_id = await self.store.guild_of(tournament_id)
        if guild_id is None:
            raise IllegalTransition("errors.stale_button")
        return replace(actor, guild_id=guild_id, role_ids=frozenset(), manages_guild=False)

    @asynccontextmanager
    async def reader(self, guild_id: int | None) -> AsyncIterator[Transaction]:
        """A consistent read of one guild's tournaments (a DM has none to read)."""
        if guild_id is None:
            raise DomainError("errors.guild_only")
        async with self.store.read(guild_id, self.clock(), lambda _: ANYONE) as tx:
            yield tx

    @asynccontextmanager
    async def reader_as(self, actor: Actor) -> AsyncIterator[Transaction]:
        """A consistent read as the actor (their role decides what they may see)."""
        guild_id = require_guild(actor)
        async with self.store.read(guild_id, self.clock(), partial(tournament_actor, actor)) as tx:
            yield tx

    @asynccontextmanager
    async def bookkeeping(self, guild_id: int) -> AsyncIterator[Transaction]:
        """A write transaction of the bot itself (the clock's notices, its posts' state)."""
        async with self.store.write(guild_id, self.clock(), lambda _: SYSTEM) as tx:
            yield tx

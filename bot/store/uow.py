"""The unit of work: one transaction that loads tournaments, applies operations to them,
writes the changed rows and appends each whole operation to the action log.

    async with store.write(actor, at) as tx:
        tournament = await tx.tournament(reference)
        tournament, events = await tx.apply(tournament, operation)

Everything inside commits together or not at all. Tournaments are cached by their version
(bumped by every applied operation), so a busy event is not re-read from disk per click.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import aiosqlite

from bot.store.actions import (
    append_guild_change,
    append_operation,
    is_replayable,
    list_actions,
    logged_operations,
    request_seen,
)
from bot.store.commits import CommitBus, Committed
from bot.store.database import Database
from bot.store.guilds import GuildConfig, get_guild_config
from bot.store.pending import add_pending, take_pending
from bot.store.tournaments import (
    find_tournament_id,
    insert_tournament,
    load_tournament,
    page_versions,
    save_tournament,
    tournament_ids,
    tournament_version,
)
from domain.errors import IllegalTransition, InvalidInput, NotFound, PermissionDenied
from domain.tournament.apply import apply, create
from domain.tournament.events import Event
from domain.tournament.model import Tournament
from domain.tournament.operations import Actor, CreateTournament, Operation, Undo, operation_types
from domain.tournament.permissions import authorize, authorize_role
from domain.tournament.undo import UndoPlan, plan_undo

ActorResolver = Callable[[GuildConfig], Actor]

# SQLite's INTEGER is 64-bit: a longer run of digits cannot be an id, so it is a name.
_MAX_ID = 2**63 - 1


def tournament_id_in(reference: str) -> int | None:
    """The id an option names: ASCII digits within SQLite's range, else None (a name)."""
    text = reference.strip()
    if not text or len(text) > 19 or not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if 0 < value <= _MAX_ID else None


class TournamentCache:
    """Loaded tournaments by id, with the version they were loaded at."""

    def __init__(self) -> None:
        self._entries: dict[int, tuple[int, Tournament]] = {}

    def get(self, tournament_id: int, version: int) -> Tournament | None:
        cached = self._entries.get(tournament_id)
        return cached[1] if cached and cached[0] == version else None

    def put(self, version: int, tournament: Tournament) -> None:
        self._entries[tournament.id] = (version, tournament)


class Transaction:
    """One unit of work for one guild, as one actor, at one moment."""

    def __init__(
        self,
        connection: aiosqlite.Connection,
        cache: TournamentCache,
        *,
        guild_id: int,
        at: datetime,
        actor: Actor,
        writable: bool,
        request_id: int | None = None,
        config: GuildConfig | None = None,
    ) -> None:
        self.connection = connection
        self._config = config  # as read when the transaction began
        self.request_id = request_id
        self.guild_id = guild_id
        self.at = at
        self.actor = actor
        self._cache = cache
        self._writable = writable
        # Tournaments changed in this transaction, and their new versions: cached only
        # once it commits.
        self.changed: dict[int, Tournament] = {}
        self.versions: dict[int, int] = {}
        # What happened to each changed tournament, published once the transaction commits.
        self.events: dict[int, list[Event]] = {}
        self.kinds: dict[int, list[str]] = {}

    def authorize(self, kind: type[Operation]) -> None:
        """Refuse early, before any work, an actor whose role may not make `kind`."""
        authorize_role(kind, self.actor)

    async def guild_config(self) -> GuildConfig:
        # A read-only transaction cannot have changed it since it began: no second query.
        if not self._writable and self._config is not None:
            return self._config
        return await get_guild_config(self.connection, self.guild_id)

    async def load(self, tournament_id: int) -> Tournament | None:
        if tournament_id in self.changed:
            return self.changed[tournament_id]
        version = await tournament_version(self.connection, self.guild_id, tournament_id)
        if version is None:
            return None
        self.versions[tournament_id] = version
        cached = self._cache.get(tournament_id, version)
        if cached is not None:
            return cached
        # Nothing of this tournament was written yet in this transaction: these are the
        # committed rows, safe to cache.
        loaded = await load_tournament(self.connection, self.guild_id, tournament_id)
        if loaded is not None:
            self._cache.put(version, loaded)
        return loaded

    async def tournament(self, reference: str | None) -> Tournament:
        """The tournament an option names: an id from autocomplete, a name, or the only open
        one when nothing is named."""
        if reference is None or not reference.strip():
            open_ones = await self.tournaments(open_only=True)
            if len(open_ones) == 1:
                return open_ones[0]
            if not open_ones:
                raise NotFound("tournament.none_open")
            names = ", ".join(t.name for t in open_ones[:10])
            raise InvalidInput("tournament.which_one", names=names)
        text = reference.strip()
        found = None
        by_id = tournament_id_in(text)
        if by_id is not None:
            found = await self.load(by_id)
        if found is None:
            named = await find_tournament_id(self.connection, self.guild_id, text)
            found = await self.load(named) if named is not None else None
        if found is None:
            raise NotFound("tournament.unknown", reference=text[:100])
        return found

    async def tournaments(self, *, open_only: bool = False) -> list[Tournament]:
        """This guild's tournaments, newest first."""
        found = []
        for _, tournament_id in await tournament_ids(
            self.connection, self.guild_id, open_only=open_only
        ):
            loaded = await self.load(tournament_id)
            if loaded is not None:
                found.append(loaded)
        return found

    async def name_taken(self, name: str) -> bool:
        return await find_tournament_id(self.connection, self.guild_id, name) is not None

    async def create(self, operation: CreateTournament) -> tuple[Tournament, tuple[Event, ...]]:
        self._require_writable()
        authorize(operation, self.actor)
        await self._refuse_a_repeated_request()
        if await self.name_taken(operation.config.name):
            raise InvalidInput("tournament.name_taken", name=operation.config.name)
        draft, _ = create(
            operation, tournament_id=0, guild_id=self.guild_id, at=self.at, actor=self.actor
        )
        tournament_id = await insert_tournament(self.connection, draft)
        created, events = create(
            operation,
            tournament_id=tournament_id,
            guild_id=self.guild_id,
            at=self.at,
            actor=self.actor,
        )
        await self._log(created, operation)
        self.changed[created.id] = created
        self.versions[created.id] = 0
        self._happened(created.id, operation.kind, events)
        return created, events

    async def apply(
        self, tournament: Tournament, operation: Operation
    ) -> tuple[Tournament, tuple[Event, ...]]:
        """Apply `operation`, write the changed rows and log it; a refusal writes nothing."""
        self._require_writable()
        await self._refuse_a_repeated_request()
        updated, events = apply(tournament, operation, self.at, self.actor)
        await save_tournament(self.connection, tournament, updated)
        await self._log(updated, operation)
        self.changed[updated.id] = updated
        self.versions[updated.id] = self.versions[updated.id] + 1
        self._happened(updated.id, operation.kind, events)
        return updated, events

    async def undo(
        self, tournament: Tournament, action_id: int | None = None
    ) -> tuple[Tournament, UndoPlan]:
        """Take back one operation (default: the last undoable one), if that is safe: the
        tournament becomes the fold of its log without it, and the undo is logged."""
        self._require_writable()
        await self._refuse_a_repeated_request()
        plan = await self.plan_undo(tournament, action_id)
        await save_tournament(self.connection, tournament, plan.after)
        await self._log(plan.after, Undo(plan.target.id))
        self.changed[plan.after.id] = plan.after
        self.versions[plan.after.id] = self.versions[plan.after.id] + 1
        self._happened(plan.after.id, Undo.kind, ())
        return plan.after, plan

    async def plan_undo(self, tournament: Tournament, action_id: int | None = None) -> UndoPlan:
        """What undoing would give, or the refusal that says why; nothing is written."""
        authorize_role(Undo, self.actor)
        actions = await list_actions(
            self.connection, guild_id=self.guild_id, tournament_id=tournament.id
        )
        if not is_replayable(actions):
            raise IllegalTransition("undo.log_too_old", tournament=tournament.name)
        return plan_undo(tournament.id, self.guild_id, logged_operations(actions), action_id)

    async def hold(self, tournament: Tournament, operation: Operation) -> int:
        """Keep `operation` waiting for its maker's confirmation (the buttons of a preview,
        which survive a restart). The rules check it now, so a preview that could not be
        applied is refused at once; it is applied, and logged, when confirmed."""
        self._require_writable()
        if isinstance(operation, Undo):
            await self.plan_undo(tournament, operation.action_id)
        else:
            apply(tournament, operation, self.at, self.actor)
        return await add_pending(
            self.connection,
            guild_id=self.guild_id,
            tournament_id=tournament.id,
            actor_id=self.actor.user_id,
            kind=operation.kind,
            payload=operation.to_payload(),
            at=self.at,
        )

    async def take_held(self, pending_id: int) -> tuple[Tournament, Operation]:
        """The operation waiting under `pending_id`, removed (a confirmation is used once);
        only the person who asked for it may take it."""
        self._require_writable()
        pending = await take_pending(self.connection, self.guild_id, pending_id)
        if pending is None:
            raise NotFound("judge.nothing_pending")
        if pending.actor_id != self.actor.user_id:
            raise PermissionDenied("judge.not_your_confirmation")
        operation = operation_types()[pending.kind].from_payload(pending.payload)
        return await self.tournament(str(pending.tournament_id)), operation

    async def log_guild_change(self, kind: str, payload: dict[str, Any]) -> None:
        self._require_writable()
        await append_guild_change(
            self.connection,
            guild_id=self.guild_id,
            actor_id=self.actor.user_id,
            kind=kind,
            payload=payload,
            at=self.at,
        )

    def _happened(self, tournament_id: int, kind: str, events: tuple[Event, ...]) -> None:
        self.events.setdefault(tournament_id, []).extend(events)
        self.kinds.setdefault(tournament_id, []).append(kind)

    async def _refuse_a_repeated_request(self) -> None:
        if self.request_id is not None and await request_seen(self.connection, self.request_id):
            raise IllegalTransition("errors.already_done")

    async def _log(self, tournament: Tournament, operation: Operation) -> None:
        await append_operation(
            self.connection,
            guild_id=self.guild_id,
            tournament_id=tournament.id,
            actor_id=self.actor.user_id,
            actor_role=self.actor.role,
            operation=operation,
            at=self.at,
            request_id=self.request_id,
        )
        self.request_id = None  # the request is spent; later operations of it are its own

    def _require_writable(self) -> None:
        if not self._writable:
            raise RuntimeError("a read-only unit of work cannot apply operations")


class Store:
    """The database and the tournament cache, shared by every service."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.cache = TournamentCache()
        # Every commit is published here (the notifier, the live page, other processes).
        self.commits = CommitBus()
        # Each guild's /setup, read on nearly every command: kept until /setup changes it.
        self.guild_configs: dict[int, GuildConfig] = {}

    @asynccontextmanager
    async def write(
        self, guild_id: int, at: datetime, actor: ActorResolver, *, request_id: int | None = None
    ) -> AsyncIterator[Transaction]:
        """One write transaction. `actor` gives the tournament actor from the guild's
        configuration, read inside the same transaction."""
        async with self.database.write() as connection:
            config = await get_guild_config(connection, guild_id)
            tx = Transaction(
                connection,
                self.cache,
                guild_id=guild_id,
                at=at,
                actor=actor(config),
                writable=True,
                request_id=request_id,
            )
            yield tx
        # Committed: what changed is now what the tables hold.
        for tournament_id, tournament in tx.changed.items():
            self.cache.put(tx.versions[tournament_id], tournament)
        for tournament_id, tournament in tx.changed.items():
            self.commits.publish(
                Committed(
                    guild_id=tournament.guild_id,
                    tournament_id=tournament_id,
                    version=tx.versions[tournament_id],
                    events=tuple(tx.events.get(tournament_id, ())),
                    kinds=tuple(tx.kinds.get(tournament_id, ())),
                )
            )

    async def page_versions(self, slug: str | None = None) -> list[tuple[str, int, int, int]]:
        """(slug, guild id, tournament id, version) of the public live pages (or the one at
        `slug`), across guilds: the page's address is all its reader brings."""
        async with self.database.read() as connection:
            return await page_versions(connection, slug)

    @asynccontextmanager
    async def read(
        self, guild_id: int, at: datetime, actor: ActorResolver
    ) -> AsyncIterator[Transaction]:
        async with self.database.read() as connection:
            config = await get_guild_config(connection, guild_id)
            yield Transaction(
                connection,
                self.cache,
                guild_id=guild_id,
                at=at,
                actor=actor(config),
                writable=False,
                config=config,
            )

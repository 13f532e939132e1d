"""The unit of work: one transaction that loads tournaments, applies operations to them,
writes the changed rows, appends each whole operation to the action log, and writes to the
outbox what the notifier's plan says must be told about it.

    async with store.write(guild_id, at, actor) as tx:
        tournament = await tx.tournament(reference)
        tournament, events = await tx.apply(tournament, operation)

Everything inside commits together or not at all; once it has committed, the store
publishes what changed on `Store.commits`. Tournaments are cached by their version (bumped
by every applied operation), so a busy event is not re-read from disk per click. This is
the services' only way to the database: they hold no SQL and no connection.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from bot.errors import StorageConflict
from bot.notify.plan import Context, Notice, Place
from bot.store.actions import (
    append_guild_change,
    append_operation,
    list_actions,
    log_rows,
    operations_in,
    replayable,
    request_seen,
)
from bot.store.backend import Connection, Database, Row, WriteConflict
from bot.store.books import Books
from bot.store.calendar import CalendarEvents
from bot.store.commits import CommitBus, Committed
from bot.store.guilds import GuildConfig, get_guild_config, save_guild_config
from bot.store.outbox import OutboxStore, add_notices, planned_keys
from bot.store.pending import add_pending, take_pending
from bot.store.posts import (
    EntryPost,
    KeptNotice,
    Posts,
    RoundPlace,
    round_place,
    save_entry_post,
    take_player_notices,
)
from bot.store.refusing import RefusingPlaces
from bot.store.rooms import RoomChannels, owned_count
from bot.store.shards import Shards
from bot.store.tournaments import (
    find_tournament_id,
    insert_tournament,
    latest_finished_tournament_id,
    page_versions,
    save_tournament,
    tournament_from,
    tournament_guild,
    tournament_ids,
    tournament_names,
    tournament_rows,
    tournament_version,
)
from bot.worker import Priority, off_loop_as
from domain.errors import IllegalTransition, InvalidInput, NotFound, PermissionDenied
from domain.ids import storable_id
from domain.tournament import events as ev
from domain.tournament.apply import apply, create
from domain.tournament.events import Event
from domain.tournament.log import Action
from domain.tournament.model import Tournament
from domain.tournament.operations import (
    Actor,
    CreateTournament,
    Operation,
    StartTournament,
    Undo,
    operation_types,
)
from domain.tournament.permissions import authorize, authorize_role
from domain.tournament.undo import UndoPlan, plan_undo
from domain.tournament.views import Views

ActorResolver = Callable[[GuildConfig], Actor]
# Operations whose rules look at every player (the start checks every list again): applied
# off the event loop (bot/worker.py), the others on it, where a report costs less than the
# hand-over would. Seating a round checks sets of ids only, quick at any size: on the loop
# it no longer waits for whatever the worker is in the middle of (a large event's standings
# layout), with every report queued behind the write lock (docs/BENCHMARKS.md, "Click → last
# pairings message").
EVERY_PLAYER = (StartTournament,)
LANGUAGES = ("ja", "en")


@dataclass(frozen=True)
class Origin:
    """Where a request came from: who, by name, for the staff's log, and the channel a
    command was used in (some posts go there when the server set no channel)."""

    actor_name: str = ""
    channel_id: int | None = None


# What names a tournament: the id a button or form carries (an `int`: that tournament of
# this server, or none), what a member typed in an option (a `str`: an id from the
# autocomplete, or a name), or nothing (the only open one).
TournamentRef = int | str | None


def tournament_id_in(reference: str) -> int | None:
    """The id an option names: ASCII digits within SQLite's range, else None (a name)."""
    text = reference.strip()
    if not text or len(text) > 19 or not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if storable_id(value) else None


@dataclass(frozen=True)
class Cached:
    """A tournament as of one version, and what is read about it (standings, placings,
    pages), each worked out once for that version, by whoever asks first."""

    version: int
    tournament: Tournament
    views: Views


# Versions kept of each tournament besides the newest: a read that began just before a few
# commits (a rush of reports commits every few milliseconds) finds its version here
# instead of loading the whole tournament again.
KEPT_VERSIONS = 4


class TournamentCache:
    """Loaded tournaments by id, each with the version it was loaded at and its views: the
    newest few versions of each, oldest first. A version older than those kept is not put
    (its reader loads it for itself)."""

    def __init__(self) -> None:
        self._entries: dict[int, list[Cached]] = {}
        # Loads under way, by (tournament, version): reads at the same time that find the
        # same version missing wait for one load and share it (docs/BENCHMARKS.md, "What
        # the profile showed (py-spy, 4,096) and what changed").
        self._loading: dict[tuple[int, int], asyncio.Future[Tournament | None]] = {}

    def get(self, tournament_id: int, version: int) -> Tournament | None:
        for cached in self._entries.get(tournament_id, ()):
            if cached.version == version:
                return cached.tournament
        return None

    def put(self, version: int, tournament: Tournament) -> None:
        kept = self._entries.setdefault(tournament.id, [])
        if any(cached.version == version for cached in kept):
            return
        if len(kept) == KEPT_VERSIONS and version < kept[0].version:
            return  # older than every version kept
        # A version that only moved (`Transaction.touch`) shares what was read of the last.
        same = [cached.views for cached in kept if cached.tournament is tournament]
        kept.append(Cached(version, tournament, same[0] if same else Views(tournament)))
        kept.sort(key=lambda cached: cached.version)  # commits may finish out of order
        del kept[:-KEPT_VERSIONS]

    async def load_once(
        self,
        tournament_id: int,
        version: int,
        load: Callable[[], Awaitable[Tournament | None]],
    ) -> Tournament | None:
        """The tournament at `version`: from the cache, or from the load already under way
        for that version, or `load()` (kept). A failed load fails only its caller; those
        who waited for it load for themselves."""
        cached = self.get(tournament_id, version)
        if cached is not None:
            return cached
        key = (tournament_id, version)
        under_way = self._loading.get(key)
        if under_way is not None:
            shared = await asyncio.shield(under_way)
            if shared is not None or key in self._loading:
                return shared
            return await load()  # that load failed: this caller's own
        future: asyncio.Future[Tournament | None] = asyncio.get_running_loop().create_future()
        self._loading[key] = future
        try:
            loaded = await load()
        except BaseException:
            del self._loading[key]
            future.set_result(None)
            raise
        if loaded is not None:
            self.put(version, loaded)
        del self._loading[key]
        future.set_result(loaded)
        return loaded

    def promise(self, tournament_id: int, version: int) -> None:
        """A writer is about to commit `version`: a read that sees it committed before the
        writer has put it here waits for it instead of loading the tournament again (a rush
        of reports commits a version every few milliseconds)."""
        key = (tournament_id, version)
        if key not in self._loading:
            self._loading[key] = asyncio.get_running_loop().create_future()

    def kept(self, version: int, tournament: Tournament) -> None:
        """The promised version, committed: put, and handed to those who waited."""
        self.put(version, tournament)
        waiting = self._loading.pop((tournament.id, version), None)
        if waiting is not None and not waiting.done():
            waiting.set_result(tournament)

    def broken(self, tournament_id: int, version: int) -> None:
        """The promised version was not committed: those who waited load for themselves."""
        waiting = self._loading.pop((tournament_id, version), None)
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    def views(self, tournament: Tournament) -> Views:
        """The views of `tournament`: the cached ones when it is the cached version (the
        very value), else new ones for this caller alone (a copy being changed in a
        transaction, or an older one someone still holds)."""
        for cached in self._entries.get(tournament.id, ()):
            if cached.tournament is tournament:
                return cached.views
        return Views(tournament)


# The notifier's plan: the notices of one operation's events (bot.notify.plan.plan).
Planner = Callable[[Sequence[Event], Context], list[Notice]]


class Transaction:
    """One unit of work for one guild, as one actor, at one moment."""

    def __init__(
        self,
        connection: Connection,
        cache: TournamentCache,
        *,
        database: Database,
        guild_id: int,
        at: datetime,
        actor: Actor,
        writable: bool,
        config: GuildConfig,
        plan: Planner,
        default_lang: str = "ja",
        request_id: int | None = None,
        origin: Origin | None = None,
    ) -> None:
        self._connection = connection
        self._plan = plan
        self._database = database
        self._locked: set[int] = set()  # tournaments this transaction is the writer of
        self._config = config  # as read when the transaction began
        self._default_lang = default_lang
        self.origin = origin or Origin()
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
        self.notices = 0  # outbox rows written
        self.told: dict[int, int] = {}  # tournaments with notices written: their guild

    def authorize(self, kind: type[Operation]) -> None:
        """Refuse early, before any work, an actor whose role may not make `kind`."""
        authorize_role(kind, self.actor)

    async def guild_config(self) -> GuildConfig:
        return self._config  # read when the transaction began, and saved through it only

    @property
    def books(self) -> Books:
        """The guild's own bookkeeping in this transaction: profiles (handles) and series."""
        return Books(self._connection, self.guild_id, self.at, self.actor.user_id)

    async def save_guild_config(self, config: GuildConfig) -> None:
        self._require_writable()
        await save_guild_config(self._connection, config, self.at)
        self._config = config

    @property
    def posting_lang(self) -> str:
        """The language of the server's posts: /setup's choice, else the bot's default."""
        locale = self._config.locale
        return locale if locale in LANGUAGES else self._default_lang

    async def load(self, tournament_id: int) -> Tournament | None:
        if tournament_id in self.changed:
            return self.changed[tournament_id]
        if self._writable and tournament_id not in self._locked:
            # One writer per tournament, across processes: the lock comes before the
            # version is read, so what is read is what this transaction may change.
            await self._database.lock_tournament(self._connection, tournament_id)
            self._locked.add(tournament_id)
        version = await tournament_version(self._connection, self.guild_id, tournament_id)
        if version is None:
            return None
        self.versions[tournament_id] = version
        # Nothing of this tournament was written yet in this transaction: these are the
        # committed rows of `version`, safe to cache and to share.
        connection, guild_id = self._connection, self.guild_id

        async def load() -> Tournament | None:
            # The rows read here; the tournament built from them off the event loop (the
            # first command after a restart at 4,096 players held the loop: docs/BENCHMARKS.md,
            # "How the time was found", the first load off the loop).
            rows = await tournament_rows(connection, guild_id, tournament_id)
            if rows is None:
                return None
            return await off_loop_as(Priority.WRITE, lambda: tournament_from(rows))

        return await self._cache.load_once(tournament_id, version, load)

    def views(self, tournament: Tournament) -> Views:
        """What is read about `tournament` (its standings, placings, …), worked out once per
        committed version."""
        return self._cache.views(tournament)

    async def tournament(
        self, reference: TournamentRef, *, finished_too: bool = False
    ) -> Tournament:
        """The tournament a button's id names, or an option: an id from autocomplete, a
        name, or, when nothing is named, the only open one. A command that still makes sense
        once the tournament is over (`finished_too`: export, standings, the log, …) takes,
        when none is open, the tournament finished last."""
        if isinstance(reference, int):
            # An id is never read as a name: a button of another server's tournament, or of
            # one that is gone, is out of date, even where a tournament has that name.
            carried = await self.load(reference) if storable_id(reference) else None
            if carried is None:
                raise IllegalTransition("errors.stale_button")
            return carried
        if reference is None or not reference.strip():
            open_ones = await self.tournaments(open_only=True)
            if len(open_ones) == 1:
                return open_ones[0]
            if not open_ones and finished_too:
                latest = await latest_finished_tournament_id(self._connection, self.guild_id)
                found = await self.load(latest) if latest is not None else None
                if found is not None:
                    return found
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
            named = await find_tournament_id(self._connection, self.guild_id, text)
            found = await self.load(named) if named is not None else None
        if found is None:
            raise NotFound("tournament.unknown", reference=text[:100])
        return found

    async def tournaments(self, *, open_only: bool = False) -> list[Tournament]:
        """This guild's tournaments, newest first."""
        found = []
        for _, tournament_id in await tournament_ids(
            self._connection, self.guild_id, open_only=open_only
        ):
            loaded = await self.load(tournament_id)
            if loaded is not None:
                found.append(loaded)
        return found

    async def name_taken(self, name: str) -> bool:
        return await find_tournament_id(self._connection, self.guild_id, name) is not None

    async def tournament_names(self) -> set[str]:
        return await tournament_names(self._connection, self.guild_id)

    async def create(self, operation: CreateTournament) -> tuple[Tournament, tuple[Event, ...]]:
        self._require_writable()
        authorize(operation, self.actor)
        await self._refuse_a_repeated_request()
        if await self.name_taken(operation.config.name):
            raise InvalidInput("tournament.name_taken", name=operation.config.name)
        draft, _ = create(
            operation, tournament_id=0, guild_id=self.guild_id, at=self.at, actor=self.actor
        )
        tournament_id = await insert_tournament(self._connection, draft)
        created, events = create(
            operation,
            tournament_id=tournament_id,
            guild_id=self.guild_id,
            at=self.at,
            actor=self.actor,
        )
        action_id = await self._log(created, operation)
        self.changed[created.id] = created
        self.versions[created.id] = 0
        await self._happened(None, created, operation.kind, events, action_id)
        return created, events

    async def apply(
        self, tournament: Tournament, operation: Operation
    ) -> tuple[Tournament, tuple[Event, ...]]:
        """Apply `operation`, write the changed rows and log it; a refusal writes nothing."""
        self._require_writable()
        await self._refuse_a_repeated_request()
        updated, events = await self.outcome(tournament, operation)
        await self._save(tournament, updated)
        action_id = await self._log(updated, operation)
        self.changed[updated.id] = updated
        self.versions[updated.id] = self.versions[updated.id] + 1
        await self._happened(tournament, updated, operation.kind, events, action_id)
        return updated, events

    async def outcome(
        self, tournament: Tournament, operation: Operation
    ) -> tuple[Tournament, tuple[Event, ...]]:
        """What `operation` would make of `tournament` now, and what would happen, by the
        rules; nothing is written. An operation on every player is worked out off the event
        loop (`EVERY_PLAYER`)."""
        if isinstance(operation, EVERY_PLAYER):
            return await off_loop_as(
                Priority.WRITE, partial(apply, tournament, operation, self.at, self.actor)
            )
        return apply(tournament, operation, self.at, self.actor)

    def refuse_early(self, tournament: Tournament, operation: Operation) -> None:
        """Raise the refusal `operation` would get now, applying and writing nothing: a
        button that asks first (a form to fill in, "drop for good?") is refused before it
        asks, by the same rules as the operation."""
        apply(tournament, operation, self.at, self.actor)

    async def undo(
        self, tournament: Tournament, action_id: int | None = None
    ) -> tuple[Tournament, UndoPlan]:
        """Take back one operation (default: the last undoable one), if that is safe: the
        tournament becomes the fold of its log without it, and the undo is logged."""
        self._require_writable()
        await self._refuse_a_repeated_request()
        plan = await self.plan_undo(tournament, action_id)
        await self._save(tournament, plan.after)
        logged = await self._log(plan.after, Undo(plan.target.id))
        self.changed[plan.after.id] = plan.after
        self.versions[plan.after.id] = self.versions[plan.after.id] + 1
        target = plan.target
        undone = ev.Undone(target.id, target.kind, target.actor_id, dict(target.payload))
        await self._happened(tournament, plan.after, Undo.kind, (undone,), logged)
        return plan.after, plan

    async def touch(self, tournament: Tournament) -> None:
        """The tournament's version moves on, itself unchanged: something shown with it that
        is kept beside it (its match rooms) changed, and what shows it (the live page)
        is made again."""
        self._require_writable()
        await self._save(tournament, tournament)
        self.changed[tournament.id] = tournament
        self.versions[tournament.id] = self.versions[tournament.id] + 1

    async def _save(self, before: Tournament, after: Tournament) -> None:
        """Write `after` over `before`, if the stored version is still the one read: with
        the lock taken in `load` it always is; a writer that skipped the lock makes this
        unit of work refuse as a whole (rolled back), never overwrite its change."""
        if not await save_tournament(self._connection, before, after, self.versions[after.id]):
            raise WriteConflict()

    async def plan_undo(self, tournament: Tournament, action_id: int | None = None) -> UndoPlan:
        """What undoing would give, or the refusal that says why; nothing is written."""
        authorize_role(Undo, self.actor)
        rows = await self.log_rows(tournament.id)
        guild_id = self.guild_id

        def planned() -> UndoPlan:
            # The log decoded and folded again without the operation: every operation of
            # the event, off the event loop.
            if not replayable(rows):
                raise IllegalTransition("undo.log_too_old", tournament=tournament.name)
            return plan_undo(tournament.id, guild_id, operations_in(rows), action_id)

        return await off_loop_as(Priority.WRITE, planned)

    async def hold(self, tournament: Tournament, operation: Operation) -> int:
        """Keep `operation` waiting for its maker's confirmation (the buttons of a preview,
        which survive a restart). The rules check it now, so a preview that could not be
        applied is refused at once; it is applied, and logged, when confirmed."""
        self._require_writable()
        if isinstance(operation, Undo):
            await self.plan_undo(tournament, operation.action_id)
        else:
            await self.outcome(tournament, operation)
        return await add_pending(
            self._connection,
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
        pending = await take_pending(self._connection, self.guild_id, pending_id)
        if pending is None:
            raise NotFound("judge.nothing_pending")
        if pending.actor_id != self.actor.user_id:
            raise PermissionDenied("judge.not_your_confirmation")
        operation = operation_types()[pending.kind].from_payload(pending.payload)
        return await self.tournament(pending.tournament_id), operation

    async def log_guild_change(self, kind: str, payload: dict[str, Any]) -> None:
        self._require_writable()
        await append_guild_change(
            self._connection,
            guild_id=self.guild_id,
            actor_id=self.actor.user_id,
            kind=kind,
            payload=payload,
            at=self.at,
        )

    async def _happened(
        self,
        before: Tournament | None,
        after: Tournament,
        kind: str,
        events: tuple[Event, ...],
        action_id: int,
    ) -> None:
        """Remember what happened for the commit's subscribers, and write what must be told
        about it to the outbox, in this same transaction."""
        self.events.setdefault(after.id, []).extend(events)
        self.kinds.setdefault(after.id, []).append(kind)
        context = Context(before, after, kind, self.actor.user_id, self.origin.actor_name)
        notices = self._plan(events, context)
        if notices and self.origin.channel_id is not None:
            notices = [_with_origin(notice, self.origin.channel_id) for notice in notices]
        await self.tell(after, notices, action_id=action_id)

    async def tell(
        self,
        tournament: Tournament,
        notices: Sequence[Notice],
        *,
        action_id: int | None = None,
        sent: bool = True,
    ) -> int:
        """Write `notices` to the outbox (`sent=False`: recorded as skipped, e.g. a clock
        notice missed while the bot was down). A keyed notice planned before is left out:
        returns how many were written."""
        self._require_writable()
        written = await add_notices(
            self._connection,
            guild_id=tournament.guild_id,
            tournament_id=tournament.id,
            action_id=action_id,
            lang=self.posting_lang,
            notices=notices,
            at=self.at,
            state="pending" if sent else "skipped",
        )
        self.notices += written
        if written:
            # Heard after the commit. Only what this transaction changed goes to the cache:
            # `tournament` may have been read before it began (the clock's jobs).
            self.told[tournament.id] = tournament.guild_id
        return written

    async def planned(self, tournament_id: int, prefix: str) -> set[str]:
        """The keys of this tournament's notices that start with `prefix`."""
        return await planned_keys(self._connection, tournament_id, prefix)

    async def actions(self, tournament_id: int) -> list[Action]:
        """The tournament's action log, oldest first."""
        return await list_actions(
            self._connection, guild_id=self.guild_id, tournament_id=tournament_id
        )

    async def log_rows(self, tournament_id: int) -> list[Row]:
        """The tournament's log as stored; `bot.store.actions.operations_in` decodes it
        into the operations it folds from (off the event loop: a large event's log has tens
        of thousands of rows)."""
        return await log_rows(self._connection, guild_id=self.guild_id, tournament_id=tournament_id)

    async def owned_rooms(self, tournament_id: int) -> int:
        """How many channels the tournament's match rooms have (its next round reuses them)."""
        return await owned_count(self._connection, tournament_id)

    async def round_place(self, tournament_id: int, number: int) -> RoundPlace | None:
        return await round_place(self._connection, tournament_id, number)

    async def save_entry_post(self, post: EntryPost) -> None:
        self._require_writable()
        await save_entry_post(
            self._connection,
            post.tournament_id,
            post.channel_id,
            post.message_id,
            post.checkin_shown,
        )

    async def take_player_notices(self, user_id: int) -> list[KeptNotice]:
        """The private notices waiting for this player, taken (they are shown once)."""
        self._require_writable()
        return await take_player_notices(self._connection, self.guild_id, user_id)

    async def _refuse_a_repeated_request(self) -> None:
        if self.request_id is not None and await request_seen(self._connection, self.request_id):
            raise IllegalTransition("errors.already_done")

    async def _log(self, tournament: Tournament, operation: Operation) -> int:
        action_id = await append_operation(
            self._connection,
            guild_id=self.guild_id,
            tournament_id=tournament.id,
            actor_id=self.actor.user_id,
            actor_role=self.actor.role,
            operation=operation,
            at=self.at,
            request_id=self.request_id,
        )
        self.request_id = None  # the request is spent; later operations of it are its own
        return action_id

    def _require_writable(self) -> None:
        if not self._writable:
            raise RuntimeError("a read-only unit of work cannot apply operations")


@dataclass
class _Turns:
    """One guild's writers: who holds the turn, and who waits for it."""

    held: bool = False
    users: int = 0  # holding or waiting: the guild's entry goes when none is left
    staff: deque[asyncio.Future[None]] = field(default_factory=deque)
    others: deque[asyncio.Future[None]] = field(default_factory=deque)


class GuildQueue:
    """One writer per guild at a time: the staff's first (a judge's decision must not wait
    behind a round's thousand reports), then first come first served. A guild's entry is
    kept only while someone holds the turn or waits for it."""

    def __init__(self) -> None:
        self._guilds: dict[int, _Turns] = {}

    @asynccontextmanager
    async def turn(self, guild_id: int, *, staff: bool = False) -> AsyncIterator[None]:
        turns = self._guilds.setdefault(guild_id, _Turns())
        turns.users += 1
        try:
            await self._take(turns, staff)
            try:
                yield
            finally:
                self._hand_on(turns)
        finally:
            turns.users -= 1
            if turns.users == 0:
                del self._guilds[guild_id]

    async def _take(self, turns: _Turns, staff: bool) -> None:
        if not turns.held:
            turns.held = True
            return
        waiting: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        line = turns.staff if staff else turns.others
        line.append(waiting)
        try:
            await waiting  # handed the turn by the writer before
        except asyncio.CancelledError:
            if waiting.done() and not waiting.cancelled():
                self._hand_on(turns)  # handed it just as it was cancelled: pass it on
            else:
                line.remove(waiting)
            raise

    @staticmethod
    def _hand_on(turns: _Turns) -> None:
        for line in (turns.staff, turns.others):
            while line:
                waiting = line.popleft()
                if not waiting.done():
                    waiting.set_result(None)
                    return
        turns.held = False

    def __len__(self) -> int:
        return len(self._guilds)


log = logging.getLogger(__name__)
T = TypeVar("T")

# A use case whose transaction PostgreSQL refused because another won (a deadlock broken,
# a serialization failure) runs again this many times, after a random wait that doubles
# (seconds, from this range), before the person is told "not saved, try again".
CONFLICT_RETRIES = 3
CONFLICT_WAIT = (0.02, 0.1)


@dataclass
class _UseCase:
    committed: bool = False  # a transaction of it committed: what it told may be out


_use_case: ContextVar[_UseCase | None] = ContextVar("use_case", default=None)


async def retrying_conflicts(use_case: Callable[[], Awaitable[T]]) -> T:
    """Run `use_case` (a service's call), and again when PostgreSQL refused its transaction
    for another that won (`StorageConflict`): up to `CONFLICT_RETRIES` times, each after a
    random wait, and only while none of its transactions committed, so nothing of it was
    told outside (its notices go out only once committed; an acknowledgement is sent once).
    A use case called by another is the outer one's to run again."""
    if _use_case.get() is not None:
        return await use_case()
    attempt = 0
    while True:
        state = _UseCase()
        token = _use_case.set(state)
        try:
            return await use_case()
        except StorageConflict as conflict:
            if state.committed or attempt >= CONFLICT_RETRIES:
                raise
            wait = random.uniform(*CONFLICT_WAIT) * 2**attempt
            log.info("a conflict (%s): trying again in %.0f ms", conflict.detail, wait * 1000)
        finally:
            _use_case.reset(token)
        attempt += 1
        await asyncio.sleep(wait)


def _committed() -> None:
    state = _use_case.get()
    if state is not None:
        state.committed = True


class Store:
    """The database and the tournament cache, shared by every service."""

    def __init__(
        self,
        database: Database,
        *,
        plan: Planner,
        default_lang: str = "ja",
        shards: Shards | None = None,
        claim_seconds: float = 60.0,
    ) -> None:
        self.database = database
        # Who is told what of each operation (bot.notify.plan): written to the outbox in the
        # operation's own transaction.
        self.plan = plan
        self.default_lang = default_lang
        # The guilds this process looks after (SHARD_IDS): its timed jobs and outbox only.
        self.shards = shards or Shards()
        self.cache = TournamentCache()
        # Every commit is published here (the notifier, the live page, other processes).
        self.commits = CommitBus()
        # The delivery's own bookkeeping, outside any tournament's unit of work.
        self.outbox = OutboxStore(database, self.shards, claim_seconds=claim_seconds)
        self.posts = Posts(database, self.shards)
        self.calendar = CalendarEvents(database)  # the scheduled event of each tournament
        self.rooms = RoomChannels(database)  # the channels of each tournament's match rooms
        self.refusing = RefusingPlaces(database)  # channels and DMs that refuse the bot
        # Each guild's /setup, read on nearly every command: kept until /setup changes it.
        self.guild_configs: dict[int, GuildConfig] = {}
        # One writer per guild in this process at a time, queued before taking a pooled
        # connection: a burst of one event's reports waits here instead of filling the
        # PostgreSQL pool with waiters on that event's lock, which starved every other
        # server of this process (docs/BENCHMARKS.md, "Shards: 4 processes on PostgreSQL
        # beside 1 on SQLite").
        self._guild_writers = GuildQueue()

    def remember_config(self, config: GuildConfig) -> None:
        """A server's settings as committed: what its commands read until /setup changes
        them again."""
        self.guild_configs[config.guild_id] = config

    def views(self, tournament: Tournament) -> Views:
        """What is read about `tournament`, worked out once per committed version."""
        return self.cache.views(tournament)

    async def listen(self) -> Callable[[], Awaitable[None]]:
        """Publish other processes' commits on `commits` too (PostgreSQL), until the
        returned function is awaited. A process that serves Discord or the web page calls
        it once at start."""
        return await self.database.listen(self.commits.publish)

    @asynccontextmanager
    async def write(
        self,
        guild_id: int,
        at: datetime,
        actor: ActorResolver,
        *,
        request_id: int | None = None,
        origin: Origin | None = None,
        staff: bool = False,
    ) -> AsyncIterator[Transaction]:
        """One write transaction. `actor` gives the tournament actor from the guild's
        configuration, read inside the same transaction. A `staff` writer goes before the
        players waiting in this process (a hint: permissions are decided inside)."""
        writers = self._guild_writers.turn(guild_id, staff=staff)
        promised: list[tuple[int, int]] = []
        try:
            async with writers, self.database.write() as connection:
                tx = await self._begin(
                    connection, guild_id, at, actor, request_id=request_id, origin=origin
                )
                yield tx
                # Other processes hear of it if, and when, it commits (PostgreSQL's NOTIFY).
                await self.database.announce(
                    connection,
                    [
                        (t.guild_id, t.id, tx.versions[t.id], tx.notices)
                        for t in tx.changed.values()
                    ],
                )
                for tournament_id in tx.changed:
                    promised.append((tournament_id, tx.versions[tournament_id]))
                    self.cache.promise(tournament_id, tx.versions[tournament_id])
        except BaseException:
            for tournament_id, version in promised:
                self.cache.broken(tournament_id, version)
            raise
        # Committed: what changed is now what the tables hold.
        _committed()
        for tournament_id, tournament in tx.changed.items():
            self.cache.kept(tx.versions[tournament_id], tournament)
        self._published(tx)

    async def _begin(
        self,
        connection: Connection,
        guild_id: int,
        at: datetime,
        actor: ActorResolver,
        *,
        writable: bool = True,
        request_id: int | None = None,
        origin: Origin | None = None,
    ) -> Transaction:
        """A unit of work on `connection`, as the actor the guild's settings make."""
        config = await get_guild_config(connection, guild_id)
        # Kept for what only needs it as a hint (whose write goes first) until /setup.
        self.guild_configs.setdefault(guild_id, config)
        return Transaction(
            connection,
            self.cache,
            database=self.database,
            guild_id=guild_id,
            at=at,
            actor=actor(config),
            writable=writable,
            config=config,
            plan=self.plan,
            default_lang=self.default_lang,
            request_id=request_id,
            origin=origin,
        )

    def _published(self, tx: Transaction) -> None:
        """Every commit, told to those who listen (the delivery, the live page …)."""
        for tournament_id, tournament in tx.changed.items():
            self.commits.publish(
                Committed(
                    guild_id=tournament.guild_id,
                    tournament_id=tournament_id,
                    version=tx.versions[tournament_id],
                    events=tuple(tx.events.get(tournament_id, ())),
                    notices=tx.notices,
                    kinds=tuple(tx.kinds.get(tournament_id, ())),
                )
            )
        for tournament_id, guild_id in tx.told.items():
            if tournament_id not in tx.changed:  # only notices: the tournament is as it was
                self.commits.publish(Committed(guild_id, tournament_id, None, notices=tx.notices))

    async def guild_of(self, tournament_id: int) -> int | None:
        """The server of a tournament (for a button pressed in a DM, which has none)."""
        if not storable_id(tournament_id):
            return None
        async with self.database.read() as connection:
            return await tournament_guild(connection, tournament_id)

    async def rooms_shown(self, guild_id: int, tournament_id: int, at: datetime) -> None:
        """The match rooms of the tournament's newest round changed (made, given, made
        again): its version moves on, so that the live page shows them."""
        async with self.write(guild_id, at, lambda _: Actor(0)) as tx:
            tournament = await tx.load(tournament_id)
            if tournament is not None:
                await tx.touch(tournament)

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
            yield await self._begin(connection, guild_id, at, actor, writable=False)


def _with_origin(notice: Notice, channel_id: int) -> Notice:
    """The command's channel, for a notice that may fall back to it."""
    if Place.ORIGIN not in notice.places:
        return notice
    return replace(notice, data=replace(notice.data, origin=channel_id))

"""The delivery's loop: it reads the outbox, lets each notice go when what it must follow
is done (`order.Order`), resolves where it goes (`places.Places`) and hands it to that
place's lane (`lanes.Lane`); lanes send side by side. Every committed operation wakes it
(`Store.commits`); so does its own tick, which also runs the bot's timed jobs (the round
clock, the registration posts' check-in button, the reminders before an event).

Nothing is lost and nothing is said twice: a notice stays in the outbox until it is sent,
so after a crash or a restart it goes out; it is on its way in one lane at a time; a
message being posted when the bot stopped is posted again with its nonce
(`Sender.resume`); stopping waits for the lanes, never sends beside them.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from datetime import datetime, timedelta

import discord

from bot.delivery.lanes import Lane, Recovery
from bot.delivery.order import SERVER_PLACES, Order, first_place, is_staff_line, post_of
from bot.delivery.pace import REFUSAL_WINDOW_SECONDS, Pace, Refusals
from bot.delivery.places import Places, wall_clock
from bot.delivery.sending import ANYONE, Outcome, Queued, Sender
from bot.errors import StorageError
from bot.i18n import Lang, normalise_locale
from bot.notify.plan import (
    TRAITS,
    Notice,
    Place,
    Say,
    notice_dropped,
    notice_nowhere,
    refusals_warning,
)
from bot.outage import Outage
from bot.store.commits import Committed
from bot.store.outbox import FAILED, SKIPPED, Outgoing, Sending
from bot.store.uow import Store
from domain.guild import GuildConfig
from domain.tournament.clock import CLOCK_GRACE
from domain.tournament.model import Tournament

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[object]]
Clock = Callable[[], datetime]
# Server settings are read again this often: a /setup change shows within it.
CONFIG_SECONDS = 2.0
# How many of the notices done lately are remembered, against reads older than their end.
REMEMBERED_DONE = 20_000
# A burst of commits is looked at once: each report commits, and wakes the loop.
GATHER_WAKES_SECONDS = 0.02
# The outbox is read this many notices at a time (a read goes on until it has all).
READ_LIMIT = 1000
# A read of thousands of notices lets the bot's other work in this often: the answers to
# the players' interactions must not wait for it.
SLICE_SECONDS = 0.01


class Delivery:
    def __init__(
        self,
        client: discord.Client,
        store: Store,
        *,
        clock: Clock,
        jobs: Sequence[Job] = (),
        tick_seconds: float = 5.0,
        page_base: str | None = None,
        default_lang: Lang = "ja",
        pace: Pace | None = None,
        refusals: Refusals | None = None,
        outage: Outage | None = None,
        clock_grace: timedelta = CLOCK_GRACE,
    ) -> None:
        self.client = client
        self.store = store
        self.clock = clock
        self.jobs = tuple(jobs)
        self.tick_seconds = tick_seconds
        self.default_lang = default_lang
        self.pace = pace or Pace()
        self.refusals = refusals or Refusals()
        self.refusals.on_warning(self._many_refused)
        self.places = Places(client, store)
        self.sender = Sender(
            client,
            store,
            self.places,
            self.pace,
            clock=clock,
            page_base=page_base,
            default_lang=default_lang,
            wrote=self.wake,
            clock_grace=clock_grace,
            skipped=self._write_skips,
            sending_now=self._sending_now,
        )
        self.order = Order()
        self.read_limit = READ_LIMIT
        self.recovery = Recovery()
        self.lanes: dict[Hashable, Lane] = {}
        self._on_the_way: dict[int, Queued] = {}
        self._seen = 0  # the newest notice read
        # The notices done most recently, oldest first: a read that began before one was
        # marked sent may still hold it as pending.
        self._done_lately: OrderedDict[int, None] = OrderedDict()
        # Notices done without a message (no place here, or made stale by a newer one),
        # written down together: a rush of reports makes thousands, and a write each would
        # queue behind the reports' own writes. Id → why ("superseded", or None).
        self._skips: dict[int, str | None] = {}
        # Tournaments whose panel was told that Discord fails some of their notices.
        self._panel_told_failing: set[int] = set()
        # The newest notice that brings each post up to date: older ones are stale.
        self._newest_refresh: dict[tuple[object, ...], int] = {}
        # Notices freed while a read lets its own go (`_take`): they join its order.
        self._freed_meanwhile: list[Outgoing] | None = None
        # Messages being posted when the bot stopped, to post again before their notices
        # go any other way (their nonce must be the same): nonce → what was being sent.
        self._in_doubt: dict[str, Sending] = {}
        self._configs: dict[int, tuple[float, GuildConfig]] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        # The database away (PostgreSQL restarted or stopped, SQLite's lock held by another
        # program): said once, and once that it is back, not at every tick and lane.
        self.outage = outage or Outage(
            "the database",
            log,
            meanwhile="notices and timed jobs wait (nothing is lost) and go on by themselves"
            " once it is back",
        )
        # The database failed while notices read from the outbox were let go or marked:
        # the next whole read works the order out again from what the outbox still holds,
        # so none stays read and never sent.
        self._read_again_after_outage = False
        self._background: set[asyncio.Task[None]] = set()
        self.sent = 0  # notices delivered since the start (for the logs and tests)

    # -- running --------------------------------------------------------------------------

    def start(self) -> None:
        self.store.outbox.delivery_started()
        self._unsubscribe = self.store.commits.subscribe(self._committed)
        self._task = asyncio.create_task(self._run(), name="notice delivery")

    def _committed(self, committed: Committed) -> None:
        # A notice written here or, on PostgreSQL, by another process (a web page's
        # action, a restart overlap): look at the outbox; after a missed stretch, too.
        if committed.notices or committed.resync:
            self._wake.set()

    def wake(self) -> None:
        self._wake.set()

    async def stop(self, flush_seconds: float = 0.0) -> None:
        """Send what is waiting (for up to `flush_seconds`), then stop. What is left stays
        in the outbox for the next start. The lanes go on sending during the flush; nothing
        else sends beside them."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.store.outbox.delivery_stopped()
        if self._task is None:
            return
        if flush_seconds > 0 and self.client.is_ready():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._settled(), flush_seconds)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        for lane in list(self.lanes.values()):
            await lane.cancel()
        self.pace.close()
        with contextlib.suppress(Exception):
            await self._write_skips()
        # Another process (this one, restarted) may send what is left at once.
        with contextlib.suppress(Exception):
            await self.store.outbox.release()

    async def _settled(self) -> None:
        # Looked at, not awaited: the state is spread over the lanes and the order.
        while len(self.order) or any(not lane.idle for lane in self.lanes.values()):  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        await self._write_skips()

    async def _run(self) -> None:
        await self.client.wait_until_ready()
        await self._until_storage(self._begin)
        # The timed jobs beside the reading: a job that loads a 4,096-player event during a
        # rush of reports must not hold up a judge's decision on its way to #log.
        jobs = asyncio.create_task(self._run_jobs_forever(), name="timed jobs")
        try:
            next_whole = 0.0
            while True:
                whole = time.monotonic() >= next_whole
                if whole:
                    next_whole = time.monotonic() + self.tick_seconds
                await self._look(full=whole)
                wait = max(0.0, next_whole - time.monotonic())
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)
                await asyncio.sleep(GATHER_WAKES_SECONDS)
                self._wake.clear()
        finally:
            jobs.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await jobs

    async def _run_jobs_forever(self) -> None:
        while True:
            await self._run_jobs()
            await asyncio.sleep(self.tick_seconds)

    async def tick(self, *, full: bool = True) -> None:
        """One pass, as the loop and its jobs make them: the timed jobs and the whole
        outbox (`full`), else what is new in the outbox. The database away pauses both,
        said once."""
        if full:
            await self._run_jobs()
        await self._look(full=full)

    async def _look(self, *, full: bool) -> None:
        """The outbox: all of it (`full`), else what is new."""
        try:
            await self._read(full=full)
            await self._write_skips()
            if full:
                await self._panels_caught_up()
        except asyncio.CancelledError:
            raise
        except StorageError as error:  # nothing is lost: the notices wait in the outbox
            self._storage_lost(error)
            self._read_again_after_outage = True
        except Exception:
            log.exception("sending notices failed; trying again at the next tick")

    async def _until_storage(self, step: Callable[[], Awaitable[None]]) -> None:
        while True:
            try:
                await step()
                return
            except StorageError as error:
                self._storage_lost(error)
                await asyncio.sleep(self.tick_seconds)

    async def _begin(self) -> None:
        """What the bot knew before a restart: the places that refuse, and the messages it
        was posting when it stopped (posted again with their nonce, before anything else)."""
        await self.places.load()
        await self.sender.rooms_left_over()
        self._in_doubt = {sending.nonce: sending for sending in await self.store.outbox.in_doubt()}
        await self._resume()

    async def _resume(self) -> None:
        for nonce, sending in list(self._in_doubt.items()):
            try:
                await self.sender.resume(sending)
            except StorageError:
                raise
            except Exception as error:  # Discord away: tried again at the next tick
                log.warning("message %s could not be posted again yet: %s", nonce, error)
                continue
            del self._in_doubt[nonce]
            for notice_id in sending.notice_ids:
                if notice_id in self.order.known and notice_id not in self._on_the_way:
                    # Posted in part (a long post): the rest goes the usual way.
                    notice = self.order.known[notice_id]
                    if notice_id not in self.order.held:
                        await self._let_go(notice)

    def _doubtful(self, notice_id: int) -> bool:
        return any(notice_id in sending.notice_ids for sending in self._in_doubt.values())

    def _storage_lost(self, error: StorageError) -> None:
        """Said once per outage (`outage`): every tick and every lane meets it until it is
        over."""
        self.outage.failed(error)

    def _storage_back(self) -> None:
        """A write went through: the outage, if there was one, is over (said once)."""
        self.outage.succeeded()

    async def _run_jobs(self) -> None:
        """Each timed job once. The jobs pause at the first the database fails: those after
        it run at the next tick (each would wait for the database too: SQLite's 5 s busy
        timeout, in turn)."""
        for job in self.jobs:
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except StorageError as error:
                self._storage_lost(error)
                return
            except Exception:
                log.exception("a timed job failed; it runs again at the next tick")
        if self.jobs:
            self._storage_back()

    # -- reading and letting go -----------------------------------------------------------

    async def _read(self, *, full: bool) -> None:
        """New notices in the outbox (`full`: all of it, which also renews this process's
        claims and catches what another process left or took)."""
        if full and self._in_doubt:
            await self._resume()
        found = await self._pending(after=0 if full else self._seen)
        # A read may answer from before a lane marked a notice sent: never again what is done.
        found = [notice for notice in found if notice.id not in self._done_lately]
        if full and self._read_again_after_outage:
            self._read_again_after_outage = False
            await self._read_again(found)
            return
        if full:
            ids = {notice.id for notice in found}
            for gone in [known for known in self.order.known if known not in ids]:
                if gone not in self._on_the_way:  # done elsewhere (another process)
                    await self._done_with(gone)
        unknown = [notice for notice in found if notice.id not in self.order.known]
        if unknown and unknown[0].id < self.order.newest:
            await self._read_again(found)
            return
        await self._take(unknown)

    async def _pending(self, *, after: int) -> list[Outgoing]:
        """Every notice waiting in the outbox after id `after`, a page at a time: what a
        whole read does not see, it would take for done elsewhere."""
        found: list[Outgoing] = []
        while True:
            page = await self.store.outbox.pending(self.read_limit, after=after)
            found += page
            if len(page) < self.read_limit:
                return found
            after = page[-1].id

    async def _take(self, notices: list[Outgoing]) -> None:
        """The notices of one read: each known to the order first, without a word to the
        database, so that a refresh made stale by a newer one of the same read is dropped
        unsent (a rush of reports plans a panel refresh each); then the free ones go to
        their lanes, the staff's lines and the staff's decisions first, each line in its
        order. What the lanes free meanwhile joins them in that order."""
        freed: list[Outgoing] = []
        self._freed_meanwhile = freed
        try:
            waiting: list[tuple[bool, int, Outgoing]] = []
            pause = Pauses()
            for notice in notices:
                if self._add(notice) and notice.id not in self._on_the_way:
                    waiting.append(_turn(notice))
                await pause.now_and_then()
            heapq.heapify(waiting)
            while waiting or freed:
                for notice in freed:
                    heapq.heappush(waiting, _turn(notice))
                freed.clear()
                _, _, notice = heapq.heappop(waiting)
                if notice.id in self.order.known and notice.id not in self._on_the_way:
                    await self._let_go(notice)
                await pause.now_and_then()
        finally:
            self._freed_meanwhile = None

    def _add(self, notice: Outgoing) -> bool:
        """A notice read: known to the order (no I/O); True when it may go now."""
        self._seen = max(self._seen, notice.id)
        if TRAITS[notice.say].refresh:
            key = post_of(notice)
            self._newest_refresh[key] = max(self._newest_refresh.get(key, 0), notice.id)
        return self.order.add(notice) and not self._doubtful(notice.id)

    async def _read_again(self, found: list[Outgoing]) -> None:
        """Notices older than some known ones appeared (released by another process):
        the order is worked out again from everything waiting."""
        waiting = {notice.id: notice for notice in found}
        waiting.update({queued.notice.id: queued.notice for queued in self._on_the_way.values()})
        self.order = Order()
        await self._take(sorted(waiting.values(), key=lambda notice: notice.id))

    async def _let_go(self, notice: Outgoing, start: int = 0) -> None:
        """A notice free to go: to its place's lane. A refresh made stale by a newer one is
        dropped (a burst of results edits the panel once, not once per result), and so is
        the one waiting in its lane when a newer comes; a notice with no place that works
        here is done."""
        if TRAITS[notice.say].refresh and self._newest_refresh.get(post_of(notice), 0) > notice.id:
            await self._supersede(notice)
            return
        config = await self._config(notice.guild_id)
        found = await self.places.resolve(notice, config, wall_clock(), start)
        if found is None:
            if notice.say is Say.PAIRINGS:
                await self.sender.nowhere(notice, await self._tournament(notice))
            await self._nowhere(notice, config)
            await self._skip(notice.id)
            return
        index, target = found
        lane = self.lanes.get(target.lane)
        if lane is None:
            lane = self.lanes[target.lane] = Lane(
                target.lane, self.sender, self.recovery, self._finished, self._failing
            )
        if TRAITS[notice.say].refresh:
            for older in lane.waiting_refreshes(post_of(notice)):
                self._on_the_way.pop(older.notice.id, None)
                await self._supersede(older.notice)
        queued = Queued(notice, index, target)
        self._on_the_way[notice.id] = queued
        lane.put(queued)

    def _sending_now(self, tournament_id: int) -> list[int]:
        """The tournament's notices in a batch on its way this moment, which Discord has not
        failed: not waiting (a panel refreshed beside the notices of the same change would
        otherwise show them waiting, and be refreshed again once they went)."""
        return [
            queued.notice.id
            for lane in self.lanes.values()
            if lane.waiting_since is None
            for queued in lane.sending
            if queued.notice.tournament_id == tournament_id
        ]

    async def _supersede(self, notice: Outgoing) -> None:
        await self._skip(notice.id, "superseded")

    async def _skip(self, notice_id: int, why: str | None = None) -> None:
        self._skips[notice_id] = why
        await self._done_with(notice_id)

    async def _write_skips(self) -> None:
        """The skipped notices, marked in the outbox in one write or two."""
        if not self._skips:
            return
        skips, self._skips = self._skips, {}
        try:
            superseded = [notice for notice, why in skips.items() if why == "superseded"]
            await self.store.outbox.supersede(superseded, self.clock())
            others = [notice for notice, why in skips.items() if why != "superseded"]
            await self.store.outbox.finish_all(others, SKIPPED, self.clock())
        except BaseException:
            self._skips = skips | self._skips  # written at the next try
            raise

    async def _finished(self, queued: Queued, outcome: Outcome | None, error: str | None) -> None:
        try:
            await self._finish(queued, outcome, error)
        except StorageError as lost:  # marked at the next whole read, once the outbox answers
            self._storage_lost(lost)
            self._read_again_after_outage = True
            return
        self._storage_back()  # a lane's batch is written down: the database answers
        if self._skips:
            self.wake()  # the loop writes them down, with the others of the moment

    async def _finish(self, queued: Queued, outcome: Outcome | None, error: str | None) -> None:
        notice = queued.notice
        self._on_the_way.pop(notice.id, None)
        if outcome is Outcome.MOVED:
            await self._let_go(notice, queued.index + 1)
            return
        if outcome is Outcome.SENT:
            self.sent += 1
        elif outcome is Outcome.SKIPPED:
            await self._skip(notice.id)
            return
        else:  # given up (said in the log by the lane, and to the staff), or a bug
            await self.store.outbox.finish(notice.id, FAILED, self.clock(), error)
            if outcome is Outcome.GIVEN_UP:
                await self._tell_dropped(notice, error or "")
        await self._done_with(notice.id)

    async def _done_with(self, notice_id: int) -> None:
        self._done_lately[notice_id] = None
        while len(self._done_lately) > REMEMBERED_DONE:
            self._done_lately.popitem(last=False)
        done = self.order.known.get(notice_id)
        freed_now = self.order.done(notice_id)
        if done is not None and not self.order.waiting_of(done.tournament_id):
            await self._none_waiting(done.guild_id, done.tournament_id)
        for freed in freed_now:
            if self._doubtful(freed.id):
                continue
            if self._freed_meanwhile is not None:  # a read lets notices go: in its order
                self._freed_meanwhile.append(freed)
            else:
                await self._let_go(freed)

    async def _failing(self, notice: Outgoing) -> None:
        """A notice Discord failed for the first time: the panel says why it waits (once
        until nothing of the tournament waits)."""
        if notice.tournament_id is None or notice.tournament_id in self._panel_told_failing:
            return
        self._panel_told_failing.add(notice.tournament_id)
        await self._refresh_panel(notice.guild_id, notice.tournament_id)

    async def _panels_caught_up(self) -> None:
        """A panel that showed notices waiting is brought up to date once none waits, at
        the latest at the next whole read: the last of them may have finished while the
        panel's own refresh was rendered, counting it."""
        for tournament_id, guild_id in list(self.sender.backlog_shown.items()):
            if not self.order.waiting_of(tournament_id):
                await self._none_waiting(guild_id, tournament_id)

    async def _none_waiting(self, guild_id: int, tournament_id: int | None) -> None:
        """None of a tournament's notices waits: a panel that showed them waiting is
        brought up to date."""
        if tournament_id is None:
            return
        self._panel_told_failing.discard(tournament_id)
        if tournament_id not in self.sender.backlog_shown:
            return
        self.sender.backlog_shown.pop(tournament_id, None)
        await self._refresh_panel(guild_id, tournament_id)

    async def _refresh_panel(self, guild_id: int, tournament_id: int) -> None:
        config = await self._config(guild_id)
        await self.store.outbox.add(
            guild_id=guild_id,
            tournament_id=tournament_id,
            lang=normalise_locale(config.locale or self.default_lang),
            notices=[Notice(Say.PANEL_REFRESH, (Place.PANEL,))],
            at=self.clock(),
        )
        self.wake()

    async def _nowhere(self, notice: Outgoing, config: GuildConfig) -> None:
        """A notice for a channel of the server's (chosen in /setup) that no place of its
        could take: said in the log, and to the staff once per tournament and place (when
        the staff have a place that works)."""
        chosen = [place for place in notice.places if place in SERVER_PLACES]
        if not chosen or notice.tournament_id is None or notice.say in TO_THE_STAFF:
            return
        log.warning(
            "notice %s (%s) of tournament %s skipped: none of its places (%s) is chosen or"
            " takes the bot's posts here",
            notice.id,
            notice.say,
            notice.tournament_id,
            ", ".join(place.value for place in notice.places),
        )
        staff = notice_nowhere(notice.tournament_id, notice.say, chosen[0])
        if await self.places.resolve(staff_notice(notice, staff), config, wall_clock()) is None:
            return  # the staff have no place here either: the log is all there is
        await self.store.outbox.add(
            guild_id=notice.guild_id,
            tournament_id=notice.tournament_id,
            lang=normalise_locale(config.locale or self.default_lang),
            notices=[staff],
            at=self.clock(),
        )
        self.wake()

    async def _tell_dropped(self, notice: Outgoing, error: str) -> None:
        if notice.say in (Say.NOTICE_DROPPED, Say.PLACE_REFUSED) or notice.tournament_id is None:
            return
        config = await self._config(notice.guild_id)
        lang = normalise_locale(config.locale or self.default_lang)
        await self.store.outbox.add(
            guild_id=notice.guild_id,
            tournament_id=notice.tournament_id,
            lang=lang,
            notices=[notice_dropped(notice.id, notice.say, error)],
            at=self.clock(),
        )
        self.wake()

    def _many_refused(self, count: int) -> None:
        """Discord refused many requests: the staff of the servers whose channels refuse
        the bot hear it (they can fix it), besides the log."""
        task = asyncio.create_task(self._tell_many_refused(count))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _tell_many_refused(self, count: int) -> None:
        """The staff of every server with a tournament in play or to come hear it once per
        warning, in their server's language (a server whose channels refuse may be the
        cause; every server loses the bot if Discord bans it)."""
        window = int(time.time() // REFUSAL_WINDOW_SECONDS)
        try:
            active = await self.store.posts.running() + await self.store.posts.upcoming()
            told: set[int] = set()
            for guild_id, tournament_id in active:
                if guild_id in told:
                    continue
                told.add(guild_id)
                config = await self._config(guild_id)
                await self.store.outbox.add(
                    guild_id=guild_id,
                    tournament_id=tournament_id,
                    lang=normalise_locale(config.locale or self.default_lang),
                    notices=[refusals_warning(count, window, guild_id)],
                    at=self.clock(),
                )
        except StorageError as error:  # the log said it; the database is the loop's to tell
            self._storage_lost(error)
        self.wake()

    async def _config(self, guild_id: int) -> GuildConfig:
        now = time.monotonic()
        cached = self._configs.get(guild_id)
        if cached is not None and now - cached[0] < CONFIG_SECONDS:
            return cached[1]
        async with self.store.read(guild_id, self.clock(), lambda _: ANYONE) as tx:
            config = await tx.guild_config()
        self._configs[guild_id] = (now, config)
        return config

    async def _tournament(self, notice: Outgoing) -> Tournament | None:
        if notice.tournament_id is None:
            return None
        async with self.store.read(notice.guild_id, self.clock(), lambda _: ANYONE) as tx:
            return await tx.load(notice.tournament_id)

    # -- for tests and tools --------------------------------------------------------------

    async def drain(self) -> None:
        """Read the outbox and wait until everything it held is sent (or given up)."""
        await self._read(full=True)
        await self._settled()

    async def player_used_the_bot(self, user_id: int, *, in_their_dms: bool) -> None:
        """A player used the bot (`Places.used_the_bot`)."""
        await self.places.used_the_bot(user_id, in_their_dms=in_their_dms)


# What the delivery tells the staff of Discord itself: never told about in turn.
TO_THE_STAFF = frozenset({Say.NOTICE_DROPPED, Say.PLACE_REFUSED, Say.REFUSALS_WARNING})


def staff_notice(about: Outgoing, told: Notice) -> Outgoing:
    """`told`, as the outbox would hold it, for resolving its place before writing it."""
    return Outgoing(
        0, about.guild_id, about.tournament_id, told.say, told.places, None, told.data, "", 0
    )


class Pauses:
    """A long stretch of work on the event loop, let go of it every `SLICE_SECONDS`."""

    def __init__(self) -> None:
        self.since = time.monotonic()

    async def now_and_then(self) -> None:
        if time.monotonic() - self.since >= SLICE_SECONDS:
            await asyncio.sleep(0)
            self.since = time.monotonic()


def _turn(notice: Outgoing) -> tuple[bool, int, Outgoing]:
    """A free notice's place in the order of letting go: the staff's lines and decisions
    first (a staff decision goes ahead in its lane anyway), then by id (each line whole,
    in its order)."""
    first = TRAITS[notice.say].urgent or is_staff_line(first_place(notice))
    return (not first, notice.id, notice)

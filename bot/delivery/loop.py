"""The delivery: the one loop that sends what the outbox holds to Discord.

Every committed operation wakes it (`Store.commits`); so does its own tick, which also runs
the bot's timed jobs (the round clock, the registration posts' check-in button). It sends
the notices in the order they were written, one tournament at a time in order (so that a
round's pairings post, and its thread, come before the notices that go to that thread), and
several tournaments at once.

Nothing is lost and nothing is said twice:
- a notice stays in the outbox until it is sent, so after a crash or a restart it goes out;
- each message a notice makes is recorded with its id, and each is sent with a nonce that
  Discord enforces (`enforce_nonce`), so a notice sent again after a crash skips what it
  already made instead of posting it twice; a thread already opened on a post is found
  again (Discord answers 160004), not opened twice;
- a place that does not work (no channel set, a deleted channel, closed DMs) gives way to
  the next place of the notice; Discord's own failures (5xx, the network) are tried again
  later, with a growing wait;
- the server's calendar (a tournament's Discord scheduled event) is read before it is
  changed, and only what differs from how the tournament is now is sent; the event's id is
  remembered once made, and an event made just before a crash is found again by its
  description (its creator is the bot, its last line names the tournament), not made twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

import aiohttp
import discord

from bot.errors import StorageError
from bot.i18n import Lang, normalise_locale
from bot.notify.plan import Place, Say
from bot.store.commits import Committed
from bot.store.outbox import FAILED, SENT, SKIPPED, Outgoing
from bot.store.posts import RoundPlace
from bot.store.uow import Store
from bot.ui.notices import HEAVY, RENDERERS, CalendarText, Message, Said, Telling
from bot.worker import Priority, off_loop_as
from domain.guild import GuildConfig
from domain.tournament.calendar import CalendarStatus
from domain.tournament.events import RoundPaired
from domain.tournament.model import Tournament
from domain.tournament.operations import Actor

log = logging.getLogger(__name__)

T = TypeVar("T")
ANYONE = Actor(0)
THREAD_EXISTS = 160004  # Discord: a thread has already been created for this message
MAX_ATTEMPTS = 12  # Discord failing this often (over about an hour) means it will not work
CONCURRENT_TOURNAMENTS = 4
# Edits of one post (or of the calendar) that always show the tournament as it is now: only
# the newest counts.
REFRESHES = frozenset(
    {Say.PANEL_REFRESH, Say.REGISTRATION_REFRESH, Say.PAIRINGS_REFRESH, Say.CALENDAR}
)
DIRECT = (Place.PLAYER, Place.PLAYER_WITHOUT_THREAD)

EventStatus = discord.EventStatus
FINISHED_EVENT = frozenset({EventStatus.completed, EventStatus.cancelled})
CALENDAR_STATUS = {
    CalendarStatus.ACTIVE: EventStatus.active,
    CalendarStatus.COMPLETED: EventStatus.completed,
    CalendarStatus.CANCELLED: EventStatus.cancelled,
}

Job = Callable[[], Awaitable[object]]
Clock = Callable[[], datetime]


class Transient(Exception):
    """Discord or the network failed in a way that may work later: try the notice again."""


@dataclass(frozen=True)
class Target:
    """A place resolved: post in a channel (or a DM), edit a message, or keep a private
    notice for a player whose DMs are closed."""

    channel_id: int | None = None
    message_id: int | None = None  # an edit of this message
    user_id: int | None = None  # a DM to this user
    ping_role: int | None = None
    direct: bool = False  # the channel is a DM


def new_round_first(notices: list[Outgoing]) -> list[Outgoing]:
    """One tournament's notices in the order they go out: as written, except that what
    concerns an earlier round (its results told in its thread, the marks on its pairings
    post, its standings) waits behind a newly paired round's post. Once the next round is
    paired, every player looks for their new table (bench/burst.py: at 2,048 tables the
    last results of round 11 held up round 12's post by half a second). Nothing of an
    earlier round needs the new post, and nothing of the new round needs the earlier
    round's notices: each goes to its own round's post, thread or players."""
    posted = [_round_of(n) for n in notices if n.say is Say.PAIRINGS]
    newest = max((number for number in posted if number is not None), default=None)
    if newest is None:
        return notices

    def earlier(notice: Outgoing) -> bool:
        number = _round_of(notice)
        return notice.say is not Say.PAIRINGS and number is not None and number < newest

    waiting = [notice for notice in notices if earlier(notice)]
    if not waiting:
        return notices
    return [notice for notice in notices if not earlier(notice)] + waiting


def _round_of(notice: Outgoing) -> int | None:
    number = notice.data.get("round")
    return number if isinstance(number, int) else None


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
    ) -> None:
        self.client = client
        self.store = store
        self.clock = clock
        self.jobs = tuple(jobs)
        self.tick_seconds = tick_seconds
        self.page_base = page_base  # the live pages' public address, for their links
        self._wake = asyncio.Event()
        # A round was paired since the outbox was last read: its post goes before the rest
        # of what was read (see `_deliver_in_order`).
        self._paired = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._retry_at: dict[int, float] = {}
        self._unsubscribe: Callable[[], None] | None = None
        self.sent = 0  # notices delivered since the start (for the logs and tests)
        # What each pairings post's part shows, so that marking one table edits one message
        # of a long post, not all of them (forgotten at a restart: then all are edited once).
        self._shown: dict[int, str] = {}

    # -- running --------------------------------------------------------------------------

    def start(self) -> None:
        self._unsubscribe = self.store.commits.subscribe(self._committed)
        self._task = asyncio.create_task(self._run(), name="notice delivery")

    def _committed(self, committed: Committed) -> None:
        # A notice written here or, on PostgreSQL, by another process (a web page's
        # action, a restart overlap): look at the outbox; after a missed stretch, too.
        if any(isinstance(event, RoundPaired) for event in committed.events):
            self._paired.set()
        if committed.notices or committed.resync:
            self._wake.set()

    def wake(self) -> None:
        self._wake.set()

    async def stop(self, flush_seconds: float = 0.0) -> None:
        """Send what is waiting (for up to `flush_seconds`), then stop. What is left stays
        in the outbox for the next start."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._task is None:
            return
        if flush_seconds > 0 and self.client.is_ready():
            with contextlib.suppress(TimeoutError, Exception):
                await asyncio.wait_for(self.drain(), flush_seconds)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        # Another process (this one, restarted) may send what is left at once.
        with contextlib.suppress(Exception):
            await self.store.outbox.release()

    async def _run(self) -> None:
        await self.client.wait_until_ready()
        next_jobs = 0.0
        while True:
            if time.monotonic() >= next_jobs:
                next_jobs = time.monotonic() + self.tick_seconds
                await self._run_jobs()
            try:
                await self.drain()
            except asyncio.CancelledError:
                raise
            except StorageError as error:  # nothing is lost: the notices wait in the outbox
                log.warning("sending notices paused: %s; trying again at the next tick", error)
            except Exception:
                log.exception("sending notices failed; trying again at the next tick")
            wait = max(0.0, next_jobs - time.monotonic())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
            self._wake.clear()

    async def _run_jobs(self) -> None:
        for job in self.jobs:
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except StorageError as error:
                log.warning("a timed job paused: %s; it runs again at the next tick", error)
            except Exception:
                log.exception("a timed job failed; it runs again at the next tick")

    async def drain(self) -> int:
        """Send every notice that may go now; how many were done."""
        done = 0
        while True:
            self._paired.clear()  # what is read now includes any round paired until now
            now = time.monotonic()
            batch = [
                notice
                for notice in await self.store.outbox.pending()
                if self._retry_at.get(notice.id, 0.0) <= now
            ]
            if not batch:
                return done
            batch = await self._newest_refreshes(batch)
            groups: dict[object, list[Outgoing]] = {}
            for notice in batch:
                key = notice.tournament_id if notice.tournament_id is not None else -notice.id
                groups.setdefault(key, []).append(notice)
            limit = asyncio.Semaphore(CONCURRENT_TOURNAMENTS)
            finished = sum(
                await asyncio.gather(
                    *(self._deliver_in_order(new_round_first(g), limit) for g in groups.values())
                )
            )
            done += finished
            if not finished:  # everything left is waiting for a retry
                return done

    async def _newest_refreshes(self, batch: list[Outgoing]) -> list[Outgoing]:
        """An edit that brings a post up to date makes every earlier one of the same post
        pointless: a burst of results edits the panel once, not once per result."""

        def post(notice: Outgoing) -> tuple[int | None, Say, object]:
            return notice.tournament_id, notice.say, notice.data.get("round")

        newest = {post(notice): notice.id for notice in batch if notice.say in REFRESHES}
        stale = [
            notice.id
            for notice in batch
            if notice.say in REFRESHES and newest[post(notice)] != notice.id
        ]
        await self.store.outbox.supersede(stale, self.clock())
        return [notice for notice in batch if notice.id not in set(stale)]

    async def _deliver_in_order(self, notices: list[Outgoing], limit: asyncio.Semaphore) -> int:
        """One tournament's notices, one after the other: a later one may need an earlier
        one's post (a report's notice goes to the thread opened on the pairings post).

        Once a round is paired (here or in another tournament), what is left waits for the
        outbox to be read again, so that the new post goes first (`new_round_first`): at
        4,096 players the last results of round 11 held round 12's post back by up to half a
        second. At least one notice goes out each time, so every batch moves on."""
        done = 0
        async with limit:
            for notice in notices:
                if done and self._paired.is_set():
                    break
                done += await self._deliver(notice)
        return done

    # -- one notice -----------------------------------------------------------------------

    async def _deliver(self, notice: Outgoing) -> int:
        """Send one notice; 1 when it is done with (sent, skipped or failed for good)."""
        try:
            state = await self._send(notice)
        except Transient as error:
            attempts = notice.attempts + 1
            if attempts >= MAX_ATTEMPTS:
                log.warning("notice %s (%s) failed for good: %s", notice.id, notice.say, error)
                await self.store.outbox.finish(notice.id, FAILED, self.clock(), str(error))
                return 1
            delay = min(300.0, 2.0**attempts)
            log.warning(
                "notice %s (%s) could not be sent (%s); trying again in %.0f s",
                notice.id,
                notice.say,
                error,
                delay,
            )
            self._retry_at[notice.id] = time.monotonic() + delay
            await self.store.outbox.failed_attempt(notice.id, str(error))
            return 0
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a bug in a renderer: never retried in a loop
            log.exception("notice %s (%s) could not be rendered", notice.id, notice.say)
            await self.store.outbox.finish(notice.id, FAILED, self.clock(), repr(error))
            return 1
        self._retry_at.pop(notice.id, None)
        if state == SENT:
            self.sent += 1
        else:
            await self.store.outbox.finish(notice.id, state, self.clock())
        return 1

    async def _send(self, notice: Outgoing) -> str:
        async with self.store.read(notice.guild_id, self.clock(), lambda _: ANYONE) as tx:
            tournament = (
                await tx.load(notice.tournament_id) if notice.tournament_id is not None else None
            )
            config = await tx.guild_config()
        if tournament is None:
            return SKIPPED
        lang = normalise_locale(notice.lang)
        data = notice.data
        if notice.say is Say.REGISTRATION_REFRESH:
            data = {**data, "final_standings": await self._final_standings_link(tournament)}
        telling = Telling(
            tournament,
            data,
            notice.user,
            lang,
            self.clock(),
            page_base=self.page_base,
            bilingual_buttons=config.bilingual_buttons,
            known=self.store.views(tournament),
        )
        render = RENDERERS[notice.say]
        if notice.say in HEAVY:
            # The round's pairings and the final standings before any page anyone asked for.
            first = notice.say in (Say.PAIRINGS, Say.FINAL_STANDINGS)
            priority = Priority.POST if first else Priority.READ
            said = await off_loop_as(priority, partial(render, telling))
        else:
            said = render(telling)
        if not said.messages and said.calendar is None:
            return SKIPPED
        parts = await self.store.outbox.parts(notice.id)
        if parts:  # sent in part before a crash: go on where it was
            channel_id = next(iter(parts.values()))[0]
            direct = all(place in DIRECT for place in notice.places)
            await self._post(notice, tournament, Target(channel_id, direct=direct), said, parts)
            return SENT
        for place in notice.places:
            if place is Place.PAIRINGS_POST:
                await self._mark_pairings(notice, tournament, said)
                return SENT
            target = await self._resolve(place, notice, tournament, config)
            if target is None:
                continue
            try:
                if place is Place.CALENDAR:
                    assert said.calendar is not None
                    if not await self._keep_calendar(tournament, said.calendar):
                        return SKIPPED
                    await self.store.outbox.finish(notice.id, SENT, self.clock())
                elif place in DIRECT:
                    await self._tell_player(notice, tournament, target, said)
                elif target.message_id is not None:
                    await self._edit(target, said)
                    await self.store.outbox.finish(notice.id, SENT, self.clock())
                else:
                    await self._post(notice, tournament, target, said, parts)
                return SENT
            except (discord.Forbidden, discord.NotFound) as error:
                log.warning(
                    "notice %s (%s) could not go to %s: %s; trying the next place",
                    notice.id,
                    notice.say,
                    place,
                    error.text,
                )
        return SKIPPED  # no place of the notice is set up in this server

    async def _resolve(
        self, place: Place, notice: Outgoing, tournament: Tournament, config: GuildConfig
    ) -> Target | None:
        if place is Place.PLAYER:
            return Target(user_id=notice.user) if notice.user is not None else None
        if place is Place.PLAYER_WITHOUT_THREAD:
            found = await self.store.posts.round_place(tournament.id, int(notice.data["round"]))
            if notice.user is None or (found is not None and found.thread_id):
                return None  # the thread told them, with the table's other player
            return Target(user_id=notice.user)
        if place is Place.CALENDAR:
            return Target()  # the guild's calendar: `_keep_calendar` finds the event
        if place in (Place.ROUND_THREAD, Place.ROUND_CHANNEL):
            found = await self.store.posts.round_place(tournament.id, int(notice.data["round"]))
            if found is None:
                return None
            channel = found.thread_id if place is Place.ROUND_THREAD else found.channel_id
            return Target(channel) if channel else None
        if place is Place.REGISTRATION_POST:
            post = await self.store.posts.entry_post(tournament.id)
            return Target(post.channel_id, post.message_id) if post else None
        if place is Place.PANEL:
            newest = await self.store.outbox.latest_post(tournament.id, Say.PANEL)
            return Target(newest[0], newest[1]) if newest else None
        if place is Place.JUDGES:
            channel = config.judge_calls_channel_id or config.log_channel_id
            return Target(channel, ping_role=config.judge_role_id) if channel else None
        channel_id = {
            Place.PAIRINGS: config.pairings_channel_id,
            Place.STANDINGS: config.standings_channel_id,
            Place.ANNOUNCEMENTS: config.announcements_channel_id,
            Place.LOG: config.log_channel_id,
            Place.STAFF: config.staff_channel_id or config.log_channel_id,
            Place.ORIGIN: notice.data.get("origin"),
        }[place]
        return Target(int(channel_id)) if channel_id else None

    # -- talking to Discord ---------------------------------------------------------------

    async def _post(
        self,
        notice: Outgoing,
        tournament: Tournament,
        target: Target,
        said: Said,
        parts: dict[int, tuple[int, int]],
    ) -> None:
        assert target.channel_id is not None
        guild_id = None if target.direct else tournament.guild_id
        channel = self.client.get_partial_messageable(target.channel_id, guild_id=guild_id)
        made = dict(parts)
        # Where a notice leaves something to do after its messages, it is marked done only
        # then; otherwise with its last message, in the same write.
        more_to_do = said.thread_name is not None or notice.say is Say.REGISTRATION_POST
        done = False
        last = len(said.messages) - 1
        for index, message in enumerate(said.messages):
            if index in made:
                continue
            extra: dict[str, Any] = {}
            if message.files:
                extra["files"] = message.files_to_send()
            if message.view is not None:
                extra["view"] = message.view
            sent = await _call(
                channel.send(
                    _content(message, target),
                    embeds=list(message.embeds),
                    allowed_mentions=_pings(message, target),
                    nonce=f"{notice.id}.{index}",
                    **extra,
                )
            )
            made[index] = (target.channel_id, sent.id)
            if notice.say is Say.PAIRINGS:
                self._shown[sent.id] = _shown(message)
            done = index == last and not more_to_do
            await self.store.outbox.record_part(
                notice.id, index, target.channel_id, sent.id, done_at=self.clock() if done else None
            )
        first = made[0][1]
        if said.thread_name is not None:
            await self._open_thread(notice, tournament, channel, first, said.thread_name)
        if notice.say is Say.REGISTRATION_POST:
            shown = tournament.checkin_open(self.clock())
            await self.store.posts.save_entry_post(tournament.id, target.channel_id, first, shown)
        if not done:
            await self.store.outbox.finish(notice.id, SENT, self.clock())

    async def _open_thread(
        self,
        notice: Outgoing,
        tournament: Tournament,
        channel: discord.PartialMessageable,
        first: int,
        name: str,
    ) -> None:
        """The round's reports thread, on its pairings post; where the round lives is
        remembered, thread or not, so later notices go to the same place."""
        number = int(notice.data["round"])
        known = await self.store.posts.round_place(tournament.id, number)
        if known is not None and known.channel_id == channel.id and known.thread_id:
            return
        thread_id: int | None = None
        try:
            thread = await _call(channel.get_partial_message(first).create_thread(name=name))
            thread_id = thread.id
        except discord.HTTPException as error:
            if error.code == THREAD_EXISTS:  # opened before a crash: a thread's id is its post's
                thread_id = first
            else:
                log.warning("could not open the reports thread of round %s: %s", number, error)
        await self.store.posts.save_round_place(
            tournament.id, number, RoundPlace(channel.id, thread_id)
        )

    async def _final_standings_link(self, tournament: Tournament) -> str | None:
        """Where the final standings were posted, for the closed registration post."""
        posted = await self.store.outbox.latest_post(tournament.id, Say.FINAL_STANDINGS)
        if posted is None:
            return None
        channel_id, message_id = posted
        return f"https://discord.com/channels/{tournament.guild_id}/{channel_id}/{message_id}"

    async def _mark_pairings(self, notice: Outgoing, tournament: Tournament, said: Said) -> None:
        """Each part of the round's pairings post, brought up to date; a part that already
        shows what it should is left alone. The split never changes (`MARK_ROOM`), so part
        i is message i; a post not yet sent has nothing to edit."""
        parts = await self.store.outbox.pairings_post(tournament.id, int(notice.data["round"]))

        async def mark(channel_id: int, message_id: int, message: Message) -> None:
            try:
                await self._edit(Target(channel_id, message_id), Said([message]))
            except (discord.Forbidden, discord.NotFound) as error:
                log.warning("a pairings post could not be brought up to date: %s", error.text)
                return
            self._shown[message_id] = _shown(message)

        # The parts are messages of their own: edited together, not one after another
        # (after a restart every part is edited once, 26 at 4,096 players, and the next
        # round's pairings wait behind them).
        outcomes = await asyncio.gather(
            *(
                mark(channel_id, message_id, message)
                for (channel_id, message_id), message in zip(parts, said.messages, strict=False)
                if self._shown.get(message_id) != _shown(message)
            ),
            return_exceptions=True,
        )
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome
        await self.store.outbox.finish(notice.id, SENT, self.clock())

    async def _edit(self, target: Target, said: Said) -> None:
        assert target.channel_id is not None
        assert target.message_id is not None
        (message,) = said.messages[:1]
        channel = self.client.get_partial_messageable(target.channel_id)
        kwargs: dict[str, Any] = {"embeds": list(message.embeds)}
        if message.content is not None:
            kwargs["content"] = message.content
        if message.view is not None:
            kwargs["view"] = message.view
        await _call(channel.get_partial_message(target.message_id).edit(**kwargs))

    async def _tell_player(
        self, notice: Outgoing, tournament: Tournament, target: Target, said: Said
    ) -> None:
        """By DM; when the player's DMs are closed, the next time they use the bot."""
        assert target.user_id is not None
        try:
            user = self.client.get_user(target.user_id)
            if user is None:
                user = await _call(self.client.fetch_user(target.user_id))
            dm = user.dm_channel
            if dm is None:
                dm = await _call(user.create_dm())
            await self._post(notice, tournament, Target(dm.id, direct=True), said, {})
        except (discord.Forbidden, discord.NotFound):
            text = "\n".join(m.content for m in said.messages if m.content)
            await self.store.posts.leave_player_notice(
                tournament.guild_id, target.user_id, text, self.clock()
            )
            await self.store.outbox.finish(notice.id, SENT, self.clock(), "kept: DMs closed")

    # -- the server's calendar -------------------------------------------------------------

    async def _keep_calendar(self, tournament: Tournament, text: CalendarText) -> bool:
        """Bring the tournament's scheduled event in step with `text.entry`: make it, move
        its time, start, complete or cancel it, or remove it. False when there was nothing
        to do (no event, and none wanted), or Discord refused what was asked (a time it
        takes for past, …): the calendar is a convenience, never worth an error."""
        try:
            return await self._calendar_in_step(tournament, text)
        except discord.HTTPException as error:
            if isinstance(error, discord.Forbidden | discord.NotFound):
                raise  # the place does not work here: said by the caller
            log.warning("the calendar of tournament %s was not changed: %s", tournament.id, error)
            return False

    async def _calendar_in_step(self, tournament: Tournament, text: CalendarText) -> bool:
        guild = self.client.get_guild(tournament.guild_id)
        if guild is None:
            guild = await _call(self.client.fetch_guild(tournament.guild_id))
        event = await self._calendar_event(guild, tournament, text)
        entry, now = text.entry, self.clock()
        wanted = entry.status
        if event is not None and event.status in FINISHED_EVENT:
            if wanted is not CalendarStatus.SCHEDULED:
                return True  # over on the calendar already, as the tournament is
            event = None  # over on the calendar, but the event was moved later: a new one
        if event is None:
            if wanted is not CalendarStatus.SCHEDULED or entry.start is None or entry.start <= now:
                return False  # nothing to show: no time, or one already past
            assert entry.end is not None
            made = await _call(
                guild.create_scheduled_event(
                    name=text.name,
                    start_time=entry.start,
                    end_time=entry.end,
                    entity_type=discord.EntityType.external,
                    privacy_level=discord.PrivacyLevel.guild_only,
                    location=await self._calendar_location(tournament, text),
                    description=text.description,
                )
            )
            await self.store.calendar.remember(tournament.id, made.id)
            return True
        if wanted is CalendarStatus.NONE:
            await _call(event.delete())
            await self.store.calendar.forget(tournament.id)
            return True
        if wanted is CalendarStatus.CANCELLED and event.status is not EventStatus.scheduled:
            await _call(event.delete())  # under way on the calendar: it never took place
            await self.store.calendar.forget(tournament.id)
            return True
        changes: dict[str, Any] = {}
        if event.name != text.name:
            changes["name"] = text.name
        if (event.description or "") != text.description:
            changes["description"] = text.description
        location = await self._calendar_location(tournament, text)
        if event.location != location:
            changes["location"] = location
        if wanted is CalendarStatus.SCHEDULED and event.status is EventStatus.scheduled:
            if entry.start is not None and entry.start != event.start_time and entry.start > now:
                changes["start_time"] = entry.start
            if entry.end is not None and entry.end != event.end_time:
                changes["end_time"] = entry.end
        status = CALENDAR_STATUS.get(wanted)
        if status is not None and event.status is not status:
            if status is EventStatus.completed and event.status is EventStatus.scheduled:
                event = await _call(event.edit(status=EventStatus.active))
            changes["status"] = status
        if changes:
            await _call(event.edit(**changes))
        return True

    async def _calendar_event(
        self, guild: discord.Guild, tournament: Tournament, text: CalendarText
    ) -> discord.ScheduledEvent | None:
        """The tournament's event: by the id remembered, or, when none is, the bot's own
        event whose description ends with the tournament's line (made just before a
        crash, its id not yet remembered)."""
        known = await self.store.calendar.event_id(tournament.id)
        if known is not None:
            try:
                return await _call(guild.fetch_scheduled_event(known, with_counts=False))
            except discord.NotFound:  # deleted on Discord by someone: made again if wanted
                await self.store.calendar.forget(tournament.id)
                return None
        me = self.client.user.id if self.client.user else None
        for event in await _call(guild.fetch_scheduled_events(with_counts=False)):
            lines = (event.description or "").splitlines()
            if event.creator_id == me and lines and lines[-1] in text.marker:
                await self.store.calendar.remember(tournament.id, event.id)
                return event
        return None

    async def _calendar_location(self, tournament: Tournament, text: CalendarText) -> str:
        """Where to find the event: its live page while public, else its registration post,
        else the server."""
        if text.location is not None:
            return text.location[:100]
        post = await self.store.posts.entry_post(tournament.id)
        if post is not None:
            return f"https://discord.com/channels/{tournament.guild_id}/{post.channel_id}/{post.message_id}"
        return text.fallback_location


async def _call(awaitable: Awaitable[T]) -> T:
    """Discord's own failures and the network's are worth trying again later."""
    try:
        return await awaitable
    except discord.DiscordServerError as error:
        raise Transient(f"Discord {error.status}") from error
    except (aiohttp.ClientError, TimeoutError, ConnectionError) as error:
        raise Transient(type(error).__name__) from error


def _shown(message: Message) -> str:
    """What a pairings post's part shows: its text, and its tables in embeds (a large
    round's)."""
    return "\n".join(
        [message.content or "", *(embed.description or "" for embed in message.embeds)]
    )


def _content(message: Message, target: Target) -> str | None:
    if target.ping_role is None:
        return message.content
    return f"<@&{target.ping_role}> {message.content or ''}".rstrip()


def _pings(message: Message, target: Target) -> discord.AllowedMentions:
    """Only the people a message is for are pinged, and the judges for the judges' posts."""
    return discord.AllowedMentions(
        everyone=False,
        users=[discord.Object(id=user) for user in message.pings] if message.pings else False,
        roles=[discord.Object(id=target.ping_role)] if target.ping_role else False,
    )


def posting_lang(config: GuildConfig, default: Lang) -> Lang:
    return normalise_locale(config.locale or default)

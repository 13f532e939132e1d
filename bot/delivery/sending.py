"""Talking to Discord: the notices waiting for one place, rendered and sent, and what came
of each.

Nothing is said twice: before a message is posted, the notices it tells and its nonce are
written down (`OutboxStore.begin_sending`), and its record replaces that note in one write
once it is posted. A bot stopped between the two posts it again at its next start with the
same nonce and the same notices in it, and Discord answers a repeated nonce with the first
message. A thread already opened on a post is found again (Discord answers 160004).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from functools import partial
from typing import Any, TypeVar

import discord

from bot.delivery.calendar import Calendar
from bot.delivery.calls import Transient, call
from bot.delivery.pace import EDITS, PLAYERS, STAFF, Pace
from bot.delivery.places import (
    CANNOT_DM,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    UNKNOWN_CHANNEL,
    Places,
    Target,
    wall_clock,
)
from bot.delivery.rooms import Kept, Rooms
from bot.i18n import Lang, normalise_locale
from bot.notify.payloads import ClockReminder, OfRound
from bot.notify.plan import (
    TRAITS,
    After,
    Notice,
    Place,
    Say,
    place_refused,
    rooms_now,
    rooms_refused,
    tables_by_dm,
)
from bot.store.outbox import SENT, SKIPPED, Outgoing, Sending
from bot.store.posts import KeptNotice, RoundPlace
from bot.store.rooms import ROOM
from bot.store.uow import Store
from bot.ui.gathered import LINES, Line, gathered
from bot.ui.notices import RENDERERS, Message, Said, Telling
from bot.ui.panel import Backlog
from bot.worker import Priority, off_loop_as
from domain.guild import GuildConfig
from domain.tournament.clock import CLOCK_GRACE, reminder_ends, reminder_minutes
from domain.tournament.model import Tournament
from domain.tournament.operations import Actor

log = logging.getLogger(__name__)

T = TypeVar("T")
Rooms_ = dict[int, dict[int, int]]  # round → table → its match room
ANYONE = Actor(0)
THREAD_EXISTS = 160004  # Discord: a thread has already been created for this message
REFUSING_CODES = frozenset({UNKNOWN_CHANNEL, MISSING_ACCESS, MISSING_PERMISSIONS})


class Outcome(StrEnum):
    SENT = "sent"
    SKIPPED = "skipped"  # nothing left to say, or nowhere to say it
    MOVED = "moved"  # its place refused: it goes to its next place
    GIVEN_UP = "given_up"  # Discord failed it for so long that it was given up


@dataclass(frozen=True)
class Queued:
    """A notice on its way: which of its places it goes to, resolved."""

    notice: Outgoing
    index: int
    target: Target


class Interrupted(Exception):
    """Discord failed part-way through a batch: what was done before is `done`; the rest
    waits and is tried again."""

    def __init__(self, done: dict[int, Outcome], cause: Transient) -> None:
        super().__init__(str(cause))
        self.done = done
        self.cause = cause


class Sender:
    def __init__(
        self,
        client: discord.Client,
        store: Store,
        places: Places,
        pace: Pace,
        *,
        clock: Callable[[], datetime],
        page_base: str | None,
        default_lang: Lang,
        wrote: Callable[[], None],
        clock_grace: timedelta = CLOCK_GRACE,
        skipped: Callable[[], Awaitable[None]] | None = None,
        sending_now: Callable[[int], Sequence[int]] | None = None,
    ) -> None:
        self.client = client
        self.store = store
        self.places = places
        self.pace = pace
        self.clock = clock
        self.page_base = page_base
        self.default_lang = default_lang
        self.wrote = wrote  # notices were written to the outbox here: look at it again
        # How late a clock notice may go out as if on time (CLOCK_GRACE_SECONDS).
        self.clock_grace = clock_grace
        # For the panel's count of what waits: writes down the notices the delivery skipped,
        # and gives a tournament's notices on their way this moment (they do not wait).
        self.skipped = skipped
        self.sending_now = sending_now
        self.calendar = Calendar(client, store, clock)
        self.rooms = Rooms(client, store, clock, later=self._rooms_later)
        self._later: set[asyncio.Task[None]] = set()
        # What each pairings post's part shows, so that marking one table edits one message
        # of a long post, not all of them (forgotten at a restart: then all are edited once).
        self._shown: dict[int, str] = {}
        # Tournaments whose panel shows notices waiting (and their servers): brought up to
        # date once none wait.
        self.backlog_shown: dict[int, int] = {}
        self._opening_dms = asyncio.Lock()

    # -- one batch -----------------------------------------------------------------------

    async def send(
        self, batch: Sequence[Queued], give_way: Callable[[], bool] = lambda: False
    ) -> dict[int, Outcome]:
        """Send the batch (one notice, or several tables' lines for one place); the outcome
        of each notice (none for the lines left for later: a batch of lines in several
        messages stops between two when `give_way()` says so). Raises `Interrupted` when
        Discord failed part-way."""
        first = batch[0].notice
        async with self.store.read(first.guild_id, self.clock(), lambda _: ANYONE) as tx:
            tournament = (
                await tx.load(first.tournament_id) if first.tournament_id is not None else None
            )
            config = await tx.guild_config()
        if tournament is None:
            return {queued.notice.id: Outcome.SKIPPED for queued in batch}
        rooms = await self._rooms_of(tournament)
        if len(batch) > 1:
            return await self._gathered(batch, tournament, config, rooms, give_way)
        try:
            return {first.id: await self._one(batch[0], tournament, config, rooms)}
        except Transient as error:
            raise Interrupted({}, error) from error

    def _telling(
        self,
        notice: Outgoing,
        tournament: Tournament,
        config: GuildConfig,
        rooms: Rooms_ | None = None,
    ) -> Telling:
        number = notice.data.rooms_round
        if number is None:
            number = tournament.current_round
        return Telling(
            tournament,
            notice.data,
            notice.user,
            normalise_locale(notice.lang),
            self.clock(),
            page_base=self.page_base,
            bilingual_buttons=config.bilingual_buttons,
            known=self.store.views(tournament),
            rooms=(rooms or {}).get(number, {}),
        )

    async def _rooms_of(self, tournament: Tournament) -> Rooms_:
        """Round → table → its match room, for the rooms given to that round's tables (a
        room belongs to one round's table at a time), where the event has rooms."""
        if not tournament.settings.rooms:
            return {}
        found: dict[int, dict[int, int]] = {}
        for room in await self.store.rooms.of(tournament.id):
            if room.kind == ROOM and room.channel_id is not None and room.round:
                found.setdefault(room.round, {})[room.number] = room.channel_id
        return found

    async def _render(self, notice: Outgoing, telling: Telling) -> Said:
        render = RENDERERS[notice.say]
        traits = TRAITS[notice.say]
        if not traits.heavy:
            return render(telling)
        # The round's pairings and the final standings before any page anyone asked for.
        priority = Priority.POST if traits.first else Priority.READ
        return await off_loop_as(priority, partial(render, telling))

    async def _one(
        self,
        queued: Queued,
        tournament: Tournament,
        config: GuildConfig,
        rooms: Rooms_ | None = None,
    ) -> Outcome:
        notice, target = queued.notice, queued.target
        telling = self._telling(notice, tournament, config, rooms)
        if notice.say is Say.REGISTRATION_REFRESH:
            link = await self._final_standings_link(tournament)
            telling = replace(telling, final_standings=link)
        if notice.say is Say.REMINDER:
            minutes = self._reminder_now(notice, tournament)
            if minutes is None:
                log.info("reminder %s skipped: a later clock notice says it now", notice.id)
                return Outcome.SKIPPED
            reminder = notice.data.as_(ClockReminder)
            telling = replace(telling, data=replace(reminder, minutes=minutes))
        if notice.say in (Say.PANEL, Say.PANEL_REFRESH):
            if self.skipped is not None:
                await self.skipped()
            on_the_way = self.sending_now(tournament.id) if self.sending_now else ()
            waiting = await self.store.outbox.waiting(tournament.id, on_the_way)
            telling = replace(
                telling, backlog=Backlog(waiting.count, waiting.since, waiting.last_error)
            )
            if waiting.count:
                self.backlog_shown[tournament.id] = tournament.guild_id
        said = await self._render(notice, telling)
        if not said.messages and said.calendar is None and said.rooms is None:
            return Outcome.SKIPPED
        parts = await self.store.outbox.parts(notice.id)
        if parts:  # sent in part before a stop: go on where it was
            channel_id = next(iter(parts.values()))[0]
            direct = target.direct and not target.kept
            await self._post(
                notice, tournament, channel_id, said, parts, direct=direct, target=target
            )
            return Outcome.SENT
        try:
            if target.place is Place.CALENDAR:
                assert said.calendar is not None
                if not await self.calendar.keep(tournament, said.calendar):
                    return Outcome.SKIPPED
                await self.store.outbox.finish(notice.id, SENT, self.clock())
            elif target.place is Place.ROOMS:
                assert said.rooms is not None
                # The notice a round's post waits for gives the rooms there are, and
                # leaves making the missing ones to the next (the post must not wait).
                leads = notice.data.about_round is not None
                kept = await self.rooms.keep(tournament, said.rooms, config, making=not leads)
                await self._after_rooms(tournament, config, kept)
                if not kept.changed:
                    return Outcome.SKIPPED
                await self.store.outbox.finish(notice.id, SENT, self.clock())
            elif target.place is Place.PAIRINGS_POST:
                await self._mark_pairings(notice, tournament, said)
            elif target.kept:
                await self._keep_for_later(notice, tournament, target, said)
            elif target.direct:
                await self._tell_player(notice, tournament, target, said)
            elif target.message_id is not None:
                await self._edit(target, said.messages[0], EDITS)
                await self.store.outbox.finish(notice.id, SENT, self.clock())
            else:
                assert target.channel_id is not None
                await self._post(notice, tournament, target.channel_id, said, {}, target=target)
        except (discord.Forbidden, discord.NotFound) as error:
            return await self._refused(notice, tournament, target, error, config)
        if target.channel_id is not None:
            await self.places.worked(target.channel_id)
        return Outcome.SENT

    def _reminder_now(self, notice: Outgoing, tournament: Tournament) -> int | None:
        """The minutes a round's reminder says now: its own, or after a wait past the
        clock's grace (Discord away) the minutes really left; None: a later clock notice
        says it."""
        reminder = notice.data.as_(ClockReminder)
        played = tournament.round(reminder.round)
        ends = reminder_ends(played, reminder.tables) if played else None
        if ends is None:
            return reminder.minutes
        return reminder_minutes(reminder.minutes, ends, self.clock(), self.clock_grace)

    async def _after_rooms(self, tournament: Tournament, config: GuildConfig, kept: Kept) -> None:
        """What follows a notice's work on the rooms: the staff told once of a refusal; the
        rooms still missing made by the next notice; where the newest round's rooms changed,
        its pairings post brought up to date and the live page made again."""
        told: list[Notice] = []
        if kept.refused is not None:
            refused = kept.refused
            told.append(
                rooms_refused(
                    tournament.id, kept.round, refused.reason, refused.missing, kept.waiting
                )
            )
        if kept.more:
            told.append(rooms_now())
        if kept.shown and kept.round:
            told.append(Notice(Say.PAIRINGS_REFRESH, (Place.PAIRINGS_POST,), OfRound(kept.round)))
            await self.store.rooms_shown(tournament.guild_id, tournament.id, self.clock())
        if told:
            await self._write(tournament, config, told)

    def _rooms_later(self, tournament: Tournament, config: GuildConfig, due: datetime) -> None:
        """The rooms brought in step again at `due`, by the bot's clock (occupied rooms
        past their grace period)."""

        async def again() -> None:
            # The bot's clock, not the time: it runs faster in the tests (CLOCK_SPEED).
            while self.clock() < due:  # noqa: ASYNC110
                await asyncio.sleep(1.0)
            await self._write(tournament, config, [rooms_now()])

        task = asyncio.get_running_loop().create_task(again())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def rooms_left_over(self) -> None:
        """At a start: the rooms of every tournament that is over (or has rooms off) and
        still has some, removed (a stop during their grace period left them)."""
        for guild_id, tournament_id in await self.store.rooms.leftover():
            async with self.store.read(guild_id, self.clock(), lambda _: ANYONE) as tx:
                tournament = await tx.load(tournament_id)
                config = await tx.guild_config()
            if tournament is not None and (tournament.phase.over or not tournament.settings.rooms):
                await self._write(tournament, config, [rooms_now()])

    async def _refused(
        self,
        notice: Outgoing,
        tournament: Tournament,
        target: Target,
        error: discord.HTTPException,
        config: GuildConfig,
    ) -> Outcome:
        """The place refused: remembered if it is a channel (the staff told once); the
        notice goes to its next place."""
        log.warning(
            "notice %s (%s) could not go to %s: %s; trying the next place",
            notice.id,
            notice.say,
            target.place,
            error.text,
        )
        if target.channel_id is not None and error.code in REFUSING_CODES:
            found = await self.places.refused(
                tournament.guild_id, target.channel_id, error, wall_clock()
            )
            # A room's chat is the bot's own channel: what keeps its rooms from working is
            # told by the rooms' own notice (`Say.ROOMS_REFUSED`), not channel by channel.
            if found is not None and target.place is not Place.TABLE_ROOM:
                missing = self._missing(tournament.guild_id, target.channel_id, notice)
                told = place_refused(
                    target.channel_id, target.place, found.reason, missing, found.since
                )
                await self._write(tournament, config, [told])
        return Outcome.MOVED

    def _missing(self, guild_id: int, channel_id: int, notice: Outgoing) -> list[str]:
        """The permissions the bot lacks in the channel, from its cache of the server (the
        names Discord shows); empty when the cache cannot tell."""
        guild = self.client.get_guild(guild_id)
        channel = guild.get_channel_or_thread(channel_id) if guild else None
        if guild is None or channel is None or guild.me is None:
            return []
        has = channel.permissions_for(guild.me)
        thread = isinstance(channel, discord.Thread)
        # What Discord takes away with another is left out: without View Channel nothing
        # else counts, without Send Messages neither do links nor files.
        if not has.view_channel:
            return ["view_channel"]
        send = "send_messages_in_threads" if thread else "send_messages"
        if not getattr(has, send):
            return [send]
        needed = ["embed_links", "attach_files", "read_message_history"]
        if TRAITS[notice.say].after is After.OPEN_THREAD:
            needed.append("create_public_threads")
        return [name for name in needed if not getattr(has, name)]

    async def _write(
        self, tournament: Tournament, config: GuildConfig, notices: Sequence[Notice]
    ) -> None:
        lang = normalise_locale(config.locale or self.default_lang)
        written = await self.store.outbox.add(
            guild_id=tournament.guild_id,
            tournament_id=tournament.id,
            lang=lang,
            notices=notices,
            at=self.clock(),
        )
        if written:
            self.wrote()

    async def nowhere(self, notice: Outgoing, tournament: Tournament | None) -> None:
        """No place of the notice works here. A round's pairings post then goes to each of
        its players by DM: they must hear their table."""
        if notice.say is not Say.PAIRINGS or tournament is None:
            return
        played = tournament.round(notice.data.as_(OfRound).round)
        if played is None:
            return
        players = [player for match in played.matches for player in match.players]
        log.warning(
            "round %s of tournament %s could be posted nowhere players read: its %s players"
            " are told their tables by DM",
            played.number,
            tournament.id,
            len(players),
        )
        async with self.store.read(tournament.guild_id, self.clock(), lambda _: ANYONE) as tx:
            config = await tx.guild_config()
        await self._write(tournament, config, tables_by_dm(played.number, players, tournament.id))

    # -- several tables' lines in one message --------------------------------------------

    async def _gathered(
        self,
        batch: Sequence[Queued],
        tournament: Tournament,
        config: GuildConfig,
        rooms: Rooms_,
        give_way: Callable[[], bool],
    ) -> dict[int, Outcome]:
        done: dict[int, Outcome] = {}
        # A notice that made its message before a stop goes on alone, where it was.
        partly = await self.store.outbox.partly_sent([queued.notice.id for queued in batch])
        for queued in [queued for queued in batch if queued.notice.id in partly]:
            try:
                done[queued.notice.id] = await self._one(queued, tournament, config, rooms)
            except Transient as error:
                raise Interrupted(done, error) from error
        lines: list[Line] = []
        carried: list[Queued] = []
        for queued in [queued for queued in batch if queued.notice.id not in partly]:
            telling = self._telling(queued.notice, tournament, config, rooms)
            line = LINES[queued.notice.say](telling)
            if line is None:
                done[queued.notice.id] = Outcome.SKIPPED
            else:
                lines.append(line)
                carried.append(queued)
        if len(carried) == 1:  # alone after all: its own message, as ever
            try:
                done[carried[0].notice.id] = await self._one(carried[0], tournament, config, rooms)
            except Transient as error:
                raise Interrupted(done, error) from error
            return done
        if not carried:
            return done
        target = carried[0].target
        telling = self._telling(carried[0].notice, tournament, config, rooms)
        channel = self.client.get_partial_messageable(
            target.channel_id or 0, guild_id=tournament.guild_id
        )
        priority = STAFF if target.staff else PLAYERS
        posted = False
        for message, indexes in gathered(lines, telling):
            if posted and give_way():  # a decision waits for this place: it goes next
                break
            ids = [carried[index].notice.id for index in indexes]
            nonce = f"{ids[0]}g{len(ids)}"
            assert target.channel_id is not None
            try:
                await self.store.outbox.begin_sending(
                    ids, 0, target.channel_id, nonce, digest_of(message, target), self.clock()
                )
                sent = await self._send_message(channel, message, target, nonce, priority)
            except Transient as error:
                raise Interrupted(done, error) from error
            except (discord.Forbidden, discord.NotFound) as error:
                outcome = await self._refused(carried[0].notice, tournament, target, error, config)
                for queued in carried:
                    done.setdefault(queued.notice.id, outcome)
                return done
            await self.store.outbox.record_message(
                ids, 0, target.channel_id, sent.id, done_at=self.clock()
            )
            done.update(dict.fromkeys(ids, Outcome.SENT))
            posted = True
        await self.places.worked(target.channel_id or 0)
        return done

    # -- after a stop --------------------------------------------------------------------

    async def resume(self, sending: Sending) -> None:
        """A message that was being posted when the bot stopped: found among the channel's
        newest messages if Discord made it (by what it says), else posted again, the same
        notices in it with the same nonce; then recorded."""
        notices = await self.store.outbox.by_ids(sending.notice_ids)
        if len(notices) != len(sending.notice_ids):
            return  # done meanwhile (another process)
        channel = self.client.get_partial_messageable(sending.channel_id)
        made = await self._made(channel, sending.digest)
        single = len(notices) == 1 and "g" not in sending.nonce
        first = notices[0]
        if made is None:
            async with self.store.read(first.guild_id, self.clock(), lambda _: ANYONE) as tx:
                tournament = (
                    await tx.load(first.tournament_id) if first.tournament_id is not None else None
                )
                config = await tx.guild_config()
            if tournament is None:
                return
            target = Target(Place.ORIGIN, sending.channel_id)
            rooms = await self._rooms_of(tournament)
            if single:
                telling = self._telling(first, tournament, config, rooms)
                said = await self._render(first, telling)
                if sending.part >= len(said.messages):
                    return
                message = said.messages[sending.part]
            else:
                lines = [LINES[n.say](self._telling(n, tournament, config, rooms)) for n in notices]
                shown = [line for line in lines if line is not None]
                if not shown:  # nothing left to say: as it would be now
                    await self.store.outbox.finish_all(sending.notice_ids, SKIPPED, self.clock())
                    return
                telling = self._telling(first, tournament, config, rooms)
                message = gathered(shown, telling)[0][0]
            try:
                made = await self._send_message(channel, message, target, sending.nonce, PLAYERS)
            except (discord.Forbidden, discord.NotFound):
                await self.store.outbox.finish_all(
                    sending.notice_ids, SKIPPED, self.clock(), "gone"
                )
                return
        # One notice's post: its other parts, and what follows it, go the usual way (which
        # finds this part made, and marks the notice sent once all is done).
        if first.say is Say.PANEL and sending.part == 0 and first.tournament_id is not None:
            self.places.panel_posted(first.tournament_id, sending.channel_id, made.id)
        done = not single
        await self.store.outbox.record_message(
            sending.notice_ids,
            sending.part,
            sending.channel_id,
            made.id,
            done_at=self.clock() if done else None,
        )

    async def _made(self, channel: discord.PartialMessageable, digest: str) -> Any:
        """The bot's message among the channel's newest that says what `digest` digests, if
        Discord made it before the bot stopped (its nonce may be forgotten by now)."""
        me = self.client.user.id if self.client.user else None

        async def newest() -> list[discord.Message]:
            return [message async for message in channel.history(limit=HISTORY_LOOKED_AT)]

        try:
            for message in await self._request(newest(), PLAYERS):
                if message.author.id == me and digest_of_posted(message) == digest:
                    return message
        except (discord.Forbidden, discord.NotFound):
            return None
        return None

    # -- talking to Discord --------------------------------------------------------------

    async def _request(self, awaitable: Awaitable[T], priority: int) -> T:
        await self.pace.take(priority)
        return await call(awaitable)

    async def _send_message(
        self,
        channel: discord.PartialMessageable,
        message: Message,
        target: Target,
        nonce: str,
        priority: int,
    ) -> discord.Message:
        extra: dict[str, Any] = {}
        if message.files:
            extra["files"] = message.files_to_send()
        if message.view is not None:
            extra["view"] = message.view
        return await self._request(
            channel.send(
                _content(message, target),
                embeds=list(message.embeds),
                allowed_mentions=_pings(message, target),
                nonce=nonce,
                **extra,
            ),
            priority,
        )

    async def _post(
        self,
        notice: Outgoing,
        tournament: Tournament,
        channel_id: int,
        said: Said,
        parts: dict[int, tuple[int, int]],
        *,
        direct: bool = False,
        target: Target | None = None,
    ) -> None:
        target = target or Target(Place.ORIGIN, channel_id)
        guild_id = None if direct else tournament.guild_id
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        after = TRAITS[notice.say].after
        priority = STAFF if target.staff or TRAITS[notice.say].first else PLAYERS
        made = dict(parts)
        # Where a notice leaves something to do after its messages, it is marked done only
        # then; otherwise with its last message, in the same write.
        more_to_do = after is not After.NOTHING and said.thread_name is not None
        more_to_do = more_to_do or after is After.ENTRY_POST
        done = False
        last = len(said.messages) - 1
        for index, message in enumerate(said.messages):
            if index in made:
                continue
            nonce = f"{notice.id}.{index}"
            await self.store.outbox.begin_sending(
                [notice.id], index, channel_id, nonce, digest_of(message, target), self.clock()
            )
            sent = await self._send_message(channel, message, target, nonce, priority)
            made[index] = (channel_id, sent.id)
            if notice.say is Say.PAIRINGS:
                self._shown[sent.id] = _shown(message)
            done = index == last and not more_to_do
            await self.store.outbox.record_message(
                [notice.id], index, channel_id, sent.id, done_at=self.clock() if done else None
            )
        first = made[0][1]
        if notice.say is Say.PANEL:
            self.places.panel_posted(tournament.id, made[0][0], first)
        if after is After.OPEN_THREAD and said.thread_name is not None:
            await self._open_thread(notice, tournament, channel, first, said.thread_name)
        if after is After.ENTRY_POST:
            shown = tournament.checkin_open(self.clock())
            await self.store.posts.save_entry_post(tournament.id, channel_id, first, shown)
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
        number = notice.data.as_(OfRound).round
        known = await self.store.posts.round_place(tournament.id, number)
        if known is not None and known.channel_id == channel.id and known.thread_id:
            self.places.round_posted(tournament.id, number, known)
            return
        thread_id: int | None = None
        if not self._may_open_threads(tournament.guild_id, channel.id):
            # The server does not let the bot (its cache says): asked, Discord would refuse,
            # and each refusal counts toward its ban. Players are told by DM instead.
            log.info("round %s has no reports thread: the bot may not open one", number)
            place = RoundPlace(channel.id, None)
            await self.store.posts.save_round_place(tournament.id, number, place)
            self.places.round_posted(tournament.id, number, place)
            return
        try:
            thread = await self._request(
                channel.get_partial_message(first).create_thread(name=name), STAFF
            )
            thread_id = thread.id
        except discord.HTTPException as error:
            if error.code == THREAD_EXISTS:  # opened before a crash: a thread's id is its post's
                thread_id = first
            else:
                log.warning("could not open the reports thread of round %s: %s", number, error)
        place = RoundPlace(channel.id, thread_id)
        await self.store.posts.save_round_place(tournament.id, number, place)
        self.places.round_posted(tournament.id, number, place)

    def _may_open_threads(self, guild_id: int, channel_id: int) -> bool:
        """Whether the bot may open a public thread in the channel, by its cache of the
        server (True when the cache cannot tell: Discord decides)."""
        guild = self.client.get_guild(guild_id)
        channel = guild.get_channel(channel_id) if guild else None
        if guild is None or channel is None or guild.me is None:
            return True
        return channel.permissions_for(guild.me).create_public_threads

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
        number = notice.data.as_(OfRound).round
        parts = await self.store.outbox.pairings_post(tournament.id, number)

        async def mark(channel_id: int, message_id: int, message: Message) -> None:
            try:
                await self._edit(
                    Target(Place.PAIRINGS_POST, channel_id, message_id), message, EDITS
                )
            except (discord.Forbidden, discord.NotFound) as error:
                log.warning("a pairings post could not be brought up to date: %s", error.text)
                return
            self._shown[message_id] = _shown(message)

        # One after another: they share the channel's bucket for edits, whose headers
        # discord.py can only follow for one request at a time.
        for (channel_id, message_id), message in zip(parts, said.messages, strict=False):
            if self._shown.get(message_id) != _shown(message):
                await mark(channel_id, message_id, message)
        await self.store.outbox.finish(notice.id, SENT, self.clock())

    async def _edit(self, target: Target, message: Message, priority: int) -> None:
        assert target.channel_id is not None
        assert target.message_id is not None
        channel = self.client.get_partial_messageable(target.channel_id)
        kwargs: dict[str, Any] = {"embeds": list(message.embeds)}
        if message.content is not None:
            kwargs["content"] = message.content
        if message.view is not None:
            kwargs["view"] = message.view
        await self._request(channel.get_partial_message(target.message_id).edit(**kwargs), priority)

    async def _tell_player(
        self, notice: Outgoing, tournament: Tournament, target: Target, said: Said
    ) -> None:
        """By DM; when the player's DMs are closed (remembered from now on), the next time
        they use the bot."""
        assert target.user_id is not None
        try:
            channel_id = await self._dm_channel(target.user_id)
            await self._post(notice, tournament, channel_id, said, {}, direct=True, target=target)
        except (discord.Forbidden, discord.NotFound) as error:
            if isinstance(error, discord.Forbidden) and error.code == CANNOT_DM:
                await self.places.dm_refused(target.user_id, wall_clock())
            await self._keep_for_later(notice, tournament, target, said)

    async def _dm_channel(self, user_id: int) -> int:
        """The player's DM channel: opened once ever (Discord opens them slowly, a few a
        second for the whole bot), one at a time so that its bucket's headers hold."""
        known = self.places.dm_channels.get(user_id)
        if known is not None:
            return known
        async with self._opening_dms:
            known = self.places.dm_channels.get(user_id)
            if known is None:
                dm = await self._request(self.client.create_dm(discord.Object(id=user_id)), PLAYERS)
                known = dm.id
                await self.places.dm_opened(user_id, known)
        return known

    async def _keep_for_later(
        self, notice: Outgoing, tournament: Tournament, target: Target, said: Said
    ) -> None:
        assert target.user_id is not None
        text = "\n".join(m.content for m in said.messages if m.content)
        embeds = tuple(dict(embed.to_dict()) for m in said.messages for embed in m.embeds)
        await self.store.posts.leave_player_notice(
            tournament.guild_id, target.user_id, KeptNotice(text, embeds), self.clock()
        )
        await self.store.outbox.finish(notice.id, SENT, self.clock(), "kept: DMs closed")


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


# Looked at after a stop, for a message Discord may have made before it: the bot stops
# between a request and its record for a moment only, so its message is among the last.
HISTORY_LOOKED_AT = 25


def digest_of(message: Message, target: Target) -> str:
    """What a message says, as Discord will keep it: its text and its embeds' texts."""
    return _digest(_content(message, target) or "", [e.description or "" for e in message.embeds])


def digest_of_posted(message: discord.Message) -> str:
    return _digest(message.content or "", [e.description or "" for e in message.embeds])


def _digest(content: str, embeds: Sequence[str]) -> str:
    return hashlib.sha256("\x1f".join([content, *embeds]).encode()).hexdigest()[:32]

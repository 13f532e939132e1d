"""The delivery's places side by side, on real SQLite and PostgreSQL (bot/delivery): the
real scheduler, lanes and outbox, with Discord replaced by a recorder that can be told to
fail one place. A place Discord fails holds only what must follow it there; the next
round's post, the staff's log and every other place go on; once Discord answers, what
waited goes out in its order, once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from bot.delivery import Delivery
from bot.delivery.calls import Transient
from bot.delivery.lanes import Lane, Recovery
from bot.delivery.places import Target
from bot.delivery.sending import Interrupted, Outcome, Queued, Sender
from bot.notify.payloads import OfRound
from bot.notify.plan import Place, Say
from bot.services import Services
from bot.store.outbox import SENT
from bot.store.posts import RoundPlace
from tests.services.conftest import LEGAL_DECK, NOW, admin, judge, organizer, player

PAIRINGS, LOG, STANDINGS, NEWS, THREAD_OF = 900, 901, 902, 903, 1000  # round n's thread: +n
REFRESHES = (Say.PAIRINGS_REFRESH, Say.PANEL_REFRESH, Say.REGISTRATION_REFRESH)


class Recorder(Sender):
    """Discord, as far as the delivery can tell: each batch recorded with its place, a
    round's pairings post opening that round's thread, and `failing` places refusing with
    a 503 until they are taken out of it."""

    def __init__(self, delivery: Delivery) -> None:
        self.store = delivery.store
        self.places = delivery.places
        self.clock = lambda: NOW
        self.said: list[tuple[Say, Any, Any, Any]] = []  # (say, round, table, channel)
        self.batches: list[int] = []
        self.failing: set[int] = set()
        self.tries = 0
        self.backlog_shown: dict[int, int] = {}

    async def send(
        self, batch: Sequence[Queued], give_way: Callable[[], bool] = lambda: False
    ) -> dict[int, Outcome]:
        await asyncio.sleep(0)
        channel = batch[0].target.channel_id
        if channel in self.failing:
            self.tries += 1
            raise Interrupted({}, Transient("Discord 503"))
        self.batches.append(len(batch))
        for queued in batch:
            notice = queued.notice
            data = notice.data
            self.said.append((notice.say, data.about_round, data.about_table, channel))
            if notice.say is Say.PAIRINGS:
                number = data.as_(OfRound).round
                place = RoundPlace(PAIRINGS, THREAD_OF + number)
                await self.store.posts.save_round_place(notice.tournament_id, number, place)
                self.places.round_posted(notice.tournament_id, number, place)
            await self.store.outbox.finish(notice.id, SENT, datetime.now())
        return {queued.notice.id: Outcome.SENT for queued in batch}


def recording(services: Services) -> tuple[Delivery, Recorder]:
    store = services.rounds.store
    delivery = Delivery(client=Any, store=store, clock=lambda: NOW)  # type: ignore[arg-type]
    recorder = Recorder(delivery)
    delivery.sender = recorder
    return delivery, recorder


async def event_with_round_one_reported(services: Services, players: int = 8) -> None:
    await services.guilds.configure(
        admin(),
        pairings_channel_id=PAIRINGS,
        log_channel_id=LOG,
        standings_channel_id=STANDINGS,
        announcements_channel_id=NEWS,
    )
    await services.tournaments.create(organizer(), name="Cup", format="swiss", regulation="single")
    for number in range(1, players + 1):
        await services.registration.register(player(number), None)
        await services.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
    await services.lifecycle.start(organizer(), None)
    await services.rounds.pair(organizer(), None)


async def report_every_table(services: Services, but: int | None = None) -> None:
    _, current = await services.rounds.status(organizer(), None)
    for match in current.matches:
        if match.table == but:
            continue
        winner, loser = match.players
        await services.rounds.report(player(winner - 100), None, "win")
        await services.rounds.report(player(loser - 100), None, "lose")


async def test_a_failing_thread_holds_only_its_own_place(configured: Services) -> None:
    services = configured
    await event_with_round_one_reported(services)
    delivery, recorder = recording(services)
    await delivery.drain()  # round 1's post and its thread
    recorder.said.clear()
    recorder.failing.add(THREAD_OF + 1)  # Discord answers 503 for round 1's thread
    await report_every_table(services)
    await delivery._read(full=True)
    await asyncio.sleep(0.05)
    # The thread waits; the log, the pairings post's marks and the panel went on.
    assert all(channel != THREAD_OF + 1 for *_, channel in recorder.said)
    assert recorder.tries >= 1
    await services.rounds.pair(organizer(), None)  # round 2, while round 1's thread waits
    await delivery._read(full=False)
    await asyncio.sleep(0.05)
    assert (Say.PAIRINGS, 2, None, PAIRINGS) in recorder.said

    recorder.failing.clear()  # Discord answers again: the thread's notices go, in order
    delivery.recovery.wake()
    await delivery._settled()
    thread = [
        (say, table) for say, number, table, channel in recorder.said if channel == THREAD_OF + 1
    ]
    assert {table for _, table in thread} == {1, 2, 3, 4}
    for table in (1, 2, 3, 4):  # each table's confirm request before its result
        kinds = [say for say, at in thread if at == table]
        assert kinds[-1] is Say.RESULT_CONFIRMED
    # All at once after the outage: gathered, not one message per table.
    assert max(recorder.batches) > 1
    assert not await services.rounds.store.outbox.pending()
    # (The staff's notices that a place is not chosen here say different places.)
    told = [said for said in recorder.said if said[0] not in (*REFRESHES, Say.NOTICE_DROPPED)]
    assert len(told) == len(set(told))  # nothing said twice


async def test_a_rounds_post_that_waits_holds_its_round_not_the_others(
    configured: Services,
) -> None:
    services = configured
    await event_with_round_one_reported(services)
    delivery, recorder = recording(services)
    await delivery.drain()
    await report_every_table(services)
    await delivery.drain()
    recorder.said.clear()
    recorder.failing.add(PAIRINGS)  # #pairings answers 503: round 2's post waits
    await services.rounds.pair(organizer(), None)
    await services.rounds.start_clock(organizer(), None)
    await delivery._read(full=True)
    await asyncio.sleep(0.05)
    assert not any(number == 2 for _, number, _, _ in recorder.said)  # nothing of round 2
    recorder.failing.clear()
    delivery.recovery.wake()
    await delivery._settled()
    round_two = [say for say, number, _, _ in recorder.said if number == 2]
    assert round_two[0] is Say.PAIRINGS


async def test_a_judges_decision_goes_before_a_backlog_of_the_players_notices(
    configured: Services,
) -> None:
    """Every report of a round waits in the outbox when a judge decides the last table:
    the decision reaches #log, and the table's thread, before any of the players' notices
    written before it (a rush's backlog never holds up the staff)."""
    services = configured
    await event_with_round_one_reported(services, players=32)
    delivery, recorder = recording(services)
    await delivery.drain()  # round 1's post and its thread
    recorder.said.clear()
    await report_every_table(services, but=16)
    _, current = await services.rounds.status(organizer(), None)
    judged = current.match_at(16)
    assert judged is not None
    winner = judged.players[0]
    await services.rounds.set_result(judge(), None, table=16, choice="win", player=winner)
    await delivery._read(full=True)
    await delivery._settled()
    # (Edits of the posts go in their own lanes beside.)
    told = [
        (say, table, channel) for say, _, table, channel in recorder.said if say not in REFRESHES
    ]
    decision = {(Say.RESULT_SET, 16, LOG), (Say.RESULT_DECIDED, 16, THREAD_OF + 1)}
    assert set(told[:2]) == decision
    rush = {table for say, table, channel in told[2:] if channel == THREAD_OF + 1}
    assert rush == set(range(1, 16))  # the players' notices, after it


async def test_a_whole_read_of_an_outbox_longer_than_a_page_loses_nothing(
    configured: Services,
) -> None:
    """The outbox is read a page at a time: a notice known from an earlier read, beyond
    the first page of a whole read, is not taken for one done elsewhere (it would wait in
    the outbox, never sent, and what it holds back with it)."""
    services = configured
    await event_with_round_one_reported(services)
    delivery, recorder = recording(services)
    delivery.read_limit = 3
    await delivery.drain()
    recorder.said.clear()
    recorder.failing.add(THREAD_OF + 1)  # the thread's notices stay known, not sent
    await report_every_table(services)
    await delivery._read(full=False)
    await asyncio.sleep(0.05)
    await delivery._read(full=True)  # longer than a page
    recorder.failing.clear()
    delivery.recovery.wake()
    await delivery.drain()
    assert not await services.rounds.store.outbox.pending()
    thread = [(say, table) for say, _, table, channel in recorder.said if channel == THREAD_OF + 1]
    assert {table for say, table in thread if say is Say.RESULT_CONFIRMED} == {1, 2, 3, 4}


class Thread:
    """Discord's side of one channel for the real `Sender`: each post recorded (with the
    tables it names); `during_first` runs while the first post is on its way."""

    def __init__(self) -> None:
        self.posts: list[str] = []
        self.during_first: Callable[[], None] = lambda: None

    def get_partial_messageable(self, channel_id: int, **_: Any) -> Thread:
        return self

    async def send(self, content: str | None = None, **_: Any) -> Any:
        if not self.posts:
            self.during_first()
        await asyncio.sleep(0)
        self.posts.append(content or "")
        return SimpleNamespace(id=len(self.posts))


async def test_a_decision_for_a_place_goes_between_the_messages_of_a_long_batch_of_lines(
    configured: Services,
) -> None:
    """A lane sends a round's backlog of lines into the thread, several messages' worth at
    about a post a second; a judge's decision for the thread comes meanwhile: it goes after
    the message on its way, not after the whole backlog."""
    services = configured
    await event_with_round_one_reported(services, players=128)
    store = services.rounds.store
    _, current = await services.rounds.status(organizer(), None)
    for match in current.matches[:-1]:  # every table's first report: its opponent asked
        await services.rounds.report(player(match.players[0] - 100), None, "win")
    last = current.matches[-1]
    await services.rounds.set_result(
        judge(), None, table=last.table, choice="win", player=last.players[0]
    )
    thread = Thread()
    delivery = Delivery(client=thread, store=store, clock=lambda: NOW)  # type: ignore[arg-type]
    target = Target(Place.ROUND_THREAD, THREAD_OF + 1)
    waiting = await store.outbox.pending()
    asks = [Queued(n, 0, target) for n in waiting if n.say is Say.ASK_OPPONENT]
    (decided,) = [
        Queued(n, 0, target)
        for n in waiting
        if n.say is Say.RESULT_DECIDED and n.places[0] is Place.ROUND_THREAD
    ]
    finished: list[int] = []

    async def done(queued: Queued, outcome: Outcome | None, error: str | None) -> None:
        finished.append(queued.notice.id)

    lane = Lane("thread", delivery.sender, Recovery(), done)
    thread.during_first = lambda: lane.put(decided)
    for queued in asks:
        lane.put(queued)
    while lane.queue:  # noqa: ASYNC110
        await asyncio.sleep(0.01)
    assert len(thread.posts) >= 3  # the backlog alone takes two messages or more
    assert f"テーブル {last.table}" not in thread.posts[0]
    assert f"テーブル {last.table}" in thread.posts[1]  # the decision, next
    assert len(set(finished)) == len(asks) + 1  # and every line, once

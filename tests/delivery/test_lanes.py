"""A lane's back-off and what ends it (bot/delivery/lanes.py): a lane Discord failed waits,
longer each time, but wakes at once when its own place takes a request again (another lane
of the same channel) or when Discord as a whole answers again after a stretch without any
success; a place failing while others go through waits out its own back-off."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from bot.delivery.calls import Transient
from bot.delivery.lanes import Lane, Recovery, place_of
from bot.delivery.places import Target
from bot.delivery.sending import Interrupted, Outcome, Queued
from bot.errors import StorageError
from bot.notify.payloads import OfRound, OfTable
from bot.notify.plan import Place, Say
from bot.store.outbox import Outgoing

CHANNEL, OTHER = 500, 600
# A notice that failed often already: its next back-off is minutes long.
LONG_FAILING = 7


class Outbox:
    def __init__(self) -> None:
        self.failed: list[int] = []  # the tries counted against a notice

    async def failed_attempt(self, notice_id: int, error: str) -> None:
        self.failed.append(notice_id)


class Store:
    def __init__(self) -> None:
        self.outbox = Outbox()


class Discord:
    """The sender of the lanes: the places in `failing` answer 503; every batch sent is
    recorded with its lane's target."""

    def __init__(self) -> None:
        self.store = Store()
        self.failing: set[int] = set()
        self.sent: list[int] = []
        self.tried: list[int] = []

    async def send(
        self, batch: Sequence[Queued], give_way: Callable[[], bool] = lambda: False
    ) -> dict[int, Outcome]:
        await asyncio.sleep(0)
        notice = batch[0].notice
        self.tried.append(notice.id)
        channel = batch[0].target.channel_id
        if channel in self.failing:
            raise Interrupted({}, Transient("Discord 503"))
        self.sent.append(notice.id)
        return {queued.notice.id: Outcome.SENT for queued in batch}


def queued(notice_id: int, target: Target, attempts: int = 0) -> Queued:
    notice = Outgoing(
        notice_id, 1, 7, Say.STANDINGS, (Place.STANDINGS,), None, OfRound(1), "ja", attempts
    )
    return Queued(notice, 0, target)


async def nothing(*_: Any) -> None:
    return None


def lane(key: Hashable, discord: Discord, recovery: Recovery) -> Lane:
    return Lane(key, discord, recovery, nothing)  # type: ignore[arg-type]


async def until(condition: Any, within: float = 2.0) -> None:
    async with asyncio.timeout(within):
        while not condition():  # noqa: ASYNC110
            await asyncio.sleep(0.005)


def test_a_channels_posts_and_edits_are_one_place() -> None:
    assert place_of(("post", CHANNEL)) == place_of(("edit", CHANNEL, 77)) == ("channel", CHANNEL)
    assert place_of(("post", OTHER)) != place_of(("post", CHANNEL))
    assert place_of(("dm", 42)) == ("dm", 42)


async def test_a_lane_waiting_wakes_when_its_own_place_works_again() -> None:
    """#standings answered 503 (its notice waits minutes before trying again) while the
    other channels went on; then an edit in #standings goes through: the waiting post is
    tried again at once, not at the end of its back-off."""
    discord = Discord()
    recovery = Recovery()
    busy = lane(("post", OTHER), discord, recovery)
    posts = lane(("post", CHANNEL), discord, recovery)
    edits = lane(("edit", CHANNEL, 77), discord, recovery)
    busy.put(queued(1, Target(Place.LOG, OTHER)))
    await until(lambda: 1 in discord.sent)  # other places go through meanwhile
    discord.failing.add(CHANNEL)
    posts.put(queued(2, Target(Place.STANDINGS, CHANNEL), attempts=LONG_FAILING))
    await until(lambda: 2 in discord.tried)
    assert posts.waiting_since is not None
    busy.put(queued(3, Target(Place.LOG, OTHER)))  # a success elsewhere wakes nobody
    await until(lambda: 3 in discord.sent)
    await asyncio.sleep(0.05)
    assert discord.tried.count(2) == 1
    discord.failing.clear()
    edits.put(queued(4, Target(Place.STANDINGS, CHANNEL, message_id=77)))
    await until(lambda: 2 in discord.sent, within=1.0)  # before: minutes of back-off
    assert discord.tried.count(2) == 2
    for each in (busy, posts, edits):
        await each.cancel()


async def test_every_lane_wakes_at_the_first_success_after_discord_was_away() -> None:
    """Discord fails every place; once nothing went through for the quiet period, the
    first success anywhere wakes every waiting lane (every wait resets)."""
    discord = Discord()
    recovery = Recovery(quiet=0.1)
    first = lane(("post", CHANNEL), discord, recovery)
    second = lane(("dm", 42), discord, recovery)
    third = lane(("post", OTHER), discord, recovery)
    discord.failing |= {CHANNEL, 4200, OTHER}
    first.put(queued(1, Target(Place.STANDINGS, CHANNEL), attempts=LONG_FAILING))
    second.put(queued(2, Target(Place.PLAYER, 4200, user_id=42), attempts=LONG_FAILING))
    await until(lambda: {1, 2} <= set(discord.tried))
    await asyncio.sleep(0.15)  # nothing went through for longer than the quiet period
    discord.failing.clear()
    third.put(queued(3, Target(Place.LOG, OTHER)))
    await until(lambda: {1, 2, 3} <= set(discord.sent), within=1.0)
    for each in (first, second, third):
        await each.cancel()


async def test_a_kept_notice_is_no_sign_that_discord_is_back() -> None:
    """A player's notice kept for their next command (closed DMs) asked Discord nothing:
    the lanes waiting on an outage keep waiting."""
    discord = Discord()
    recovery = Recovery(quiet=0.1)
    waiting = lane(("post", CHANNEL), discord, recovery)
    kept = lane(("dm", 42), discord, recovery)
    discord.failing.add(CHANNEL)
    waiting.put(queued(1, Target(Place.STANDINGS, CHANNEL), attempts=LONG_FAILING))
    await until(lambda: 1 in discord.tried)
    await asyncio.sleep(0.15)
    kept.put(queued(2, Target(Place.PLAYER, user_id=42, kept=True)))
    await until(lambda: 2 in discord.sent)
    await asyncio.sleep(0.1)
    assert discord.tried.count(1) == 1
    for each in (waiting, kept):
        await each.cancel()


async def test_a_wake_ends_every_wait_and_a_timeout_ends_one() -> None:
    recovery = Recovery()
    started = asyncio.get_running_loop().time()
    await recovery.wait(0.05, ("channel", CHANNEL))
    assert asyncio.get_running_loop().time() - started >= 0.05
    waits = [asyncio.create_task(recovery.wait(60, ("channel", c))) for c in (1, 2)]
    await asyncio.sleep(0)
    recovery.failed(("channel", 1))
    recovery.wake()
    await asyncio.wait_for(asyncio.gather(*waits), 1)
    assert recovery.failing == 0


async def test_one_lane_probes_discord_so_the_end_of_an_outage_is_found_at_once() -> None:
    """Every place failed often (each lane waits minutes): one lane tries again every
    `probe` seconds, for all; those tries are not counted against its notice; the first
    that goes through wakes every lane."""
    discord = Discord()
    recovery = Recovery(quiet=0.05, probe=0.1)
    lanes = [lane(("post", channel), discord, recovery) for channel in (CHANNEL, OTHER)]
    discord.failing |= {CHANNEL, OTHER}
    lanes[0].put(queued(1, Target(Place.STANDINGS, CHANNEL), attempts=LONG_FAILING))
    lanes[1].put(queued(2, Target(Place.LOG, OTHER), attempts=LONG_FAILING))
    await until(lambda: discord.tried.count(1) + discord.tried.count(2) >= 5)  # probes
    assert sorted(discord.store.outbox.failed) == [1, 2]  # counted once each
    discord.failing.clear()
    await until(lambda: {1, 2} <= set(discord.sent), within=1.0)  # before: minutes
    for each in lanes:
        await each.cancel()


class WritingDownFails(Discord):
    """Discord makes every message; writing the first batch down meets the database away."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[int]] = []

    async def send(
        self, batch: Sequence[Queued], give_way: Callable[[], bool] = lambda: False
    ) -> dict[int, Outcome]:
        await asyncio.sleep(0)
        self.batches.append([queued.notice.id for queued in batch])
        if len(self.batches) == 1:
            raise StorageError("database unreachable")
        return {queued.notice.id: Outcome.SENT for queued in batch}


def line(notice_id: int, table: int) -> Queued:
    notice = Outgoing(
        notice_id,
        1,
        7,
        Say.RESULT_CONFIRMED,
        (Place.ROUND_THREAD,),
        None,
        OfTable(1, table),
        "ja",
        0,
    )
    return Queued(notice, 0, Target(Place.ROUND_THREAD, CHANNEL))


async def test_a_batch_whose_writing_down_failed_goes_again_as_it_was() -> None:
    """A table's line was posted, then the database went away before it was written down;
    meanwhile another table's line came. The lane sends the same batch again (its message,
    its nonce: Discord answers the repeat with the message it made), then the new line: a
    batch gathered anew would be a second message telling the first table again."""
    discord = WritingDownFails()
    told = lane(("post", CHANNEL), discord, Recovery())
    told.put(line(1, 1))
    await until(lambda: len(discord.batches) == 1)
    told.put(line(2, 2))
    await until(lambda: len(discord.batches) == 3, within=5.0)
    assert discord.batches == [[1], [1], [2]]
    await told.cancel()

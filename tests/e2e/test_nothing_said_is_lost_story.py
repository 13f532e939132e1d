"""Nothing the bot had to say is lost to a crash, and nothing is said twice.

The bot is SIGKILLed at the worst moments — right after the commit of /round pair, before
its pairings post reached Discord; after Discord made the post but before the bot heard
back; after the reports thread was opened; and in the middle of a burst of reports, between
the opponents' Confirm notices — and SIGTERMed and SIGKILLed while it sends at Discord's
pace; it is started again on the same database, at times after Discord forgot its nonces.
After each restart, the pairings post, the thread and every Confirm notice appear, each
exactly once.

A 32-player event is prepared through the services before the bot first starts (its round 1
pairing waits in the outbox and goes out when the bot starts); the kills come from the fake
Discord (`fake.kill_on`), at the request where a crash would hurt.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
from collections import Counter
from typing import Any

import pytest

from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.story import database_rows, prepare_running_event

pytestmark = pytest.mark.e2e

PLAYERS = 32
TABLES = PLAYERS // 2
JSON = dict[str, Any]


def members_and_round_1(fake: FakeDiscord) -> None:
    for number in range(1, PLAYERS + 1):
        fake.world.add_member(fake.guild, f"q{number:02d}")
    players = [f"q{n:02d}" for n in range(1, PLAYERS + 1)]
    channels = {
        f"{kind}_channel_id": fake.channel(kind).id for kind in ("pairings", "standings", "log")
    }
    asyncio.run(prepare_running_event(fake, players, name="Crash Cup", seed=17, **channels))


# Not held to the teardown's check of Discord's limits: the bot is killed mid-burst and a
# new process does not know the buckets its predecessor used up, so its first request
# into each may be refused once (as with Discord: the headers come with the answers).
fake = bot_fixture("crash", before_start=members_and_round_1, check_limits=False)


def pairings_posts(fake: FakeDiscord, round_number: int) -> list[JSON]:
    title = re.compile(rf"^\*\*.*第 {round_number} 回戦")
    return [m for m in fake.messages("pairings") if title.search(m.get("content") or "")]


def threads(fake: FakeDiscord, round_number: int) -> list[Any]:
    return [t for t in fake.threads("pairings") if t.name == f"第 {round_number} 回戦 結果報告"]


def tables(fake: FakeDiscord, round_number: int) -> list[tuple[int, int]]:
    rows = database_rows(
        fake,
        "SELECT player1, player2 FROM matches m JOIN rounds r ON r.tournament_id ="
        " m.tournament_id AND r.number = m.round WHERE m.round = ? ORDER BY m.table_no",
        round_number,
    )
    return [(int(a), int(b)) for a, b in rows if b is not None]


def name_of(fake: FakeDiscord, user_id: int) -> str:
    return next(
        f"q{n:02d}" for n in range(1, PLAYERS + 1) if fake.member(f"q{n:02d}").id == user_id
    )


def assert_posted_once(fake: FakeDiscord, round_number: int) -> None:
    posts = pairings_posts(fake, round_number)
    assert len(posts) == 1, [p["content"][:60] for p in posts]
    (thread,) = threads(fake, round_number)
    assert thread.id == int(posts[0]["id"])  # opened on the pairings post
    ((channel, thread_id),) = database_rows(
        fake, "SELECT channel_id, thread_id FROM round_posts WHERE round = ?", round_number
    )
    assert (channel, thread_id) == (fake.channel("pairings").id, thread.id)
    assert database_rows(fake, "SELECT COUNT(*) FROM outbox WHERE state = 'pending'") == [(0,)]


async def settle_round(fake: FakeDiscord, round_number: int) -> None:
    for first, second in tables(fake, round_number):
        await fake.slash(
            "report result", user=name_of(fake, first), options={"result": "win"}, locale="ja"
        )
        await fake.slash(
            "report result", user=name_of(fake, second), options={"result": "lose"}, locale="ja"
        )


async def pair_and_crash(fake: FakeDiscord, path: str, *, after: bool) -> None:
    """/round pair, with the bot killed at the first `POST path` of the delivery."""
    fake.kill_on("POST", path, after=after)
    await fake.slash("round pair", user="organizer", locale="ja", wait=False)
    await fake.wait_exit(within=15)
    await fake.start_bot()
    await fake.settled()


async def test_round_1_paired_while_the_bot_was_down_is_posted_when_it_starts(
    fake: FakeDiscord,
) -> None:
    await fake.settled()
    assert_posted_once(fake, 1)
    assert len(pairings_posts(fake, 1)[0]["content"].splitlines()) >= TABLES


async def test_a_crash_after_the_commit_of_round_pair_loses_nothing(fake: FakeDiscord) -> None:
    await settle_round(fake, 1)
    pairings = fake.channel("pairings").id
    await pair_and_crash(fake, f"/channels/{pairings}/messages", after=False)
    assert database_rows(fake, "SELECT COUNT(*) FROM rounds WHERE number = 2") == [(1,)]
    assert_posted_once(fake, 2)


async def test_a_crash_after_discord_made_the_post_does_not_post_it_twice(
    fake: FakeDiscord,
) -> None:
    await settle_round(fake, 2)
    pairings = fake.channel("pairings").id
    await pair_and_crash(fake, f"/channels/{pairings}/messages", after=True)
    assert_posted_once(fake, 3)


async def test_a_crash_after_the_thread_was_opened_does_not_open_it_twice(
    fake: FakeDiscord,
) -> None:
    await settle_round(fake, 3)
    await pair_and_crash(fake, "/threads", after=True)
    assert_posted_once(fake, 4)


async def test_a_crash_in_a_burst_of_reports_leaves_every_opponent_asked_once(
    fake: FakeDiscord,
) -> None:
    (thread,) = threads(fake, 4)
    fake.kill_on("POST", f"/channels/{thread.id}/messages", count=2)
    seats = tables(fake, 4)
    for first, _ in seats:
        await fake.slash(
            "report result",
            user=name_of(fake, first),
            options={"result": "win"},
            locale="ja",
            wait=False,
        )
    await fake.wait_exit(within=30)
    await fake.start_bot()
    await fake.settled()

    payloads = [
        json.loads(row[0])
        for row in database_rows(
            fake, "SELECT payload FROM action_log WHERE kind = 'report_result'"
        )
    ]
    reported = {int(p["player_id"]) for p in payloads if p["round"] == 4}
    assert len(reported) >= 5  # the crash came after some reports were stored
    notices = [m for m in fake.messages(thread.id) if "確認" in str(m["components"])]
    for first, second in seats:
        asked = [m for m in notices if f"<@{second}>" in m["content"]]
        assert len(asked) == (1 if first in reported else 0), (
            name_of(fake, second),
            [(m["id"], m.get("nonce"), m["content"]) for m in asked],
        )
    assert database_rows(fake, "SELECT COUNT(*) FROM outbox WHERE state = 'pending'") == [(0,)]


def asked_once(
    fake: FakeDiscord, thread_id: int, seats: list[tuple[int, int]], reported: set[int]
) -> None:
    """Every opponent of a stored report asked exactly once in the thread (several may
    share a message), no one else."""
    notices = [m for m in fake.messages(thread_id) if "確認" in str(m["components"])]
    for first, second in seats:
        asked = [m for m in notices if f"<@{second}>" in m["content"]]
        assert len(asked) == (1 if first in reported else 0), (
            name_of(fake, second),
            [(m["id"], m.get("nonce"), m["content"]) for m in asked],
        )
    assert database_rows(fake, "SELECT COUNT(*) FROM outbox WHERE state = 'pending'") == [(0,)]


def reported_in(fake: FakeDiscord, round_number: int) -> set[int]:
    payloads = [
        json.loads(row[0])
        for row in database_rows(
            fake, "SELECT payload FROM action_log WHERE kind = 'report_result'"
        )
    ]
    return {int(p["player_id"]) for p in payloads if p["round"] == round_number}


async def test_a_crash_after_discord_made_the_post_whose_nonce_it_forgot_does_not_post_it_twice(
    fake: FakeDiscord,
) -> None:
    """As above, but the bot is back only after Discord forgot the nonce (a few minutes):
    the message is found among the channel's newest by what it says."""
    await settle_round(fake, 4)
    pairings = fake.channel("pairings").id
    fake.kill_on("POST", f"/channels/{pairings}/messages", after=True)
    await fake.slash("round pair", user="organizer", locale="ja", wait=False)
    await fake.wait_exit(within=15)
    fake.age_nonces(minutes=10)
    await fake.start_bot()
    await fake.settled()
    assert_posted_once(fake, 5)


def posted(fake: FakeDiscord) -> dict[int, JSON]:
    """Every message the bot has posted (every channel, thread and DM), by id; not its
    answers to interactions, which are each their own."""
    with fake.world.lock:
        bot = str(fake.world.bot_user.id)
        return {
            number: copy.deepcopy(message)
            for number, message in fake.world.messages.items()
            if message["author"]["id"] == bot and "interaction_metadata" not in message
        }


def assert_nothing_posted_twice(fake: FakeDiscord, before: set[int]) -> None:
    """No place got the same message twice among the bot's posts since `before`."""
    said = Counter(
        (
            message["channel_id"],
            message.get("content") or "",
            tuple(embed.get("description") or "" for embed in message["embeds"]),
        )
        for number, message in posted(fake).items()
        if number not in before
    )
    twice = [(where, text[:80]) for (where, text, _), count in said.items() if count > 1]
    assert not twice, twice


@pytest.mark.parametrize("signal", ["SIGTERM", "SIGKILL"])
async def test_stopped_while_sending_at_discords_pace_says_each_thing_once(
    fake: FakeDiscord, signal: str
) -> None:
    """Three bursts of reports into one thread, which takes about a post a second: at each
    burst's first post the bot is stopped (SIGTERM: it lets its lanes finish for a moment,
    then stops; SIGKILL: nothing runs, as Discord makes the post or before it does), and
    started again after Discord forgot its nonces, with what it had not sent still to go.
    First every table's first report (the opponents asked), then every second report (the
    results). Nothing the bot posted anywhere says the same thing twice."""
    (thread,) = threads(fake, 5)
    seats = tables(fake, 5)
    before = set(posted(fake))
    path = f"/channels/{thread.id}/messages"
    for stop, burst in enumerate((seats[:6], seats[6:11], seats[11:])):
        sent = len(fake.requests_to("POST", path))
        if signal == "SIGKILL":
            fake.kill_on("POST", path, after=stop % 2 == 0)
        for first, second in burst:
            user, result = (first, "win") if signal == "SIGTERM" else (second, "lose")
            await fake.slash(
                "report result",
                user=name_of(fake, user),
                options={"result": result},
                locale="ja",
                wait=False,
            )
        if signal == "SIGTERM":
            await fake.wait_for(
                lambda sent=sent: len(fake.requests_to("POST", path)) > sent,
                "the burst's first post into the thread",
            )
            await fake.stop_bot()
        else:
            await fake.wait_exit(within=30)
        fake.age_nonces(minutes=10)
        await fake.start_bot()
    await fake.settled()
    assert_nothing_posted_twice(fake, before)
    if signal == "SIGTERM":
        asked_once(fake, thread.id, seats, reported_in(fake, 5))
        return
    confirmed = {
        int(row[0])
        for row in database_rows(
            fake,
            "SELECT table_no FROM matches WHERE round = 5 AND result_kind IS NOT NULL",
        )
    }
    said = "\n".join(
        "\n".join([m.get("content") or "", *(e.get("description") or "" for e in m["embeds"])])
        for m in fake.messages(thread.id)
    )
    for table in range(1, len(seats) + 1):
        lines = re.findall(rf"テーブル {table}: .*（確定）", said)
        assert len(lines) == (1 if table in confirmed else 0), (table, lines)

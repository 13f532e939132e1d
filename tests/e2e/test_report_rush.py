"""Concurrency through the fake Discord: the end of a 400-player round, when 200
players send /report result at the same moment.

The event (400 members, 200 tables, round 1 paired) is prepared through the services on
the bot's database before the bot starts; then 200 INTERACTION_CREATEs are sent without
waiting in between. Every player gets an answer within Discord's 3 s (the fake refuses a
late one), none says the database is locked, and each report is stored exactly once.
The latencies (interaction sent → acknowledged) are printed with `-s`; speed is judged by
people and bench/, not asserted here.
"""

from __future__ import annotations

import asyncio
import statistics

import pytest

from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.story import database_rows, prepare_running_event

pytestmark = pytest.mark.e2e

PLAYERS = 400


def members_and_a_running_event(fake: FakeDiscord) -> None:
    """400 members, and round 1 of their event paired on the bot's database."""
    for number in range(1, PLAYERS + 1):
        fake.world.add_member(fake.guild, f"p{number:03d}")
    players = [f"p{n:03d}" for n in range(1, PLAYERS + 1)]
    channels = {
        f"{kind}_channel_id": fake.channel(kind).id for kind in ("pairings", "standings", "log")
    }
    asyncio.run(prepare_running_event(fake, players, name="Rush Cup", seed=12, **channels))


rush = bot_fixture(
    "rush",
    before_start=members_and_a_running_event,
    options={"log_level": "INFO", "timeout": 60.0},
)


def first_seats(fake: FakeDiscord) -> list[str]:
    rows = database_rows(fake, "SELECT player1 FROM matches WHERE round = 1 ORDER BY table_no")
    names = {int(fake.member(f"p{n:03d}").id): f"p{n:03d}" for n in range(1, PLAYERS + 1)}
    return [names[int(row[0])] for row in rows]


async def test_200_reports_at_once(rush: FakeDiscord) -> None:
    reporters = first_seats(rush)
    assert len(reporters) == PLAYERS // 2

    replies = await asyncio.gather(
        *(
            rush.slash("report result", user=name, options={"result": "win"}, locale="ja")
            for name in reporters
        )
    )

    latencies = sorted(r._record.callbacks[0].at - r._record.created for r in replies)
    print(
        f"\n200 reports through the fake: p50 {statistics.median(latencies) * 1000:.0f} ms, "
        f"p99 {latencies[int(0.99 * (len(latencies) - 1))] * 1000:.0f} ms, "
        f"max {latencies[-1] * 1000:.0f} ms"
    )
    for reply in replies:
        assert reply.type in (4, 5), reply
        assert "確認を待っています" in reply.text, reply.text
        assert "locked" not in reply.text.lower()
    assert rush.bot is not None
    assert not [line for line in rush.bot.stderr_lines if "locked" in line.lower()]
    rush.assert_no_errors_logged()
    ((reports, distinct),) = database_rows(
        rush,
        "SELECT COUNT(*), COUNT(DISTINCT request_id) FROM action_log WHERE kind = 'report_result'",
    )
    assert (reports, distinct) == (200, 200)
    assert {int(r.interaction["id"]) for r in replies} == {
        row[0]
        for row in database_rows(
            rush, "SELECT request_id FROM action_log WHERE kind = 'report_result'"
        )
    }

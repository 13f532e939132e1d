"""An answer ready after its interaction's token has run out goes another way. Discord takes
answers through an interaction's token for 15 minutes after the click, and answers 401
50027 after (a refusal counted toward its ban of the bot).

The fake makes an interaction as if clicked 14.5 minutes ago (`made_minutes_ago`: its id
and its token's age say so), so the bot's answer comes that late without the test waiting
15 minutes. The bot keeps a minute's margin: the answer goes as a DM (a private answer),
saying it is the answer to the person's earlier action, and the token is never used again.
Before, it followed up through the token, as late as the answer came.

SQLite only: the answer's way is Discord's side; the store's part is the same on both.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import BACKENDS
from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.story import database_rows, prepare_running_event

pytestmark = pytest.mark.e2e

PLAYERS = [f"late{number}" for number in range(1, 9)]
LATE_NOTE = "時間がかかったため"  # ui.late_answer, in Japanese


def members_and_round_1(fake: FakeDiscord) -> None:
    for name in PLAYERS:
        fake.world.add_member(fake.guild, name)
    channels = {
        f"{kind}_channel_id": fake.channel(kind).id for kind in ("pairings", "standings", "log")
    }
    asyncio.run(prepare_running_event(fake, PLAYERS, name="Late Cup", seed=5, **channels))


fake = bot_fixture(
    "late_answers",
    before_start=members_and_round_1,
    backends=tuple(b for b in BACKENDS if b.id == "sqlite"),
)


def first_player_of_table_1(fake: FakeDiscord) -> str:
    ((player,),) = database_rows(
        fake, "SELECT player1 FROM matches WHERE round = 1 AND table_no = 1"
    )
    return next(name for name in PLAYERS if fake.member(name).id == int(player))


async def test_a_report_answered_after_its_tokens_life_goes_to_the_players_dms(
    fake: FakeDiscord,
) -> None:
    await fake.settled()
    name = first_player_of_table_1(fake)
    invalid = fake.invalid_requests()
    reply = await fake.slash(
        "report result",
        user=name,
        options={"result": "win"},
        locale="ja",
        wait=False,
        made_minutes_ago=14.5,
    )

    def late_answers() -> list[str]:
        return [m["content"] for m in fake.dms(name) if LATE_NOTE in m["content"]]

    await fake.wait_for(lambda: bool(late_answers()), "the late answer in the player's DMs")
    await fake.settled()
    (answer,) = late_answers()
    assert "報告を受け付けました" in answer  # the report's own answer, after the note
    # Acknowledged in time (the report is stored), then never answered through the token.
    token = reply.interaction["token"]
    assert [c.type for c in reply._record.callbacks] == [5]
    assert not [r for r in fake.requests if token in r.path and "/webhooks/" in r.path]
    assert fake.invalid_requests() == invalid  # no 401 50027, nor any other refusal
    reported = database_rows(fake, "SELECT COUNT(*) FROM action_log WHERE kind = 'report_result'")
    assert reported == [(1,)]

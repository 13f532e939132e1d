"""Idempotency, secrets and restarts through the real bot and the fake Discord, told as one
round:

- idempotency: the same INTERACTION_CREATE delivered twice applies once; a second press of
  確認 (a new interaction) is told the result is already final, and nothing changes;
- secrets: a player cannot see another's decklist before /deck publish; the token is in no
  log, message or file;
- restarts: the bot is SIGKILLed mid-round (twice) and started again on the same database:
  no confirmed result or deck is lost, a pending confirmation's button still works, the
  clock resumes and the pairings are unchanged.

The clock runs 300 times faster (CLOCK_SPEED), so a 40-minute round lasts 8 seconds.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, Upload
from tests.e2e.story import (
    FAST_CLOCK,
    LEGAL_CSV,
    PLAYERS,
    confirm_in_thread,
    database_rows,
    notice_to,
    pairings_of,
    setup_server,
    start_event,
    thread_messages,
    wait_for_time_up,
)

pytestmark = pytest.mark.e2e

CUP = "Power Cut Open"
fake = bot_fixture("power-cut", **FAST_CLOCK)


def action_count(fake: FakeDiscord, kind: str | None = None) -> int:
    if kind is None:
        return int(database_rows(fake, "SELECT COUNT(*) FROM action_log")[0][0])
    return int(database_rows(fake, "SELECT COUNT(*) FROM action_log WHERE kind = ?", kind)[0][0])


async def press_surviving_buttons(fake: FakeDiscord, round_number: int, pending: str) -> None:
    """Press the persistent buttons posted before a restart; each must still work.

    Today: the 確認 of a pending report (by `pending`, the reporter's opponent). Judge-call
    buttons join here when /judge call exists: post one before the kill, press it here.
    """
    confirmed = await confirm_in_thread(fake, round_number, pending)
    assert "確定" in confirmed.text, confirmed.text


async def test_setup_and_round_1_paired(fake: FakeDiscord) -> None:
    await setup_server(fake)
    await fake.slash(
        "tournament create",
        user="organizer",
        options={"name": CUP, "format": "swiss", "regulation": "single", "rounds": 2},
    )
    for player in PLAYERS:
        await fake.slash("register", user=player)
        await fake.slash(
            "deck submit", user=player, options={"file": Upload("deck.csv", LEGAL_CSV)}
        )
    await start_event(fake)
    paired = await fake.slash("round pair", user="organizer", locale="ja")
    assert "第 1 回戦" in paired.text
    assert len(pairings_of(fake, 1)) == 4


async def test_a_redelivered_report_applies_once(fake: FakeDiscord) -> None:
    first, second = pairings_of(fake, 1)[1]
    filed = await fake.slash("report result", user=first, options={"result": "win"}, locale="ja")
    assert "確認を待っています" in filed.text
    reports = action_count(fake, "report_result")
    notices = len(thread_messages(fake, 1))

    again = await fake.redeliver(filed)

    assert action_count(fake, "report_result") == reports
    (stored,) = database_rows(
        fake, "SELECT COUNT(*) FROM action_log WHERE request_id = ?", int(filed.interaction["id"])
    )
    assert stored == (1,)
    assert len(thread_messages(fake, 1)) == notices  # the opponent is not asked twice
    assert again.text == filed.text  # the user still sees the first, true answer
    assert not [line for line in fake.bot.stderr_lines if "Traceback" in line]  # type: ignore[union-attr]
    await confirm_in_thread(fake, 1, second)


async def test_a_double_click_on_confirm_applies_once(fake: FakeDiscord) -> None:
    first, second = pairings_of(fake, 1)[2]
    await fake.slash("report result", user=first, options={"result": "win"}, locale="ja")
    notice = notice_to(fake, 1, second)
    once = await fake.click(notice, "確認", user=second, locale="ja")
    assert "確定" in once.text
    before = action_count(fake)
    standings_posts = len(fake.messages("standings"))

    twice = await fake.click(notice, "確認", user=second, locale="ja")

    assert twice.ephemeral
    assert "すでに確定しています" in twice.text, twice.text
    assert action_count(fake) == before
    assert len(fake.messages("standings")) == standings_posts
    english = await fake.click(notice, "確認", user=second, locale="en-US")
    assert "is final" in english.text, english.text
    assert action_count(fake) == before


async def test_a_decklist_stays_private_until_published(fake: FakeDiscord) -> None:
    refused = await fake.slash("deck show", user="alice", options={"player": "bob"}, locale="ja")
    assert refused.ephemeral
    assert "ジャッジと運営だけ" in refused.text
    assert "平沢" not in refused.text
    refused_en = await fake.slash(
        "deck show", user="alice", options={"player": "bob"}, locale="en-US"
    )
    assert "only to judges and organizers" in refused_en.text
    own = await fake.slash("deck show", user="alice", locale="ja")
    assert "平沢" in own.text or own.files
    judged = await fake.slash("deck show", user="judge", options={"player": "bob"}, locale="ja")
    assert "平沢" in judged.text or judged.files


async def test_sigkill_mid_round_loses_nothing(fake: FakeDiscord) -> None:
    tables = pairings_of(fake, 1)
    # Table 3 is left pending: reported, its 確認 button posted, not yet pressed.
    first, second = tables[3]
    await fake.slash("report result", user=first, options={"result": "win"}, locale="ja")
    await fake.slash("round start", user="organizer", locale="ja")
    pairing_before = {p: (await fake.slash("pairing", user=p, locale="ja")).text for p in PLAYERS}
    deck_before = await fake.slash("deck show", user="carol", locale="ja")
    results_before = database_rows(fake, "SELECT * FROM matches ORDER BY 1, 2, 3")
    posted_before = len(fake.messages("pairings"))

    await fake.restart_bot(kill=True)

    # Pairings, confirmed results and decks are as they were.
    assert database_rows(fake, "SELECT * FROM matches ORDER BY 1, 2, 3") == results_before
    for player in PLAYERS:
        again = await fake.slash("pairing", user=player, locale="ja")
        assert again.text == pairing_before[player], player
    deck_after = await fake.slash("deck show", user="carol", locale="ja")
    assert deck_after.text == deck_before.text
    # The pending confirmation's button, posted by the killed process, still works.
    await press_surviving_buttons(fake, 1, second)
    # The clock resumes: the time-up instruction (R-MATCH-2) comes from the new process.
    await wait_for_time_up(fake, 1, since=posted_before)


async def test_a_kill_right_after_done_keeps_the_result(fake: FakeDiscord) -> None:
    first, second = pairings_of(fake, 1)[4]
    await fake.slash("report result", user=first, options={"result": "lose"}, locale="ja")
    agreed = await fake.slash("report result", user=second, options={"result": "win"}, locale="ja")
    assert "確定" in agreed.text  # the bot said "done": it must be on disk

    await fake.restart_bot(kill=True)

    status = await fake.slash("round status", user="alice", locale="ja")
    assert "対戦中 0 テーブル" in status.embed["description"], status.embed["description"]
    assert "— 対戦中" not in status.embed["description"]
    standings = await fake.slash("standings", user="alice", locale="ja")
    assert "第 1 回戦終了時点" in standings.text


async def test_the_token_is_nowhere(fake: FakeDiscord) -> None:
    exported = await fake.slash(
        "tournament export", user="alice", options={"tournament": CUP}, locale="ja"
    )
    assert exported.files
    for attachment in exported.files:
        assert fake.token.encode() not in fake.file_bytes(attachment)
    with fake.world.lock:
        everything = json.dumps(list(fake.world.messages.values()), ensure_ascii=False)
    assert fake.token not in everything
    fake.assert_token_not_logged()
    assert len(fake.processes) >= 3  # two SIGKILLs survived, each checked on its way out

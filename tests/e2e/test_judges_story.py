"""The judges' story through the real bot and the fake Discord: judges run the floor.

Penalties flip results (a game loss, a double game loss), a disqualified player is never
paired again, two cautions make the bot suggest a warning, a judge call is claimed and
resolved with an extension that moves only that table's clock, a no-show is recorded
inside its window and refused outside it, a mistaken result is undone and the standings
come back exactly; `verify` agrees at the end. After a pretend outage a judge gives the whole
round more time (全体延長), by command and by the panel's form: every table hears it in the
round's thread and the pairings channel once. Every judge tool is refused to a player.
The bot's clock runs 60 times faster (CLOCK_SPEED, test-only).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, Reply
from tests.e2e.story import (
    JSON,
    PLAYERS,
    assert_refused,
    database_rows,
    judge_call_post,
    judge_gives_win,
    member_id,
    run_cli,
    setup_server,
    start_event,
    tables_of,
    thread_messages,
)

pytestmark = pytest.mark.e2e

CUP = "Judges Cup"

fake = bot_fixture("judges", CLOCK_SPEED="60", CLOCK_TICK_SECONDS="0.2")


async def standings_text(fake: FakeDiscord) -> str:
    reply = await fake.slash("standings", user="judge", locale="ja")
    return reply.embed["description"]


async def give(fake: FakeDiscord, player: str, kind: str, **extra: str) -> Any:
    """/penalty give, then the judge presses 与える on the preview."""
    options = {"player": player, "type": kind, "reason": "テスト", **extra}
    preview = await fake.slash("penalty give", user="judge", options=options, locale="ja")
    shown = preview.embed["description"]  # read before the click edits the message
    return shown, await fake.click(preview, "与える", user="judge", locale="ja")


async def test_the_event_starts(fake: FakeDiscord) -> None:
    await setup_server(fake)
    await fake.slash(
        "tournament create",
        user="organizer",
        options={"name": CUP, "format": "swiss", "regulation": "mix"},
    )
    await fake.slash("tournament settings", user="organizer", options={"decklist_required": False})
    for player in PLAYERS:
        await fake.slash("register", user=player)
    await start_event(fake)
    paired = await fake.slash("round pair", user="organizer", locale="ja")
    assert "第 1 回戦" in paired.text
    await fake.slash("round start", user="organizer", locale="ja")


async def test_judge_tools_are_refused_to_a_player(fake: FakeDiscord) -> None:
    attempts: dict[str, JSON] = {
        "penalty give": {"player": "bob", "type": "caution", "reason": "x"},
        "penalty revoke": {"id": 1},
        "judge extend": {"table": 1, "minutes": 5},
        "round extend": {"minutes": 5},
        "judge noshow": {"table": 1, "player": "bob"},
        "log": {},
        "undo": {},
    }
    before = len(fake.messages("log"))
    await assert_refused(fake, attempts)
    other = await fake.slash(
        "penalty list", user="alice", options={"player": "bob"}, locale="en-US"
    )
    assert "judge" in other.text
    assert len(fake.messages("log")) == before


def said_since(fake: FakeDiscord, messages: list[JSON], since: int) -> str:
    return "\n".join(str(m.get("content") or "") for m in messages[since:])


def extensions(fake: FakeDiscord) -> list[int]:
    rows = database_rows(fake, "SELECT extension_minutes FROM matches ORDER BY round, table_no")
    return [row[0] for row in rows]


async def extended_as_told(
    fake: FakeDiscord, minutes: int, extend: Callable[[], Awaitable[Reply]]
) -> Reply:
    """`extend` gives every table of round 1 `minutes` more: each table's players hear it in
    the round's thread (both mentioned), and the pairings channel says it once."""
    thread, channel = len(thread_messages(fake, 1)), len(fake.messages("pairings"))
    done = await extend()
    told = said_since(fake, thread_messages(fake, 1), thread)
    for table, (first, second) in tables_of(fake, 1).items():
        line = next(line for line in told.splitlines() if f"テーブル {table} は" in line)
        assert f"{minutes} 分延長されました" in line, line
        assert f"<@{member_id(fake, first)}>" in line
        assert f"<@{member_id(fake, second)}>" in line
    announced = [
        m for m in fake.messages("pairings")[channel:] if "の対戦時間を" in (m["content"] or "")
    ]
    assert len(announced) == 1, announced
    assert announced[0]["content"].startswith(
        f"⏱ 第 1 回戦の対戦時間を {minutes} 分延長しました（対戦中の 4 テーブルすべて）。"
    )
    return done


async def test_after_an_outage_a_judge_extends_the_whole_round(fake: FakeDiscord) -> None:
    """全体延長 (R-MATCH-7): refused to a player in both languages with nothing stored; by
    /round extend, then by the panel's 全体延長 and its form; the log names it."""
    logged = database_rows(fake, "SELECT COUNT(*) FROM action_log")
    for locale, naming in (("ja", "ジャッジ"), ("en-US", "judge")):
        refused = await fake.slash(
            "round extend", user="alice", options={"minutes": 5}, locale=locale
        )
        assert refused.ephemeral
        assert naming in refused.text, refused.text
    assert database_rows(fake, "SELECT COUNT(*) FROM action_log") == logged
    assert extensions(fake) == [0, 0, 0, 0]

    by_command = await extended_as_told(
        fake,
        5,
        lambda: fake.slash("round extend", user="judge", options={"minutes": 5}, locale="ja"),
    )
    assert "第 1 回戦の対戦中の 4 テーブルを 5 分延長しました" in by_command.text
    assert extensions(fake) == [5, 5, 5, 5]

    panel = next(m for m in fake.messages("log") if "pt:extend_round:" in str(m["components"]))
    refused = await fake.click(panel, "全体延長", user="alice", locale="ja")
    assert refused.ephemeral
    assert "運営" in refused.text, refused.text
    form = await fake.click(panel, "全体延長", user="judge", locale="ja")
    assert form.type == 9  # the form asking the minutes
    assert form.modal["title"] == "第 1 回戦の全体延長"
    by_form = await extended_as_told(
        fake,
        3,
        lambda: fake.submit_modal(form, {"minutes": "３"}, user="judge", locale="ja"),
    )
    assert "4 テーブルを 3 分延長しました" in by_form.text
    assert extensions(fake) == [8, 8, 8, 8]
    shown = await fake.slash("log", user="judge", locale="ja")
    assert shown.embed["description"].count("回戦全体の延長（第 1 回戦）") == 2


async def test_a_no_show_inside_the_window_then_refused_outside_it(fake: FakeDiscord) -> None:
    tables = tables_of(fake, 1)
    absent = tables[4][0]
    recorded = await fake.slash(
        "judge noshow", user="judge", options={"table": 4, "player": absent}, locale="ja"
    )
    assert "遅刻による敗北" in recorded.text
    await fake.advance_clock(minutes=11)  # past the 10-minute window, at once
    refused = await fake.slash(
        "judge noshow", user="judge", options={"table": 3, "player": tables[3][0]}, locale="ja"
    )
    assert "10 分以内" in refused.text
    assert "（該当ルール: 遅刻）" in refused.text  # the rule by name (R-MATCH-6)


async def test_a_game_loss_flips_a_confirmed_result(fake: FakeDiscord) -> None:
    first, second = tables_of(fake, 1)[1]
    await fake.slash("report result", user=first, options={"result": "win"}, locale="ja")
    await fake.slash("report result", user=second, options={"result": "lose"}, locale="ja")
    preview, given = await give(fake, first, "game_loss", infraction="extra_cards")
    assert "過去の罰則: なし" in preview
    assert "敗北" in given.text
    assert f"{second.capitalize()}の勝ち" in given.text
    assert "⚖️" in fake.messages("log")[-1]["content"]
    # The player hears privately (by DM here).
    assert any("罰則" in (m.get("content") or "") for m in fake.dms(first))


async def test_a_double_game_loss(fake: FakeDiscord) -> None:
    first, second = tables_of(fake, 1)[2]
    await give(fake, first, "game_loss", infraction="collusion")
    _, given = await give(fake, second, "game_loss", infraction="collusion")
    assert "両者敗北" in given.text


async def test_two_cautions_then_the_bot_suggests_a_warning(fake: FakeDiscord) -> None:
    player = tables_of(fake, 1)[3][1]
    await give(fake, player, "caution", infraction="rules_error")
    await give(fake, player, "caution", infraction="rules_error")
    preview = await fake.slash(
        "penalty give",
        user="judge",
        options={
            "player": player,
            "type": "caution",
            "reason": "3 回目",
            "infraction": "rules_error",
        },
        locale="ja",
    )
    description = preview.embed["description"]
    assert "過去の罰則（2 件）" in description
    assert "提案: **警告**（R-PEN-2）" in description
    cancelled = await fake.click(preview, "やめる", user="judge", locale="ja")
    assert "取りやめました" in cancelled.text


async def test_a_player_with_closed_dms_is_told_the_next_time_they_use_the_bot(
    fake: FakeDiscord,
) -> None:
    player = tables_of(fake, 1)[4][1]
    fake.member(player).user.accepts_dms = False
    await give(fake, player, "caution", infraction="stalling")
    assert not any("罰則" in (m.get("content") or "") for m in fake.dms(player))
    used = await fake.slash("pairing", user=player, locale="ja")
    notice = [m for m in used.messages if "罰則が与えられました" in (m.get("content") or "")]
    assert notice, used.messages
    assert notice[0]["flags"] & 64  # ephemeral: only they see it
    assert "遅延行為" in notice[0]["content"]
    again = await fake.slash("pairing", user=player, locale="ja")
    assert not any("罰則" in (m.get("content") or "") for m in again.messages)  # told once
    fake.member(player).user.accepts_dms = True


async def test_a_judge_call_claimed_then_resolved_with_an_extension(fake: FakeDiscord) -> None:
    caller = tables_of(fake, 1)[3][0]
    called = await fake.slash(
        "judge call", user=caller, options={"reason": "裁定をお願いします"}, locale="ja"
    )
    assert "ジャッジを呼びました" in called.text
    post = judge_call_post(fake)
    assert f"<@&{fake.role('Judge').id}>" in post["content"]
    assert "テーブル 3" in post["content"]
    again = await fake.slash("judge call", user=caller, locale="ja")
    assert "対応中" in again.text  # one open call at a time
    claimed = await fake.click(post, "対応する", user="judge", locale="ja")
    assert "対応中" in claimed.text
    extend = next(
        c["label"]
        for row in claimed.message["components"]
        for c in row["components"]
        if "分延長" in c.get("label", "")
    )
    resolved = await fake.click(claimed.message, extend, user="judge", locale="ja")
    assert "延長しました" in resolved.text
    status = await fake.slash("round status", user="judge", locale="ja")
    lines = status.embed["description"].splitlines()
    assert any(line.startswith("テーブル 3") and "延長" in line for line in lines)
    assert not any(line.startswith("テーブル 4") and "延長" in line for line in lines)


async def test_a_disqualified_player_is_never_paired_again(fake: FakeDiscord) -> None:
    tables = tables_of(fake, 1)
    dq = tables[3][0]
    _, given = await give(fake, dq, "disqualification", infraction="marked_sleeves")
    assert "失格" in given.text
    for table, (first, _) in tables.items():
        if table in (3,):
            continue
        await judge_gives_win(fake, table, first)
    await fake.slash("round pair", user="organizer", locale="ja")
    seated = [p for pair in tables_of(fake, 2).values() for p in pair]
    assert dq not in seated
    assert "失格" in await standings_text(fake)
    fake.dq = dq  # type: ignore[attr-defined]


async def test_undo_of_a_mistaken_result_restores_the_standings_exactly(fake: FakeDiscord) -> None:
    tables = tables_of(fake, 2)
    for table, (first, _) in tables.items():
        await judge_gives_win(fake, table, first)
    before = await standings_text(fake)
    # A mistake: table 1's result recorded the wrong way round.
    second = tables[1][1]
    await judge_gives_win(fake, 1, second)
    assert await standings_text(fake) != before
    preview = await fake.slash("undo", user="organizer", locale="ja")
    assert "取り消します" in preview.text
    undone = await fake.click(preview, "取り消す", user="organizer", locale="ja")
    assert "取り消しました" in undone.text
    assert await standings_text(fake) == before


async def test_a_player_calls_a_judge_and_drops_by_buttons_only(fake: FakeDiscord) -> None:
    player = tables_of(fake, 2)[1][0]
    post = [m for m in fake.messages("pairings") if m.get("components")][-1]
    opened = await fake.click(post, "ジャッジを呼ぶ", user=player, locale="ja")
    assert opened.type == 9  # a form for what happened
    before = len(fake.messages("judge-calls"))
    called = await fake.submit_modal(opened, {"reason": "ボタンから"}, user=player, locale="ja")
    assert "ジャッジを呼びました" in called.text
    # The call's post; an earlier call's 3-minute reminder may come between.
    await fake.wait_for_message(
        "judge-calls",
        after=before,
        matching=lambda message: "ボタンから" in message["content"],
        what="the call with its reason",
    )
    asked = await fake.click(post, "ドロップ", user=player, locale="ja")
    assert "ドロップ（棄権）しますか" in asked.text  # asked first: a drop is for good
    dropped = await fake.click(asked, "ドロップする", user=player, locale="ja")
    assert "ドロップ（棄権）しました" in dropped.text


async def test_the_log_shows_who_did_what_and_verify_agrees(fake: FakeDiscord) -> None:
    shown = await fake.slash("log", user="judge", locale="ja")
    assert "<t:" in shown.embed["description"]
    assert "罰則を与えた" in shown.embed["description"] or shown.components
    listed = await fake.slash("penalty list", user="judge", locale="ja")
    assert "失格" in listed.embed["description"]
    assert fake.database is not None
    verified = await asyncio.to_thread(run_cli, "verify", **fake.database_env())
    assert verified.returncode == 0, verified.stdout + verified.stderr

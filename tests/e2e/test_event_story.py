"""A whole event's story through the real bot and the fake Discord: a full 8-player Swiss event
with a top 4, told in order. Players report by command and by button, confirm, agree by
reporting twice, report a time result with point-zone counts, concede, dispute (a judge
settles it), drop; the bot restarts mid-round; the top cut gets its bracket picture; the
event finishes; the export replays to the posted standings and `verify` agrees.

The bot's clock runs 300 times faster (CLOCK_SPEED, test-only), so a 40-minute round
lasts 8 seconds.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from pathlib import Path

import pytest
from PIL import Image

from domain.engine.record import read_record
from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, Upload
from tests.e2e.story import (
    FAST_CLOCK,
    JSON,
    LEGAL_CSV,
    PLAYERS,
    assert_refused,
    confirm_in_thread,
    judge_call_post,
    judge_gives_win,
    member_id,
    notice_to,
    pairings_of,
    run_cli,
    sent_payload,
    setup_server,
    standings_rows,
    wait_for_time_up,
)

pytestmark = pytest.mark.e2e

CUP = "Spring Open"
fake = bot_fixture("event", **FAST_CLOCK)


async def test_setup_create_register_submit_and_start(fake: FakeDiscord) -> None:
    await setup_server(fake)
    created = await fake.slash(
        "tournament create",
        user="organizer",
        options={"name": CUP, "format": "swiss_top_cut", "regulation": "single", "top_cut": 4},
    )
    assert CUP in created.text
    for player in PLAYERS:
        registered = await fake.slash("register", user=player)
        assert registered.ephemeral
        submitted = await fake.slash(
            "deck submit", user=player, options={"file": Upload("deck.csv", LEGAL_CSV)}
        )
        assert "R-" not in submitted.text, submitted.text
    preview = await fake.slash("tournament start", user="organizer")
    assert "Players: 8" in preview.text
    assert "Rounds: 3 rounds + top cut (top 4)" in preview.text
    started = await fake.click(preview, "Start", user="organizer")
    assert "8" in started.text


async def test_players_cannot_run_the_event(fake: FakeDiscord) -> None:
    attempts: dict[str, JSON] = {
        "round pair": {},
        "round repair": {},
        "round start": {},
        "result set": {"table": 1, "result": "win", "player": "bob"},
        "undrop": {"player": "bob"},
        "tournament finish": {},
    }
    posted = len(fake.messages("pairings"))
    await assert_refused(fake, attempts)
    other = await fake.slash("drop", user="alice", options={"player": "bob"}, locale="en-US")
    assert "own entry" in other.text
    assert len(fake.messages("pairings")) == posted


async def test_round_1_pairings_post_with_buttons_and_four_ways_to_report(
    fake: FakeDiscord,
) -> None:
    paired = await fake.slash("round pair", user="organizer", locale="ja")
    # A pairing without results can be taken back and made again.
    repaired = await fake.slash("round repair", user="organizer", locale="ja")
    assert "取り消しました" in repaired.text
    paired = await fake.slash("round pair", user="organizer", locale="ja")
    assert "第 1 回戦" in paired.text
    assert "組み合わせの説明" in paired.text  # the explanation, for organizers
    tables = pairings_of(fake, 1)
    assert sorted(p for players in tables.values() for p in players) == sorted(PLAYERS)
    post = fake.messages("pairings")[-1]
    assert "結果報告" in json.dumps(post["components"], ensure_ascii=False)
    # Only the round's players are pinged, nobody else.
    assert sorted(
        map(int, sent_payload(fake, post["content"])["allowed_mentions"]["users"])
    ) == sorted(member_id(fake, p) for p in PLAYERS)
    clock = await fake.slash("round start", user="organizer", locale="ja")
    assert "<t:" in clock.text
    started = fake.messages("pairings")[-1]["content"]
    assert "制限時間は 40 分" in started
    assert re.search(r"<t:\d+:t>（<t:\d+:R>）", started)

    # /pairing tells a player their table.
    first, second = tables[1]
    mine = await fake.slash("pairing", user=first, locale="ja")
    assert "テーブル 1" in mine.text
    assert f"<@{member_id(fake, second)}>" in mine.text

    status = await fake.slash("round status", user="bob", locale="ja")
    assert status.embed["description"].count("— 対戦中") == 4
    assert "対戦中 4 テーブル・結果確定 0 テーブル" in status.embed["description"]

    # Table 1: a report by command, confirmed by the opponent's button in the round's thread.
    filed = await fake.slash("report result", user=first, options={"result": "win"}, locale="ja")
    assert "確認を待っています" in filed.text
    confirmed = await confirm_in_thread(fake, 1, second)
    assert "確定" in confirmed.text

    # Table 2: entirely by buttons: 結果報告 on the post, then 勝ち, then 確認.
    first, second = tables[2]
    form = await fake.click(post, "結果報告", user=first, locale="ja")
    assert form.ephemeral
    assert "テーブル 2" in form.text
    chosen = await fake.click(form, "勝ち", user=first, locale="ja")
    assert "確認を待っています" in chosen.text
    # The reporter cannot confirm their own report.
    own = notice_to(fake, 1, second)
    refused = await fake.click(own, "確認", user=first, locale="ja")
    assert "自分の報告は確認できません。相手の確認を待っています" in refused.text
    await confirm_in_thread(fake, 1, second)

    # Table 3: both players report, matching: that is the confirmation.
    first, second = tables[3]
    await fake.slash("report result", user=first, options={"result": "lose"}, locale="ja")
    agreed = await fake.slash("report result", user=second, options={"result": "win"}, locale="ja")
    assert "確定" in agreed.text

    # Table 4: time, with point-zone counts through the form (R-MATCH-2).
    first, second = tables[4]
    form = await fake.click(post, "結果報告", user=first, locale="ja")
    opened = await fake.click(form, "時間切れ", user=first, locale="ja")
    assert opened.type == 9  # a modal
    timed = await fake.submit_modal(opened, {"mine": "2", "theirs": "５"}, user=first, locale="ja")
    assert "判定勝ち" in timed.text
    done = await confirm_in_thread(fake, 1, second)
    assert "判定勝ち（ポイント置き場" in done.text

    # The round is complete: the standings are posted to the standings channel.
    posted = fake.messages("standings")[-1]
    assert "第 1 回戦終了時点" in posted["embeds"][0]["title"]
    rows = standings_rows(posted)
    assert len(rows) == 8
    assert {name for _, name, points, _ in rows if points == 3} == {
        tables[1][0],
        tables[2][0],
        tables[3][1],
    }
    assert any(points == 2 for _, _, points, _ in rows)  # the judgement win (R-FMT-2)


async def settle_round(fake: FakeDiscord, round_number: int, skip: tuple[int, ...] = ()) -> None:
    """The first player of every other table wins, by two matching reports."""
    for table, players in sorted(pairings_of(fake, round_number).items()):
        if table == 0 or table in skip:
            continue
        first, second = players
        await fake.slash("report result", user=first, options={"result": "win"}, locale="ja")
        await fake.slash("report result", user=second, options={"result": "lose"}, locale="ja")


async def test_round_2_concession_dispute_settled_by_a_judge_and_a_drop(fake: FakeDiscord) -> None:
    await fake.slash("round pair", user="organizer", locale="ja")
    tables = pairings_of(fake, 2)
    # Table 1: a concession (R-MATCH-4), confirmed by the opponent.
    first, second = tables[1]
    conceded = await fake.slash(
        "report result", user=first, options={"result": "concede"}, locale="ja"
    )
    assert "投了" in conceded.text
    await confirm_in_thread(fake, 2, second)
    # Table 2: a dispute goes to the judge channel with both claims; a judge settles it.
    first, second = tables[2]
    await fake.slash("report result", user=first, options={"result": "win"}, locale="ja")
    notice = notice_to(fake, 2, second)
    form = await fake.click(notice, "異議", user=second, locale="ja")
    assert form.type == 9  # a form: what the player claims instead
    disputed = await fake.submit_modal(form, {"claim": "win"}, user=second, locale="ja")
    assert "ジャッジ" in disputed.text
    call = judge_call_post(fake)
    assert f"<@&{fake.role('Judge').id}>" in call["content"]
    assert "テーブル 2" in call["content"]
    assert "[[" not in call["content"]
    roles = sent_payload(fake, call["content"])["allowed_mentions"]["roles"]
    assert list(map(int, roles)) == [int(fake.role("Judge").id)]  # the judges, nobody else
    refused = await fake.slash(
        "result set",
        user=first,
        options={"table": 2, "result": "win", "player": first},
        locale="ja",
    )
    assert "ジャッジ" in refused.text
    settled = await judge_gives_win(fake, 2, second)
    assert "記録しました" in settled.text
    assert "記録しました" in fake.messages("log")[-1]["content"]
    await settle_round(fake, 2, skip=(1, 2))
    assert "第 2 回戦終了時点" in fake.messages("standings")[-1]["embeds"][0]["title"]
    # A drop (R-FMT-7): not paired from the next round on.
    dropper = tables[3][1]
    dropped = await fake.slash("drop", user=dropper, locale="ja")
    assert "ドロップ（棄権）しました" in dropped.text
    fake.dropped = dropper  # type: ignore[attr-defined]


async def test_round_3_survives_a_restart_mid_round(fake: FakeDiscord) -> None:
    await fake.slash("round pair", user="organizer", locale="ja")
    tables = pairings_of(fake, 3)
    seated = [p for players in tables.values() for p in players]
    assert fake.dropped not in seated  # type: ignore[attr-defined]
    assert len(seated) == 7  # seven players: one bye
    assert 0 in tables
    await fake.slash("round start", user="organizer", locale="ja")
    first, second = tables[1]
    await fake.slash("report result", user=first, options={"result": "win"}, locale="ja")
    before = await fake.slash("pairing", user=first, locale="ja")
    posted_before_restart = len(fake.messages("pairings"))

    await fake.restart_bot()

    # The pairings are unchanged, and the pending confirmation's button still works.
    after = await fake.slash("pairing", user=first, locale="ja")
    assert after.text == before.text
    confirmed = await confirm_in_thread(fake, 3, second)
    assert "確定" in confirmed.text
    # The clock resumes: the reminders and the time-up instruction (R-MATCH-2) come from
    # the restarted bot.
    texts = await wait_for_time_up(fake, 3, since=posted_before_restart)
    assert any("次のターンが終わるまで" in text for text in texts)
    assert any("残り時間はあと 5 分" in text for text in texts)
    await settle_round(fake, 3, skip=(1,))
    assert "第 3 回戦終了時点" in fake.messages("standings")[-1]["embeds"][0]["title"]


async def test_the_top_4_gets_a_bracket_picture_and_the_event_finishes(fake: FakeDiscord) -> None:
    standings = standings_rows(fake.messages("standings")[-1])
    paired = await fake.slash("round pair", user="organizer", locale="ja")
    assert "準決勝" in paired.text  # the top cut as people name it
    tables = pairings_of(fake, 4, stage="準決勝")
    assert len(tables) == 2
    top = {name for _, name, _, _ in standings[:4] if name != fake.dropped}  # type: ignore[attr-defined]
    assert {p for players in tables.values() for p in players} <= {n for _, n, _, _ in standings}
    assert len({p for players in tables.values() for p in players}) == 4
    del top
    picture = [m for m in fake.messages("pairings") if m.get("attachments")][-1]
    data = fake.file_bytes(picture["attachments"][0])
    image = Image.open(io.BytesIO(data))
    image.verify()
    assert image.format == "PNG"
    assert 20_000 < len(data) < 2_000_000
    for table, (first, _) in tables.items():
        await judge_gives_win(fake, table, first)
    await fake.slash("round pair", user="organizer", locale="ja")
    (final,) = pairings_of(fake, 5, stage="決勝").values()
    await judge_gives_win(fake, 1, final[0])
    finished = await fake.slash("tournament finish", user="organizer", locale="ja")
    assert "終了しました" in finished.text
    final_posts = [
        m
        for m in fake.messages("standings")
        if m.get("embeds") and "最終順位" in m["embeds"][0]["title"]
    ]
    assert final_posts
    (champion_row, *_) = standings_rows(final_posts[-1])
    assert champion_row[0] == 1
    assert champion_row[1] == final[0]


async def test_the_export_replays_to_the_posted_standings_and_verify_agrees(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    exported = await fake.slash(
        "tournament export", user="alice", options={"tournament": CUP}, locale="ja"
    )
    assert exported.files, (exported.text, exported.messages)
    files = {f["filename"]: f for f in exported.files}
    csv_name = next(name for name in files if name.endswith(".csv"))
    json_name = next(name for name in files if name.endswith(".json"))
    table = fake.file_bytes(files[csv_name])
    assert table.startswith("\ufeff".encode())  # Japanese Excel reads UTF-8 with a BOM
    record = tmp_path / "record.json"
    record.write_bytes(fake.file_bytes(files[json_name]))
    replayed = await asyncio.to_thread(run_cli, "replay", str(record), "--json")
    assert replayed.returncode == 0, replayed.stderr
    rows = json.loads(replayed.stdout)["standings"]
    # The event is finished: the replay gives the posted final placings, top cut first.
    final_post = [
        m
        for m in fake.messages("standings")
        if m.get("embeds") and m["embeds"][0]["title"].endswith("最終順位")
    ][-1]
    posted = standings_rows(final_post)
    assert [(r["rank"], r["player"].lower(), r["points"]) for r in rows] == [
        (rank, name, points) for rank, name, points, _ in posted
    ]
    assert [str(r["opponents_points"]).removesuffix(".0") for r in rows] == [o for *_, o in posted]
    assert rows[0]["top_cut"] == {"place": "winner", "best": 1}
    # The record's Swiss standings are the ones posted after the last Swiss round.
    after_round_3 = [
        m for m in fake.messages("standings") if "第 3 回戦終了時点" in m["embeds"][0]["title"]
    ][-1]
    swiss = read_record(record.read_text(encoding="utf-8")).standings()
    assert [(r.rank, r.player.lower(), r.points) for r in swiss] == [
        (rank, name, points) for rank, name, points, _ in standings_rows(after_round_3)
    ]
    assert fake.database is not None
    # The shell's export writes the same record as the command's attachment.
    shell = tmp_path / "shell.json"
    exported_id = json_name.removeprefix("tournament-").removesuffix(".json")
    written = await asyncio.to_thread(
        run_cli, "export", exported_id, "--output", str(shell), **fake.database_env()
    )
    assert written.returncode == 0, written.stderr
    assert json.loads(shell.read_text(encoding="utf-8")) == json.loads(record.read_text("utf-8"))
    verified = await asyncio.to_thread(run_cli, "verify", **fake.database_env())
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "agrees" in verified.stdout

"""The event told right, through the real bot and the fake Discord: a 12-player Japanese Swiss
event with a top 4, in which every decision reaches the people it touches and no one else,
the registration post closes at the start and finishes at the end, the top cut is named as
people name it, and the end of the event names the top-cut winner everywhere: /standings,
both CSVs, the JSON record, its replay, and `verify`.

The tests share one bot and run in order. The bot's clock runs 300 times faster, so a
40-minute round lasts 8 seconds.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, Upload
from tests.e2e.story import (
    FAST_CLOCK,
    JSON,
    LEGAL_CSV,
    PLAYERS,
    member_id,
    pairings_of,
    run_cli,
    sent_payload,
    setup_server,
    standings_rows,
    start_event,
    tables_of,
    thread_messages,
)

pytestmark = pytest.mark.e2e

CUP = "年末交流会"
NEWCOMERS = ("ivan", "judy", "ken", "leo")
ENTRANTS = (*PLAYERS, *NEWCOMERS)  # twelve who play
NO_DECK = "mallory"  # registers, never submits a deck: the start removes her
OUTSIDER = "zed"  # a member of the server who never entered
fake = bot_fixture("told_right", **FAST_CLOCK)
state: dict[str, object] = {}


def registration_post(fake: FakeDiscord) -> JSON:
    """The tournament's registration post as it is now (its embed carries the ID)."""
    return next(
        m
        for m in fake.messages("announcements")
        if m.get("embeds") and "大会 ID" in (m["embeds"][0].get("footer") or {}).get("text", "")
    )


def buttons(message: JSON) -> list[str]:
    return [c["label"] for row in message.get("components") or [] for c in row["components"]]


def mentions(user: str, fake: FakeDiscord) -> str:
    return f"<@{member_id(fake, user)}>"


def told_in_thread(fake: FakeDiscord, number: int, marker: str, stage: str | None = None) -> JSON:
    found = [m for m in thread_messages(fake, number, stage) if marker in (m.get("content") or "")]
    assert found, (marker, [m.get("content") for m in thread_messages(fake, number, stage)])
    return found[-1]


def pinged(fake: FakeDiscord, message: JSON) -> set[int]:
    """The users a message the bot sent may ping (its allowed mentions)."""
    allowed = sent_payload(fake, message["content"])["allowed_mentions"]
    return {int(user) for user in allowed.get("users") or []}


def dms_about(fake: FakeDiscord, user: str, marker: str) -> list[str]:
    return [m["content"] for m in fake.dms(user) if marker in (m.get("content") or "")]


async def report(fake: FakeDiscord, winner: str, loser: str) -> None:
    await fake.slash("report result", user=winner, options={"result": "win"}, locale="ja")
    await fake.slash("report result", user=loser, options={"result": "lose"}, locale="ja")


async def test_twelve_enter_by_buttons_and_the_start_closes_the_post(fake: FakeDiscord) -> None:
    await setup_server(fake, locale="ja")
    for name in (*NEWCOMERS, NO_DECK, OUTSIDER):
        await fake.add_member(name)
    created = await fake.slash(
        "tournament create",
        user="organizer",
        locale="ja",
        options={
            "name": CUP,
            "format": "swiss_top_cut",
            "regulation": "single",
            "top_cut": 4,
            "rounds": 3,
        },
    )
    assert CUP in created.text
    await fake.settled()
    for player in (*ENTRANTS, NO_DECK):
        await fake.click(registration_post(fake), "参加登録", user=player, locale="ja")
    for player in ENTRANTS:
        upload = Upload("deck.csv", LEGAL_CSV)
        await fake.slash("deck submit", user=player, options={"file": upload}, locale="ja")
    info = await fake.slash("tournament info", user="alice", locale="ja")
    assert "上位 4 人" in info.text  # not 「決勝トーナメント: 4」
    started = await start_event(fake)
    assert "参加者 12 人" in started.text
    await fake.settled()

    # The post closes: 「開催中・受付終了」, no button (this event takes no late entries).
    post = registration_post(fake)
    assert "開催中・受付終了" in post["embeds"][0]["title"]
    assert buttons(post) == []
    # The one player the start removed hears why, and what would have kept her in.
    (removed,) = dms_about(fake, NO_DECK, CUP)
    assert "デッキリストが提出されていなかった" in removed
    assert "「デッキ提出」ボタン" in removed
    assert not any(dms_about(fake, player, "参加者から外れました") for player in ENTRANTS)


async def test_round_1_the_tables_hear_the_judges_decisions(fake: FakeDiscord) -> None:
    await fake.slash("round pair", user="organizer", locale="ja")
    await fake.slash("round start", user="organizer", locale="ja")
    await fake.settled()
    tables = tables_of(fake, 1)
    assert len(tables) == 6

    # Table 1 gets 4 more minutes: its players hear it, with the new end; no one else.
    a, b = tables[1]
    extended = await fake.slash(
        "judge extend", user="judge", options={"table": 1, "minutes": 4}, locale="ja"
    )
    assert "延長しました" in extended.text
    await fake.settled()
    told = told_in_thread(fake, 1, "テーブル 1 は 4 分延長されました")
    assert mentions(a, fake) in told["content"]
    assert mentions(b, fake) in told["content"]
    assert pinged(fake, told) == {member_id(fake, a), member_id(fake, b)}
    # Its reminders follow its own end, not the round's (R-MATCH-7).
    await fake.wait_for(
        lambda: any(
            "テーブル 1（延長あり）の残り時間" in (m.get("content") or "")
            for m in fake.messages("pairings")
        ),
        "the extended table's own reminder",
    )

    # Table 2 disagrees; a judge settles it: both players hear the result and who decided.
    c, d = tables[2]
    await fake.slash("report result", user=c, options={"result": "win"}, locale="ja")
    await fake.slash("report result", user=d, options={"result": "win"}, locale="ja")
    await fake.slash(
        "result set",
        user="judge",
        options={"table": 2, "result": "win", "player": c},
        locale="ja",
    )
    await fake.settled()
    decided = told_in_thread(fake, 1, "テーブル 2 の結果は、ジャッジ（")
    assert f"{c.capitalize()}の勝ち" in decided["content"]
    assert "Judge" in decided["content"]  # the judge's name
    assert pinged(fake, decided) == {member_id(fake, c), member_id(fake, d)}

    # Table 3: the wording a reporter and an outsider read.
    e, f = tables[3]
    await fake.slash("report result", user=e, options={"result": "win"}, locale="ja")
    await fake.settled()
    asked = told_in_thread(fake, 1, f"{mentions(f, fake)}さん")
    own = await fake.click(asked, "確認", user=e, locale="ja")
    assert "自分の報告は確認できません。相手の確認を待っています" in own.text
    outsider = await fake.click(asked, "確認", user=OUTSIDER, locale="ja")
    assert "この大会の参加者ではありません" in outsider.text
    await fake.click(asked, "確認", user=f, locale="ja")

    for table in (1, 4, 5, 6):
        await report(fake, *tables[table])
    await fake.settled()

    # The pairings post marks each finished table; /round status shows the same to all.
    (post,) = [m for m in fake.messages("pairings") if "第 1 回戦 対戦表" in m["content"]]
    assert post["content"].count("✅ テーブル") == 6
    assert f"✅ テーブル 2: {c.capitalize()}の勝ち" in post["content"]
    assert buttons(post)[:1] == ["結果報告"]  # the buttons stay
    status = await fake.slash("round status", user=OUTSIDER, locale="ja")
    assert "対戦中 0 テーブル・結果確定 6 テーブル" in status.embed["description"]


async def test_round_2_a_game_loss_and_a_disqualification(fake: FakeDiscord) -> None:
    await fake.slash("round pair", user="organizer", locale="ja")
    await fake.settled()
    tables = tables_of(fake, 2)

    # Table 1: a game loss decides the match; both players are told, the opponent's
    # /pairing shows it decided, and the post marks the table (R-PEN-3).
    a, b = tables[1]
    preview = await fake.slash(
        "penalty give",
        user="judge",
        options={
            "player": a,
            "type": "game_loss",
            "reason": "マークド",
            "infraction": "marked_sleeves",
        },
        locale="ja",
    )
    await fake.click(preview, "与える", user="judge", locale="ja")
    await fake.settled()
    decided = told_in_thread(fake, 2, "への罰則「敗北")
    assert f"{b.capitalize()}の勝ち" in decided["content"]
    assert pinged(fake, decided) == {member_id(fake, a), member_id(fake, b)}
    mine = await fake.slash("pairing", user=b, locale="ja")
    assert "結果は確定しています" in mine.text
    assert "対戦相手は" not in mine.text
    (post,) = [m for m in fake.messages("pairings") if "第 2 回戦 対戦表" in m["content"]]
    assert f"✅ テーブル 1: {b.capitalize()}の勝ち" in post["content"]

    # Table 2 finishes, then one of its players is disqualified: the finished match stands
    # (line 271, 「以降」), and the DM says who was disqualified.
    c, d = tables[2]
    await report(fake, c, d)
    preview = await fake.slash(
        "penalty give",
        user="judge",
        options={
            "player": c,
            "type": "disqualification",
            "reason": "不正",
            "infraction": "collusion",
        },
        locale="ja",
    )
    await fake.click(preview, "与える", user="judge", locale="ja")
    await fake.settled()
    (dq,) = dms_about(fake, c, "失格")
    assert f"「{CUP}」で失格となりました" in dq
    state["disqualified"] = c
    for table in (3, 4, 5, 6):
        await report(fake, *tables[table])
    await fake.settled()
    status = await fake.slash("round status", user="alice", locale="ja")
    assert f"✅ テーブル 2: {c.capitalize()}の勝ち" in status.embed["description"]


async def test_round_3_and_the_top_cut_as_people_name_it(fake: FakeDiscord) -> None:
    await fake.slash("round pair", user="organizer", locale="ja")
    await fake.settled()
    for players in tables_of(fake, 3).values():
        await report(fake, *players)
    await fake.settled()
    standings_posts = len(fake.messages("standings"))

    paired = await fake.slash("round pair", user="organizer", locale="ja")
    assert "準決勝の対戦表（2 テーブル）" in paired.text
    await fake.settled()
    semifinal = [m for m in fake.messages("pairings") if "決勝トーナメント 準決勝" in m["content"]]
    (post,) = semifinal
    assert "勝ち点" not in post["content"]  # no Swiss points in the top cut
    assert buttons(post) == ["結果報告", "ジャッジを呼ぶ"]  # no ドロップ
    assert [t.name for t in fake.threads("pairings")][-1] == "準決勝 結果報告"
    semis = pairings_of(fake, 4, stage="準決勝")
    for players in semis.values():
        await report(fake, players[0], players[1])
    await fake.settled()

    paired = await fake.slash("round pair", user="organizer", locale="ja")
    assert "決勝の対戦表（1 テーブル）" in paired.text
    await fake.settled()
    ((winner, runner_up),) = pairings_of(fake, 5, stage="決勝").values()
    await report(fake, winner, runner_up)
    await fake.settled()
    # The Swiss standings are not posted again after a top-cut round.
    assert len(fake.messages("standings")) == standings_posts
    state["winner"], state["runner_up"] = winner, runner_up
    state["semifinalists"] = {p for players in semis.values() for p in players}
    finished = await fake.slash("tournament finish", user="organizer", locale="ja")
    assert "終了しました" in finished.text
    await fake.settled()


async def test_the_final_placings_everywhere(fake: FakeDiscord, tmp_path: Path) -> None:
    winner, runner_up = str(state["winner"]), str(state["runner_up"])

    # /standings: the final placings, the top cut first with its column.
    shown = await fake.slash("standings", user="alice", locale="ja")
    assert "最終順位" in shown.embed["title"]
    description = shown.embed["description"]
    assert "決勝T" in description
    rows = standings_rows({"embeds": [shown.embed]}, ENTRANTS)
    assert rows[0][:2] == (1, winner)
    assert rows[1][:2] == (2, runner_up)
    assert re.search(rf"1\s+優勝\s+{winner.capitalize()}", description, re.IGNORECASE)

    # The registration post is finished, and links the final standings.
    post = registration_post(fake)
    assert "（終了）" in post["embeds"][0]["title"]
    assert "最終順位: https://discord.com/channels/" in post["content"]
    assert buttons(post) == []

    # The export: the standings CSV (read as csv, and as utf-8-sig text), the matches CSV,
    # the JSON record; its replay gives the same final placings.
    exported = await fake.slash("tournament export", user="organizer", locale="ja")
    files = {f["filename"]: fake.file_bytes(f) for f in exported.files}
    standings_file = next(data for name, data in files.items() if name.endswith("standings.csv"))
    matches_file = next(data for name, data in files.items() if name.endswith("matches.csv"))
    record = next(data for name, data in files.items() if name.endswith(".json"))
    table = list(csv.reader(io.StringIO(standings_file.decode("utf-8-sig"), newline="")))
    assert table[0][-1] == "決勝トーナメント"
    assert table[1][0] == "1"
    assert table[1][1].lower() == winner
    assert table[1][-1] == "優勝"
    assert table[2][-1] == "準優勝"
    with io.TextIOWrapper(io.BytesIO(standings_file), encoding="utf-8-sig", newline="") as text:
        first_row = next(csv.DictReader(text))
    assert first_row["プレイヤー"].lower() == winner
    assert first_row["順位"] == "1"
    matches = list(csv.DictReader(io.StringIO(matches_file.decode("utf-8-sig"), newline="")))
    assert len(matches) == 6 * 3 + 2 + 1
    assert [m["段階"] for m in matches[-3:]] == ["準決勝", "準決勝", "決勝"]
    loss = next(m for m in matches if m["回戦"] == "2" and m["テーブル"] == "1")
    assert "敗北" in loss["罰則"]
    assert loss["ジャッジの決定"] == "はい"
    judged = next(m for m in matches if m["回戦"] == "1" and m["テーブル"] == "2")
    assert judged["ジャッジの決定"] == "はい"
    # Beside the record, the JSON says who won, as replay prints it (no replay needed).
    exported_placings = json.loads(record)["placings"]
    assert exported_placings[0]["player"].lower() == winner
    assert exported_placings[0]["top_cut"] == {"place": "winner", "best": 1}
    saved = tmp_path / "record.json"
    saved.write_bytes(record)
    replayed = await asyncio.to_thread(run_cli, "replay", str(saved), "--json")
    assert replayed.returncode == 0, replayed.stderr
    replay_rows = json.loads(replayed.stdout)["standings"]
    assert replay_rows == exported_placings
    assert replay_rows[0]["player"].lower() == winner
    assert replay_rows[0]["top_cut"] == {"place": "winner", "best": 1}
    assert [r["player"].lower() for r in replay_rows[:2]] == [winner, runner_up]
    assert {r["player"].lower() for r in replay_rows[2:4]} == (
        set(state["semifinalists"]) - {winner, runner_up}  # type: ignore[arg-type]
    )

    verified = await asyncio.to_thread(run_cli, "verify", **fake.database_env())
    assert verified.returncode == 0, verified.stdout + verified.stderr
    fake.assert_no_errors_logged()

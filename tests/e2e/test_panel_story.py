"""The organizer's panel, told as a story through the real bot: after `/tournament create` and the
start time, the organizer runs a whole Swiss event with a top 4 by the panel's buttons
alone (and the 「結果がすべて揃いました」 prompts in the staff channel), nobody types
`/round` or `/result`, the players report by buttons, and two disputes are settled by one
judge's press each (a win, and a time-out judged from the counts), both players told. The
panel counts results, disputes and judge calls, and survives the bot killed mid-round: its
buttons, the judges' notice and a call posted before still work, and it is still edited.

Before the organizer presses each of the panel's steps, a player presses the very same
button, enabled as it is, and is refused by the service with nothing stored: every step of
the panel is played so (`test_every_panel_step_was_refused_to_a_player`).

The tests share one bot and run in order.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.notify.plan import plan
from bot.services.base import ANYONE
from bot.store.database import open_database
from bot.store.uow import Store
from domain.timeparse import JST
from domain.tournament.steps import Step
from tests.conftest import REPO_ROOT
from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, Reply, Upload, text_of
from tests.e2e.fake_discord.harness import walk_components
from tests.e2e.story import (
    JSON,
    LEGAL_CSV,
    PLAYERS,
    is_pairings_of,
    member_id,
    notice_to,
    pairings_of,
    setup_server,
    standings_rows,
    thread_messages,
)

pytestmark = pytest.mark.e2e

CUP = "パネル杯"
LEGAL_TEXT = LEGAL_CSV.decode("utf-8")
fake = bot_fixture("panel_story")
# The panel's steps a player pressed and was refused (each pressed as the organizer next).
REFUSED: set[Step] = set()
# The public channels: a refused press posts nothing in any of them.
PUBLIC = ("announcements", "pairings", "standings", "judge-calls", "log")
PANEL_REFUSAL = (
    "運営パネルのボタンは大会運営とジャッジだけが使えます。運営かジャッジに依頼してください。"
)
ORGANIZERS_ONLY = "この操作は大会運営（オーガナイザーロール）だけができます。"


# -- reading the bot's posts -----------------------------------------------------------------


async def eventually(found: Callable[[], Any], what: str, seconds: float = 30.0) -> Any:
    """The notifier posts after the answer: wait for `found()` to give something (up to
    `seconds`: a loaded machine runs the bot slowly)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"no {what}")


def panel(fake: FakeDiscord) -> JSON:
    """The organizer's panel in the staff channel (the log channel here), as it is now."""
    posts = [m for m in fake.messages("log") if "運営パネル" in text_of(m)]
    assert len(posts) == 1, "one panel, edited as the event goes"
    return posts[0]


def buttons(message: JSON) -> dict[str, JSON]:
    return {
        str(c["label"]): c
        for c in walk_components(message.get("components") or [])
        if c.get("type") == 2
    }


def enabled(message: JSON) -> list[str]:
    """The steps enabled (the tools, シリーズ and 参加者の取り込み, are always enabled)."""
    return [
        label
        for label, c in buttons(message).items()
        if not c.get("disabled") and str(c["custom_id"]).startswith("pn:")
    ]


def tools(message: JSON) -> list[str]:
    return [label for label, c in buttons(message).items() if str(c["custom_id"]).startswith("pt:")]


def prompt(fake: FakeDiscord, title: str) -> JSON:
    """「第 N 回戦の結果がすべて揃いました」 in the staff channel, with its next steps."""
    text = f"✅ {title}の結果がすべて揃いました。"
    (found,) = [m for m in fake.messages("log") if m.get("content") == text]
    return found


def pairings_post(fake: FakeDiscord, number: int, stage: str | None = None) -> JSON:
    """The round's pairings post, whose 結果報告 button the players press."""
    return next(
        m
        for m in fake.messages("pairings")
        if m.get("components") and is_pairings_of(m.get("content") or "", number, stage)
    )


async def stored(fake: FakeDiscord) -> tuple[Any, ...]:
    """The guild's tournaments and their action logs, read through the bot's own store."""
    database = await open_database(fake.database_location, pool_size=1)
    try:
        store = Store(database, plan=plan)
        async with store.read(fake.guild.id, datetime.now(UTC), lambda _: ANYONE) as tx:
            tournaments = await tx.tournaments()
            logs = [await tx.actions(t.id) for t in tournaments]
        return tuple(tournaments), tuple(tuple(log) for log in logs)
    finally:
        await database.close()


def public_posts(fake: FakeDiscord) -> list[str]:
    """Every post players or staff read, but the panel's own: the delivery brings the panel
    up to date by itself (what waits to be sent, once a backlog clears), whoever pressed."""
    return [
        json.dumps(m, sort_keys=True)
        for name in PUBLIC
        for m in fake.messages(name)
        if "運営パネル" not in str(m.get("embeds"))
    ]


# -- pressing ----------------------------------------------------------------------------------


async def refused_to_a_player(
    fake: FakeDiscord, message: JSON, label: str, *, saying: str
) -> Reply:
    """A player presses the button: refused privately, `saying` why, with nothing stored
    and nothing posted."""
    # What was said before is out first (the panel brought up to date once a backlog
    # clears would otherwise land inside the refusal's window).
    await fake.settled()
    before, posts = await stored(fake), public_posts(fake)
    refused = await fake.click(message, label, user="alice", locale="ja")
    assert refused.ephemeral
    # The newest message: the answer, or a private follow-up after a deferred update (a
    # button that edits its message is acknowledged before the service decides).
    assert refused.content == saying
    await asyncio.sleep(0.3)  # anything wrongly told would be on its way by now
    assert await stored(fake) == before
    assert public_posts(fake) == posts
    return refused


async def press_step(fake: FakeDiscord, message: JSON, label: str) -> Reply:
    """A step of the panel (or of a prompt): a player first, refused; then the organizer."""
    custom_id = str(buttons(message)[label]["custom_id"])
    step = Step(custom_id.split(":")[1])
    await refused_to_a_player(fake, message, label, saying=PANEL_REFUSAL)
    REFUSED.add(step)
    return await fake.click(message, label, user="organizer", locale="ja")


async def report_by_buttons(
    fake: FakeDiscord, number: int, winner: str, loser: str, stage: str | None = None
) -> None:
    """結果報告 → 勝ち by the winner, then 確認 in the thread by the loser."""
    post = pairings_post(fake, number, stage)
    form = await fake.click(post, "結果報告", user=winner, locale="ja")
    filed = await fake.click(form, "勝ち", user=winner, locale="ja")
    assert "確認を待っています" in filed.text
    notice = await eventually(lambda: _notice(fake, number, loser, stage), "notice to the opponent")
    confirmed = await fake.click(notice, "確認", user=loser, locale="ja")
    assert "確定" in confirmed.text


def _notice(fake: FakeDiscord, number: int, user: str, stage: str | None = None) -> JSON | None:
    try:
        return notice_to(fake, number, user, stage)
    except IndexError:
        return None


async def dispute(
    fake: FakeDiscord, number: int, reporter: str, disputer: str, **claim: str
) -> JSON:
    """The reporter reports a win; the opponent presses 異議 and says, in the form, what
    they claim. The judges' notice, once posted."""
    form = await fake.click(pairings_post(fake, number), "結果報告", user=reporter, locale="ja")
    await fake.click(form, "勝ち", user=reporter, locale="ja")
    notice = await eventually(lambda: _notice(fake, number, disputer), "notice to the opponent")
    # The reporter cannot dispute their own report: refused before any form opens.
    own = await fake.click(notice, "異議", user=reporter, locale="ja")
    assert own.type == 4
    assert "異議を出せる相手の報告がありません" in own.text
    opened = await fake.click(notice, "異議", user=disputer, locale="ja")
    assert opened.type == 9  # the form
    sent = await fake.submit_modal(opened, claim, user=disputer, locale="ja")
    assert "異議を受け付けました（あなたの主張: " in sent.text
    return await eventually(lambda: _judges_notice(fake, number), "the judges' notice")


def _judges_notice(fake: FakeDiscord, number: int) -> JSON | None:
    found = [
        m
        for m in fake.messages("judge-calls")
        if f"第 {number} 回戦" in (m.get("content") or "") and buttons(m)
    ]
    return found[-1] if found else None


def _call_post(fake: FakeDiscord, reason: str) -> JSON | None:
    found = [m for m in fake.messages("judge-calls") if reason in (m.get("content") or "")]
    return found[-1] if found else None


def decided_in_thread(fake: FakeDiscord, number: int, first: str, second: str) -> list[str]:
    """The messages of the round's thread that tell both players a judge's decision."""
    mentions = (f"<@{member_id(fake, first)}>", f"<@{member_id(fake, second)}>")
    return [
        m["content"]
        for m in thread_messages(fake, number)
        if "⚖️" in (m.get("content") or "") and all(x in m["content"] for x in mentions)
    ]


# -- the story ---------------------------------------------------------------------------------


async def test_the_organizer_creates_the_event_and_sets_its_start_time(fake: FakeDiscord) -> None:
    await setup_server(fake, locale="ja")
    created = await fake.slash(
        "tournament create",
        user="organizer",
        locale="ja",
        options={
            "name": CUP,
            "format": "swiss_top_cut",
            "regulation": "single",
            "rounds": 2,
            "top_cut": 4,
        },
    )
    assert CUP in created.text
    starts = datetime.now(JST) + timedelta(hours=1)
    saved = await fake.slash(
        "tournament settings",
        user="organizer",
        locale="ja",
        options={"starts_at": starts.strftime("%Y/%m/%d %H:%M")},
    )
    assert "設定を保存しました" in saved.text
    shown = await eventually(lambda: enabled(panel(fake)) == [] and panel(fake), "panel")
    assert "開始" in buttons(shown)  # shown, greyed out until two players take part
    assert tools(shown) == ["制限カードリスト", "参加者の取り込み", "シリーズ", "対戦部屋: オフ"]


async def test_the_players_take_part_with_the_registration_posts_buttons(
    fake: FakeDiscord,
) -> None:
    post = next(m for m in fake.messages("announcements") if m.get("components"))
    for user in PLAYERS:
        registered = await fake.click(post, "参加登録", user=user, locale="ja")
        assert "登録しました" in registered.text
        box = await fake.click(post, "デッキ提出", user=user, locale="ja")
        field = box.modal["components"][0]
        custom = (field.get("component") or field["components"][0])["custom_id"]
        submitted = await fake.submit_modal(box, {custom: LEGAL_TEXT}, user=user, locale="ja")
        assert "デッキを受け付けました" in submitted.text
    await eventually(lambda: "開始" in enabled(panel(fake)), "開始 enabled")


async def test_the_restricted_list_is_attached_by_the_panels_file_form(fake: FakeDiscord) -> None:
    # /tournament settings restricted_list without a command: 制限カードリスト opens a form
    # with a file upload, as 参加者の取り込み does. The service decides who may: a player is
    # refused at the panel, a judge (who may use the panel) by the organizers' rule, and a
    # form sent by anyone but an organizer is refused before its file is read.
    shown = panel(fake)
    await refused_to_a_player(fake, shown, "制限カードリスト", saying=PANEL_REFUSAL)
    before = await stored(fake)
    judged = await fake.click(shown, "制限カードリスト", user="judge", locale="ja")
    assert judged.ephemeral
    assert ORGANIZERS_ONLY in judged.text
    form = await fake.click(shown, "制限カードリスト", user="organizer", locale="ja")
    assert form.type == 9
    assert form.modal["title"] == "制限カードリストの添付"
    (upload,) = form.modal["components"]
    assert (upload["type"], upload["component"]["type"]) == (18, 19)  # a label, a file upload
    example = (REPO_ROOT / "data" / "restricted" / "example.toml").read_bytes()
    good = Upload("制限カード.toml", example)
    for user in ("alice", "judge"):
        sent = await fake.submit_modal(form, {"file": good}, user=user, locale="ja")
        assert sent.ephemeral
        assert ORGANIZERS_ONLY in sent.text
    assert await stored(fake) == before
    # A file with a mistake is refused naming the entry and the field; nothing is saved.
    bad = Upload("制限カード.toml", b'[[limit]]\nregulations = ["single"]\n')
    refused = await fake.submit_modal(form, {"file": bad}, user="organizer", locale="ja")
    assert refused.ephemeral
    assert "[[limit]] #1" in refused.text
    assert "何も保存していません" in refused.text, refused.text
    assert await stored(fake) == before
    saved = await fake.submit_modal(form, {"file": good}, user="organizer", locale="ja")
    assert "に制限カードリスト（制限カード.toml）を添付しました" in saved.text, saved.text
    info = await fake.slash("tournament info", user="dave", locale="ja")
    assert "制限カード" in info.text
    assert "アップロード済み" in info.text, info.text


async def test_開始_on_the_panel_starts_after_its_preview(fake: FakeDiscord) -> None:
    preview = await press_step(fake, panel(fake), "開始")
    assert preview.ephemeral
    assert "参加者: 8 人" in preview.text
    # The restricted list is attached; the numbers are still checked against no card list.
    assert "制限カードは確認していません" not in preview.text
    assert "どのカードリストとも照合していません" in preview.text
    started = await fake.click(preview, "開始する", user="organizer", locale="ja")
    assert "開始しました" in started.text
    shown = await eventually(
        lambda: "組み合わせ" in enabled(panel(fake)) and panel(fake), "the running panel"
    )
    assert enabled(shown) == ["組み合わせ", "次の回戦", "書き出し"]
    # The entries are in and the deck rules locked (R-DECK-4): the lists can be published.
    assert tools(shown) == ["公開", "シリーズ", "対戦部屋: オフ"]


async def test_公開_on_the_panel_publishes_the_lists_after_asking(fake: FakeDiscord) -> None:
    # /deck publish without a command. Lists stay private until then: a player is refused at
    # the panel, a judge by the organizers' rule, and the organizer is asked first.
    peek = await fake.slash("deck show", user="bob", locale="ja", options={"player": "alice"})
    assert "01-001" not in peek.text
    await refused_to_a_player(fake, panel(fake), "公開", saying=PANEL_REFUSAL)
    asked = await fake.click(panel(fake), "公開", user="organizer", locale="ja")
    assert asked.ephemeral
    assert "公開しますか" in asked.text
    before, posts = await stored(fake), public_posts(fake)
    for user in ("alice", "judge"):
        refused = await fake.click(asked, "公開する", user=user, locale="ja")
        assert refused.ephemeral
        assert ORGANIZERS_ONLY in refused.text, refused.text
    kept = await fake.click(asked, "やめる", user="organizer", locale="ja")
    assert "公開していません" in kept.text
    assert await stored(fake) == before
    assert public_posts(fake) == posts
    asked = await fake.click(panel(fake), "公開", user="organizer", locale="ja")
    published = await fake.click(asked, "公開する", user="organizer", locale="ja")
    assert f"「{CUP}」のデッキリスト 8 件を公開しました" in published.text, published.text
    assert fake.messages("announcements")[-1]["attachments"], "the lists are posted as a file"
    peek = await fake.slash("deck show", user="bob", locale="ja", options={"player": "alice"})
    assert "01-001" in peek.text
    await eventually(
        lambda: tools(panel(fake)) == ["シリーズ", "対戦部屋: オフ"], "the panel without 公開"
    )


async def test_round_1_paired_and_started_by_the_panel_a_dispute_settled_in_one_press(
    fake: FakeDiscord,
) -> None:
    paired = await press_step(fake, panel(fake), "組み合わせ")
    assert "第 1 回戦の対戦表（4 テーブル）を投稿しました" in paired.text
    await eventually(lambda: "時計開始" in enabled(panel(fake)), "時計開始 enabled")
    clock = await press_step(fake, panel(fake), "時計開始")
    assert "時計を始めました" in clock.text
    tables = pairings_of(fake, 1)
    assert len(tables) == 4

    # Table 1: the second player disputes the first's win, claiming the win, with a note.
    first, second = tables[1]
    judges = await dispute(
        fake, 1, first, second, claim="win", reason="相手のポイント置き場が 7 枚になりました"
    )
    a, b = first.capitalize(), second.capitalize()
    content = judges["content"]
    assert f"<@&{fake.role('Judge').id}>" in content
    assert f"・{a}の報告: {a}の勝ち" in content
    assert f"・{b}の異議: {b}の勝ち" in content
    assert f"・{b}の補足: 相手のポイント置き場が 7 枚になりました" in content
    assert list(buttons(judges)) == [f"{a}の勝ち", f"{b}の勝ち", "両者敗北", "時間切れ判定…"]
    await eventually(lambda: "異議\n1" in text_of(panel(fake)), "the panel counting it")
    # A player pressing a judge's button is refused by the service; nothing is decided.
    await refused_to_a_player(
        fake,
        judges,
        f"{b}の勝ち",
        saying="この操作はジャッジと大会運営だけができます。ジャッジを呼んでください。",
    )
    settled = await fake.click(judges, f"{b}の勝ち", user="judge", locale="ja")
    # Acknowledged before the decision is written (a deferred update), then the notice
    # itself says what was decided, and by whom.
    assert settled.type == 6
    after = fake.message(judges["id"])
    assert f"✅ Judgeが決めました: {b}の勝ち" in after["content"]
    assert buttons(after) == {}
    told = await eventually(lambda: decided_in_thread(fake, 1, first, second), "the decision")
    assert told == [
        f"⚖️ <@{member_id(fake, first)}> <@{member_id(fake, second)}> 第 1 回戦 テーブル 1 の"
        f"結果は、ジャッジ（Judge）の判断で「{b}の勝ち」に決まりました。"
    ]

    for table in (2, 3, 4):
        winner, loser = tables[table]
        await report_by_buttons(fake, 1, winner, loser)


async def test_the_staff_hear_that_round_1_is_complete_and_post_the_standings(
    fake: FakeDiscord,
) -> None:
    said = await eventually(lambda: _prompt_or_none(fake, "第 1 回戦"), "the round-complete prompt")
    assert said["content"] == "✅ 第 1 回戦の結果がすべて揃いました。"
    assert enabled(said) == ["次の回戦", "組み合わせ", "順位表を投稿"]
    shown = await eventually(
        lambda: _described(panel(fake)) == "✅ 第 1 回戦の結果がすべて揃いました。" and panel(fake),
        "the panel's prompt",
    )
    assert "順位表を投稿" in enabled(shown)
    posted = len(fake.messages("standings"))
    reply = await press_step(fake, shown, "順位表を投稿")
    assert "順位表を順位チャンネルに投稿します" in reply.text
    await eventually(lambda: len(fake.messages("standings")) > posted, "the standings post")
    rows = standings_rows(fake.messages("standings")[-1])
    assert len(rows) == 8


def _prompt_or_none(fake: FakeDiscord, title: str) -> JSON | None:
    try:
        return prompt(fake, title)
    except ValueError:
        return None


def _described(message: JSON) -> str | None:
    embeds = message.get("embeds") or []
    return embeds[0].get("description") if embeds else None


async def test_次の回戦_on_the_prompt_and_a_time_out_judged_from_the_counts(
    fake: FakeDiscord,
) -> None:
    next_round = await press_step(fake, prompt(fake, "第 1 回戦"), "次の回戦")
    assert "第 2 回戦の組み合わせを作り、時計を開始しました" in next_round.text
    tables = pairings_of(fake, 2)
    first, second = tables[1]
    judges = await dispute(fake, 2, first, second, claim="time", mine="1", theirs="3")
    a, b = first.capitalize(), second.capitalize()
    # R-MATCH-2 from the disputer's side: 1 card in their point zone, 3 in the reporter's.
    assert f"・{b}の異議: {b}の判定勝ち（ポイント置き場 3–1）" in judges["content"]
    # A player at table 3 calls a judge with the pairings post's button: the panel counts
    # the call beside the dispute, the results in and the time left.
    caller = tables[3][0]
    opened = await fake.click(pairings_post(fake, 2), "ジャッジを呼ぶ", user=caller, locale="ja")
    await fake.submit_modal(opened, {"reason": "裁定をお願いします"}, user=caller, locale="ja")
    call = await eventually(lambda: _call_post(fake, "裁定をお願いします"), "the judge call's post")
    shown = await eventually(
        lambda: "ジャッジコール\n1" in text_of(panel(fake)) and panel(fake), "the call counted"
    )
    for state in ("回戦\n第 2 回戦", "結果\n0 / 4", "異議\n1", "残り時間\n<t:"):
        assert state in text_of(shown), state

    # The PC goes off mid-round. The panel, the judges' notice and the call's post, all
    # posted by the killed process, still work, and the same panel is edited by the new one.
    await fake.restart_bot(kill=True)
    claimed = await fake.click(call, "対応する", user="judge", locale="ja")
    resolved = await fake.click(claimed.message, "解決（延長なし）", user="judge", locale="ja")
    assert "解決しました" in resolved.text
    again = await eventually(
        lambda: "ジャッジコール\n0" in text_of(panel(fake)) and panel(fake), "the call resolved"
    )
    assert again["id"] == shown["id"]
    form = await fake.click(judges, "時間切れ判定…", user="judge", locale="ja")
    assert form.type == 9
    labels = [c.get("label") for c in form.modal["components"] if c.get("type") == 18]
    assert labels == [f"{a}のポイント置き場の枚数", f"{b}のポイント置き場の枚数"]
    wrong = await fake.submit_modal(form, {"first": "8", "second": "1"}, user="judge", locale="ja")
    assert "0〜6" in wrong.text  # the accepted range; nothing decided
    form = await fake.click(judges, "時間切れ判定…", user="judge", locale="ja")
    judged = await fake.submit_modal(form, {"first": "3", "second": "1"}, user="judge", locale="ja")
    assert judged.type == 6  # acknowledged first, then the notice edited
    assert f"✅ Judgeが決めました: {b}の判定勝ち（ポイント置き場 3–1）" in judged.text
    told = await eventually(lambda: decided_in_thread(fake, 2, first, second), "the decision")
    assert f"{b}の判定勝ち（ポイント置き場 3–1）" in told[0]
    await eventually(
        lambda: all(x in text_of(panel(fake)) for x in ("結果\n1 / 4", "異議\n0")),
        "the panel counting the decision",
    )
    for table in (2, 3, 4):
        winner, loser = tables[table]
        await report_by_buttons(fake, 2, winner, loser)


async def test_the_top_cut_and_its_rounds_from_the_prompts(fake: FakeDiscord) -> None:
    said = await eventually(lambda: _prompt_or_none(fake, "第 2 回戦"), "the prompt")
    assert enabled(said) == ["次の回戦", "決勝トーナメント", "順位表を投稿"]
    cut = await press_step(fake, said, "決勝トーナメント")
    assert "準決勝の対戦表（2 テーブル）を投稿しました" in cut.text
    await eventually(lambda: "時計開始" in enabled(panel(fake)), "時計開始 enabled")
    await fake.click(panel(fake), "時計開始", user="organizer", locale="ja")
    for winner, loser in pairings_of(fake, 3, stage="準決勝").values():
        await report_by_buttons(fake, 3, winner, loser, stage="準決勝")
    semis = await eventually(lambda: _prompt_or_none(fake, "準決勝"), "the semifinals' prompt")
    final = await fake.click(semis, "次の回戦", user="organizer", locale="ja")
    assert "決勝の組み合わせを作り、時計を開始しました" in final.text
    (finalists,) = pairings_of(fake, 4, stage="決勝").values()
    await report_by_buttons(fake, 4, *finalists, stage="決勝")


async def test_終了_and_書き出し_end_the_day(fake: FakeDiscord) -> None:
    said = await eventually(lambda: _prompt_or_none(fake, "決勝"), "the final's prompt")
    assert "終了" in enabled(said)
    finished = await press_step(fake, said, "終了")
    assert f"「{CUP}」を終了しました" in finished.text
    await eventually(
        lambda: "書き出し" in enabled(panel(fake)) and "終了" not in buttons(panel(fake)),
        "finished panel",
    )
    exported = await press_step(fake, panel(fake), "書き出し")
    assert sorted(a["filename"] for a in exported.files) == [
        "tournament-1-matches.csv",
        "tournament-1-standings.csv",
        "tournament-1.json",
    ]


def test_every_panel_step_was_refused_to_a_player() -> None:
    assert set(Step) == REFUSED


def test_nobody_typed_a_round_or_result_command(fake: FakeDiscord) -> None:
    typed = set()
    for record in fake.world.interactions.values():
        if record.type != 2:
            continue
        data = record.payload["data"]
        options = data.get("options") or []
        sub = options[0]["name"] if options and options[0].get("type") == 1 else ""
        typed.add(f"{data['name']} {sub}".strip())
    # Besides the set-up, only players' reads: the event's settings and a published list.
    reads = {"tournament info", "deck show"}
    assert typed == {"setup server", "tournament create", "tournament settings", *reads}

"""The entry flows, told in order through the real bot and the fake Discord: a player
takes part with the registration post's buttons only (参加登録, チェックイン, デッキ提出),
and the post made before a restart still works after it; tournament choices show their
state and count; a member whose name contains `@everyone`, a flag, a joiner and an RTL
override registers under that name and is shown escaped, pinging nobody; `/tournament
start` previews who it would drop, and only Start starts.

The tests share one bot and run in order.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from domain.timeparse import JST
from tests.conftest import REPO_ROOT
from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, text_of
from tests.e2e.story import JSON, sent_payload

pytestmark = pytest.mark.e2e

LEGAL_TEXT = (REPO_ROOT / "data" / "examples" / "keion.txt").read_text(encoding="utf-8")
CUP = "第12回 交流会"
MINI = "Mini Cup"
ODD_NAME = "@everyone 平沢🇯🇵\u200d\u202e"
state: dict[str, Any] = {}

# The registration post's チェックイン button follows the window at the bot's next tick.
fake = bot_fixture("entry", CLOCK_TICK_SECONDS="0.2")


def post_of(fake: FakeDiscord, name: str) -> JSON:
    """The registration post of a tournament, as it is now (its embed carries the ID)."""
    found = [
        m
        for m in fake.messages("announcements")
        if name in text_of(m)
        and m.get("embeds")
        and "ID" in (m["embeds"][0].get("footer") or {}).get("text", "")
    ]
    assert found, f"no registration post for {name}"
    return found[0]


def labels(message: JSON) -> list[str]:
    return [c["label"] for row in message.get("components") or [] for c in row["components"]]


async def wait_for_buttons(fake: FakeDiscord, condition: Callable[[], bool], what: str) -> None:
    """The bot updates the post's buttons on its own clock tick (CLOCK_TICK_SECONDS)."""
    await fake.wait_for(condition, f"the registration post's buttons: {what}")


def deck_field(opened: Any) -> str:
    field = opened.modal["components"][0]
    return str((field.get("component") or field["components"][0])["custom_id"])


async def test_create_posts_the_registration_post_with_buttons(fake: FakeDiscord) -> None:
    await fake.slash(
        "setup server",
        user="owner",
        options={
            "organizer_role": "Organizer",
            "judge_role": "Judge",
            "announcements": "announcements",
            "language": "ja",
        },
    )
    created = await fake.slash(
        "tournament create",
        user="organizer",
        locale="ja",
        options={
            "name": CUP,
            "format": "swiss",
            "regulation": "single",
            "max_players": 24,
            "date": "2026/12/24",
        },
    )
    assert CUP in created.text
    post = post_of(fake, CUP)
    embed = post["embeds"][0]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    # R-FMT-6: format, regulation and time limit announced up front; with date and deadline.
    assert fields["開催日"] == "2026/12/24"
    assert fields["形式"] == "スイスドロー"
    assert fields["レギュレーション"] == "シングルレギュレーション"
    assert fields["制限時間"] == "40 分・1 本勝負"
    assert fields["デッキ提出締切"] == "大会開始まで（開始すると締め切られます）"
    # No check-in window yet, so no チェックイン button (it comes when the window opens).
    assert labels(post) == ["参加登録", "デッキ提出"]
    state["id"] = embed["footer"]["text"].removeprefix("大会 ID ")
    assert [c["custom_id"] for row in post["components"] for c in row["components"]] == [
        f"en:reg:{state['id']}",
        f"en:deck:{state['id']}",
    ]


async def test_a_player_registers_and_submits_with_buttons_only(fake: FakeDiscord) -> None:
    registered = await fake.click(post_of(fake, CUP), "参加登録", user="alice", locale="ja")
    assert registered.ephemeral
    assert f"「{CUP}」に登録しました" in registered.text
    again = await fake.click(post_of(fake, CUP), "参加登録", user="alice", locale="en-US")
    assert again.ephemeral
    assert f'already registered for "{CUP}"' in again.text  # the command's error, privately
    opened = await fake.click(post_of(fake, CUP), "デッキ提出", user="alice", locale="ja")
    assert opened.type == 9
    assert opened.modal["custom_id"] == f"en:box:{state['id']}"
    done = await fake.submit_modal(
        opened, {deck_field(opened): LEGAL_TEXT}, user="alice", locale="ja"
    )
    assert "デッキを受け付けました（合計 60 枚）" in done.text
    shown = await fake.slash("deck show", user="alice", locale="en-US")
    assert "01-001" in shown.text


async def test_an_unregistered_player_is_told_to_register_first(fake: FakeDiscord) -> None:
    refused = await fake.click(post_of(fake, CUP), "デッキ提出", user="dave", locale="ja")
    assert refused.type == 4  # no box opens for a list that could not be stored
    assert refused.ephemeral
    assert "登録してください" in refused.text
    assert "チェックイン" not in labels(post_of(fake, CUP))


async def test_the_post_follows_the_start_time_and_check_in_opens(fake: FakeDiscord) -> None:
    starts = datetime.now(JST) + timedelta(minutes=30)
    await fake.slash(
        "tournament settings",
        user="organizer",
        options={"starts_at": starts.strftime("%Y/%m/%d %H:%M"), "checkin_minutes": 60},
    )
    registered = await fake.click(post_of(fake, CUP), "参加登録", user="bob", locale="ja")
    assert "登録しました" in registered.text
    fields = {f["name"]: f["value"] for f in post_of(fake, CUP)["embeds"][0]["fields"]}
    assert fields["デッキ提出締切"].endswith(":f>（大会開始時刻）まで")
    assert "チェックイン" in fields
    # The window (60 minutes before a start in 30) is open: the button appears by itself.
    await wait_for_buttons(
        fake, lambda: "チェックイン" in labels(post_of(fake, CUP)), "チェックイン shown"
    )
    assert labels(post_of(fake, CUP)) == ["参加登録", "チェックイン", "デッキ提出"]
    checked = await fake.click(post_of(fake, CUP), "チェックイン", user="alice", locale="ja")
    assert f"「{CUP}」にチェックインしました" in checked.text


async def test_the_buttons_and_an_open_box_survive_a_restart(fake: FakeDiscord) -> None:
    await fake.click(post_of(fake, CUP), "参加登録", user="carol", locale="ja")
    carol_box = await fake.click(post_of(fake, CUP), "デッキ提出", user="carol", locale="ja")
    await fake.restart_bot()
    # A box opened before the restart is still delivered.
    done = await fake.submit_modal(
        carol_box, {deck_field(carol_box): LEGAL_TEXT}, user="carol", locale="ja"
    )
    assert "デッキを受け付けました" in done.text
    # And the old post's buttons still work.
    opened = await fake.click(post_of(fake, CUP), "デッキ提出", user="bob", locale="en-US")
    done = await fake.submit_modal(
        opened, {deck_field(opened): LEGAL_TEXT}, user="bob", locale="en-US"
    )
    assert "Deck accepted (60 cards)" in done.text
    checked = await fake.click(post_of(fake, CUP), "チェックイン", user="bob", locale="en-US")
    assert "checked in" in checked.text.lower()
    fake.assert_no_errors_logged()


async def test_a_name_with_mentions_flags_and_rtl_marks_is_accepted_and_escaped(
    fake: FakeDiscord,
) -> None:
    member = await fake.add_member("yui")
    with fake.world.lock:
        member.nick = ODD_NAME
    registered = await fake.click(post_of(fake, CUP), "参加登録", user="yui", locale="ja")
    assert "登録しました" in registered.text, registered.text
    listed = await fake.slash("players", user="yui", locale="ja", options={"public": True})
    assert "@\u200beveryone 平沢🇯🇵\u200d\u202e" in listed.text
    assert "@everyone" not in listed.text
    # A second, small event: yui waits, then moves up, and the post naming yui pings nobody.
    await fake.slash(
        "tournament create",
        user="organizer",
        options={"name": MINI, "format": "swiss", "regulation": "mix", "max_players": 2},
    )
    for user in ("alice", "bob", "yui"):
        await fake.click(post_of(fake, MINI), "参加登録", user=user, locale="ja")
    mini_id = post_of(fake, MINI)["embeds"][0]["footer"]["text"].removeprefix("大会 ID ")
    await fake.slash("unregister", user="bob", options={"tournament": mini_id})
    promoted = fake.messages("announcements")[-1]["content"]
    assert "キャンセル待ちから繰り上がりました" in promoted
    assert "@\u200beveryone" in promoted
    assert "@everyone" not in promoted
    assert promoted.startswith("\u2068")  # the name's RTL override is closed after it
    assert "\u2069" in promoted
    mentions = sent_payload(fake, promoted)["allowed_mentions"]
    assert mentions.get("parse") == []
    assert not mentions.get("users")
    assert not mentions.get("roles")


async def test_choices_show_state_and_count(fake: FakeDiscord) -> None:
    ja = await fake.autocomplete("register", focused="tournament", value="", locale="ja")
    en = await fake.autocomplete("register", focused="tournament", value="", locale="en-US")
    assert [c["name"] for c in ja.choices] == [
        "【受付中】Mini Cup（2人／定員2人）",
        f"【受付中】{CUP}（4人／定員24人）",
    ]
    assert [c["name"] for c in en.choices] == [
        "[Open] Mini Cup (2 players / 2 max)",
        f"[Open] {CUP} (4 players / 24 max)",
    ]


async def test_start_previews_who_is_dropped_and_only_start_starts(fake: FakeDiscord) -> None:
    options = {"tournament": state["id"]}
    refused = await fake.slash("tournament start", user="alice", options=options, locale="ja")
    assert "大会運営" in refused.text
    preview = await fake.slash("tournament start", user="organizer", options=options, locale="ja")
    assert preview.ephemeral
    text = preview.text
    assert "まだ何も変わっていません" in text
    assert "参加者: 2 人" in text  # alice and bob; carol and yui did not check in
    assert "回戦数: 1 回戦" in text
    assert "チェックインなし: Carol、\u2068@\u200beveryone 平沢" in text
    assert "デッキ未提出・不適合: \u2068@\u200beveryone" in text
    assert "開始時に除外: Carol、" in text
    assert preview.custom_ids == [f"ts:go:{state['id']}", f"ts:no:{state['id']}"]
    # Someone else pressing Start is refused by the service; nothing starts.
    stolen = await fake.click_custom_id(
        preview.message, f"ts:go:{state['id']}", user="alice", locale="en-US"
    )
    assert "organizer" in stolen.text
    cancelled = await fake.click(preview, "やめる", user="organizer", locale="ja")
    assert "開始を取りやめました" in cancelled.text
    assert cancelled.custom_ids == []
    info = await fake.slash("tournament info", user="dave", options=options, locale="ja")
    assert "参加受付中" in info.text
    preview = await fake.slash("tournament start", user="organizer", options=options, locale="ja")
    started = await fake.click(preview, "開始する", user="organizer", locale="ja")
    assert f"「{CUP}」を開始しました。参加者 2 人" in started.text
    assert started.custom_ids == []
    assert "開始しました" in fake.messages("announcements")[-1]["content"]
    # Started: the post closes: 「開催中・受付終了」, and no button is left, as
    # this event takes no late entries.
    await wait_for_buttons(
        fake, lambda: "開催中・受付終了" in post_of(fake, CUP)["embeds"][0]["title"], "closed"
    )
    closed = post_of(fake, CUP)
    assert labels(closed) == []
    assert "参加受付は終了しました" in closed["content"]
    # Each player the start removed hears why, by DM, and what would have kept them in;
    # the players who play hear nothing of it.
    await fake.wait_for(lambda: bool(fake.dms("carol")), "carol's DM")
    (told,) = [m["content"] for m in fake.dms("carol") if CUP in m["content"]]
    assert "チェックインがなかった" in told
    assert "「チェックイン」ボタン" in told
    assert not [m for m in fake.dms("alice") if "参加者から外れました" in m["content"]]
    fake.assert_no_errors_logged()

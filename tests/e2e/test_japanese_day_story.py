"""A Japanese-first day of play, told as a story through the real bot: a Japanese
organizer runs a small event as a newcomer would. The buttons read in Japanese only (both
languages once the server asks for it), no internal code or rule id reaches a player, a
refused settings change says nothing was saved, the start says who would be left out and
why, and the commands that read still work once the event is over.

The tests share one bot and run in order.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, Reply
from tests.e2e.fake_discord.harness import walk_components
from tests.e2e.story import JSON, member_id, setup_server, thread_messages

pytestmark = pytest.mark.e2e

CUP = "冬の交流会"
ENTRANTS = ("alice", "bob", "carol", "dave")
LATIN = re.compile(r"[A-Za-z]")
BUTTON = 2  # the component type
fake = bot_fixture("japanese_day")


def button_labels(message: JSON | Reply) -> list[str]:
    """The labels of a message's buttons, in order."""
    if isinstance(message, Reply):
        components = message.components
    else:
        components = list(walk_components(message.get("components") or []))
    return [str(c["label"]) for c in components if c.get("type") == BUTTON]


async def test_a_japanese_server_and_a_refused_settings_change(fake: FakeDiscord) -> None:
    await setup_server(fake, locale="ja")
    shown = await fake.slash("setup show", user="owner", locale="ja")
    fields = {f["name"]: f["value"] for f in shown.embed["fields"]}
    assert fields["投稿の言語"] == "日本語"  # not 「ja」
    assert fields["ボタンの言語"] == "日本語のみ"
    created = await fake.slash(
        "tournament create",
        user="organizer",
        locale="ja",
        options={
            "name": CUP,
            "format": "swiss",
            "regulation": "mix_two",
            "rounds": 1,
            "max_players": 16,
        },
    )
    assert CUP in created.text
    post = fake.messages("announcements")[-1]
    assert "MIX-Two limited" in post["content"]  # the regulation's own name, not mix-two
    assert "チェックイン" not in post["content"]  # no check-in, no word of it
    assert button_labels(post) == ["参加登録", "デッキ提出"]
    for player in ENTRANTS:
        await fake.slash("register", user=player, locale="ja")
    refused = await fake.slash(
        "tournament settings",
        user="organizer",
        locale="ja",
        options={"starts_at": "来週のどこか", "decklist_required": False},
    )
    assert refused.ephemeral
    assert "開始時刻「来週のどこか」を読めません" in refused.text
    assert "`今日 21時`" in refused.text
    assert "設定「開始時刻」を直して" in refused.text
    assert "何も保存していません" in refused.text
    info = await fake.slash("tournament info", user="organizer", locale="ja")
    assert {f["name"]: f["value"] for f in info.embed["fields"]}["デッキリスト"] == "提出必須"


async def test_the_start_says_who_would_be_left_out_and_why(fake: FakeDiscord) -> None:
    refused = await fake.slash("tournament start", user="organizer", locale="ja")
    assert "参加登録 4 人のうち、開始できるのは 0 人です" in refused.text
    assert "適合するデッキがないため除外: " in refused.text
    for player in ENTRANTS:
        assert player.capitalize() in refused.text  # their display names
    assert "R-" not in refused.text


async def test_today_at_21_is_read_and_the_other_setting_saved_with_it(fake: FakeDiscord) -> None:
    saved = await fake.slash(
        "tournament settings",
        user="organizer",
        locale="ja",
        options={"starts_at": "今日 21時", "decklist_required": False},
    )
    assert "設定を保存しました" in saved.text
    fields = {f["name"]: f["value"] for f in saved.embed["fields"]}
    assert fields["デッキリスト"] == "任意"


async def test_before_the_first_pairing_round_0_is_never_spoken_of(fake: FakeDiscord) -> None:
    preview = await fake.slash("tournament start", user="organizer", locale="ja")
    assert button_labels(preview) == ["開始する", "やめる"]
    await fake.click(preview, "開始する", user="organizer", locale="ja")
    for command, user in (("round start", "organizer"), ("report result", "alice")):
        options = {"result": "win"} if command == "report result" else {}
        reply = await fake.slash(command, user=user, locale="ja", options=options)
        assert "まだ対戦表がありません" in reply.text, reply.text
        assert "第 0 回戦" not in reply.text
    unregister = await fake.slash("unregister", user="bob", locale="ja")
    assert "「ドロップ」ボタン" in unregister.text
    assert "ジャッジ" not in unregister.text


async def test_the_pairings_buttons_read_in_japanese_only(fake: FakeDiscord) -> None:
    paired = await fake.slash("round pair", user="organizer", locale="ja")
    assert "第 1 回戦の対戦表（2 テーブル）を投稿しました" in paired.text
    post = fake.messages("pairings")[-1]
    labels = button_labels(post)
    assert labels == ["結果報告", "ジャッジを呼ぶ", "ドロップ"]
    assert not any(LATIN.search(label) for label in labels)
    # A reply to one person follows that person's language, whatever the server's.
    form = await fake.click(post, "結果報告", user="alice", locale="en-US")
    assert button_labels(form) == ["Win", "Lose", "Concede", "Time"]


async def test_a_mixed_server_asks_for_both_languages(fake: FakeDiscord) -> None:
    await fake.slash("setup server", user="owner", locale="ja", options={"bilingual_buttons": True})
    shown = await fake.slash("setup show", user="owner", locale="ja")
    assert "日本語と英語" in {f["name"]: f["value"] for f in shown.embed["fields"]}["ボタンの言語"]
    opponent = _opponent_of(fake, "alice")
    await fake.slash("report result", user="alice", locale="ja", options={"result": "win"})
    notice = await _notice_to(fake, opponent)
    assert button_labels(notice) == ["確認 / Confirm", "異議 / Dispute"]
    await fake.click(notice, "確認 / Confirm", user=opponent, locale="ja")


async def test_after_the_finish_export_and_standings_need_no_name(fake: FakeDiscord) -> None:
    for first, second in _tables(fake):
        if "alice" in (first, second):
            continue
        await fake.slash(
            "result set",
            user="judge",
            locale="ja",
            options={"table": _table_of(fake, first), "result": "win", "player": first},
        )
    undo = await fake.slash("undo", user="organizer", locale="ja")
    assert "結果の記録（第 1 回戦 テーブル " in undo.text
    assert "の勝ち）" in undo.text
    await fake.click(undo, "やめる", user="organizer", locale="ja")
    finished = await fake.slash("tournament finish", user="organizer", locale="ja")
    assert "終了しました" in finished.text
    export = await fake.slash("tournament export", user="organizer", locale="ja")
    assert "受付中・開催中の大会はありません" not in export.text
    assert "スプレッドシート" in export.text
    assert "python" not in export.text
    assert sorted(a["filename"] for a in export.files) == [
        "tournament-1-matches.csv",
        "tournament-1-standings.csv",
        "tournament-1.json",
    ]
    standings = await fake.slash("standings", user="carol", locale="ja")
    assert CUP in standings.embed["title"]
    choices = await fake.autocomplete("standings", focused="tournament", user="carol", locale="ja")
    assert [c["name"] for c in choices.choices] == [f"【終了】{CUP}（4人／定員16人）"]


# -- reading the posts back ------------------------------------------------------------------


def _tables(fake: FakeDiscord) -> list[tuple[str, str]]:
    """The two players of each table of round 1, from the pairings post."""
    names = {member_id(fake, name): name for name in ENTRANTS}
    content = fake.messages("pairings")[-1]["content"]
    return [
        (names[int(first)], names[int(second)])
        for first, second in re.findall(r"テーブル \d+: <@(\d+)>.* vs <@(\d+)>", content)
    ]


def _opponent_of(fake: FakeDiscord, player: str) -> str:
    (pair,) = [pair for pair in _tables(fake) if player in pair]
    return pair[1] if pair[0] == player else pair[0]


def _table_of(fake: FakeDiscord, player: str) -> int:
    content = fake.messages("pairings")[-1]["content"]
    mention = f"<@{member_id(fake, player)}>"
    (line,) = [line for line in content.splitlines() if mention in line]
    found = re.match(r"テーブル (\d+):", line)
    assert found is not None
    return int(found.group(1))


async def _notice_to(fake: FakeDiscord, player: str) -> JSON:
    """The newest message of round 1's thread addressed to `player` (it may take a moment)."""
    mention = f"<@{member_id(fake, player)}>"
    found = await fake.wait_for(
        lambda: [m for m in thread_messages(fake, 1) if mention in (m.get("content") or "")],
        f"a notice to {player} in round 1's thread",
    )
    return found[-1]

"""Issue 10's story through the real bot and the fake Discord: a full 8-player Swiss event
with a top 4, told in order. Players report by command and by button, confirm, agree by
reporting twice, report a time result with point-zone counts, concede, dispute (a judge
settles it), drop; the bot restarts mid-round; the top cut gets its bracket picture; the
event finishes; the export replays to the posted standings and `verify` agrees.

The bot's clock runs 600 times faster (CLOCK_SPEED, test-only), so a 40-minute round
lasts 4 seconds.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import REPO_ROOT
from tests.e2e.fake_discord import FakeDiscord, Upload

pytestmark = pytest.mark.e2e

JSON = dict[str, Any]
PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
LEGAL_CSV = (REPO_ROOT / "data" / "examples" / "keion.csv").read_bytes()
CUP = "Spring Open"
SPEED = 600


@pytest.fixture(scope="module")
def fake(
    synced_commands: list[JSON], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FakeDiscord]:
    discord = FakeDiscord()
    discord.start()
    try:
        discord.load_commands(synced_commands)
        discord.default_env.update(
            AUTO_SYNC="false",
            CLOCK_SPEED=str(SPEED),
            CLOCK_TICK_SECONDS="0.2",
            CLOCK_GRACE_SECONDS="600",
        )
        asyncio.run(discord.start_bot(tmp_path_factory.mktemp("event")))
        yield discord
        if discord.bot is not None and discord.bot.alive:
            asyncio.run(discord.stop_bot())
        discord.assert_no_unknown_routes()
        discord.assert_token_not_logged()
    finally:
        discord.close()


def member_id(fake: FakeDiscord, name: str) -> int:
    return int(fake.member(name).id)


def name_of(fake: FakeDiscord, user_id: int) -> str:
    return next(n for n in (*PLAYERS, "organizer", "judge") if member_id(fake, n) == user_id)


def pairings_of(fake: FakeDiscord, round_number: int) -> dict[int, tuple[str, ...]]:
    """Table → players, read back from the posted pairings of a round."""
    tables: dict[int, tuple[str, ...]] = {}
    marker = re.compile(rf"第 {round_number} 回戦|決勝トーナメント 第 {round_number} 回戦")
    for message in fake.messages("pairings"):
        content = message.get("content") or ""
        if not marker.search(content.splitlines()[0] if content else ""):
            continue
        for line in content.splitlines():
            found = re.match(r"テーブル (\d+): <@(\d+)>.* vs <@(\d+)>", line)
            if found:
                table, first, second = found.groups()
                tables[int(table)] = (name_of(fake, int(first)), name_of(fake, int(second)))
            bye = re.match(r"<@(\d+)>（勝ち点 \d+）: 不戦勝", line)
            if bye:
                tables[0] = (name_of(fake, int(bye.group(1))),)
    return tables


def thread_messages(fake: FakeDiscord, round_number: int) -> list[JSON]:
    (thread,) = [
        c for c in fake.threads("pairings") if c.name == f"第 {round_number} 回戦 結果報告"
    ]
    return fake.messages(thread.id)


async def test_setup_create_register_submit_and_start(fake: FakeDiscord) -> None:
    await fake.slash(
        "setup server",
        user="owner",
        options={
            "organizer_role": "Organizer",
            "judge_role": "Judge",
            "announcements": "announcements",
            "pairings": "pairings",
            "standings": "standings",
            "judge_calls": "judge-calls",
            "log": "log",
            "language": "ja",
        },
    )
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
    started = await fake.slash("tournament start", user="organizer")
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
    for command, options in attempts.items():
        reply = await fake.slash(command, user="alice", options=options, locale="en-US")
        assert reply.ephemeral, command
        assert "organizer" in reply.text or "judge" in reply.text, (command, reply.text)
    other = await fake.slash("drop", user="alice", options={"player": "bob"}, locale="en-US")
    assert "own entry" in other.text
    assert len(fake.messages("pairings")) == posted


def standings_rows(message: JSON) -> list[tuple[int, str, int, str]]:
    """(rank, name, points, opponents' points) from a posted standings embed."""
    rows = []
    for line in message["embeds"][0]["description"].splitlines():
        found = re.match(r"\s*(\d+)\s+(\S+)\s+(\d+)\s+([\d.]+)", line)
        if found and found.group(2).lower() in PLAYERS:
            rank, name, points, opponents = found.groups()
            rows.append((int(rank), name.lower(), int(points), opponents))
    return rows


async def confirm_in_thread(fake: FakeDiscord, round_number: int, user: str) -> Any:
    """The opponent presses 確認 on the newest notice addressed to them."""
    mention = f"<@{member_id(fake, user)}>"
    notice = [
        m for m in thread_messages(fake, round_number) if mention in (m.get("content") or "")
    ][-1]
    return await fake.click(notice, "確認 / Confirm", user=user, locale="ja")


def sent_payload(fake: FakeDiscord, message: JSON) -> JSON:
    """What the bot sent for `message` (the fake keeps the request, e.g. allowed_mentions)."""
    sent = [r.json for r in fake.requests_to("POST", "/channels/") if isinstance(r.json, dict)]
    return next(body for body in reversed(sent) if body.get("content") == message["content"])


async def test_round_1_pairings_post_with_buttons_and_four_ways_to_report(
    fake: FakeDiscord,
) -> None:
    paired = await fake.slash("round pair", user="organizer", locale="ja")
    assert "第 1 回戦" in paired.text
    assert "組み合わせの説明" in paired.text  # the explanation, for organizers
    tables = pairings_of(fake, 1)
    assert sorted(p for players in tables.values() for p in players) == sorted(PLAYERS)
    post = fake.messages("pairings")[-1]
    assert "結果報告 / Report result" in json.dumps(post["components"], ensure_ascii=False)
    # Only the round's players are pinged, nobody else.
    assert sorted(map(int, sent_payload(fake, post)["allowed_mentions"]["users"])) == sorted(
        member_id(fake, p) for p in PLAYERS
    )
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

    # Table 1: a report by command, confirmed by the opponent's button in the round's thread.
    filed = await fake.slash("report result", user=first, options={"result": "win"}, locale="ja")
    assert "確認を待っています" in filed.text
    confirmed = await confirm_in_thread(fake, 1, second)
    assert "確定" in confirmed.text

    # Table 2: entirely by buttons: 結果報告 on the post, then 勝ち, then 確認.
    first, second = tables[2]
    form = await fake.click(post, "結果報告 / Report result", user=first, locale="ja")
    assert form.ephemeral
    assert "テーブル 2" in form.text
    chosen = await fake.click(form, "勝ち", user=first, locale="ja")
    assert "確認を待っています" in chosen.text
    # The reporter cannot confirm their own report.
    own = [m for m in thread_messages(fake, 1) if f"<@{member_id(fake, second)}>" in m["content"]][
        -1
    ]
    refused = await fake.click(own, "確認 / Confirm", user=first, locale="ja")
    assert "確認できる相手の報告がありません" in refused.text
    await confirm_in_thread(fake, 1, second)

    # Table 3: both players report, matching: that is the confirmation.
    first, second = tables[3]
    await fake.slash("report result", user=first, options={"result": "lose"}, locale="ja")
    agreed = await fake.slash("report result", user=second, options={"result": "win"}, locale="ja")
    assert "確定" in agreed.text

    # Table 4: time, with point-zone counts through the form (R-MATCH-2).
    first, second = tables[4]
    form = await fake.click(post, "結果報告 / Report result", user=first, locale="ja")
    opened = await fake.click(form, "時間切れ", user=first, locale="ja")
    assert opened.type == 9  # a modal
    timed = await fake.submit_modal(opened, {"mine": "2", "theirs": "５"}, user=first, locale="ja")
    assert "判定勝ち" in timed.text
    done = await confirm_in_thread(fake, 1, second)
    assert "判定勝ち（ポイント置き場" in done.text

    # The round is complete: the standings are posted to the standings channel.
    await asyncio.sleep(0.3)
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

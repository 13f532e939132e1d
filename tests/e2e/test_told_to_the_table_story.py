"""Told to the right people, through the real bot and the fake Discord: /standings before any
round is complete lists the entrants (no 「第 0 回戦終了時点」); a player's handle stands beside
their mention in the pairings post; a judge who resolves a call with extra minutes tells
both players of that table, not only the judges; and the pairings post links the live page
at its public address (WEB_BASE_URL), the one players can open.
"""

from __future__ import annotations

import re
import socket

import pytest

from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.story import (
    member_id,
    posted_to,
    sent_payload,
    setup_server,
    start_event,
    tables_of,
    thread_messages,
)

pytestmark = pytest.mark.e2e

CUP = "Table Cup"
PLAYERS = ("alice", "bob", "carol", "dave")
HANDLE = "あずにゃん"
PUBLIC = "https://pm.example.org"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


fake = bot_fixture("told-to-the-table", WEB_PORT=str(free_port()), WEB_BASE_URL=PUBLIC)


async def standings_text(fake: FakeDiscord, user: str) -> str:
    shown = await fake.slash("standings", user=user, locale="ja")
    return shown.embed["description"]


async def test_before_any_round_is_complete_the_standings_list_the_entrants(
    fake: FakeDiscord,
) -> None:
    await setup_server(fake)
    await fake.slash(
        "tournament create",
        user="organizer",
        options={"name": CUP, "format": "swiss", "regulation": "single"},
    )
    await fake.slash("tournament settings", user="organizer", options={"decklist_required": False})
    page = await fake.slash("tournament page", user="organizer", options={"state": "on"})
    assert re.search(rf"{re.escape(PUBLIC)}/t/[A-Za-z0-9_-]{{22}}", page.text), page.text
    await fake.slash("register", user="alice", locale="ja", options={"handle": HANDLE})
    for player in PLAYERS[1:]:
        await fake.slash("register", user=player)
    await start_event(fake)
    for when in ("started", "paired"):
        if when == "paired":
            await fake.slash("round pair", user="organizer", locale="ja")
            await fake.slash("round start", user="organizer", locale="ja")
        text = await standings_text(fake, "bob")
        assert "まだ終了した回戦はありません" in text, (when, text)
        assert "第 0 回戦" not in text
        assert "参加者 4 人" in text
        assert HANDLE in text  # alice by the name she chose
        for player in PLAYERS[1:]:
            assert player.capitalize() in text, (player, text)


async def test_the_pairings_post_names_a_player_by_handle_beside_the_mention(
    fake: FakeDiscord,
) -> None:
    post = next(content for content in posted_to(fake, "pairings") if "第 1 回戦" in content)
    mention = f"<@{member_id(fake, 'alice')}>"
    line = next(line for line in post.splitlines() if mention in line)
    assert f"{mention} {HANDLE}" in line, line
    others = [f"<@{member_id(fake, p)}>" for p in PLAYERS[1:]]
    assert all(f"{other} {HANDLE}" not in post for other in others)  # only beside hers
    # The page's link is the public one, which a player's phone opens.
    assert re.search(rf"{re.escape(PUBLIC)}/t/[A-Za-z0-9_-]{{22}}", post), post
    assert "127.0.0.1" not in post


async def test_a_call_resolved_with_an_extension_tells_both_players_of_the_table(
    fake: FakeDiscord,
) -> None:
    table, (caller, opponent) = next(iter(tables_of(fake, 1).items()))
    await fake.slash(
        "judge call", user=caller, options={"reason": "裁定をお願いします"}, locale="ja"
    )
    post = await fake.wait_for(
        lambda: next(
            (
                m
                for m in reversed(fake.messages("judge-calls"))
                if f"テーブル {table}" in m["content"]
            ),
            None,
        ),
        what="the call's post",
    )
    claimed = await fake.click(post, "対応する", user="judge", locale="ja")
    extend = next(
        c["label"]
        for row in claimed.message["components"]
        for c in row["components"]
        if "分延長" in c.get("label", "")
    )
    minutes = int(re.search(r"(\d+) 分延長", extend).group(1))  # type: ignore[union-attr]
    before = len(thread_messages(fake, 1))
    resolved = await fake.click(claimed.message, extend, user="judge", locale="ja")
    assert "延長しました" in resolved.text
    wanted = f"テーブル {table} は {minutes} 分延長されました"
    told = await fake.wait_for(
        lambda: next(
            (m for m in thread_messages(fake, 1)[before:] if wanted in (m.get("content") or "")),
            None,
        ),
        what="the extension told in the round's thread",
    )
    for player in (caller, opponent):
        assert f"<@{member_id(fake, player)}>" in told["content"]
    pinged = sent_payload(fake, told["content"]).get("allowed_mentions", {}).get("users", [])
    assert {member_id(fake, caller), member_id(fake, opponent)} <= {int(u) for u in pinged}
    fake.assert_no_errors_logged()

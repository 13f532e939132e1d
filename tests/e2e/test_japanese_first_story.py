"""Japanese first, told as a story through the real bot: a Japanese server whose members read
messages that name commands the way their Discord shows them, see dates and terms in the
regulation's words, page through a long tournament list and post the player list publicly.

The tests share one bot and run in order.
"""

from __future__ import annotations

import pytest

from tests.e2e.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e

MANAGE_GUILD = 1 << 5


def command_id(fake: FakeDiscord, name: str) -> str:
    (found,) = [c for c in fake.commands(fake.guild) if c["name"] == name]
    return str(found["id"])


async def wait_for_command_ids(fake: FakeDiscord) -> None:
    # The bot looks the ids up right after READY, the global tree then the guild's: it has
    # them once discord.py has logged the guild's answer (at DEBUG).
    path = f"/applications/{fake.world.app_id}/guilds/{fake.guild.id}/commands has received"
    await fake.wait_for_log(path)


async def test_errors_link_the_command_to_use_in_both_languages(fake: FakeDiscord) -> None:
    await wait_for_command_ids(fake)
    mention = f"</tournament create:{command_id(fake, 'tournament')}>"
    ja = await fake.slash("register", user="alice", locale="ja")
    en = await fake.slash("register", user="alice", locale="en-US")
    assert ja.ephemeral
    assert "受付中・開催中の大会はありません" in ja.text
    assert mention in ja.text
    assert "/tournament create" not in ja.text.replace(mention, "")
    assert "no open tournament" in en.text
    assert mention in en.text


async def test_help_lists_the_japanese_name_first(fake: FakeDiscord) -> None:
    reply = await fake.slash("help", user="bob", locale="ja")
    register = f"</register:{command_id(fake, 'register')}>（`/register`）: 大会に参加登録します"
    pages = [reply.embed["description"]]
    shown, total = reply.embed["footer"]["text"].removesuffix(" ページ").split("/")
    for _ in range(int(total) - int(shown)):
        reply = await fake.click(reply, "▶", user="bob", locale="ja")
        pages.append(reply.embed["description"])
    assert any(register in page for page in pages), pages


async def test_setup_is_hidden_from_members_without_manage_server(fake: FakeDiscord) -> None:
    permissions = {c["name"]: c.get("default_member_permissions") for c in fake.commands()}
    permissions |= {
        c["name"]: c.get("default_member_permissions") for c in fake.commands(fake.guild)
    }
    assert int(permissions["setup"]) & MANAGE_GUILD
    # Player commands stay visible to everyone.
    for name in ("help", "register", "players", "deck", "tournament"):
        assert permissions[name] is None, name


async def test_a_long_tournament_list_is_paginated(fake: FakeDiscord) -> None:
    for number in range(1, 18):
        created = await fake.slash(
            "tournament create",
            user="owner",
            locale="en-US",
            options={"name": f"Cup {number:02d}", "format": "swiss", "regulation": "mix"},
        )
        assert "Created tournament" in created.text, created.text
    listed = await fake.slash("tournament list", user="carol", locale="ja")
    assert listed.ephemeral
    # Newest first; nothing is cut: the oldest are on the second page.
    assert "Cup 17" in listed.text
    assert "Cup 01" not in listed.text
    assert listed.embed["footer"]["text"] == "1/2 ページ"
    following = await fake.click(listed, "▶", user="carol", locale="ja")
    assert following.type == 7
    assert "Cup 01" in following.embed["description"]
    assert following.embed["footer"]["text"] == "2/2 ページ"


async def test_late_entry_is_called_途中参加(fake: FakeDiscord) -> None:
    reply = await fake.slash(
        "tournament settings",
        user="owner",
        locale="ja",
        options={"tournament": "Cup 01", "late_registration": 2},
    )
    assert "途中参加" in reply.text
    assert "遅刻" not in reply.text
    assert "2 回戦目まで" in reply.text


async def test_the_player_list_can_be_posted_for_everyone(fake: FakeDiscord) -> None:
    for name in ("alice", "bob"):
        joined = await fake.slash(
            "register", user=name, locale="ja", options={"tournament": "Cup 02"}
        )
        assert "登録しました" in joined.text
    private = await fake.slash("players", user="carol", options={"tournament": "Cup 02"})
    assert private.ephemeral
    assert "Players of Cup 02 (2 players)" in private.text
    public = await fake.slash(
        "players", user="carol", locale="en-US", options={"tournament": "Cup 02", "public": True}
    )
    assert not public.ephemeral
    # Everyone in the channel reads it, so it comes in the server's language (ja here).
    assert "「Cup 02」の参加者（2 人）" in public.text
    assert f"<@{fake.member('alice').id}>" in public.text

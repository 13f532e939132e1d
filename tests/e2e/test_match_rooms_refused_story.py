"""Match rooms asked for where the bot lacks Manage Channels: the command and the panel's
対戦部屋 switch are refused with what is missing and where to grant it, in the organizer's
language; nothing is made, nothing is half set; the event runs without rooms. Given the
permission, the same switch turns them on. Taken away again mid-round, a room deleted by
hand cannot be made again: the staff are told once, in their language, and the bot does
not ask Discord for what it knows Discord would refuse."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, text_of, walk_components
from tests.e2e.fake_discord.permissions import MANAGE_CHANNELS, MANAGE_ROLES
from tests.e2e.story import (
    FAST_CLOCK,
    PLAYERS,
    database_rows,
    setup_server,
    start_event,
)

pytestmark = pytest.mark.e2e

CUP = "No Room Cup"
fake = bot_fixture("match-rooms-refused", **FAST_CLOCK)
JSON = dict[str, object]


def panel(fake: FakeDiscord) -> JSON:
    return [m for m in fake.messages("log") if "運営パネル" in text_of(m)][-1]


def labels(message: JSON) -> list[str]:
    components = message.get("components") or []
    assert isinstance(components, list)
    return [str(c.get("label")) for c in walk_components(components) if c.get("type") == 2]


def nothing_made(fake: FakeDiscord, channels: set[int]) -> None:
    assert not fake.voice_channels()
    threads = {c.id for c in fake.guild.channels.values() if c.is_thread}
    assert set(fake.guild.channels) - threads == channels - threads
    assert database_rows(fake, "SELECT COUNT(*) FROM room_channels")[0][0] == 0
    assert database_rows(fake, "SELECT COUNT(*) FROM tournaments WHERE rooms = 1")[0][0] == 0


async def test_refused_without_manage_channels_in_either_language(fake: FakeDiscord) -> None:
    await setup_server(fake, locale="ja")
    await fake.slash(
        "tournament create",
        user="organizer",
        locale="ja",
        options={"name": CUP, "format": "swiss", "regulation": "single"},
    )
    await fake.slash("tournament settings", user="organizer", options={"decklist_required": False})
    for name in PLAYERS[:4]:
        await fake.slash("register", user=name, locale="ja")
    fake.grant_bot(MANAGE_ROLES)  # Manage Roles, but not Manage Channels
    channels = set(fake.guild.channels)
    ja = await fake.slash(
        "tournament rooms", user="organizer", options={"enabled": True}, locale="ja"
    )
    assert ja.ephemeral
    assert "「チャンネルの管理」" in ja.text, ja.text
    assert "「ロールの管理」" not in ja.text
    assert "サーバー設定" in ja.text  # where to grant it
    assert "何も変更していません" in ja.text
    en = await fake.slash(
        "tournament rooms", user="organizer", options={"enabled": True}, locale="en-US"
    )
    assert "Manage Channels" in en.text, en.text
    assert "Nothing was changed" in en.text
    nothing_made(fake, channels)


async def test_the_panels_switch_is_refused_the_same_way(fake: FakeDiscord) -> None:
    channels = set(fake.guild.channels)
    board = panel(fake)
    assert "対戦部屋: オフ" in labels(board)
    pressed = await fake.click(board, "対戦部屋: オフ", user="organizer", locale="ja")
    assert "「チャンネルの管理」" in pressed.text, pressed.text
    nothing_made(fake, channels)


async def test_the_event_runs_without_rooms(fake: FakeDiscord) -> None:
    channels = set(fake.guild.channels)
    await start_event(fake)
    paired = await fake.slash("round pair", user="organizer", locale="ja")
    assert "第 1 回戦" in paired.text
    posted = "\n".join(m.get("content") or "" for m in fake.messages("pairings"))
    assert "対戦部屋" not in posted
    assert "<#" not in posted
    nothing_made(fake, channels)


async def test_given_the_permission_the_switch_turns_rooms_on(fake: FakeDiscord) -> None:
    fake.grant_bot(MANAGE_CHANNELS)
    board = panel(fake)
    pressed = await fake.click(board, "対戦部屋: オフ", user="organizer", locale="ja")
    assert "対戦部屋をオンにしました" in pressed.text, pressed.text

    def made() -> list[str] | None:
        names = sorted(c.name for c in fake.voice_channels())
        return names if names == ["卓1", "卓2"] else None

    await fake.wait_for(made, "round 1's rooms made mid-round", within=30)
    await fake.wait_for(
        lambda: "対戦部屋: オン" in labels(panel(fake)), "the panel showing rooms on", within=30
    )


def told_of_rooms(fake: FakeDiscord) -> list[str]:
    return [text_of(m) for m in fake.messages("log") if "対戦部屋を作れませんでした" in text_of(m)]


async def test_a_permission_lost_mid_round_is_told_to_the_staff_once(fake: FakeDiscord) -> None:
    made = sorted(fake.voice_channels(), key=lambda c: c.name)
    requests = len(fake.requests)
    with fake.bot_without(MANAGE_CHANNELS):
        await fake.delete_channel(made[0].id)
        told = await fake.wait_for(
            lambda: told_of_rooms(fake), "the staff told the room cannot be made", within=30
        )
        assert "ボットにサーバーの「チャンネルの管理」の権限がありません" in told[0], told
        assert "部屋のない 1 卓は、部屋なしで対戦します" in told[0]
        await fake.delete_channel(made[1].id)  # again, in the same round
        await fake.settled()
    assert len(told_of_rooms(fake)) == 1  # told once
    asked = fake.requests_to("POST", f"/guilds/{fake.guild.id}/channels")
    assert not [r for r in asked if fake.requests.index(r) >= requests]  # never asked

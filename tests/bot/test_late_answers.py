"""An answer ready after its interaction's token has run out (Discord takes answers through
it for 15 minutes after the click; the bot keeps a minute's margin) never uses the token:
a private answer goes to the person's DMs, one for everyone is posted in the channel
naming them, and a message everyone sees is edited as the bot's own post. The end to end
case, a report answered late: tests/e2e/test_late_answers_story.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import discord

from bot.ui.messages import edit_answer, reply, token_alive


class Place(discord.abc.Messageable):
    """A channel or a person's DMs: what was sent there."""

    def __init__(self) -> None:
        self.sent: list[tuple[str | None, dict[str, Any]]] = []

    async def _get_channel(self) -> Any:
        raise NotImplementedError

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:  # type: ignore[override]
        self.sent.append((content, kwargs))


class Person(Place):
    id = 42
    mention = "<@42>"


class Message:
    def __init__(self, *, ephemeral: bool) -> None:
        self.flags = discord.MessageFlags(ephemeral=ephemeral)
        self.edits: list[dict[str, Any]] = []

    async def edit(self, **fields: Any) -> None:
        self.edits.append(fields)


class TokenUsed(AssertionError):
    pass


class Token:
    """The interaction's token: using it fails the test."""

    def is_done(self) -> bool:
        return True

    async def send_message(self, *args: Any, **kwargs: Any) -> None:
        raise TokenUsed

    async def edit_message(self, *args: Any, **kwargs: Any) -> None:
        raise TokenUsed

    async def send(self, *args: Any, **kwargs: Any) -> None:
        raise TokenUsed


class Interaction:
    id = 1
    locale = "ja"

    def __init__(self, minutes_ago: float, message: Message | None = None) -> None:
        self.created_at = discord.utils.utcnow() - timedelta(minutes=minutes_ago)
        self.user = Person()
        self.channel = Place()
        self.message = message
        self.response = Token()
        self.followup = Token()

    async def edit_original_response(self, **fields: Any) -> None:
        raise TokenUsed


def test_a_token_serves_answers_for_14_minutes() -> None:
    assert token_alive(Interaction(13.9))  # type: ignore[arg-type]
    assert not token_alive(Interaction(14.0))  # type: ignore[arg-type]


async def test_a_late_private_answer_goes_to_the_persons_dms() -> None:
    interaction: Any = Interaction(14.5)
    await reply(interaction, "報告を受け付けました。")
    ((content, _),) = interaction.user.sent
    assert (
        content
        == "時間がかかったため、先ほどの操作への返答をこちらに送ります。\n報告を受け付けました。"
    )
    assert interaction.channel.sent == []


async def test_a_late_answer_for_everyone_is_posted_naming_the_person() -> None:
    interaction: Any = Interaction(20)
    await reply(interaction, "Round 3 is paired.", ephemeral=False)
    ((content, kwargs),) = interaction.channel.sent
    assert content is not None
    assert content.startswith("<@42> ")
    assert content.endswith("\nRound 3 is paired.")
    assert [user.id for user in kwargs["allowed_mentions"].users] == [42]
    assert interaction.user.sent == []


async def test_a_late_edit_of_a_post_everyone_sees_edits_the_bots_own_post() -> None:
    post = Message(ephemeral=False)
    interaction: Any = Interaction(14.5, post)
    await edit_answer(interaction, content="締め切りました", view=None)
    assert post.edits == [{"content": "締め切りました", "view": None}]
    assert interaction.user.sent == []


async def test_a_late_edit_of_a_private_message_goes_to_the_persons_dms() -> None:
    interaction: Any = Interaction(14.5, Message(ephemeral=True))
    await edit_answer(interaction, content="開始しました", attachments=[], view=None)
    ((content, kwargs),) = interaction.user.sent
    assert content is not None
    assert content.endswith("\n開始しました")
    assert kwargs == {}

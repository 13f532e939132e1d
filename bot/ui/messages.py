"""Turning typed errors into what a user reads, in their language."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from types import TracebackType
from typing import Any

import discord

from bot.i18n import Lang, describe_error, normalise_locale, set_command_ids, t
from bot.ui.render import safe
from domain.errors import DomainError

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000


def interaction_lang(interaction: discord.Interaction) -> Lang:
    """The language to answer the person who invoked the interaction in."""
    return normalise_locale(interaction.locale)


def render_error(error: DomainError, lang: Lang) -> str:
    """The error for a Discord reply: names and other user text in it escaped like names
    everywhere (no markdown, no pings)."""
    return fit_message(describe_error(error, lang, escape=safe))


def fit_message(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Discord refuses messages over 2000 characters: cut at a line, and say so."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit - 2)
    return text[: cut if cut > 0 else limit - 2] + "\n…"


def fit_or_attach(text: str, filename: str, lang: Lang) -> tuple[str, discord.File | None]:
    """Text that fits a message as is; longer text as its first lines plus the whole of it
    in an attached file, so nothing is lost."""
    if len(text) <= MESSAGE_LIMIT:
        return text, None
    note = "\n" + t("ui.full_text_attached", lang)
    file = discord.File(io.BytesIO(text.encode("utf-8")), filename=filename)
    return fit_message(text, MESSAGE_LIMIT - len(note)) + note, file


# Discord takes answers through an interaction's token for 15 minutes after the click, and
# refuses them after (401, counted toward its ban). An answer ready later than this goes as
# a DM or a post instead: a request sent near the end could arrive after it.
TOKEN_ANSWERS_FOR = timedelta(minutes=14)


def token_alive(interaction: discord.Interaction[Any], now: datetime | None = None) -> bool:
    """Whether an answer may still go through the interaction's token, by Discord's time (its
    id says when it was made)."""
    now = now or discord.utils.utcnow()
    return now - interaction.created_at < TOKEN_ANSWERS_FOR


async def reply(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    file: discord.File | None = None,
    files: list[discord.File] | None = None,
    view: discord.ui.View | None = None,
    ephemeral: bool = True,
) -> None:
    """Answer the person who acted, whether or not the interaction was already acknowledged
    (a deferred command answers with a follow-up); only what is given is sent. An answer
    ready after the token's life goes another way (`answer_late`)."""
    given: dict[str, Any] = {"content": content, "embed": embed, "file": file, "files": files}
    kwargs = {name: value for name, value in given.items() if value is not None}
    if view is not None:
        kwargs["view"] = view
    if not token_alive(interaction):
        await answer_late(interaction, private=ephemeral, **kwargs)
    elif interaction.response.is_done():
        await interaction.followup.send(ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=ephemeral, **kwargs)


async def edit_answer(interaction: discord.Interaction[Any], **fields: Any) -> None:
    """Answer by editing the message the button, the menu or the form was on, whether or
    not the interaction was acknowledged first (then as a deferred update: `acknowledge`
    with `update`). After the token's life, a message everyone sees is edited as the bot's
    own post, and a private one cannot be: its new text goes to the person's DMs."""
    if not token_alive(interaction):
        message = interaction.message
        if message is not None and not message.flags.ephemeral:
            await message.edit(**fields)
            return
        sent = {name: fields[name] for name in ("content", "embed", "embeds") if fields.get(name)}
        attached = [f for f in fields.get("attachments") or () if isinstance(f, discord.File)]
        if attached:
            sent["files"] = attached
        await answer_late(interaction, private=True, **sent)
    elif interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


async def answer_late(
    interaction: discord.Interaction[Any], *, private: bool, **kwargs: Any
) -> None:
    """An answer ready after the interaction's token ran out: a private one in the person's
    DMs, one for everyone as a post in the channel of the interaction naming them; each
    says it is the answer to their earlier action. A DM the person does not take is logged
    (a private answer never goes where others read)."""
    note = t("ui.late_answer", interaction_lang(interaction))
    content = kwargs.pop("content", None)
    where: discord.abc.Messageable = interaction.user
    if not private and isinstance(interaction.channel, discord.abc.Messageable):
        where = interaction.channel
        note = f"{interaction.user.mention} {note}"
        kwargs["allowed_mentions"] = discord.AllowedMentions(
            everyone=False, roles=False, users=[interaction.user]
        )
    text = f"{note}\n{content}" if content else note
    try:
        if len(text) > MESSAGE_LIMIT:  # the note alone first, the answer whole after it
            mentions = {k: v for k, v in kwargs.items() if k == "allowed_mentions"}
            await where.send(note, **mentions)
            text = content or ""
        await where.send(text, **kwargs)
    except discord.HTTPException as error:
        log.info("the late answer to interaction %s could not be sent: %s", interaction.id, error)


class NotAcknowledged(Exception):
    """Discord refused the interaction's acknowledgement (its 5xx, or its 3 s past): the
    request stopped before anything of it was written, and the person saw it fail."""

    def __init__(self, interaction_id: int, error: discord.HTTPException) -> None:
        super().__init__(f"interaction {interaction_id} not acknowledged: {error}")
        self.error = error


async def acknowledge(
    interaction: discord.Interaction[Any], *, update: bool = False, private: bool = True
) -> None:
    """Acknowledge the interaction now, unless it is already: before its change is written,
    so that a callback Discord refuses never hides a stored change (the person saw "This
    interaction failed", and nothing happened). The answer follows as a private message
    ("thinking…" until then; `private=False`: for the whole channel), or, with `update`, as
    an edit of the message the component is on (a deferred update; answer with
    `edit_answer`)."""
    if interaction.response.is_done():
        return
    on_a_message = interaction.type in (
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    )
    try:
        if update and on_a_message and interaction.message is not None:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=private, thinking=True)
    except discord.HTTPException as error:
        raise NotAcknowledged(interaction.id, error) from error


# An answer not ready within this long is acknowledged first (Discord waits 3 s for the
# first response; a burst at the end of a round may queue the work behind others').
ACKNOWLEDGE_AFTER = 0.1


class Acknowledgement:
    """Acknowledges an interaction (`defer` with the given options) if its answer is not
    ready within `after` seconds, or at once with `now()`; a quick answer stays one
    response. Use as `async with Acknowledgement(interaction, ...) as ack:` around the work,
    and answer after the block (`reply`, or an edit of the deferred message)."""

    def __init__(
        self,
        interaction: discord.Interaction[Any],
        *,
        after: float = ACKNOWLEDGE_AFTER,
        **defer: bool,
    ) -> None:
        self.interaction = interaction
        self.after = after
        self.defer = defer
        self._deferring = asyncio.Lock()
        self._timer: asyncio.Task[None] | None = None

    async def now(self) -> None:
        """Acknowledge now, unless it is done already."""
        async with self._deferring:
            if not self.interaction.response.is_done():
                await self.interaction.response.defer(**self.defer)

    async def _later(self) -> None:
        await asyncio.sleep(self.after)
        try:
            await self.now()
        except discord.HTTPException as error:  # the answer itself will say what failed
            log.debug("could not acknowledge interaction %s: %s", self.interaction.id, error)

    async def __aenter__(self) -> Acknowledgement:
        self._timer = asyncio.get_running_loop().create_task(self._later())
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        # An acknowledgement under way finishes before the answer (which reads whether it
        # was done); one not begun never begins (cancelled while it waits).
        async with self._deferring:
            if self._timer is not None:
                self._timer.cancel()


async def reply_ephemeral(interaction: discord.Interaction, content: str) -> None:
    """Answer privately, whether or not the interaction was already acknowledged."""
    allowed = discord.AllowedMentions.none()
    if not token_alive(interaction):
        await answer_late(interaction, private=True, content=content, allowed_mentions=allowed)
    elif interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, allowed_mentions=allowed)
    else:
        await interaction.response.send_message(content, ephemeral=True, allowed_mentions=allowed)


# Guild-scoped trees are looked up in at most this many servers at start-up; beyond that,
# only the global tree (a bot in many servers syncs globally anyway).
COMMAND_ID_GUILD_LIMIT = 25


async def load_command_ids(
    tree: discord.app_commands.CommandTree[Any], guild_ids: Iterable[int]
) -> dict[str, int]:
    """The ids of the synced top-level commands, for clickable mentions in messages.

    Commands are synced either globally or to one server (`python -m bot sync --guild`).
    A name is kept only when its id is the same wherever it appears, so that a mention
    never points at another server's command; other names fall back to plain text.
    """
    found: dict[str, set[int]] = {}
    scopes: list[discord.abc.Snowflake | None] = [None]
    scopes += [discord.Object(id=guild_id) for guild_id in list(guild_ids)[:COMMAND_ID_GUILD_LIMIT]]
    for scope in scopes:
        try:
            commands = await tree.fetch_commands(guild=scope)
        except discord.HTTPException:
            log.warning("could not fetch the synced commands (%s)", scope, exc_info=True)
            continue
        for command in commands:
            found.setdefault(command.name, set()).add(command.id)
    ids = {name: next(iter(seen)) for name, seen in found.items() if len(seen) == 1}
    set_command_ids(ids)
    return ids

"""What every cog needs to talk to the services: the actor, options, files and posting.

Not an extension: imported by the cogs.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Coroutine
from pathlib import PurePath
from typing import Any

import discord
from discord import app_commands

from bot.app import TournamentBot, answer_error
from bot.i18n import Lang, normalise_locale
from bot.services.actors import Actor
from domain.errors import InvalidInput

log = logging.getLogger(__name__)


def per_member_cooldown(interaction: discord.Interaction[Any]) -> tuple[int | None, int]:
    return (interaction.guild_id, interaction.user.id)


# Costly commands (a decklist check parses and checks the whole list against the rules,
# an export builds files): a few a minute per member, so spamming one cannot slow the bot
# down for everyone else.
costly_command = app_commands.checks.cooldown(6, 60.0, key=per_member_cooldown)

TEXT_SUFFIXES = (".txt", ".csv", ".tsv", ".toml", ".text")
SETTINGS_FILE_LIMIT = 1024 * 1024  # a card database of a few thousand cards fits easily


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    user = interaction.user
    roles: frozenset[int] = frozenset()
    if isinstance(user, discord.Member):
        roles = frozenset(role.id for role in user.roles)
    permissions = interaction.permissions
    return Actor(
        user_id=user.id,
        guild_id=interaction.guild_id,
        display_name=user.display_name,
        role_ids=roles,
        manages_guild=bool(
            interaction.guild_id and (permissions.manage_guild or permissions.administrator)
        ),
        request_id=interaction.id,
    )


def bot_of(interaction: discord.Interaction[Any]) -> TournamentBot:
    client = interaction.client
    assert isinstance(client, TournamentBot)
    return client


async def guild_lang(interaction: discord.Interaction[Any]) -> Lang:
    """The language of posts in this guild's channels: /setup's choice, else the default."""
    return await posting_lang(bot_of(interaction), interaction.guild_id)


async def posting_lang(bot: TournamentBot, guild_id: int | None) -> Lang:
    if guild_id is None:
        return normalise_locale(bot.settings.default_locale)
    config = await bot.services.guilds.config(guild_id)
    return normalise_locale(config.locale or bot.settings.default_locale)


async def post_to_log(bot: TournamentBot, guild_id: int, text: str) -> None:
    """The judges' record in the log channel (/setup), if the server has one."""
    config = await bot.services.guilds.config(guild_id)
    await post(bot, config.log_channel_id, text)


async def tournament_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    choices = await bot_of(interaction).services.tournaments.autocomplete(
        interaction.guild_id, current, normalise_locale(interaction.locale)
    )
    return [app_commands.Choice(name=label, value=value) for label, value in choices]


async def read_attachment(attachment: discord.Attachment, limit: int) -> bytes:
    """The bytes of an uploaded text file, refused early when too large or not text."""
    suffix = PurePath(attachment.filename).suffix.lower()
    content_type = (attachment.content_type or "").split(";")[0].strip()
    if suffix not in TEXT_SUFFIXES and not content_type.startswith("text/"):
        raise InvalidInput("files.wrong_type", name=attachment.filename)
    if attachment.size > limit:
        raise InvalidInput(
            "files.too_large", name=attachment.filename, size=attachment.size, limit=limit
        )
    data = await attachment.read()
    if len(data) > limit:
        raise InvalidInput("files.too_large", name=attachment.filename, size=len(data), limit=limit)
    return data


async def post(
    bot: TournamentBot,
    channel_id: int | None,
    content: str | None = None,
    **kwargs: Any,
) -> discord.Message | None:
    """Post to a configured channel. A missing or forbidden channel is logged, not fatal:
    the change it announces is already committed."""
    if channel_id is None:
        return None
    channel = bot.get_channel(channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        log.warning("channel %s is not available for posting", channel_id)
        return None
    try:
        return await channel.send(
            content, allowed_mentions=discord.AllowedMentions.none(), **kwargs
        )
    except discord.HTTPException:
        log.warning("could not post to channel %s", channel_id, exc_info=True)
        return None


async def post_to_judges(
    bot: TournamentBot, guild_id: int, text: str, *, view: discord.ui.View | None = None
) -> None:
    """To the judge-call channel (else the log channel), pinging the judge role and no one
    else."""
    config = await bot.services.guilds.config(guild_id)
    channel_id = config.judge_calls_channel_id or config.log_channel_id
    channel = bot.get_channel(channel_id) if channel_id else None
    if not isinstance(channel, discord.abc.Messageable):
        return
    role = config.judge_role_id
    pings = discord.AllowedMentions(
        everyone=False, users=False, roles=[discord.Object(id=role)] if role else False
    )
    kwargs: dict[str, Any] = {"allowed_mentions": pings}
    if view is not None:
        kwargs["view"] = view
    try:
        await channel.send(f"<@&{role}> {text}" if role else text, **kwargs)
    except discord.HTTPException:
        log.warning("could not post to the judge channel %s", channel_id)


ButtonCallback = Callable[[Any, discord.Interaction[Any]], Coroutine[Any, Any, None]]


def answering_errors(callback: ButtonCallback) -> ButtonCallback:
    """A button's failure gets the same clear, private answer as a slash command's."""

    @functools.wraps(callback)
    async def wrapper(self: Any, interaction: discord.Interaction[Any]) -> None:
        try:
            await callback(self, interaction)
        except Exception as error:
            await answer_error(interaction, error)

    return wrapper


class IdButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button that survives a restart: its custom id carries what it acts on.

    A subclass gives a `template` whose named groups are its constructor's arguments
    (digits become ints) and builds its button in `__init__`; this base turns a pressed
    custom id back into the item. The base's own template matches nothing.
    """

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Any:
        values: dict[str, Any] = {
            key: int(value) if value.isdigit() else value
            for key, value in match.groupdict().items()
        }
        build: Callable[..., Any] = cls  # subclasses take the template's groups
        return build(**values)


def button(custom_id: str, label: str, style: discord.ButtonStyle) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label, style=style, custom_id=custom_id)

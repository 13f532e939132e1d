"""What every cog needs to talk to the services: the actor, options, files, and the routes of
its buttons and forms.

Not an extension: imported by the cogs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from functools import partial
from pathlib import PurePath
from typing import Any, Protocol, cast

import discord
from discord import app_commands
from discord.ext import commands
from discord.http import HTTPClient

from bot.config import Settings
from bot.i18n import Lang, normalise_locale
from bot.services import Services
from bot.services.actors import Actor
from bot.ui.buttons import CustomId, Labels, rooms_fit_view, server_labels
from bot.ui.messages import acknowledge, interaction_lang, render_error, reply
from bot.ui.routing import ButtonHandler, RoutedItem, route, route_select
from bot.ui.stateless import ModalHandler, ModalRoutes
from domain.errors import InvalidInput
from domain.guild import GuildConfig
from domain.tournament.rooms import CHANNELS_PER_SERVER, RoomsDoNotFit


class Host(Protocol):
    """What a cog may use of the bot that loads it (bot/app.py's `TournamentBot` is the
    one): the cogs sit below the bot, which builds them, so they know it by this shape."""

    @property
    def services(self) -> Services: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def modal_routes(self) -> ModalRoutes: ...

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...

    @property
    def guilds(self) -> Sequence[discord.Guild]: ...

    @property
    def http(self) -> HTTPClient: ...

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    async def add_cog(self, cog: commands.Cog, /) -> None: ...


def per_member_cooldown(interaction: discord.Interaction[Any]) -> tuple[int | None, int]:
    return (interaction.guild_id, interaction.user.id)


# Costly commands (a decklist check parses and checks the whole list against the rules,
# an export builds files): a few a minute per member, so spamming one cannot slow the bot
# down for everyone else.
costly_command = app_commands.checks.cooldown(6, 60.0, key=per_member_cooldown)

TEXT_SUFFIXES = (".txt", ".csv", ".tsv", ".toml", ".text")
SETTINGS_FILE_LIMIT = 1024 * 1024  # a card database of a few thousand cards fits easily


def actor_of(interaction: discord.Interaction[Any], *, updates_message: bool = False) -> Actor:
    """The member behind the interaction, for the services. The interaction is
    acknowledged before the services write anything of it (`Actor.acknowledge`); a cog that
    answers by editing the message its button, menu or form was on says so
    (`updates_message`), and answers with `edit_answer`."""
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
        channel_id=interaction.channel_id,
        acknowledge=partial(acknowledge, interaction, update=updates_message),
    )


def bot_of(interaction: discord.Interaction[Any]) -> Host:
    client = interaction.client
    assert hasattr(client, "services"), "an interaction of another client than the bot"
    return cast(Host, client)


async def guild_labels(interaction: discord.Interaction[Any]) -> Labels:
    """The language of posts in this guild's channels (/setup's choice, else the default)
    and of their buttons: for a cog that writes or edits a post that everyone reads."""
    bot = bot_of(interaction)
    default = normalise_locale(bot.settings.default_locale)
    if interaction.guild_id is None:
        return Labels(default)
    return server_labels(await bot.services.guilds.config(interaction.guild_id), default)


def server_post_labels(server: GuildConfig, interaction: discord.Interaction[Any]) -> Labels:
    """The labels of a post in the server whose settings `server` are (the service read
    them in the operation): its language, and its bilingual buttons."""
    return server_labels(server, normalise_locale(bot_of(interaction).settings.default_locale))


def server_lang(server: GuildConfig, interaction: discord.Interaction[Any]) -> Lang:
    """The language of a post in the server whose settings `server` are."""
    return server_post_labels(server, interaction).lang


async def guild_lang(interaction: discord.Interaction[Any]) -> Lang:
    """The language of posts in this guild's channels: /setup's choice, else the default."""
    return (await guild_labels(interaction)).lang


def free_channels(interaction: discord.Interaction[Any]) -> int | None:
    """How many channels the server can still take (Discord: 500 in all, categories
    included, threads not); None where the bot's cache has no server."""
    guild = interaction.guild
    return None if guild is None else CHANNELS_PER_SERVER - len(guild.channels)


@asynccontextmanager
async def offering_fewer_rooms(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """A step refused because the match rooms would not fit the server (the start, a
    round's pairing, rooms turned on): the refusal comes with the organizer's choice of
    rooms for the tables that fit only, or none, as buttons (nothing was changed)."""
    try:
        yield
    except RoomsDoNotFit as refused:
        lang = interaction_lang(interaction)
        view = rooms_fit_view(refused.tournament_id, refused.fits, Labels(lang))
        await reply(interaction, render_error(refused, lang), view=view)


def bot_permissions(interaction: discord.Interaction[Any]) -> frozenset[str]:
    """The bot's own server-wide permissions, by Discord's names (its roles', cached)."""
    guild = interaction.guild
    if guild is None or guild.me is None:
        return frozenset()
    return frozenset(name for name, granted in guild.me.guild_permissions if granted)


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


class RoutedCog(commands.Cog):
    """A cog whose buttons and forms are routed by their custom ids (bot/ui/buttons.py), so
    that they work on any old message after a restart. A subclass lists its routes."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.services = bot.services
        self._routed: list[RoutedItem] = []

    def buttons(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        return ()

    def selects(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        """String selects: the handler gets the values chosen before the id's fields."""
        return ()

    def forms(self) -> Iterable[tuple[CustomId, ModalHandler]]:
        return ()

    async def cog_load(self) -> None:
        self._routed = [route(custom, handler) for custom, handler in self.buttons()]
        self._routed += [route_select(custom, handler) for custom, handler in self.selects()]
        self.bot.add_dynamic_items(*self._routed)
        for custom, handler in self.forms():
            self.bot.modal_routes.add(custom, handler)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self._routed)

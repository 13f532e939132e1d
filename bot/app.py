"""The Bot subclass, its command tree with the one error path, and extension loading."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.config import DISCORD_API_BASE_URL, DISCORD_GATEWAY_URL, Settings
from bot.errors import StorageError
from bot.i18n import t
from bot.services import Services
from bot.services.base import utc_now
from bot.services.clock import scaled_clock
from bot.store.database import Database
from bot.ui.messages import interaction_lang, render_error, reply_ephemeral
from bot.ui.pagination import PageButton, PageRenderer
from bot.ui.stateless import ModalRoutes, submitted_values
from bot.ui.translator import CatalogTranslator
from domain.errors import DomainError

log = logging.getLogger(__name__)

# Every cog the bot loads. A test loads each one and checks command names are unique.
EXTENSIONS: tuple[str, ...] = (
    "cogs.meta",
    "cogs.setup",
    "cogs.tournaments",
    "cogs.registration",
    "cogs.decks",
    "cogs.entry",
    "cogs.rounds",
    "cogs.judges",
)


def point_at_discord(settings: Settings) -> None:
    """Use the configured API and gateway. Only the fake Discord of the e2e tests changes them."""
    if settings.api_base_url != DISCORD_API_BASE_URL:
        discord.http.Route.BASE = settings.api_base_url
    if settings.discord_gateway_url != DISCORD_GATEWAY_URL:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


# Discord's codes for an interaction that can no longer be answered: already
# acknowledged (40060), unknown or expired (10062).
INTERACTION_GONE = frozenset({40060, 10062})


async def answer_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The one place where a failure becomes a private reply in the user's language.

    Typed errors say what is wrong and which rule; a failure of the storage (busy, disk
    full, I/O) asks to try again and logs one line naming the cause; anything unexpected is
    logged with a reference id, and the user gets that id instead of a traceback.
    """
    lang = interaction_lang(interaction)
    if isinstance(error, app_commands.CommandInvokeError) and error.__cause__ is not None:
        error = error.__cause__
    if isinstance(error, discord.HTTPException) and error.code in INTERACTION_GONE:
        # The same interaction delivered twice (its first delivery answered it), or one
        # that expired: there is nobody left to tell, and nothing was done twice.
        log.warning("interaction %s could not be answered: %s", interaction.id, error.text)
        return
    if isinstance(error, DomainError):
        text = render_error(error, lang)
    elif isinstance(error, StorageError):
        # Rolled back whole, so trying again is safe: one line for the staff, no traceback.
        # A damaged file will not heal by waiting, hence ERROR (docs/OPERATIONS.md).
        level = logging.WARNING if error.transient else logging.ERROR
        what = _described(interaction)
        log.log(level, "%s not saved, nothing written: %s (%s)", what, error.cause, error.detail)
        text = t("errors.storage", lang)
    elif isinstance(error, app_commands.NoPrivateMessage):
        text = t("errors.guild_only", lang)
    elif isinstance(error, app_commands.CommandOnCooldown):  # a CheckFailure: ask it first
        text = t("errors.cooldown", lang, seconds=error.retry_after)
    elif isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        text = t("errors.missing_permissions", lang)
    else:
        reference = secrets.token_hex(4)
        what = _described(interaction)
        log.error("unexpected error in %s (reference %s)", what, reference, exc_info=error)
        text = t("errors.unexpected", lang, reference=reference)
    try:
        await reply_ephemeral(interaction, text)
    except discord.HTTPException:
        log.warning("could not send the error reply for interaction %s", interaction.id)


def _described(interaction: discord.Interaction[Any]) -> str:
    """What the member did, for the log: `/report result`, or the button's or form's id."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: Any = interaction.data or {}
    return f"{interaction.type.name} {data.get('custom_id', '?')}"


class TournamentTree(app_commands.CommandTree["TournamentBot"]):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)


class TournamentBot(commands.Bot):
    def __init__(self, settings: Settings, database: Database) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=TournamentTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            guild_ready_timeout=settings.guild_ready_timeout,
        )
        self.settings = settings
        self.database = database
        self.services = Services(
            database,
            clock=scaled_clock(settings.clock_speed, utc_now),
            default_locale=settings.default_locale,
        )
        self.services.round_clock.unconfirmed_after = timedelta(
            minutes=settings.unconfirmed_report_minutes
        )
        self.services.round_clock.grace = timedelta(seconds=settings.clock_grace_seconds)
        # Listing kind → renderer, filled by cogs; see bot/ui/pagination.py.
        self.page_renderers: dict[str, PageRenderer] = {}
        # Modals routed by custom id, so they survive a restart; see bot/ui/stateless.py.
        self.modal_routes = ModalRoutes()

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        self.add_dynamic_items(PageButton)
        for extension in EXTENSIONS:
            await self.load_extension(extension)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        found = self.modal_routes.find(custom_id)
        if found is None:
            return
        match, handler = found
        try:
            await handler(interaction, match, submitted_values(interaction))
        except Exception as error:  # the one error path, as for commands
            await answer_error(interaction, error)

    async def on_ready(self) -> None:
        user = self.user
        log.info("bot ready: logged in as %s (%s)", user, user.id if user else "?")

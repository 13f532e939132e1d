"""The Bot subclass, its command tree with the one error path, and extension loading."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.cli import tell
from bot.config import DISCORD_API_BASE_URL, DISCORD_GATEWAY_URL, Settings
from bot.delivery import Delivery
from bot.delivery.pace import Refusals
from bot.errors import StorageError, StorageFull
from bot.i18n import cli_language, localized_command, normalise_locale, t
from bot.services import Services
from bot.services.base import utc_now
from bot.services.clock import ClockTimes, scaled_clock
from bot.store.backend import Database
from bot.store.shards import Shards
from bot.ui.buttons import PAGE
from bot.ui.messages import edit_answer, token_alive
from bot.ui.pagination import page_renderer, page_view
from bot.ui.routing import answer_error, route
from bot.ui.stateless import ModalRoutes, submitted_values
from bot.ui.translator import CatalogTranslator
from bot.web.server import WebServer, limits_from
from domain.errors import IllegalTransition

log = logging.getLogger(__name__)

# Every cog the bot loads. A test loads each one and checks command names are unique.
EXTENSIONS: tuple[str, ...] = (
    "cogs.meta",
    "cogs.setup",
    "cogs.tournaments",
    "cogs.registration",
    "cogs.decks",
    "cogs.rounds",
    "cogs.judges",
    "cogs.panel",
    "cogs.series",
    "cogs.profiles",
)


def point_at_discord(settings: Settings) -> None:
    """Use the configured API and gateway. Only the fake Discord of the e2e tests changes them."""
    if settings.api_base_url != DISCORD_API_BASE_URL:
        discord.http.Route.BASE = settings.api_base_url
    if settings.discord_gateway_url != DISCORD_GATEWAY_URL:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


EMBEDS_PER_MESSAGE = 10
# The answers after which an interaction takes follow-up messages.
FOLLOWED_UP = frozenset(
    {
        discord.InteractionResponseType.channel_message,
        discord.InteractionResponseType.deferred_channel_message,
        discord.InteractionResponseType.deferred_message_update,
        discord.InteractionResponseType.message_update,
    }
)


def services_for(settings: Settings, database: Database) -> Services:
    """The services as the settings make them: the one place they are wired (the bot and
    `python -m bot web` both take them from here)."""
    return Services(
        database,
        clock=scaled_clock(
            settings.clock_speed, utc_now, ahead=timedelta(minutes=settings.clock_offset_minutes)
        ),
        default_locale=settings.default_locale,
        shards=Shards.of(settings.shard_count, settings.shards),
        claim_seconds=settings.outbox_claim_seconds,
        clock_times=ClockTimes(
            unconfirmed_after=timedelta(minutes=settings.unconfirmed_report_minutes),
            grace=timedelta(seconds=settings.clock_grace_seconds),
        ),
    )


class TournamentTree(app_commands.CommandTree["TournamentBot"]):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)


class TournamentBot(commands.AutoShardedBot):
    """The bot. It runs Discord's shards SHARD_IDS of SHARD_COUNT (several processes split
    a big bot's shards on one PostgreSQL database), or, without them, every shard Discord
    recommends, in this one process."""

    def __init__(self, settings: Settings, database: Database) -> None:
        # Every answer Discord gives the bot is counted for its refused-requests limit.
        refusals = Refusals()
        sharding: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shards is not None:
            sharding["shard_ids"] = list(settings.shards)
        super().__init__(
            **sharding,
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=TournamentTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            guild_ready_timeout=settings.guild_ready_timeout,
            http_trace=refusals.trace(),
        )
        self.settings = settings
        self.database = database
        self.services = services_for(settings, database)
        self.stop_listening: Callable[[], Awaitable[None]] | None = None
        self._told_ready = False
        # Modals routed by custom id, so they survive a restart; see bot/ui/stateless.py.
        self.modal_routes = ModalRoutes()
        # The one loop that tells people what happened (bot/notify), and the timed jobs.
        clock = self.services.round_clock
        self.delivery = Delivery(
            self,
            self.services.store,
            clock=clock.clock,
            jobs=(clock.tick, clock.refresh_entry_posts, self.services.reminders.tick),
            tick_seconds=settings.clock_tick_seconds,
            page_base=settings.web_players_url,  # never a link only this PC opens
            default_lang=normalise_locale(settings.default_locale),
            refusals=refusals,
            clock_grace=timedelta(seconds=settings.clock_grace_seconds),
        )
        # The live web page, when WEB_PORT is set.
        self.web: WebServer | None = None
        self._background: set[asyncio.Task[None]] = set()
        database.on_storage_full.append(self._disk_full)

    def _disk_full(self, error: StorageFull) -> None:
        """The disk is full: the staff must free space. Told once, straight to each
        server's log channel: the one message not sent through the outbox, which cannot
        be written now."""
        task = asyncio.create_task(self._tell_staff_the_disk_is_full())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _tell_staff_the_disk_is_full(self) -> None:
        for guild in list(self.guilds):
            try:
                config = await self.services.guilds.config(guild.id)
            except StorageError:
                continue
            if config.log_channel_id is None:
                continue
            lang = normalise_locale(config.locale or self.settings.default_locale)
            channel = self.get_partial_messageable(config.log_channel_id, guild_id=guild.id)
            try:
                await channel.send(t("errors.disk_full_staff", lang))
            except discord.HTTPException:
                log.warning("could not tell server %s that the disk is full", guild.id)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        self.add_dynamic_items(route(PAGE, self.turn_page))
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        # Other processes' commits (PostgreSQL's NOTIFY) on the same bus as our own.
        self.stop_listening = await self.services.store.listen()
        self.delivery.start()
        if self.settings.web_port is not None:
            self.web = WebServer(
                self.services.live,
                self.settings.web_host,
                self.settings.web_port,
                limits=limits_from(self.settings),
            )
            await self.web.start()

    async def close(self) -> None:
        # The page stops first: it reads the database, which closes after the bot. What is
        # still to be said goes out; anything left waits in the outbox for the next start.
        if self.web is not None:
            await self.web.stop()
            self.web = None
        await self.delivery.stop(flush_seconds=2.0)
        if self.stop_listening is not None:
            await self.stop_listening()
        if getattr(self, "_AutoShardedClient__queue", None) is None:
            return  # never set up (a start that failed early, a test): no shard to close
        await super().close()

    async def turn_page(
        self, interaction: discord.Interaction[Any], kind: str, arg: str, page: int, direction: str
    ) -> None:
        renderer = page_renderer(self.cogs.values(), kind)
        if renderer is None:  # a listing this version no longer has
            raise IllegalTransition("errors.stale_button")
        shown = await renderer(interaction, arg, page)
        view = page_view(kind, arg, shown)
        # The renderer may have acknowledged first (slow work).
        await edit_answer(interaction, embed=shown.embed, view=view)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.user.id in self.delivery.places.closed_dms:
            await self._dms_may_be_open(interaction)
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        found = self.modal_routes.find(custom_id)
        if found is None:
            return
        fields, handler = found
        try:
            if fields is None:  # out of range, as for buttons (`route`)
                raise IllegalTransition("errors.stale_button")
            await handler(interaction, submitted_values(interaction), **fields)
        except Exception as error:  # the one error path, as for commands
            await answer_error(interaction, error)
        await self.show_kept_notices(interaction)

    async def _dms_may_be_open(self, interaction: discord.Interaction[Any]) -> None:
        """A player remembered with closed DMs used the bot: in their DMs with it, which
        shows those open, or elsewhere (`Places.used_the_bot`)."""
        in_their_dms = interaction.guild_id is None and isinstance(
            interaction.channel, discord.DMChannel
        )
        try:
            await self.delivery.player_used_the_bot(interaction.user.id, in_their_dms=in_their_dms)
        except StorageError as error:
            log.warning("%s's open DMs not written down: %s", interaction.user.id, error)

    async def on_app_command_completion(
        self,
        interaction: discord.Interaction[Any],
        command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu,
    ) -> None:
        await self.show_kept_notices(interaction)

    async def show_kept_notices(self, interaction: discord.Interaction[Any]) -> None:
        """The notices the player could not get by DM (closed DMs), after whatever they did
        with the bot (a command, a button, a menu, a form), once it was answered by a message
        or an edit (a form opened in answer takes no follow-up: they wait for the next use)."""
        if interaction.guild_id is None or interaction.response.type not in FOLLOWED_UP:
            return
        if not token_alive(interaction):
            return  # kept for their next use of the bot: a private answer needs the token
        try:
            kept = await self.services.judges.notices_for(interaction.guild_id, interaction.user.id)
        except StorageError as error:  # they stay kept for the next time
            log.warning("kept notices of %s not shown now: %s", interaction.user.id, error)
            return
        for notice in kept:
            embeds = [discord.Embed.from_dict(embed) for embed in notice.embeds]
            # A message takes ten embeds at most: the text with the first ten, then the rest.
            text: str = notice.text or discord.utils.MISSING
            for at in range(0, max(len(embeds), 1), EMBEDS_PER_MESSAGE):
                part = embeds[at : at + EMBEDS_PER_MESSAGE]
                if at > 0:
                    text = discord.utils.MISSING
                elif not part and not notice.text:
                    break
                try:
                    await interaction.followup.send(text, embeds=part, ephemeral=True)
                except discord.HTTPException:
                    log.info("could not show a pending notice to %s", interaction.user.id)

    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        await self._permissions_may_have_changed(after.guild.id)

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self._permissions_may_have_changed(after.guild.id)

    async def _permissions_may_have_changed(self, guild_id: int) -> None:
        """A permission granted again, a channel's overwrites changed: the channels that
        refused the bot there are tried again."""
        try:
            await self.delivery.places.settings_changed(guild_id)
        except StorageError as error:
            log.warning("server %s changed, not written down: %s", guild_id, error)

    async def on_ready(self) -> None:
        user = self.user
        log.info("bot ready: logged in as %s (%s)", user, user.id if user else "?")
        if not self._told_ready:  # once: a reconnect is ready again, silently
            self._told_ready = True
            command = localized_command("help", cli_language())
            tell("cli.run.ready", user=str(user), command=command)
        # What exists once the bot is up (modules, Discord's cache of the servers) lives as
        # long as the process: kept out of the garbage collector's full collections, each
        # of which stopped every thread for tens of milliseconds at 4,096 players, most of it
        # scanning them (docs/BENCHMARKS.md, "How the time was found": garbage collection).
        # Once: a later reconnect would also freeze whatever passing garbage exists then.
        if not gc.get_freeze_count():
            gc.freeze()


if TYPE_CHECKING:
    from cogs.common import Host

    # The bot is what its cogs know it as: mypy checks it has every part of the shape.
    _THE_COGS_HOST: type[Host] = TournamentBot

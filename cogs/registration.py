"""/register, /unregister, /checkin and /players."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TournamentBot
from bot.i18n import normalise_locale, t
from bot.ui.messages import interaction_lang
from bot.ui.pagination import Page, page_of, page_view
from bot.ui.render import registered_text, safe
from cogs.common import actor_of, guild_lang, post, tournament_autocomplete

PLAYERS_PER_PAGE = 20


class Registration(commands.Cog):
    def __init__(self, bot: TournamentBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.page_renderers["players"] = self.render_players_page

    @app_commands.command(name="register", description="Register for a tournament")
    @app_commands.describe(tournament="Tournament (optional when only one is open)")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def register(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        lang = interaction_lang(interaction)
        result = await self.bot.services.registration.register(actor_of(interaction), tournament)
        await interaction.response.send_message(registered_text(result, lang), ephemeral=True)

    @app_commands.command(
        name="unregister", description="Cancel your registration before the start"
    )
    @app_commands.describe(tournament="Tournament (optional when only one is open)")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def unregister(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        lang = interaction_lang(interaction)
        result = await self.bot.services.registration.unregister(actor_of(interaction), tournament)
        await interaction.response.send_message(
            t("ui.register.unregistered", lang, tournament=safe(result.tournament.name)),
            ephemeral=True,
        )
        if result.promoted is not None:
            config = await self.bot.services.guilds.config(result.tournament.guild_id)
            await post(
                self.bot,
                config.announcements_channel_id,
                t(
                    "ui.register.promoted",
                    await guild_lang(interaction),
                    name=safe(result.promoted.display_name),
                ),
            )

    @app_commands.command(name="checkin", description="Check in before the tournament starts")
    @app_commands.describe(tournament="Tournament (optional when only one is open)")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def checkin(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        lang = interaction_lang(interaction)
        checked = await self.bot.services.registration.check_in(actor_of(interaction), tournament)
        await interaction.response.send_message(
            t("ui.register.checked_in", lang, tournament=safe(checked.name)), ephemeral=True
        )

    @app_commands.command(name="players", description="List a tournament's players")
    @app_commands.describe(
        tournament="Tournament (optional when only one is open)",
        public="Show the list to everyone in the channel (default: only to you)",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def players(
        self, interaction: discord.Interaction, tournament: str | None = None, public: bool = False
    ) -> None:
        # A public list is read by the whole channel: the server's language, not the caller's.
        lang = await guild_lang(interaction) if public else interaction_lang(interaction)
        found, _ = await self.bot.services.registration.players(interaction.guild_id, tournament)
        page = await self.render_players_page(interaction, f"{found.id}.{lang}", 0)
        view = page_view("players", f"{found.id}.{lang}", page)
        if view is None:
            await interaction.response.send_message(embed=page.embed, ephemeral=not public)
        else:
            await interaction.response.send_message(
                embed=page.embed, view=view, ephemeral=not public
            )

    async def render_players_page(
        self, interaction: discord.Interaction[Any], arg: str, page: int
    ) -> Page:
        tournament_id, _, lang_code = arg.partition(".")
        lang = normalise_locale(lang_code)
        found, players = await self.bot.services.registration.players(
            interaction.guild_id, tournament_id
        )
        lines = [
            f"{number}. {safe(player.display_name)} (<@{player.user_id}>)"
            + ("" if player.in_event else f" · {t(f'ui.status.{player.status}', lang)}")
            for number, player in enumerate(players, start=1)
        ] or [t("ui.players.empty", lang)]
        chunk, index, count = page_of(lines, PLAYERS_PER_PAGE, page)
        in_event = sum(1 for p in players if p.in_event)
        embed = discord.Embed(
            title=t("ui.players.title", lang, name=safe(found.name), count=in_event),
            description="\n".join(chunk),
        )
        embed.set_footer(text=t("ui.players.footer", lang, page=index + 1, pages=count))
        return Page(embed, index, count)


async def setup(bot: TournamentBot) -> None:
    await bot.add_cog(Registration(bot))

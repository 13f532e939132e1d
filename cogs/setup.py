"""/setup server and /setup show: the roles and channels tournaments use."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.ui.messages import interaction_lang, reply
from bot.ui.render import setup_embed
from cogs.common import Host, actor_of


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Setup(
    commands.GroupCog, group_name="setup", group_description="Server settings for tournaments"
):
    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(
        name="server",
        description="Set the organizer and judge roles, the channels and the language",
    )
    @app_commands.describe(
        organizer_role="Role whose members run tournaments",
        judge_role="Role whose members judge",
        announcements="Channel for tournament announcements",
        pairings="Channel for pairings",
        standings="Channel for standings",
        judge_calls="Channel where judge calls arrive",
        log="Channel for the log of organizer and judge actions",
        staff="Staff-only channel for the organizer's panel (default: the log channel)",
        language="Language of the bot's posts in channels",
        bilingual_buttons="Label the buttons of posts in Japanese and English (mixed servers)",
        ratings="Player ratings: off (default), in /profile, or also in series standings",
    )
    @app_commands.choices(
        language=[
            app_commands.Choice(name="日本語", value="ja"),
            app_commands.Choice(name="English", value="en"),
        ],
        ratings=[
            app_commands.Choice(name="off", value="ratings_hidden"),
            app_commands.Choice(name="in /profile", value="ratings_profile"),
            app_commands.Choice(name="in /profile and series standings", value="ratings_series"),
        ],
    )
    async def server(
        self,
        interaction: discord.Interaction,
        organizer_role: discord.Role | None = None,
        judge_role: discord.Role | None = None,
        announcements: discord.TextChannel | None = None,
        pairings: discord.TextChannel | None = None,
        standings: discord.TextChannel | None = None,
        judge_calls: discord.TextChannel | None = None,
        log: discord.TextChannel | None = None,
        staff: discord.TextChannel | None = None,
        language: app_commands.Choice[str] | None = None,
        bilingual_buttons: bool | None = None,
        ratings: app_commands.Choice[str] | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        config = await self.bot.services.guilds.configure(
            actor_of(interaction),
            organizer_role_id=organizer_role.id if organizer_role else None,
            judge_role_id=judge_role.id if judge_role else None,
            announcements_channel_id=announcements.id if announcements else None,
            pairings_channel_id=pairings.id if pairings else None,
            standings_channel_id=standings.id if standings else None,
            judge_calls_channel_id=judge_calls.id if judge_calls else None,
            log_channel_id=log.id if log else None,
            staff_channel_id=staff.id if staff else None,
            locale=language.value if language else None,
            bilingual_buttons=bilingual_buttons,
            ratings=ratings.value.removeprefix("ratings_") if ratings else None,
        )
        await reply(interaction, t("ui.setup.saved", lang), embed=setup_embed(config, lang))

    @app_commands.command(name="show", description="Show this server's tournament settings")
    async def show(self, interaction: discord.Interaction) -> None:
        lang = interaction_lang(interaction)
        config = await self.bot.services.guilds.show(actor_of(interaction))
        await reply(interaction, embed=setup_embed(config, lang))


async def setup(bot: Host) -> None:
    await bot.add_cog(Setup(bot))

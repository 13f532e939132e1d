"""`/help`: every command with its description, in the reader's language."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TournamentBot
from bot.i18n import Lang, catalog, normalise_locale, t
from bot.ui.messages import interaction_lang
from bot.ui.pagination import Page, page_of, page_view

HELP_PER_PAGE = 12


class Meta(commands.Cog):
    def __init__(self, bot: TournamentBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.page_renderers["help"] = self.render_help_page

    def help_lines(self, lang: Lang) -> list[str]:
        lines = []
        for command in self.bot.tree.walk_commands():
            if isinstance(command, app_commands.Group):
                continue
            key = "commands." + command.qualified_name.replace(" ", ".")
            name = command.qualified_name
            description = command.description
            if lang == "ja":
                ja_name = " ".join(
                    catalog("ja").get(f"commands.{'.'.join(parts)}.name", parts[-1])
                    for parts in _prefixes(command.qualified_name.split())
                )
                name = f"{name}（{ja_name}）" if ja_name != name else name
                description = catalog("ja").get(f"{key}.description", description)
            lines.append(f"`/{name}`: {description}")
        return sorted(lines)

    async def render_help_page(
        self, interaction: discord.Interaction[Any], arg: str, page: int
    ) -> Page:
        lang = normalise_locale(arg)
        lines, index, count = page_of(self.help_lines(lang), HELP_PER_PAGE, page)
        embed = discord.Embed(title=t("help.title", lang), description="\n".join(lines))
        embed.set_footer(text=t("help.footer", lang, page=index + 1, pages=count))
        return Page(embed, index, count)

    @app_commands.command(name="help", description="List the bot's commands")
    async def help(self, interaction: discord.Interaction) -> None:
        lang = interaction_lang(interaction)
        page = await self.render_help_page(interaction, lang, 0)
        view = page_view("help", lang, page)
        if view is None:
            await interaction.response.send_message(embed=page.embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=page.embed, view=view, ephemeral=True)


def _prefixes(parts: list[str]) -> list[list[str]]:
    return [parts[: i + 1] for i in range(len(parts))]


async def setup(bot: TournamentBot) -> None:
    await bot.add_cog(Meta(bot))

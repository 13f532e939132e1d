"""`/help`: every command with its description, in the reader's language; and, once the bot is
ready, the ids of the synced commands that messages use for clickable mentions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Lang, catalog, command_ref, localized_command, normalise_locale, t
from bot.ui.messages import interaction_lang, load_command_ids, reply
from bot.ui.pagination import Page, PageRenderer, page_of, page_view
from cogs.common import Host

HELP_PER_PAGE = 12


class Meta(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._ids_loaded = False

    def pages(self) -> Mapping[str, PageRenderer]:
        return {"help": self.render_help_page}

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # Once per process: ids only change when someone runs `python -m bot sync`.
        if self._ids_loaded:
            return
        self._ids_loaded = True
        await load_command_ids(self.bot.tree, (guild.id for guild in self.bot.guilds))

    def help_lines(self, lang: Lang) -> list[str]:
        """One line per command. A Japanese reader sees the Japanese name first (the one
        their Discord shows), then the English one it is also known by."""
        rows: list[tuple[str, str]] = []
        for command in self.bot.tree.walk_commands():
            if isinstance(command, app_commands.Group):
                continue
            name = command.qualified_name
            description = command.description
            if lang == "ja":
                key = "commands." + name.replace(" ", ".")
                description = catalog("ja").get(f"{key}.description", description)
                line = f"{command_ref(name, lang)}（`/{name}`）: {description}"
            else:
                line = f"{command_ref(name, lang)}: {description}"
            rows.append((localized_command(name, lang), line))
        return [line for _, line in sorted(rows)]

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
        await reply(interaction, embed=page.embed, view=page_view("help", lang, page))


async def setup(bot: Host) -> None:
    await bot.add_cog(Meta(bot))

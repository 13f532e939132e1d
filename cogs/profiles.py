"""/profile show, handle and public, and the registration reply's
「ハンドルネームを設定」 button with its form.

A player's record is anyone's to read (the standings were public); penalties are the staff's
(the service decides). The handle is the player's own: set, or cleared with a blank."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Lang, join_list, t
from bot.services.profiles import HandleChange
from bot.ui.buttons import HANDLE_BUTTON, HANDLE_FIELD, HANDLE_FORM, CustomId, handle_form
from bot.ui.messages import acknowledge, interaction_lang, reply
from bot.ui.pagination import Page, PageRenderer, page_id_arg, page_view
from bot.ui.render import safe
from bot.ui.routing import ButtonHandler
from bot.ui.series import profile_page
from bot.ui.stateless import ModalHandler, send_stateless_modal
from cogs.common import Host, RoutedCog, actor_of

SHARE_STATES = [
    app_commands.Choice(name="on: show my record on the live pages", value="on"),
    app_commands.Choice(name="off: hide it", value="off"),
]


def handle_reply(change: HandleChange, discord_name: str, lang: Lang) -> str:
    handle = change.profile.handle
    if handle:
        text = t("ui.handle.set", lang, handle=safe(handle))
    else:
        text = t("ui.handle.cleared", lang, name=safe(discord_name))
    if change.renamed:
        names = [safe(tournament.name) for tournament in change.renamed]
        text += "\n" + t("ui.handle.renamed", lang, names=join_list(names, lang))
    return text


@app_commands.guild_only()
class Profiles(
    RoutedCog, commands.GroupCog, group_name="profile", group_description="Player records"
):
    def buttons(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        return [(HANDLE_BUTTON, self.handle_pressed)]

    def forms(self) -> Iterable[tuple[CustomId, ModalHandler]]:
        return [(HANDLE_FORM, self.handle_submitted)]

    def pages(self) -> Mapping[str, PageRenderer]:
        return {"profile": self.render_page}

    @app_commands.command(name="show", description="A player's record on this server")
    @app_commands.describe(player="The player (default: you)")
    async def show(
        self, interaction: discord.Interaction, player: discord.Member | None = None
    ) -> None:
        lang = interaction_lang(interaction)
        target = player or interaction.user
        arg = f"{target.id}.{lang}"
        # A server's whole history is read (and its ratings folded): answer within 3 s first.
        await acknowledge(interaction)
        page = await self._page(interaction, target.id, target.display_name, lang, 0)
        await reply(interaction, embed=page.embed, view=page_view("profile", arg, page))

    async def _page(
        self, interaction: discord.Interaction[Any], user_id: int, name: str, lang: Lang, page: int
    ) -> Page:
        view = await self.services.profiles.show(actor_of(interaction), user_id, name)
        return profile_page(view, lang, page)

    async def render_page(self, interaction: discord.Interaction[Any], arg: str, page: int) -> Page:
        user_id, lang = page_id_arg(arg)
        return await self._page(interaction, user_id, str(user_id), lang, page)

    @app_commands.command(
        name="handle", description="Your tournament handle, shown instead of your Discord name"
    )
    @app_commands.describe(name="The handle (leave it out to go back to your Discord name)")
    async def handle(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 64] | None = None
    ) -> None:
        lang = interaction_lang(interaction)
        change = await self.services.profiles.set_handle(actor_of(interaction), name)
        await reply(interaction, handle_reply(change, interaction.user.display_name, lang))

    async def handle_pressed(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        """The registration reply's button: the form, with the current handle in it."""
        profile = await self.services.profiles.own(actor_of(interaction), tournament)
        form = handle_form(tournament, profile.handle, interaction_lang(interaction))
        await send_stateless_modal(interaction, form)

    async def handle_submitted(
        self, interaction: discord.Interaction[Any], values: dict[str, str], tournament: int
    ) -> None:
        lang = interaction_lang(interaction)
        text = values.get(HANDLE_FIELD, "")
        change = await self.services.profiles.set_handle(actor_of(interaction), text, tournament)
        await reply(interaction, handle_reply(change, interaction.user.display_name, lang))

    @app_commands.command(
        name="public", description="Show your record on the live pages of this server's events"
    )
    @app_commands.describe(state="on: shown on the live pages; off: hidden (default)")
    @app_commands.choices(state=SHARE_STATES)
    async def public(
        self, interaction: discord.Interaction, state: app_commands.Choice[str]
    ) -> None:
        lang = interaction_lang(interaction)
        profile = await self.services.profiles.set_public(
            actor_of(interaction), state.value == "on"
        )
        key = "ui.profile.public_on" if profile.public else "ui.profile.public_off"
        await reply(interaction, t(key, lang))


async def setup(bot: Host) -> None:
    await bot.add_cog(Profiles(bot))

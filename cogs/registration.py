"""/register, /unregister, /checkin and /players, and the registration post's 参加登録 and
チェックイン buttons (the same services: a player never has to type a command)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.i18n import t
from bot.services.base import TournamentRef
from bot.ui.buttons import CHECK_IN, REGISTER, CustomId, Labels, deck_view, handle_view
from bot.ui.messages import interaction_lang, reply
from bot.ui.options import TOURNAMENT
from bot.ui.pagination import Page, PageRenderer, page_id_arg, page_view
from bot.ui.render import players_page, registered_text, safe
from bot.ui.routing import ButtonHandler
from cogs.common import Host, RoutedCog, actor_of, guild_lang, tournament_autocomplete


class Registration(RoutedCog):
    def buttons(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        return [(REGISTER, self.register_pressed), (CHECK_IN, self.check_in_pressed)]

    def pages(self) -> Mapping[str, PageRenderer]:
        return {"players": self.render_players_page}

    @app_commands.command(name="register", description="Register for a tournament")
    @app_commands.describe(
        tournament=TOURNAMENT,
        handle="A tournament handle to be shown instead of your Discord name (kept for later)",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def register(
        self,
        interaction: discord.Interaction,
        tournament: str | None = None,
        handle: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        await self.register_for(interaction, tournament, handle)

    async def register_pressed(
        self, interaction: discord.Interaction[Any], tournament: int
    ) -> None:
        await self.register_for(interaction, tournament)

    async def register_for(
        self,
        interaction: discord.Interaction[Any],
        reference: TournamentRef,
        handle: str | None = None,
    ) -> None:
        """The answer carries 「ハンドルネームを設定」: the handle is chosen right there."""
        lang = interaction_lang(interaction)
        result = await self.services.registration.register(
            actor_of(interaction), reference, handle=handle
        )
        # A late entrant's next step is their deck: its button, not a command to find.
        view = (
            deck_view(result.tournament.id, Labels(lang))
            if result.late_round and result.tournament.decklist_required
            else handle_view(result.tournament.id, Labels(lang))
        )
        await reply(interaction, registered_text(result, lang), view=view)

    @app_commands.command(
        name="unregister", description="Cancel your registration before the start"
    )
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def unregister(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        lang = interaction_lang(interaction)
        result = await self.services.registration.unregister(actor_of(interaction), tournament)
        await reply(
            interaction,
            t("ui.register.unregistered", lang, tournament=safe(result.tournament.name)),
        )

    @app_commands.command(name="checkin", description="Check in before the tournament starts")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def checkin(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        await self.check_in_for(interaction, tournament)

    async def check_in_pressed(
        self, interaction: discord.Interaction[Any], tournament: int
    ) -> None:
        await self.check_in_for(interaction, tournament)

    async def check_in_for(
        self, interaction: discord.Interaction[Any], reference: TournamentRef
    ) -> None:
        lang = interaction_lang(interaction)
        checked = await self.services.registration.check_in(actor_of(interaction), reference)
        await reply(interaction, t("ui.register.checked_in", lang, tournament=safe(checked.name)))

    @app_commands.command(name="players", description="List a tournament's players")
    @app_commands.describe(
        tournament=TOURNAMENT,
        public="Show the list to everyone in the channel (default: only to you)",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def players(
        self, interaction: discord.Interaction, tournament: str | None = None, public: bool = False
    ) -> None:
        # A public list is read by the whole channel: the server's language, not the caller's.
        lang = await guild_lang(interaction) if public else interaction_lang(interaction)
        found, _ = await self.services.registration.players(interaction.guild_id, tournament)
        arg = f"{found.id}.{lang}"
        page = await self.render_players_page(interaction, arg, 0)
        await reply(
            interaction,
            embed=page.embed,
            view=page_view("players", arg, page),
            ephemeral=not public,
        )

    async def render_players_page(
        self, interaction: discord.Interaction[Any], arg: str, page: int
    ) -> Page:
        tournament_id, lang = page_id_arg(arg)
        found, players = await self.services.registration.players(
            interaction.guild_id, tournament_id
        )
        return players_page(found, players, lang, page)


async def setup(bot: Host) -> None:
    await bot.add_cog(Registration(bot))

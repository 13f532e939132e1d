"""/log (the tournament's action log, for judges) and /undo (organizers, after a preview
whose confirmation waits in the database)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.i18n import Lang, t
from bot.services.base import TournamentRef
from bot.ui.buttons import Labels, pending_view
from bot.ui.judges import action_time, action_what, log_lines
from bot.ui.messages import interaction_lang, reply
from bot.ui.options import TOURNAMENT
from bot.ui.pagination import PageRenderer
from bot.ui.render import safe
from cogs.common import RoutedCog, actor_of, tournament_autocomplete
from cogs.judges._listing import page_turner, show_first_page
from domain.tournament.model import Tournament


class ActionLog(RoutedCog):
    def pages(self) -> Mapping[str, PageRenderer]:
        return {"log": page_turner(self.log_lines)}

    @app_commands.command(
        name="log", description="The tournament's action log: who, what, when (judges)"
    )
    @app_commands.describe(player="Only actions by or about this player", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def log_command(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        tournament: str | None = None,
    ) -> None:
        await show_first_page(interaction, "log", self.log_lines, tournament, player)

    async def log_lines(
        self,
        interaction: discord.Interaction[Any],
        reference: TournamentRef,
        player: int | None,
        lang: Lang,
    ) -> tuple[Tournament, str, list[str]]:
        found, actions = await self.services.judges.log(actor_of(interaction), reference, player)
        title = t("ui.log.title", lang, tournament=safe(found.name))
        return found, title, log_lines(found, actions, lang)

    @app_commands.command(
        name="undo", description="Undo the last undoable action, after a confirmation (organizers)"
    )
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        preview = await self.services.judges.preview_undo(actor_of(interaction), tournament)
        action = preview.action
        view = pending_view(preview.pending_id, "ui.undo.confirm_button", Labels(lang))
        text = t(
            "ui.undo.preview",
            lang,
            id=action.id,
            at=action_time(action),
            actor=f"<@{action.actor_id}>",
            what=action_what(preview.tournament, action, lang),
        )
        await reply(interaction, text, view=view)

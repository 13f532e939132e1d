"""/penalty give|list|revoke, and the confirmation buttons of a waiting penalty or undo
(the operation waits in the database, so they work after a restart)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.i18n import Lang, t
from bot.services.base import TournamentRef
from bot.services.judging import UndoOutcome
from bot.ui.buttons import CANCEL_PENDING, CONFIRM_PENDING, CustomId, Labels, pending_view
from bot.ui.judges import (
    action_what,
    penalty_given_text,
    penalty_line,
    penalty_type,
    preview_embed,
)
from bot.ui.messages import edit_answer, interaction_lang, reply
from bot.ui.options import TOURNAMENT, PenaltyNumber
from bot.ui.pagination import PageRenderer
from bot.ui.render import safe
from bot.ui.rounds import name_of
from bot.ui.routing import ButtonHandler
from cogs.common import RoutedCog, actor_of, tournament_autocomplete
from cogs.judges._listing import page_turner, show_first_page
from domain.tournament.model import Tournament
from domain.tournament.penalties import Infraction, PenaltyType

PENALTY_TYPES = [app_commands.Choice(name=p.value, value=p.value) for p in PenaltyType]
INFRACTIONS = [app_commands.Choice(name=i.value, value=i.value) for i in Infraction]


class Penalties(RoutedCog):
    penalty = app_commands.Group(name="penalty", description="Penalties (judges)", guild_only=True)

    def buttons(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        return [(CONFIRM_PENDING, self.confirm_pending), (CANCEL_PENDING, self.cancel_pending)]

    def pages(self) -> Mapping[str, PageRenderer]:
        return {"penalties": page_turner(self.penalty_lines)}

    @penalty.command(
        name="give",
        description="Give a penalty; shows earlier ones and a suggestion first (judges)",
    )
    @app_commands.describe(
        player="The player",
        type=", ".join(p.value for p in PenaltyType),
        reason="What happened (the player is told)",
        infraction="What kind of infraction (R-PEN-5, stalling, sleeves, deck …)",
        tournament=TOURNAMENT,
    )
    @app_commands.choices(type=PENALTY_TYPES, infraction=INFRACTIONS)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def give(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        type: app_commands.Choice[str],
        reason: app_commands.Range[str, 1, 500],
        infraction: app_commands.Choice[str] | None = None,
        tournament: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        preview = await self.services.judges.preview_penalty(
            actor_of(interaction),
            tournament,
            player.id,
            type.value,
            infraction.value if infraction else Infraction.OTHER.value,
            reason,
        )
        view = pending_view(preview.pending_id, "ui.penalty.confirm_button", Labels(lang))
        await reply(interaction, embed=preview_embed(preview, lang), view=view)

    async def confirm_pending(self, interaction: discord.Interaction[Any], pending: int) -> None:
        """Give the penalty, or take back the operation, that waits under `pending`."""
        lang = interaction_lang(interaction)
        actor = actor_of(interaction, updates_message=True)
        outcome = await self.services.judges.confirm(actor, pending)
        if isinstance(outcome, UndoOutcome):
            what = action_what(outcome.tournament, outcome.action, lang)
            text = t("ui.undo.done", lang, id=outcome.action.id, what=what)
            await edit_answer(interaction, content=text, view=None)
            return
        await edit_answer(
            interaction, content=penalty_given_text(outcome, lang), embed=None, view=None
        )

    async def cancel_pending(self, interaction: discord.Interaction[Any], pending: int) -> None:
        await self.services.judges.cancel(actor_of(interaction, updates_message=True), pending)
        await edit_answer(
            interaction,
            content=t("ui.penalty.cancelled", interaction_lang(interaction)),
            view=None,
            embed=None,
        )

    @penalty.command(name="list", description="Penalties given in the tournament")
    @app_commands.describe(player="Only this player's penalties", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def list_penalties(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        tournament: str | None = None,
    ) -> None:
        await show_first_page(interaction, "penalties", self.penalty_lines, tournament, player)

    async def penalty_lines(
        self,
        interaction: discord.Interaction[Any],
        reference: TournamentRef,
        player: int | None,
        lang: Lang,
    ) -> tuple[Tournament, str, list[str]]:
        found, penalties = await self.services.judges.penalties(
            actor_of(interaction), reference, player
        )
        lines = [penalty_line(found, p, lang) for p in penalties] or [
            t("ui.penalty.list_empty", lang)
        ]
        return found, t("ui.penalty.list_title", lang, tournament=safe(found.name)), lines

    @penalty.command(
        name="revoke", description="Revoke a penalty and its effect on results (organizers)"
    )
    @app_commands.describe(id="The penalty's number (#)", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def revoke(
        self, interaction: discord.Interaction, id: PenaltyNumber, tournament: str | None = None
    ) -> None:
        lang = interaction_lang(interaction)
        outcome = await self.services.judges.revoke(actor_of(interaction), tournament, id)
        penalty = outcome.penalty
        text = t(
            "ui.penalty.revoked",
            lang,
            id=penalty.id,
            player=name_of(outcome.tournament, penalty.player_id),
            type=penalty_type(penalty.type, lang),
        )
        await reply(interaction, text)

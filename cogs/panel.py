"""The organizer's panel: its buttons run the same steps as the commands (the service decides
who may: a player pressing one is refused), so an event runs without typing a command. Beside
the steps, its tools: the event's series (/series add and remove, /series create) and, during
registration, the entry import (/tournament import)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.app import ButtonHandler, TournamentBot
from bot.i18n import t
from bot.services.base import TournamentRef
from bot.ui.buttons import (
    IMPORT_FILE_FIELD,
    IMPORT_FORM,
    PANEL_STEP,
    PANEL_TOOL,
    CustomId,
    Tool,
    import_form,
)
from bot.ui.messages import interaction_lang, reply
from bot.ui.rounds import round_name
from bot.ui.stateless import ModalHandler, send_stateless_modal, submitted_files
from cogs.common import RoutedCog, actor_of
from cogs.event_steps import (
    finish_event,
    import_entries,
    send_export,
    show_series_menu,
    show_start_preview,
)
from cogs.rounds.pairing import pair_next_round, start_round_clock
from domain.tournament.steps import Step


class Panel(RoutedCog):
    def buttons(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        return [(PANEL_STEP, self.step_pressed), (PANEL_TOOL, self.tool_pressed)]

    def forms(self) -> Iterable[tuple[CustomId, ModalHandler]]:
        return [(IMPORT_FORM, self.import_submitted)]

    async def step_pressed(
        self, interaction: discord.Interaction[Any], step: str, tournament: int
    ) -> None:
        await self.services.tournaments.may_use_panel(actor_of(interaction))
        reference = tournament
        chosen = Step(step)
        if chosen is Step.START:
            await show_start_preview(self.services, interaction, reference)
        elif chosen in (Step.PAIR, Step.TOP_CUT):
            await pair_next_round(self.services, interaction, reference)
        elif chosen is Step.START_CLOCK:
            await start_round_clock(self.services, interaction, reference)
        elif chosen is Step.NEXT_ROUND:
            await self.next_round(interaction, reference)
        elif chosen is Step.POST_STANDINGS:
            await self.services.rounds.post_standings(actor_of(interaction), reference)
            await reply(interaction, t("ui.panel.standings_posted", interaction_lang(interaction)))
        elif chosen is Step.FINISH:
            await finish_event(self.services, interaction, reference)
        else:
            await send_export(self.services, interaction, reference)

    async def tool_pressed(
        self, interaction: discord.Interaction[Any], tool: str, tournament: int
    ) -> None:
        await self.services.tournaments.may_use_panel(actor_of(interaction))
        if Tool(tool) is Tool.SERIES:
            await show_series_menu(self.services, interaction, tournament)
            return
        # 参加者の取り込み: the organizer's check before the form opens, as /tournament
        # import's before the file is read.
        await self.services.registration.may_import(actor_of(interaction), tournament)
        await send_stateless_modal(
            interaction, import_form(tournament, interaction_lang(interaction))
        )

    async def import_submitted(
        self, interaction: discord.Interaction[Any], values: dict[str, str], tournament: int
    ) -> None:
        files = submitted_files(interaction, IMPORT_FILE_FIELD)
        await import_entries(self.services, interaction, tournament, files[0] if files else None)

    async def next_round(
        self, interaction: discord.Interaction[Any], reference: TournamentRef
    ) -> None:
        """次の回戦: the next round paired and its clock started, in one press."""
        lang = interaction_lang(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        paired = await self.services.rounds.next_round(actor_of(interaction), reference)
        assert paired.round.ends_at is not None
        end = int(paired.round.ends_at.timestamp())
        text = t("ui.panel.next_round", lang, round_name=round_name(paired.round, lang), end=end)
        if not paired.posted:
            text += "\n" + t("ui.panel.post_waiting", lang)
        await reply(interaction, text)


async def setup(bot: TournamentBot) -> None:
    await bot.add_cog(Panel(bot))

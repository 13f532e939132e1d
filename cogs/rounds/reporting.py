"""/report result, and the buttons and form a player reports with: 結果報告 on the pairings
post, 勝ち / 負け / 投了 / 時間切れ on their private form (時間切れ asks for both point-zone
counts), and 確認 / 異議 on the opponent's notice (異議 asks, in a form, what the player
claims instead). Each carries the round it was made for: a form left open from a finished
round is refused, never filed in the next one."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

from bot.i18n import t
from bot.services.rounds import ReportOutcome
from bot.ui.buttons import (
    CLAIM,
    CONFIRM,
    CONFIRM_MINE,
    DISPUTE,
    DISPUTE_FORM,
    DISPUTE_MINE,
    REPORT,
    TIME_FORM,
    CustomId,
    Labels,
    claim_view,
    dispute_form,
    time_modal,
)
from bot.ui.messages import acknowledge, interaction_lang, reply
from bot.ui.options import TOURNAMENT, PointZoneCount, optional_count, point_zone_count
from bot.ui.rounds import name_of, report_reply, round_name
from bot.ui.routing import ButtonHandler
from bot.ui.stateless import ModalHandler, send_stateless_modal
from cogs.common import RoutedCog, actor_of, tournament_autocomplete
from domain.engine.results import MAX_POINT_ZONE
from domain.tournament.rounds import Claim

CLAIM_CHOICES = [app_commands.Choice(name=claim.value, value=claim.value) for claim in Claim]
CLAIMS = ", ".join(claim.value for claim in Claim)


class Reporting(RoutedCog):
    report = app_commands.Group(name="report", description="Report a match result", guild_only=True)

    def buttons(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        return [
            (REPORT, self.open_report_form),
            (CLAIM, self.claim_pressed),
            (CONFIRM, self.confirm_pressed),
            (DISPUTE, self.dispute_pressed),
            (CONFIRM_MINE, self.confirm_pressed),
            (DISPUTE_MINE, self.dispute_pressed),
        ]

    def forms(self) -> Iterable[tuple[CustomId, ModalHandler]]:
        return [(TIME_FORM, self.time_submitted), (DISPUTE_FORM, self.dispute_submitted)]

    @report.command(
        name="result", description="Report your match result; your opponent confirms it"
    )
    @app_commands.describe(
        result=f"{CLAIMS} (time needs both point-zone counts)",
        my_points=f"Time only: cards in your point zone (0–{MAX_POINT_ZONE})",
        opponent_points=f"Time only: cards in your opponent's point zone (0–{MAX_POINT_ZONE})",
        tournament=TOURNAMENT,
    )
    @app_commands.choices(result=CLAIM_CHOICES)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def report_result(
        self,
        interaction: discord.Interaction,
        result: app_commands.Choice[str],
        my_points: PointZoneCount | None = None,
        opponent_points: PointZoneCount | None = None,
        tournament: str | None = None,
    ) -> None:
        # At the end of a round everyone reports at once and the reports queue for the one
        # database writer: acknowledge first, so none nears Discord's 3-second limit.
        await acknowledge(interaction)
        outcome = await self.services.rounds.report(
            actor_of(interaction), tournament, result.value, my_points, opponent_points
        )
        await self._answer(interaction, outcome)

    async def open_report_form(
        self, interaction: discord.Interaction[Any], tournament: int, round: int
    ) -> None:
        """結果報告: the player's own form for their match of that round."""
        lang = interaction_lang(interaction)
        mine = await self.services.rounds.my_match(actor_of(interaction), tournament, round)
        opponent = mine.match.opponent_of(interaction.user.id)
        if opponent is None:
            await reply(
                interaction, t("ui.rounds.mine_bye", lang, round_name=round_name(mine.round, lang))
            )
            return
        text = t(
            "ui.report.choose",
            lang,
            round_name=round_name(mine.round, lang),
            table=mine.match.table,
            opponent=name_of(mine.tournament, opponent),
        )
        await reply(interaction, text, view=claim_view(tournament, mine.round.number, Labels(lang)))

    async def claim_pressed(
        self, interaction: discord.Interaction[Any], tournament: int, round: int, claim: str
    ) -> None:
        if claim == Claim.TIME:
            await self.services.rounds.may_report(actor_of(interaction), tournament, round)
            lang = interaction_lang(interaction)
            await send_stateless_modal(interaction, time_modal(tournament, round, lang))
            return
        outcome = await self.services.rounds.report(
            actor_of(interaction), tournament, claim, number=round
        )
        await self._answer(interaction, outcome)

    async def time_submitted(
        self,
        interaction: discord.Interaction[Any],
        values: dict[str, str],
        tournament: int,
        round: int,
    ) -> None:
        mine, theirs = (point_zone_count(values.get(key, "")) for key in ("mine", "theirs"))
        outcome = await self.services.rounds.report(
            actor_of(interaction), tournament, Claim.TIME, mine, theirs, number=round
        )
        await self._answer(interaction, outcome)

    async def confirm_pressed(
        self,
        interaction: discord.Interaction[Any],
        tournament: int,
        round: int,
        table: int | None = None,
    ) -> None:
        """確認 under one report (its table), or under several tables' (the presser's)."""
        await acknowledge(interaction)  # as /report result
        outcome = await self.services.rounds.confirm(
            actor_of(interaction), tournament, round, table
        )
        await self._answer(interaction, outcome)

    async def dispute_pressed(
        self,
        interaction: discord.Interaction[Any],
        tournament: int,
        round: int,
        table: int | None = None,
    ) -> None:
        """異議: a form asks what the player claims instead. Someone who may not dispute
        this report is refused before the form opens. Under several tables' reports, the
        presser's own table is disputed."""
        found = await self.services.rounds.disputable(
            actor_of(interaction), tournament, round, table
        )
        lang = interaction_lang(interaction)
        name = round_name(found.round, lang)
        form = dispute_form(tournament, round, found.match.table, name, lang)
        await send_stateless_modal(interaction, form)

    async def dispute_submitted(
        self,
        interaction: discord.Interaction[Any],
        values: dict[str, str],
        tournament: int,
        round: int,
        table: int,
    ) -> None:
        mine, theirs = (optional_count(values.get(key, "")) for key in ("mine", "theirs"))
        await acknowledge(interaction)  # as /report result
        outcome = await self.services.rounds.dispute(
            actor_of(interaction),
            tournament,
            round,
            table,
            values.get("claim", ""),
            mine,
            theirs,
            values.get("reason", ""),
        )
        await self._answer(interaction, outcome)

    async def _answer(self, interaction: discord.Interaction[Any], outcome: ReportOutcome) -> None:
        """The reporter's answer; the opponent's notice or the judges' is the notifier's."""
        await reply(interaction, report_reply(outcome, interaction_lang(interaction)))

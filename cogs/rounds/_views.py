"""Buttons of a running event. Each carries the ids it acts on in its custom id and is a
`DynamicItem`, so the buttons on old messages keep working after a restart; the pending
state (reports, confirmations) lives in the database."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Lang, t
from cogs.common import answering_errors

if TYPE_CHECKING:
    from cogs.rounds import Rounds

CLAIMS = ("win", "lose", "concede", "time")


def rounds_cog(interaction: discord.Interaction[Any]) -> Rounds:
    cog = interaction.client.get_cog("Rounds")
    assert cog is not None
    return cog  # type: ignore[no-any-return]


class ReportButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rp:(?P<tournament>\d+):(?P<round>\d+)",
):
    """結果報告 / Report result, on the pairings post: opens the player's own form."""

    def __init__(self, tournament_id: int, number: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("ui.rounds.report_button", "ja"),
                style=discord.ButtonStyle.primary,
                custom_id=f"rp:{tournament_id}:{number}",
            )
        )
        self.tournament_id, self.number = tournament_id, number

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReportButton:
        return cls(int(match["tournament"]), int(match["round"]))

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await rounds_cog(interaction).open_report_form(interaction, self.tournament_id)


class ClaimButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rc:(?P<tournament>\d+):(?P<round>\d+):(?P<claim>win|lose|concede|time)",
):
    """勝ち / 負け / 投了 / 時間切れ on the player's private report form."""

    def __init__(self, tournament_id: int, number: int, claim: str, lang: Lang = "ja") -> None:
        style = discord.ButtonStyle.success if claim == "win" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=t(f"ui.report.{claim}", lang),
                style=style,
                custom_id=f"rc:{tournament_id}:{number}:{claim}",
            )
        )
        self.tournament_id, self.number, self.claim = tournament_id, number, claim

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ClaimButton:
        return cls(int(match["tournament"]), int(match["round"]), match["claim"])

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = rounds_cog(interaction)
        if self.claim == "time":
            await cog.open_time_form(interaction, self.tournament_id, self.number)
        else:
            await cog.report_by_button(interaction, self.tournament_id, self.claim)


class ConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"cf:(?P<tournament>\d+):(?P<round>\d+):(?P<table>\d+)",
):
    """確認 / Confirm: only the reporter's opponent may press it (the service decides)."""

    def __init__(self, tournament_id: int, number: int, table: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("ui.report.confirm_button", "ja"),
                style=discord.ButtonStyle.success,
                custom_id=f"cf:{tournament_id}:{number}:{table}",
            )
        )
        self.tournament_id, self.number, self.table = tournament_id, number, table

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ConfirmButton:
        return cls(int(match["tournament"]), int(match["round"]), int(match["table"]))

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await rounds_cog(interaction).confirm(
            interaction, self.tournament_id, self.number, self.table
        )


class DisputeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ds:(?P<tournament>\d+):(?P<round>\d+):(?P<table>\d+)",
):
    """異議 / Dispute: the opponent says the report is wrong; the judges hear both."""

    def __init__(self, tournament_id: int, number: int, table: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("ui.report.dispute_button", "ja"),
                style=discord.ButtonStyle.danger,
                custom_id=f"ds:{tournament_id}:{number}:{table}",
            )
        )
        self.tournament_id, self.number, self.table = tournament_id, number, table

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> DisputeButton:
        return cls(int(match["tournament"]), int(match["round"]), int(match["table"]))

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await rounds_cog(interaction).dispute(
            interaction, self.tournament_id, self.number, self.table
        )


def report_view(tournament_id: int, number: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReportButton(tournament_id, number))
    return view


def claim_view(tournament_id: int, number: int, lang: Lang) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for claim in CLAIMS:
        view.add_item(ClaimButton(tournament_id, number, claim, lang))
    return view


def confirm_view(tournament_id: int, number: int, table: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(tournament_id, number, table))
    view.add_item(DisputeButton(tournament_id, number, table))
    return view


def time_modal(tournament_id: int, number: int, lang: Lang) -> discord.ui.Modal:
    """R-MATCH-2: both point-zone counts; routed by its custom id (bot/ui/stateless.py)."""
    modal = discord.ui.Modal(
        title=t("ui.report.time_title", lang), custom_id=f"rt:{tournament_id}:{number}"
    )
    for field, key in (("mine", "ui.report.my_points"), ("theirs", "ui.report.opponent_points")):
        modal.add_item(
            discord.ui.TextInput(label=t(key, lang), custom_id=field, max_length=2, min_length=1)
        )
    return modal


DYNAMIC_ITEMS = (ReportButton, ClaimButton, ConfirmButton, DisputeButton)

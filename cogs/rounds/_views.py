"""Buttons of a running event. Each carries the ids it acts on in its custom id and is a
`DynamicItem`, so the buttons on old messages keep working after a restart; the pending
state (reports, confirmations) lives in the database."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Lang, t
from cogs.common import IdButton, answering_errors, button
from domain.tournament.rounds import Claim

if TYPE_CHECKING:
    from cogs.rounds import Rounds

Style = discord.ButtonStyle


def rounds_cog(interaction: discord.Interaction[Any]) -> Rounds:
    cog = interaction.client.get_cog("Rounds")
    assert cog is not None
    return cog  # type: ignore[no-any-return]


class ReportButton(IdButton, template=r"rp:(?P<tournament>\d+):(?P<round>\d+)"):
    """結果報告 / Report result, on the pairings post: opens the player's own form."""

    def __init__(self, tournament: int, round: int) -> None:
        label = t("ui.rounds.report_button", "ja")
        super().__init__(button(f"rp:{tournament}:{round}", label, Style.primary))
        self.tournament = tournament

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await rounds_cog(interaction).open_report_form(interaction, self.tournament)


class ClaimButton(
    IdButton,
    template=r"rc:(?P<tournament>\d+):(?P<round>\d+):(?P<claim>win|lose|concede|time)",
):
    """勝ち / 負け / 投了 / 時間切れ on the player's private report form."""

    def __init__(self, tournament: int, round: int, claim: str, lang: Lang = "ja") -> None:
        style = Style.success if claim == "win" else Style.secondary
        label = t(f"ui.report.{claim}", lang)
        super().__init__(button(f"rc:{tournament}:{round}:{claim}", label, style))
        self.tournament, self.round, self.claim = tournament, round, claim

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = rounds_cog(interaction)
        if self.claim == "time":
            await cog.open_time_form(interaction, self.tournament, self.round)
        else:
            await cog.report_by_button(interaction, self.tournament, self.claim)


class ConfirmButton(IdButton, template=r"cf:(?P<tournament>\d+):(?P<round>\d+):(?P<table>\d+)"):
    """確認 / Confirm: only the reporter's opponent may press it (the service decides)."""

    def __init__(self, tournament: int, round: int, table: int) -> None:
        label = t("ui.report.confirm_button", "ja")
        super().__init__(button(f"cf:{tournament}:{round}:{table}", label, Style.success))
        self.match = (tournament, round, table)

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await rounds_cog(interaction).answer_report(interaction, *self.match, dispute=False)


class DisputeButton(IdButton, template=r"ds:(?P<tournament>\d+):(?P<round>\d+):(?P<table>\d+)"):
    """異議 / Dispute: the opponent says the report is wrong; the judges hear both."""

    def __init__(self, tournament: int, round: int, table: int) -> None:
        label = t("ui.report.dispute_button", "ja")
        super().__init__(button(f"ds:{tournament}:{round}:{table}", label, Style.danger))
        self.match = (tournament, round, table)

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await rounds_cog(interaction).answer_report(interaction, *self.match, dispute=True)


class CallJudgeButton(IdButton, template=r"jq:(?P<tournament>\d+)"):
    """ジャッジを呼ぶ / Call a judge, on the pairings post: the same as /judge call."""

    def __init__(self, tournament: int) -> None:
        label = t("ui.rounds.call_button", "ja")
        super().__init__(button(f"jq:{tournament}", label, Style.secondary))
        self.tournament = tournament

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        judges = interaction.client.get_cog("Judges")
        assert judges is not None
        await judges.open_call_form(interaction, self.tournament)


class DropButton(IdButton, template=r"dp:(?P<tournament>\d+)"):
    """ドロップ / Drop, on the pairings post: asks for a confirmation first."""

    def __init__(self, tournament: int) -> None:
        label = t("ui.rounds.drop_button", "ja")
        super().__init__(button(f"dp:{tournament}", label, Style.secondary))
        self.tournament = tournament

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await rounds_cog(interaction).confirm_drop(interaction, self.tournament)


class DropConfirmButton(IdButton, template=r"dc:(?P<tournament>\d+)"):
    """ドロップする / Drop: the player's confirmation (the same as /drop)."""

    def __init__(self, tournament: int, lang: Lang = "ja") -> None:
        label = t("ui.drop.confirm_button", lang)
        super().__init__(button(f"dc:{tournament}", label, Style.danger))
        self.tournament = tournament

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await rounds_cog(interaction).drop_player(interaction, str(self.tournament), None)


def report_view(tournament_id: int, number: int) -> discord.ui.View:
    """The pairings post's buttons: every step of a player's round without a command."""
    view = discord.ui.View(timeout=None)
    view.add_item(ReportButton(tournament_id, number))
    view.add_item(CallJudgeButton(tournament_id))
    view.add_item(DropButton(tournament_id))
    return view


def drop_view(tournament_id: int, lang: Lang) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DropConfirmButton(tournament_id, lang))
    return view


def claim_view(tournament_id: int, number: int, lang: Lang) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for claim in Claim:
        view.add_item(ClaimButton(tournament_id, number, claim.value, lang))
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


DYNAMIC_ITEMS = (
    ReportButton,
    ClaimButton,
    ConfirmButton,
    DisputeButton,
    CallJudgeButton,
    DropButton,
    DropConfirmButton,
)

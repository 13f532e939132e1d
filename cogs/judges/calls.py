"""/judge call|extend|noshow, the ジャッジを呼ぶ button of the pairings post with its form, and
the judges' 対応する / 解決 buttons on a call's post."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

from bot.i18n import t
from bot.services.base import TournamentRef
from bot.ui.buttons import (
    CALL_FORM,
    CALL_JUDGE,
    CLAIM_CALL,
    MINUTES_FORM,
    RESOLVE_CALL,
    CustomId,
    call_form,
    minutes_modal,
    resolve_call_view,
)
from bot.ui.judges import claimed_text, resolved_text
from bot.ui.messages import edit_answer, interaction_lang, reply
from bot.ui.options import TOURNAMENT, ExtensionMinutes, TableNumber
from bot.ui.rounds import name_of
from bot.ui.routing import ButtonHandler
from bot.ui.stateless import ModalHandler, send_stateless_modal
from cogs.common import (
    RoutedCog,
    actor_of,
    server_lang,
    server_post_labels,
    tournament_autocomplete,
)
from domain.timeparse import typed_count
from domain.tournament.play import MAX_EXTENSION_MINUTES


class Calls(RoutedCog):
    judge = app_commands.Group(
        name="judge", description="Judge calls and judges' tools", guild_only=True
    )

    def buttons(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        return [
            (CALL_JUDGE, self.open_call_form),
            (CLAIM_CALL, self.claim),
            (RESOLVE_CALL, self.resolve_pressed),
        ]

    def forms(self) -> Iterable[tuple[CustomId, ModalHandler]]:
        return [(CALL_FORM, self.call_form_submitted), (MINUTES_FORM, self.minutes_submitted)]

    @judge.command(name="call", description="Call a judge to your table")
    @app_commands.describe(reason="What happened (optional)", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def call(
        self,
        interaction: discord.Interaction,
        reason: app_commands.Range[str, 0, 500] | None = None,
        tournament: str | None = None,
    ) -> None:
        await self.call_judge(interaction, tournament, reason or "")

    async def open_call_form(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        """The ジャッジを呼ぶ button: a form for what happened (optional), then the call."""
        await self.services.judges.may_call(actor_of(interaction), tournament)
        await send_stateless_modal(
            interaction, call_form(tournament, interaction_lang(interaction))
        )

    async def call_form_submitted(
        self, interaction: discord.Interaction[Any], values: dict[str, str], tournament: int
    ) -> None:
        await self.call_judge(interaction, tournament, values.get("reason", ""))

    async def call_judge(
        self, interaction: discord.Interaction[Any], reference: TournamentRef, reason: str
    ) -> None:
        lang = interaction_lang(interaction)
        outcome = await self.services.judges.call(actor_of(interaction), reference, reason)
        await reply(interaction, t("ui.judge.call_reply", lang, id=outcome.call.id))

    async def claim(
        self, interaction: discord.Interaction[Any], tournament: int, call: int
    ) -> None:
        """対応する: the call's post shows who took it, with the buttons to resolve it."""
        actor = actor_of(interaction, updates_message=True)
        outcome = await self.services.judges.claim(actor, tournament, call)
        labels = server_post_labels(outcome.server, interaction)  # the call's post is the server's
        claimed = outcome.call
        suggested = claimed.suggested_extension(outcome.at)
        view = resolve_call_view(
            tournament, call, suggested, labels, at_a_table=claimed.table is not None
        )
        judge = interaction.user.display_name
        text = claimed_text(outcome.tournament, claimed, judge, labels.lang, outcome.room)
        await edit_answer(
            interaction, content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
        )

    async def resolve_pressed(
        self, interaction: discord.Interaction[Any], tournament: int, call: int, minutes: Any
    ) -> None:
        if minutes == "x":  # 延長を指定…: the judge types the minutes
            await self.services.judges.may_resolve(actor_of(interaction), tournament, call)
            lang = interaction_lang(interaction)
            await send_stateless_modal(interaction, minutes_modal(tournament, call, lang))
            return
        await self.resolve(interaction, tournament, call, int(minutes))

    async def minutes_submitted(
        self,
        interaction: discord.Interaction[Any],
        values: dict[str, str],
        tournament: int,
        call: int,
    ) -> None:
        minutes = typed_count(
            values.get("minutes", ""),
            key="ui.judge.not_minutes",
            rule="R-MATCH-7",
            maximum=MAX_EXTENSION_MINUTES,
        )
        await self.resolve(interaction, tournament, call, minutes)

    async def resolve(
        self, interaction: discord.Interaction[Any], tournament: int, call: int, minutes: int
    ) -> None:
        # Pressed on the call's post, the post says it is resolved; a form answers the judge.
        on_the_post = interaction.type is not discord.InteractionType.modal_submit
        actor = actor_of(interaction, updates_message=on_the_post)
        outcome = await self.services.judges.resolve(actor, tournament, call, minutes)
        lang = server_lang(outcome.server, interaction)
        judge = interaction.user.display_name
        text = resolved_text(outcome.tournament, outcome.call, judge, lang, outcome.room)
        if on_the_post:
            await edit_answer(
                interaction,
                content=text,
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        else:
            await reply(interaction, text)

    @judge.command(name="extend", description="Extend one table's time (judges)")
    @app_commands.describe(table="Table number", minutes="Extra minutes", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def extend(
        self,
        interaction: discord.Interaction,
        table: TableNumber,
        minutes: ExtensionMinutes,
        tournament: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        _, extended = await self.services.rounds.extend(
            actor_of(interaction), tournament, table, minutes
        )
        text = t(
            "ui.judge.extended",
            lang,
            round=extended.round,
            table=table,
            total=extended.total_minutes,
            end=int(extended.ends_at.timestamp()),
        )
        await reply(interaction, text)

    @judge.command(
        name="noshow",
        description="A game loss for a player not seated at the start (judges, R-MATCH-6)",
    )
    @app_commands.describe(table="Table number", player="The absent player", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def noshow(
        self,
        interaction: discord.Interaction,
        table: TableNumber,
        player: discord.Member,
        tournament: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        found, current, _ = await self.services.judges.no_show(
            actor_of(interaction), tournament, table, player.id
        )
        text = t(
            "ui.judge.noshow",
            lang,
            round=current.number,
            table=table,
            player=name_of(found, player.id),
        )
        await reply(interaction, text)

"""/series create, add, remove, points and standings (issue 24): an organizer groups the
server's tournaments into a series (a season, a league); anyone reads its standings.

Thin adapters: who may change a series, its rules and its standings are the services' and
the domain's; the page buttons and the points form survive a restart (their ids carry the
series)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TournamentBot
from bot.i18n import Lang, t
from bot.services.series import SeriesChange
from bot.ui.buttons import POINTS_FIELD, POINTS_FORM, CustomId, points_form
from bot.ui.messages import interaction_lang, reply
from bot.ui.options import TOURNAMENT
from bot.ui.pagination import Page, page_id_arg, page_view
from bot.ui.render import safe
from bot.ui.series import points_table_text, series_page
from bot.ui.stateless import ModalHandler, send_stateless_modal
from cogs.common import (
    SETTINGS_FILE_LIMIT,
    RoutedCog,
    actor_of,
    guild_lang,
    read_attachment,
    tournament_autocomplete,
)

SERIES = "Series (optional when the server has only one)"


async def series_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    client = interaction.client
    assert isinstance(client, TournamentBot)
    found = await client.services.series.autocomplete(interaction.guild_id, current)
    return [app_commands.Choice(name=label, value=value) for label, value in found]


@app_commands.guild_only()
class SeriesCog(
    RoutedCog,
    commands.GroupCog,
    group_name="series",
    group_description="Series: seasons and leagues of several tournaments",
):
    def forms(self) -> Iterable[tuple[CustomId, ModalHandler]]:
        return [(POINTS_FORM, self.points_submitted)]

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.page_renderers["series"] = self.render_page

    @app_commands.command(name="create", description="Create a series (organizers)")
    @app_commands.describe(name="Series name, e.g. 2026 winter league")
    async def create(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100]
    ) -> None:
        lang = interaction_lang(interaction)
        series = await self.services.series.create(actor_of(interaction), name)
        await reply(interaction, t("ui.series.created", lang, name=safe(series.name)))

    @app_commands.command(name="add", description="Add a tournament to a series (organizers)")
    @app_commands.describe(series=SERIES, tournament=TOURNAMENT)
    @app_commands.autocomplete(series=series_autocomplete, tournament=tournament_autocomplete)
    async def add(
        self,
        interaction: discord.Interaction,
        tournament: str,
        series: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        change = await self.services.series.add(actor_of(interaction), series, tournament)
        await reply(interaction, membership_text("ui.series.added", change, lang))

    @app_commands.command(
        name="remove", description="Take a tournament out of a series (organizers)"
    )
    @app_commands.describe(series=SERIES, tournament=TOURNAMENT)
    @app_commands.autocomplete(series=series_autocomplete, tournament=tournament_autocomplete)
    async def remove(
        self,
        interaction: discord.Interaction,
        tournament: str,
        series: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        change = await self.services.series.remove(actor_of(interaction), series, tournament)
        await reply(interaction, membership_text("ui.series.removed", change, lang))

    @app_commands.command(name="points", description="Set a series' points table (organizers)")
    @app_commands.describe(
        series=SERIES, file="The table as text, one placing a line (without a file: a form)"
    )
    @app_commands.autocomplete(series=series_autocomplete)
    async def points(
        self,
        interaction: discord.Interaction,
        series: str | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        actor = actor_of(interaction)
        services = self.services.series
        await services.may_change(actor)
        found = await services.points_of(actor, series)
        if file is None:
            form = points_form(
                found.id, points_table_text(found.table), interaction_lang(interaction)
            )
            await send_stateless_modal(interaction, form)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await read_attachment(file, SETTINGS_FILE_LIMIT)
        await self.save_points(interaction, found.id, data)

    async def points_submitted(
        self, interaction: discord.Interaction[Any], values: dict[str, str], series: int
    ) -> None:
        await self.save_points(interaction, series, values.get(POINTS_FIELD, ""))

    async def save_points(
        self, interaction: discord.Interaction[Any], series: int, text: str | bytes
    ) -> None:
        lang = interaction_lang(interaction)
        updated = await self.services.series.set_points(actor_of(interaction), series, text)
        table = points_table_text(updated.table)
        await reply(
            interaction,
            t("ui.series.points_saved", lang, series=safe(updated.name), table=table),
        )

    @app_commands.command(name="standings", description="Show a series' standings")
    @app_commands.describe(
        series=SERIES, public="Show them to everyone in the channel (default: only to you)"
    )
    @app_commands.autocomplete(series=series_autocomplete)
    async def standings(
        self, interaction: discord.Interaction, series: str | None = None, public: bool = False
    ) -> None:
        lang = await guild_lang(interaction) if public else interaction_lang(interaction)
        await interaction.response.defer(ephemeral=not public, thinking=True)
        view = await self.services.series.standings(interaction.guild_id, series)
        arg = f"{view.series.id}.{lang}"
        page = series_page(view, lang, 0)
        await reply(
            interaction,
            embed=page.embed,
            view=page_view("series", arg, page),
            ephemeral=not public,
        )

    async def render_page(self, interaction: discord.Interaction[Any], arg: str, page: int) -> Page:
        series_id, lang = page_id_arg(arg)
        view = await self.services.series.standings(interaction.guild_id, series_id)
        return series_page(view, lang, page)


def membership_text(key: str, change: SeriesChange, lang: Lang) -> str:
    """/series add and remove's answer: the tournament, the series and its event count."""
    return t(
        key,
        lang,
        tournament=safe(change.tournament.name),
        series=safe(change.series.name),
        count=len(change.series.event_ids),
    )


async def setup(bot: TournamentBot) -> None:
    await bot.add_cog(SeriesCog(bot))

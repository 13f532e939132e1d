"""/series create, add, remove, points and standings: an organizer groups the
server's tournaments into a series (a season, a league); anyone reads its standings.

The same by buttons: the panel's シリーズ opens the series menu of its tournament (a select
to add it to a series, one to take it out, a form for a new series it joins), and ポイント表
(on that menu and under the standings) opens the points form.

Thin adapters: who may change a series, its rules and its standings are the services' and
the domain's; the page buttons, the menu and the forms survive a restart (their ids carry
the tournament or the series, the menu's options the series)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Lang, t
from bot.services.series import SeriesChange, SeriesRef
from bot.ui.buttons import (
    POINTS_BUTTON,
    POINTS_FIELD,
    POINTS_FORM,
    SERIES_ADD,
    SERIES_FORM,
    SERIES_NAME_FIELD,
    SERIES_NEW,
    SERIES_REMOVE,
    CustomId,
    carried_number,
    points_form,
    series_form,
)
from bot.ui.messages import acknowledge, interaction_lang, reply
from bot.ui.options import TOURNAMENT
from bot.ui.pagination import Page, PageRenderer, page_id_arg, page_view
from bot.ui.render import safe
from bot.ui.routing import ButtonHandler
from bot.ui.series import points_table_text, series_page
from bot.ui.stateless import ModalHandler, send_stateless_modal
from cogs.common import (
    SETTINGS_FILE_LIMIT,
    Host,
    RoutedCog,
    actor_of,
    bot_of,
    guild_lang,
    read_attachment,
    tournament_autocomplete,
)
from cogs.event_steps import show_series_menu
from domain.errors import IllegalTransition

SERIES = "Series (optional when the server has only one)"


async def series_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    found = await bot_of(interaction).services.series.autocomplete(interaction.guild_id, current)
    return [app_commands.Choice(name=label, value=value) for label, value in found]


@app_commands.guild_only()
class SeriesCog(
    RoutedCog,
    commands.GroupCog,
    group_name="series",
    group_description="Series: seasons and leagues of several tournaments",
):
    def buttons(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        return [(SERIES_NEW, self.new_pressed), (POINTS_BUTTON, self.points_pressed)]

    def selects(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        return [(SERIES_ADD, self.add_chosen), (SERIES_REMOVE, self.remove_chosen)]

    def forms(self) -> Iterable[tuple[CustomId, ModalHandler]]:
        return [(POINTS_FORM, self.points_submitted), (SERIES_FORM, self.new_submitted)]

    def pages(self) -> Mapping[str, PageRenderer]:
        return {"series": self.render_page}

    @app_commands.command(name="create", description="Create a series (organizers)")
    @app_commands.describe(name="Series name, e.g. 2026 winter league")
    async def create(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100]
    ) -> None:
        lang = interaction_lang(interaction)
        series = await self.services.series.create(actor_of(interaction), name)
        table = points_table_text(series.table)
        await reply(interaction, t("ui.series.created", lang, name=safe(series.name), table=table))

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
        if file is None:
            await self.open_points_form(interaction, series)
            return
        actor = actor_of(interaction)
        await self.services.series.may_change(actor)
        found = await self.services.series.points_of(actor, series)
        await acknowledge(interaction)
        data = await read_attachment(file, SETTINGS_FILE_LIMIT)
        await self.save_points(interaction, found.id, data)

    async def points_pressed(self, interaction: discord.Interaction[Any], series: int) -> None:
        """ポイント表, on the series menu or under the standings."""
        await self.open_points_form(interaction, series)

    async def open_points_form(
        self, interaction: discord.Interaction[Any], series: SeriesRef
    ) -> None:
        """The points form, filled with the table as it is (organizers: refused before it
        opens to anyone else)."""
        actor = actor_of(interaction)
        await self.services.series.may_change(actor)
        found = await self.services.series.points_of(actor, series)
        form = points_form(found.id, points_table_text(found.table), interaction_lang(interaction))
        await send_stateless_modal(interaction, form)

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

    async def add_chosen(
        self, interaction: discord.Interaction[Any], values: list[str], tournament: int
    ) -> None:
        """The series menu's シリーズに追加: the tournament joins the series chosen."""
        actor, series = actor_of(interaction, updates_message=True), chosen_series(values)
        change = await self.services.series.add(actor, series, tournament)
        said = membership_text("ui.series.added", change, interaction_lang(interaction))
        await show_series_menu(self.services, interaction, tournament, said=said)

    async def remove_chosen(
        self, interaction: discord.Interaction[Any], values: list[str], tournament: int
    ) -> None:
        """The series menu's シリーズから外す."""
        actor, series = actor_of(interaction, updates_message=True), chosen_series(values)
        change = await self.services.series.remove(actor, series, tournament)
        said = membership_text("ui.series.removed", change, interaction_lang(interaction))
        await show_series_menu(self.services, interaction, tournament, said=said)

    async def new_pressed(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        """新しいシリーズ…: its name in a form (organizers: refused before it opens)."""
        overview = await self.services.series.overview(actor_of(interaction), tournament)
        form = series_form(
            overview.tournament.id, overview.tournament.name, interaction_lang(interaction)
        )
        await send_stateless_modal(interaction, form)

    async def new_submitted(
        self, interaction: discord.Interaction[Any], values: dict[str, str], tournament: int
    ) -> None:
        """The new series, made with the tournament whose menu it came from in it."""
        name = values.get(SERIES_NAME_FIELD, "")
        actor = actor_of(interaction, updates_message=True)  # the menu it came from
        change = await self.services.series.create_with(actor, name, tournament)
        lang = interaction_lang(interaction)
        said = t(
            "ui.series.created_with",
            lang,
            series=safe(change.series.name),
            tournament=safe(change.tournament.name),
            table=points_table_text(change.series.table),
        )
        await show_series_menu(self.services, interaction, tournament, said=said)

    @app_commands.command(name="standings", description="Show a series' standings")
    @app_commands.describe(
        series=SERIES, public="Show them to everyone in the channel (default: only to you)"
    )
    @app_commands.autocomplete(series=series_autocomplete)
    async def standings(
        self, interaction: discord.Interaction, series: str | None = None, public: bool = False
    ) -> None:
        lang = await guild_lang(interaction) if public else interaction_lang(interaction)
        await acknowledge(interaction, private=not public)
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


def chosen_series(values: list[str]) -> int:
    """The series a menu's option carries: one id in range, else the menu is out of date."""
    number = carried_number(values[0]) if len(values) == 1 else None
    if number is None:
        raise IllegalTransition("errors.stale_button")
    return number


async def setup(bot: Host) -> None:
    await bot.add_cog(SeriesCog(bot))

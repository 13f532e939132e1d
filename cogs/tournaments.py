"""/tournament create, info, list, settings, start, page, rooms, cancel, import, finish, export
and panel.

Thin adapters: each command builds the actor, calls one service and answers the person who
acted. What others are told (the registration post, the start's announcement, the final
standings) is the notifier's plan (bot/notify/plan.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import normalise_locale, t
from bot.services.live import public_url
from bot.ui.buttons import ROOMS_FIT, START, CustomId
from bot.ui.messages import acknowledge, edit_answer, fit_or_attach, interaction_lang, reply
from bot.ui.options import (
    TOURNAMENT,
    CheckinMinutes,
    LateRounds,
    MixTwoMinimum,
    NoShowMinutes,
    PlayerLimit,
    RoomTables,
    SwissRounds,
    TimeLimit,
    TopCutSize,
)
from bot.ui.pagination import Page, PageRenderer, page_view
from bot.ui.render import (
    rooms_chosen_reply,
    rooms_reply,
    safe,
    start_reply,
    tournament_embed,
    tournament_list_page,
)
from bot.ui.routing import ButtonHandler
from cogs.common import (
    SETTINGS_FILE_LIMIT,
    Host,
    RoutedCog,
    actor_of,
    bot_permissions,
    costly_command,
    free_channels,
    offering_fewer_rooms,
    read_attachment,
    tournament_autocomplete,
)
from cogs.event_steps import (
    finish_event,
    import_entries,
    renew_page,
    send_export,
    show_start_preview,
)
from domain.event import DEFAULT_TIME_LIMIT_MINUTES, TOP_CUT_SIZES

FORMATS = [
    app_commands.Choice(name="Swiss", value="swiss"),
    app_commands.Choice(name="Single elimination", value="elimination"),
    app_commands.Choice(name="Swiss with top cut", value="swiss_top_cut"),
]
REGULATIONS = [
    app_commands.Choice(name="Mix", value="mix"),
    app_commands.Choice(name="Single", value="single"),
    app_commands.Choice(name="MIX-Two limited", value="mix_two"),
    app_commands.Choice(name="Release event", value="event"),
]
MISSING_DECK_POLICIES = [
    app_commands.Choice(name="Drop players without a legal deck", value="drop"),
    app_commands.Choice(name="Start anyway", value="start_anyway"),
]
PAGE_STATES = [
    app_commands.Choice(name="on: make it public", value="on"),
    app_commands.Choice(name="off: hide it", value="off"),
    app_commands.Choice(name="new: a new address (the old one stops working)", value="new"),
]
REPEATS = [
    app_commands.Choice(name="no repeat", value="none"),
    app_commands.Choice(name="weekly", value="weekly"),
    app_commands.Choice(name="every other week", value="biweekly"),
]
NOSHOW_TIEBREAKS = [
    app_commands.Choice(name="the absent player's real points", value="real_points"),
    app_commands.Choice(name="like a bye: 3 × rounds ÷ 2", value="bye_value"),
]
ROOM_SPECTATORS = [
    app_commands.Choice(name="listen and watch only (default)", value="listen"),
    app_commands.Choice(name="not shown the rooms", value="hidden"),
]
TOP_CUTS = ", ".join(map(str, TOP_CUT_SIZES))


@app_commands.guild_only()
class Tournaments(
    RoutedCog,
    commands.GroupCog,
    group_name="tournament",
    group_description="Create and run tournaments",
):
    def buttons(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        return [(START, self.start_pressed), (ROOMS_FIT, self.rooms_chosen)]

    def pages(self) -> Mapping[str, PageRenderer]:
        return {"tournaments": self.render_list_page}

    @app_commands.command(name="create", description="Create a tournament and announce it")
    @app_commands.describe(
        name="Tournament name (with copy: the next number, e.g. #13 → #14)",
        copy="Copy this tournament's settings, restricted list and format",
        format="Swiss, single elimination, or Swiss with a top cut",
        regulation="Deck regulation",
        rounds="Swiss rounds (default: from the number of players)",
        top_cut=f"Top cut size for swiss_top_cut: {TOP_CUTS}",
        time_limit=f"Minutes per match (default {DEFAULT_TIME_LIMIT_MINUTES})",
        titles="Allowed titles for Single or release events, comma-separated",
        max_players="Player limit; later registrations go to a waitlist",
        date="Event date, e.g. 2026/12/24 (default: today); decides which restricted list applies",
    )
    @app_commands.choices(format=FORMATS, regulation=REGULATIONS)
    @app_commands.autocomplete(copy=tournament_autocomplete)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100] | None = None,
        format: app_commands.Choice[str] | None = None,
        regulation: app_commands.Choice[str] | None = None,
        copy: str | None = None,
        rounds: SwissRounds | None = None,
        top_cut: TopCutSize | None = None,
        time_limit: TimeLimit | None = None,
        titles: str | None = None,
        max_players: PlayerLimit | None = None,
        date: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        summary = await self.services.tournaments.create(
            actor_of(interaction),
            name=name,
            format=format.value if format else None,
            regulation=regulation.value if regulation else None,
            rounds=rounds,
            top_cut=top_cut,
            time_limit=time_limit,
            titles=titles,
            max_players=max_players,
            event_date=date,
            copy=copy,
        )
        tournament = summary.tournament
        text = t("ui.tournament.created", lang, name=safe(tournament.name), id=tournament.id)
        if summary.copied_from is not None:
            text += "\n" + t("ui.tournament.copied", lang, source=safe(summary.copied_from.name))
        await reply(interaction, text, embed=tournament_embed(summary, lang))

    @app_commands.command(name="info", description="Show a tournament")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def info(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        summary = await self.services.tournaments.info(actor_of(interaction), tournament)
        await reply(interaction, embed=tournament_embed(summary, lang))

    @app_commands.command(name="list", description="List this server's tournaments")
    async def list(self, interaction: discord.Interaction) -> None:
        lang = interaction_lang(interaction)
        page = await self.render_list_page(interaction, lang, 0)
        await reply(interaction, embed=page.embed, view=page_view("tournaments", lang, page))

    async def render_list_page(
        self, interaction: discord.Interaction[Any], arg: str, page: int
    ) -> Page:
        tournaments = await self.services.tournaments.overview(actor_of(interaction))
        return tournament_list_page(tournaments, normalise_locale(arg), page)

    @app_commands.command(
        name="settings", description="Change a tournament's settings (organizers)"
    )
    @app_commands.describe(
        tournament=TOURNAMENT,
        restricted_list="Restricted-card list (TOML)",
        titles_file="Titles and the logos each admits (TOML)",
        card_database="Card list CSV: title,number,name,type,release_date",
        late_registration="Allow registration up to this round (0 = no late registration)",
        decklist_required="Whether players must submit a legal decklist",
        missing_deck="At the start: drop players without a legal deck, or start anyway",
        starts_at="Start, Japan time: 2026/12/24 13:00, 今日 21時, 21:00 (for check-in)",
        checkin_minutes="Check-in opens this many minutes before the start (0 = off)",
        mix_two_minimum="MIX-Two limited: minimum cards of each title (default 15)",
        ex_deck="Allow an EX deck of up to 15 cards beside the 60-card deck (default: no)",
        ex_copies_shared="Count the 4-copy limit across the main and EX decks (default: yes)",
        noshow_minutes="A no-show (R-MATCH-6) can be recorded this many minutes into a round",
        noshow_tiebreak="A win against an absent player counts their real points or a bye's",
        repeat="At the finish, create the next event a week or two later (default: no)",
        reminders="DM registered players 24 hours and 1 hour before the start (default: yes)",
    )
    @app_commands.choices(noshow_tiebreak=NOSHOW_TIEBREAKS, repeat=REPEATS)
    @app_commands.choices(missing_deck=MISSING_DECK_POLICIES)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def settings(
        self,
        interaction: discord.Interaction,
        tournament: str | None = None,
        restricted_list: discord.Attachment | None = None,
        titles_file: discord.Attachment | None = None,
        card_database: discord.Attachment | None = None,
        late_registration: LateRounds | None = None,
        decklist_required: bool | None = None,
        missing_deck: app_commands.Choice[str] | None = None,
        starts_at: str | None = None,
        checkin_minutes: CheckinMinutes | None = None,
        mix_two_minimum: MixTwoMinimum | None = None,
        ex_deck: bool | None = None,
        ex_copies_shared: bool | None = None,
        noshow_minutes: NoShowMinutes | None = None,
        noshow_tiebreak: app_commands.Choice[str] | None = None,
        repeat: app_commands.Choice[str] | None = None,
        reminders: bool | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        await acknowledge(interaction)
        services = self.services.tournaments
        if restricted_list or titles_file or card_database:
            await services.may_change_settings(actor_of(interaction))

        async def upload(attachment: discord.Attachment | None) -> tuple[str, bytes] | None:
            if attachment is None:
                return None
            return attachment.filename, await read_attachment(attachment, SETTINGS_FILE_LIMIT)

        summary = await services.update_settings(
            actor_of(interaction),
            tournament,
            late_registration_rounds=late_registration,
            decklist_required=decklist_required,
            missing_deck_policy=missing_deck.value if missing_deck else None,
            starts_at=starts_at,
            checkin_minutes=checkin_minutes,
            mix_two_minimum=mix_two_minimum,
            ex_deck=ex_deck,
            ex_copies_shared=ex_copies_shared,
            noshow_minutes=noshow_minutes,
            noshow_tiebreak=noshow_tiebreak.value if noshow_tiebreak else None,
            repeat=repeat.value if repeat else None,
            reminders=reminders,
            restricted_list=await upload(restricted_list),
            titles_file=await upload(titles_file),
            card_database=await upload(card_database),
        )
        await reply(
            interaction,
            t("ui.tournament.settings_saved", lang, name=safe(summary.tournament.name)),
            embed=tournament_embed(summary, lang),
        )

    @app_commands.command(
        name="start", description="Close registration, lock decks and start (organizers)"
    )
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def start(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        """Shows what the start would do, with Start / Cancel buttons; changes nothing."""
        await show_start_preview(self.services, interaction, tournament)

    async def start_pressed(
        self, interaction: discord.Interaction[Any], choice: str, tournament: int
    ) -> None:
        """The preview's 開始する / やめる: the real start (organizers only; the service
        decides), or nothing."""
        lang = interaction_lang(interaction)
        if choice == "no":
            summary = await self.services.tournaments.info(actor_of(interaction), tournament)
            await edit_answer(
                interaction,
                content=t("ui.start_preview.cancelled", lang, name=safe(summary.tournament.name)),
                attachments=[],
                view=None,
            )
            return
        await acknowledge(interaction, update=True)
        async with offering_fewer_rooms(interaction):
            report = await self.services.lifecycle.start(
                actor_of(interaction), tournament, free_channels=free_channels(interaction)
            )
            content, file = fit_or_attach(start_reply(report, lang), "start.txt", lang)
            await edit_answer(
                interaction, content=content, attachments=[file] if file else [], view=None
            )

    @app_commands.command(
        name="page", description="Show or hide the tournament's live web page (organizers)"
    )
    @app_commands.describe(
        state="on: public at an unguessable address; off: hidden; new: a new address",
        tournament="Tournament (optional when only one is open)",
    )
    @app_commands.choices(state=PAGE_STATES)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def page(
        self,
        interaction: discord.Interaction,
        state: app_commands.Choice[str],
        tournament: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        if state.value == "new":
            await renew_page(self.bot.services, interaction, tournament)
            return
        public = state.value == "on"
        switch = await self.bot.services.tournaments.set_page(
            actor_of(interaction), tournament, public
        )
        found = switch.tournament
        settings = self.bot.settings
        url = public_url(found, settings.web_public_url)
        if not public:
            key = "web.reply.off" if switch.changed else "web.reply.already_off"
        elif url is None:
            key = "web.reply.on_no_server"
        elif settings.web_players_url is None:  # a link only this PC opens: not for players
            key = "web.reply.on_only_here"
        else:
            key = "web.reply.on" if switch.changed else "web.reply.already_on"
        await reply(interaction, t(key, lang, name=safe(found.name), url=url or ""))

    @app_commands.command(
        name="rooms", description="A voice room per table each round, made by the bot (organizers)"
    )
    @app_commands.describe(
        enabled="Make a room per table (needs Manage Channels and Manage Roles)",
        spectators="What everyone but the table's players and the staff may do in the rooms",
        tables="Rooms for tables 1 to N only, where channels run short (0: every table)",
        tournament=TOURNAMENT,
    )
    @app_commands.choices(spectators=ROOM_SPECTATORS)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def rooms(
        self,
        interaction: discord.Interaction,
        enabled: bool,
        spectators: app_commands.Choice[str] | None = None,
        tables: RoomTables | None = None,
        tournament: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        async with offering_fewer_rooms(interaction):
            updated = await self.services.tournaments.set_rooms(
                actor_of(interaction),
                tournament,
                on=enabled,
                spectators=spectators.value if spectators else None,
                limit=tables,
                granted=bot_permissions(interaction),
                free_channels=free_channels(interaction),
            )
            await reply(interaction, rooms_reply(updated, lang))

    async def rooms_chosen(
        self, interaction: discord.Interaction[Any], tournament: int, tables: int
    ) -> None:
        """A choice offered where the rooms would not fit: rooms for tables 1 to `tables`
        only, or (0) no rooms; then the organizer takes their step again."""
        lang = interaction_lang(interaction)
        async with offering_fewer_rooms(interaction):
            updated = await self.services.tournaments.set_rooms(
                actor_of(interaction),
                tournament,
                on=tables > 0,
                limit=tables or None,
                granted=bot_permissions(interaction),
                free_channels=free_channels(interaction),
            )
            await reply(interaction, rooms_chosen_reply(updated, lang))

    @app_commands.command(
        name="cancel", description="Call off a tournament that has not started (organizers)"
    )
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def cancel(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        cancelled = await self.services.tournaments.cancel(actor_of(interaction), tournament)
        await reply(interaction, t("ui.cancel.reply", lang, name=safe(cancelled.name)))

    @app_commands.command(
        name="import", description="Register players from a CSV of entries (organizers)"
    )
    @app_commands.describe(
        file="CSV: Discord IDs or names, optionally a handle (a form's export works)",
        tournament=TOURNAMENT,
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @costly_command
    async def import_(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        tournament: str | None = None,
    ) -> None:
        await import_entries(self.services, interaction, tournament, file)

    @app_commands.command(
        name="finish", description="End the tournament and post the final standings (organizers)"
    )
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def finish(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        await finish_event(self.services, interaction, tournament)

    @app_commands.command(
        name="export", description="Standings as CSV and the tournament record as JSON"
    )
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @costly_command
    async def export(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        await send_export(self.services, interaction, tournament)

    @app_commands.command(
        name="panel", description="Post the organizer panel here: the state and the next steps"
    )
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def panel(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        await self.services.tournaments.post_panel(actor_of(interaction), tournament)
        await reply(interaction, t("ui.panel.posted", lang))


async def setup(bot: Host) -> None:
    await bot.add_cog(Tournaments(bot))

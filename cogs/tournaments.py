"""/tournament create, info, list, settings and start."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TournamentBot
from bot.i18n import Lang, normalise_locale, t
from bot.services.live import public_url
from bot.ui.entry import start_preview_text
from bot.ui.messages import fit_or_attach, interaction_lang
from bot.ui.pagination import Page, page_of, page_view
from bot.ui.render import rounds_text, safe, tournament_embed
from bot.ui.rounds import final_standings_embeds, standing_rows
from bot.ui.standings import standings_csv
from cogs.common import (
    SETTINGS_FILE_LIMIT,
    IdButton,
    actor_of,
    answering_errors,
    button,
    costly_command,
    guild_lang,
    post,
    read_attachment,
    tournament_autocomplete,
)

LIST_PER_PAGE = 15

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
]
NOSHOW_TIEBREAKS = [
    app_commands.Choice(name="the absent player's real points", value="real_points"),
    app_commands.Choice(name="like a bye: 3 × rounds ÷ 2", value="bye_value"),
]


class StartButton(IdButton, template=r"ts:(?P<choice>go|no):(?P<tournament>\d+)"):
    """開始する / やめる under the start preview; the id says which tournament."""

    def __init__(self, choice: str, tournament: int, lang: Lang = "ja") -> None:
        go = choice == "go"
        label = t(f"ui.start_preview.{'start' if go else 'cancel'}_button", lang)
        style = discord.ButtonStyle.danger if go else discord.ButtonStyle.secondary
        super().__init__(button(f"ts:{choice}:{tournament}", label, style))
        self.choice, self.tournament_id = choice, tournament

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog: Tournaments | None = interaction.client.get_cog("Tournaments")
        assert cog is not None
        if self.choice == "go":
            await cog.confirm_start(interaction, self.tournament_id)
        else:
            await cog.cancel_start(interaction, self.tournament_id)


def start_view(tournament_id: int, lang: Lang) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(StartButton("go", tournament_id, lang))
    view.add_item(StartButton("no", tournament_id, lang))
    return view


@app_commands.guild_only()
class Tournaments(
    commands.GroupCog, group_name="tournament", group_description="Create and run tournaments"
):
    def __init__(self, bot: TournamentBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.page_renderers["tournaments"] = self.render_list_page
        self.bot.add_dynamic_items(StartButton)

    @app_commands.command(name="create", description="Create a tournament and announce it")
    @app_commands.describe(
        name="Tournament name",
        format="Swiss, single elimination, or Swiss with a top cut",
        regulation="Deck regulation",
        rounds="Swiss rounds (default: from the number of players)",
        top_cut="Top cut size for swiss_top_cut: 4, 8 or 16",
        time_limit="Minutes per match (default 40)",
        titles="Allowed titles for Single or release events, comma-separated",
        max_players="Player limit; later registrations go to a waitlist",
        date="Event date, e.g. 2026/12/24 (default: today); decides which restricted list applies",
    )
    @app_commands.choices(format=FORMATS, regulation=REGULATIONS)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        format: app_commands.Choice[str],
        regulation: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, 30] | None = None,
        top_cut: app_commands.Range[int, 4, 16] | None = None,
        time_limit: app_commands.Range[int, 5, 180] | None = None,
        titles: str | None = None,
        max_players: app_commands.Range[int, 2, 4096] | None = None,
        date: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        summary = await self.bot.services.tournaments.create(
            actor_of(interaction),
            name=name,
            format=format.value,
            regulation=regulation.value,
            rounds=rounds,
            top_cut=top_cut,
            time_limit=time_limit,
            titles=titles,
            max_players=max_players,
            event_date=date,
        )
        tournament = summary.tournament
        await interaction.response.send_message(
            t("ui.tournament.created", lang, name=safe(tournament.name), id=tournament.id),
            embed=tournament_embed(summary, lang),
            ephemeral=True,
        )
        # R-FMT-6: the format and the time limit are announced before the event, on a post
        # whose buttons are all a player needs to take part.
        entry = self.bot.get_cog("Entry")
        assert entry is not None
        await entry.post(  # type: ignore[attr-defined]
            tournament,
            summary.config.announcements_channel_id or interaction.channel_id,
            await guild_lang(interaction),
        )

    @app_commands.command(name="info", description="Show a tournament")
    @app_commands.describe(tournament="Tournament (optional when only one is open)")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def info(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        summary = await self.bot.services.tournaments.info(actor_of(interaction), tournament)
        await interaction.response.send_message(
            embed=tournament_embed(summary, lang), ephemeral=True
        )

    @app_commands.command(name="list", description="List this server's tournaments")
    async def list(self, interaction: discord.Interaction) -> None:
        lang = interaction_lang(interaction)
        page = await self.render_list_page(interaction, lang, 0)
        view = page_view("tournaments", lang, page)
        if view is None:
            await interaction.response.send_message(embed=page.embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=page.embed, view=view, ephemeral=True)

    async def render_list_page(
        self, interaction: discord.Interaction[Any], arg: str, page: int
    ) -> Page:
        lang = normalise_locale(arg)
        tournaments = await self.bot.services.tournaments.overview(actor_of(interaction))
        lines = [
            t(
                "ui.tournament.list_line",
                lang,
                name=safe(item.name),
                id=item.id,
                state=t(f"ui.state.{item.phase.value}", lang),
                format=t(f"ui.format.{item.format.value}", lang),
                regulation=t(f"ui.regulation.{item.regulation}", lang),
            )
            for item in tournaments
        ] or [t("ui.tournament.list_empty", lang)]
        chunk, index, count = page_of(lines, LIST_PER_PAGE, page)
        embed = discord.Embed(
            title=t("ui.tournament.list_title", lang), description="\n".join(chunk)
        )
        embed.set_footer(text=t("ui.tournament.list_footer", lang, page=index + 1, pages=count))
        return Page(embed, index, count)

    @app_commands.command(
        name="settings", description="Change a tournament's settings (organizers)"
    )
    @app_commands.describe(
        tournament="Tournament (optional when only one is open)",
        restricted_list="Restricted-card list (TOML)",
        titles_file="Titles and the logos each admits (TOML)",
        card_database="Card list CSV: title,number,name,type,release_date",
        late_registration="Allow registration up to this round (0 = no late registration)",
        decklist_required="Whether players must submit a legal decklist",
        missing_deck="At the start: drop players without a legal deck, or start anyway",
        starts_at="Scheduled start, e.g. 2026/12/24 13:00 Japan time (for check-in)",
        checkin_minutes="Check-in opens this many minutes before the start (0 = off)",
        mix_two_minimum="MIX-Two limited: minimum cards of each title (default 15)",
        ex_deck="Allow an EX deck of up to 15 cards beside the 60-card deck (default: no)",
        ex_copies_shared="Count the 4-copy limit across the main and EX decks (default: yes)",
        noshow_minutes="A no-show (R-MATCH-6) can be recorded this many minutes into a round",
        noshow_tiebreak="A win against an absent player counts their real points or a bye's",
    )
    @app_commands.choices(noshow_tiebreak=NOSHOW_TIEBREAKS)
    @app_commands.choices(missing_deck=MISSING_DECK_POLICIES)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def settings(
        self,
        interaction: discord.Interaction,
        tournament: str | None = None,
        restricted_list: discord.Attachment | None = None,
        titles_file: discord.Attachment | None = None,
        card_database: discord.Attachment | None = None,
        late_registration: app_commands.Range[int, 0, 30] | None = None,
        decklist_required: bool | None = None,
        missing_deck: app_commands.Choice[str] | None = None,
        starts_at: str | None = None,
        checkin_minutes: app_commands.Range[int, 0, 1440] | None = None,
        mix_two_minimum: app_commands.Range[int, 1, 30] | None = None,
        ex_deck: bool | None = None,
        ex_copies_shared: bool | None = None,
        noshow_minutes: app_commands.Range[int, 0, 60] | None = None,
        noshow_tiebreak: app_commands.Choice[str] | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        services = self.bot.services.tournaments
        if restricted_list or titles_file or card_database:
            await services.may_change_settings(actor_of(interaction))

        async def upload(attachment: discord.Attachment | None) -> tuple[str, bytes] | None:
            if attachment is None:
                return None
            return attachment.filename, await read_attachment(attachment, SETTINGS_FILE_LIMIT)

        updated = await services.update_settings(
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
            restricted_list=await upload(restricted_list),
            titles_file=await upload(titles_file),
            card_database=await upload(card_database),
        )
        summary = await self.bot.services.tournaments.info(actor_of(interaction), str(updated.id))
        await interaction.followup.send(
            t("ui.tournament.settings_saved", lang, name=safe(updated.name)),
            embed=tournament_embed(summary, lang),
            ephemeral=True,
        )

    @app_commands.command(
        name="start", description="Close registration, lock decks and start (organizers)"
    )
    @app_commands.describe(tournament="Tournament (optional when only one is open)")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def start(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        """Shows what the start would do, with Start / Cancel buttons; changes nothing."""
        lang = interaction_lang(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        preview = await self.bot.services.lifecycle.preview(actor_of(interaction), tournament)
        content, file = fit_or_attach(start_preview_text(preview, lang), "start.txt", lang)
        view = start_view(preview.tournament.id, lang)
        if file is None:
            await interaction.followup.send(content, view=view, ephemeral=True)
        else:
            await interaction.followup.send(content, file=file, view=view, ephemeral=True)

    async def confirm_start(
        self, interaction: discord.Interaction[Any], tournament_id: int
    ) -> None:
        """The preview's Start button: the real start (organizers only; the service decides)."""
        lang = interaction_lang(interaction)
        await interaction.response.defer()
        report = await self.bot.services.lifecycle.start(actor_of(interaction), str(tournament_id))
        started = report.tournament
        lines = [
            t(
                "ui.start.reply",
                lang,
                name=safe(started.name),
                players=len(report.players),
                seed=started.seed,
            )
        ]
        for key, players in (
            ("ui.start.without_deck", report.without_deck),
            ("ui.start.not_checked_in", report.not_checked_in),
            ("ui.start.dropped", report.dropped),
        ):
            if players:
                lines.append(t(key, lang, names=[safe(p.display_name) for p in players]))
        content, file = fit_or_attach("\n".join(lines), "start.txt", lang)
        await interaction.edit_original_response(
            content=content, attachments=[file] if file else [], view=None
        )
        config = await self.bot.services.guilds.config(started.guild_id)
        channel_lang = await guild_lang(interaction)
        await post(
            self.bot,
            config.announcements_channel_id or interaction.channel_id,
            t(
                "ui.announce.started",
                channel_lang,
                name=safe(started.name),
                players=len(report.players),
                rounds=rounds_text(started, channel_lang),
            ),
        )

    async def cancel_start(self, interaction: discord.Interaction[Any], tournament_id: int) -> None:
        lang = interaction_lang(interaction)
        summary = await self.bot.services.tournaments.info(
            actor_of(interaction), str(tournament_id)
        )
        await interaction.response.edit_message(
            content=t("ui.start_preview.cancelled", lang, name=safe(summary.tournament.name)),
            attachments=[],
            view=None,
        )

    @app_commands.command(
        name="page", description="Show or hide the tournament's live web page (organizers)"
    )
    @app_commands.describe(
        state="on: public at an unguessable address; off: hidden",
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
        public = state.value == "on"
        switch = await self.bot.services.tournaments.set_page(
            actor_of(interaction), tournament, public
        )
        found = switch.tournament
        url = public_url(found, self.bot.settings.web_public_url)
        if not public:
            key = "web.reply.off" if switch.changed else "web.reply.already_off"
        elif url is None:
            key = "web.reply.on_no_server"
        else:
            key = "web.reply.on" if switch.changed else "web.reply.already_on"
        await interaction.response.send_message(
            t(key, lang, name=safe(found.name), url=url or ""), ephemeral=True
        )

    @app_commands.command(
        name="finish", description="End the tournament and post the final standings (organizers)"
    )
    @app_commands.describe(tournament="Tournament (optional when only one is open)")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def finish(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        final = await self.bot.services.rounds.finish(actor_of(interaction), tournament)
        await interaction.followup.send(
            t("ui.finish.reply", lang, tournament=safe(final.tournament.name)), ephemeral=True
        )
        config = await self.bot.services.guilds.config(final.tournament.guild_id)
        channel_lang = await guild_lang(interaction)
        for embed in final_standings_embeds(final, channel_lang):
            await post(
                self.bot,
                config.standings_channel_id
                or config.announcements_channel_id
                or interaction.channel_id,
                embed=embed,
            )

    @app_commands.command(
        name="export", description="Standings as CSV and the tournament record as JSON"
    )
    @app_commands.describe(tournament="Tournament (optional when only one is open)")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @costly_command
    async def export(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        standings, record = await self.bot.services.rounds.export(actor_of(interaction), tournament)
        found = standings.tournament
        table = standings_csv(standing_rows(standings.lines), lang)
        stem = f"tournament-{found.id}"
        await interaction.followup.send(
            t("ui.export.reply", lang, tournament=safe(found.name)),
            files=[
                discord.File(io.BytesIO(table), filename=f"{stem}-standings.csv"),
                discord.File(io.BytesIO(record), filename=f"{stem}.json"),
            ],
            ephemeral=True,
        )


async def setup(bot: TournamentBot) -> None:
    await bot.add_cog(Tournaments(bot))

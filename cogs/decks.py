"""/deck submit, check, show and publish."""

from __future__ import annotations

import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TournamentBot
from bot.i18n import t
from bot.ui.messages import interaction_lang
from bot.ui.render import DECK_FIELD, deck_embed, paste_box, safe, send_deck_report
from bot.ui.stateless import send_stateless_modal
from cogs.common import (
    actor_of,
    costly_command,
    guild_lang,
    post,
    read_attachment,
    tournament_autocomplete,
)
from domain.decks import MAX_BYTES


@app_commands.guild_only()
class Decks(commands.GroupCog, group_name="deck", group_description="Decklists"):
    def __init__(self, bot: TournamentBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.modal_routes.add(r"en:(?P<kind>box|cbox):(?P<tournament>\d+)", self._pasted)

    async def open_paste_box(
        self, interaction: discord.Interaction[Any], reference: str | None, *, store: bool
    ) -> None:
        """Ask for the list; for a submission, refuse first if it could not be stored."""
        actor = actor_of(interaction)
        if store:
            tournament = await self.bot.services.decks.may_submit(actor, reference)
        else:
            tournament = (await self.bot.services.tournaments.info(actor, reference)).tournament
        await send_stateless_modal(
            interaction, paste_box(tournament.id, store, interaction_lang(interaction))
        )

    async def _pasted(
        self, interaction: discord.Interaction[Any], match: re.Match[str], values: dict[str, str]
    ) -> None:
        decks = self.bot.services.decks
        action = decks.submit if match["kind"] == "box" else decks.check
        text = values.get(DECK_FIELD, "")
        submission = await action(actor_of(interaction), match["tournament"], text, None)
        await send_deck_report(interaction, submission, interaction_lang(interaction))

    async def _read_or_ask(
        self,
        interaction: discord.Interaction,
        tournament: str | None,
        file: discord.Attachment | None,
        store: bool,
    ) -> None:
        lang = interaction_lang(interaction)
        if file is None:
            await self.open_paste_box(interaction, tournament, store=store)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await read_attachment(file, MAX_BYTES)
        decks = self.bot.services.decks
        action = decks.submit if store else decks.check
        submission = await action(actor_of(interaction), tournament, data, file.filename)
        await send_deck_report(interaction, submission, lang)

    @app_commands.command(name="submit", description="Submit your decklist (a file, or paste it)")
    @app_commands.describe(
        tournament="Tournament (optional when only one is open)",
        file="Decklist file (.txt or .csv); leave out to paste the list",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @costly_command
    async def submit(
        self,
        interaction: discord.Interaction,
        tournament: str | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        await self._read_or_ask(interaction, tournament, file, store=True)

    @app_commands.command(
        name="check", description="Check a decklist against the rules without submitting it"
    )
    @app_commands.describe(
        tournament="Tournament whose rules to check against (optional when only one is open)",
        file="Decklist file (.txt or .csv); leave out to paste the list",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @costly_command
    async def check(
        self,
        interaction: discord.Interaction,
        tournament: str | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        await self._read_or_ask(interaction, tournament, file, store=False)

    @app_commands.command(name="show", description="Show your decklist (judges: anyone's)")
    @app_commands.describe(
        tournament="Tournament (optional when only one is open)",
        player="Whose list (judges and organizers, or anyone once published)",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def show(
        self,
        interaction: discord.Interaction,
        tournament: str | None = None,
        player: discord.User | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        view = await self.bot.services.decks.show(
            actor_of(interaction), tournament, player.id if player else None
        )
        embed, file = deck_embed(view, lang)
        if file is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, file=file, ephemeral=True)

    @app_commands.command(
        name="publish", description="Make every decklist of the tournament public (organizers)"
    )
    @app_commands.describe(tournament="Tournament (optional when only one is open)")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def publish(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        lang = interaction_lang(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        actor = actor_of(interaction)
        published, count = await self.bot.services.decks.publish(actor, tournament)
        await interaction.followup.send(
            t("ui.deck.published", lang, name=safe(published.name), count=count), ephemeral=True
        )
        lists = await self.bot.services.decks.published_lists(actor, str(published.id))
        text = "\n\n".join(
            f"## {view.owner_name} ({view.record.fingerprint})\n{view.decklist.canonical_text()}"
            for view in lists
        )
        config = await self.bot.services.guilds.config(published.guild_id)
        channel_lang = await guild_lang(interaction)
        await post(
            self.bot,
            config.announcements_channel_id or interaction.channel_id,
            t("ui.announce.published", channel_lang, name=safe(published.name), count=count),
            file=discord.File(
                io.BytesIO(text.encode("utf-8")), filename=f"decklists-{published.id}.txt"
            ),
        )


async def setup(bot: TournamentBot) -> None:
    await bot.add_cog(Decks(bot))

"""/deck submit, check, show and publish."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TournamentBot, answer_error
from bot.i18n import Lang, t
from bot.services.decks import DeckSubmission
from bot.ui.messages import interaction_lang
from bot.ui.render import deck_embed, deck_report, safe
from cogs.common import (
    actor_of,
    costly_command,
    guild_lang,
    post,
    read_attachment,
    tournament_autocomplete,
)
from domain.decks import MAX_BYTES

MODAL_TEXT_LIMIT = 4000  # Discord's limit for one text input


async def send_report(
    interaction: discord.Interaction[Any], submission: DeckSubmission, lang: Lang
) -> None:
    content, embed, file = deck_report(submission, lang)
    kwargs: dict[str, Any] = {"ephemeral": True}
    if embed is not None:
        kwargs["embed"] = embed
    if file is not None:
        kwargs["file"] = file
    if interaction.response.is_done():
        await interaction.followup.send(content, **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)


class DeckModal(discord.ui.Modal):
    """The paste box for `/deck submit` or `/deck check` without a file."""

    def __init__(self, bot: TournamentBot, tournament: str | None, store: bool, lang: Lang) -> None:
        super().__init__(title=t("ui.deck.modal_title", lang), timeout=30 * 60)
        self.bot, self.tournament, self.store = bot, tournament, store
        self.decklist: discord.ui.TextInput[DeckModal] = discord.ui.TextInput(
            label=t("ui.deck.modal_label", lang),
            style=discord.TextStyle.paragraph,
            placeholder=t("ui.deck.modal_placeholder", lang),
            max_length=MODAL_TEXT_LIMIT,
        )
        self.add_item(self.decklist)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        lang = interaction_lang(interaction)
        decks = self.bot.services.decks
        action = decks.submit if self.store else decks.check
        submission = await action(actor_of(interaction), self.tournament, self.decklist.value, None)
        await send_report(interaction, submission, lang)

    async def on_error(  # type: ignore[override]  # Modal's signature, not View's
        self, interaction: discord.Interaction, error: Exception, /
    ) -> None:
        # The same error path as slash commands, so a bad paste gets the same clear answer.
        await answer_error(interaction, error)


@app_commands.guild_only()
class Decks(commands.GroupCog, group_name="deck", group_description="Decklists"):
    def __init__(self, bot: TournamentBot) -> None:
        self.bot = bot

    async def _read_or_ask(
        self,
        interaction: discord.Interaction,
        tournament: str | None,
        file: discord.Attachment | None,
        store: bool,
    ) -> None:
        lang = interaction_lang(interaction)
        if file is None:
            if store:
                # Refuse before the box opens, not after a whole list was pasted.
                await self.bot.services.decks.may_submit(actor_of(interaction), tournament)
            await interaction.response.send_modal(DeckModal(self.bot, tournament, store, lang))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await read_attachment(file, MAX_BYTES)
        decks = self.bot.services.decks
        action = decks.submit if store else decks.check
        submission = await action(actor_of(interaction), tournament, data, file.filename)
        await send_report(interaction, submission, lang)

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

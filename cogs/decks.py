"""/deck submit, check, show and publish, and the registration post's デッキ提出 button with
its paste box (routed by custom id, so a box opened before a restart still arrives)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.services.base import TournamentRef
from bot.ui.buttons import PASTE_BOX, SUBMIT_DECK, CustomId
from bot.ui.messages import acknowledge, interaction_lang, reply
from bot.ui.options import TOURNAMENT
from bot.ui.render import DECK_FIELD, deck_embed, deck_report, paste_box, safe
from bot.ui.routing import ButtonHandler
from bot.ui.stateless import ModalHandler, send_stateless_modal
from cogs.common import (
    Host,
    RoutedCog,
    actor_of,
    costly_command,
    read_attachment,
    tournament_autocomplete,
)
from domain.decks import MAX_BYTES

FILE = "Decklist file (.txt or .csv); leave out to paste the list"


@app_commands.guild_only()
class Decks(RoutedCog, commands.GroupCog, group_name="deck", group_description="Decklists"):
    def buttons(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        return [(SUBMIT_DECK, self.deck_pressed)]

    def forms(self) -> Iterable[tuple[CustomId, ModalHandler]]:
        return [(PASTE_BOX, self._pasted)]

    async def deck_pressed(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        await self.open_paste_box(interaction, tournament, store=True)

    async def open_paste_box(
        self, interaction: discord.Interaction[Any], reference: TournamentRef, *, store: bool
    ) -> None:
        """Ask for the list; for a submission, refuse first if it could not be stored."""
        actor = actor_of(interaction)
        if store:
            tournament = await self.services.decks.may_submit(actor, reference)
        else:
            tournament = (await self.services.tournaments.info(actor, reference)).tournament
        await send_stateless_modal(
            interaction, paste_box(tournament.id, store, interaction_lang(interaction))
        )

    async def _pasted(
        self,
        interaction: discord.Interaction[Any],
        values: dict[str, str],
        kind: str,
        tournament: int,
    ) -> None:
        decks = self.services.decks
        action = decks.submit if kind == "box" else decks.check
        text = values.get(DECK_FIELD, "")
        submission = await action(actor_of(interaction), tournament, text, None)
        content, embed, report = deck_report(submission, interaction_lang(interaction))
        await reply(interaction, content, embed=embed, file=report)

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
        await acknowledge(interaction)
        data = await read_attachment(file, MAX_BYTES)
        decks = self.services.decks
        action = decks.submit if store else decks.check
        submission = await action(actor_of(interaction), tournament, data, file.filename)
        content, embed, report = deck_report(submission, lang)
        await reply(interaction, content, embed=embed, file=report)

    @app_commands.command(name="submit", description="Submit your decklist (a file, or paste it)")
    @app_commands.describe(tournament=TOURNAMENT, file=FILE)
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
        file=FILE,
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
        tournament=TOURNAMENT,
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
        view = await self.services.decks.show(
            actor_of(interaction), tournament, player.id if player else None
        )
        embed, file = deck_embed(view, lang)
        await reply(interaction, embed=embed, file=file)

    @app_commands.command(
        name="publish", description="Make every decklist of the tournament public (organizers)"
    )
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def publish(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        lang = interaction_lang(interaction)
        await acknowledge(interaction)
        published, count = await self.services.decks.publish(actor_of(interaction), tournament)
        await reply(
            interaction, t("ui.deck.published", lang, name=safe(published.name), count=count)
        )


async def setup(bot: Host) -> None:
    await bot.add_cog(Decks(bot))

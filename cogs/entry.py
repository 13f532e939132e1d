"""The registration post's buttons: 参加登録, チェックイン and デッキ提出, so that a player
never has to type a command to take part.

Each button carries the tournament id in its custom id and is a `DynamicItem`, and the
paste box is a stateless modal routed by its custom id (bot/ui/stateless.py): the post
made when the tournament was created keeps working after any restart. The buttons go
through the same services as /register, /checkin and /deck submit.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands, tasks

from bot.app import TournamentBot
from bot.i18n import Lang, t
from bot.ui.entry import registration_embed
from bot.ui.messages import interaction_lang
from bot.ui.render import announcement_created, registered_text, safe
from cogs.common import IdButton, actor_of, answering_errors, button, guild_lang, post, posting_lang
from domain.tournament import Tournament

log = logging.getLogger(__name__)

ACTIONS = ("reg", "chk", "deck")
LABELS = {"reg": "ui.entry.register_button", "chk": "ui.entry.checkin_button"}
LABELS["deck"] = "ui.entry.deck_button"
STYLES = {
    "reg": discord.ButtonStyle.primary,
    "chk": discord.ButtonStyle.success,
    "deck": discord.ButtonStyle.secondary,
}


def entry_cog(interaction: discord.Interaction[Any]) -> Entry:
    # Not isinstance: discord.py loads an extension as a fresh module, apart from the copy
    # that cogs.tournaments imports.
    cog = interaction.client.get_cog("Entry")
    assert cog is not None
    return cog  # type: ignore[no-any-return]


class EntryButton(IdButton, template=r"en:(?P<action>reg|chk|deck):(?P<tournament>\d+)"):
    """One of the registration post's buttons, for one tournament."""

    def __init__(self, action: str, tournament: int, lang: Lang = "ja") -> None:
        custom_id = f"en:{action}:{tournament}"
        super().__init__(button(custom_id, t(LABELS[action], lang), STYLES[action]))
        self.action, self.tournament_id = action, tournament

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = entry_cog(interaction)
        if self.action == "reg":
            await cog.register(interaction, self.tournament_id)
        elif self.action == "chk":
            await cog.check_in(interaction, self.tournament_id)
        else:
            await cog.open_deck_box(interaction, self.tournament_id)


def registration_view(tournament_id: int, lang: Lang, *, checkin: bool) -> discord.ui.View:
    """参加登録 and デッキ提出, and チェックイン while its window is open."""
    view = discord.ui.View(timeout=None)
    for action in ACTIONS:
        if action != "chk" or checkin:
            view.add_item(EntryButton(action, tournament_id, lang))
    return view


def registration_post(tournament: Tournament, lang: Lang, *, checkin: bool) -> dict[str, Any]:
    """What the registration post sends: its text, embed and buttons."""
    return {
        "content": announcement_created(tournament, lang),
        "embed": registration_embed(tournament, lang),
        "view": registration_view(tournament.id, lang, checkin=checkin),
    }


class Entry(commands.Cog):
    def __init__(self, bot: TournamentBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(EntryButton)
        self.checkin_loop.change_interval(seconds=self.bot.settings.clock_tick_seconds)
        self.checkin_loop.start()

    async def cog_unload(self) -> None:
        self.checkin_loop.cancel()

    async def post(self, tournament: Tournament, channel_id: int | None, lang: Lang) -> None:
        """Post the registration post and remember it, for its チェックイン button."""
        clock = self.bot.services.round_clock
        message = await post(
            self.bot,
            channel_id,
            **registration_post(tournament, lang, checkin=clock.checkin_open(tournament)),
        )
        if message is not None:
            await clock.remember_entry_post(tournament, message.channel.id, message.id)

    @tasks.loop(seconds=5)
    async def checkin_loop(self) -> None:
        """When a check-in window opens (or the event starts), show (or take away) the
        チェックイン button of its registration post."""
        try:
            for (
                tournament,
                channel_id,
                message_id,
                show,
            ) in await self.bot.services.round_clock.entry_posts_to_update():
                lang = await posting_lang(self.bot, tournament.guild_id)
                channel = self.bot.get_channel(channel_id)
                if isinstance(channel, discord.abc.Messageable):
                    message = channel.get_partial_message(message_id)
                    view = registration_view(tournament.id, lang, checkin=show)
                    await message.edit(view=view)
        except discord.HTTPException:
            log.warning("could not update a registration post's buttons", exc_info=True)
        except Exception:
            log.exception("updating registration posts failed; it tries again at the next tick")

    async def register(self, interaction: discord.Interaction[Any], tournament_id: int) -> None:
        lang = interaction_lang(interaction)
        result = await self.bot.services.registration.register(
            actor_of(interaction), str(tournament_id)
        )
        await interaction.response.send_message(registered_text(result, lang), ephemeral=True)
        await self._refresh(interaction, result.tournament)

    async def check_in(self, interaction: discord.Interaction[Any], tournament_id: int) -> None:
        lang = interaction_lang(interaction)
        checked = await self.bot.services.registration.check_in(
            actor_of(interaction), str(tournament_id)
        )
        await interaction.response.send_message(
            t("ui.register.checked_in", lang, tournament=safe(checked.name)), ephemeral=True
        )
        await self._refresh(interaction, checked)

    async def open_deck_box(
        self, interaction: discord.Interaction[Any], tournament_id: int
    ) -> None:
        decks = self.bot.get_cog("Decks")
        assert decks is not None
        await decks.open_paste_box(interaction, str(tournament_id), store=True)  # type: ignore[attr-defined]

    async def _refresh(self, interaction: discord.Interaction[Any], tournament: Tournament) -> None:
        """Bring the post up to date (start time, check-in window) when its settings changed
        since it was posted. Best effort: the answer was already given."""
        message = interaction.message
        if message is None:
            return
        embed = registration_embed(tournament, await guild_lang(interaction))
        shown = [(f.name, f.value) for f in message.embeds[0].fields] if message.embeds else []
        if shown == [(f.name, f.value) for f in embed.fields]:
            return
        try:
            await message.edit(embed=embed)
        except discord.HTTPException:
            log.warning("could not refresh the registration post %s", message.id, exc_info=True)


async def setup(bot: TournamentBot) -> None:
    await bot.add_cog(Entry(bot))

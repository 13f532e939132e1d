"""/round pair|repair|start|status and /pairing."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.services import Services
from bot.services.base import TournamentRef
from bot.ui.messages import Acknowledgement, acknowledge, fit_or_attach, interaction_lang, reply
from bot.ui.options import TOURNAMENT, ExtensionMinutes
from bot.ui.rounds import (
    my_match_text,
    pairing_reply,
    round_extended_reply,
    round_name,
    status_embed,
)
from cogs.common import (
    RoutedCog,
    actor_of,
    free_channels,
    offering_fewer_rooms,
    tournament_autocomplete,
)


class Pairing(RoutedCog):
    round = app_commands.Group(
        name="round", description="Pairings and the round clock (organizers)", guild_only=True
    )

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A match room deleted by hand mid-round is made again for its table."""
        if isinstance(channel, discord.VoiceChannel | discord.CategoryChannel):
            await self.services.rounds.channel_deleted(channel.guild.id, channel.id)

    @round.command(name="pair", description="Pair the next round and post it (organizers)")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def pair(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        await pair_next_round(self.services, interaction, tournament)

    @round.command(
        name="repair",
        description="Take back the latest pairings while they have no results (organizers)",
    )
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def repair(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        _, number = await self.services.rounds.repair(actor_of(interaction), tournament)
        await reply(interaction, t("ui.rounds.repaired", lang, round=number))

    @round.command(name="start", description="Start the round clock (organizers)")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def start(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        await start_round_clock(self.services, interaction, tournament)

    @round.command(
        name="extend",
        description="Give every table still playing more time, e.g. after an outage (judges)",
    )
    @app_commands.describe(
        minutes="Extra minutes for every table still playing", tournament=TOURNAMENT
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def extend(
        self,
        interaction: discord.Interaction,
        minutes: ExtensionMinutes,
        tournament: str | None = None,
    ) -> None:
        await extend_whole_round(self.services, interaction, tournament, minutes)

    @round.command(name="status", description="Time left and the tables still playing")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def status(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        found, current = await self.services.rounds.status(actor_of(interaction), tournament)
        embed, file = status_embed(found, current, lang)
        await reply(interaction, embed=embed, file=file)

    @app_commands.command(name="pairing", description="Your table and opponent this round")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def pairing(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        lang = interaction_lang(interaction)
        async with Acknowledgement(interaction, ephemeral=True, thinking=True) as ack:
            mine = await self.services.rounds.my_match(actor_of(interaction), tournament)
            if not self.services.rounds.points_ready(mine):
                # Every player's points are worked out for this version first (off the loop).
                await ack.now()
            points = await self.services.rounds.opponents_points(mine)
            room = await self.services.rounds.room_of(mine)
            text = my_match_text(
                mine.tournament, mine.round, mine.match, interaction.user.id, lang, points, room
            )
        await reply(interaction, text)


async def pair_next_round(
    services: Services, interaction: discord.Interaction[Any], reference: TournamentRef
) -> None:
    """/round pair and the panel's 組み合わせ: the organizer reads the engine's explanation;
    the pairings post is the notifier's."""
    lang = interaction_lang(interaction)
    await acknowledge(interaction)
    async with offering_fewer_rooms(interaction):
        paired = await services.rounds.pair(
            actor_of(interaction), reference, free_channels=free_channels(interaction)
        )
        text, file = fit_or_attach(pairing_reply(paired, lang), "pairing-explanation.txt", lang)
        await reply(interaction, text, file=file)


async def start_round_clock(
    services: Services, interaction: discord.Interaction[Any], reference: TournamentRef
) -> None:
    """/round start and the panel's 時計開始."""
    lang = interaction_lang(interaction)
    _, current = await services.rounds.start_clock(actor_of(interaction), reference)
    assert current.ends_at is not None
    end = int(current.ends_at.timestamp())
    await reply(
        interaction, t("ui.rounds.clock_reply", lang, round_name=round_name(current, lang), end=end)
    )


async def extend_whole_round(
    services: Services,
    interaction: discord.Interaction[Any],
    reference: TournamentRef,
    minutes: int,
) -> None:
    """/round extend and the panel's 全体延長 form (R-MATCH-7): the judge reads what was
    done; each table and the round's channel are told by the notifier's plan."""
    lang = interaction_lang(interaction)
    done = await services.rounds.extend_round(actor_of(interaction), reference, minutes)
    await reply(interaction, round_extended_reply(done, lang))

"""/result set (judges) and its buttons on a dispute's notice ([A の勝ち] [B の勝ち] [両者敗北]
[時間切れ判定…]), /drop and its ドロップ buttons, /undrop and /standings."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.i18n import Lang, t
from bot.services.base import TournamentRef
from bot.services.rounds import ResultChange
from bot.ui.buttons import (
    DECIDE_DOUBLE_LOSS,
    DECIDE_TIME,
    DECIDE_TIME_FORM,
    DECIDE_WIN,
    DROP,
    DROP_CONFIRM,
    CustomId,
    Labels,
    decide_time_form,
    drop_view,
)
from bot.ui.messages import Acknowledgement, edit_answer, interaction_lang, reply
from bot.ui.options import (
    TOURNAMENT,
    PointZoneCount,
    RoundNumber,
    TableNumber,
    point_zone_count,
)
from bot.ui.pagination import Page, PageRenderer, page_id_arg, page_view
from bot.ui.render import safe
from bot.ui.rounds import (
    decided_notice,
    drop_reply,
    name_of,
    plain_name,
    result_change_text,
    round_name,
    standings_page_of,
    standings_page_ready,
)
from bot.ui.routing import ButtonHandler
from bot.ui.stateless import ModalHandler, send_stateless_modal
from bot.worker import at_hand
from cogs.common import RoutedCog, actor_of, guild_lang, server_lang, tournament_autocomplete
from domain.tournament.play import JUDGED_RESULTS
from domain.tournament.views import Views

RESULT_CHOICES = [app_commands.Choice(name=value, value=value) for value in JUDGED_RESULTS]


async def standings_page(ack: Acknowledgement, views: Views, lang: Lang, page: int) -> Page:
    """A page of the standings: a slice once this version's table is laid out in `lang`;
    else the interaction is acknowledged first and the table laid out off the event loop
    (4,096 players at the end of a round)."""
    ready = standings_page_ready(views, lang)
    if not ready:
        await ack.now()
    return await at_hand(lambda: standings_page_of(views, lang, page), ready=ready)


class Results(RoutedCog):
    result = app_commands.Group(
        name="result", description="Record and correct results (judges)", guild_only=True
    )

    def buttons(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        return [
            (DROP, self.drop_pressed),
            (DROP_CONFIRM, self.drop_confirmed),
            (DECIDE_WIN, self.decide_win),
            (DECIDE_DOUBLE_LOSS, self.decide_double_loss),
            (DECIDE_TIME, self.open_time_form),
        ]

    def forms(self) -> Iterable[tuple[CustomId, ModalHandler]]:
        return [(DECIDE_TIME_FORM, self.time_decided)]

    def pages(self) -> Mapping[str, PageRenderer]:
        return {"standings": self.render_standings_page}

    @result.command(name="set", description="Set or correct any result (judges and organizers)")
    @app_commands.describe(
        table="Table number",
        result=", ".join(JUDGED_RESULTS),
        player="The winner (win, judgement), the conceding player or the absent one (no_show)",
        first_points="Time: point-zone count of the table's first player",
        second_points="Time: point-zone count of the table's second player",
        round="Round (default: the current one)",
        advancing="Top cut only: who advances from a drawn match",
        tournament=TOURNAMENT,
    )
    @app_commands.choices(result=RESULT_CHOICES)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def set_result(
        self,
        interaction: discord.Interaction,
        table: TableNumber,
        result: app_commands.Choice[str],
        player: discord.Member | None = None,
        first_points: PointZoneCount | None = None,
        second_points: PointZoneCount | None = None,
        round: RoundNumber | None = None,
        advancing: discord.Member | None = None,
        tournament: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        change = await self.services.rounds.set_result(
            actor_of(interaction),
            tournament,
            table=table,
            choice=result.value,
            player=player.id if player else None,
            first_points=first_points,
            second_points=second_points,
            number=round,
            advancing=advancing.id if advancing else None,
        )
        await reply(interaction, set_reply(change, lang))

    # -- the judges' buttons on a dispute's notice: /result set in one press ---------------

    async def decide_win(
        self,
        interaction: discord.Interaction[Any],
        tournament: int,
        round: int,
        table: int,
        player: int,
    ) -> None:
        await self.decide(interaction, tournament, round, table, choice="win", player=player)

    async def decide_double_loss(
        self, interaction: discord.Interaction[Any], tournament: int, round: int, table: int
    ) -> None:
        await self.decide(interaction, tournament, round, table, choice="double_loss")

    async def open_time_form(
        self, interaction: discord.Interaction[Any], tournament: int, round: int, table: int
    ) -> None:
        """時間切れ判定…: both point-zone counts, asked of the judge by player name."""
        found, played, match = await self.services.rounds.table_to_decide(
            actor_of(interaction), tournament, round, table
        )
        lang = interaction_lang(interaction)
        first, second = match.players
        players = ((first, plain_name(found, first)), (second, plain_name(found, second)))
        name = round_name(played, lang)
        form = decide_time_form(tournament, round, table, players, name, lang)
        await send_stateless_modal(interaction, form)

    async def time_decided(
        self,
        interaction: discord.Interaction[Any],
        values: dict[str, str],
        tournament: int,
        round: int,
        table: int,
    ) -> None:
        first, second = (point_zone_count(values.get(key, "")) for key in ("first", "second"))
        await self.decide(
            interaction,
            tournament,
            round,
            table,
            choice="time",
            first_points=first,
            second_points=second,
        )

    async def decide(
        self,
        interaction: discord.Interaction[Any],
        tournament: int,
        number: int,
        table: int,
        **decision: Any,
    ) -> None:
        """The same operation as /result set, by the same service; a table decided since
        the notice was posted is refused, not decided twice. The notice then shows the
        decision and who made it, without its buttons; the players are told by the
        notifier."""
        notice = interaction.message
        change = await self.services.rounds.set_result(
            actor_of(interaction, updates_message=notice is not None),
            tournament,
            table=table,
            number=number,
            unsettled_only=True,
            **decision,
        )
        if notice is None:  # a form opened from elsewhere: answer the judge alone
            await reply(interaction, set_reply(change, interaction_lang(interaction)))
            return
        text = decided_notice(
            notice.content,
            change.tournament,
            change.match,
            change.new,
            interaction.user.display_name,
            server_lang(change.server, interaction),  # the notice is the server's post
        )
        await edit_answer(
            interaction, content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(
        name="drop", description="Drop from the tournament; organizers name a player"
    )
    @app_commands.describe(player="Organizers: the player to drop", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def drop(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        tournament: str | None = None,
    ) -> None:
        await self.drop_player(interaction, tournament, player.id if player else None)

    async def drop_pressed(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        """The ドロップ button of the pairings post: asks first, as dropping cannot be undone
        by the player; a drop that would be refused is refused before the question."""
        lang = interaction_lang(interaction)
        found = await self.services.rounds.may_drop(actor_of(interaction), tournament)
        await reply(
            interaction,
            t("ui.drop.confirm", lang, tournament=safe(found.name)),
            view=drop_view(tournament, Labels(lang)),
        )

    async def drop_confirmed(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        await self.drop_player(interaction, tournament, None)

    async def drop_player(
        self, interaction: discord.Interaction[Any], reference: TournamentRef, player: int | None
    ) -> None:
        lang = interaction_lang(interaction)
        found, dropped = await self.services.rounds.drop(actor_of(interaction), reference, player)
        await reply(interaction, drop_reply(found, dropped, interaction.user.id, lang))

    @app_commands.command(
        name="undrop", description="Take back a drop before the next pairing (organizers)"
    )
    @app_commands.describe(player="The player whose drop to take back", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def undrop(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        tournament: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        found = await self.services.rounds.undrop(actor_of(interaction), tournament, player.id)
        await reply(interaction, t("ui.drop.undrop", lang, player=name_of(found, player.id)))

    @app_commands.command(name="standings", description="Standings: points and opponents' points")
    @app_commands.describe(
        public="Post it in this channel (default: only you see it)", tournament=TOURNAMENT
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def standings(
        self, interaction: discord.Interaction, public: bool = False, tournament: str | None = None
    ) -> None:
        async with Acknowledgement(interaction, ephemeral=not public, thinking=True) as ack:
            lang = await guild_lang(interaction) if public else interaction_lang(interaction)
            found = await self.services.rounds.standings(interaction.guild_id, tournament)
            arg = f"{found.tournament.id}.{lang}"
            page = await standings_page(ack, found.views, lang, 0)
        await reply(
            interaction,
            embed=page.embed,
            view=page_view("standings", arg, page),
            ephemeral=not public,
        )

    async def render_standings_page(
        self, interaction: discord.Interaction[Any], arg: str, page: int
    ) -> Page:
        tournament_id, lang = page_id_arg(arg)
        async with Acknowledgement(interaction) as ack:  # a deferred update of the message
            found = await self.services.rounds.standings(interaction.guild_id, tournament_id)
            return await standings_page(ack, found.views, lang, page)


def set_reply(change: ResultChange, lang: Lang) -> str:
    """The judge's answer to /result set or to a one-press decision: the new result, and
    the one it replaced."""
    return result_change_text(
        change.tournament,
        change.round.number,
        change.match,
        change.old,
        change.new,
        "ui.result.set_reply",
        lang,
    )

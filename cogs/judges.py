"""/penalty give|list|revoke, /judge call|extend|noshow, /log and /undo, with their
persistent buttons (confirm a penalty or an undo, claim and resolve a judge call)."""

from __future__ import annotations

import logging
import re
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TournamentBot
from bot.i18n import Lang, normalise_locale, t
from bot.services.judging import CallOutcome, PenaltyOutcome, PenaltyPreview, UndoOutcome
from bot.ui.messages import interaction_lang
from bot.ui.pagination import Page, page_of, page_view
from bot.ui.render import safe
from bot.ui.rounds import describe_result, name_of
from bot.ui.stateless import send_stateless_modal
from cogs.common import (
    IdButton,
    actor_of,
    answering_errors,
    button,
    post,
    post_to_judges,
    post_to_log,
    posting_lang,
    tournament_autocomplete,
)
from domain.timeparse import typed_count
from domain.tournament.log import Action
from domain.tournament.model import Tournament
from domain.tournament.penalties import Infraction, JudgeCall, Penalty, PenaltyType

log = logging.getLogger(__name__)

TOURNAMENT = "Tournament (optional when only one is open)"
PENALTY_TYPES = [app_commands.Choice(name=p.value, value=p.value) for p in PenaltyType]
INFRACTIONS = [app_commands.Choice(name=i.value, value=i.value) for i in Infraction]
LIST_PER_PAGE = 15

Style = discord.ButtonStyle


def judges_cog(interaction: discord.Interaction[Any]) -> Judges:
    cog = interaction.client.get_cog("Judges")
    assert isinstance(cog, Judges)
    return cog


class ConfirmPending(IdButton, template=r"pc:(?P<pending>\d+)"):
    """Give the penalty / undo that waits in the database (works after a restart)."""

    def __init__(self, pending: int, label: str = "") -> None:
        super().__init__(button(f"pc:{pending}", label or "OK", Style.danger))
        self.pending = pending

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await judges_cog(interaction).confirm_pending(interaction, self.pending)


class CancelPending(IdButton, template=r"px:(?P<pending>\d+)"):
    def __init__(self, pending: int, label: str = "") -> None:
        super().__init__(button(f"px:{pending}", label or "×", Style.secondary))
        self.pending = pending

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await judges_cog(interaction).services.judges.cancel(actor_of(interaction), self.pending)
        lang = interaction_lang(interaction)
        await interaction.response.edit_message(
            content=t("ui.penalty.cancelled", lang), view=None, embed=None
        )


class ClaimCallButton(IdButton, template=r"jc:(?P<tournament>\d+):(?P<call>\d+)"):
    """対応する / Claim on a judge call in the judge channel."""

    def __init__(self, tournament: int, call: int) -> None:
        label = t("ui.judge.claim_button", "ja")
        super().__init__(button(f"jc:{tournament}:{call}", label, Style.primary))
        self.tournament, self.call = tournament, call

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await judges_cog(interaction).claim(interaction, self.tournament, self.call)


class ResolveCallButton(
    IdButton, template=r"jr:(?P<tournament>\d+):(?P<call>\d+):(?P<minutes>\d+|x)"
):
    """Resolve a call, with an extension of `minutes` (R-MATCH-7), or `x` to type them."""

    def __init__(self, tournament: int, call: int, minutes: int | str, label: str = "") -> None:
        style = Style.secondary if minutes == "x" else Style.success
        custom_id = f"jr:{tournament}:{call}:{minutes}"
        super().__init__(button(custom_id, label or str(minutes), style))
        self.tournament, self.call, self.minutes = tournament, call, minutes

    @answering_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = judges_cog(interaction)
        if self.minutes == "x":
            lang = interaction_lang(interaction)
            modal = discord.ui.Modal(
                title=t("ui.judge.minutes_title", lang),
                custom_id=f"jm:{self.tournament}:{self.call}",
            )
            modal.add_item(
                discord.ui.TextInput(
                    label=t("ui.judge.minutes_label", lang), custom_id="minutes", max_length=2
                )
            )
            await send_stateless_modal(interaction, modal)
            return
        await cog.resolve(interaction, self.tournament, self.call, int(self.minutes))


DYNAMIC_ITEMS = (ConfirmPending, CancelPending, ClaimCallButton, ResolveCallButton)


class Judges(commands.Cog):
    penalty = app_commands.Group(name="penalty", description="Penalties (judges)", guild_only=True)
    judge = app_commands.Group(
        name="judge", description="Judge calls and judges' tools", guild_only=True
    )

    def __init__(self, bot: TournamentBot) -> None:
        self.bot = bot
        self.services = bot.services

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.modal_routes.add(r"jm:(?P<tournament>\d+):(?P<call>\d+)", self._minutes_submitted)
        self.bot.modal_routes.add(r"jw:(?P<tournament>\d+)", self._call_form_submitted)
        self.bot.page_renderers["log"] = self.render_log_page
        self.bot.page_renderers["penalties"] = self.render_penalties_page

    @commands.Cog.listener()
    async def on_app_command_completion(
        self,
        interaction: discord.Interaction[Any],
        command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu,
    ) -> None:
        """A penalty notice the player could not get by DM, the next time they use the bot."""
        if interaction.guild_id is None:
            return
        for text in await self.services.judges.notices_for(
            interaction.guild_id, interaction.user.id
        ):
            try:
                await interaction.followup.send(text, ephemeral=True)
            except discord.HTTPException:
                log.info("could not show a pending notice to %s", interaction.user.id)

    # -- penalties ----------------------------------------------------------------------

    @penalty.command(
        name="give",
        description="Give a penalty; shows earlier ones and a suggestion first (judges)",
    )
    @app_commands.describe(
        player="The player",
        type="caution, warning, game_loss or disqualification",
        reason="What happened (the player is told)",
        infraction="What kind of infraction (R-PEN-5, stalling, sleeves, deck …)",
        tournament=TOURNAMENT,
    )
    @app_commands.choices(type=PENALTY_TYPES, infraction=INFRACTIONS)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def give(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        type: app_commands.Choice[str],
        reason: app_commands.Range[str, 1, 500],
        infraction: app_commands.Choice[str] | None = None,
        tournament: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        preview = await self.services.judges.preview_penalty(
            actor_of(interaction),
            tournament,
            player.id,
            type.value,
            infraction.value if infraction else "other",
            reason,
        )
        view = discord.ui.View(timeout=None)
        view.add_item(ConfirmPending(preview.pending_id, t("ui.penalty.confirm_button", lang)))
        view.add_item(CancelPending(preview.pending_id, t("ui.penalty.cancel_button", lang)))
        await interaction.response.send_message(
            embed=_preview_embed(preview, lang), view=view, ephemeral=True
        )

    async def confirm_pending(self, interaction: discord.Interaction[Any], pending_id: int) -> None:
        lang = interaction_lang(interaction)
        outcome = await self.services.judges.confirm(actor_of(interaction), pending_id)
        if isinstance(outcome, UndoOutcome):
            await self._after_undo(interaction, outcome, lang)
            return
        await self._after_penalty(interaction, outcome, lang)

    async def _after_penalty(
        self, interaction: discord.Interaction[Any], outcome: PenaltyOutcome, lang: Lang
    ) -> None:
        tournament, penalty = outcome.tournament, outcome.penalty
        lines = [
            t(
                "ui.penalty.given",
                lang,
                player=name_of(tournament, penalty.player_id),
                type=_type(penalty, lang),
                id=penalty.id,
                rule=penalty.type.rule,
            )
        ]
        if outcome.match is not None and penalty.effect is not None:
            lines.append(
                t(
                    "ui.penalty.match_turned",
                    lang,
                    round=penalty.effect.round,
                    table=penalty.effect.table,
                    result=describe_result(tournament, outcome.match, outcome.match.result, lang),
                )
            )
        await interaction.response.edit_message(content="\n".join(lines), embed=None, view=None)
        channel_lang = await posting_lang(self.bot, tournament.guild_id)
        await self._tell_player(tournament, penalty)
        await post_to_log(
            self.bot,
            tournament.guild_id,
            t(
                "ui.penalty.log",
                channel_lang,
                judge=safe(interaction.user.display_name),
                player=name_of(tournament, penalty.player_id),
                type=_type(penalty, channel_lang),
                id=penalty.id,
                infraction=t(f"ui.penalty.infraction.{penalty.infraction.value}", channel_lang),
                rule=penalty.type.rule,
                reason=safe(penalty.reason),
            ),
        )

    async def _tell_player(self, tournament: Tournament, penalty: Penalty) -> None:
        """By DM; when DMs are closed, the next time the player uses the bot."""
        lang = await posting_lang(self.bot, tournament.guild_id)
        text = t(
            "ui.penalty.notice",
            lang,
            tournament=safe(tournament.name),
            type=_type(penalty, lang),
            rule=penalty.type.rule,
            infraction=t(f"ui.penalty.infraction.{penalty.infraction.value}", lang),
            reason=safe(penalty.reason),
        )
        if penalty.type is PenaltyType.DISQUALIFICATION:
            text += "\n" + t("ui.penalty.notice_dq", lang, tournament=safe(tournament.name))
        try:
            user = self.bot.get_user(penalty.player_id) or await self.bot.fetch_user(
                penalty.player_id
            )
            await user.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            await self.services.judges.leave_notice(tournament.guild_id, penalty.player_id, text)

    @penalty.command(name="list", description="Penalties given in the tournament")
    @app_commands.describe(player="Only this player's penalties", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def list_penalties(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        tournament: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        found, _ = await self.services.judges.penalties(
            actor_of(interaction), tournament, player.id if player else None
        )
        await self._send_first_page(
            interaction, "penalties", f"{found.id}.{player.id if player else 0}.{lang}"
        )

    async def render_penalties_page(
        self, interaction: discord.Interaction[Any], arg: str, page: int
    ) -> Page:
        tournament_id, player, lang_code = arg.split(".")
        lang = normalise_locale(lang_code)
        found, penalties = await self.services.judges.penalties(
            actor_of(interaction), tournament_id, int(player) or None
        )
        lines = [
            t(
                "ui.penalty.list_line",
                lang,
                id=p.id,
                at=int(p.at.timestamp()),
                player=name_of(found, p.player_id),
                type=_type(p, lang),
                infraction=t(f"ui.penalty.infraction.{p.infraction.value}", lang),
                round=p.round,
                revoked=t("ui.penalty.earlier_revoked", lang) if p.revoked else "",
                reason=safe(p.reason),
            )
            for p in penalties
        ] or [t("ui.penalty.list_empty", lang)]
        title = t("ui.penalty.list_title", lang, tournament=safe(found.name))
        return _page(title, lines, page)

    async def _send_first_page(
        self, interaction: discord.Interaction[Any], kind: str, arg: str
    ) -> None:
        """The first page of a listing, with page buttons that survive a restart."""
        page = await self.bot.page_renderers[kind](interaction, arg, 0)
        view = page_view(kind, arg, page)
        kwargs: dict[str, Any] = {"embed": page.embed, "ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(**kwargs)

    @penalty.command(
        name="revoke", description="Revoke a penalty and its effect on results (organizers)"
    )
    @app_commands.describe(id="The penalty's number (#)", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def revoke(
        self,
        interaction: discord.Interaction,
        id: app_commands.Range[int, 1, 100000],
        tournament: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        outcome = await self.services.judges.revoke(actor_of(interaction), tournament, id)
        penalty = outcome.penalty
        await interaction.response.send_message(
            t(
                "ui.penalty.revoked",
                lang,
                id=penalty.id,
                player=name_of(outcome.tournament, penalty.player_id),
                type=_type(penalty, lang),
            ),
            ephemeral=True,
        )
        channel_lang = await posting_lang(self.bot, outcome.tournament.guild_id)
        await post_to_log(
            self.bot,
            outcome.tournament.guild_id,
            t(
                "ui.penalty.revoked_log",
                channel_lang,
                organizer=safe(interaction.user.display_name),
                id=penalty.id,
                player=name_of(outcome.tournament, penalty.player_id),
                type=_type(penalty, channel_lang),
            ),
        )

    # -- judge calls --------------------------------------------------------------------

    @judge.command(name="call", description="Call a judge to your table")
    @app_commands.describe(reason="What happened (optional)", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def call(
        self,
        interaction: discord.Interaction,
        reason: app_commands.Range[str, 0, 500] | None = None,
        tournament: str | None = None,
    ) -> None:
        await self.call_judge(interaction, tournament, reason or "")

    async def open_call_form(
        self, interaction: discord.Interaction[Any], tournament_id: int
    ) -> None:
        """The ジャッジを呼ぶ button: a form for what happened (optional), then the call."""
        lang = interaction_lang(interaction)
        modal = discord.ui.Modal(
            title=t("ui.judge.call_title", lang), custom_id=f"jw:{tournament_id}"
        )
        modal.add_item(
            discord.ui.TextInput(
                label=t("ui.judge.reason_label", lang),
                custom_id="reason",
                style=discord.TextStyle.paragraph,
                required=False,
                max_length=500,
            )
        )
        await send_stateless_modal(interaction, modal)

    async def _call_form_submitted(
        self, interaction: discord.Interaction[Any], match: re.Match[str], values: dict[str, str]
    ) -> None:
        await self.call_judge(interaction, match["tournament"], values.get("reason", ""))

    async def call_judge(
        self, interaction: discord.Interaction[Any], reference: str | None, reason: str
    ) -> None:
        lang = interaction_lang(interaction)
        outcome = await self.services.judges.call(actor_of(interaction), reference, reason)
        await interaction.response.send_message(
            t("ui.judge.call_reply", lang, id=outcome.call.id), ephemeral=True
        )
        channel_lang = await posting_lang(self.bot, outcome.tournament.guild_id)
        view = discord.ui.View(timeout=None)
        view.add_item(ClaimCallButton(outcome.tournament.id, outcome.call.id))
        await post_to_judges(
            self.bot, outcome.tournament.guild_id, call_text(outcome, channel_lang), view=view
        )

    async def claim(
        self, interaction: discord.Interaction[Any], tournament_id: int, call_id: int
    ) -> None:
        outcome = await self.services.judges.claim(actor_of(interaction), tournament_id, call_id)
        lang = await posting_lang(self.bot, outcome.tournament.guild_id)
        call = outcome.call
        suggested = call.suggested_extension(self.services.judges.now())
        view = discord.ui.View(timeout=None)
        view.add_item(
            ResolveCallButton(tournament_id, call_id, "0", t("ui.judge.resolve_none", lang))
        )
        if call.table is not None:
            view.add_item(
                ResolveCallButton(
                    tournament_id,
                    call_id,
                    str(suggested),
                    t("ui.judge.resolve_extend", lang, minutes=suggested),
                )
            )
            view.add_item(
                ResolveCallButton(tournament_id, call_id, "x", t("ui.judge.resolve_other", lang))
            )
        text = (
            call_text(outcome, lang)
            + "\n"
            + t(
                "ui.judge.claimed",
                lang,
                judge=safe(interaction.user.display_name),
                waited=_waited(call, lang),
            )
        )
        await interaction.response.edit_message(
            content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
        )

    async def resolve(
        self, interaction: discord.Interaction[Any], tournament_id: int, call_id: int, minutes: int
    ) -> None:
        outcome = await self.services.judges.resolve(
            actor_of(interaction), tournament_id, call_id, minutes
        )
        lang = await posting_lang(self.bot, outcome.tournament.guild_id)
        call = outcome.call
        text = call_text(outcome, lang) + "\n"
        current = outcome.tournament.round(call.round)
        if minutes and outcome.match is not None and current is not None:
            ends = current.table_ends_at(outcome.match)
            assert ends is not None
            text += t(
                "ui.judge.resolved_extended",
                lang,
                judge=safe(interaction.user.display_name),
                table=call.table,
                minutes=minutes,
                end=int(ends.timestamp()),
            )
        else:
            text += t(
                "ui.judge.resolved",
                lang,
                judge=safe(interaction.user.display_name),
                waited=_waited(call, lang),
            )
        if interaction.type is discord.InteractionType.modal_submit:
            await interaction.response.send_message(text, ephemeral=True)
        else:
            await interaction.response.edit_message(
                content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
            )

    async def _minutes_submitted(
        self, interaction: discord.Interaction[Any], match: re.Match[str], values: dict[str, str]
    ) -> None:
        minutes = typed_count(
            values.get("minutes", ""), key="ui.judge.not_minutes", rule="R-MATCH-7"
        )
        await self.resolve(interaction, int(match["tournament"]), int(match["call"]), minutes)

    @judge.command(name="extend", description="Extend one table's time (judges)")
    @app_commands.describe(table="Table number", minutes="Extra minutes", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def extend(
        self,
        interaction: discord.Interaction,
        table: app_commands.Range[int, 1, 1000],
        minutes: app_commands.Range[int, 1, 60],
        tournament: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        found, extended = await self.services.rounds.extend(
            actor_of(interaction), tournament, table, minutes
        )
        end = int(extended.ends_at.timestamp())
        await interaction.response.send_message(
            t(
                "ui.judge.extended",
                lang,
                round=extended.round,
                table=table,
                total=extended.total_minutes,
                end=end,
            ),
            ephemeral=True,
        )
        place = await self.services.round_clock.round_place(found.id, extended.round)
        if place is not None:
            channel_lang = await posting_lang(self.bot, found.guild_id)
            await post(
                self.bot,
                place[1] or place[0],
                t(
                    "ui.judge.extended_post",
                    channel_lang,
                    table=table,
                    total=extended.total_minutes,
                    end=end,
                ),
            )

    @judge.command(
        name="noshow",
        description="A game loss for a player not seated at the start (judges, R-MATCH-6)",
    )
    @app_commands.describe(table="Table number", player="The absent player", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def noshow(
        self,
        interaction: discord.Interaction,
        table: app_commands.Range[int, 1, 1000],
        player: discord.Member,
        tournament: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        found, current, _ = await self.services.judges.no_show(
            actor_of(interaction), tournament, table, player.id
        )
        await interaction.response.send_message(
            t(
                "ui.judge.noshow",
                lang,
                round=current.number,
                table=table,
                player=name_of(found, player.id),
            ),
            ephemeral=True,
        )

    # -- the action log and undo --------------------------------------------------------

    @app_commands.command(
        name="log", description="The tournament's action log: who, what, when (judges)"
    )
    @app_commands.describe(player="Only actions by or about this player", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def log_command(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        tournament: str | None = None,
    ) -> None:
        lang = interaction_lang(interaction)
        found, _ = await self.services.judges.log(
            actor_of(interaction), tournament, player.id if player else None
        )
        await self._send_first_page(
            interaction, "log", f"{found.id}.{player.id if player else 0}.{lang}"
        )

    async def render_log_page(
        self, interaction: discord.Interaction[Any], arg: str, page: int
    ) -> Page:
        tournament_id, player, lang_code = arg.split(".")
        lang = normalise_locale(lang_code)
        found, actions = await self.services.judges.log(
            actor_of(interaction), tournament_id, int(player) or None
        )
        lines = [action_line(found, action, lang) for action in actions] or [
            t("ui.log.empty", lang)
        ]
        return _page(t("ui.log.title", lang, tournament=safe(found.name)), lines, page)

    @app_commands.command(
        name="undo", description="Undo the last undoable action, after a confirmation (organizers)"
    )
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        preview = await self.services.judges.preview_undo(actor_of(interaction), tournament)
        action = preview.action
        view = discord.ui.View(timeout=None)
        view.add_item(ConfirmPending(preview.pending_id, t("ui.undo.confirm_button", lang)))
        view.add_item(CancelPending(preview.pending_id, t("ui.penalty.cancel_button", lang)))
        await interaction.response.send_message(
            t(
                "ui.undo.preview",
                lang,
                id=action.id,
                at=_at(action),
                actor=f"<@{action.actor_id}>",
                what=action_what(preview.tournament, action, lang),
            ),
            view=view,
            ephemeral=True,
        )

    async def _after_undo(
        self, interaction: discord.Interaction[Any], outcome: UndoOutcome, lang: Lang
    ) -> None:
        action = outcome.action
        what = action_what(outcome.tournament, action, lang)
        await interaction.response.edit_message(
            content=t("ui.undo.done", lang, id=action.id, what=what), view=None
        )
        channel_lang = await posting_lang(self.bot, outcome.tournament.guild_id)
        await post_to_log(
            self.bot,
            outcome.tournament.guild_id,
            t(
                "ui.undo.log",
                channel_lang,
                organizer=safe(interaction.user.display_name),
                id=action.id,
                what=action_what(outcome.tournament, action, channel_lang),
            ),
        )

    async def reping(self, tournament: Tournament, call_id: int) -> None:
        """A call nobody claimed in three minutes: the judges are pinged once more."""
        (call,) = [c for c in tournament.calls if c.id == call_id]
        if not call.open or call.claimed_by is not None:
            return
        lang = await posting_lang(self.bot, tournament.guild_id)
        current = tournament.round(call.round)
        match = current.match_at(call.table) if current and call.table else None
        waited = int((self.services.judges.now() - call.called_at).total_seconds() // 60)
        outcome = CallOutcome(tournament, call, match)
        where = call_text(outcome, lang).split("\n")[0]
        view = discord.ui.View(timeout=None)
        view.add_item(ClaimCallButton(tournament.id, call.id))
        await post_to_judges(
            self.bot,
            tournament.guild_id,
            t("ui.judge.reping", lang, id=call.id, minutes=waited, where=where),
            view=view,
        )

    # -- posting ------------------------------------------------------------------------


def _page(title: str, lines: list[str], page: int) -> Page:
    chunk, index, count = page_of(lines, LIST_PER_PAGE, page)
    embed = discord.Embed(title=title, description="\n".join(chunk))
    embed.set_footer(text=f"{index + 1}/{count}")
    return Page(embed, index, count)


def call_text(outcome: CallOutcome, lang: Lang) -> str:
    call, tournament, match = outcome.call, outcome.tournament, outcome.match
    if match is not None and len(match.players) == 2:
        first, second = match.players
        where = t(
            "ui.judge.call_where_table",
            lang,
            round=call.round,
            table=call.table,
            first=name_of(tournament, first),
            second=name_of(tournament, second),
        )
    else:
        where = t("ui.judge.call_where_none", lang, round=call.round)
    reason = (
        t("ui.judge.call_reason", lang, reason=safe(call.reason))
        if call.reason
        else t("ui.judge.call_no_reason", lang)
    )
    return t(
        "ui.judge.call_post",
        lang,
        id=call.id,
        where=where,
        player=name_of(tournament, call.player_id),
        reason=reason,
    )


def _waited(call: JudgeCall, lang: Lang) -> str:
    end = call.claimed_at or call.resolved_at or call.called_at
    seconds = int((end - call.called_at).total_seconds())
    return t("ui.judge.waited", lang, minutes=seconds // 60, seconds=seconds % 60)


def _type(penalty: Penalty, lang: Lang) -> str:
    return t(f"ui.penalty.type.{penalty.type.value}", lang)


def _at(action: Action) -> int:
    return int(datetime.fromisoformat(action.created_at).timestamp())


def action_what(tournament: Tournament, action: Action, lang: Lang) -> str:
    key = f"ui.log.kind.{action.kind}"
    try:
        what = t(key, lang)
    except KeyError:
        what = action.kind
    player = action.payload.get("player_id")
    if isinstance(player, int) and player != action.actor_id:
        what += f" → {name_of(tournament, player)}"
    table = action.payload.get("table")
    if isinstance(table, int):
        what += f" (#{table})" if lang == "en" else f"（テーブル {table}）"
    return what


def action_line(tournament: Tournament, action: Action, lang: Lang) -> str:
    actor = f"<@{action.actor_id}>" if action.actor_id else "bot"
    return t(
        "ui.log.line",
        lang,
        id=action.id,
        at=_at(action),
        actor=actor,
        what=action_what(tournament, action, lang),
    )


def _preview_embed(preview: PenaltyPreview, lang: Lang) -> discord.Embed:
    op = preview.operation
    tournament = preview.tournament
    lines = [
        t(
            "ui.penalty.preview_body",
            lang,
            type=t(f"ui.penalty.type.{op.penalty.value}", lang),
            rule=op.penalty.rule,
            infraction=t(f"ui.penalty.infraction.{op.infraction.value}", lang),
            infraction_rule=op.infraction.rule,
            reason=safe(op.reason),
        ),
        "",
    ]
    if preview.earlier:
        lines.append(t("ui.penalty.earlier_title", lang, count=len(preview.earlier)))
        lines += [
            t(
                "ui.penalty.earlier_line",
                lang,
                id=p.id,
                type=_type(p, lang),
                infraction=t(f"ui.penalty.infraction.{p.infraction.value}", lang),
                round=p.round,
                reason=safe(p.reason),
            )
            + (t("ui.penalty.earlier_revoked", lang) if p.revoked else "")
            for p in preview.earlier
        ]
    else:
        lines.append(t("ui.penalty.earlier_none", lang))
    suggestion = preview.suggestion
    if suggestion is not None:
        lines += [
            "",
            t(
                "ui.penalty.suggestion",
                lang,
                type=t(f"ui.penalty.type.{suggestion.type.value}", lang),
                rule=suggestion.rule,
            ),
        ]
    description = "\n".join(lines)
    if len(description) > 4000:
        description = description[: description.rfind("\n", 0, 3990)] + "\n…"
    return discord.Embed(
        title=t(
            "ui.penalty.preview_title", lang, player=name_of(tournament, preview.player.user_id)
        ),
        description=description,
    )


async def setup(bot: TournamentBot) -> None:
    await bot.add_cog(Judges(bot))

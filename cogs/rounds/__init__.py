"""/round pair|repair|start|status, /pairing, /report result, /result set, /drop, /undrop,
/standings, the report buttons and the round clock.

Thin adapters: each command builds the actor, calls one service, renders with bot/ui, and
posts where the server's /setup says (pairings, standings, judge calls).
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.app import TournamentBot
from bot.i18n import Lang, normalise_locale, t
from bot.services.clock import DueNotice
from bot.services.rounds import Paired, ReportOutcome, ResultChange
from bot.ui.bracket import bracket_file
from bot.ui.messages import fit_or_attach, interaction_lang, reply_ephemeral
from bot.ui.pagination import Page, page_view
from bot.ui.render import safe
from bot.ui.rounds import (
    bracket_picture,
    describe_result,
    explanation_lines,
    name_of,
    pairings_posts,
    standing_rows,
    status_embed,
)
from bot.ui.standings import standings_page
from bot.ui.stateless import send_stateless_modal
from cogs.common import (
    actor_of,
    guild_lang,
    post,
    post_to_judges,
    post_to_log,
    posting_lang,
    tournament_autocomplete,
)
from cogs.rounds._views import (
    DYNAMIC_ITEMS,
    claim_view,
    confirm_view,
    drop_view,
    report_view,
    time_modal,
)
from domain.timeparse import typed_count
from domain.tournament.clock import NoticeKind
from domain.tournament.model import Tournament
from domain.tournament.play import JUDGED_RESULTS
from domain.tournament.rounds import Claim, Match, Round, RoundKind
from domain.tournament.views import standings_lines

log = logging.getLogger(__name__)

TOURNAMENT = "Tournament (optional when only one is open)"
CLAIM_CHOICES = [app_commands.Choice(name=claim.value, value=claim.value) for claim in Claim]
RESULT_CHOICES = [app_commands.Choice(name=value, value=value) for value in JUDGED_RESULTS]
STANDINGS_PER_PAGE = 20


class Rounds(commands.Cog):
    round = app_commands.Group(
        name="round", description="Pairings and the round clock (organizers)", guild_only=True
    )
    report = app_commands.Group(name="report", description="Report a match result", guild_only=True)
    result = app_commands.Group(
        name="result", description="Record and correct results (judges)", guild_only=True
    )

    def __init__(self, bot: TournamentBot) -> None:
        self.bot = bot
        self.services = bot.services
        self.clock_loop = tasks.loop(seconds=bot.settings.clock_tick_seconds)(self._tick)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.modal_routes.add(r"rt:(?P<tournament>\d+):(?P<round>\d+)", self._time_submitted)
        self.bot.page_renderers["standings"] = self.render_standings_page
        self.clock_loop.start()

    async def cog_unload(self) -> None:
        self.clock_loop.cancel()

    # -- pairing ------------------------------------------------------------------------

    @round.command(name="pair", description="Pair the next round and post it (organizers)")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def pair(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        paired = await self.services.rounds.pair(actor_of(interaction), tournament)
        await self._post_pairings(interaction, paired)
        lines = [
            t(
                "ui.rounds.paired_reply",
                lang,
                round=paired.round.number,
                tables=len(paired.round.matches),
            )
        ]
        if paired.round.kind is RoundKind.SWISS:
            notes = explanation_lines(paired.tournament, paired.proposal.explanation, lang)
            lines.append(f"**{t('ui.rounds.explanation_title', lang)}**")
            lines += notes or [t("ui.rounds.no_explanation", lang)]
        text, file = fit_or_attach("\n".join(lines), "pairing-explanation.txt", lang)
        if file is None:
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.followup.send(text, file=file, ephemeral=True)

    async def _post_pairings(self, interaction: discord.Interaction, paired: Paired) -> None:
        tournament, current = paired.tournament, paired.round
        config = await self.services.guilds.config(tournament.guild_id)
        lang = await guild_lang(interaction)
        channel_id = config.pairings_channel_id or interaction.channel_id
        channel = self.bot.get_channel(channel_id) if channel_id else None
        if not isinstance(channel, discord.abc.Messageable):
            return
        first: discord.Message | None = None
        for part in pairings_posts(tournament, current, paired.points, lang):
            message = await channel.send(
                part.content,
                allowed_mentions=part.allowed_mentions,
                view=report_view(tournament.id, current.number),
            )
            first = first or message
        picture = (
            bracket_picture(tournament, lang) if current.kind is RoundKind.ELIMINATION else None
        )
        if picture is not None:
            await channel.send(
                file=bracket_file(picture), allowed_mentions=discord.AllowedMentions.none()
            )
        thread_id = None
        if first is not None and isinstance(channel, discord.TextChannel):
            try:
                thread = await first.create_thread(
                    name=t("ui.rounds.thread_name", lang, round=current.number)
                )
                thread_id = thread.id
            except discord.HTTPException:
                log.warning("could not open the reports thread of round %s", current.number)
        await self.services.round_clock.remember_round_post(
            tournament.id,
            current.number,
            channel.id,
            thread_id,
        )

    @round.command(
        name="repair",
        description="Take back the latest pairings while they have no results (organizers)",
    )
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def repair(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        _, number = await self.services.rounds.repair(actor_of(interaction), tournament)
        await interaction.response.send_message(
            t("ui.rounds.repaired", lang, round=number), ephemeral=True
        )

    @round.command(name="start", description="Start the round clock (organizers)")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def start(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        found, current = await self.services.rounds.start_clock(actor_of(interaction), tournament)
        assert current.ends_at is not None
        end = int(current.ends_at.timestamp())
        await interaction.response.send_message(
            t("ui.rounds.clock_reply", lang, round=current.number, end=end), ephemeral=True
        )
        channel_lang = await guild_lang(interaction)
        await self._post_to_round(
            found,
            current,
            t(
                "ui.rounds.clock_started",
                channel_lang,
                round=current.number,
                minutes=found.time_limit_minutes,
                end=end,
            ),
        )

    @round.command(name="status", description="Time left and the tables still playing")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def status(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        lang = interaction_lang(interaction)
        found, current = await self.services.rounds.status(actor_of(interaction), tournament)
        embed, file = status_embed(found, current, lang)
        if file is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, file=file, ephemeral=True)

    @app_commands.command(name="pairing", description="Your table and opponent this round")
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def pairing(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        lang = interaction_lang(interaction)
        mine = await self.services.rounds.my_match(actor_of(interaction), tournament)
        await interaction.response.send_message(
            self._my_match_text(mine.tournament, mine.round, mine.match, interaction.user.id, lang),
            ephemeral=True,
        )

    def _my_match_text(
        self, tournament: Tournament, current: Round, match: Match, user_id: int, lang: Lang
    ) -> str:
        opponent = match.opponent_of(user_id)
        if opponent is None:
            return t("ui.rounds.mine_bye", lang, round=current.number)
        points = {line.user_id: line.points for line in standings_lines(tournament)}
        return t(
            "ui.rounds.mine",
            lang,
            round=current.number,
            table=match.table,
            opponent=f"<@{opponent}>",
            points=points.get(opponent, 0),
        )

    # -- reporting ----------------------------------------------------------------------

    @report.command(
        name="result", description="Report your match result; your opponent confirms it"
    )
    @app_commands.describe(
        result="win, lose, concede or time (time needs both point-zone counts)",
        my_points="Time only: cards in your point zone (0–6)",
        opponent_points="Time only: cards in your opponent's point zone (0–6)",
        tournament=TOURNAMENT,
    )
    @app_commands.choices(result=CLAIM_CHOICES)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def report_result(
        self,
        interaction: discord.Interaction,
        result: app_commands.Choice[str],
        my_points: app_commands.Range[int, 0, 6] | None = None,
        opponent_points: app_commands.Range[int, 0, 6] | None = None,
        tournament: str | None = None,
    ) -> None:
        # At the end of a round everyone reports at once and the reports queue for the one
        # database writer: acknowledge first, so none nears Discord's 3-second limit.
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.services.rounds.report(
            actor_of(interaction), tournament, result.value, my_points, opponent_points
        )
        await self._after_report(interaction, outcome)

    async def open_report_form(
        self, interaction: discord.Interaction[Any], tournament_id: int
    ) -> None:
        lang = interaction_lang(interaction)
        mine = await self.services.rounds.my_match(actor_of(interaction), str(tournament_id))
        opponent = mine.match.opponent_of(interaction.user.id)
        if opponent is None:
            await reply_ephemeral(
                interaction, t("ui.rounds.mine_bye", lang, round=mine.round.number)
            )
            return
        await interaction.response.send_message(
            t(
                "ui.report.choose",
                lang,
                round=mine.round.number,
                table=mine.match.table,
                opponent=name_of(mine.tournament, opponent),
            ),
            view=claim_view(tournament_id, mine.round.number, lang),
            ephemeral=True,
        )

    async def open_time_form(
        self, interaction: discord.Interaction[Any], tournament_id: int, number: int
    ) -> None:
        await send_stateless_modal(
            interaction, time_modal(tournament_id, number, interaction_lang(interaction))
        )

    async def _time_submitted(
        self, interaction: discord.Interaction[Any], match: re.Match[str], values: dict[str, str]
    ) -> None:
        mine, theirs = (
            typed_count(values.get(key, ""), key="ui.report.not_a_count", rule="R-MATCH-2")
            for key in ("mine", "theirs")
        )
        outcome = await self.services.rounds.report(
            actor_of(interaction), match["tournament"], "time", mine, theirs
        )
        await self._after_report(interaction, outcome)

    async def report_by_button(
        self, interaction: discord.Interaction[Any], tournament_id: int, claim: str
    ) -> None:
        outcome = await self.services.rounds.report(
            actor_of(interaction), str(tournament_id), claim
        )
        await self._after_report(interaction, outcome)

    async def answer_report(
        self,
        interaction: discord.Interaction[Any],
        tournament_id: int,
        number: int,
        table: int,
        *,
        dispute: bool,
    ) -> None:
        """The opponent's 確認 or 異議 on a pending report."""
        await interaction.response.defer(ephemeral=True, thinking=True)  # as /report result
        answer = self.services.rounds.dispute if dispute else self.services.rounds.confirm
        outcome = await answer(actor_of(interaction), tournament_id, number, table)
        await self._after_report(interaction, outcome)

    async def _after_report(
        self, interaction: discord.Interaction[Any], outcome: ReportOutcome
    ) -> None:
        """Answer the player, then tell whoever must act next: the opponent, or the judges."""
        lang = interaction_lang(interaction)
        tournament, match = outcome.tournament, outcome.match
        if outcome.confirmed:
            text = t(
                "ui.report.confirmed",
                lang,
                result=describe_result(tournament, match, match.result, lang),
            )
        elif outcome.disagrees:
            text = t(
                "ui.report.disagree"
                if match.reports and len(match.reports) > 1
                else "ui.report.disputed",
                lang,
            )
        else:
            pending = match.reports[-1].result if match.reports else None
            text = t(
                "ui.report.filed",
                lang,
                result=describe_result(tournament, match, pending, lang),
                opponent=name_of(tournament, outcome.opponent),
            )
        await reply_ephemeral(interaction, text)
        channel_lang = await posting_lang(self.bot, tournament.guild_id)
        if outcome.confirmed:
            await self._post_to_round(
                tournament,
                outcome.round,
                t(
                    "ui.report.notice_confirmed",
                    channel_lang,
                    round=outcome.round.number,
                    table=match.table,
                    result=describe_result(tournament, match, match.result, channel_lang),
                ),
                thread=True,
            )
            await self._after_round_change(tournament, outcome.round.number)
        elif outcome.disagrees:
            await self._tell_judges_dispute(tournament, outcome.round, match, channel_lang)
        else:
            await self._ask_opponent(
                tournament, outcome.round, match, outcome.reporter, channel_lang
            )

    async def _ask_opponent(
        self, tournament: Tournament, current: Round, match: Match, reporter: int, lang: Lang
    ) -> None:
        opponent = match.opponent_of(reporter)
        if opponent is None or not match.reports:
            return
        text = t(
            "ui.report.notify",
            lang,
            opponent=f"<@{opponent}>",
            reporter=name_of(tournament, reporter),
            round=current.number,
            table=match.table,
            result=describe_result(tournament, match, match.reports[-1].result, lang),
        )
        view = confirm_view(tournament.id, current.number, match.table)
        pings = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(id=opponent)]
        )
        place = await self.services.round_clock.round_place(tournament.id, current.number)
        target = self.bot.get_channel(place[1]) if place and place[1] else None
        if isinstance(target, discord.abc.Messageable):
            try:
                await target.send(text, view=view, allowed_mentions=pings)
                return
            except discord.HTTPException:
                log.warning("could not post to the reports thread of round %s", current.number)
        # No thread: the opponent hears by DM.
        try:
            user = self.bot.get_user(opponent) or await self.bot.fetch_user(opponent)
            await user.send(text, view=view, allowed_mentions=pings)
        except discord.HTTPException:
            log.info("could not DM player %s about a report", opponent)

    async def _tell_judges_dispute(
        self, tournament: Tournament, current: Round, match: Match, lang: Lang
    ) -> None:
        claims = [
            t(
                "ui.report.claim_line",
                lang,
                player=name_of(tournament, r.player_id),
                result=describe_result(tournament, match, r.result, lang),
            )
            for r in match.reports
        ]
        first, second = match.players
        await post_to_judges(
            self.bot,
            tournament.guild_id,
            t(
                "ui.report.judge_dispute",
                lang,
                round=current.number,
                table=match.table,
                first=name_of(tournament, first),
                second=name_of(tournament, second),
                claims="\n".join(claims),
            ),
        )

    # -- judges and drops ---------------------------------------------------------------

    @result.command(name="set", description="Set or correct any result (judges and organizers)")
    @app_commands.describe(
        table="Table number",
        result="win, judgement, time, concede, double_loss or no_show",
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
        table: app_commands.Range[int, 1, 1000],
        result: app_commands.Choice[str],
        player: discord.Member | None = None,
        first_points: app_commands.Range[int, 0, 6] | None = None,
        second_points: app_commands.Range[int, 0, 6] | None = None,
        round: app_commands.Range[int, 1, 100] | None = None,
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
        await interaction.response.send_message(
            self._change_text(change, "ui.result.set_reply", lang), ephemeral=True
        )
        channel_lang = await posting_lang(self.bot, change.tournament.guild_id)
        await post_to_log(
            self.bot,
            change.tournament.guild_id,
            self._change_text(
                change, "ui.result.set_log", channel_lang, judge=safe(interaction.user.display_name)
            ),
        )
        await self._after_round_change(change.tournament, change.round.number)

    def _change_text(self, change: ResultChange, key: str, lang: Lang, **extra: object) -> str:
        return t(
            key,
            lang,
            round=change.round.number,
            table=change.match.table,
            new=describe_result(change.tournament, change.match, change.new, lang),
            old=describe_result(change.tournament, change.match, change.old, lang),
            **extra,
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

    async def confirm_drop(self, interaction: discord.Interaction[Any], tournament_id: int) -> None:
        """The ドロップ button of the pairings post: asks first, as dropping cannot be undone
        by the player."""
        lang = interaction_lang(interaction)
        found = await self.services.tournaments.info(actor_of(interaction), str(tournament_id))
        await interaction.response.send_message(
            t("ui.drop.confirm", lang, tournament=safe(found.tournament.name)),
            view=drop_view(tournament_id, lang),
            ephemeral=True,
        )

    async def drop_player(
        self, interaction: discord.Interaction[Any], reference: str | None, player: int | None
    ) -> None:
        lang = interaction_lang(interaction)
        found, dropped = await self.services.rounds.drop(actor_of(interaction), reference, player)
        name = safe(found.name)
        if dropped.player_id == interaction.user.id:
            text = t("ui.drop.self", lang, tournament=name)
        else:
            text = t(
                "ui.drop.other", lang, tournament=name, player=name_of(found, dropped.player_id)
            )
        if dropped.match_unfinished:
            text += "\n" + t("ui.drop.unfinished", lang, round=dropped.after_round)
        await interaction.response.send_message(text, ephemeral=True)
        channel_lang = await posting_lang(self.bot, found.guild_id)
        await post_to_log(
            self.bot,
            found.guild_id,
            t(
                "ui.drop.log",
                channel_lang,
                player=name_of(found, dropped.player_id),
                round=dropped.after_round,
            ),
        )

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
        await interaction.response.send_message(
            t("ui.drop.undrop", lang, player=name_of(found, player.id)), ephemeral=True
        )

    # -- standings ----------------------------------------------------------------------

    @app_commands.command(name="standings", description="Standings: points and opponents' points")
    @app_commands.describe(
        public="Post it in this channel (default: only you see it)", tournament=TOURNAMENT
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def standings(
        self, interaction: discord.Interaction, public: bool = False, tournament: str | None = None
    ) -> None:
        lang = await guild_lang(interaction) if public else interaction_lang(interaction)
        found = await self.services.rounds.standings(interaction.guild_id, tournament)
        arg = f"{found.tournament.id}.{lang}"
        page = await self.render_standings_page(interaction, arg, 0)
        view = page_view("standings", arg, page)
        kwargs: dict[str, Any] = {"embed": page.embed, "ephemeral": not public}
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(**kwargs)

    async def render_standings_page(
        self, interaction: discord.Interaction[Any], arg: str, page: int
    ) -> Page:
        tournament_id, _, lang_code = arg.partition(".")
        lang = normalise_locale(lang_code)
        found = await self.services.rounds.standings(interaction.guild_id, tournament_id)
        return _standings_page(found.tournament, found.after_round, lang, page)

    async def _after_round_change(self, tournament: Tournament, number: int) -> None:
        """When a result completes a round, post the standings to the standings channel."""
        changed = tournament.round(number)
        if changed is None or not changed.complete:
            # This result left the round open: skip the standings (tens of milliseconds
            # at 200 players, holding up every other interaction). The result that
            # completes the round sees it complete here.
            return
        fresh = await self.services.rounds.standings(tournament.guild_id, str(tournament.id))
        current = fresh.tournament.round(number)
        if current is None or not current.complete or number != fresh.tournament.current_round:
            return
        config = await self.services.guilds.config(tournament.guild_id)
        lang = await posting_lang(self.bot, tournament.guild_id)
        channel_id = config.standings_channel_id
        if channel_id is None:
            return
        page = _standings_page(fresh.tournament, fresh.after_round, lang, 0)
        arg = f"{tournament.id}.{lang}"
        view = page_view("standings", arg, page)
        kwargs: dict[str, Any] = {"embed": page.embed}
        if view is not None:
            kwargs["view"] = view
        await post(self.bot, channel_id, **kwargs)

    # -- posting ------------------------------------------------------------------------

    async def _post_to_round(
        self, tournament: Tournament, current: Round, text: str, *, thread: bool = False
    ) -> None:
        place = await self.services.round_clock.round_place(tournament.id, current.number)
        if place is None:
            config = await self.services.guilds.config(tournament.guild_id)
            await post(self.bot, config.pairings_channel_id, text)
            return
        channel_id, thread_id = place
        await post(self.bot, thread_id if thread and thread_id else channel_id, text)

    # -- the clock ----------------------------------------------------------------------

    async def _tick(self) -> None:
        try:
            due = await self.services.round_clock.due()
            for notice in due:
                if not await self.services.round_clock.claim(notice) or notice.late:
                    continue
                await self._announce(notice)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the round clock failed; it tries again at the next tick")

    async def _announce(self, due: DueNotice) -> None:
        tournament, current, notice = due.tournament, due.round, due.notice
        lang = await posting_lang(self.bot, tournament.guild_id)
        if notice.kind is NoticeKind.REMINDER:
            assert current.ends_at is not None
            text = t(
                "ui.rounds.reminder",
                lang,
                round=current.number,
                minutes=notice.minutes_left,
                end=int(current.ends_at.timestamp()),
            )
            await self._post_to_round(tournament, current, text)
        elif notice.kind is NoticeKind.CALL_REPING:
            judges = self.bot.get_cog("Judges")
            if judges is not None:
                await judges.reping(tournament, notice.call_id)  # type: ignore[attr-defined]
        elif notice.kind is NoticeKind.TIME_UP:
            tables = [str(table) for table in notice.tables]
            await self._post_to_round(
                tournament,
                current,
                t("ui.rounds.time_up", lang, round=current.number, tables=tables),
            )
        else:
            match = current.match_at(notice.tables[0])
            if match is None or len(match.players) != 2:
                return
            first, second = match.players
            claims = [
                t(
                    "ui.report.claim_line",
                    lang,
                    player=name_of(tournament, r.player_id),
                    result=describe_result(tournament, match, r.result, lang),
                )
                for r in match.reports
            ]
            await post_to_judges(
                self.bot,
                tournament.guild_id,
                t(
                    "ui.report.judge_unconfirmed",
                    lang,
                    round=current.number,
                    table=match.table,
                    first=name_of(tournament, first),
                    second=name_of(tournament, second),
                    minutes=self.bot.settings.unconfirmed_report_minutes,
                    claims="\n".join(claims),
                ),
            )


def _standings_page(tournament: Tournament, after_round: int, lang: Lang, page: int) -> Page:
    title = t("ui.standings.title", lang, tournament=safe(tournament.name), round=after_round)
    embed, count = standings_page(
        standing_rows(standings_lines(tournament)), title, lang, page, per_page=STANDINGS_PER_PAGE
    )
    return Page(embed, min(max(page, 0), count - 1), count)


async def setup(bot: TournamentBot) -> None:
    await bot.add_cog(Rounds(bot))

"""A running event: pairing, the clock, reports and confirmations, judges' results, drops,
standings, the finish and the export. Every change is an operation of the tournament model.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace

from bot.notify.plan import Say, rooms_now, standings_now
from bot.services.actors import Actor
from bot.services.base import Service, TournamentRef
from bot.services.copies import create_copy, plan_copy
from bot.store.actions import operations_in
from bot.store.outbox import PostState as PostState  # the cogs' and the UI's name
from bot.worker import Priority, at_hand, off_loop, off_loop_as
from domain.engine.results import MatchResult
from domain.errors import DomainError, IllegalTransition, NotFound, one_of
from domain.guild import GuildConfig
from domain.tournament import events as ev
from domain.tournament.match_rows import MatchRow, match_rows
from domain.tournament.model import Entry, Tournament
from domain.tournament.operations import (
    ConfirmResult,
    DisputeResult,
    Drop,
    ExtendRound,
    ExtendTable,
    FinishTournament,
    PairRound,
    Repeat,
    ReportResult,
    Role,
    SetResult,
    StartRound,
    Undrop,
    UnpairRound,
)
from domain.tournament.permissions import require_role, visible_penalties_of
from domain.tournament.play import (
    Proposal,
    disputable,
    judged_result,
    own_open_match,
    propose_round,
    repeats_own_report,
    require_round_in_play,
    round_extension_refused,
    table_to_judge,
)
from domain.tournament.rooms import check_rooms_fit, rooms_wanted
from domain.tournament.rounds import Claim, Match, Report, Round
from domain.tournament.views import (
    StandingLine,
    Views,
    export_json,
)


@dataclass(frozen=True)
class Paired:
    tournament: Tournament
    round: Round
    proposal: Proposal
    # Where the round's pairings post stood when the answer was given: the organizer is
    # told "posted" only then (else that it waits its turn, or for Discord, and goes out by
    # itself; or that it could be posted nowhere).
    posted: PostState = PostState.POSTED
    # The round's match rooms not made yet when the answer was given (Discord makes a
    # server's channels slowly): the post names them as they are made.
    rooms_waiting: int = 0


@dataclass(frozen=True)
class MyMatch:
    tournament: Tournament
    round: Round
    match: Match
    opponent: Entry | None
    views: Views


@dataclass(frozen=True)
class ReportOutcome:
    """What a report or a confirmation did, for the reporter's reply
    (`bot.ui.rounds.report_reply`). Who else is told is the notifier's plan
    (bot/notify/plan.py), sent by the delivery (bot/delivery)."""

    tournament: Tournament
    round: Round
    match: Match
    events: tuple[ev.Event, ...]
    reporter: int
    opponent: int | None
    # The same report again, already filed and still waiting: nothing was done, nobody
    # told again (`domain.tournament.play.repeats_own_report`).
    repeated: bool = False

    @property
    def confirmed(self) -> bool:
        return any(isinstance(e, ev.ResultConfirmed) for e in self.events)

    @property
    def disagrees(self) -> bool:
        return any(isinstance(e, ev.ReportsDisagree | ev.ResultDisputed) for e in self.events)

    @property
    def disputed(self) -> bool:
        """異議 was pressed (rather than two reports that differ)."""
        return any(isinstance(e, ev.ResultDisputed) for e in self.events)


@dataclass(frozen=True)
class Disputable:
    """A report waiting for the player who may dispute it."""

    tournament: Tournament
    round: Round
    match: Match
    report: Report


@dataclass(frozen=True)
class ResultChange:
    tournament: Tournament
    round: Round
    match: Match
    old: MatchResult | None
    new: MatchResult
    server: GuildConfig  # the server's settings: the language of its posts


@dataclass(frozen=True)
class RoundExtended:
    """What 全体延長 did, for the judge's answer (`bot.ui.rounds.round_extended_reply`)."""

    tournament: Tournament
    round: Round
    event: ev.RoundExtended


@dataclass(frozen=True)
class Standings:
    """A tournament's standings as of one version: `views` holds them, worked out once for
    that version (`lines` is at hand once `ready`)."""

    tournament: Tournament
    views: Views

    @property
    def lines(self) -> tuple[StandingLine, ...]:
        """What every standings view shows: after the finish, the final placings, the top
        cut first (R-FMT-1)."""
        return self.views.placings

    @property
    def after_round(self) -> int:
        return self.views.after_round


@dataclass(frozen=True)
class Export:
    """What /tournament export hands out: for spreadsheets, and the record to keep."""

    standings: Standings
    matches: list[MatchRow]
    record: bytes  # the replay record as JSON


@dataclass(frozen=True)
class Final:
    """The finished tournament; its final standings are `views.final` (the notifier posts
    them)."""

    tournament: Tournament
    views: Views
    # A repeating event (毎週, 隔週): the next one, created in the finish's transaction, or
    # why the rules refused it (the finish stands either way).
    next_event: Tournament | None = None
    next_refused: DomainError | None = None


# How long the organizer's answer waits for the round's pairings post to be out (how long a
# 4,096-player round's takes: docs/BENCHMARKS.md, "The end of a round of a 4,096-player
# event", click → last pairings message).
POSTED_WITHIN = 3.0


class RoundService(Service):
    async def pair(
        self, actor: Actor, reference: TournamentRef, *, free_channels: int | None = None
    ) -> Paired:
        """Pair the next round. `free_channels`: how many channels the server can still
        take (None: not known); a round whose match rooms would not fit is refused."""
        return await self._pair(actor, reference, start=False, free_channels=free_channels)

    async def next_round(
        self, actor: Actor, reference: TournamentRef, *, free_channels: int | None = None
    ) -> Paired:
        """Pair the next round and start its clock, in one press of the panel."""
        return await self._pair(actor, reference, start=True, free_channels=free_channels)

    async def _pair(
        self, actor: Actor, reference: TournamentRef, *, start: bool, free_channels: int | None
    ) -> Paired:
        async with self.uow(actor) as tx:
            tx.authorize(PairRound)
            tournament = await tx.tournament(reference)
            seed = self.seeds()
            # The standings of this version and the pairing read one tally (4,096 players'
            # rounds folded once, whichever asks first).
            views = tx.views(tournament)
            proposal = await off_loop_as(
                Priority.WRITE, lambda: propose_round(tournament, seed, views.tally)
            )
            tournament, _ = await tx.apply(tournament, proposal.operation())
            if tournament.settings.rooms:  # refused whole, before anything is made
                check_rooms_fit(tournament, free_channels, await tx.owned_rooms(tournament.id))
            if start:
                tournament, _ = await tx.apply(tournament, StartRound(proposal.number))
        paired = tournament.current
        assert paired is not None
        posted = await self.store.outbox.post_state(
            tournament.id, Say.PAIRINGS, paired.number, within=POSTED_WITHIN
        )
        waiting = 0
        if tournament.settings.rooms:
            given = await self.store.rooms.rooms(tournament.id, paired.number)
            waiting = sum(1 for room in rooms_wanted(tournament) if room.number not in given)
        return Paired(tournament, paired, proposal, posted, waiting)

    async def post_standings(self, actor: Actor, reference: TournamentRef) -> Tournament:
        """The standings, posted to the standings channel now (the staff's choice)."""
        async with self.uow(actor) as tx:
            require_role(tx.actor, Role.JUDGE)
            tournament = await tx.tournament(reference)
            number = tx.views(tournament).after_round
            if number == 0:
                raise IllegalTransition("rounds.no_standings_yet", tournament=tournament.name)
            await tx.tell(tournament, [standings_now(number)])
        return tournament

    async def repair(self, actor: Actor, reference: TournamentRef) -> tuple[Tournament, int]:
        """Take back the latest round's pairings; returns the round number taken back."""
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            number = tournament.current_round
            tournament, _ = await tx.apply(tournament, UnpairRound(number))
        return tournament, number

    async def start_clock(self, actor: Actor, reference: TournamentRef) -> tuple[Tournament, Round]:
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            tournament, _ = await tx.apply(tournament, StartRound(tournament.current_round))
        current = tournament.current
        assert current is not None
        return tournament, current

    async def status(self, actor: Actor, reference: TournamentRef) -> tuple[Tournament, Round]:
        async with self.reader(actor.guild_id) as tx:
            tournament = await tx.tournament(reference)
        if tournament.current is None:
            raise NotFound("rounds.none_yet", tournament=tournament.name)
        return tournament, tournament.current

    async def my_match(
        self, actor: Actor, reference: TournamentRef, number: int | None = None
    ) -> MyMatch:
        """The player's match of the current round; `number`, when a form names its round,
        must be the current one."""
        async with self.reader(actor.guild_id) as tx:
            tournament = await tx.tournament(reference)
            views = tx.views(tournament)
        if number is not None:
            require_round_in_play(tournament, number)
        return self._my_match(tournament, views, actor.user_id)

    def points_ready(self, mine: MyMatch) -> bool:
        """Whether every player's points are at hand for this version already."""
        return mine.views.has("points")

    async def opponents_points(self, mine: MyMatch) -> Mapping[int, int]:
        """Every player's points now (what /pairing shows of the opponent): worked out once
        per version, off the event loop."""
        views = mine.views
        return await at_hand(lambda: views.points, ready=self.points_ready(mine))

    async def channel_deleted(self, guild_id: int, channel_id: int) -> bool:
        """A channel was deleted on the server: when it was one of a tournament's match
        rooms (or their category), the rooms are brought in step again at once, so the
        table gets its room back. False for any other channel."""
        tournament_id = await self.store.rooms.owner(channel_id)
        if tournament_id is None:
            return False
        async with self.bookkeeping(guild_id) as tx:
            tournament = await tx.load(tournament_id)
            if tournament is None or tournament.phase.over:
                return False
            await tx.tell(tournament, [rooms_now(tournament.current_round or None)])
        return True

    async def room_of(self, mine: MyMatch) -> int | None:
        """The match room of the player's table this round (a voice channel), if it has
        one: the rooms given to this round's tables."""
        if not mine.tournament.settings.rooms or mine.match.is_bye:
            return None
        rooms = await self.store.rooms.rooms(mine.tournament.id, mine.round.number)
        return rooms.get(mine.match.table)

    def _my_match(self, tournament: Tournament, views: Views, user_id: int) -> MyMatch:
        current = tournament.current
        match = current.match_of(user_id) if current else None
        if current is None or match is None:
            raise NotFound("pairing.not_paired", tournament=tournament.name)
        opponent_id = match.opponent_of(user_id)
        opponent = tournament.players.get(opponent_id) if opponent_id is not None else None
        return MyMatch(tournament, current, match, opponent, views)

    async def may_report(self, actor: Actor, tournament_id: int, number: int) -> None:
        """Refuse before asking for the point-zone counts, when the player has no match of
        round `number` left to report."""
        async with self.reader(actor.guild_id) as tx:
            tournament = await tx.tournament(tournament_id)
        own_open_match(tournament, actor.user_id, number)

    async def report(
        self,
        actor: Actor,
        reference: TournamentRef,
        claim: str,
        my_points: int | None = None,
        opponent_points: int | None = None,
        *,
        number: int | None = None,
    ) -> ReportOutcome:
        """A player's report for the round `number` (a button or form carries it; the
        command means the current round)."""
        parsed = one_of(Claim, claim, "report.unknown_claim")
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            number = tournament.current_round if number is None else number
            operation = ReportResult(actor.user_id, number, parsed, my_points, opponent_points)
            if repeats_own_report(tournament, operation) is not None:
                return replace(self._outcome(tournament, number, actor.user_id, ()), repeated=True)
            tournament, events = await tx.apply(tournament, operation)
        return self._outcome(tournament, number, actor.user_id, events)

    async def confirm(
        self, actor: Actor, tournament_id: int, number: int, table: int | None = None
    ) -> ReportOutcome:
        """確認 on the opponent's notice (in the round's thread, or by DM); without `table`,
        the presser's own table of the round (a button under several tables' reports)."""
        actor = await self.in_its_server(actor, tournament_id)
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(tournament_id)
            if table is None:
                table = own_open_match(tournament, actor.user_id, number)[1].table
            operation = ConfirmResult(actor.user_id, number, table)
            tournament, events = await tx.apply(tournament, operation)
        return self._outcome(tournament, number, actor.user_id, events)

    async def disputable(
        self, actor: Actor, tournament_id: int, number: int, table: int | None = None
    ) -> Disputable:
        """The report the player may dispute (異議), before their form opens: someone else
        pressing the button, or a report already settled, is refused at once."""
        actor = await self.in_its_server(actor, tournament_id)
        async with self.reader(actor.guild_id) as tx:
            tournament = await tx.tournament(tournament_id)
        played, match, report = disputable(tournament, actor.user_id, number, table)
        return Disputable(tournament, played, match, report)

    async def dispute(
        self,
        actor: Actor,
        tournament_id: int,
        number: int,
        table: int,
        claim: str,
        my_points: int | None = None,
        opponent_points: int | None = None,
        reason: str = "",
    ) -> ReportOutcome:
        """異議: the player's claim (勝ち / 負け / 時間切れ with their counts) goes to the
        judges beside the report it disputes (pressed in a DM: in the tournament's server)."""
        parsed = one_of(Claim, claim, "report.dispute_claims")
        actor = await self.in_its_server(actor, tournament_id)
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(tournament_id)
            operation = DisputeResult(
                actor.user_id, number, table, reason, parsed, my_points, opponent_points
            )
            tournament, events = await tx.apply(tournament, operation)
        return self._outcome(tournament, number, actor.user_id, events)

    def _outcome(
        self, tournament: Tournament, number: int, user_id: int, events: tuple[ev.Event, ...]
    ) -> ReportOutcome:
        found = tournament.round(number)
        assert found is not None
        match = found.match_of(user_id)
        assert match is not None
        return ReportOutcome(tournament, found, match, events, user_id, match.opponent_of(user_id))

    async def set_result(
        self,
        actor: Actor,
        reference: TournamentRef,
        *,
        table: int,
        choice: str,
        player: int | None = None,
        first_points: int | None = None,
        second_points: int | None = None,
        number: int | None = None,
        advancing: int | None = None,
        unsettled_only: bool = False,
    ) -> ResultChange:
        """/result set, and the judges' buttons on a dispute's notice (`unsettled_only`: a
        button pressed after the table got its result, by another judge's press or by
        command, is refused rather than overwrite that decision)."""
        async with self.uow(actor) as tx:
            tx.authorize(SetResult)
            tournament = await tx.tournament(reference)
            number = number or tournament.current_round
            _, match = table_to_judge(tournament, number, table, unsettled_only=unsettled_only)
            result = judged_result(tournament, choice, match, player, first_points, second_points)
            operation = SetResult(number, table, result, advancing)
            tournament, events = await tx.apply(tournament, operation)
            server = await tx.guild_config()
        change = ev.only(events, ev.ResultSet)
        updated = tournament.round(number)
        assert updated is not None
        final = updated.match_at(table)
        assert final is not None
        return ResultChange(tournament, updated, final, change.old, change.new, server)

    async def table_to_decide(
        self, actor: Actor, tournament_id: int, number: int, table: int
    ) -> tuple[Tournament, Round, Match]:
        """A table a judge is about to decide, before their form opens (時間切れ判定…):
        /result set's role, and a table of two players still without a result (one decided
        since is refused before the form asks for anything)."""
        async with self.reader_as(actor) as tx:
            tx.authorize(SetResult)
            tournament = await tx.tournament(tournament_id)
        played, match = table_to_judge(tournament, number, table, unsettled_only=True)
        return tournament, played, match

    async def drop(
        self, actor: Actor, reference: TournamentRef, player: int | None = None
    ) -> tuple[Tournament, ev.Dropped]:
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            tournament, events = await tx.apply(tournament, Drop(player or actor.user_id))
        dropped = ev.only(events, ev.Dropped)
        return tournament, dropped

    async def may_drop(self, actor: Actor, reference: TournamentRef) -> Tournament:
        """Refuse before asking "drop for good?", when the drop itself would be refused."""
        async with self.reader_as(actor) as tx:
            tournament = await tx.tournament(reference)
            tx.refuse_early(tournament, Drop(actor.user_id))
        return tournament

    async def undrop(self, actor: Actor, reference: TournamentRef, player: int) -> Tournament:
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            tournament, _ = await tx.apply(tournament, Undrop(player))
        return tournament

    async def extend(
        self, actor: Actor, reference: TournamentRef, table: int, minutes: int
    ) -> tuple[Tournament, ev.TableExtended]:
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            operation = ExtendTable(tournament.current_round, table, minutes)
            tournament, events = await tx.apply(tournament, operation)
        extended = ev.only(events, ev.TableExtended)
        return tournament, extended

    async def extend_round(
        self, actor: Actor, reference: TournamentRef, minutes: int
    ) -> RoundExtended:
        """全体延長 (R-MATCH-7): every table of the current round still playing gets
        `minutes` more, in one unit of work. Each table hears its new end and the round's
        channel the whole (the notifier's plan); the judge gets what was done."""
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            operation = ExtendRound(tournament.current_round, minutes)
            tournament, events = await tx.apply(tournament, operation)
        extended = ev.only(events, ev.RoundExtended)
        played = tournament.round(extended.round)
        assert played is not None
        return RoundExtended(tournament, played, extended)

    async def may_extend_round(self, actor: Actor, reference: TournamentRef) -> Tournament:
        """Before the panel's 全体延長 form asks for the minutes: a judge or an organizer,
        and a round the rules would extend now (its clock runs, a table still plays)."""
        async with self.reader_as(actor) as tx:
            tx.authorize(ExtendRound)
            tournament = await tx.tournament(reference)
        refused = round_extension_refused(tournament, tournament.current_round)
        if refused is not None:
            raise refused
        return tournament

    async def standings(self, guild_id: int | None, reference: TournamentRef) -> Standings:
        """The tournament's standings: its views of this version, whose parts are worked
        out once, by the first to ask (see `lines`)."""
        async with self.reader(guild_id) as tx:
            tournament = await tx.tournament(reference, finished_too=True)
            views = tx.views(tournament)
        return Standings(tournament, views)

    async def finish(self, actor: Actor, reference: TournamentRef) -> Final:
        """The finish; for a repeating event, in the same transaction, the next one: its
        number counted on, its date a week or two later, every setting copied, created by
        the organizer who finished (the log says it was the repeat)."""
        next_event = refused = None
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            tournament, _ = await tx.apply(tournament, FinishTournament())
            repeat = tournament.settings.repeat
            if repeat is not Repeat.NONE:
                try:
                    planned = await plan_copy(tx, tournament, repeat, repeated=True)
                except DomainError as error:
                    refused = error
                else:
                    next_event = await create_copy(tx, planned)
        return Final(tournament, self.store.views(tournament), next_event, refused)

    async def export(self, actor: Actor, reference: TournamentRef) -> Export:
        """The standings and every match (the cog writes them as CSV), and the replay record
        as JSON, made off the event loop."""
        async with self.reader_as(actor) as tx:
            tournament = await tx.tournament(reference, finished_too=True)
            log = await tx.log_rows(tournament.id)
            views = tx.views(tournament)
            # The penalties shown are those /penalty list shows: a player's own only.
            whose = visible_penalties_of(tx.actor, None)

        def made() -> Export:
            record = export_json(tournament, views)
            rows = match_rows(tournament, operations_in(log))
            if whose is not None:
                rows = [
                    replace(row, penalties=tuple(p for p in row.penalties if p.player_id == whose))
                    for row in rows
                ]
            return Export(
                Standings(tournament, views),
                rows,
                json.dumps(record, ensure_ascii=False, indent=2).encode("utf-8"),
            )

        return await off_loop(made)

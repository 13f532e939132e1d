"""The rules of a running event: pairing, the clock, reports and confirmations, judges'
results, drops, the top cut and the finish.

Each handler takes the tournament, the operation, the time and the actor, and returns the
new tournament and what happened; a refusal raises a typed, keyed error naming the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from domain.engine.elimination import next_round, random_bracket, top_cut
from domain.engine.explanation import Explanation
from domain.engine.history import Tally, entrants_from_tally, tally
from domain.engine.players import Player, PlayerStatus
from domain.engine.results import MAX_POINT_ZONE, MatchResult, RecordedMatch, ResultKind
from domain.engine.standings import Standing, build_standings, strict_order
from domain.engine.state import Phase
from domain.engine.swiss import pair_swiss_round
from domain.errors import DomainError, IllegalTransition, InvalidInput, PermissionDenied
from domain.event import EventFormat
from domain.tournament import events as ev
from domain.tournament.handlers import Applied, Handler
from domain.tournament.model import Entry, Tournament
from domain.tournament.names import display_name
from domain.tournament.operations import (
    Actor,
    ConfirmResult,
    DisputeResult,
    Drop,
    ExtendRound,
    ExtendTable,
    FinishTournament,
    NoShowTiebreak,
    Operation,
    PairRound,
    ReportResult,
    SetResult,
    StartRound,
    Undrop,
    UnpairRound,
)
from domain.tournament.penalties import PenaltyType
from domain.tournament.rounds import Claim, Match, Report, Round, RoundKind

MAX_EXTENSION_MINUTES = 60


# -- what the engine sees -----------------------------------------------------------------


def standings_players(tournament: Tournament) -> list[Player]:
    """Everyone who took part, in arrival order: active, dropped after playing, disqualified."""
    played = {p for r in tournament.rounds for m in r.matches for p in m.players}
    return [
        Player(str(entry.user_id), entry.status, max(entry.joined_round - 1, 0))
        for entry in tournament.entries()
        if entry.status in (PlayerStatus.ACTIVE, PlayerStatus.DISQUALIFIED)
        or (entry.status is PlayerStatus.DROPPED and entry.user_id in played)
    ]


def recorded_matches(rounds: Sequence[Round]) -> list[RecordedMatch]:
    """The finished matches of `rounds`, as the engine scores them."""
    return [match for played in rounds for match in played.recorded]


def swiss_tally(tournament: Tournament) -> Tally:
    """The Swiss rounds folded for the players of the standings: points, opponents, byes
    and records (what the standings and every view of them read)."""
    parts = [played.tally for played in tournament.swiss_rounds]
    return tally(standings_players(tournament), parts=parts)


def swiss_standings(tournament: Tournament, folded: Tally | None = None) -> tuple[Standing, ...]:
    """R-FMT-4/5: points, then opponents' points, over the Swiss rounds; ties share a rank.
    `folded`: `swiss_tally(tournament)`, when the caller has it already."""
    swiss = tournament.swiss_rounds
    planned = tournament.state.planned_rounds or len(swiss)
    if tournament.format is EventFormat.ELIMINATION:
        planned = max(planned, 1)
    return build_standings(
        standings_players(tournament),
        recorded_matches(swiss),
        planned,
        no_show_as_bye=tournament.settings.noshow_tiebreak is NoShowTiebreak.BYE_VALUE,
        folded=folded,
    )


def eligible_for(tournament: Tournament, number: int) -> list[Entry]:
    """Who is paired in round `number`: active players who have joined by then."""
    return [
        entry for entry in tournament.entries(PlayerStatus.ACTIVE) if entry.joined_round <= number
    ]


# -- proposing a pairing ------------------------------------------------------------------


@dataclass(frozen=True)
class Proposal:
    """The next round as the engine pairs it, with the explanation for organizers."""

    number: int
    kind: RoundKind
    seed: int
    tables: tuple[tuple[int, ...], ...]
    explanation: tuple[Explanation, ...] = ()
    pair_downs: tuple[tuple[int, int], ...] = ()
    bye: int | None = None

    def operation(self) -> PairRound:
        return PairRound(self.number, self.kind, self.seed, self.tables)


def propose_round(tournament: Tournament, seed: int, folded: Tally | None = None) -> Proposal:
    """Pair the next round: Swiss (R-FMT-3), the top cut seeded from the standings, or the
    next round of a bracket (R-FMT-1). Refused while the last round has missing results.

    `folded` is this tournament's `swiss_tally` when the standings have worked it out
    already (the bot's views of the version): pairing reads the same points, opponents and
    byes, and need not fold 4,096 players' rounds again."""
    _require_pairable(tournament)
    number = tournament.current_round + 1
    kind = _next_kind(tournament)
    if kind is RoundKind.SWISS:
        return _propose_swiss(tournament, number, seed, folded)
    return _propose_elimination(tournament, number, seed)


def pairing_kind(tournament: Tournament) -> RoundKind | None:
    """The kind of round the rules would pair next, or None when none may be paired now."""
    try:
        _require_pairable(tournament)
        return _next_kind(tournament)
    except DomainError:
        return None


def finish_allowed(tournament: Tournament) -> bool:
    """Whether `FinishTournament` would be accepted now."""
    try:
        _finish(tournament, FinishTournament(), tournament.created_at, Actor(0))
    except DomainError:
        return False
    return True


def _require_pairable(tournament: Tournament) -> None:
    _require_round_done(tournament, "pair_round")


def _require_round_done(tournament: Tournament, step: str) -> None:
    """The event is in play and its last round has every result in (naming the tables)."""
    if tournament.phase not in (Phase.RUNNING, Phase.TOP_CUT):
        raise IllegalTransition(
            "rounds.not_running", tournament=tournament.name, phase=tournament.phase.value
        )
    current = tournament.current
    if current is not None and not current.complete:
        raise IllegalTransition(
            "engine.state.missing_results",
            round=current.number,
            tables=tuple(str(table) for table in current.missing_tables),
            step=step,
        )


def _next_kind(tournament: Tournament) -> RoundKind:
    """Swiss until the planned rounds are played; then the top cut, if the format has one."""
    if tournament.format is EventFormat.ELIMINATION:
        kind = RoundKind.ELIMINATION
    elif len(tournament.swiss_rounds) < tournament.state.planned_rounds:
        kind = RoundKind.SWISS
    elif tournament.format is EventFormat.SWISS_TOP_CUT:
        kind = RoundKind.ELIMINATION
    else:
        raise IllegalTransition(
            "engine.state.all_rounds_played", rounds=tournament.state.planned_rounds, rule="R-FMT-2"
        )
    current = tournament.current
    if (
        kind is RoundKind.ELIMINATION
        and current is not None
        and current.kind is RoundKind.ELIMINATION
        and _bracket_done(current)
    ):
        raise IllegalTransition("rounds.bracket_complete", tournament=tournament.name)
    return kind


def _bracket_done(last: Round) -> bool:
    """The final has been played: one slot is left (a bye or an empty slot included)."""
    return len(last.matches) == 1


def _propose_swiss(
    tournament: Tournament, number: int, seed: int, folded: Tally | None
) -> Proposal:
    everyone = standings_players(tournament)
    eligible = {str(entry.user_id) for entry in eligible_for(tournament, number)}
    players = [
        replace(p, status=PlayerStatus.ACTIVE if p.id in eligible else PlayerStatus.DROPPED)
        for p in everyone
    ]
    if len(eligible) < 2:
        raise IllegalTransition("rounds.too_few_players", count=len(eligible))
    # Every eligible player is active, so among the standings' players: their tally serves.
    folded = folded if folded is not None else swiss_tally(tournament)
    pairing = pair_swiss_round(entrants_from_tally(players, folded), seed, number)
    tables: list[tuple[int, ...]] = [(int(a), int(b)) for a, b in pairing.pairs]
    if pairing.bye is not None:
        tables.append((int(pairing.bye),))
    return Proposal(
        number,
        RoundKind.SWISS,
        seed,
        tuple(tables),
        pairing.explanation,
        tuple((int(a), int(b)) for a, b in pairing.pair_downs),
        int(pairing.bye) if pairing.bye is not None else None,
    )


def _propose_elimination(tournament: Tournament, number: int, seed: int) -> Proposal:
    current = tournament.current
    if current is not None and current.kind is RoundKind.ELIMINATION:
        # The bracket goes on: who advanced from each slot meets the next slot's winner.
        # Line 180, R-FMT-7 and R-PEN-4: a player who dropped or was disqualified since is
        # never paired again; their next opponent advances with a bye (不戦勝).
        still_in = {entry.user_id for entry in tournament.entries(PlayerStatus.ACTIVE)}
        slots = next_round([str(p) if p in still_in else None for p in current.advancing()])
        tables = tuple(tuple(int(p) for p in slot.players) for slot in slots)
        return Proposal(number, RoundKind.ELIMINATION, seed, tables)
    if tournament.format is EventFormat.ELIMINATION:
        ids = [str(entry.user_id) for entry in eligible_for(tournament, number)]
        bracket = random_bracket(ids, seed)
    else:
        # R-FMT-5: ties at the cut line are broken by a draw from the recorded seed.
        ordered = strict_order(swiss_standings(tournament), tournament.seed or seed)
        size = tournament.config.top_cut or 8
        bracket = top_cut(ordered, min(size, sum(1 for row in ordered if not row.dropped)))
    tables = tuple(tuple(int(p) for p in slot.players) for slot in bracket.first_round)
    return Proposal(number, RoundKind.ELIMINATION, seed, tables)


# -- applying -----------------------------------------------------------------------------


def _pair_round(tournament: Tournament, op: PairRound, at: datetime, actor: Actor) -> Applied:
    _require_pairable(tournament)
    number = tournament.current_round + 1
    if op.round != number:
        raise InvalidInput("rounds.wrong_round", expected=number, given=op.round)
    kind = _next_kind(tournament)
    if op.round_kind is not kind:
        raise InvalidInput("rounds.wrong_kind", expected=kind.value, given=op.round_kind.value)
    seated = [player for table in op.tables for player in table]
    if len(seated) != len(set(seated)):
        raise InvalidInput("rounds.seated_twice", round=number)
    if kind is RoundKind.SWISS:
        expected = {entry.user_id for entry in eligible_for(tournament, number)}
        if set(seated) != expected or any(len(table) not in (1, 2) for table in op.tables):
            raise InvalidInput("rounds.pairing_incomplete", round=number)
    matches = tuple(
        Match(
            table=index,
            players=players,
            result=MatchResult.bye() if len(players) == 1 else None,
        )
        for index, players in enumerate(op.tables, start=1)
    )
    paired = Round(number, kind, op.seed, at, matches)
    state = tournament.state
    if kind is RoundKind.ELIMINATION and tournament.format is EventFormat.SWISS_TOP_CUT:
        state = replace(state, phase=Phase.TOP_CUT)  # R-FMT-1: on to single elimination
    updated = replace(tournament, rounds=(*tournament.rounds, paired), state=state)
    return updated, (ev.RoundPaired(number),)


def _unpair_round(tournament: Tournament, op: UnpairRound, at: datetime, actor: Actor) -> Applied:
    current = tournament.current
    if current is None:
        raise IllegalTransition("rounds.none_yet", tournament=tournament.name)
    if current.number != op.round:
        raise IllegalTransition("rounds.repair_only_last", round=op.round)
    played = [m.table for m in current.matches if len(m.players) == 2 and m.result is not None]
    if played or any(m.reports for m in current.matches):
        raise IllegalTransition(
            "rounds.repair_has_results", round=op.round, tables=tuple(map(str, played))
        )
    state = tournament.state
    previous = tournament.rounds[-2] if len(tournament.rounds) > 1 else None
    if (
        current.kind is RoundKind.ELIMINATION
        and tournament.phase is Phase.TOP_CUT
        and (previous is None or previous.kind is RoundKind.SWISS)
    ):
        state = replace(state, phase=Phase.RUNNING)
    updated = replace(tournament, rounds=tournament.rounds[:-1], state=state)
    return updated, (ev.RoundUnpaired(op.round),)


def _start_round(tournament: Tournament, op: StartRound, at: datetime, actor: Actor) -> Applied:
    current = _round(tournament, op.round)
    if current is not tournament.current:
        raise IllegalTransition("rounds.not_current", round=op.round)
    if current.started_at is not None:
        raise IllegalTransition("rounds.clock_already_started", round=op.round)
    # R-MATCH-1: the announced time limit (40 minutes unless the organizer said otherwise).
    ends = at + timedelta(minutes=tournament.config.time_limit_minutes)
    started = replace(current, started_at=at, ends_at=ends)
    return tournament.with_round(started), (ev.ClockStarted(op.round, ends),)


def claim_result(
    tournament: Tournament,
    match: Match,
    reporter: int,
    claim: Claim,
    my_points: int | None = None,
    opponent_points: int | None = None,
) -> MatchResult:
    """A player's claim about their match, from their side, as a result in table order
    (R-MATCH-2 to R-MATCH-4)."""
    opponent = match.opponent_of(reporter)
    assert opponent is not None
    if claim is Claim.WIN:
        return MatchResult.win(str(reporter))
    if claim is Claim.LOSE:
        return MatchResult.win(str(opponent))
    if claim is Claim.CONCEDE:
        return MatchResult.concession(str(reporter))
    if my_points is None or opponent_points is None:
        raise InvalidInput("report.time_needs_points", max=MAX_POINT_ZONE, rule="R-MATCH-2")
    counts = {reporter: my_points, opponent: opponent_points}
    first, second = match.players
    return _point_zone_result(tournament, match, (counts[first], counts[second]))


def _point_zone_result(
    tournament: Tournament, match: Match, counts: tuple[int, int]
) -> MatchResult:
    """R-MATCH-2 from both point-zone counts in table order. A refusal names the player
    as people know them, not by their Discord id."""
    try:
        return MatchResult.from_point_zone((match.ids[0], match.ids[1]), counts)
    except InvalidInput as refused:
        player = str(refused.params.get("player"))
        name = display_name(tournament, int(player)) if player.isdecimal() else None
        params = {**refused.params, "player": name or player}
        raise InvalidInput(refused.key, rule=refused.rule, **params) from None


# How a judge names a result in /result set.
JUDGED_RESULTS = ("win", "judgement", "time", "concede", "double_loss", "no_show")


def table_to_judge(
    tournament: Tournament, number: int, table: int, *, unsettled_only: bool = False
) -> tuple[Round, Match]:
    """The table of two players a judge decides (/result set, the judges' buttons). With
    `unsettled_only` (a button on a dispute's notice) a table decided since is refused,
    never decided twice; /result set changes a result on purpose."""
    played = tournament.round(number)
    match = played.match_at(table) if played else None
    if played is None or match is None or len(match.players) != 2:
        raise InvalidInput("result.no_such_table", round=number, table=table)
    if unsettled_only and match.result is not None:
        raise IllegalTransition("result.already_settled", round=number, table=table)
    return played, match


def judged_result(
    tournament: Tournament,
    choice: str,
    match: Match,
    player: int | None,
    first: int | None,
    second: int | None,
) -> MatchResult:
    """A judge's /result set choice as a result in table order (R-MATCH-2 to R-MATCH-6)."""
    ids = match.ids
    named = str(player) if player is not None else None
    if choice in ("win", "judgement", "concede", "no_show") and named not in ids:
        raise InvalidInput("result.player_not_at_table", table=match.table, choice=choice)
    if choice == "win" and named:
        return MatchResult.win(named)
    if choice == "judgement" and named:
        return MatchResult.judgement(named)
    if choice == "concede" and named:
        return MatchResult.concession(named)
    if choice == "no_show" and named:
        return MatchResult.no_show(named)
    if choice == "double_loss":
        return MatchResult.double_loss()
    if choice == "time":
        if first is None or second is None:
            raise InvalidInput("report.time_needs_points", max=MAX_POINT_ZONE, rule="R-MATCH-2")
        return _point_zone_result(tournament, match, (first, second))
    raise InvalidInput("result.unknown_choice", value=choice, choices=", ".join(JUDGED_RESULTS))


def _report(tournament: Tournament, op: ReportResult, at: datetime, actor: Actor) -> Applied:
    current, match = own_open_match(tournament, op.player_id, op.round)
    result = claim_result(
        tournament, match, op.player_id, op.claim, op.my_points, op.opponent_points
    )
    others = [r for r in match.reports if r.player_id != op.player_id]
    report = Report(op.player_id, result, at)
    if others and _same_outcome(others[0].result, result, match):
        # Two matching reports from both players count as confirmation.
        final = match.decided(others[0].result)
        return tournament.with_match(current.number, final), (
            ev.ResultConfirmed(current.number, match.table, by_both=True),
        )
    disputed = bool(others)
    reports = tuple(sorted((*others, report), key=lambda r: (r.at, r.player_id)))
    updated = match.with_reports(reports, disputed)
    event: ev.Event = (
        ev.ReportsDisagree(current.number, match.table)
        if disputed
        else ev.ReportFiled(current.number, match.table, op.player_id)
    )
    return tournament.with_match(current.number, updated), (event,)


def repeats_own_report(tournament: Tournament, op: ReportResult) -> Report | None:
    """The reporter's report still waiting at their table when `op` says exactly the same
    again (the same result: 負け and 投了 differ, and so do a time-out's counts): a second
    press of the same button after its first answer was lost. An identical repeat changes
    nothing, so it is not applied and nobody is told again; any other report is applied as
    ever (a changed claim replaces the earlier one). Refused, as the report would be, when
    the match cannot be reported (already final, another round, not the player's)."""
    _, match = own_open_match(tournament, op.player_id, op.round)
    result = claim_result(
        tournament, match, op.player_id, op.claim, op.my_points, op.opponent_points
    )
    for report in match.reports:
        if report.player_id == op.player_id and report.result == result:
            return report
    return None


def _same_outcome(a: MatchResult, b: MatchResult, match: Match) -> bool:
    return a.outcomes(match.ids) == b.outcomes(match.ids) and a.point_zone == b.point_zone


def _confirm(tournament: Tournament, op: ConfirmResult, at: datetime, actor: Actor) -> Applied:
    current, match = own_open_match(tournament, op.player_id, op.round, op.table)
    pending = [r for r in match.reports if r.player_id != op.player_id]
    if not pending and match.reports:  # only the player's own report: the opponent confirms
        raise IllegalTransition("report.own_report", table=match.table)
    if not pending:
        raise IllegalTransition("report.nothing_to_confirm", table=match.table)
    if match.disputed:
        raise IllegalTransition("report.disputed_wait_for_judge", table=match.table)
    final = match.decided(pending[0].result)
    return tournament.with_match(current.number, final), (
        ev.ResultConfirmed(current.number, match.table, by_both=False),
    )


# What a player who disputes a report may claim instead. An agreed draw does not
# exist (R-MATCH-3), and a concession is a loss seen from the conceding side: 負け says it.
DISPUTE_CLAIMS = (Claim.WIN, Claim.LOSE, Claim.TIME)


def disputable(
    tournament: Tournament, player_id: int, number: int, table: int | None = None
) -> tuple[Round, Match, Report]:
    """The report that `player_id` may dispute at their table of round `number` (any table:
    their own): their opponent's, still waiting for them. Otherwise a clear refusal
    (someone else's table, a finished round, nothing reported yet)."""
    current, match = own_open_match(tournament, player_id, number, table)
    pending = [r for r in match.reports if r.player_id != player_id]
    if not pending:
        raise IllegalTransition("report.nothing_to_dispute", table=match.table)
    return current, match, pending[0]


def _dispute(tournament: Tournament, op: DisputeResult, at: datetime, actor: Actor) -> Applied:
    current, match, pending = disputable(tournament, op.player_id, op.round, op.table)
    reports = match.reports
    if op.claim is not None:
        # The claim waits beside the report, as two disagreeing reports do: the judges
        # see both, and the reporter may still agree by reporting the same.
        claimed = Report(op.player_id, _dispute_claim(tournament, match, pending, op), at)
        others = [r for r in match.reports if r.player_id != op.player_id]
        reports = tuple(sorted((*others, claimed), key=lambda r: (r.at, r.player_id)))
    disputed = match.with_reports(reports, disputed=True)
    return tournament.with_match(current.number, disputed), (
        ev.ResultDisputed(current.number, match.table, op.player_id, op.reason[:500]),
    )


def _dispute_claim(
    tournament: Tournament, match: Match, pending: Report, op: DisputeResult
) -> MatchResult:
    """The disputing player's claim as a result; refused when it says what the report
    says (then the report is right: 確認 confirms it)."""
    assert op.claim is not None
    if op.claim not in DISPUTE_CLAIMS:
        raise InvalidInput("report.dispute_claims")
    if op.claim is not Claim.TIME and (op.my_points is not None or op.opponent_points is not None):
        # A judgement win is not a win (R-FMT-2): counts mean the game ended on time.
        raise InvalidInput("report.points_only_for_time", rule="R-MATCH-2")
    claimed = claim_result(
        tournament, match, op.player_id, op.claim, op.my_points, op.opponent_points
    )
    if _same_outcome(pending.result, claimed, match):
        raise InvalidInput("report.dispute_agrees", table=match.table)
    return claimed


def require_round_in_play(tournament: Tournament, number: int) -> Round:
    """A player's report, confirmation or form acts on the round it was made for; a form
    left open from a round that is over is refused, never filed in the next one."""
    current = _round_in_play(tournament)
    _require_current(current, number)
    return current


def _require_current(current: Round, number: int) -> None:
    """Round `number` is the one in play: an earlier one is over, a later one was taken
    back (its pairings undone before any result)."""
    if number > current.number:
        raise IllegalTransition("report.round_taken_back", round=number)
    if number != current.number:
        raise IllegalTransition("report.round_finished", round=number)


def _round_in_play(tournament: Tournament) -> Round:
    """The current round while the event plays one, or why there is none to report in."""
    current = tournament.current
    in_play = tournament.phase in (Phase.RUNNING, Phase.TOP_CUT)
    if in_play and current is None:
        raise IllegalTransition("rounds.none_yet", tournament=tournament.name)
    if current is None or not in_play:
        raise IllegalTransition("report.no_round", tournament=tournament.name)
    return current


def own_open_match(
    tournament: Tournament, player_id: int, number: int, table: int | None = None
) -> tuple[Round, Match]:
    """The reporter's unfinished match of the current round, or a clear refusal."""
    current = _round_in_play(tournament)
    match = current.match_of(player_id)
    # An unfinished own match means the round is not complete: only otherwise is the whole
    # round scanned (512 tables at 1024 players, per report).
    own_open = match is not None and not current.finished(match)
    _require_current(current, number)
    if not own_open and current.complete:
        raise IllegalTransition("report.round_finished", round=number)
    if player_id not in tournament.players:  # a member who never entered this event
        raise PermissionDenied("report.not_a_player")
    if match is None or (table is not None and match.table != table):
        raise PermissionDenied("report.not_your_match", round=number)
    if match.is_bye:
        raise IllegalTransition("report.bye", round=number)
    if current.finished(match):
        raise IllegalTransition("report.already_final", round=number, table=match.table)
    return current, match


def _set_result(tournament: Tournament, op: SetResult, at: datetime, actor: Actor) -> Applied:
    target = _round(tournament, op.round)
    match = target.match_at(op.table)
    if match is None or len(match.players) != 2:
        raise InvalidInput("result.no_such_table", round=op.round, table=op.table)
    op.result.outcomes(match.ids)  # refuses a result that names someone else
    advancing = op.advancing
    if target.kind is RoundKind.ELIMINATION:
        winner = op.result.winner(match.ids)
        if op.result.kind is ResultKind.TIME_DRAW:
            if advancing not in match.players:
                raise InvalidInput(
                    "result.elimination_draw_needs_winner", table=op.table, rule="R-FMT-1"
                )
        elif advancing is not None and str(advancing) != winner:
            raise InvalidInput("result.advancing_not_winner", table=op.table, rule="R-FMT-1")
        else:
            advancing = None
        later = [r for r in tournament.rounds if r.number > op.round]
        if later and target.advancing()[match.table - 1] != _advancer(op.result, match, advancing):
            # The next bracket round was paired from the old winner.
            raise IllegalTransition("result.bracket_moved_on", round=op.round, table=op.table)
    elif advancing is not None:
        raise InvalidInput("result.advancing_only_elimination", table=op.table)
    old = match.result
    final = match.decided(op.result, advancing)
    return tournament.with_match(target.number, final), (
        ev.ResultSet(op.round, op.table, old, op.result),
    )


def _advancer(result: MatchResult, match: Match, advancing: int | None) -> int | None:
    if advancing is not None:
        return advancing
    winner = result.winner(match.ids)
    return int(winner) if winner is not None else None


def _drop(tournament: Tournament, op: Drop, at: datetime, actor: Actor) -> Applied:
    entry = tournament.players.get(op.player_id)
    if tournament.phase not in (Phase.RUNNING, Phase.TOP_CUT):
        raise IllegalTransition("drop.not_running", tournament=tournament.name, rule="R-FMT-7")
    if entry is None or entry.status is not PlayerStatus.ACTIVE:
        raise InvalidInput("drop.not_playing", tournament=tournament.name)
    dropped = replace(entry, status=PlayerStatus.DROPPED, dropped_round=tournament.current_round)
    players = {**tournament.players, op.player_id: dropped}
    current = tournament.current
    unfinished = (
        current is not None
        and (match := current.match_of(op.player_id)) is not None
        and not current.finished(match)
    )
    return replace(tournament, players=players), (
        ev.Dropped(op.player_id, tournament.current_round, match_unfinished=unfinished),
    )


def _undrop(tournament: Tournament, op: Undrop, at: datetime, actor: Actor) -> Applied:
    entry = tournament.players.get(op.player_id)
    disqualification = next(
        (
            penalty.id
            for penalty in tournament.penalties
            if penalty.player_id == op.player_id
            and penalty.type is PenaltyType.DISQUALIFICATION
            and not penalty.revoked
        ),
        None,
    )
    disqualified = entry is not None and entry.status is PlayerStatus.DISQUALIFIED
    if disqualified and disqualification is not None:
        # R-PEN-4: a disqualification is not a drop; only revoking the penalty lifts it.
        raise IllegalTransition(
            "drop.disqualified",
            rule="R-PEN-4",
            player=display_name(tournament, op.player_id),
            penalty=disqualification,
        )
    if entry is None or entry.status is not PlayerStatus.DROPPED or entry.dropped_round is None:
        raise InvalidInput("drop.not_dropped", tournament=tournament.name)
    if entry.dropped_round != tournament.current_round:
        # R-FMT-7: a drop stands once the next round is paired without the player.
        raise IllegalTransition("drop.undo_too_late", round=entry.dropped_round, rule="R-FMT-7")
    if tournament.phase not in (Phase.RUNNING, Phase.TOP_CUT):
        raise IllegalTransition("drop.not_running", tournament=tournament.name, rule="R-FMT-7")
    back = replace(entry, status=PlayerStatus.ACTIVE, dropped_round=None)
    return replace(tournament, players={**tournament.players, op.player_id: back}), (
        ev.Undropped(op.player_id),
    )


def _extend(tournament: Tournament, op: ExtendTable, at: datetime, actor: Actor) -> Applied:
    target = _round(tournament, op.round)
    match = target.match_at(op.table)
    if match is None or len(match.players) != 2:
        raise InvalidInput("result.no_such_table", round=op.round, table=op.table)
    if target.started_at is None:
        raise IllegalTransition("rounds.clock_not_started", round=op.round)
    total = match.extension_minutes + op.minutes
    if op.minutes < 1 or total > MAX_EXTENSION_MINUTES:
        raise InvalidInput(
            "judge.bad_extension", minutes=op.minutes, limit=MAX_EXTENSION_MINUTES, rule="R-MATCH-7"
        )
    extended = replace(match, extension_minutes=total)
    updated = tournament.with_match(target.number, extended)
    ends = updated.rounds[op.round - 1].table_ends_at(extended)
    assert ends is not None
    return updated, (ev.TableExtended(op.round, op.table, total, ends),)


def still_playing(match: Match) -> bool:
    """Whether a table still plays: two players and no result yet (a bye, an empty bracket
    slot and a table with its result have no time to extend)."""
    return len(match.players) == 2 and match.result is None


def round_extension_refused(tournament: Tournament, number: int) -> DomainError | None:
    """Why round `number` cannot be extended as a whole now (R-MATCH-7), or None: its clock
    must run and some table must still play. The one rule behind the panel's 全体延長 button
    (`round_extendable`) and the operation's refusal."""
    if not tournament.rounds:
        return IllegalTransition("rounds.none_yet", tournament=tournament.name)
    target = tournament.round(number)
    if target is None:
        return InvalidInput("rounds.no_such_round", round=number)
    if target.started_at is None:
        return IllegalTransition("rounds.clock_not_started", round=number, rule="R-MATCH-7")
    if not any(still_playing(match) for match in target.matches):
        return IllegalTransition("rounds.none_playing", round=number, rule="R-MATCH-7")
    return None


def round_extendable(tournament: Tournament) -> bool:
    """Whether the current round may be extended as a whole now (the panel's button)."""
    return tournament.current is not None and (
        round_extension_refused(tournament, tournament.current_round) is None
    )


def _extend_round(tournament: Tournament, op: ExtendRound, at: datetime, actor: Actor) -> Applied:
    """R-MATCH-7 for every table still playing at once (全体延長): each gets `op.minutes`
    more, within MAX_EXTENSION_MINUTES in all; finished tables and byes keep their time.
    The round is built in one pass: a `with_match` per table would copy the round once for
    each of its tables."""
    refused = round_extension_refused(tournament, op.round)
    if refused is not None:
        raise refused
    if op.minutes < 1:
        raise InvalidInput(
            "judge.bad_extension",
            minutes=op.minutes,
            limit=MAX_EXTENSION_MINUTES,
            rule="R-MATCH-7",
        )
    target = tournament.rounds[op.round - 1]
    playing = [match for match in target.matches if still_playing(match)]
    over = next(
        (m for m in playing if m.extension_minutes + op.minutes > MAX_EXTENSION_MINUTES), None
    )
    if over is not None:
        raise InvalidInput(
            "judge.round_extension_over_limit",
            minutes=op.minutes,
            table=over.table,
            total=over.extension_minutes,
            limit=MAX_EXTENSION_MINUTES,
            rule="R-MATCH-7",
        )
    matches = tuple(
        replace(match, extension_minutes=match.extension_minutes + op.minutes)
        if still_playing(match)
        else match
        for match in target.matches
    )
    updated = replace(target, matches=matches)
    assert target.ends_at is not None  # the clock runs
    ends = target.ends_at + timedelta(minutes=op.minutes)
    tables = tuple(match.table for match in playing)
    return tournament.with_round(updated), (ev.RoundExtended(op.round, op.minutes, tables, ends),)


def _finish(tournament: Tournament, op: FinishTournament, at: datetime, actor: Actor) -> Applied:
    _require_round_done(tournament, "finish")
    current = tournament.current
    swiss_needed = tournament.format is not EventFormat.ELIMINATION
    if swiss_needed and len(tournament.swiss_rounds) < tournament.state.planned_rounds:
        raise IllegalTransition(
            "engine.state.rounds_remaining",
            played=len(tournament.swiss_rounds),
            rounds=tournament.state.planned_rounds,
            step="finish",
            rule="R-FMT-2",
        )
    if tournament.format is not EventFormat.SWISS and (
        current is None or current.kind is not RoundKind.ELIMINATION or not _bracket_done(current)
    ):
        raise IllegalTransition("rounds.bracket_unfinished", tournament=tournament.name)
    finished = replace(tournament, state=replace(tournament.state, phase=Phase.FINISHED))
    return finished, (ev.Finished(),)


# -- helpers ------------------------------------------------------------------------------


def _round(tournament: Tournament, number: int) -> Round:
    if not tournament.rounds:  # nothing is paired yet: say what comes first, not "round 0"
        raise IllegalTransition("rounds.none_yet", tournament=tournament.name)
    found = tournament.round(number)
    if found is None:
        raise InvalidInput("rounds.no_such_round", round=number)
    return found


HANDLERS: dict[type[Operation], Handler] = {
    PairRound: _pair_round,
    UnpairRound: _unpair_round,
    StartRound: _start_round,
    ReportResult: _report,
    ConfirmResult: _confirm,
    DisputeResult: _dispute,
    SetResult: _set_result,
    Drop: _drop,
    Undrop: _undrop,
    ExtendTable: _extend,
    ExtendRound: _extend_round,
    FinishTournament: _finish,
}

"""The judges' operations: penalties and their effect on results (R-PEN-3, R-PEN-4),
revoking them, no-shows (R-MATCH-6) and judge calls with their extensions (R-MATCH-7).

A penalty records who gave it, a call who claimed it: every handler takes the actor.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from domain.engine.players import PlayerStatus
from domain.engine.results import MatchResult
from domain.engine.state import Phase
from domain.errors import IllegalTransition, InvalidInput
from domain.tournament import events as ev
from domain.tournament.handlers import Applied, Handler
from domain.tournament.model import Tournament
from domain.tournament.operations import (
    Actor,
    CallJudge,
    ClaimCall,
    GivePenalty,
    Operation,
    RecordNoShow,
    ResolveCall,
    RevokePenalty,
)
from domain.tournament.penalties import CALL_COOLDOWN, JudgeCall, MatchEffect, Penalty, PenaltyType
from domain.tournament.play import MAX_EXTENSION_MINUTES
from domain.tournament.rounds import Match, Round

MAX_REASON = 500


def _give_penalty(tournament: Tournament, op: GivePenalty, at: datetime, actor: Actor) -> Applied:
    entry = tournament.players.get(op.player_id)
    if entry is None or entry.status in (PlayerStatus.WAITLISTED,):
        raise InvalidInput("penalty.not_a_player", tournament=tournament.name)
    if entry.status is PlayerStatus.DISQUALIFIED:
        raise IllegalTransition("penalty.already_disqualified", rule="R-PEN-4")
    if not op.reason.strip():
        raise InvalidInput("penalty.reason_required", rule="R-PEN-7")
    updated = tournament
    effect = None
    current = tournament.current
    match = current.match_of(op.player_id) if current else None
    if current and match and _loses_the_match(op, current, match):
        # R-PEN-3: the match is lost; when both players get one, both lose.
        effect = MatchEffect(current.number, match.table, match.result)
        penalised = {op.player_id} | _losers_by_penalty(tournament, current.number, match.table)
        updated = updated.with_match(current.number, _losing(match, penalised))
    penalty = Penalty(
        id=len(tournament.penalties) + 1,
        player_id=op.player_id,
        type=op.penalty,
        infraction=op.infraction,
        reason=op.reason.strip()[:MAX_REASON],
        round=tournament.current_round,
        given_by=actor.user_id,
        at=at,
        effect=effect,
    )
    updated = replace(updated, penalties=(*tournament.penalties, penalty))
    if op.penalty is PenaltyType.DISQUALIFICATION:
        # R-PEN-4: the player takes no further part, and is marked in the standings.
        dq = replace(
            entry, status=PlayerStatus.DISQUALIFIED, dropped_round=tournament.current_round
        )
        updated = replace(updated, players={**updated.players, op.player_id: dq})
    return updated, (ev.PenaltyGiven(penalty),)


def _loses_the_match(op: GivePenalty, current: Round, match: Match) -> bool:
    """Whether the penalty turns the player's match of the current round into a loss."""
    if not op.penalty.loses_the_match or len(match.players) != 2:
        return False
    if op.penalty is PenaltyType.GAME_LOSS or not op.finished_match_stands:
        return True  # R-PEN-3: 「その対戦は負けとなります」, even a match already reported
    # R-PEN-4, line 271: 「以降」, from then on: only a match without a final result is lost.
    return not current.finished(match)


def _losers_by_penalty(tournament: Tournament, number: int, table: int) -> set[int]:
    """Players of this match already holding a standing game loss or disqualification."""
    return {
        p.player_id
        for p in tournament.penalties
        if not p.revoked and p.effect and (p.effect.round, p.effect.table) == (number, table)
    }


def _losing(match: Match, losers: set[int]) -> Match:
    if set(match.players) <= losers:
        result = MatchResult.double_loss()
    else:
        (winner,) = [p for p in match.players if p not in losers]
        result = MatchResult.win(str(winner))
    return match.decided(result)


def _revoke(tournament: Tournament, op: RevokePenalty, at: datetime, actor: Actor) -> Applied:
    found = [p for p in tournament.penalties if p.id == op.penalty_id]
    if not found or found[0].revoked:
        raise InvalidInput("penalty.no_such_penalty", id=op.penalty_id)
    penalty = found[0]
    revoked = replace(penalty, revoked=True)
    penalties = tuple(revoked if p.id == penalty.id else p for p in tournament.penalties)
    updated = replace(tournament, penalties=penalties)
    effect = penalty.effect
    if effect is not None:
        target = tournament.round(effect.round)
        match = target.match_at(effect.table) if target else None
        assert target is not None
        assert match is not None
        losers = _losers_by_penalty(tournament, effect.round, effect.table)
        if match.result != _losing(match, losers).result:
            # A judge set another result since: this revocation would overwrite it.
            raise IllegalTransition(
                "penalty.result_changed_since", round=effect.round, table=effect.table
            )
        remaining = _losers_by_penalty(updated, effect.round, effect.table)
        if remaining:
            restored = _losing(match, remaining)
        else:
            first = min(
                (
                    p
                    for p in tournament.penalties
                    if p.effect and (p.effect.round, p.effect.table) == (effect.round, effect.table)
                ),
                key=lambda p: p.id,
            )
            assert first.effect is not None
            restored = replace(match, result=first.effect.before)
        updated = updated.with_match(target.number, restored)
    if penalty.type is PenaltyType.DISQUALIFICATION:
        entry = updated.players[penalty.player_id]
        back = replace(entry, status=PlayerStatus.ACTIVE, dropped_round=None)
        updated = replace(updated, players={**updated.players, penalty.player_id: back})
    return updated, (ev.PenaltyRevoked(revoked),)


def _no_show(tournament: Tournament, op: RecordNoShow, at: datetime, actor: Actor) -> Applied:
    current = tournament.current
    if current is None:
        raise IllegalTransition("rounds.none_yet", tournament=tournament.name)
    if current.number != op.round:
        raise IllegalTransition("rounds.not_current", round=op.round)
    match = current.match_at(op.table)
    if match is None or op.player_id not in match.players or len(match.players) != 2:
        raise InvalidInput("result.player_not_at_table", table=op.table, choice="no_show")
    if current.started_at is None:
        raise IllegalTransition("rounds.clock_not_started", round=op.round)
    window = timedelta(minutes=tournament.settings.noshow_minutes)
    if at - current.started_at > window:
        # R-MATCH-6 is for a player not seated at the start; later it is a judge's result.
        raise IllegalTransition(
            "judge.noshow_window_closed",
            minutes=tournament.settings.noshow_minutes,
            rule="R-MATCH-6",
        )
    if current.finished(match):
        raise IllegalTransition("report.already_final", round=op.round, table=op.table)
    absent = replace(
        match, result=MatchResult.no_show(str(op.player_id)), reports=(), disputed=False
    )
    return tournament.with_match(current.number, absent), (
        ev.ResultSet(op.round, op.table, match.result, MatchResult.no_show(str(op.player_id))),
    )


def _call(tournament: Tournament, op: CallJudge, at: datetime, actor: Actor) -> Applied:
    entry = tournament.players.get(op.player_id)
    if tournament.phase not in (Phase.RUNNING, Phase.TOP_CUT) or entry is None:
        raise IllegalTransition("judge.call_not_running", tournament=tournament.name)
    if entry.status is not PlayerStatus.ACTIVE:
        raise IllegalTransition("judge.call_not_playing", tournament=tournament.name)
    mine = [c for c in tournament.calls if c.player_id == op.player_id]
    if any(c.open for c in mine):
        raise IllegalTransition("judge.call_open")
    if mine and at - mine[-1].called_at < CALL_COOLDOWN:
        wait = CALL_COOLDOWN - (at - mine[-1].called_at)
        raise IllegalTransition("judge.call_cooldown", seconds=int(wait.total_seconds()) + 1)
    current = tournament.current
    match = current.match_of(op.player_id) if current else None
    call = JudgeCall(
        id=len(tournament.calls) + 1,
        player_id=op.player_id,
        round=tournament.current_round,
        table=match.table if match and len(match.players) == 2 else None,
        reason=op.reason.strip()[:MAX_REASON],
        called_at=at,
    )
    return replace(tournament, calls=(*tournament.calls, call)), (ev.JudgeCalled(call),)


def _claim(tournament: Tournament, op: ClaimCall, at: datetime, actor: Actor) -> Applied:
    call = _open_call(tournament, op.call_id)
    if call.claimed_by is not None:
        raise IllegalTransition("judge.call_claimed", judge=call.claimed_by)
    claimed = replace(call, claimed_by=actor.user_id, claimed_at=at)
    return _with_call(tournament, claimed), (ev.CallClaimed(claimed),)


def _resolve(tournament: Tournament, op: ResolveCall, at: datetime, actor: Actor) -> Applied:
    call = _open_call(tournament, op.call_id)
    if call.claimed_by is None:
        call = replace(call, claimed_by=actor.user_id, claimed_at=at)
    updated = tournament
    if op.extension_minutes:
        # R-MATCH-7: extend that table's time by what the judge decides from the wait.
        current = tournament.current
        if call.table is None or current is None or current.number != call.round:
            raise IllegalTransition("judge.extension_needs_table", call=call.id)
        if current.started_at is None:
            raise IllegalTransition("rounds.clock_not_started", round=call.round)
        match = current.match_at(call.table)
        assert match is not None
        total = match.extension_minutes + op.extension_minutes
        if op.extension_minutes < 0 or total > MAX_EXTENSION_MINUTES:
            raise InvalidInput(
                "judge.bad_extension",
                minutes=op.extension_minutes,
                limit=MAX_EXTENSION_MINUTES,
                rule="R-MATCH-7",
            )
        updated = updated.with_match(current.number, replace(match, extension_minutes=total))
    resolved = replace(
        call, resolved_by=actor.user_id, resolved_at=at, extension_minutes=op.extension_minutes
    )
    return _with_call(updated, resolved), (ev.CallResolved(resolved),)


def _open_call(tournament: Tournament, call_id: int) -> JudgeCall:
    found = [c for c in tournament.calls if c.id == call_id]
    if not found:
        raise InvalidInput("judge.no_such_call", id=call_id)
    if not found[0].open:
        raise IllegalTransition("judge.call_resolved", id=call_id)
    return found[0]


def _with_call(tournament: Tournament, call: JudgeCall) -> Tournament:
    return replace(
        tournament, calls=tuple(call if c.id == call.id else c for c in tournament.calls)
    )


HANDLERS: dict[type[Operation], Handler] = {
    GivePenalty: _give_penalty,
    RevokePenalty: _revoke,
    RecordNoShow: _no_show,
    CallJudge: _call,
    ClaimCall: _claim,
    ResolveCall: _resolve,
}

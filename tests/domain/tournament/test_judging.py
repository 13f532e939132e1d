"""Penalties, no-shows, judge calls and undo in the domain (R-PEN, R-MATCH-6, R-MATCH-7)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.engine.players import PlayerStatus
from domain.engine.results import MatchResult, ResultKind
from domain.errors import IllegalTransition, InvalidInput
from domain.event import EventFormat
from domain.tournament.apply import apply
from domain.tournament.operations import (
    Actor,
    CallJudge,
    ChangeSettings,
    ClaimCall,
    ConfirmResult,
    CreateTournament,
    GivePenalty,
    Operation,
    RecordNoShow,
    Register,
    ReportResult,
    ResolveCall,
    RevokePenalty,
    SetResult,
    SettingsChange,
    StartRound,
    StartTournament,
)
from domain.tournament.penalties import (
    STARTING_LEVEL,
    Infraction,
    Penalty,
    PenaltyType,
    suggest_penalty,
)
from domain.tournament.play import propose_round, swiss_standings
from domain.tournament.replay import LoggedOperation
from domain.tournament.rounds import Claim
from domain.tournament.undo import plan_undo
from tests.domain.tournament.support import JUDGE, ORGANIZER, T0, Clock, new_tournament
from tests.domain.tournament.test_play import as_player, pair, play_round, started

GAME_LOSS = PenaltyType.GAME_LOSS
# R-PEN-1 to R-PEN-4, lightest first.
LEVELS = (PenaltyType.CAUTION, PenaltyType.WARNING, GAME_LOSS, PenaltyType.DISQUALIFICATION)


def give(
    clock: Clock, player: int, kind: PenaltyType, infraction: Infraction = Infraction.OTHER
) -> None:
    clock.apply(GivePenalty(player, kind, infraction, "見えた"), JUDGE)


def test_a_game_loss_flips_a_confirmed_result_r_pen_3() -> None:
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    clock.apply(ConfirmResult(second, 1, 1), as_player(second))
    give(clock, first, GAME_LOSS, Infraction.EXTRA_CARDS)
    assert clock.tournament.rounds[0].matches[0].result == MatchResult.win(str(second))
    (penalty,) = clock.tournament.penalties
    assert penalty.effect is not None
    assert penalty.effect.before == MatchResult.win(str(first))


def test_game_losses_for_both_players_make_a_double_loss_r_pen_3() -> None:
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    give(clock, first, GAME_LOSS, Infraction.COLLUSION)
    give(clock, second, GAME_LOSS, Infraction.COLLUSION)
    result = clock.tournament.rounds[0].matches[0].result
    assert result is not None
    assert result.kind is ResultKind.DOUBLE_LOSS
    # Revoking one leaves the other: the revoked player now wins.
    clock.apply(RevokePenalty(1), ORGANIZER)
    assert clock.tournament.rounds[0].matches[0].result == MatchResult.win(str(first))
    clock.apply(RevokePenalty(2), ORGANIZER)
    assert clock.tournament.rounds[0].matches[0].result is None  # as before any penalty


def test_a_disqualification_mid_round_ends_the_event_r_pen_4() -> None:
    clock = started(5)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    give(clock, first, PenaltyType.DISQUALIFICATION, Infraction.MARKED_SLEEVES)
    assert clock.tournament.players[first].status is PlayerStatus.DISQUALIFIED
    assert clock.tournament.rounds[0].matches[0].result == MatchResult.win(str(second))
    play_round(clock, random.Random(2))
    for number in range(2, clock.tournament.state.planned_rounds + 1):
        pair(clock, number)
        assert all(first not in m.players for m in clock.tournament.rounds[-1].matches)
        play_round(clock, random.Random(number))
    marked = [row for row in swiss_standings(clock.tournament) if row.player == str(first)]
    assert marked[0].status is PlayerStatus.DISQUALIFIED


def suggested(earlier: list[Penalty], infraction: Infraction) -> PenaltyType | None:
    suggestion = suggest_penalty(earlier, infraction)
    return suggestion.type if suggestion else None


def test_one_caution_then_a_repeat_suggests_a_caution_again_r_pen_2() -> None:
    # R-PEN-2, line 247: a warning only after 複数回 (several) cautions; after one caution
    # the same caution-level violation is suggested a caution again, for an infraction the
    # regulation gives as a caution (a rules error) and for one it gives no level for.
    clock = started(4)
    give(clock, 101, PenaltyType.CAUTION, Infraction.RULES_ERROR)
    mine = [p for p in clock.tournament.penalties if p.player_id == 101]
    suggestion = suggest_penalty(mine, Infraction.RULES_ERROR)
    assert suggestion is not None
    assert (suggestion.type, suggestion.rule) == (PenaltyType.CAUTION, "R-PEN-1")
    give(clock, 102, PenaltyType.CAUTION, Infraction.STALLING)
    mine = [p for p in clock.tournament.penalties if p.player_id == 102]
    assert suggested(mine, Infraction.STALLING) is PenaltyType.CAUTION
    # The second caution makes it 複数回: the third violation is suggested a warning.
    give(clock, 102, PenaltyType.CAUTION, Infraction.STALLING)
    mine = [p for p in clock.tournament.penalties if p.player_id == 102]
    assert suggested(mine, Infraction.STALLING) is PenaltyType.WARNING


def test_escalation_is_suggested_after_two_cautions_r_pen_2() -> None:
    # Line 247: 「①注意が複数回課せられた後、再度①注意相当のルール違反が繰り返された場合」.
    clock = started(4)
    first = 101
    assert suggested([], Infraction.RULES_ERROR) is PenaltyType.CAUTION  # line 240, R-PEN-1
    give(clock, first, PenaltyType.CAUTION, Infraction.RULES_ERROR)
    give(clock, first, PenaltyType.CAUTION, Infraction.RULES_ERROR)
    suggestion = suggest_penalty(clock.tournament.penalties, Infraction.RULES_ERROR)
    assert suggestion is not None
    assert suggestion.type is PenaltyType.WARNING
    assert suggestion.rule == "R-PEN-2"
    assert suggested([], Infraction.ILLEGAL_DECK) is GAME_LOSS  # line 266, R-DECK-5


def test_drawing_an_extra_card_starts_at_a_warning_r_pen_2() -> None:
    # Line 250, the regulation's own example of 警告: 「誤って、余分にカードを引いてしまった」.
    assert suggested([], Infraction.EXTRA_CARDS) is PenaltyType.WARNING
    # Line 267: colluding on a result is its example of 敗北 (R-PEN-3, R-MATCH-3).
    assert suggested([], Infraction.COLLUSION) is GAME_LOSS


def test_a_repeat_after_a_penalty_suggests_a_heavier_one_r_pen_2() -> None:
    # Line 231: 「罰則が課せられた後もルール違反が繰り返し行われた場合は、より厳しい罰則」.
    clock = started(4)
    give(clock, 101, PenaltyType.WARNING, Infraction.STALLING)
    assert suggested(list(clock.tournament.penalties), Infraction.STALLING) is GAME_LOSS
    # Only the same infraction escalates, and a revoked penalty counts for nothing.
    give(clock, 102, PenaltyType.CAUTION, Infraction.RULES_ERROR)
    give(clock, 102, PenaltyType.WARNING, Infraction.RULES_ERROR)
    mine = [p for p in clock.tournament.penalties if p.player_id == 102]
    assert suggested(mine, Infraction.RULES_ERROR) is GAME_LOSS
    clock.apply(RevokePenalty(mine[-1].id), ORGANIZER)
    mine = [p for p in clock.tournament.penalties if p.player_id == 102]
    # One standing caution is not 複数回 (R-PEN-2, line 247): a caution again.
    assert suggested(mine, Infraction.RULES_ERROR) is PenaltyType.CAUTION
    # A game loss repeated: the next level is a disqualification (R-PEN-4).
    give(clock, 103, GAME_LOSS, Infraction.DECK_MANIPULATION)
    mine = [p for p in clock.tournament.penalties if p.player_id == 103]
    assert suggested(mine, Infraction.DECK_MANIPULATION) is PenaltyType.DISQUALIFICATION


def test_nothing_is_suggested_without_an_example_or_an_earlier_penalty_r_pen_7() -> None:
    # R-PEN-7: the judge decides. With no infraction chosen (OTHER) and nothing to
    # escalate from, the bot has no suggestion, rather than 「注意」 beside a judge's 敗北.
    assert suggest_penalty([], Infraction.OTHER) is None
    clock = started(4)
    give(clock, 101, PenaltyType.CAUTION, Infraction.OTHER)
    # One caution is not 複数回 (R-PEN-2, line 247): a caution again, not a warning.
    assert suggested(list(clock.tournament.penalties), Infraction.OTHER) is PenaltyType.CAUTION
    give(clock, 101, PenaltyType.WARNING, Infraction.OTHER)
    assert suggested(list(clock.tournament.penalties), Infraction.OTHER) is GAME_LOSS


@given(
    st.lists(
        st.tuples(st.sampled_from(PenaltyType), st.sampled_from(Infraction), st.booleans()),
        max_size=8,
    ),
    st.sampled_from(Infraction),
)
def test_a_repeat_is_always_suggested_above_the_heaviest_for_that_infraction_r_pen_2(
    history: list[tuple[PenaltyType, Infraction, bool]], infraction: Infraction
) -> None:
    # Line 231 for any history: never lighter than the heaviest standing penalty for the
    # same infraction, strictly heavier after a warning or more unless that was already a
    # disqualification; after cautions only, a warning exactly when the player has several
    # standing cautions (line 247) or the regulation starts the infraction at one.
    earlier = [
        Penalty(n, 101, kind, given_for, "x", 1, 2, T0, revoked=revoked)
        for n, (kind, given_for, revoked) in enumerate(history, start=1)
    ]
    standing = [p for p in earlier if not p.revoked]
    same = [LEVELS.index(p.type) for p in standing if p.infraction is infraction]
    cautions = sum(1 for p in standing if p.type is PenaltyType.CAUTION)
    suggestion = suggest_penalty(earlier, infraction)
    if same and max(same) > 0:
        assert suggestion is not None
        assert LEVELS.index(suggestion.type) >= min(max(same) + 1, len(LEVELS) - 1)
    elif same:
        assert suggestion is not None
        start = STARTING_LEVEL.get(infraction, PenaltyType.CAUTION)
        heavier = cautions >= 2 or LEVELS.index(start) >= 1
        assert (LEVELS.index(suggestion.type) >= 1) is heavier
    if suggestion is not None:
        assert suggestion.rule == suggestion.type.rule
        assert suggestion.earlier == sum(1 for p in earlier if not p.revoked)


def test_a_no_show_only_within_the_window_r_match_6() -> None:
    clock = started(6)
    pair(clock)
    clock.apply(StartRound(1))
    first, _ = clock.tournament.rounds[0].matches[0].players
    clock.apply(RecordNoShow(1, 1, first), JUDGE)  # one minute after the start
    assert clock.tournament.rounds[0].matches[0].result == MatchResult.no_show(str(first))
    late, _ = clock.tournament.rounds[0].matches[1].players
    clock.at += timedelta(minutes=15)
    with pytest.raises(IllegalTransition) as closed:
        clock.apply(RecordNoShow(1, 2, late), JUDGE)
    assert closed.value.rule == "R-MATCH-6"


def test_a_judge_call_is_claimed_and_resolved_with_an_extension_of_that_table_only() -> None:
    clock = started(4)
    pair(clock)
    clock.apply(StartRound(1))
    first, _ = clock.tournament.rounds[0].matches[0].players
    clock.apply(CallJudge(first, "ルールの確認"), as_player(first))
    with pytest.raises(IllegalTransition) as again:
        clock.apply(CallJudge(first, "もう一度"), as_player(first))
    assert again.value.key == "judge.call_open"
    clock.at += timedelta(minutes=3)
    clock.apply(ClaimCall(1), JUDGE)  # the clock adds a minute per operation: 5 in all
    (call,) = clock.tournament.calls
    assert call.claimed_by == JUDGE.user_id
    assert call.suggested_extension(clock.at) == 5  # the minutes waited (R-MATCH-7)
    clock.apply(ResolveCall(1, 5), JUDGE)
    current = clock.tournament.rounds[0]
    assert current.matches[0].extension_minutes == 5
    assert current.matches[1].extension_minutes == 0
    assert current.table_ends_at(current.matches[0]) == current.ends_at + timedelta(minutes=5)


def test_judge_calls_have_a_cooldown() -> None:
    clock = started(4)
    pair(clock)
    first = clock.tournament.rounds[0].matches[0].players[0]
    at = clock.at
    tournament, _ = apply(clock.tournament, CallJudge(first, "1"), at, as_player(first))
    tournament, _ = apply(tournament, ResolveCall(1), at + timedelta(seconds=5), JUDGE)
    with pytest.raises(IllegalTransition) as cooldown:
        apply(tournament, CallJudge(first, "2"), at + timedelta(seconds=30), as_player(first))
    assert cooldown.value.key == "judge.call_cooldown"
    apply(tournament, CallJudge(first, "3"), at + timedelta(seconds=61), as_player(first))


def logged(clock: Clock, operations: list[tuple[Operation, Actor]]) -> list[LoggedOperation]:
    """A log like the store keeps it, for the undo planner."""
    return [
        LoggedOperation(index, op.kind, op.to_payload(), actor.user_id, actor.role, clock.at)
        for index, (op, actor) in enumerate(operations, start=1)
    ]


def test_undo_is_refused_for_a_result_once_the_next_round_is_paired() -> None:
    clock = Clock(new_tournament())
    ops: list[tuple[Operation, Actor]] = [(CreateTournament(clock.tournament.config), ORGANIZER)]

    def do(operation: Operation, actor: Actor = ORGANIZER) -> None:
        clock.apply(operation, actor)
        ops.append((operation, actor))

    do(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in (1, 2, 3, 4):
        do(Register(100 + number, f"P{number}"), as_player(100 + number))
    do(StartTournament(seed=1))
    do(propose_round(clock.tournament, 1).operation())
    for match in clock.tournament.rounds[0].matches:
        do(SetResult(1, match.table, MatchResult.win(str(match.players[0]))), JUDGE)
    plan = plan_undo(1, 1000, logged(clock, ops))
    assert plan.target.kind == "set_result"
    assert plan.after.rounds[0].matches[-1].result is None
    do(propose_round(clock.tournament, 2).operation())
    with pytest.raises(IllegalTransition) as refused:
        plan_undo(1, 1000, logged(clock, ops), action_id=len(ops) - 1)
    assert refused.value.key == "undo.next_round_paired"
    # The pairing itself can be undone while it has no results.
    assert plan_undo(1, 1000, logged(clock, ops)).target.kind == "pair_round"


def test_a_penalty_needs_a_reason() -> None:
    clock = started(4)
    with pytest.raises(InvalidInput) as empty:
        clock.apply(GivePenalty(101, PenaltyType.CAUTION, Infraction.OTHER, "  "), JUDGE)
    assert empty.value.rule == "R-PEN-7"


def test_a_disqualification_after_a_finished_match_leaves_it_standing_r_pen_4() -> None:
    # Line 271: 「このペナルティを課せられたプレイヤーは、以降その大会で対戦を続けることが
    # できなくなります」: from then on. The match the player already won stands (R-PEN-4).
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    clock.apply(ConfirmResult(second, 1, 1), as_player(second))
    give(clock, first, PenaltyType.DISQUALIFICATION)
    assert clock.tournament.rounds[0].matches[0].result == MatchResult.win(str(first))
    assert clock.tournament.players[first].status is PlayerStatus.DISQUALIFIED
    (penalty,) = clock.tournament.penalties
    assert penalty.effect is None
    # Revoking puts the player back in the event; the result was never touched.
    clock.apply(RevokePenalty(1), ORGANIZER)
    assert clock.tournament.players[first].status is PlayerStatus.ACTIVE
    assert clock.tournament.rounds[0].matches[0].result == MatchResult.win(str(first))


def test_a_disqualification_mid_match_is_a_loss_and_revoking_restores_it_r_pen_4() -> None:
    # RULES.md (R-PEN-4): a match in progress, without a final result, is lost.
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))  # not confirmed yet
    give(clock, first, PenaltyType.DISQUALIFICATION)
    assert clock.tournament.rounds[0].matches[0].result == MatchResult.win(str(second))
    clock.apply(RevokePenalty(1), ORGANIZER)
    assert clock.tournament.rounds[0].matches[0].result is None
    assert clock.tournament.players[first].status is PlayerStatus.ACTIVE


def test_a_knockout_disqualification_after_the_match_does_not_send_the_loser_on_r_pen_4() -> None:
    # Line 271 in a knockout round: the finished semifinal stands; the disqualified winner
    # is not paired again and the other finalist advances with a bye (R-FMT-7).
    clock = started(4, format=EventFormat.ELIMINATION)
    pair(clock)
    for match in clock.tournament.rounds[0].matches:
        clock.apply(SetResult(1, match.table, MatchResult.win(str(match.players[0]))), JUDGE)
    first, second = clock.tournament.rounds[0].advancing()
    assert first is not None
    assert second is not None
    give(clock, first, PenaltyType.DISQUALIFICATION)
    assert clock.tournament.rounds[0].advancing() == [first, second]
    pair(clock, 2)
    (final,) = clock.tournament.rounds[1].matches
    assert final.players == (second,)


def test_a_logged_disqualification_from_before_line_271_was_applied_folds_as_it_was() -> None:
    # The log is replayed (`verify`, undo) to the tables the code of its day wrote: a
    # give_penalty payload without `finished_match_stands` was applied when a
    # disqualification still turned a finished match into a loss.
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(SetResult(1, 1, MatchResult.win(str(first))), JUDGE)
    payload = GivePenalty(first, PenaltyType.DISQUALIFICATION, Infraction.OTHER, "x").to_payload()
    assert payload.pop("finished_match_stands") is True
    old = GivePenalty.from_payload(payload)
    assert isinstance(old, GivePenalty)
    assert old.finished_match_stands is False
    clock.apply(old, JUDGE)
    assert clock.tournament.rounds[0].matches[0].result == MatchResult.win(str(second))

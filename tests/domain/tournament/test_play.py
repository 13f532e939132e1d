"""A running event in the domain: pairing, reports and confirmations, judges' results,
drops, the top cut and the finish."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine.players import PlayerStatus
from domain.engine.results import MatchResult, Outcome
from domain.engine.state import Phase
from domain.errors import IllegalTransition, InvalidInput, PermissionDenied
from domain.event import EventFormat
from domain.tournament import events as ev
from domain.tournament.clock import NoticeKind, clock_notices
from domain.tournament.model import Tournament
from domain.tournament.operations import (
    ChangeSettings,
    ConfirmResult,
    DisputeResult,
    Drop,
    ExtendTable,
    FinishTournament,
    GivePenalty,
    Register,
    ReportResult,
    RevokePenalty,
    SetResult,
    SettingsChange,
    StartRound,
    StartTournament,
    Undrop,
    UnpairRound,
)
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.play import (
    claim_result,
    judged_result,
    propose_round,
    swiss_standings,
)
from domain.tournament.rounds import Claim, RoundKind
from tests.domain.tournament.support import JUDGE, Clock, new_tournament, player


def started(players: int, **config: object) -> Clock:
    clock = Clock(new_tournament(**config))
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, players + 1):
        clock.apply(Register(100 + number, f"P{number}"), player(number))
    clock.apply(StartTournament(seed=2026))
    return clock


def pair(clock: Clock, seed: int = 1) -> Tournament:
    return clock.apply(propose_round(clock.tournament, seed).operation())


def as_player(user_id: int):
    from domain.tournament.operations import Actor, Role

    return Actor(user_id, Role.PLAYER)


def test_a_report_waits_for_the_opponent_then_confirm_stores_it() -> None:
    clock = started(4)
    pair(clock)
    match = clock.tournament.rounds[0].matches[0]
    first, second = match.players
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    assert clock.events == (ev.ReportFiled(1, 1, first),)
    assert clock.tournament.rounds[0].matches[0].result is None
    # Only the opponent may confirm: the reporter is told they wait for the opponent.
    with pytest.raises(IllegalTransition) as own:
        clock.apply(ConfirmResult(first, 1, 1), as_player(first))
    assert own.value.key == "report.own_report"
    clock.apply(ConfirmResult(second, 1, 1), as_player(second))
    assert clock.tournament.rounds[0].matches[0].result == MatchResult.win(str(first))


def test_two_matching_reports_count_as_confirmation() -> None:
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.LOSE), as_player(first))
    clock.apply(ReportResult(second, 1, Claim.WIN), as_player(second))
    assert clock.events == (ev.ResultConfirmed(1, 1, by_both=True),)
    assert clock.tournament.rounds[0].matches[0].result == MatchResult.win(str(second))


def test_disagreeing_reports_go_to_the_judges() -> None:
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    clock.apply(ReportResult(second, 1, Claim.WIN), as_player(second))
    assert clock.events == (ev.ReportsDisagree(1, 1),)
    match = clock.tournament.rounds[0].matches[0]
    assert match.disputed
    assert match.result is None
    clock.apply(SetResult(1, 1, MatchResult.win(str(second))), JUDGE)
    assert clock.tournament.rounds[0].matches[0].result == MatchResult.win(str(second))


def test_time_reports_compute_the_judgement_win_or_the_draw_r_match_2() -> None:
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    # The second player reports from their side: they have 2 in the point zone, first has 5.
    clock.apply(ReportResult(second, 1, Claim.TIME, 2, 5), as_player(second))
    clock.apply(ConfirmResult(first, 1, 1), as_player(first))
    result = clock.tournament.rounds[0].matches[0].result
    assert result == MatchResult(result.kind, str(second), (5, 2)) if result else False
    assert result is not None
    assert result.outcomes((str(first), str(second)))[str(second)] is Outcome.JUDGEMENT_WIN
    third = clock.tournament.rounds[0].matches[1].players[0]
    with pytest.raises(InvalidInput) as missing:
        clock.apply(ReportResult(third, 1, Claim.TIME), as_player(third))
    assert missing.value.rule == "R-MATCH-2"


def test_an_impossible_point_zone_count_names_the_player_not_their_id_r_match_2() -> None:
    clock = started(4)
    pair(clock)
    match = clock.tournament.rounds[0].matches[0]
    first, second = match.players
    names = {user: entry.display_name for user, entry in clock.tournament.players.items()}
    # A player's report: 7 cards in the opponent's point zone cannot happen (0 to 6).
    with pytest.raises(InvalidInput) as reported:
        clock.apply(ReportResult(first, 1, Claim.TIME, 2, 7), as_player(first))
    assert reported.value.key == "engine.result.point_zone_out_of_range"
    assert reported.value.rule == "R-MATCH-2"
    assert reported.value.params["player"] == names[second]
    assert reported.value.params["count"] == 7
    # A judge's /result set: counts in table order.
    with pytest.raises(InvalidInput) as judged:
        judged_result(clock.tournament, "time", match, None, 9, 1)
    assert judged.value.params["player"] == names[first]
    assert judged.value.params["count"] == 9


def test_a_dispute_waits_for_a_judge() -> None:
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    clock.apply(DisputeResult(second, 1, 1, "I won"), as_player(second))
    with pytest.raises(IllegalTransition):
        clock.apply(ConfirmResult(second, 1, 1), as_player(second))
    assert clock.tournament.rounds[0].matches[0].disputed


def test_a_dispute_claims_the_other_result_and_the_judges_see_both_sides() -> None:
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    clock.apply(DisputeResult(second, 1, 1, "最後のターンで勝った", Claim.WIN), as_player(second))
    assert clock.events == (ev.ResultDisputed(1, 1, second, "最後のターンで勝った"),)
    match = clock.tournament.rounds[0].matches[0]
    assert match.disputed
    assert match.result is None
    assert [(r.player_id, r.result) for r in match.reports] == [
        (first, MatchResult.win(str(first))),
        (second, MatchResult.win(str(second))),
    ]
    # Nobody confirms a disputed report; a judge decides, and the claims are cleared.
    with pytest.raises(IllegalTransition):
        clock.apply(ConfirmResult(first, 1, 1), as_player(first))
    clock.apply(SetResult(1, 1, MatchResult.win(str(second))), JUDGE)
    settled = clock.tournament.rounds[0].matches[0]
    assert (settled.result, settled.reports, settled.disputed) == (
        MatchResult.win(str(second)),
        (),
        False,
    )


def test_the_reporter_may_still_agree_with_the_disputed_claim() -> None:
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    clock.apply(DisputeResult(second, 1, 1, claim=Claim.WIN), as_player(second))
    clock.apply(ReportResult(first, 1, Claim.LOSE), as_player(first))
    assert clock.events == (ev.ResultConfirmed(1, 1, by_both=True),)
    assert clock.tournament.rounds[0].matches[0].result == MatchResult.win(str(second))


def test_a_time_claim_gives_the_judgement_from_both_counts_r_match_2() -> None:
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    # The second player: 1 card in their own point zone, 4 in the first player's.
    clock.apply(
        DisputeResult(second, 1, 1, claim=Claim.TIME, my_points=1, opponent_points=4),
        as_player(second),
    )
    claimed = clock.tournament.rounds[0].matches[0].reports[-1].result
    assert claimed.point_zone == (4, 1)  # in table order
    assert claimed.outcomes((str(first), str(second)))[str(second)] is Outcome.JUDGEMENT_WIN


@pytest.mark.parametrize(
    ("claim", "mine", "theirs", "key"),
    [
        (Claim.LOSE, None, None, "report.dispute_agrees"),  # what the report says
        (Claim.WIN, 2, 3, "report.points_only_for_time"),  # a judgement is not a win
        (Claim.TIME, None, None, "report.time_needs_points"),
        (Claim.TIME, 7, 0, "engine.result.point_zone_out_of_range"),  # 0 to 6 (R-MATCH-2)
        (Claim.CONCEDE, None, None, "report.dispute_claims"),
    ],
)
def test_a_dispute_claim_that_cannot_stand_is_refused_and_nothing_changes(
    claim: Claim, mine: int | None, theirs: int | None, key: str
) -> None:
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    before = clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    with pytest.raises(InvalidInput) as refused:
        clock.apply(DisputeResult(second, 1, 1, "", claim, mine, theirs), as_player(second))
    assert refused.value.key == key
    assert clock.tournament == before


def test_a_dispute_logged_before_claims_reads_back_without_one_and_folds_as_it_did() -> None:
    # Disputes were logged without a claim before the 異議 form asked for one: they still
    # replay (verify, undo) to the tables they wrote, the report alone waiting for a judge.
    old = DisputeResult.from_payload({"player_id": 102, "round": 1, "table": 1, "reason": "x"})
    assert old == DisputeResult(102, 1, 1, "x")
    assert old.claim is None
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    clock.apply(DisputeResult(second, 1, 1, "x"), as_player(second))
    match = clock.tournament.rounds[0].matches[0]
    assert match.disputed
    assert [r.player_id for r in match.reports] == [first]


REPORTABLE = st.one_of(
    st.tuples(st.sampled_from([Claim.WIN, Claim.LOSE, Claim.CONCEDE]), st.none(), st.none()),
    st.tuples(st.just(Claim.TIME), st.integers(0, 6), st.integers(0, 6)),
)
DISPUTABLE = st.one_of(
    st.tuples(st.sampled_from([Claim.WIN, Claim.LOSE]), st.none(), st.none()),
    st.tuples(st.just(Claim.TIME), st.integers(0, 6), st.integers(0, 6)),
)


def told(seat: int, claim: tuple[Claim, int | None, int | None]) -> tuple[object, ...]:
    """What a claim from `seat` (0 or 1) says, by hand: the winner's seat (None: a draw)
    and, on time, the counts in table order (R-MATCH-2: fewer cards wins)."""
    kind, mine, theirs = claim
    if kind is Claim.TIME:
        assert mine is not None
        assert theirs is not None
        counts = (mine, theirs) if seat == 0 else (theirs, mine)
        winner = None if counts[0] == counts[1] else (0 if counts[0] < counts[1] else 1)
        return winner, counts
    return (seat if kind is Claim.WIN else 1 - seat), None


@settings(max_examples=80, deadline=None)
@given(REPORTABLE, DISPUTABLE)
def test_a_dispute_stands_exactly_when_its_claim_differs_from_the_report(
    reported: tuple[Claim, int | None, int | None], disputed: tuple[Claim, int | None, int | None]
) -> None:
    clock = started(2)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    before = clock.apply(ReportResult(first, 1, *reported), as_player(first))
    operation = DisputeResult(second, 1, 1, "", *disputed)
    if told(0, reported) == told(1, disputed):
        with pytest.raises(InvalidInput) as refused:
            clock.apply(operation, as_player(second))
        assert refused.value.key == "report.dispute_agrees"
        assert clock.tournament == before
        return
    clock.apply(operation, as_player(second))
    after = clock.tournament.rounds[0].matches[0]
    assert after.disputed
    assert after.result is None
    report, claim = after.reports
    assert (report.player_id, claim.player_id) == (first, second)
    assert claim.result == claim_result(clock.tournament, after, second, *disputed)
    winner = claim.result.winner(after.ids)
    assert told(1, disputed)[0] == (None if winner is None else after.ids.index(winner))


def test_reports_on_someone_elses_match_or_a_finished_one_are_refused() -> None:
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    third, _ = clock.tournament.rounds[0].matches[1].players
    with pytest.raises(PermissionDenied) as other_table:
        clock.apply(ConfirmResult(third, 1, 1), as_player(third))
    assert other_table.value.key == "report.not_your_match"
    # A member who never entered is told so, not that this is not their match.
    with pytest.raises(PermissionDenied) as outsider:
        clock.apply(ConfirmResult(999_999, 1, 1), as_player(999_999))
    assert outsider.value.key == "report.not_a_player"
    with pytest.raises(PermissionDenied):
        clock.apply(ReportResult(first, 1, Claim.WIN), as_player(third))
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    clock.apply(ConfirmResult(second, 1, 1), as_player(second))
    with pytest.raises(IllegalTransition) as final:
        clock.apply(ReportResult(second, 1, Claim.WIN), as_player(second))
    assert final.value.key == "report.already_final"


def finish_round(clock: Clock) -> None:
    """Every table of the current round decided by its first player's win."""
    current = clock.tournament.current
    assert current is not None
    for match in current.matches:
        if not match.is_bye and match.result is None:
            clock.apply(
                SetResult(current.number, match.table, MatchResult.win(str(match.players[0]))),
                JUDGE,
            )


def round_operations(clock: Clock, number: int) -> dict[str, tuple[object, int]]:
    """A report, a confirmation and a dispute of round `number` by the players of table 1
    of the current round, each with who makes it."""
    current = clock.tournament.current
    assert current is not None
    first, second = current.matches[0].players
    return {
        "report": (ReportResult(first, number, Claim.WIN), first),
        "time report": (ReportResult(first, number, Claim.TIME, 2, 5), first),
        "confirm": (ConfirmResult(second, number, 1), second),
        "dispute": (DisputeResult(second, number, 1, "x"), second),
    }


@settings(max_examples=30)
@given(
    players=st.integers(min_value=8, max_value=16),
    rounds=st.integers(min_value=2, max_value=3),
    claim=st.sampled_from(["report", "time report", "confirm", "dispute"]),
    data=st.data(),
)
def test_a_report_of_a_round_that_is_over_is_refused_never_filed_in_the_current_one(
    players: int, rounds: int, claim: str, data: st.DataObject
) -> None:
    """A form left open from an earlier round acts on that round: refused with
    「第 n 回戦はすでに終わっています」, and the current round is as it was."""
    clock = started(players)
    for _ in range(rounds - 1):
        pair(clock)
        finish_round(clock)
    pair(clock)
    first = clock.tournament.current.matches[0].players[0]  # type: ignore[union-attr]
    clock.apply(ReportResult(first, rounds, Claim.WIN), as_player(first))
    before = clock.tournament
    earlier = data.draw(st.integers(min_value=1, max_value=rounds - 1))
    operation, by = round_operations(clock, earlier)[claim]
    with pytest.raises(IllegalTransition) as refused:
        clock.apply(operation, as_player(by))  # type: ignore[arg-type]
    assert refused.value.key == "report.round_finished"
    assert refused.value.params["round"] == earlier
    assert clock.tournament is before


def test_a_report_of_a_round_taken_back_says_so() -> None:
    """Round 2's pairings are taken back (/round repair): a round-2 form still open is
    refused as taken back, not as a round that is over."""
    clock = started(4)
    pair(clock)
    finish_round(clock)
    pair(clock)
    operations = round_operations(clock, 2)
    clock.apply(UnpairRound(2))
    before = clock.tournament
    for what, (operation, by) in operations.items():
        with pytest.raises(IllegalTransition) as refused:
            clock.apply(operation, as_player(by))  # type: ignore[arg-type]
        assert refused.value.key == "report.round_taken_back", what
        assert refused.value.params["round"] == 2
        assert clock.tournament is before


def test_pairing_is_refused_while_results_are_missing_naming_the_tables() -> None:
    clock = started(6)
    pair(clock)
    with pytest.raises(IllegalTransition) as missing:
        propose_round(clock.tournament, 2)
    assert missing.value.params["tables"] == ("1", "2", "3")


def test_repair_only_without_results() -> None:
    clock = started(4)
    pair(clock)
    clock.apply(UnpairRound(1))
    assert clock.tournament.rounds == ()
    pair(clock)
    first = clock.tournament.rounds[0].matches[0].players[0]
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    with pytest.raises(IllegalTransition) as refused:
        clock.apply(UnpairRound(1))
    assert refused.value.key == "rounds.repair_has_results"


def test_the_clock_and_a_table_extension() -> None:
    clock = started(4, time_limit_minutes=40)
    pair(clock)
    clock.apply(StartRound(1))
    current = clock.tournament.rounds[0]
    assert current.ends_at == clock.at + timedelta(minutes=40)  # R-MATCH-1
    clock.apply(ExtendTable(1, 2, 5), JUDGE)
    current = clock.tournament.rounds[0]
    assert current.table_ends_at(current.matches[1]) == current.ends_at + timedelta(minutes=5)
    assert current.table_ends_at(current.matches[0]) == current.ends_at


def test_a_dropped_player_is_not_paired_again_and_undrop_works_before_the_next_pairing() -> None:
    clock = started(5)
    pair(clock)
    play_round(clock, random.Random(1))
    clock.apply(Drop(101), as_player(101))
    assert clock.tournament.players[101].status is PlayerStatus.DROPPED
    clock.apply(Undrop(101))
    clock.apply(Drop(101), as_player(101))
    pair(clock, 2)
    assert all(101 not in m.players for m in clock.tournament.rounds[1].matches)
    with pytest.raises(IllegalTransition) as late:
        clock.apply(Undrop(101))
    assert late.value.rule == "R-FMT-7"
    # The dropped player stays in the standings, marked.
    assert any(row.player == "101" and row.dropped for row in swiss_standings(clock.tournament))


def test_undrop_of_a_disqualified_player_says_only_revoking_the_penalty_lifts_it_r_pen_4() -> None:
    clock = started(4)
    pair(clock)
    clock.apply(GivePenalty(102, PenaltyType.DISQUALIFICATION, Infraction.OTHER, "暴言"), JUDGE)
    (penalty,) = clock.tournament.penalties
    with pytest.raises(IllegalTransition) as refused:
        clock.apply(Undrop(102))
    assert refused.value.key == "drop.disqualified"
    assert refused.value.rule == "R-PEN-4"
    assert refused.value.params == {"player": "P2", "penalty": penalty.id}
    # Revoking the penalty is what brings the player back.
    clock.apply(RevokePenalty(penalty.id))
    assert clock.tournament.players[102].status is PlayerStatus.ACTIVE


def play_round(clock: Clock, rng: random.Random) -> None:
    current = clock.tournament.rounds[-1]
    for match in current.matches:
        if len(match.players) != 2 or current.finished(match):
            continue
        first, second = match.players
        roll = rng.random()
        if roll < 0.1:
            result = MatchResult.from_point_zone(match.ids, (3, 3))
        elif roll < 0.2:
            result = MatchResult.from_point_zone(match.ids, (rng.randint(0, 6), rng.randint(0, 6)))
        else:
            result = MatchResult.win(str(first if roll < 0.6 else second))
        advancing = None
        if current.kind is RoundKind.ELIMINATION and result.winner(match.ids) is None:
            advancing = first
        clock.apply(SetResult(current.number, match.table, result, advancing), JUDGE)


def finished_after_a_finalist_left() -> tuple[Clock, int, int]:
    """An 8-player event with a top cut of 4, finished after the winner of one semifinal
    dropped before the final (R-FMT-7): the clock, the one who left and the other finalist."""
    clock = started(8, format=EventFormat.SWISS_TOP_CUT, top_cut=4)
    rng = random.Random(5)
    swiss = clock.tournament.state.planned_rounds
    for number in range(1, swiss + 1):
        pair(clock, number)
        play_round(clock, rng)
    pair(clock, swiss + 1)
    play_round(clock, rng)
    gone, stays = clock.tournament.rounds[-1].advancing()
    assert gone is not None
    assert stays is not None
    clock.apply(Drop(gone), as_player(gone))
    pair(clock, swiss + 2)
    clock.apply(FinishTournament())
    return clock, gone, stays


def test_a_swiss_top_cut_event_runs_to_the_finish_r_fmt_1() -> None:
    clock = started(8, format=EventFormat.SWISS_TOP_CUT, top_cut=4)
    rng = random.Random(8)
    for number in range(1, 4):
        pair(clock, number)
        play_round(clock, rng)
    assert clock.tournament.phase is Phase.RUNNING
    pair(clock, 4)
    top = clock.tournament.rounds[3]
    assert clock.tournament.phase is Phase.TOP_CUT
    assert top.kind is RoundKind.ELIMINATION
    # Seeds 1v4 and 2v3 from the standings (in the strict order of R-FMT-5).
    seeds = [int(row.player) for row in swiss_standings(clock.tournament)]
    assert {frozenset(m.players) for m in top.matches} <= {
        frozenset(p) for p in [(a, b) for a in seeds for b in seeds if a != b]
    }
    with pytest.raises(IllegalTransition):
        clock.apply(FinishTournament())
    play_round(clock, rng)
    pair(clock, 5)
    assert len(clock.tournament.rounds[4].matches) == 1  # the final
    play_round(clock, rng)
    with pytest.raises(IllegalTransition) as done:
        propose_round(clock.tournament, 6)
    assert done.value.key == "rounds.bracket_complete"
    clock.apply(FinishTournament())
    assert clock.tournament.phase is Phase.FINISHED


def test_an_elimination_draw_needs_the_judge_to_name_who_advances() -> None:
    clock = started(4, format=EventFormat.ELIMINATION)
    pair(clock)
    match = clock.tournament.rounds[0].matches[0]
    draw = MatchResult.from_point_zone(match.ids, (2, 2))
    with pytest.raises(InvalidInput) as refused:
        clock.apply(SetResult(1, match.table, draw), JUDGE)
    assert refused.value.rule == "R-FMT-1"
    clock.apply(SetResult(1, match.table, draw, advancing=match.players[1]), JUDGE)
    assert clock.tournament.rounds[0].advancing()[0] == match.players[1]


def test_a_double_loss_advances_nobody_and_the_next_opponent_gets_a_bye() -> None:
    clock = started(4, format=EventFormat.ELIMINATION)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches
    clock.apply(SetResult(1, first.table, MatchResult.double_loss()), JUDGE)
    clock.apply(SetResult(1, second.table, MatchResult.win(str(second.players[0]))), JUDGE)
    pair(clock, 2)
    (final,) = clock.tournament.rounds[1].matches
    assert final.players == (second.players[0],)
    assert clock.tournament.rounds[1].complete
    clock.apply(FinishTournament())


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2, max_value=24), st.integers(min_value=0, max_value=2**32))
def test_every_active_player_is_seated_once_each_swiss_round(players: int, seed: int) -> None:
    clock = started(players)
    rng = random.Random(seed)
    for number in range(1, clock.tournament.state.planned_rounds + 1):
        if rng.random() < 0.2:
            active = clock.tournament.entries(PlayerStatus.ACTIVE)
            if len(active) > 2:
                clock.apply(Drop(active[0].user_id), as_player(active[0].user_id))
        pair(clock, seed + number)
        seated = [p for m in clock.tournament.rounds[-1].matches for p in m.players]
        active_ids = {e.user_id for e in clock.tournament.entries(PlayerStatus.ACTIVE)}
        assert sorted(seated) == sorted(active_ids)
        play_round(clock, rng)
    clock.apply(FinishTournament())


def test_an_export_replays_to_the_posted_standings() -> None:
    import json

    from domain.engine.record import read_record
    from domain.tournament.views import export_record, final_standings, standings_lines

    clock = started(9, format=EventFormat.SWISS_TOP_CUT, top_cut=4)
    rng = random.Random(3)
    for number in range(1, 5):
        pair(clock, number)
        play_round(clock, rng)
        if number == 2:
            clock.apply(Drop(105), as_player(105))
    posted = [
        (line.rank, line.name, line.points, line.opponents_points)
        for line in standings_lines(clock.tournament)
    ]
    record = read_record(json.dumps(export_record(clock.tournament).to_json(), ensure_ascii=False))
    replayed = [(r.rank, r.player, r.points, r.opponents_points) for r in record.standings()]
    assert replayed == posted
    # Finish the top cut: the final standings put its placings first (R-FMT-1, R-FMT-5).
    pair(clock, 5)
    play_round(clock, rng)
    pair(clock, 6)
    play_round(clock, rng)
    clock.apply(FinishTournament())
    shared, strict = final_standings(clock.tournament)
    assert [line.rank for line in strict] == list(range(1, 10))
    assert [line.rank for line in shared][:4] == [1, 2, 3, 3]
    champion = clock.tournament.rounds[-1].advancing()[0]
    assert shared[0].user_id == champion == strict[0].user_id
    assert {line.user_id for line in shared} == {line.user_id for line in strict}


def test_an_extended_table_is_reminded_of_its_own_end_r_match_7() -> None:
    """R-MATCH-7: a table given extra time ends later; its reminders and its time-up follow
    its own end, the other tables keep the round's."""
    clock = started(6, time_limit_minutes=40)
    pair(clock)
    clock.apply(StartRound(1))
    clock.apply(ExtendTable(1, 2, 4), JUDGE)
    current = clock.tournament.rounds[0]
    assert current.ends_at is not None
    extended_end = current.ends_at + timedelta(minutes=4)
    notices = clock_notices(current, unconfirmed_after=timedelta(minutes=10))
    reminders = {(n.tables, n.minutes_left): n for n in notices if n.kind is NoticeKind.REMINDER}
    assert reminders[((1, 3), 10)].ends == current.ends_at
    assert reminders[((2,), 10)].ends == extended_end
    assert reminders[((2,), 5)].due == extended_end - timedelta(minutes=5)
    time_ups = [(n.tables, n.due) for n in notices if n.kind is NoticeKind.TIME_UP]
    assert time_ups == [((1, 3), current.ends_at), ((2,), extended_end)]


@given(st.integers(4, 24), st.integers(0, 2**16), st.integers(1, 4))
@settings(max_examples=30, deadline=None)
def test_the_rounds_folded_part_by_part_are_the_history_folded_at_once(
    players: int, seed: int, rounds: int
) -> None:
    # Pairing reads each played round's own tally instead of folding every match
    # again: what it hands the engine must be what the whole history gives (R-FMT-3).
    from domain.engine.history import entrants_from_history, entrants_from_tally, tally
    from domain.engine.players import Player
    from domain.tournament.play import recorded_matches

    clock = started(players)
    rng = random.Random(seed)
    planned = clock.tournament.state.planned_rounds or 1
    for number in range(1, min(rounds, planned) + 1):
        pair(clock, seed + number)
        play_round(clock, rng)
        swiss = clock.tournament.swiss_rounds
        everyone = [Player(str(100 + n)) for n in range(1, players + 1)]
        by_parts = tally(everyone, parts=[played.tally for played in swiss])
        assert entrants_from_tally(everyone, by_parts) == entrants_from_history(
            everyone, recorded_matches(swiss)
        )


@given(st.integers(4, 16), st.integers(0, 2**16), st.integers(1, 3))
@settings(max_examples=30, deadline=None)
def test_pairing_from_the_standings_tally_is_pairing_from_the_whole_history(
    players: int, seed: int, rounds: int
) -> None:
    # The bot hands pairing the tally its standings folded from each round's part: with
    # drops and late entrants, the round paired must be the one the whole match history
    # folded at once gives (R-FMT-3).
    from domain.engine.history import tally
    from domain.tournament.operations import ChangeSettings, Register, SettingsChange
    from domain.tournament.play import recorded_matches, standings_players, swiss_tally
    from domain.tournament.registration import late_entry_round

    clock = Clock(new_tournament())
    clock.apply(ChangeSettings(SettingsChange(late_registration_rounds=3)))
    for number in range(1, players + 1):
        clock.apply(Register(100 + number, f"P{number}"), player(number))
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    clock.apply(StartTournament(seed=seed))
    rng = random.Random(seed)
    planned = clock.tournament.state.planned_rounds or 1
    for number in range(1, min(rounds, planned) + 1):
        tournament = clock.tournament
        history = recorded_matches(tournament.swiss_rounds)
        from_history = tally(standings_players(tournament), history)
        assert propose_round(tournament, seed + number, swiss_tally(tournament)) == (
            propose_round(tournament, seed + number, from_history)
        )
        pair(clock, seed + number)
        play_round(clock, rng)
        if rng.random() < 0.5:
            active = clock.tournament.entries(PlayerStatus.ACTIVE)
            clock.apply(Drop(active[0].user_id), as_player(active[0].user_id))
        if late_entry_round(clock.tournament) is not None:  # R-FMT-8
            late = 200 + number
            clock.apply(Register(late, f"Late {number}"), player(late - 100))

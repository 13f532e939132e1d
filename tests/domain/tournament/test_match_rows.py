"""One row per match for the matches CSV: round, kind and stage, table, players, result,
point-zone counts (R-MATCH-2), whether a judge set it, and the penalties of that round."""

from __future__ import annotations

import random

from domain.engine.placings import StageKind
from domain.engine.results import MatchResult, ResultKind
from domain.event import EventFormat
from domain.tournament.match_rows import match_rows
from domain.tournament.operations import (
    ConfirmResult,
    GivePenalty,
    RecordNoShow,
    ReportResult,
    SetResult,
    StartRound,
    Undo,
)
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.replay import LoggedOperation
from domain.tournament.rounds import Claim, RoundKind
from tests.domain.tournament.support import JUDGE, ORGANIZER, Logged
from tests.domain.tournament.test_play import as_player, pair, play_round, started


def test_each_match_says_how_it_ended_and_who_set_it() -> None:
    clock = started(8)
    logged = Logged(clock)
    pair(clock)
    logged.apply(StartRound(1))
    tables = {m.table: m.players for m in clock.tournament.rounds[0].matches}
    # Table 1: reported and confirmed by the players.
    first, second = tables[1]
    logged.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    logged.apply(ConfirmResult(second, 1, 1), as_player(second))
    # Table 2: a time-out, 2 against 5 in the point zone, set by a judge (R-MATCH-2).
    third, fourth = tables[2]
    judged = MatchResult.from_point_zone((str(third), str(fourth)), (2, 5))
    logged.apply(SetResult(1, 2, judged), JUDGE)
    # Table 3: a no-show (R-MATCH-6), only ever a judge's result.
    absent, _ = tables[3]
    logged.apply(RecordNoShow(1, 3, absent), JUDGE)
    # Table 4: reported by a player, then a game loss for the winner flips it (R-PEN-3).
    fifth, sixth = tables[4]
    logged.apply(ReportResult(fifth, 1, Claim.WIN), as_player(fifth))
    logged.apply(ConfirmResult(sixth, 1, 4), as_player(sixth))
    logged.apply(GivePenalty(fifth, PenaltyType.GAME_LOSS, Infraction.EXTRA_CARDS, "2枚"), JUDGE)
    logged.apply(GivePenalty(sixth, PenaltyType.CAUTION, Infraction.RULES_ERROR, "コスト"), JUDGE)

    rows = {row.table: row for row in match_rows(clock.tournament, logged.log)}
    assert [row.round for row in rows.values()] == [1, 1, 1, 1]
    assert all(row.kind is RoundKind.SWISS and row.stage is None for row in rows.values())
    assert rows[1].players == (first, second)
    assert (rows[1].result, rows[1].winner, rows[1].by_judge) == (ResultKind.WIN, first, False)
    assert (rows[2].result, rows[2].winner) == (ResultKind.JUDGEMENT, third)
    assert rows[2].point_zone == (2, 5)
    assert rows[2].by_judge
    assert rows[3].result is ResultKind.NO_SHOW
    assert rows[3].by_judge
    assert (rows[4].winner, rows[4].by_judge) == (sixth, True)
    assert [(p.player_id, p.type) for p in rows[4].penalties] == [
        (fifth, PenaltyType.GAME_LOSS),
        (sixth, PenaltyType.CAUTION),
    ]
    assert rows[1].penalties == ()
    # Without the log, what the tournament shows by itself: the no-show and the penalty.
    alone = {row.table: row.by_judge for row in match_rows(clock.tournament)}
    assert alone == {1: False, 2: False, 3: True, 4: True}


def test_a_result_a_judge_set_and_undid_or_made_for_a_player() -> None:
    clock = started(4)
    logged = Logged(clock)
    pair(clock)
    (first, _), (third, fourth) = (m.players for m in clock.tournament.rounds[0].matches)
    mistaken = logged.apply(SetResult(1, 1, MatchResult.win(str(first))), JUDGE)
    logged.log.append(
        LoggedOperation(
            len(logged.log) + 1,
            Undo.kind,
            Undo(mistaken).to_payload(),
            ORGANIZER.user_id,
            ORGANIZER.role,
            clock.at,
        )
    )
    # Staff may act for a player: a judge's report and confirmation set the result.
    logged.apply(ReportResult(third, 1, Claim.WIN), JUDGE)
    logged.apply(ConfirmResult(fourth, 1, 2), JUDGE)
    rows = {row.table: row.by_judge for row in match_rows(clock.tournament, logged.log)}
    assert rows == {1: False, 2: True}


def test_top_cut_rows_name_their_stage_and_who_went_on() -> None:
    clock = started(8, format=EventFormat.SWISS_TOP_CUT, top_cut=4)
    rng = random.Random(4)
    swiss = clock.tournament.state.planned_rounds
    for number in range(1, swiss + 3):
        pair(clock, number)
        play_round(clock, rng)
    rows = match_rows(clock.tournament)
    top = [row for row in rows if row.kind is RoundKind.ELIMINATION]
    assert [(row.round, row.stage.kind if row.stage else None) for row in top] == [
        (swiss + 1, StageKind.SEMIFINAL),  # 準決勝
        (swiss + 1, StageKind.SEMIFINAL),
        (swiss + 2, StageKind.FINAL),  # 決勝
    ]
    final = clock.tournament.rounds[-1]
    assert top[-1].advancing == final.advancing()[0]
    assert {row.advancing for row in top[:2]} == set(final.matches[0].players)
    assert len(rows) == sum(len(r.matches) for r in clock.tournament.rounds)

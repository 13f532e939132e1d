"""A report made again exactly as it was filed (the second press of 勝ち after Discord lost
the first answer) is recognised by the rules as an identical repeat: it changes nothing and
tells nobody again. Any other report, even one with the same winner (負け then 投了, R-MATCH-4;
a time-out's other counts, R-MATCH-2), is a new claim."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from domain.errors import IllegalTransition
from domain.tournament import events as ev
from domain.tournament.operations import ConfirmResult, DisputeResult, ReportResult
from domain.tournament.play import repeats_own_report
from domain.tournament.rounds import Claim
from tests.domain.tournament.test_play import REPORTABLE, as_player, pair, started

ClaimArgs = tuple[Claim, int | None, int | None]


def test_the_same_report_again_is_a_repeat_of_the_one_filed() -> None:
    clock = started(4)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    win = ReportResult(first, 1, Claim.WIN)
    assert repeats_own_report(clock.tournament, win) is None  # nothing filed yet
    clock.apply(win, as_player(first))
    filed = clock.tournament.rounds[0].matches[0].reports[0]
    assert repeats_own_report(clock.tournament, win) == filed
    # Not the opponent's: the same result from them confirms (two matching reports).
    assert repeats_own_report(clock.tournament, ReportResult(second, 1, Claim.LOSE)) is None
    # A loss, or a concession, is another claim, though the winner would be the same.
    assert repeats_own_report(clock.tournament, ReportResult(first, 1, Claim.LOSE)) is None
    clock.apply(ReportResult(first, 1, Claim.LOSE), as_player(first))
    concede = ReportResult(first, 1, Claim.CONCEDE)
    assert repeats_own_report(clock.tournament, concede) is None


def test_a_time_out_repeats_only_with_the_same_counts_r_match_2() -> None:
    clock = started(2)
    pair(clock)
    first, _ = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.TIME, 2, 4), as_player(first))
    assert repeats_own_report(clock.tournament, ReportResult(first, 1, Claim.TIME, 2, 4))
    # The same judgement winner, other counts: a new claim.
    assert not repeats_own_report(clock.tournament, ReportResult(first, 1, Claim.TIME, 1, 4))


def test_a_repeat_while_the_judges_decide_is_still_a_repeat() -> None:
    clock = started(2)
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    clock.apply(DisputeResult(second, 1, 1, "no", Claim.WIN), as_player(second))
    assert clock.tournament.rounds[0].matches[0].disputed
    assert repeats_own_report(clock.tournament, ReportResult(first, 1, Claim.WIN))
    # The disputing player's claim, made again as a report, too.
    assert repeats_own_report(clock.tournament, ReportResult(second, 1, Claim.WIN))


def test_once_the_result_is_final_a_repeat_is_refused_as_the_report_would_be() -> None:
    clock = started(4)  # another table still plays: the round goes on
    pair(clock)
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.WIN), as_player(first))
    clock.apply(ConfirmResult(second, 1, 1), as_player(second))
    with pytest.raises(IllegalTransition) as refused:
        repeats_own_report(clock.tournament, ReportResult(first, 1, Claim.WIN))
    assert refused.value.key == "report.already_final"


@settings(max_examples=80, deadline=None)
@given(REPORTABLE, REPORTABLE)
def test_a_second_report_is_a_repeat_exactly_when_it_makes_the_same_claim(
    earlier: ClaimArgs, later: ClaimArgs
) -> None:
    """Against the claims themselves: the same button (and the same counts) is a repeat,
    anything else a new report, which is filed again and told to the opponent again."""
    clock = started(2)
    pair(clock)
    first, _ = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, *earlier), as_player(first))
    again = ReportResult(first, 1, *later)
    repeat = repeats_own_report(clock.tournament, again)
    assert (repeat is not None) == (earlier == later)
    if repeat is None:
        clock.apply(again, as_player(first))
        assert clock.events == (ev.ReportFiled(1, 1, first),)

"""Match results and points: R-MATCH-2, R-MATCH-3, R-MATCH-4, R-MATCH-6, R-PEN-3, R-FMT-2."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine import POINTS, MatchResult, Outcome, ResultKind, match_points, points_for
from domain.errors import InvalidInput

PAIR = ("alice", "bob")


def test_points_table_matches_the_regulation() -> None:
    # R-FMT-2: win 3, judgement win 2, draw 1, judgement loss 0, loss 0, bye 3.
    assert points_for(Outcome.WIN) == 3
    assert points_for(Outcome.JUDGEMENT_WIN) == 2
    assert points_for(Outcome.DRAW) == 1
    assert points_for(Outcome.JUDGEMENT_LOSS) == 0
    assert points_for(Outcome.LOSS) == 0
    assert points_for(Outcome.BYE) == 3
    assert set(POINTS) == set(Outcome)


def test_plain_win() -> None:
    assert match_points(MatchResult.win("bob"), PAIR) == {"alice": 0, "bob": 3}


def test_time_result_fewer_point_zone_cards_wins_by_judgement() -> None:
    # R-MATCH-2
    result = MatchResult.from_point_zone(PAIR, (2, 5))
    assert result.kind is ResultKind.JUDGEMENT
    assert result.outcomes(PAIR) == {"alice": Outcome.JUDGEMENT_WIN, "bob": Outcome.JUDGEMENT_LOSS}
    assert match_points(result, PAIR) == {"alice": 2, "bob": 0}
    assert MatchResult.from_point_zone(PAIR, (6, 0)).player == "bob"


def test_time_result_equal_counts_is_a_draw() -> None:
    # R-MATCH-2
    result = MatchResult.from_point_zone(PAIR, (4, 4))
    assert result.kind is ResultKind.TIME_DRAW
    assert result.point_zone == (4, 4)
    assert match_points(result, PAIR) == {"alice": 1, "bob": 1}
    assert result.winner(PAIR) is None


@pytest.mark.parametrize("counts", [(7, 3), (0, 7), (-1, 2), (3, 12)])
def test_time_result_counts_outside_0_to_6_are_rejected(counts: tuple[int, int]) -> None:
    # R-MATCH-2: seven cards in the point zone end the game, so 7+ never reaches time.
    with pytest.raises(InvalidInput) as caught:
        MatchResult.from_point_zone(PAIR, counts)
    assert caught.value.key == "engine.result.point_zone_out_of_range"
    assert caught.value.rule == "R-MATCH-2"


@given(st.integers(0, 6), st.integers(0, 6))
@settings(max_examples=60, deadline=None)
def test_every_legal_time_result_gives_two_or_one_points_each(first: int, second: int) -> None:
    # R-MATCH-2 and R-FMT-2: judgement 2/0, draw 1/1.
    scored = match_points(MatchResult.from_point_zone(PAIR, (first, second)), PAIR)
    if first == second:
        assert scored == {"alice": 1, "bob": 1}
    else:
        winner = "alice" if first < second else "bob"
        assert scored[winner] == 2
        assert sum(scored.values()) == 2


def test_there_is_no_agreed_draw() -> None:
    # R-MATCH-3: a draw only exists as a time result; nothing builds one by agreement.
    assert not any("agree" in name for name in dir(MatchResult))
    assert {kind.value for kind in ResultKind} == {
        "win",
        "judgement",
        "time_draw",
        "concession",
        "bye",
        "double_loss",
        "no_show",
    }


def test_concession_is_a_loss_for_the_conceding_player() -> None:
    # R-MATCH-4
    assert MatchResult.concession("alice").outcomes(PAIR) == {
        "alice": Outcome.LOSS,
        "bob": Outcome.WIN,
    }


def test_double_game_loss_gives_both_players_zero() -> None:
    # R-PEN-3: if both players receive a game loss, both lose.
    result = MatchResult.double_loss()
    assert result.outcomes(PAIR) == {"alice": Outcome.LOSS, "bob": Outcome.LOSS}
    assert match_points(result, PAIR) == {"alice": 0, "bob": 0}


def test_no_show_is_a_loss_for_the_absent_player() -> None:
    # R-MATCH-6
    assert match_points(MatchResult.no_show("bob"), PAIR) == {"alice": 3, "bob": 0}


def test_bye_scores_three_and_has_one_player() -> None:
    # R-FMT-2: a bye (不戦勝) scores 3.
    assert match_points(MatchResult.bye(), ("carol",)) == {"carol": 3}
    with pytest.raises(InvalidInput):
        MatchResult.bye().outcomes(PAIR)


def test_a_result_must_name_a_player_of_the_match() -> None:
    with pytest.raises(InvalidInput) as caught:
        MatchResult.win("zed").outcomes(PAIR)
    assert caught.value.key == "engine.result.player_not_in_match"
    with pytest.raises(InvalidInput):
        MatchResult.win("alice").outcomes(("alice", "alice"))

"""Ratings per server from every match: OpenSkill through a thin wrapper. Which
player a table lists first changes nothing, the same matches in the same order give the
same ratings, and only played matches count."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine.results import MatchResult
from domain.series.ratings import (
    NEW_PLAYER,
    RatedMatch,
    RatedOutcome,
    Rating,
    leaderboard,
    rate,
    rated_matches,
    server_ratings,
    update,
)
from domain.tournament.operations import GivePenalty
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.rounds import Match, Round
from tests.domain.series.support import TOP_CUT, ids, play_event
from tests.domain.tournament.support import JUDGE, Clock, new_tournament
from tests.test_layers import import_graph

PLAYED = [RatedOutcome.WIN, RatedOutcome.LOSS, RatedOutcome.DRAW]
NOT_PLAYED = [
    RatedOutcome.DOUBLE_LOSS,
    RatedOutcome.BYE,
    RatedOutcome.NO_SHOW,
    RatedOutcome.PENALTY,
]


@st.composite
def matches(draw: st.DrawFn, *, played_only: bool = False) -> list[RatedMatch]:
    found = []
    for _ in range(draw(st.integers(0, 25))):
        first, second = draw(st.lists(st.integers(1, 8), min_size=2, max_size=2, unique=True))
        outcome = draw(st.sampled_from(PLAYED if played_only else PLAYED + NOT_PLAYED))
        found.append(RatedMatch(first, None if outcome is RatedOutcome.BYE else second, outcome))
    return found


def test_a_win_raises_the_winner_and_lowers_the_loser() -> None:
    after = update({}, RatedMatch(1, 2, RatedOutcome.WIN))
    assert after[1].mu > NEW_PLAYER.mu > after[2].mu
    assert after[1].sigma < NEW_PLAYER.sigma
    assert after[1].matches == after[2].matches == 1
    assert NEW_PLAYER.ordinal == pytest.approx(0)


def test_a_draw_between_equals_moves_no_one_up_or_down() -> None:
    after = update({}, RatedMatch(1, 2, RatedOutcome.DRAW))
    assert after[1].mu == pytest.approx(NEW_PLAYER.mu)
    assert after[1] == after[2]


@pytest.mark.parametrize("outcome", NOT_PLAYED)
def test_byes_no_shows_double_losses_and_penalties_do_not_count(outcome: RatedOutcome) -> None:
    start = {1: Rating(30.0, 5.0, 4), 2: Rating(20.0, 6.0, 2)}
    assert update(start, RatedMatch(1, 2, outcome)) == start
    assert update(start, RatedMatch(1, None, outcome)) == start


@settings(max_examples=150, deadline=None)
@given(matches(), st.lists(st.booleans(), max_size=25))
def test_swapping_who_is_first_changes_nothing(seq: list[RatedMatch], flips: list[bool]) -> None:
    flips = (flips + [False] * len(seq))[: len(seq)]
    swapped = [m.swapped() if flip else m for m, flip in zip(seq, flips, strict=True)]
    assert rate(swapped) == rate(seq)


@settings(max_examples=150, deadline=None)
@given(matches())
def test_the_same_matches_in_the_same_order_give_the_same_ratings(seq: list[RatedMatch]) -> None:
    assert rate(seq) == rate(list(seq))
    assert rate(seq, {}) == rate(seq)


@settings(max_examples=100, deadline=None)
@given(matches())
def test_matches_that_were_not_played_are_skipped(seq: list[RatedMatch]) -> None:
    played = [m for m in seq if m.outcome.counts]
    assert rate(seq) == rate(played)


@settings(max_examples=100, deadline=None)
@given(matches(played_only=True), st.integers(1, 8), st.integers(1, 8))
def test_winning_a_match_never_lowers_ones_rating(
    seq: list[RatedMatch], winner: int, loser: int
) -> None:
    if winner == loser:
        return
    before = rate(seq)
    after = update(before, RatedMatch(winner, loser, RatedOutcome.WIN))
    assert after[winner].mu >= before.get(winner, NEW_PLAYER).mu
    assert after[loser].mu <= before.get(loser, NEW_PLAYER).mu


def test_a_tournaments_matches_in_round_and_table_order() -> None:
    cup = play_event(ids(9), format=TOP_CUT, top_cut=4)
    found = rated_matches(cup)
    expected = [
        (played.number, match.table)
        for played in cup.rounds
        for match in played.matches
        if match.players
    ]
    assert len(found) == len(expected)
    byes = [m for m in found if m.outcome is RatedOutcome.BYE]
    assert len(byes) == len(cup.swiss_rounds)  # 9 players: one bye a Swiss round
    assert all(m.second is None for m in byes)
    # The lower id wins every match: each counted match is a win for it.
    for match in found:
        if match.outcome.counts:
            assert match.second is not None
            winner = match.first if match.outcome is RatedOutcome.WIN else match.second
            assert winner == min(match.first, match.second)


def test_no_shows_double_losses_and_penalty_losses_are_marked() -> None:
    def decide(played: Round, match: Match) -> MatchResult:
        high = max(match.players)
        if played.number == 1 and match.table == 1:
            return MatchResult.no_show(str(high))
        if played.number == 1 and match.table == 2:
            return MatchResult.double_loss()
        return MatchResult.win(str(min(match.players)))

    def game_loss_in_round_two(clock: Clock, number: int) -> None:
        if number == 2:
            loss = GivePenalty(101, PenaltyType.GAME_LOSS, Infraction.RULES_ERROR, "extra draw")
            clock.apply(loss, JUDGE)

    cup = play_event(ids(6), decide=decide, between_rounds=game_loss_in_round_two)
    found = rated_matches(cup)
    assert [m.outcome for m in found[:2]] == [RatedOutcome.NO_SHOW, RatedOutcome.DOUBLE_LOSS]
    (penalised,) = [m for m in found if m.outcome is RatedOutcome.PENALTY]
    assert 101 in (penalised.first, penalised.second)
    assert cup.rounds[1].match_of(101) is not None


def test_server_ratings_feed_finished_events_oldest_first() -> None:
    old = play_event(ids(4), tournament_id=1, event_date=date(2026, 11, 1))
    new = play_event(ids(4), tournament_id=2, event_date=date(2026, 12, 1))
    running = new_tournament(name="Open")
    expected = rate([*rated_matches(old), *rated_matches(new)])
    assert server_ratings([new, running, old]) == expected
    board = leaderboard(expected)
    assert board[0][0] == 101
    ordinals = [rating.ordinal for _, rating in board]
    assert ordinals == sorted(ordinals, reverse=True)


def test_leaderboard_is_a_total_order() -> None:
    same = Rating(25.0, 5.0, 3)
    board = leaderboard({7: same, 3: same, 5: Rating(25.0, 5.0, 9)})
    assert [player for player, _ in board] == [5, 3, 7]


def test_ratings_never_reach_the_pairing_engine() -> None:
    graph = import_graph("domain")
    reached: set[str] = set()
    pending = [m for m in graph if m.startswith(("domain.engine", "domain.tournament"))]
    while pending:
        module = pending.pop()
        if module not in reached:
            reached.add(module)
            pending.extend(graph.get(module, ()))
    assert "domain.series.ratings" not in reached
    assert not any(module.startswith("domain.series") for module in reached)

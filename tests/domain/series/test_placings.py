"""One finished event's placings as the series reads them: the adapter from a tournament."""

from __future__ import annotations

from datetime import date

import pytest

from domain.engine.players import PlayerStatus
from domain.errors import IllegalTransition
from domain.series.placings import event_result
from domain.tournament.operations import Drop, GivePenalty
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.views import final_standings
from tests.domain.series.support import ELIMINATION, TOP_CUT, ids, play_event
from tests.domain.tournament.support import JUDGE, Clock, new_tournament, player
from tests.domain.tournament.test_play import (
    finished_after_a_finalist_left,
)


def test_a_swiss_event_gives_ranks_points_and_arrival() -> None:
    event = play_event(ids(6), tournament_id=7, name="第1回", event_date=date(2026, 12, 5))
    result = event_result(event)
    assert (result.event_id, result.name, result.held_on) == (7, "第1回", date(2026, 12, 5))
    shared, _ = final_standings(event)
    assert [(p.player_id, p.rank, p.swiss_points) for p in result.placings] == [
        (line.user_id, line.rank, line.points) for line in shared
    ]
    assert result.placings[0].player_id == 101  # the lower id wins every match
    assert all(p.top_cut is None and p.finish == p.rank for p in result.placings)
    assert {p.player_id: p.arrival for p in result.placings} == {
        user: event.players[user].seq for user in ids(6)
    }


def test_a_top_cut_gives_bands_by_the_round_reached_r_fmt_1() -> None:
    event = play_event(ids(10), format=TOP_CUT, top_cut=8)
    placings = {p.player_id: p for p in event_result(event).placings}
    assert sorted(p.top_cut for p in placings.values() if p.top_cut) == [1, 2, 4, 4, 8, 8, 8, 8]
    assert placings[101].top_cut == 1
    assert placings[101].finish == 1
    # A quarter-finalist is in the ベスト8 band whatever its rank (5 to 8).
    quarter = [p for p in placings.values() if p.top_cut == 8]
    assert {p.rank for p in quarter} == {5}
    assert all(p.finish == 8 for p in quarter)
    # Players outside the top cut are placed by rank.
    rest = [p for p in placings.values() if p.top_cut is None]
    assert sorted(p.finish for p in rest) == [9, 10]


def test_a_bye_in_an_elimination_event_reaches_the_next_round() -> None:
    event = play_event(ids(5), format=ELIMINATION)
    bands = {p.player_id: p.top_cut for p in event_result(event).placings}
    assert bands[101] == 1
    assert set(bands) == set(ids(5))
    assert sorted(b for b in bands.values() if b is not None) == [1, 2, 4, 4, 8]


def test_a_top_cut_player_who_left_counts_where_they_went_out_r_fmt_7() -> None:
    # The semifinal winner who dropped before the final went out in the final (R-FMT-7):
    # runner-up in the final standings, and so in the series' band of 2, not 4.
    clock, gone, stays = finished_after_a_finalist_left()
    placings = {p.player_id: p for p in event_result(clock.tournament).placings}
    assert (placings[stays].top_cut, placings[gone].top_cut) == (1, 2)
    assert placings[gone].dropped
    shared, _ = final_standings(clock.tournament)
    assert {line.user_id: line.top_cut.best for line in shared if line.top_cut} == {
        player: p.top_cut for player, p in placings.items() if p.top_cut is not None
    }


def test_dropped_and_disqualified_are_flagged() -> None:
    def leave_after_one(clock: Clock, number: int) -> None:
        if number == 1:
            clock.apply(Drop(106), player(6))
            disqualify = GivePenalty(105, PenaltyType.DISQUALIFICATION, Infraction.OTHER, "x")
            clock.apply(disqualify, JUDGE)

    event = play_event(ids(6), between_rounds=leave_after_one)
    placings = {p.player_id: p for p in event_result(event).placings}
    assert event.players[106].status is PlayerStatus.DROPPED
    assert placings[106].dropped
    assert not placings[106].disqualified
    assert event.players[105].status is PlayerStatus.DISQUALIFIED
    assert placings[105].disqualified
    assert not placings[105].dropped
    assert not placings[101].dropped
    assert not placings[101].disqualified


def test_an_unfinished_event_has_no_placings_yet() -> None:
    with pytest.raises(IllegalTransition) as refused:
        event_result(new_tournament(name="Open"))
    assert refused.value.key == "series.event_not_finished"

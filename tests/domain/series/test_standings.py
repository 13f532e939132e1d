"""Series standings: points from each event's placings, declared tiebreaks, and a
result that depends on the set of events only."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import InvalidInput
from domain.series.placings import EventPlacing, EventResult, event_result
from domain.series.points import DEFAULT_POINTS, Band, PointsTable
from domain.series.standings import TIEBREAKS, SeriesTiebreak, series_standings
from tests.domain.series.support import TOP_CUT, ids, play_event

DAY = date(2026, 12, 1)


def placing(player: int, rank: int, points: int = 0, **flags: object) -> EventPlacing:
    return EventPlacing(player, f"P{player}", rank, points, arrival=player, **flags)  # type: ignore[arg-type]


def event(event_id: int, *placings: EventPlacing, day: int = 0) -> EventResult:
    return EventResult(event_id, f"第{event_id}回", DAY + timedelta(days=day), placings)


def test_points_add_up_over_the_events() -> None:
    standings = series_standings(
        [
            event(1, placing(1, 1), placing(2, 2), placing(3, 3), placing(4, 4)),
            event(2, placing(2, 1), placing(1, 2), placing(3, 3), day=7),
        ]
    )
    # Default: 優勝 10, 準優勝 7, ベスト4 5, plus 1 for each event.
    assert [(row.player_id, row.points, row.events_played) for row in standings] == [
        (1, 19, 2),
        (2, 19, 2),
        (3, 12, 2),
        (4, 6, 1),
    ]
    # 1 and 2 tie on points and on best placing; 1 entered the series first.
    assert standings[1].decided_by is SeriesTiebreak.FIRST_ENTRY
    assert standings[2].decided_by is SeriesTiebreak.POINTS
    assert standings[0].decided_by is None
    assert [row.rank for row in standings] == [1, 2, 3, 4]
    assert [line.points for line in standings[0].events] == [11, 8]


def test_each_tiebreak_in_its_declared_order() -> None:
    assert TIEBREAKS == (
        SeriesTiebreak.POINTS,
        SeriesTiebreak.BEST_FINISH,
        SeriesTiebreak.EVENTS_PLAYED,
        SeriesTiebreak.SWISS_POINTS,
        SeriesTiebreak.FIRST_ENTRY,
    )
    flat = PointsTable((Band(1, 1, 6), Band(2, 3, 3)), participation=0)
    # A: one win (6). B: two thirds (3 + 3): same points, A's best placing is better.
    best = series_standings(
        [event(1, placing(1, 1), placing(2, 3)), event(2, placing(2, 3), day=1)], flat
    )
    assert [row.player_id for row in best] == [1, 2]
    assert best[1].decided_by is SeriesTiebreak.BEST_FINISH
    # Same points and best placing: more events played first.
    zero = PointsTable((Band(1, 1, 0),), participation=0)
    played = series_standings(
        [event(1, placing(1, 1), placing(2, 1)), event(2, placing(2, 1), day=1)], zero
    )
    assert [row.player_id for row in played] == [2, 1]
    assert played[1].decided_by is SeriesTiebreak.EVENTS_PLAYED
    # Then the Swiss points over the series.
    swiss = series_standings([event(1, placing(1, 1, 6), placing(2, 1, 9))], zero)
    assert [row.player_id for row in swiss] == [2, 1]
    assert swiss[1].decided_by is SeriesTiebreak.SWISS_POINTS
    # Then who entered the series first: the earlier event, then the earlier arrival.
    first = series_standings([event(2, placing(5, 1), day=3), event(1, placing(9, 1))], zero)
    assert [row.player_id for row in first] == [9, 5]
    assert first[1].decided_by is SeriesTiebreak.FIRST_ENTRY


def test_a_disqualification_counts_for_nothing_in_the_series_r_pen_4() -> None:
    standings = series_standings(
        [event(1, placing(1, 1, 9, disqualified=True), placing(2, 2, 6)), event(2, day=1)]
    )
    rows = {row.player_id: row for row in standings}
    assert rows[1].points == 0
    assert rows[1].events_played == 0
    assert rows[1].best_finish is None
    assert rows[1].swiss_points == 0
    assert rows[1].events[0].disqualified  # the line is still there, marked
    assert standings[0].player_id == 2


def test_a_dropped_player_keeps_the_placing_earned() -> None:
    (row,) = series_standings([event(1, placing(1, 3, 3, dropped=True))])
    assert row.points == DEFAULT_POINTS.points_for(3) == 6
    assert row.events[0].dropped


def test_the_latest_events_name_is_shown() -> None:
    renamed = EventPlacing(1, "ゆい", 1, 0)
    (row,) = series_standings([event(2, renamed, day=7), event(1, placing(1, 1))])
    assert row.name == "ゆい"


def test_an_event_counts_once() -> None:
    with pytest.raises(InvalidInput) as twice:
        series_standings([event(1, placing(1, 1)), event(1, placing(2, 1))])
    assert twice.value.key == "series.event_twice"


def test_a_top_cut_event_counts_by_the_band_reached() -> None:
    cup = play_event(ids(10), tournament_id=3, format=TOP_CUT, top_cut=8)
    rows = {row.player_id: row for row in series_standings([event_result(cup)])}
    assert rows[101].points == 11  # 優勝 + 参加
    quarter = [row for row in rows.values() if row.best_finish == 8]
    assert len(quarter) == 4
    assert all(row.points == 4 for row in quarter)  # ベスト8 + 参加
    assert sorted(row.points for row in rows.values()) == [1, 1, 4, 4, 4, 4, 6, 6, 8, 11]


# -- properties ---------------------------------------------------------------------------


@st.composite
def events(draw: st.DrawFn) -> list[EventResult]:
    count = draw(st.integers(0, 6))
    event_ids = draw(st.lists(st.integers(1, 50), min_size=count, max_size=count, unique=True))
    found = []
    for event_id in event_ids:
        players = draw(st.lists(st.integers(1, 12), min_size=1, max_size=10, unique=True))
        # A standings order with ties: a tie shares the rank of its first player.
        rank, placings = 1, []
        for position, player in enumerate(players, start=1):
            if position > 1 and not draw(st.booleans()):
                rank = position
            top_cut = draw(st.sampled_from([None, None, 1, 2, 4, 8]))
            placings.append(
                EventPlacing(
                    player,
                    f"P{player}",
                    rank,
                    draw(st.integers(0, 15)),
                    top_cut=top_cut,
                    dropped=draw(st.booleans()),
                    disqualified=draw(st.integers(0, 9)) == 0,
                    arrival=position,
                )
            )
        found.append(
            EventResult(
                event_id,
                f"E{event_id}",
                DAY + timedelta(days=draw(st.integers(0, 3))),
                tuple(placings),
            )
        )
    return found


@settings(max_examples=100, deadline=None)
@given(events(), st.randoms(use_true_random=False))
def test_the_order_events_are_added_in_does_not_matter(
    season: list[EventResult], rng: object
) -> None:
    shuffled = list(season)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    assert series_standings(shuffled) == series_standings(season)


@settings(max_examples=100, deadline=None)
@given(events(), events())
def test_adding_an_event_never_lowers_anyones_points(
    season: list[EventResult], more: list[EventResult]
) -> None:
    known = {e.event_id for e in season}
    extra = [e for e in more if e.event_id not in known][:1]
    before = {row.player_id: row.points for row in series_standings(season)}
    after = {row.player_id: row.points for row in series_standings(season + extra)}
    assert all(after[player] >= points for player, points in before.items())


@settings(max_examples=100, deadline=None)
@given(events())
def test_ties_are_broken_by_the_declared_keys_and_never_by_chance(
    season: list[EventResult],
) -> None:
    standings = series_standings(season)
    assert [row.rank for row in standings] == list(range(1, len(standings) + 1))
    # An independent count of each player's keys, straight from the placings.
    ordered = sorted(season, key=lambda e: (e.held_on, e.event_id))
    keys = {}
    for player in {p.player_id for e in season for p in e.placings}:
        counted = [(e, p) for e in ordered for p in e.placings if p.player_id == player]
        kept = [(e, p) for e, p in counted if not p.disqualified]
        points = sum(DEFAULT_POINTS.points_for(p.finish) for _, p in kept)
        best = min((p.finish for _, p in kept), default=1 << 30)
        swiss = sum(p.swiss_points for _, p in kept)
        e0, p0 = counted[0]
        keys[player] = (
            -points,
            best,
            -len(kept),
            -swiss,
            (e0.held_on, e0.event_id, p0.arrival),
            player,
        )
    assert [row.player_id for row in standings] == sorted(keys, key=keys.__getitem__)
    assert [row.points for row in standings] == [-keys[row.player_id][0] for row in standings]
    # The same input gives the same standings, every time.
    assert series_standings(season) == standings

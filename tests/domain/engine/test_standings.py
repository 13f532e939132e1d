"""Standings: R-FMT-4 (points, then opponents' points; a bye's opponent = 3 × rounds ÷ 2),
R-FMT-5 (shared ranks, strict order from a seed), R-FMT-7 / R-PEN-4 (dropped players stay)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine import (
    MatchResult,
    Player,
    PlayerStatus,
    RecordedMatch,
    build_standings,
    bye_opponent_points,
    match_points,
    player_points,
    strict_order,
)
from domain.engine.simulate import simulate
from domain.errors import InvalidInput


def m(number: int, players: tuple[str, ...], result: MatchResult) -> RecordedMatch:
    return RecordedMatch(number, players, result)


def test_bye_counts_as_an_opponent_with_three_times_rounds_over_two() -> None:
    # R-FMT-4: 7.5 in a 5-round event.
    assert bye_opponent_points(5) == Fraction(15, 2)
    players = [Player("a"), Player("b"), Player("c")]
    matches = [m(1, ("a", "b"), MatchResult.win("a")), m(1, ("c",), MatchResult.bye())]
    by_player = {row.player: row for row in build_standings(players, matches, 5)}
    assert by_player["c"].opponents_points == Fraction(15, 2)
    assert by_player["a"].opponents_points == 0  # b has 0 points
    assert by_player["b"].opponents_points == 3


def test_opponents_points_use_current_points_of_every_opponent() -> None:
    # R-FMT-4: the sum of the points of every opponent played, as they stand now.
    players = [Player(p) for p in "abcd"]
    matches = [
        m(1, ("a", "b"), MatchResult.win("a")),
        m(1, ("c", "d"), MatchResult.from_point_zone(("c", "d"), (1, 3))),
        m(2, ("a", "c"), MatchResult.win("c")),
        m(2, ("b", "d"), MatchResult.double_loss()),
    ]
    rows = {row.player: row for row in build_standings(players, matches, 2)}
    assert {p: rows[p].points for p in "abcd"} == {"a": 3, "b": 0, "c": 5, "d": 0}
    assert rows["a"].opponents_points == 0 + 5
    assert rows["c"].opponents_points == 0 + 3
    assert rows["b"].opponents_points == 3 + 0  # a double loss still counts as an opponent
    assert rows["d"].opponents_points == 5 + 0


def test_ranked_by_points_then_opponents_points_with_shared_ranks() -> None:
    # R-FMT-4 ordering, R-FMT-5 shared ranks "1, 2, 2, 4".
    players = [Player(p) for p in "abcdef"]
    matches = [
        m(1, ("a", "b"), MatchResult.win("a")),
        m(1, ("c", "d"), MatchResult.win("c")),
        m(1, ("e", "f"), MatchResult.win("e")),
        m(2, ("a", "c"), MatchResult.win("a")),
        m(2, ("e", "b"), MatchResult.win("b")),
        m(2, ("d", "f"), MatchResult.win("d")),
    ]
    standings = build_standings(players, matches, 2)
    # b and c: 3 points, 9 opponents' points; d and e: 3 points, 3 opponents' points.
    assert [(row.rank, row.player) for row in standings] == [
        (1, "a"),
        (2, "b"),
        (2, "c"),
        (4, "d"),
        (4, "e"),
        (6, "f"),
    ]
    assert [row.opponents_points for row in standings[1:5]] == [9, 9, 3, 3]


def test_strict_order_is_drawn_from_a_recorded_seed() -> None:
    # R-FMT-5: where prizes need an order, a random draw decides; the seed reproduces it.
    players = [Player(p) for p in "abcd"]
    standings = build_standings(players, [], 3)
    assert {row.rank for row in standings} == {1}
    first = strict_order(standings, seed=42)
    assert [row.rank for row in first] == [1, 2, 3, 4]
    assert strict_order(standings, seed=42) == first
    orders = {tuple(row.player for row in strict_order(standings, seed)) for seed in range(30)}
    assert len(orders) > 1


def test_strict_order_only_reorders_within_ties() -> None:
    # R-FMT-5
    standings = simulate(40, 4, seed=3).standings()
    strict = strict_order(standings, seed=9)
    assert [row.sort_key for row in strict] == [row.sort_key for row in standings]


def test_dropped_and_disqualified_players_stay_marked() -> None:
    # R-FMT-7 (drop) and R-PEN-4 (disqualification): they stay in the standings, marked.
    players = [
        Player("a"),
        Player("b", PlayerStatus.DROPPED),
        Player("c", PlayerStatus.DISQUALIFIED),
        Player("d"),
    ]
    matches = [m(1, ("a", "b"), MatchResult.win("b")), m(1, ("c", "d"), MatchResult.win("c"))]
    rows = {row.player: row for row in build_standings(players, matches, 3)}
    assert len(rows) == 4
    assert rows["b"].dropped
    assert rows["b"].status is PlayerStatus.DROPPED
    assert rows["c"].dropped
    assert rows["c"].status is PlayerStatus.DISQUALIFIED
    assert not rows["a"].dropped
    assert rows["b"].points == 3


def test_late_entrant_losses_score_zero_and_add_no_opponent() -> None:
    # R-FMT-2: the losses a late entrant is given score 0.
    players = [Player("a"), Player("b"), Player("late", late_losses=2)]
    matches = [m(3, ("late", "a"), MatchResult.win("late")), m(3, ("b",), MatchResult.bye())]
    rows = {row.player: row for row in build_standings(players, matches, 3)}
    assert rows["late"].points == 3
    assert rows["late"].opponents_points == 0
    with pytest.raises(InvalidInput):
        Player("x", late_losses=-1)


def test_unknown_player_in_a_match_is_rejected() -> None:
    with pytest.raises(InvalidInput) as caught:
        build_standings([Player("a")], [m(1, ("a", "zed"), MatchResult.win("a"))], 1)
    assert caught.value.params["player"] == "zed"


@given(
    players=st.integers(2, 40),
    rounds=st.integers(1, 6),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=40, deadline=None)
def test_point_totals_add_up_and_order_follows_the_keys(
    players: int, rounds: int, seed: int
) -> None:
    # R-FMT-2 totals; R-FMT-4 order; R-FMT-5 shared ranks.
    event = simulate(players, rounds, seed=seed)
    record = event.record
    standings = event.standings()
    expected = sum(sum(match_points(x.result, x.players).values()) for x in record.matches)
    assert sum(row.points for row in standings) == expected
    assert player_points([Player(p) for p in record.players], record.matches) == {
        row.player: row.points for row in standings
    }
    keys = [row.sort_key for row in standings]
    assert keys == sorted(keys, reverse=True)
    for previous, row in itertools.pairwise(standings):
        if row.sort_key == previous.sort_key:
            assert row.rank == previous.rank
        else:
            assert row.rank == standings.index(row) + 1


def reference_standings(
    players: list[Player], matches: list[RecordedMatch], rounds: int, no_show_as_bye: bool
) -> list[tuple[int, str, int, Fraction]]:
    """R-FMT-4 and R-FMT-5 read literally, one player at a time, in fractions: (rank,
    player, points, opponents' points), best first."""
    bye = Fraction(3 * rounds, 2)
    points = {p.id: 0 for p in players}
    for match in matches:
        for player, score in match_points(match.result, match.players).items():
            points[player] += score
    opponents_points = {p.id: Fraction(0) for p in players}
    for match in matches:
        if match.is_bye:
            opponents_points[match.players[0]] += bye
            continue
        for player in match.players:
            (other,) = [p for p in match.players if p != player]
            absent = match.result.kind.value == "no_show" and match.result.player == other
            opponents_points[player] += bye if absent and no_show_as_bye else points[other]
    order = sorted(
        range(len(players)),
        key=lambda i: (-points[players[i].id], -opponents_points[players[i].id], i),
    )
    rows = []
    for position, index in enumerate(order, start=1):
        player = players[index].id
        key = (points[player], opponents_points[player])
        tied = [r for r in rows if (r[2], r[3]) == key]
        rows.append((tied[0][0] if tied else position, player, *key))
    return rows


RESULTS = st.sampled_from(["win", "judgement", "draw", "concede", "double_loss", "no_show"])


@st.composite
def events(draw: st.DrawFn) -> tuple[list[Player], list[RecordedMatch], int]:
    count = draw(st.integers(1, 12))
    players = [Player(f"p{n}") for n in range(count)]
    rounds = draw(st.integers(1, 5))
    matches = []
    for number in range(1, rounds + 1):
        order = draw(st.permutations([p.id for p in players]))
        if len(order) % 2:
            matches.append(RecordedMatch(number, (order[-1],), MatchResult.bye()))
        for first, second in zip(order[0::2], order[1::2], strict=False):
            kind = draw(RESULTS)
            named = draw(st.sampled_from([first, second]))
            result = {
                "win": MatchResult.win(named),
                "judgement": MatchResult.judgement(named),
                "draw": MatchResult.time_draw(),
                "concede": MatchResult.concession(named),
                "double_loss": MatchResult.double_loss(),
                "no_show": MatchResult.no_show(named),
            }[kind]
            matches.append(RecordedMatch(number, (first, second), result))
    return players, matches, rounds


@given(event=events(), no_show_as_bye=st.booleans())
@settings(max_examples=150, deadline=None)
def test_standings_equal_the_rules_read_literally(
    event: tuple[list[Player], list[RecordedMatch], int], no_show_as_bye: bool
) -> None:
    # R-FMT-4, R-FMT-5, R-MATCH-6: the fast fold (whole numbers of halves) against fractions.
    players, matches, rounds = event
    standings = build_standings(players, matches, rounds, no_show_as_bye=no_show_as_bye)
    shown = [(row.rank, row.player, row.points, row.opponents_points) for row in standings]
    assert shown == reference_standings(players, matches, rounds, no_show_as_bye)

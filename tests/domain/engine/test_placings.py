"""Final placings (R-FMT-1, R-FMT-5): the top cut first, by the round each player went out
in, then everyone else in the Swiss order with shared ranks; and the knockout stages."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine.elimination import next_round, seeded_bracket
from domain.engine.placings import (
    KnockoutMatch,
    PlaceKind,
    Placing,
    PlacingExplanation,
    StageKind,
    TopCutPlace,
    final_placings,
    prize_order,
    stage,
)
from domain.engine.players import PlayerStatus
from domain.engine.results import MatchResult
from domain.engine.standings import Standing, strict_order
from domain.errors import InvalidInput


@pytest.mark.parametrize(
    ("players", "kind", "seats"),
    [
        (2, StageKind.FINAL, 2),  # 決勝
        (4, StageKind.SEMIFINAL, 4),  # 準決勝
        (3, StageKind.SEMIFINAL, 4),  # a bye fills the fourth seat
        (8, StageKind.QUARTERFINAL, 8),  # 準々決勝
        (6, StageKind.QUARTERFINAL, 8),
        (16, StageKind.ROUND_OF, 16),
        (32, StageKind.ROUND_OF, 32),
    ],
)
def test_a_knockout_round_is_named_by_the_players_left(
    players: int, kind: StageKind, seats: int
) -> None:
    assert stage(players).kind is kind
    assert stage(players).players == seats


def test_one_player_left_is_no_round() -> None:
    with pytest.raises(InvalidInput):
        stage(1)


@given(st.integers(min_value=2, max_value=10_000))
def test_a_stage_has_the_seats_of_the_smallest_bracket_that_holds_the_players(n: int) -> None:
    seats = stage(n).players
    assert seats & (seats - 1) == 0
    assert n <= seats < 2 * n


def test_top_cut_places_are_named_winner_runner_up_and_best_n() -> None:
    assert TopCutPlace(1).kind is PlaceKind.WINNER  # 優勝
    assert TopCutPlace(2).kind is PlaceKind.RUNNER_UP  # 準優勝
    assert TopCutPlace(4).kind is PlaceKind.BEST  # ベスト4
    assert TopCutPlace(16).best == 16  # ベスト16


def row(player: str, points: int, opponents: int, rank: int = 0) -> Standing:
    return Standing(rank, player, points, Fraction(opponents))


def test_the_winner_with_fewer_points_is_first_and_says_why_r_fmt_1() -> None:
    # 1st with 9 points above 2nd with 12: the line says why.
    swiss = [row("a", 12, 20, 1), row("b", 9, 22, 2), row("c", 9, 18, 3), row("d", 6, 20, 4)]
    final = [KnockoutMatch(("a", "b"), MatchResult.win("b"))]
    placed = final_placings(swiss, [final])
    assert [(p.player, p.rank) for p in placed] == [("b", 1), ("a", 2), ("c", 3), ("d", 4)]
    assert placed[0].explanation is PlacingExplanation.WON_TOP_CUT
    assert [p.explanation for p in placed[1:]] == [None, None, None]


def test_without_a_finished_bracket_the_swiss_standings_stand() -> None:
    swiss = [row("a", 6, 3, 1), row("b", 3, 3, 2), row("c", 3, 3, 2)]
    semis = [KnockoutMatch(("a", "c"), MatchResult.win("c")), KnockoutMatch(("b",))]
    assert [p.standing for p in final_placings(swiss, [semis])] == swiss
    assert [p.standing for p in final_placings(swiss, [])] == swiss


# -- the property: the linear version against a straightforward reference -----------------


def random_standings(rng: random.Random, size: int) -> list[Standing]:
    keys = [
        (rng.randint(0, 4) * 3, Fraction(rng.randint(0, 6), rng.choice([1, 2])))
        for _ in range(size)
    ]
    order = sorted(range(size), key=lambda i: (-keys[i][0], -keys[i][1], i))
    statuses = [PlayerStatus.ACTIVE, PlayerStatus.ACTIVE, PlayerStatus.DROPPED]
    rows = [Standing(0, f"p{i}", *keys[i], rng.choice(statuses)) for i in order]
    return [
        Standing(1 + sum(1 for other in rows if other.sort_key > r.sort_key), *_fields(r))
        for r in rows
    ]


def _fields(r: Standing) -> tuple[str, int, Fraction, PlayerStatus]:
    return r.player, r.points, r.opponents_points, r.status


def random_bracket(rng: random.Random, seeds: list[str]) -> list[tuple[KnockoutMatch, ...]]:
    """A bracket played at random: wins, draws the judge decides, double losses, and
    players leaving between rounds (their slot sends nobody on)."""
    slots = [m.players for m in seeded_bracket(seeds).first_round]
    rounds: list[tuple[KnockoutMatch, ...]] = []
    while True:
        played = []
        for players in slots:
            if len(players) < 2:
                played.append(KnockoutMatch(players, MatchResult.bye() if players else None))
                continue
            roll = rng.random()
            if roll < 0.1:
                played.append(KnockoutMatch(players, MatchResult.double_loss()))
            elif roll < 0.2:
                drawn = MatchResult.from_point_zone(players, (2, 2))  # type: ignore[arg-type]
                played.append(KnockoutMatch(players, drawn, rng.choice(players)))
            else:
                played.append(KnockoutMatch(players, MatchResult.win(rng.choice(players))))
        rounds.append(tuple(played))
        if len(played) == 1:
            return rounds
        going_on = [m.advancing if rng.random() > 0.15 else None for m in played]
        slots = [m.players for m in next_round(going_on)]


def reference(
    standings: list[Standing], knockout: list[tuple[KnockoutMatch, ...]]
) -> list[Placing]:
    """Player by player: the round they went out in, then ranks by counting."""
    best: dict[str, int] = {}
    for index, played in enumerate(knockout):
        for match in played:
            for player in match.players:
                if index == len(knockout) - 1 and match.advancing == player:
                    best[player] = 1
                elif match.advancing == player:
                    best[player] = 2 * len(knockout[index + 1])  # out next round, unless seated
                else:
                    best[player] = 2 * len(played)
    rest = [r for r in standings if r.player not in best]
    lines = []
    for r in standings:
        if r.player in best:
            rank = 1 + sum(1 for b in best.values() if b < best[r.player])
            place = TopCutPlace(best[r.player])
        else:
            rank = 1 + len(best) + sum(1 for o in rest if o.sort_key > r.sort_key)
            place = None
        lines.append(Placing(Standing(rank, *_fields(r)), place))
    index = {r.player: i for i, r in enumerate(standings)}
    lines.sort(key=lambda p: (p.rank, index[p.player]))
    explained = []
    for i, line in enumerate(lines):
        better_below = any(o.standing.sort_key > line.standing.sort_key for o in lines[i + 1 :])
        why = None
        if line.top_cut is not None and better_below:
            why = (
                PlacingExplanation.WON_TOP_CUT
                if line.top_cut.best == 1
                else PlacingExplanation.WENT_FURTHER_IN_TOP_CUT
            )
        explained.append(Placing(line.standing, line.top_cut, why))
    return explained


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=2, max_value=60), st.integers(0, 2**32), st.integers(2, 16))
def test_final_placings_equal_the_reference(size: int, seed: int, cut: int) -> None:
    rng = random.Random(seed)
    standings = random_standings(rng, size)
    knockout = random_bracket(rng, [r.player for r in standings[: min(cut, size)]])
    placed = final_placings(standings, knockout)
    assert list(placed) == reference(standings, knockout)
    # R-FMT-5: the prize order is one rank per player, never against a shared rank.
    strict = prize_order(placed, strict_order(standings, seed))
    assert [p.rank for p in strict] == list(range(1, size + 1))
    assert sorted(p.player for p in strict) == sorted(r.player for r in standings)
    shared = {p.player: p.rank for p in placed}
    assert [shared[p.player] for p in strict] == sorted(shared.values())

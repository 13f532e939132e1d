"""Single elimination (R-FMT-1): brackets, byes to top seeds, top-cut seeding, draws."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine import (
    BracketMatch,
    DecisionMethod,
    DrawDecision,
    MatchResult,
    PlayerStatus,
    Standing,
    advancing_player,
    bracket_order,
    next_round,
    random_bracket,
    seeded_bracket,
    strict_order,
    top_cut,
)
from domain.errors import InvalidInput


def test_bracket_order_for_eight() -> None:
    # R-FMT-1: standard seeding, 1v8, 4v5, 2v7, 3v6.
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_top_eight_cut_pairs_1v8_4v5_2v7_3v6() -> None:
    # R-FMT-1 seeded from Swiss standings.
    standings = [Standing(i, f"s{i}", 30 - i, Fraction(0)) for i in range(1, 11)]
    bracket = top_cut(standings, 8)
    assert [m.players for m in bracket.first_round] == [
        ("s1", "s8"),
        ("s4", "s5"),
        ("s2", "s7"),
        ("s3", "s6"),
    ]
    assert bracket.rounds == 3


def test_top_cut_skips_dropped_players() -> None:
    # R-FMT-7: a dropped player is not paired again.
    standings = [
        Standing(1, "a", 9, Fraction(0)),
        Standing(2, "b", 6, Fraction(0), PlayerStatus.DROPPED),
        Standing(3, "c", 3, Fraction(0)),
        Standing(4, "d", 0, Fraction(0)),
        Standing(5, "e", 0, Fraction(-1)),
    ]
    assert [m.players for m in top_cut(standings, 2).first_round] == [("a", "c")]


def test_a_tie_across_the_cut_line_must_be_settled_first() -> None:
    # R-FMT-5: a playoff or a random draw decides; strict_order records the draw.
    standings = [
        Standing(1, "a", 9, Fraction(5)),
        Standing(2, "b", 6, Fraction(5)),
        Standing(2, "c", 6, Fraction(5)),
    ]
    with pytest.raises(InvalidInput) as caught:
        top_cut(standings, 2)
    assert caught.value.rule == "R-FMT-5"
    assert len(top_cut(strict_order(standings, seed=1), 2).first_round) == 1


@pytest.mark.parametrize("players", [2, 3, 5, 6, 7, 12])
def test_byes_go_to_the_top_seeds(players: int) -> None:
    # R-FMT-1: not a power of two, so the best seeds skip the first round.
    seeds = [f"s{i}" for i in range(1, players + 1)]
    bracket = seeded_bracket(seeds)
    size = bracket.size
    assert size >= players > size // 2
    byes = sorted(int(m.players[0][1:]) for m in bracket.first_round if m.is_bye)
    assert byes == list(range(1, size - players + 1))
    entered = sorted(p for m in bracket.first_round for p in m.players)
    assert entered == sorted(seeds)


@given(st.lists(st.text(min_size=1, max_size=4), min_size=2, max_size=40, unique=True))
@settings(max_examples=40, deadline=None)
def test_any_field_gets_a_bracket_with_everyone_once(players: list[str]) -> None:
    # R-FMT-1
    bracket = random_bracket(players, seed=len(players))
    entered = [p for m in bracket.first_round for p in m.players]
    assert sorted(entered) == sorted(players)
    assert all(m.players for m in bracket.first_round)


def test_random_bracket_is_reproducible_from_its_seed() -> None:
    # R-FMT-1 standalone bracket, seeded.
    players = [f"p{i}" for i in range(16)]
    assert random_bracket(players, 7) == random_bracket(list(reversed(players)), 7)
    assert random_bracket(players, 7) != random_bracket(players, 8)


def test_a_drawn_elimination_match_needs_a_recorded_decision() -> None:
    # R-FMT-1: someone must advance; R-FMT-5 names playoff or random draw.
    match = BracketMatch(("a", "b"))
    draw = MatchResult.from_point_zone(("a", "b"), (3, 3))
    with pytest.raises(InvalidInput) as caught:
        advancing_player(match, draw)
    assert caught.value.key == "engine.elimination.draw_needs_winner"
    decision = DrawDecision("b", DecisionMethod.PLAYOFF)
    assert advancing_player(match, draw, decision) == "b"
    with pytest.raises(InvalidInput):
        advancing_player(match, draw, DrawDecision("zed", DecisionMethod.RANDOM_DRAW))


def test_winners_byes_and_double_losses_advance_correctly() -> None:
    # R-FMT-1 winner stays in; R-PEN-3 a double game loss eliminates both.
    ab, cd, bye = BracketMatch(("a", "b")), BracketMatch(("c", "d")), BracketMatch(("e",))
    assert advancing_player(ab, MatchResult.from_point_zone(("a", "b"), (5, 2))) == "b"
    assert advancing_player(cd, MatchResult.concession("c")) == "d"
    assert advancing_player(bye) == "e"
    assert advancing_player(ab, MatchResult.double_loss()) is None
    final = next_round(["b", None, "e", "d"])
    assert [m.players for m in final] == [("b",), ("e", "d")]
    assert final[0].is_bye

"""Swiss pairing: R-FMT-3 (random round 1, then close in ranking), R-FMT-2 (byes),
R-FMT-7 / R-PEN-4 (dropped and disqualified players are not paired), and the quality
target checked against `networkx.max_weight_matching` on the full graph."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine import (
    MatchResult,
    Player,
    PlayerStatus,
    RecordedMatch,
    SwissEntrant,
    entrants_from_history,
    pair_next_round,
    pair_swiss_round,
)
from domain.engine import swiss as swiss_module
from domain.errors import InvalidInput
from tests.domain.engine.support import (
    PATTERNS,
    fewest_rematches_any_bye,
    groups_crossed,
    lower_bound,
    networkx_optimum,
    play_event,
    rematch_count,
)


def e(name: str, points: int = 0, met: str = "", byes: int = 0) -> SwissEntrant:
    return SwissEntrant(name, points, frozenset(met.split()) if met else frozenset(), byes)


def keys(pairing: object) -> list[str]:
    return [note.key for note in pairing.explanation]  # type: ignore[attr-defined]


# -- round 1 and determinism (R-FMT-3) ----------------------------------------------------


def test_round_one_is_random_from_the_seed() -> None:
    # R-FMT-3: round 1 is paired at random; the seed makes it reproducible.
    field = [e(f"p{i}") for i in range(16)]
    first = pair_swiss_round(field, seed=11)
    assert pair_swiss_round(list(reversed(field)), seed=11) == first
    others = {pair_swiss_round(field, seed=s).pairs for s in range(20)}
    assert len(others) > 1
    assert keys(first)[0] == "engine.explain.order"
    assert first.explanation[0].params["seed"] == 11


def test_later_rounds_pair_equal_points_together() -> None:
    # R-FMT-3: from round 2, players close in the ranking meet.
    field = [e("a", 3, "e"), e("b", 3, "f"), e("c", 3, "g"), e("d", 3, "h")]
    field += [e("e", 0, "a"), e("f", 0, "b"), e("g", 0, "c"), e("h", 0, "d")]
    pairing = pair_swiss_round(field, seed=1, round_number=2)
    for first, second in pairing.pairs:
        assert (first < "e") == (second < "e")
    assert pairing.pair_downs == ()
    assert pairing.groups_crossed == pairing.lower_bound == 0


def test_an_odd_group_pairs_one_player_down_and_says_why() -> None:
    # R-FMT-3: pair down as little as possible: exactly one pair crosses.
    field = [e("a", 6), e("b", 6), e("c", 6), e("d", 3), e("f", 3), e("g", 3)]
    pairing = pair_swiss_round(field, seed=5, round_number=3)
    assert len(pairing.pair_downs) == 1
    note = next(n for n in pairing.explanation if n.key == "engine.explain.pair_down_odd_group")
    assert note.params["points"] == 6
    assert note.params["opponent_points"] == 3
    assert note.params["above"] == 3
    assert (note.params["player"], note.params["opponent"]) == pairing.pair_downs[0]


def test_a_rematch_is_avoided_by_pairing_down() -> None:
    # R-FMT-3 and the quality target: never a rematch while a rematch-free pairing exists.
    field = [e("a", 6, "b"), e("b", 6, "a"), e("c", 3), e("d", 3)]
    pairing = pair_swiss_round(field, seed=0, round_number=3)
    assert pairing.rematches == ()
    assert {frozenset(p) for p in pairing.pairs} & {frozenset("ab")} == set()
    assert keys(pairing).count("engine.explain.pair_down_avoid_rematch") == 2


def test_an_unavoidable_rematch_is_made_and_explained() -> None:
    # R-FMT-3: with only two players left who already met, they meet again.
    pairing = pair_swiss_round([e("a", 3, "b"), e("b", 0, "a")], seed=0, round_number=2)
    assert pairing.pairs == (("a", "b"),)
    assert "engine.explain.rematch_unavoidable" in keys(pairing)


def test_same_input_and_seed_give_the_same_pairing() -> None:
    # Determinism (DESIGN): same inputs and seed → same pairings and explanation.
    rounds = list(play_event(50, 5, seed=8))
    again = list(play_event(50, 5, seed=8))
    assert [r.pairing for r in rounds] == [r.pairing for r in again]


def test_duplicate_entrants_are_rejected() -> None:
    with pytest.raises(InvalidInput):
        pair_swiss_round([e("a"), e("a")], seed=0)


# -- byes (R-FMT-2) ---------------------------------------------------------------------


def test_bye_goes_to_the_lowest_scored_player_without_one() -> None:
    # R-FMT-2: a bye scores 3, so it goes to a lowest-scored player who has not had one.
    field = [e("a", 6), e("b", 3), e("c", 3), e("d", 0, byes=1), e("f", 0)]
    pairing = pair_swiss_round(field, seed=3, round_number=3)
    assert pairing.bye == "f"
    field = [e("a", 6), e("b", 3), e("c", 3), e("d", 0, byes=1), e("f", 0, byes=1)]
    pairing = pair_swiss_round(field, seed=3, round_number=3)
    assert pairing.bye in {"b", "c"}
    note = pairing.explanation[1]
    assert note.key == "engine.explain.bye_skipped_had_bye"
    assert note.params == {"player": pairing.bye, "points": 3, "skipped": 2}


def test_a_second_bye_only_when_everyone_has_had_one() -> None:
    # R-FMT-2
    field = [e("a", 6, byes=1), e("b", 3, byes=1), e("c", 0, byes=1)]
    pairing = pair_swiss_round(field, seed=3, round_number=4)
    assert pairing.bye == "c"
    assert "engine.explain.bye_repeat" in keys(pairing)


def test_the_bye_moves_up_when_the_lowest_bye_would_force_a_rematch() -> None:
    # R-FMT-2 and R-FMT-3: a and b already met; giving c the bye would force a-b again.
    field = [e("a", 3, "b"), e("b", 3, "a"), e("c", 0)]
    pairing = pair_swiss_round(field, seed=0, round_number=2)
    assert pairing.rematches == ()
    assert pairing.bye in {"a", "b"}
    assert "engine.explain.bye_to_avoid_rematch" in keys(pairing)


# -- who is paired (R-FMT-7, R-PEN-4, late entry) --------------------------------------


def test_dropped_and_disqualified_players_are_not_paired() -> None:
    # R-FMT-7 (dropped) and R-PEN-4 (disqualified: no further part).
    players = [
        Player("a"),
        Player("b"),
        Player("c", PlayerStatus.DROPPED),
        Player("d", PlayerStatus.DISQUALIFIED),
        Player("f"),
        Player("g"),
    ]
    history = [
        RecordedMatch(1, ("a", "c"), MatchResult.win("a")),
        RecordedMatch(1, ("b", "d"), MatchResult.win("d")),
        RecordedMatch(1, ("f", "g"), MatchResult.win("f")),
    ]
    entrants = entrants_from_history(players, history)
    assert {x.player for x in entrants} == {"a", "b", "f", "g"}
    pairing = pair_next_round(players, history, seed=2)
    assert pairing.round == 2
    assert pairing == pair_swiss_round(entrants, seed=2, round_number=2)
    assert sorted(p for pair in pairing.pairs for p in pair) == ["a", "b", "f", "g"]
    assert pairing.bye is None


def test_late_entrants_join_on_their_given_losses() -> None:
    # R-FMT-2: a late entrant's given losses score 0, so they start in the lowest group.
    players = [Player(p) for p in "abcd"] + [
        Player("late1", late_losses=1),
        Player("late2", late_losses=1),
    ]
    history = [
        RecordedMatch(1, ("a", "b"), MatchResult.win("a")),
        RecordedMatch(1, ("c", "d"), MatchResult.win("c")),
    ]
    entrants = {x.player: x for x in entrants_from_history(players, history)}
    assert entrants["late1"].points == 0
    assert entrants["late1"].opponents == frozenset()
    assert len(entrants) == 6
    pairing = pair_swiss_round(list(entrants.values()), seed=4, round_number=2)
    assert pairing.bye is None
    assert pairing.groups_crossed == pairing.lower_bound == 0
    assert {frozenset(p) for p in pairing.pairs} >= {frozenset(("a", "c"))}


# -- the repair path --------------------------------------------------------------------


def test_window_repair_fixes_a_greedy_rematch() -> None:
    # R-FMT-3: the greedy pass can be left with a rematch at the end of a group; the exact
    # window repair must remove it.
    field = swiss_module._Field([e("a", 3), e("b", 3), e("c", 3, "d"), e("d", 3, "c")])
    greedy = swiss_module._greedy(field)
    assert field.rematch_pairs(greedy) == [(2, 3)]
    repaired = swiss_module._repair(field, greedy)
    assert field.rematch_pairs(repaired) == []
    assert field.faults(repaired) == []


def test_large_field_is_paired_at_the_lower_bound() -> None:
    # R-FMT-3 quality target on a 1000-player event (windows and greedy, no full solve).
    for played in play_event(1000, 6, seed=21):
        pairing = played.pairing
        assert pairing.rematches == ()
        assert pairing.groups_crossed == pairing.lower_bound


# -- properties and the networkx reference -------------------------------------------------


def check_round(played: object, check_optimum: bool) -> None:
    entrants = played.entrants  # type: ignore[attr-defined]
    pairing = played.pairing  # type: ignore[attr-defined]
    names = [x.player for x in entrants]
    # Every active player is paired exactly once (or has the bye).
    seen = [p for pair in pairing.pairs for p in pair] + ([pairing.bye] if pairing.bye else [])
    assert sorted(seen) == sorted(names)
    assert (pairing.bye is not None) == (len(names) % 2 == 1)
    # At most one bye per player while it can be avoided (R-FMT-2).
    if pairing.bye is not None and any(x.byes == 0 for x in entrants):
        assert next(x for x in entrants if x.player == pairing.bye).byes == 0
    # The pairing's own measures are honest.
    assert pairing.groups_crossed == groups_crossed(entrants, pairing.pairs)
    assert pairing.lower_bound == lower_bound(entrants, pairing.bye)
    assert len(pairing.rematches) == rematch_count(entrants, pairing.pairs)
    if check_optimum:
        best_rematches, best_crossed = networkx_optimum(entrants, pairing.bye)
        # No rematch when one can be avoided; groups crossed at the optimum (R-FMT-3).
        assert len(pairing.rematches) == best_rematches
        assert pairing.groups_crossed == best_crossed
        if best_crossed == pairing.lower_bound:
            assert pairing.groups_crossed == pairing.lower_bound
        if pairing.rematches and pairing.bye is not None:
            assert len(pairing.rematches) == fewest_rematches_any_bye(entrants)


@given(
    players=st.integers(2, 40),
    rounds=st.integers(1, 9),
    seed=st.integers(0, 2**32),
    drop_rate=st.sampled_from([0.0, 0.0, 0.1]),
)
@settings(max_examples=150, deadline=None)
def test_pairing_properties(players: int, rounds: int, seed: int, drop_rate: float) -> None:
    # R-FMT-2, R-FMT-3, R-FMT-7: paired once, no avoidable rematch, no avoidable second bye,
    # quality equal to the networkx optimum.
    for played in play_event(players, rounds, seed, drop_rate):
        check_round(played, check_optimum=True)


@pytest.mark.parametrize("case", range(24))
def test_quality_equals_networkx_optimum_on_random_fields(case: int) -> None:
    # R-FMT-3 quality target against networkx.max_weight_matching, 8 to 64 players,
    # up to 8 rounds.
    rng = random.Random(case)
    players = rng.choice([8, 9, 16, 23, 32, 47, 64])
    rounds = rng.randint(3, 8)
    for played in play_event(players, rounds, seed=case * 7919):
        check_round(played, check_optimum=True)


@pytest.mark.parametrize("pattern", sorted(PATTERNS))
def test_quality_equals_networkx_optimum_at_every_size_up_to_48(pattern: str) -> None:
    # R-FMT-2, R-FMT-3, R-FMT-7 at every field size from 4 to 48, rounds up to
    # ceil(log2 n) + 3 (so rematches become unavoidable in the smallest fields), with
    # random results, all draws, many double losses (R-PEN-3) or 25% drops a round.
    result, drop_rate = PATTERNS[pattern]
    for players in range(4, 49):
        rounds = (players - 1).bit_length() + 3
        for played in play_event(players, rounds, players * 31, drop_rate, result):
            check_round(played, check_optimum=True)


@pytest.mark.parametrize(("players", "pattern"), [(100, "double_losses"), (128, "random")])
def test_whole_field_solve_equals_networkx_optimum(players: int, pattern: str) -> None:
    # R-FMT-3: fields this size are solved whole (on a banded graph, proved by prices).
    result, drop_rate = PATTERNS[pattern]
    for played in play_event(players, 10, seed=players, drop_rate=drop_rate, result=result):
        check_round(played, check_optimum=True)


def test_explanations_cover_every_pair_down_and_the_bye() -> None:
    # R-FMT-3: every pair-down and the bye are explained.
    for played in play_event(41, 5, seed=2):
        pairing = played.pairing
        downs = [
            (n.params["player"], n.params["opponent"])
            for n in pairing.explanation
            if n.key.startswith("engine.explain.pair_down")
        ]
        assert downs == list(pairing.pair_downs)
        assert any(n.key.startswith("engine.explain.bye") for n in pairing.explanation)

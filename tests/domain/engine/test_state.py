"""The tournament state machine: registration → running (paired → in progress → complete)
→ top cut → finished. R-FMT-2 (a fixed number of rounds), R-FMT-1 (top cut)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain.engine import Phase, RoundStatus, TournamentState
from domain.errors import IllegalTransition


def running(rounds: int = 2) -> TournamentState:
    return TournamentState().start(rounds)


def play_round(state: TournamentState, tables: tuple[int, ...] = (1, 2)) -> TournamentState:
    state = state.pair_round(tables).begin_round()
    for table in tables:
        state = state.record_result(table)
    return state


def test_a_full_event_with_top_cut() -> None:
    # R-FMT-2 fixed rounds, then R-FMT-1 single elimination.
    state = TournamentState()
    assert state.phase is Phase.REGISTRATION
    state = state.start(2)
    state = state.pair_round([1, 2, 3])
    assert state.current is not None
    assert state.current.status is RoundStatus.PAIRED
    state = state.begin_round()
    assert state.current is not None
    assert state.current.status is RoundStatus.IN_PROGRESS
    for table in (3, 1, 2):
        state = state.record_result(table)
    assert state.current is not None
    assert state.current.status is RoundStatus.COMPLETE
    state = play_round(state)
    state = state.start_top_cut()
    assert state.phase is Phase.TOP_CUT
    assert state.finish().phase is Phase.FINISHED


def test_pairing_the_next_round_names_the_missing_tables() -> None:
    # R-FMT-3: the next round is paired from the current ranking, so every result must be in.
    state = running(3).pair_round([1, 2, 3, 4]).begin_round().record_result(2)
    with pytest.raises(IllegalTransition) as caught:
        state.pair_round([1, 2])
    assert caught.value.key == "engine.state.missing_results"
    assert caught.value.params["round"] == 1
    assert caught.value.params["tables"] == (1, 3, 4)  # joined per language by the catalog


def test_a_paired_round_that_has_not_started_is_missing_everything() -> None:
    state = running().pair_round([5, 6])
    with pytest.raises(IllegalTransition) as caught:
        state.pair_round([1])
    assert caught.value.params["tables"] == (5, 6)
    with pytest.raises(IllegalTransition):
        state.record_result(5)  # results come in once the round is in progress


def test_no_round_beyond_the_planned_number() -> None:
    # R-FMT-2: a fixed number of rounds.
    state = play_round(running(1))
    with pytest.raises(IllegalTransition) as caught:
        state.pair_round([1])
    assert caught.value.rule == "R-FMT-2"


def test_top_cut_and_finish_wait_for_the_last_swiss_round() -> None:
    state = play_round(running(2))
    for step in (state.start_top_cut, state.finish):
        with pytest.raises(IllegalTransition) as caught:
            step()
        assert caught.value.key == "engine.state.rounds_remaining"
    assert play_round(state).finish().phase is Phase.FINISHED


@pytest.mark.parametrize(
    "step",
    [
        lambda s: s.pair_round([1]),
        lambda s: s.begin_round(),
        lambda s: s.record_result(1),
        lambda s: s.start_top_cut(),
        lambda s: s.finish(),
    ],
)
def test_nothing_happens_during_registration_but_start(
    step: Callable[[TournamentState], object],
) -> None:
    with pytest.raises(IllegalTransition) as caught:
        step(TournamentState())
    assert caught.value.key == "engine.state.illegal_step"


def test_finished_and_started_events_cannot_start_again() -> None:
    state = play_round(running(1)).finish()
    steps: list[Callable[[], TournamentState]] = [
        lambda: state.start(3),
        lambda: state.pair_round([1]),
        state.finish,
    ]
    for step in steps:
        with pytest.raises(IllegalTransition):
            step()


def test_a_round_of_only_a_bye_completes_at_once() -> None:
    state = running(1).pair_round([]).begin_round()
    assert state.current is not None
    assert state.current.status is RoundStatus.COMPLETE

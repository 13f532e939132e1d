"""The simulator: real pairing, random results with ~10% time results (R-MATCH-2)."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.engine import default_rounds, simulate
from domain.errors import InvalidInput


def test_rounds_default_to_ceil_log2_and_results_use_the_record_vocabulary() -> None:
    # R-FMT-2 default rounds; R-MATCH-2 time results appear as judge:NAME or draw.
    event = simulate(400, seed=4)
    assert len(event.rounds) == default_rounds(400)
    kinds: Counter[str] = Counter()
    for played in event.rounds:
        for match in played.matches:
            token = match.result
            if token in ("bye", "draw", "double_loss"):
                kinds[token] += 1
            elif ":" in token:
                kinds[token.split(":")[0]] += 1
            else:
                assert token in match.players
                kinds["win"] += 1
    time_share = (kinds["judge"] + kinds["draw"]) / sum(kinds.values())
    assert 0.06 < time_share < 0.14


def test_points_before_are_the_points_going_into_the_round() -> None:
    # R-FMT-2
    event = simulate(12, 3, seed=1)
    assert all(m.points_before == (0, 0) for m in event.rounds[0].matches)
    standings = {row.player: row.points for row in event.standings()}
    last = event.rounds[-1]
    for match in last.matches:
        for player, before in zip(match.players, match.points_before, strict=True):
            assert before <= standings[player]


def test_same_seed_same_event_and_the_clock_is_injected() -> None:
    ticks = iter(range(100))
    event = simulate(10, 3, seed=5, clock=lambda: float(next(ticks)))
    assert [played.seconds for played in event.rounds] == [1.0, 1.0, 1.0]
    assert simulate(10, 3, seed=5).record == event.record


def test_too_few_players() -> None:
    with pytest.raises(InvalidInput):
        simulate(1, 1)

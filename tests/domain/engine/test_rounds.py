"""Number of Swiss rounds: default ceil(log2 N), organizer override (R-FMT-2, R-FMT-6)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine import default_rounds, swiss_rounds
from domain.errors import InvalidInput


@pytest.mark.parametrize(
    ("players", "rounds"), [(1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (4096, 12)]
)
def test_default_rounds_is_ceil_log2(players: int, rounds: int) -> None:
    # R-FMT-2: a fixed number of rounds; the default lets one player stay undefeated.
    assert default_rounds(players) == rounds


@given(st.integers(1, 100_000))
@settings(max_examples=100, deadline=None)
def test_default_rounds_agrees_with_math_log2(players: int) -> None:
    # R-FMT-2
    assert default_rounds(players) == math.ceil(math.log2(players))


def test_organizer_override_wins_and_is_checked() -> None:
    # R-FMT-6: the organizer announces the format, which may differ from the default.
    assert swiss_rounds(32) == 5
    assert swiss_rounds(32, override=7) == 7
    with pytest.raises(InvalidInput):
        swiss_rounds(32, override=0)
    with pytest.raises(InvalidInput):
        default_rounds(0)

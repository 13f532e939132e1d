"""Swiss points for each outcome (R-FMT-2)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from domain.engine.results import MatchResult, Outcome

# R-FMT-2: win 3, judgement win 2, draw 1, judgement loss 0, loss 0; a bye scores 3.
POINTS: Mapping[Outcome, int] = MappingProxyType(
    {
        Outcome.WIN: 3,
        Outcome.JUDGEMENT_WIN: 2,
        Outcome.DRAW: 1,
        Outcome.JUDGEMENT_LOSS: 0,
        Outcome.LOSS: 0,
        Outcome.BYE: 3,
    }
)


def points_for(outcome: Outcome) -> int:
    return POINTS[outcome]


def match_points(result: MatchResult, players: tuple[str, ...]) -> dict[str, int]:
    """The points each player of a match scored from `result`."""
    return {player: POINTS[outcome] for player, outcome in result.outcomes(players).items()}

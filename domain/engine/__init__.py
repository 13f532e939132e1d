"""The tournament engine: results, points, standings, Swiss and elimination pairing.

Pure rules (R-FMT, R-MATCH-2 to R-MATCH-4, the scoring side of R-PEN-3 and R-PEN-4):
no I/O, no clock, no global random; seeds and clocks are passed in. The names below are
the public API; the modules hold the details.
"""

from __future__ import annotations

from domain.engine.elimination import (
    Bracket,
    BracketMatch,
    DecisionMethod,
    DrawDecision,
    advancing_player,
    bracket_order,
    next_round,
    random_bracket,
    seeded_bracket,
    top_cut,
)
from domain.engine.explanation import Explanation
from domain.engine.history import SwissEntrant, entrants_from_history
from domain.engine.players import Player, PlayerStatus
from domain.engine.points import POINTS, match_points, points_for
from domain.engine.record import TournamentRecord, parse_record, parse_result, result_token
from domain.engine.results import MatchResult, Outcome, RecordedMatch, ResultKind
from domain.engine.rounds import default_rounds, swiss_rounds
from domain.engine.simulate import Simulation, simulate
from domain.engine.standings import (
    Standing,
    build_standings,
    bye_opponent_points,
    player_points,
    strict_order,
)
from domain.engine.state import Phase, RoundState, RoundStatus, TournamentState
from domain.engine.swiss import SwissPairing, pair_next_round, pair_swiss_round

__all__ = [
    "POINTS",
    "Bracket",
    "BracketMatch",
    "DecisionMethod",
    "DrawDecision",
    "Explanation",
    "MatchResult",
    "Outcome",
    "Phase",
    "Player",
    "PlayerStatus",
    "RecordedMatch",
    "ResultKind",
    "RoundState",
    "RoundStatus",
    "Simulation",
    "Standing",
    "SwissEntrant",
    "SwissPairing",
    "TournamentRecord",
    "TournamentState",
    "advancing_player",
    "bracket_order",
    "build_standings",
    "bye_opponent_points",
    "default_rounds",
    "entrants_from_history",
    "match_points",
    "next_round",
    "pair_next_round",
    "pair_swiss_round",
    "parse_record",
    "parse_result",
    "player_points",
    "points_for",
    "random_bracket",
    "result_token",
    "seeded_bracket",
    "simulate",
    "strict_order",
    "swiss_rounds",
    "top_cut",
]

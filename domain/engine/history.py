"""What Swiss pairing needs to know about each player, folded from the match history."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain.engine.players import Player
from domain.engine.points import POINTS
from domain.engine.results import RecordedMatch
from domain.errors import InvalidInput


@dataclass(frozen=True)
class SwissEntrant:
    """A player to pair: current points, everyone already played, and byes received."""

    player: str
    points: int = 0
    opponents: frozenset[str] = frozenset()
    byes: int = 0


def entrants_from_history(
    players: Sequence[Player], matches: Iterable[RecordedMatch]
) -> list[SwissEntrant]:
    """The active players with their points, opponents and byes (R-FMT-7: others are left out).

    Late entrants' given losses score 0 and have no opponent, so they need no entry here.
    """
    points, opponents, byes = tally_history(players, matches)
    return [
        SwissEntrant(p.id, points[p.id], frozenset(opponents[p.id]), byes[p.id])
        for p in players
        if p.active
    ]


def tally_history(
    players: Sequence[Player], matches: Iterable[RecordedMatch]
) -> tuple[dict[str, int], dict[str, list[str]], dict[str, int]]:
    """Points, opponents played (in order, repeats kept) and byes of every player."""
    points = {player.id: 0 for player in players}
    if len(points) != len(players):
        raise InvalidInput("engine.standings.duplicate_player")
    opponents: dict[str, list[str]] = {player_id: [] for player_id in points}
    byes = dict.fromkeys(points, 0)
    for match in matches:
        for player_id, outcome in match.outcomes().items():
            if player_id not in points:
                raise InvalidInput(
                    "engine.standings.unknown_player", player=player_id, round=match.round
                )
            points[player_id] += POINTS[outcome]
        if match.is_bye:
            byes[match.players[0]] += 1
        else:
            first, second = match.players
            opponents[first].append(second)
            opponents[second].append(first)
    return points, opponents, byes
